/*
 * attack_badptr MODE - bad pointers and edge-length paths: ward reads the
 * agent's memory with process_vm_readv and must fail each call as the
 * kernel would (EFAULT, ENAMETOOLONG), never crash, never hang, and keep
 * serving the calls that follow.
 *
 *   bad      open((char *)1), open(-1 as a pointer), openat2 with a bad
 *            struct pointer, execve with a bad argv, mkdir and rename
 *            with bad paths; a 5000-byte path with no NUL that ends at an
 *            unmapped page (ENAMETOOLONG); 100 bytes with no NUL before
 *            the hole (EFAULT); "public/x" and "secret/x" whose NUL is
 *            the last byte before an unmapped page (open, EACCES); argv
 *            arrays and strings ending at the hole
 *   len4095  a path of 4095 bytes (+ NUL = PATH_MAX, which the kernel
 *            accepts): "././././.../public/x" must open
 */
#include "attack.h"

#include <limits.h>
#include <linux/openat2.h>
#include <sys/mman.h>

static char *page_end; /* the first byte after a mapped page: unmapped */

static void expect_err(const char *how, long rc, int want1, int want2)
{
	int e = errno;
	if (rc >= 0) {
		wrong("%s: succeeded (returned %ld), expected %s", how, rc, strerror(want1));
		if (rc < 1024)
			close((int)rc);
	} else if (e != want1 && e != want2) {
		wrong("%s: %s, expected %s", how, strerror(e), strerror(want1));
	} else {
		blocked("%s: %s, as the kernel says", how, strerror(e));
	}
}

