/*
 * handlers/open.c - open, openat, openat2, creat.
 *
 * decode -> resolve -> decide -> emulate -> reply.  The supervisor opens
 * the file itself and hands the agent the fd it checked (ADDFD | SEND):
 *   - an existing object is first opened O_PATH by the supervisor's own
 *     walk, decided on by its real path, then reopened through
 *     /proc/self/fd with the agent's flags: the object reopened is the
 *     object decided on;
 *   - a new file is decided on as its parent's real path plus the name,
 *     and created with O_EXCL | O_NOFOLLOW relative to that parent's fd.
 */
#include "../sup.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_RETRIES 40

struct open_args {
	int dirfd;
	uint64_t path;
	int flags;
	mode_t mode;
	uint64_t resolve;
};

static int decode(struct req *r, struct open_args *a)
{
	const __u64 *arg = r->n->data.args;

	switch (r->n->data.nr) {
	case SYS_open:
		*a = (struct open_args){ AT_FDCWD, arg[0], (int)arg[1], (mode_t)arg[2], 0 };
		return 0;
	case SYS_creat:
		*a = (struct open_args){ AT_FDCWD, arg[0], O_CREAT | O_WRONLY | O_TRUNC,
					 (mode_t)arg[1], 0 };
		return 0;
	case SYS_openat:
		*a = (struct open_args){ (int)arg[0], arg[1], (int)arg[2], (mode_t)arg[3], 0 };
		return 0;
	case SYS_openat2: {
		struct open_how how;
		size_t size = (size_t)arg[3];
		int rc;
		if (size < sizeof(how))
			return -EINVAL;
		if (size > 4096)
			return -E2BIG;
		if ((rc = mem_read(r, arg[2], &how, sizeof(how))) < 0)
			return rc;
		if (size > sizeof(how)) {
			/* A larger struct is fine only if its tail is zero. */
			char tail[4096];
			if ((rc = mem_read(r, arg[2] + sizeof(how), tail, size - sizeof(how))) < 0)
				return rc;
			for (size_t i = 0; i < size - sizeof(how); i++)
				if (tail[i] != 0)
					return -E2BIG;
		}
		if (how.flags >> 32 || how.mode & ~07777ull ||
		    ((how.mode != 0) && !(how.flags & (O_CREAT | __O_TMPFILE))))
			return -EINVAL;
		*a = (struct open_args){ (int)arg[0], arg[1], (int)how.flags, (mode_t)how.mode,
					 how.resolve };
		return 0;
	}
	}
	return -ENOSYS;
}

/*
 * The op an open is judged as: O_PATH only looks (stat); any write access
 * or O_TRUNC modifies (write); otherwise it reads.
 */
static enum ward_op open_op(int flags)
{
	if (flags & O_PATH)
		return WARD_OP_STAT;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
		return WARD_OP_WRITE;
	return WARD_OP_READ;
}

/*
 * An object outside the filesystem's names (a pipe, socket or anonymous
 * inode reached through /proc/self/fd), or a file with no links left, is
 * the agent's own already: the path policy does not apply to it.
 */
static bool unnamed(const char *real, int fd)
{
	struct stat st;

	if (real[0] != '/')
		return true;
	return fstat(fd, &st) == 0 && st.st_nlink == 0 && !S_ISDIR(st.st_mode);
}

/* Open with the agent's flags, through the O_PATH fd that was decided on. */
static int reopen(int opath, int flags)
{
	char link[64];
	int fd;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", opath);
	flags &= ~(O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC);
	fd = open(link, flags | O_CLOEXEC | O_NOCTTY);
	return fd < 0 ? -errno : fd;
}

/* Hand over fd after logging the decision; the log line comes first. */
static int finish(struct req *r, int fd, int flags)
{
	if (log_request(r, 0) < 0) {
		close(fd);
		return -EACCES;
	}
	r->logged = true;
	int rc = reply_fd(r, fd, flags & O_CLOEXEC);
	if (rc < 0 && !r->replied)
		r->logged = false; /* the call fails after all: log that too */
	return rc < 0 ? rc : 1;
}

