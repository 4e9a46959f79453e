/*
 * test_compat.c - ward's walk in place of openat2 (supervisor/compat.c)
 * against the kernel's own openat2: on each case of a table (links on the
 * way and at the end, trailing slashes, "." and "..", mounts crossed,
 * names too long, creation), both must give the same object or the same
 * error.
 */
#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cmocka.h>

static char top[PATH_MAX];
static int topfd;

static void mk(const char *rel, const char *link)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", top, rel);
	if (link != NULL)
		assert_int_equal(symlink(link, p), 0);
	else if (rel[strlen(rel) - 1] == '/')
		assert_int_equal(mkdir(p, 0700), 0);
	else
		assert_int_equal(close(open(p, O_CREAT | O_WRONLY, 0600)), 0);
}

static int setup(void **state)
{
	(void)state;
	snprintf(top, sizeof(top), "/tmp/ward-test-compat-XXXXXX");
	assert_non_null(mkdtemp(top));
	mk("d/", NULL);
	mk("d/e/", NULL);
	mk("d/e/f", NULL);
	mk("d/file", NULL);
	mk("ld", "d");
	mk("d/lf", "file");
	mk("d/dangling", "nowhere");
	mk("d/abs", "/etc");
	topfd = open(top, O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(topfd >= 0);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[PATH_MAX + 16];
	close(topfd);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	return system(cmd) == 0 ? 0 : -1;
}

struct kase {
	const char *path;
	uint64_t flags, resolve;
	bool abs; /* from the root, not the test's directory */
};

/* What one open gave: the object, or the error. */
struct got {
	int err;
	dev_t dev;
	ino_t ino;
	mode_t fmt;
};

static struct got one(const struct kase *k, bool walk)
{
	struct open_how how = { .flags = k->flags | O_CLOEXEC,
				.mode = (k->flags & O_CREAT) ? 0600 : 0,
				.resolve = k->resolve };
	struct got g = { 0 };
	struct stat st;
	int dir = k->abs ? AT_FDCWD : topfd, fd;

	if (walk) {
		compat_openat2_off = true;
		fd = ward_openat2(dir, k->path, &how);
		compat_openat2_off = false;
	} else {
		fd = (int)syscall(SYS_openat2, dir, k->path, &how, sizeof(how));
	}
	if (fd < 0) {
		g.err = errno;
		return g;
	}
	assert_int_equal(fstat(fd, &st), 0);
	close(fd);
	g.dev = st.st_dev;
	g.ino = st.st_ino;
	g.fmt = st.st_mode & S_IFMT;
	return g;
}

static void test_same_as_openat2(void **state)
{
	(void)state;
	const uint64_t NS = RESOLVE_NO_SYMLINKS, NX = RESOLVE_NO_XDEV;
	char longname[NAME_MAX + 8];
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	const struct kase cases[] = {
		{ "d/e/f", O_RDONLY, NS, false },
		{ "d/e/f", O_PATH, NS, false },
		{ "d/e/", O_PATH, NS, false },
		{ "d/e//", O_RDONLY | O_DIRECTORY, NS, false },
		{ "d/file/", O_RDONLY, NS, false },
		{ "d/./e/../file", O_RDONLY, NS, false },
		{ ".", O_PATH, NS, false },
		{ "..", O_PATH, NS, false },
		{ "d/e/f/..", O_PATH, NS, false },
		{ "ld/file", O_RDONLY, NS, false },
		{ "ld", O_PATH, NS, false },
		{ "ld", O_PATH | O_NOFOLLOW, NS, false },
		{ "ld/", O_PATH | O_NOFOLLOW, NS, false },
		{ "d/lf", O_RDONLY, NS, false },
		{ "d/lf", O_RDONLY | O_NOFOLLOW, NS, false },
		{ "d/lf", O_PATH | O_NOFOLLOW, NS, false },
		{ "d/lf", O_RDONLY | O_DIRECTORY, NS, false },
		{ "d/dangling", O_WRONLY | O_CREAT, NS, false },
		{ "d/abs/passwd", O_RDONLY, NS, false },
		{ "d/missing", O_RDONLY, NS, false },
		{ "d/missing/x", O_RDONLY, NS, false },
		{ "d/newdir/", O_WRONLY | O_CREAT, NS, false },
		{ "d/e/", O_WRONLY | O_CREAT, NS, false },
		{ "d/file", O_RDONLY | O_DIRECTORY, NS, false },
		{ "", O_PATH, NS, false },
		{ longname, O_PATH, NS, false },
		{ "/etc/passwd", O_RDONLY, NS, true },
		{ "/", O_PATH, NS, true },
		{ "//etc///", O_PATH, NS, true },
		{ "/proc/self/status", O_RDONLY, NS, true },
		{ "/proc/1", O_PATH, NS | NX, true },
		{ "/proc", O_PATH, NS | NX, true },
		{ "/dev/shm", O_PATH, NS | NX, true },
		{ "/etc", O_PATH, NS | NX, true },
		{ "d/e", O_PATH, NS | NX, false },
		{ "d/e/f", O_RDONLY, RESOLVE_BENEATH, false },
	};

	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const struct kase *k = &cases[i];
		struct got want = one(k, false), got = one(k, true);
		/* The kernel's own for a flag the walk does not know: ENOSYS, as without openat2. */
		if (k->resolve & RESOLVE_BENEATH) {
			if (got.err != ENOSYS)
				fail_msg("%s: RESOLVE_BENEATH walked (%s)", k->path, strerror(got.err));
			continue;
		}
		if (got.err != want.err || got.dev != want.dev || got.ino != want.ino ||
		    got.fmt != want.fmt)
			fail_msg("case %zu '%s' flags %#llx resolve %#llx: openat2 gave %s (%lu), the "
				 "walk %s (%lu)", i, k->path, (unsigned long long)k->flags,
				 (unsigned long long)k->resolve, want.err ? strerror(want.err) : "an fd",
				 (unsigned long)want.ino, got.err ? strerror(got.err) : "an fd",
				 (unsigned long)got.ino);
	}
}

/* A kernel without openat2 is what the walk is for: the call itself ENOSYS, the walk taken. */
static void test_walk_taken(void **state)
{
	(void)state;
	struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS };
	int fd;

	compat_openat2_off = true;
	fd = ward_openat2(topfd, "ld/file", &how);
	assert_int_equal(fd, -1);
	assert_int_equal(errno, ELOOP);
	how.resolve = RESOLVE_NO_MAGICLINKS; /* symlinks followed, magic links not: no older call tells */
	fd = ward_openat2(topfd, "d/file", &how);
	assert_int_equal(fd, -1);
	assert_int_equal(errno, ENOSYS);
	compat_openat2_off = false;
	fd = ward_openat2(topfd, "d/file", &how);
	assert_true(fd >= 0);
	close(fd);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same_as_openat2),
		cmocka_unit_test(test_walk_taken),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