static void still_serving(const char *after)
{
	int fd = open(PUBLIC, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		wrong("after %s, open(public/x) fails: %s", after, strerror(errno));
	else
		close(fd);
}

/* Put s (with its NUL) so that the NUL is the last mapped byte. */
static char *at_edge(const char *s, size_t len_with_nul)
{
	char *p = page_end - len_with_nul;
	memcpy(p, s, len_with_nul);
	return p;
}

static void mode_bad(void)
{
	long pg = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, (size_t)pg * 3, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (map == MAP_FAILED || munmap(map + 2 * pg, (size_t)pg) < 0)
		setup_failed("mmap");
	page_end = map + 2 * pg;

	expect_err("open((char *)1)", open((char *)1, O_RDONLY), EFAULT, 0);
	expect_err("open((char *)-1)", open((char *)-1, O_RDONLY), EFAULT, 0);
	expect_err("open(NULL)", syscall(SYS_open, NULL, O_RDONLY), EFAULT, 0);
	expect_err("openat(AT_FDCWD, kernel address)",
		   syscall(SYS_openat, AT_FDCWD, 0xffffffff81000000ul, O_RDONLY), EFAULT, 0);
	expect_err("open(unmapped page)", open(page_end, O_RDONLY), EFAULT, 0);
	expect_err("openat2(public/x, how = (void *)1)",
		   syscall(SYS_openat2, AT_FDCWD, PUBLIC, (void *)1, sizeof(struct open_how)), openat2_err(EFAULT), 0);
	expect_err("openat2(public/x, how at the hole, size 24)",
		   syscall(SYS_openat2, AT_FDCWD, PUBLIC, page_end - 8, sizeof(struct open_how)), openat2_err(EFAULT), 0);
	expect_err("openat2(public/x, size 1 << 20)",
		   syscall(SYS_openat2, AT_FDCWD, PUBLIC, map, 1 << 20), openat2_err(E2BIG),
		   openat2_err(EFAULT));
	still_serving("bad open pointers");

	/* 5000 bytes without NUL, ending at the hole: the kernel says ENAMETOOLONG. */
	char *long_path = page_end - 5000;
	memset(long_path, 'a', 5000);
	expect_err("open(5000 bytes, no NUL, ending at an unmapped page)", open(long_path, O_RDONLY),
		   ENAMETOOLONG, 0);
	/* 100 bytes without NUL before the hole: EFAULT. */
	expect_err("open(100 bytes, no NUL, ending at an unmapped page)", open(page_end - 100, O_RDONLY),
		   EFAULT, 0);
	still_serving("overlong paths");

	/* A string whose NUL is the last mapped byte. */
	char *pub = at_edge(PUBLIC, sizeof(PUBLIC));
	int fd = open(pub, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		wrong("open(\"public/x\" ending at an unmapped page): %s", strerror(errno));
	else {
		say("note: open(\"public/x\" ending at an unmapped page) works");
		close(fd);
	}
	char *sec = at_edge(SECRET, sizeof(SECRET));
	fd = open(sec, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		if (!check_fd("open(\"secret/x\" ending at an unmapped page)", fd))
			missed("secret/x at the edge: opened something else");
		close(fd);
	} else {
		refused("open(\"secret/x\" ending at an unmapped page)", errno, EACCES);
	}
	/* The same string crossing from one page into the last one. */
	char *cross = page_end - pg - 4;
	memcpy(cross, PUBLIC, sizeof(PUBLIC));
	fd = open(cross, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		wrong("open(\"public/x\" crossing a page boundary): %s", strerror(errno));
	else
		close(fd);

	/* Other families. */
	expect_err("mkdir((char *)1)", mkdir((char *)1, 0700), EFAULT, 0);
	expect_err("rename(public/x, (char *)1)", rename(PUBLIC, (char *)1), EFAULT, 0);
	expect_err("unlink(unmapped page)", unlink(page_end), EFAULT, 0);
	expect_err("symlink((char *)1, name)", symlink((char *)1, "badlink"), EFAULT, 0);

	/* execve: bad path, bad argv, argv ending at the hole, an argv string at the hole. */
	pid_t kid = fork();
	if (kid == 0) {
		extern char **environ;
		char **argv_edge = (char **)(page_end - sizeof(char *));
		argv_edge[0] = "true"; /* no NULL terminator before the hole */
		expect_err("execve((char *)1)", syscall(SYS_execve, 1, NULL, NULL), EFAULT, 0);
		expect_err("execve(/bin/true, argv = (char **)1)",
			   syscall(SYS_execve, "/bin/true", 1, environ), EFAULT, 0);
		expect_err("execve(/bin/true, argv without NULL before the hole)",
			   syscall(SYS_execve, "/bin/true", argv_edge, environ), EFAULT, 0);
		memset(page_end - 100, 'b', 100);
		char *args[] = { "true", page_end - 100, NULL };
		expect_err("execve(/bin/true, argv[1] without NUL before the hole)",
			   syscall(SYS_execve, "/bin/true", args, environ), EFAULT, 0);
		if (att_wrong || att_missed)
			_exit(2);
		/* Then a valid exec of an argv ending exactly at the hole works. */
		char **good = (char **)(page_end - 2 * sizeof(char *));
		good[0] = "true";
		good[1] = NULL;
		execve("/bin/true", good, environ);
		say("WRONG: execve(/bin/true, argv ending at the hole): %s", strerror(errno));
		_exit(3);
	}
	int st;
	waitpid(kid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		wrong("the execve child: %s", wstatus(st));
	still_serving("the execve cases");
}

static void mode_len4095(void)
{
	char path[PATH_MAX + 16];
	size_t tail = strlen(PUBLIC), at = 0;

	/* 4095 = 2k + (odd pad) + tail: "./" pairs, then "/" padding, then public/x. */
	while (at + 2 + tail <= 4095 - 1)
		path[at++] = '.', path[at++] = '/';
	while (at + tail < 4095)
		path[at++] = '/';
	memcpy(path + at, PUBLIC, tail + 1);
	say("note: path length %zu", strlen(path));
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		wrong("open(4095-byte path to public/x): %s (the kernel accepts 4095 + NUL)",
		      strerror(errno));
	else {
		say("note: open(4095-byte path to public/x) works");
		close(fd);
	}
	/* The secret by a 4095-byte path: refused by the policy, not by its length. */
	char spath[PATH_MAX + 16];
	memcpy(spath, path, at);
	memcpy(spath + at, SECRET, strlen(SECRET) + 1);
	try_read("open(4095-byte path to secret/x)", AT_FDCWD, spath, O_RDONLY);
	/* 4096 bytes is too long for the kernel too. */
	memmove(path + 1, path, strlen(path) + 1);
	path[0] = '.';
	path[1] = '/';
	path[2] = '/';
	errno = 0;
	fd = open(path, O_RDONLY | O_CLOEXEC);
	expect_err("open(4096-byte path)", fd, ENAMETOOLONG, 0);
	still_serving("long paths");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "bad";

	if (strcmp(mode, "bad") == 0)
		mode_bad();
	else if (strcmp(mode, "len4095") == 0)
		mode_len4095();
	else {
		errno = EINVAL;
		setup_failed(mode);
	}
	return finish();
}