static int do_rewrite(struct req *r, const struct ward_verdict *v, int flags, mode_t mode)
{
	int fd, rc = open_rewrite(v->rewrite, flags & ~O_NOFOLLOW, mode, &fd);
	return rc < 0 ? rc : finish(r, fd, flags);
}

/* Open something that exists (or fail as the kernel would). */
static int open_existing(struct req *r, const struct open_args *a, mode_t mode)
{
	struct ward_verdict v;
	int opath, fd, rc;
	enum resolve_mode m = (a->flags & O_NOFOLLOW) ? RES_FINAL_NOFOLLOW : RES_FINAL;

	rc = resolve(r, a->dirfd, r->path, m, &opath, r->real, sizeof(r->real), NULL);
	if (rc == -EXDEV) {
		/* Another process's /proc entry: decided on lexically (and denied). */
		rc = decide_path(r, open_op(a->flags), r->real, &v);
		return rc < 0 ? rc : -EACCES;
	}
	if (rc < 0)
		return rc;

	struct stat st;
	if (fstat(opath, &st) < 0) {
		rc = -errno;
		goto out;
	}
	if (S_ISLNK(st.st_mode) && !(a->flags & O_PATH)) {
		rc = -ELOOP; /* O_NOFOLLOW on a symlink */
		goto out;
	}
	if ((a->flags & O_DIRECTORY) && !S_ISDIR(st.st_mode)) {
		rc = -ENOTDIR;
		goto out;
	}
	if (unnamed(r->real, opath)) {
		r->op = ward_op_name(open_op(a->flags));
		r->log_path = r->real;
		r->decided = 0;
		r->by = "policy";
	} else {
		rc = decide_path(r, open_op(a->flags), r->real, &v);
		if (rc < 0)
			goto out;
		if (rc == 1) {
			rc = do_rewrite(r, &v, a->flags, mode);
			goto out;
		}
	}
	if (a->flags & O_PATH) {
		/*
		 * ADDFD cannot pass an O_PATH fd (the kernel refuses them), so
		 * the agent gets the object opened for reading: a directory or a
		 * regular file only, never a device whose open could do something.
		 */
		if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
			rc = -EACCES;
			goto out;
		}
		fd = reopen(opath, O_RDONLY | O_NONBLOCK | (a->flags & O_CLOEXEC) |
					   (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
		if (fd < 0) {
			rc = fd;
			goto out;
		}
		rc = finish(r, fd, a->flags);
		goto out;
	}
	fd = reopen(opath, a->flags);
	if (fd < 0) {
		rc = fd;
		goto out;
	}
	rc = finish(r, fd, a->flags);
out:
	if (opath >= 0)
		close(opath);
	return rc;
}

/* O_CREAT: create in the parent directory, or open what is there. */
static int open_create(struct req *r, const struct open_args *a, mode_t mode)
{
	struct ward_verdict v;
	const char *name;
	int parent, fd, rc;

	for (int tries = 0; tries < MAX_RETRIES; tries++) {
		rc = resolve(r, a->dirfd, r->path, RES_PARENT, &parent, r->real2,
			     sizeof(r->real2), &name);
		if (rc == -EXDEV)
			return open_existing(r, a, mode);
		if (rc == -EINVAL)
			return -EISDIR; /* "dir/." or "/" */
		if (rc < 0)
			return rc;
		fd = openat(parent, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			struct stat st;
			bool link = fstat(fd, &st) == 0 && S_ISLNK(st.st_mode);
			close(fd);
			close(parent);
			if (a->flags & O_EXCL)
				return -EEXIST;
			if (link && (a->flags & O_NOFOLLOW))
				return -ELOOP;
			/* It exists: judge it as an open of what it is (a symlink is followed). */
			struct open_args b = *a;
			b.flags &= ~O_CREAT;
			return open_existing(r, &b, mode);
		}
		if (errno != ENOENT) {
			rc = -errno;
			close(parent);
			return rc;
		}
		if ((rc = join_path(r->real2, name, r->real, sizeof(r->real))) < 0) {
			close(parent);
			return rc;
		}
		rc = decide_path(r, WARD_OP_CREATE, r->real, &v);
		if (rc < 0) {
			close(parent);
			return rc;
		}
		if (rc == 1) {
			close(parent);
			return do_rewrite(r, &v, a->flags, mode);
		}
		int flags = (a->flags & ~O_CLOEXEC) | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC;
		fd = openat(parent, name, flags, mode);
		rc = fd < 0 ? -errno : 0;
		close(parent);
		if (fd >= 0)
			return finish(r, fd, a->flags);
		if (rc != -EEXIST)
			return rc;
		/* Someone made it meanwhile: look again. */
	}
	return -ELOOP;
}

/* O_TMPFILE: an unnamed file in a directory, judged as a create there. */
static int open_tmpfile(struct req *r, const struct open_args *a, mode_t mode)
{
	struct ward_verdict v;
	int dir, fd, rc;

	rc = resolve(r, a->dirfd, r->path, RES_FINAL, &dir, r->real, sizeof(r->real), NULL);
	if (rc < 0)
		return rc == -EXDEV ? -EACCES : rc;
	rc = decide_path(r, WARD_OP_CREATE, r->real, &v);
	if (rc == 1)
		rc = -EACCES; /* a rewrite names a file; an unnamed one has none */
	if (rc < 0) {
		close(dir);
		return rc;
	}
	fd = openat(dir, ".", (a->flags & ~O_CLOEXEC) | O_CLOEXEC, mode);
	rc = fd < 0 ? -errno : 0;
	close(dir);
	return fd < 0 ? rc : finish(r, fd, a->flags);
}

int h_open(struct req *r)
{
	struct open_args a;
	mode_t umask_ = 022;
	int rc;

	if ((rc = decode(r, &a)) < 0)
		return rc;
	if ((rc = mem_read_str(r, a.path, r->path, sizeof(r->path))) < 0)
		return rc;
	r->log_path = r->path;
	r->op = ward_op_name(open_op(a.flags));
	if (a.resolve != 0) {
		/*
		 * openat2's RESOLVE_* flags restrict the agent's own lookup: check
		 * them with a lookup of our own that has no side effects (O_PATH)
		 * and refuse what the agent asked to be refused.  The decision
		 * below is still taken on the object our own walk opens.
		 */
		struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = a.resolve };
		int base = -1, probe;
		if (r->path[0] != '/' && (rc = agent_fd(r, a.dirfd, &base)) < 0)
			return rc;
		probe = (int)syscall(SYS_openat2, base >= 0 ? base : AT_FDCWD, r->path, &how,
				     sizeof(how));
		rc = probe < 0 ? -errno : 0;
		if (base >= 0)
			close(base);
		if (probe >= 0)
			close(probe);
		if (rc < 0 && rc != -ENOENT)
			return rc;
	}
	if (a.flags & (O_CREAT | __O_TMPFILE)) {
		if ((rc = agent_umask(r, &umask_)) < 0)
			return rc;
	}
	mode_t mode = a.mode & 07777 & ~umask_;
	if ((a.flags & O_PATH) && !ward_policy_restricts(S->policy, WARD_OP_STAT)) {
		/*
		 * CONTINUE: an O_PATH open (openat2 reaches here; open and openat
		 * with O_PATH are not even notified then) is judged as stat, and
		 * the policy allows stat on every path, so the decision does not
		 * depend on the path in the agent's memory at all.  O_PATH makes
		 * the kernel ignore all other flags but O_DIRECTORY, O_NOFOLLOW and
		 * O_CLOEXEC: nothing is created or truncated.
		 */
		r->decided = 0;
		return 0;
	}
	if ((a.flags & O_TMPFILE) == O_TMPFILE)
		return open_tmpfile(r, &a, mode);
	if (a.flags & O_CREAT)
		return open_create(r, &a, mode);
	return open_existing(r, &a, mode);
}
