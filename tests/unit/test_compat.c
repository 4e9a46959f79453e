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
static int topfd, procfd;

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
	procfd = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
	assert_true(procfd >= 0);
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
	int from; /* 0: from the test's directory, 1: the cwd, 2: /proc (another mount) */
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
	int dir = k->from == 1 ? AT_FDCWD : k->from == 2 ? procfd : topfd, fd;

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
	char longname[NAME_MAX + 8], longpath[PATH_MAX + 8];
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	for (size_t i = 0; i + 2 < sizeof(longpath); i += 2)
		memcpy(longpath + i, "./", 2); /* every name short, the whole too long */
	longpath[sizeof(longpath) - 1] = '\0';
	const struct kase cases[] = {
		{ "d/e/f", O_RDONLY, NS, 0 },
		{ "d/e/f", O_PATH, NS, 0 },
		{ "d/e/", O_PATH, NS, 0 },
		{ "d/e//", O_RDONLY | O_DIRECTORY, NS, 0 },
		{ "d/file/", O_RDONLY, NS, 0 },
		{ "d/./e/../file", O_RDONLY, NS, 0 },
		{ ".", O_PATH, NS, 0 },
		{ "..", O_PATH, NS, 0 },
		{ "d/e/f/..", O_PATH, NS, 0 },
		{ "ld/file", O_RDONLY, NS, 0 },
		{ "ld", O_PATH, NS, 0 },
		{ "ld", O_PATH | O_NOFOLLOW, NS, 0 },
		{ "ld/", O_PATH | O_NOFOLLOW, NS, 0 },
		{ "d/lf", O_RDONLY, NS, 0 },
		{ "d/lf", O_RDONLY | O_NOFOLLOW, NS, 0 },
		{ "d/lf", O_PATH | O_NOFOLLOW, NS, 0 },
		{ "d/lf", O_RDONLY | O_DIRECTORY, NS, 0 },
		{ "d/dangling", O_WRONLY | O_CREAT, NS, 0 },
		{ "d/dangling", O_WRONLY | O_CREAT | O_EXCL, NS, 0 },
		{ "d/lf", O_WRONLY | O_CREAT | O_EXCL, NS, 0 },
		{ "ld", O_PATH | O_NOFOLLOW | O_DIRECTORY, NS, 0 },
		{ "d/lf", O_PATH | O_NOFOLLOW | O_DIRECTORY, NS, 0 },
		{ "d/abs/passwd", O_RDONLY, NS, 0 },
		{ "d/missing", O_RDONLY, NS, 0 },
		{ "d/missing/x", O_RDONLY, NS, 0 },
		{ "d/newdir/", O_WRONLY | O_CREAT, NS, 0 },
		{ "d/e/", O_WRONLY | O_CREAT, NS, 0 },
		{ "d/file", O_RDONLY | O_DIRECTORY, NS, 0 },
		{ "", O_PATH, NS, 0 },
		{ longname, O_PATH, NS, 0 },
		{ "/etc/passwd", O_RDONLY, NS, 1 },
		{ "/", O_PATH, NS, 1 },
		{ "//etc///", O_PATH, NS, 1 },
		{ "/proc/self/status", O_RDONLY, NS, 1 },
		{ "/proc/1", O_PATH, NS | NX, 1 },
		{ "/proc", O_PATH, NS | NX, 1 },
		{ "/dev/shm", O_PATH, NS | NX, 1 },
		{ "/etc", O_PATH, NS | NX, 1 },
		{ "/etc/passwd", O_RDONLY, NS | NX, 2 }, /* absolute, from a dirfd on another mount */
		{ longpath, O_PATH, NS, 0 },
		{ "d/e", O_PATH, NS | NX, 0 },
		{ "d/e/f", O_RDONLY, RESOLVE_BENEATH, 0 },
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
