/*
 * common.h - what the tests/progs programs share.
 *
 * Each program makes one kind of system call with raw syscall(2), so that
 * no libc wrapper changes which call is made, and prints one line a call,
 * strace style:
 *
 *     openat(AT_FDCWD, "f", O_WRONLY|O_CREAT, 0644) = 3
 *     unlink("f/") = -1 ENOTDIR
 *
 * Arguments come from the command line and are printed as they were given
 * (paths quoted), so tests/integration/progs.sh can write the expected
 * output down.  Flags, modes and numbers are parsed by num(): names from
 * the table below or numbers (0x.., 0..., decimal), joined with '|'.
 *
 * An fd argument (FD) is one of
 *     AT_FDCWD or a number    used as it is
 *     @PATH                   openat(AT_FDCWD, PATH, O_RDONLY|O_DIRECTORY)
 *     %PATH                   openat(AT_FDCWD, PATH, O_RDONLY)
 *     ^PATH                   openat(AT_FDCWD, PATH, O_RDONLY|O_CLOEXEC)
 *     =PATH                   openat(AT_FDCWD, PATH, O_RDWR)
 *     >PATH                   openat(AT_FDCWD, PATH, O_WRONLY)
 *     #PATH                   openat(AT_FDCWD, PATH, O_PATH)
 *     &PATH                   openat(AT_FDCWD, PATH, O_PATH|O_NOFOLLOW)
 *     +PATH                   openat(AT_FDCWD, PATH, O_RDWR|O_TMPFILE, 0600)
 * the open being made (and printed) first, and the fd kept open.
 *
 * Exit status: 0 when every call was made (whatever it returned), 2 on a
 * usage error.
 */
#ifndef PROGS_COMMON_H
#define PROGS_COMMON_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#ifndef PIDFD_NONBLOCK
#define PIDFD_NONBLOCK O_NONBLOCK
#endif

struct sym {
	const char *name;
	unsigned long val;
};
#define SYM(x) { #x, (unsigned long)(x) }
static const struct sym syms[] = {
	SYM(O_RDONLY), SYM(O_WRONLY), SYM(O_RDWR), SYM(O_CREAT), SYM(O_EXCL), SYM(O_TRUNC),
	SYM(O_APPEND), SYM(O_NONBLOCK), SYM(O_DIRECTORY), SYM(O_NOFOLLOW), SYM(O_TMPFILE),
	SYM(O_PATH), SYM(O_CLOEXEC), SYM(O_NOCTTY), SYM(O_SYNC), SYM(O_DSYNC), SYM(O_NOATIME),
	SYM(O_LARGEFILE),
	SYM(AT_SYMLINK_NOFOLLOW), SYM(AT_SYMLINK_FOLLOW), SYM(AT_EMPTY_PATH), SYM(AT_REMOVEDIR),
	SYM(AT_EACCESS), SYM(AT_NO_AUTOMOUNT),
	SYM(RESOLVE_BENEATH), SYM(RESOLVE_IN_ROOT), SYM(RESOLVE_NO_SYMLINKS),
	SYM(RESOLVE_NO_MAGICLINKS), SYM(RESOLVE_NO_XDEV),
	SYM(RENAME_NOREPLACE), SYM(RENAME_EXCHANGE), SYM(RENAME_WHITEOUT),
	SYM(F_OK), SYM(R_OK), SYM(W_OK), SYM(X_OK),
	SYM(S_IFIFO), SYM(S_IFREG), SYM(S_IFCHR), SYM(S_IFSOCK), SYM(S_IFDIR), SYM(S_IFBLK),
	SYM(XATTR_CREATE), SYM(XATTR_REPLACE),
	SYM(STATX_TYPE), SYM(STATX_MODE), SYM(STATX_NLINK), SYM(STATX_SIZE),
	SYM(STATX_BASIC_STATS), SYM(STATX_ALL),
	SYM(SIGTERM), SYM(SIGKILL), SYM(SIGUSR1), SYM(SIGCONT), SYM(SIGSTOP),
	SYM(PIDFD_NONBLOCK),
	{ NULL, 0 },
};

static inline void usage(const char *how)
{
	fprintf(stderr, "usage: %s\n", how);
	exit(2);
}

