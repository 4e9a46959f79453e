/*
 * handlers/stat.c - stat, lstat, newfstatat, statx, access, faccessat(2),
 * readlink(at), getxattr, lgetxattr, listxattr, llistxattr.
 *
 * Notified only when the policy restricts `stat`.  The supervisor opens
 * the object O_PATH by its own walk, decides on its real path, asks the
 * kernel about that fd, and writes the answer into the agent's buffer.
 */
#include "handlers.h"
#include "../mem.h"
#include "../notify.h"
#include "../resolve.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <linux/limits.h>
#include <unistd.h>

static int object_op(struct req *r, int dirfd, uint64_t path, int flags, int *fd, unsigned op)
{
	struct ward_verdict v;
	int rc;

	*fd = -1;
	if (path == 0 && (flags & AT_EMPTY_PATH))
		r->path[0] = '\0'; /* a NULL path is "" with AT_EMPTY_PATH (Linux 6.11) */
	else if ((rc = mem_read_str(r, path, r->path, sizeof(r->path))) < 0)
		return rc;
	req_about(r, op, r->path);
	if (r->path[0] == '\0') {
		if (!(flags & AT_EMPTY_PATH))
			return -ENOENT;
		rc = agent_object(r, dirfd, fd, r->real, sizeof(r->real));
	} else {
		rc = resolve(r, dirfd, r->path,
			     (flags & AT_SYMLINK_NOFOLLOW) ? RES_FINAL_NOFOLLOW : RES_FINAL, fd,
			     r->real, sizeof(r->real), NULL);
	}
	if (rc == -E_FOREIGN_PROC) {
		rc = decide_path(r, op, r->real, &v);
		return foreign_denied(r, rc);
	}
	if (rc < 0)
		return rc;
	if ((rc = anon_check(r, *fd, r->real)) < 0) {
		req_path(r, r->real);
		close(*fd);
		*fd = -1;
		return rc;
	}
	if (r->real[0] != '/') {
		req_own(r, op, r->real); /* a pipe or socket of the agent's own */
		return 0;
	}
	rc = decide_path(r, op, r->real, &v);
	if (rc == 1)
		rc = -EACCES; /* a rewritten stat would describe another file: refuse */
	if (rc < 0) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}

static int object(struct req *r, int dirfd, uint64_t path, int flags, int *fd)
{
	return object_op(r, dirfd, path, flags, fd, WARD_OP_STAT);
}

/*
 * inotify_add_watch(fd, path, mask): what a watch tells (the names of the
 * files made, opened, read and written in a directory, and when) is
 * judged as reading the object watched.  ward adds the watch itself, on
 * its copy of the agent's inotify fd (the same instance), to the object
 * it judged, through /proc/self/fd (followed whatever the mask says: the
 * link was not, with IN_DONT_FOLLOW).
 */
int h_watch(struct req *r)
{
	const __u64 *a = r->n->data.args;
	uint32_t mask = (uint32_t)a[2];
	char link[64];
	int fd, ifd, rc;

	/* The instance first, as the kernel looks at it first (and ward may have to fetch it). */
	if ((ifd = agent_copy_fd(r, (int)a[0])) < 0)
		return ifd;
	if ((rc = object_op(r, AT_FDCWD, a[1], (mask & IN_DONT_FOLLOW) ? AT_SYMLINK_NOFOLLOW : 0,
			    &fd, WARD_OP_READ)) < 0) {
		close(ifd);
		return rc;
	}
	if (fd < 0) {
		close(ifd);
		return -EACCES; /* nothing ward could watch in the agent's place */
	}
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	rc = inotify_add_watch(ifd, link, mask & ~IN_DONT_FOLLOW);
	rc = rc < 0 ? -errno : rc;
	close(ifd);
	close(fd);
	if (rc < 0)
		return rc;
	return req_answer_value(r, rc);
}

