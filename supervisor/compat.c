/*
 * compat.c - what ward asks of the kernel, made of older calls where the
 * kernel lacks it.  Only a --degraded session meets a kernel without
 * openat2 (5.6): user notification with ADDFD came later (5.9).  There the
 * agent's own open is made with its other threads stopped (degraded.c).
 *
 * openat2 with RESOLVE_NO_SYMLINKS is walked a component at a time: each
 * directory opened O_PATH | O_NOFOLLOW | O_DIRECTORY below the fd of the
 * one before, so no name is looked up twice and no symlink is followed,
 * the last component opened with the caller's flags and O_NOFOLLOW.  What
 * the kernel's walk refuses, this one refuses with the same error: a
 * symlink anywhere on the way is ELOOP (the trailing one of an O_PATH |
 * O_NOFOLLOW open is the link itself, as openat2 gives it), a mount
 * crossed under RESOLVE_NO_XDEV is EXDEV (a change of device, which is
 * what a mount crossing is but for a bind mount of the same filesystem:
 * that one passes here, where openat2 refuses it).
 */
#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

bool compat_openat2_off;

/*
 * The error of an open with O_NOFOLLOW that failed: where name is a
 * symlink that O_DIRECTORY refused (ENOTDIR), openat2 says ELOOP, unless
 * the caller asked for the link itself (O_PATH | O_NOFOLLOW).  Any other
 * error (EEXIST of O_CREAT | O_EXCL on a link) is the kernel's as it is.
 */
static int nofollow_error(int dir, const char *name, int e, bool link_itself)
{
	struct stat st;

	if (e == ENOTDIR && !link_itself && fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISLNK(st.st_mode))
		return ELOOP;
	return e;
}

static int fail(int fd, int e)
{
	if (fd >= 0)
		close(fd);
	errno = e;
	return -1;
}

static int walk(int dir, const char *path, const struct open_how *how)
{
	const uint64_t known = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV;
	bool xdev = how->resolve & RESOLVE_NO_XDEV;
	int flags = (int)how->flags | O_NOFOLLOW;
	char name[NAME_MAX + 1];
	struct stat st;
	dev_t dev = 0;
	int cur;

	/* Symlinks followed but magic links not: no older call can tell them apart. */
	if ((how->resolve & ~known) || !(how->resolve & RESOLVE_NO_SYMLINKS))
		return fail(-1, ENOSYS);
	/* What openat2 refuses of how itself (ward's own callers give no other flag). */
	if (how->mode & ~(uint64_t)07777 ||
	    (how->mode && !(how->flags & (O_CREAT | __O_TMPFILE))))
		return fail(-1, EINVAL);
	if (path[0] == '\0')
		return fail(-1, ENOENT);
	if (strlen(path) >= PATH_MAX)
		return fail(-1, ENAMETOOLONG);
	if (path[0] == '/')
		cur = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
	else if (dir == AT_FDCWD)
		cur = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	else
		cur = fcntl(dir, F_DUPFD_CLOEXEC, 0);
	if (cur < 0)
		return -1;
	/* Mounts are crossed from where the walk starts: an absolute path starts at the root. */
	if (xdev) {
		if (fstat(cur, &st) < 0)
			return fail(cur, errno);
		dev = st.st_dev;
	}

	const char *p = path;
	for (;;) {
		while (*p == '/')
			p++;
		size_t n = strcspn(p, "/");
		const char *next = p + n;
		while (*next == '/')
			next++;
		bool slash = next > p + n; /* slashes follow this component */
		if (n == 0) {
			/* Only slashes: the directory reached is what is opened. */
			memcpy(name, ".", 2);
		} else if (n > NAME_MAX) {
			return fail(cur, ENAMETOOLONG);
		} else {
			memcpy(name, p, n);
			name[n] = '\0';
		}
		if (*next != '\0') {
			int fd = openat(cur, name, O_PATH | O_NOFOLLOW | O_DIRECTORY | O_CLOEXEC);
			if (fd < 0)
				return fail(cur, nofollow_error(cur, name, errno, false));
			close(cur);
			cur = fd;
			if (xdev && (fstat(cur, &st) < 0 || st.st_dev != dev))
				return fail(cur, EXDEV);
			p = next;
			continue;
		}
		/* The last component; a trailing slash asks for a directory, as the kernel does. */
		if (slash && n > 0) {
			if (flags & O_CREAT)
				return fail(cur, EISDIR);
			flags |= O_DIRECTORY;
		}
		int fd = openat(cur, name, flags, (mode_t)how->mode);
		bool link_itself = (how->flags & O_PATH) && (how->flags & O_NOFOLLOW) && !slash;
		if (fd < 0)
			return fail(cur, nofollow_error(cur, name, errno, link_itself));
		int e = fstat(fd, &st) < 0 ? errno : 0;
		if (e == 0 && S_ISLNK(st.st_mode) && !(how->flags & O_NOFOLLOW))
			e = ELOOP; /* O_PATH reached a link the caller would have followed */
		else if (e == 0 && xdev && st.st_dev != dev)
			e = EXDEV;
		close(cur);
		return e ? fail(fd, e) : fd;
	}
}

int ward_openat2(int dir, const char *path, const struct open_how *how)
{
	if (!__atomic_load_n(&compat_openat2_off, __ATOMIC_RELAXED)) {
		int fd = (int)syscall(SYS_openat2, dir, path, how, sizeof(*how));
		if (fd >= 0 || errno != ENOSYS)
			return fd;
	}
	return walk(dir, path, how);
}