/* "A|B|0x10": the names or numbers, or'ed. */
static inline unsigned long num(const char *s)
{
	unsigned long v = 0;
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *w = strtok_r(buf, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		const struct sym *y;
		for (y = syms; y->name && strcmp(y->name, w) != 0; y++)
			;
		if (y->name) {
			v |= y->val;
			continue;
		}
		char *end;
		errno = 0;
		long long n = strtoll(w, &end, 0);
		if (*end || errno)
			usage("bad number or name");
		v |= (unsigned long)n;
	}
	return v;
}

/*
 * A quoted, escaped string; a few rotating buffers so several fit in one
 * printf.  Past 200 bytes it is cut, strace style: "the start"...
 */
static inline const char *q(const char *s)
{
	static char bufs[8][1024];
	static int next;
	char *b = bufs[next++ % 8], *o = b;
	const unsigned char *p = (const unsigned char *)s;

	if (s == NULL)
		return "NULL";
	*o++ = '"';
	for (; *p && p < (const unsigned char *)s + 200; p++) {
		if (*p == '"' || *p == '\\')
			o += sprintf(o, "\\%c", *p);
		else if (*p == '\n')
			o += sprintf(o, "\\n");
		else if (*p < 0x20 || *p >= 0x7f)
			o += sprintf(o, "\\x%02x", *p);
		else
			*o++ = (char)*p;
	}
	*o++ = '"';
	if (*p)
		o += sprintf(o, "...");
	*o = '\0';
	return b;
}

/* The same for len bytes that may hold NULs. */
static inline const char *qn(const char *s, size_t len)
{
	static char b[1024];
	char *o = b;

	*o++ = '"';
	for (size_t i = 0; i < len && o < b + 1000; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			o += sprintf(o, "\\%c", c);
		else if (c == '\n')
			o += sprintf(o, "\\n");
		else if (c < 0x20 || c >= 0x7f)
			o += sprintf(o, "\\%o", c);
		else
			*o++ = (char)c;
	}
	*o++ = '"';
	*o = '\0';
	return b;
}

/* Print "CALL = RESULT" (RESULT: rc, or -1 ENAME when rc is -1). */
static inline void out(long rc, int err, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	if (rc == -1)
		printf(" = -1 %s\n", strerrorname_np(err) ? strerrorname_np(err) : "?");
	else
		printf(" = %ld\n", rc);
	fflush(stdout);
}

static inline const char *fmt_mode(mode_t m)
{
	static char b[64];
	const char *t = S_ISREG(m) ? "S_IFREG" : S_ISDIR(m) ? "S_IFDIR" : S_ISLNK(m) ? "S_IFLNK"
		      : S_ISFIFO(m) ? "S_IFIFO" : S_ISCHR(m) ? "S_IFCHR" : S_ISSOCK(m) ? "S_IFSOCK"
		      : S_ISBLK(m) ? "S_IFBLK" : "0";
	snprintf(b, sizeof(b), "%s|%04o", t, m & 07777);
	return b;
}

/* {st_mode=..., st_nlink=N, st_size=N}; link count and size not for directories. */
static inline const char *fmt_stat(const struct stat *st)
{
	static char b[128];
	if (S_ISDIR(st->st_mode))
		snprintf(b, sizeof(b), "{st_mode=%s}", fmt_mode(st->st_mode));
	else
		snprintf(b, sizeof(b), "{st_mode=%s, st_nlink=%lu, st_size=%lld}",
			 fmt_mode(st->st_mode), (unsigned long)st->st_nlink, (long long)st->st_size);
	return b;
}