int h_stat(struct req *r)
{
	const __u64 *a = r->n->data.args;
	int nr = r->n->data.nr, fd = -1, rc;
	char link[64];
	static __thread char buf[65536];

	switch (nr) {
	case SYS_stat:
	case SYS_lstat:
	case SYS_newfstatat: {
		struct stat st;
		int flags = nr == SYS_newfstatat ? (int)a[3] : nr == SYS_lstat ? AT_SYMLINK_NOFOLLOW : 0;
		if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH | AT_NO_AUTOMOUNT))
			return -EINVAL;
		rc = object(r, nr == SYS_newfstatat ? (int)a[0] : AT_FDCWD,
			    nr == SYS_newfstatat ? a[1] : a[0], flags, &fd);
		if (rc < 0)
			return rc;
		if (fstat(fd, &st) < 0)
			rc = -errno;
		else
			rc = mem_write(r, nr == SYS_newfstatat ? a[2] : a[1], &st, sizeof(st));
		break;
	}
	case SYS_statx: {
		struct statx stx;
		int flags = (int)a[2];
		if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_NO_AUTOMOUNT | AT_EMPTY_PATH |
			      AT_STATX_SYNC_TYPE))
			return -EINVAL;
		if ((rc = object(r, (int)a[0], a[1], flags, &fd)) < 0)
			return rc;
		if (statx(fd, "", (flags & ~AT_SYMLINK_NOFOLLOW) | AT_EMPTY_PATH, (unsigned)a[3],
			  &stx) < 0)
			rc = -errno;
		else
			rc = mem_write(r, a[4], &stx, sizeof(stx));
		break;
	}
	case SYS_access:
	case SYS_faccessat:
	case SYS_faccessat2: {
		int flags = nr == SYS_faccessat2 ? (int)a[3] : 0;
		int mode = (int)(nr == SYS_access ? a[1] : a[2]);
		if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EACCESS | AT_EMPTY_PATH))
			return -EINVAL;
		if ((rc = object(r, nr == SYS_access ? AT_FDCWD : (int)a[0],
				 nr == SYS_access ? a[0] : a[1], flags, &fd)) < 0)
			return rc;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		rc = faccessat(AT_FDCWD, link, mode, flags & AT_EACCESS) < 0 ? -errno : 0;
		break;
	}
	case SYS_readlink:
	case SYS_readlinkat: {
		bool at = nr == SYS_readlinkat;
		size_t size = (size_t)(at ? a[3] : a[2]);
		if ((int)size <= 0)
			return -EINVAL;
		if ((at ? a[1] : a[0]) == 0)
			return -EFAULT; /* AT_EMPTY_PATH takes "" here, not NULL (stat alone does) */
		/* readlinkat(fd, "") reads the symlink fd itself; readlink("") is ENOENT. */
		if ((rc = object(r, at ? (int)a[0] : AT_FDCWD, at ? a[1] : a[0],
				 AT_SYMLINK_NOFOLLOW | (at ? AT_EMPTY_PATH : 0), &fd)) < 0)
			return rc;
		ssize_t n = readlinkat(fd, "", buf, sizeof(buf));
		if (n < 0) {
			/* Not a symlink: EINVAL by name, ENOENT for readlinkat(fd, ""). */
			rc = errno == ENOENT && r->path[0] != '\0' ? -EINVAL : -errno;
			break;
		}
		if ((size_t)n > size)
			n = (ssize_t)size;
		rc = mem_write(r, at ? a[2] : a[1], buf, (size_t)n);
		r->result = n;
		break;
	}
	case SYS_getxattr:
	case SYS_lgetxattr:
	case SYS_listxattr:
	case SYS_llistxattr: {
		bool list = nr == SYS_listxattr || nr == SYS_llistxattr;
		bool nofollow = nr == SYS_lgetxattr || nr == SYS_llistxattr;
		char name[XATTR_NAME_MAX + 1];
		size_t size = (size_t)(list ? a[2] : a[3]);
		if (size > sizeof(buf))
			size = sizeof(buf);
		if (!list && (rc = mem_read_str(r, a[1], name, sizeof(name))) < 0)
			return rc == -ENAMETOOLONG ? -ERANGE : rc;
		if ((rc = object(r, AT_FDCWD, a[0], nofollow ? AT_SYMLINK_NOFOLLOW : 0, &fd)) < 0)
			return rc;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t n = list ? listxattr(link, buf, size) : getxattr(link, name, buf, size);
		if (n < 0) {
			rc = -errno;
			break;
		}
		if (size > 0 && n > 0)
			rc = mem_write(r, list ? a[1] : a[2], buf, (size_t)n);
		r->result = n;
		break;
	}
	default:
		return -ENOSYS;
	}
	if (fd >= 0)
		close(fd);
	if (rc < 0)
		return rc;
	return 1;
}