/* Open an fd argument (see the top of this file); AT_FDCWD and numbers as they are. */
static inline int fdarg(const char *s)
{
	static const struct {
		char c;
		int flags;
		const char *names;
	} kinds[] = {
		{ '@', O_RDONLY | O_DIRECTORY, "O_RDONLY|O_DIRECTORY" },
		{ '%', O_RDONLY, "O_RDONLY" },
		{ '^', O_RDONLY | O_CLOEXEC, "O_RDONLY|O_CLOEXEC" },
		{ '=', O_RDWR, "O_RDWR" },
		{ '>', O_WRONLY, "O_WRONLY" },
		{ '#', O_PATH, "O_PATH" },
		{ '&', O_PATH | O_NOFOLLOW, "O_PATH|O_NOFOLLOW" },
		{ '+', O_RDWR | O_TMPFILE, "O_RDWR|O_TMPFILE, 0600" },
	};
	if (strcmp(s, "AT_FDCWD") == 0)
		return AT_FDCWD;
	for (size_t i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		if (s[0] != kinds[i].c)
			continue;
		long fd = syscall(SYS_openat, AT_FDCWD, s + 1, kinds[i].flags, 0600);
		out(fd, errno, "openat(AT_FDCWD, %s, %s)", q(s + 1), kinds[i].names);
		return (int)fd;
	}
	return (int)num(s);
}

/* How an fd argument is printed: its number, or AT_FDCWD. */
static inline const char *fdname(int fd)
{
	static char b[4][16];
	static int next;
	char *p = b[next++ % 4];
	if (fd == AT_FDCWD)
		return "AT_FDCWD";
	snprintf(p, 16, "%d", fd);
	return p;
}

/*
 * The arguments of a program that makes several kinds of call, "CALL ARG...
 * [, CALL ARG...]...": call(words, count) for each, in order; a call that
 * returns non-zero (a usage error) ends the program with how's usage.
 */
static inline void each_call(int argc, char **argv, int (*call)(char **, int), const char *how)
{
	int i = 1;

	while (i < argc) {
		int j = i;
		while (j < argc && strcmp(argv[j], ",") != 0)
			j++;
		if (j == i || call(argv + i, j - i) != 0)
			usage(how);
		i = j + 1;
	}
}

/* A path argument: "NULL" is the null pointer. */
static inline const char *patharg(const char *s)
{
	return strcmp(s, "NULL") == 0 ? NULL : s;
}

/*
 * After an open: what the fd is.  F_GETFD, F_GETFL (the bits that matter),
 * fstat, and for a regular file a read when it is readable and a write of
 * "ward\n" when it is writable.  Then the fd is closed.
 */
static inline void show_fd(int fd)
{
	long rc = fcntl(fd, F_GETFD);
	out(rc, errno, "fcntl(%d, F_GETFD)", fd);

	int fl = fcntl(fd, F_GETFL);
	if (fl >= 0) {
		static const struct sym bits[] = { SYM(O_APPEND), SYM(O_NONBLOCK), SYM(O_DSYNC),
						   SYM(O_NOATIME), SYM(O_PATH), { NULL, 0 } };
		int acc = fl & O_ACCMODE;
		printf("fcntl(%d, F_GETFL) = %s", fd,
		       acc == O_RDONLY ? "O_RDONLY" : acc == O_WRONLY ? "O_WRONLY" : "O_RDWR");
		if ((fl & O_SYNC) == O_SYNC) {
			printf("|O_SYNC");
			fl &= ~O_SYNC;
		}
		for (const struct sym *b = bits; b->name; b++)
			if (fl & (int)b->val)
				printf("|%s", b->name);
		printf("\n");
	} else {
		out(-1, errno, "fcntl(%d, F_GETFL)", fd);
	}

	struct stat st;
	rc = fstat(fd, &st);
	if (rc == 0)
		out(0, 0, "fstat(%d, %s)", fd, fmt_stat(&st));
	else
		out(rc, errno, "fstat(%d)", fd);
	if (rc == 0 && S_ISREG(st.st_mode) && fl >= 0 && !(fl & O_PATH)) {
		if ((fl & O_ACCMODE) != O_WRONLY) {
			char buf[64];
			ssize_t n = read(fd, buf, sizeof(buf));
			if (n >= 0)
				out(n, 0, "read(%d, %s, %zu)", fd, qn(buf, (size_t)n), sizeof(buf));
			else
				out(n, errno, "read(%d, ..., %zu)", fd, sizeof(buf));
		}
		if ((fl & O_ACCMODE) != O_RDONLY) {
			ssize_t n = write(fd, "ward\n", 5);
			out(n, errno, "write(%d, \"ward\\n\", 5)", fd);
		}
	}
	close(fd);
}

/* -u MASK as the first arguments: set the umask (and print it). */
static inline int umask_opt(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[1], "-u") == 0) {
		mode_t m = (mode_t)num(argv[2]);
		mode_t old = umask(m);
		printf("umask(%04o) = %04o\n", m, old);
		return 3;
	}
	return 1;
}

/* An atime/mtime for the utime programs: "NOW" when within a minute of now. */
static inline const char *fmt_time(time_t t)
{
	static char b[2][32];
	static int next;
	char *p = b[next++ % 2];
	time_t now = time(NULL);
	if (t > now - 60 && t < now + 60)
		return "NOW";
	snprintf(p, 32, "%lld", (long long)t);
	return p;
}

/* After a change of times: show them (PATH NULL or "": those of the fd DIRFD). */
static inline void show_times_at(int dirfd, const char *path)
{
	struct stat st;
	long rc;
	char what[600];

	if (path == NULL || path[0] == '\0') {
		rc = fstat(dirfd, &st);
		snprintf(what, sizeof(what), "fstat(%d", dirfd);
	} else {
		rc = syscall(SYS_newfstatat, dirfd, path, &st, 0);
		snprintf(what, sizeof(what), "stat(%s%s%s", dirfd == AT_FDCWD ? "" : fdname(dirfd),
			 dirfd == AT_FDCWD ? "" : ", ", q(path));
	}
	if (rc == 0)
		out(0, 0, "%s, {st_atime=%s, st_mtime=%s})", what, fmt_time(st.st_atime),
		    fmt_time(st.st_mtime));
	else
		out(rc, errno, "%s, ...)", what);
}

static inline void show_times(const char *path)
{
	show_times_at(AT_FDCWD, path);
}

/* After a change: what the path is now (not following a final symlink). */
static inline void show_lstat(int dirfd, const char *path)
{
	struct stat st;
	long rc = syscall(SYS_newfstatat, dirfd, path, &st, AT_SYMLINK_NOFOLLOW);
	if (rc == 0)
		out(0, 0, "lstat(%s%s%s, %s)", dirfd == AT_FDCWD ? "" : fdname(dirfd),
		    dirfd == AT_FDCWD ? "" : ", ", q(path), fmt_stat(&st));
	else
		out(rc, errno, "lstat(%s%s%s, ...)", dirfd == AT_FDCWD ? "" : fdname(dirfd),
		    dirfd == AT_FDCWD ? "" : ", ", q(path));
}

/* After a change through an fd: what it is now. */
static inline void show_fstat(int fd)
{
	struct stat st;
	long rc = fstat(fd, &st);
	if (rc == 0)
		out(0, 0, "fstat(%d, %s)", fd, fmt_stat(&st));
	else
		out(rc, errno, "fstat(%d, ...)", fd);
}

/* A user or group id: OWN (the caller's real one), -1, or a number. */
static inline unsigned long idarg(const char *s, int group)
{
	if (strcmp(s, "OWN") == 0)
		return group ? (unsigned long)getgid() : (unsigned long)getuid();
	return strcmp(s, "-1") == 0 ? (unsigned long)-1 : num(s);
}

/*
 * An xattr value: NULL (the null pointer, size 0), 0xHEX (those bytes), or
 * the text itself without its NUL.  Returns the size.
 */
static inline size_t valarg(const char *s, const char **val)
{
	static char b[2048];
	size_t n = 0;

	if (strcmp(s, "NULL") == 0) {
		*val = NULL;
		return 0;
	}
	if (strncmp(s, "0x", 2) != 0) {
		*val = s;
		return strlen(s);
	}
	for (const char *p = s + 2; p[0] && p[1] && n < sizeof(b); p += 2) {
		unsigned x;
		if (sscanf(p, "%2x", &x) != 1)
			usage("bad hex value");
		b[n++] = (char)x;
	}
	*val = b;
	return n;
}

/*
 * A user.* xattr the filesystem does not take: the test cannot be made
 * here.  Exit 77 (skip) after printing the line.
 */
static inline void xattr_skip(long rc, int err, const char *name)
{
	if (rc == -1 && err == EOPNOTSUPP && strncmp(name, "user.", 5) == 0)
		exit(77);
}

#endif
