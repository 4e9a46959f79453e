/*
 * resolve.c - paths in the agent's context (DESIGN.md invariant 3).
 *
 * The supervisor walks the agent's path itself, one component at a time,
 * from the agent's root, cwd or dirfd (taken through /proc/TID/...), with
 * openat(O_PATH | O_NOFOLLOW) for each component.  Symlinks are read and
 * followed by the supervisor, one hop at a time, so no lookup the agent
 * can race ever runs with side effects; what is decided on is the real
 * path of the object that was opened.
 *
 * procfs needs care: "self" and "thread-self" must mean the agent, not
 * the supervisor, and the magic links under /proc/PID/ (fd/N, cwd, root,
 * exe) are followed by the kernel, but only for processes of the session
 * (procfs.c tells whose a /proc object is).
 */
#include "resolve.h"
#include "mem.h"
#include "notify.h"
#include "proc.h"
#include "procfs.h"

#include <ctype.h>
#include <errno.h>
#include <pthread.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <sys/syscall.h>
#include <linux/openat2.h>

#define MAX_HOPS 40

static bool anon_ok(struct req *r, int fd, const char *real)
{
	struct stat st;

	if (real[0] != '/')
		return hop_is_own(r, fd); /* no name: only through the agent's own fd */
	if (r->hop_fd >= 0 && fstat(fd, &st) == 0 && st.st_nlink == 0)
		return hop_is_own(r, fd); /* only the name it had, reached through an fd */
	return true;
}

/*
 * An object outside the filesystem's names (a pipe, socket or anonymous
 * inode, or a memfd) can only be reached through the fd table of a
 * process of the session (other processes' /proc entries are refused
 * before any walk), so it is the agent's own already: the path policy
 * does not apply to it.
 */
bool unnamed_object(const char *real, const struct stat *st)
{
	if (real[0] != '/')
		return true;
	return strncmp(real, "/memfd:", 7) == 0 && st->st_nlink == 0;
}

int anon_check(struct req *r, int fd, const char *real)
{
	if (anon_ok(r, fd, real))
		return 0;
	return refuse(r, EACCES, "no name to judge, and not reached through an fd of the agent's own");
}

bool hop_is_own(struct req *r, int fd)
{
	struct fdinfo fi;
	struct statx stx;

	if (r->hop_fd < 0 || statx(fd, "", AT_EMPTY_PATH, STATX_INO | STATX_MNT_ID, &stx) < 0 ||
	    !(stx.stx_mask & STATX_MNT_ID) || agent_fdinfo(r->hop_tid, r->hop_fd, &fi) < 0)
		return false;
	/*
	 * Read after the object was opened: the agent's fd N, now, holds this
	 * very inode (mount and inode number: an inode number alone repeats
	 * across filesystems, and a swapped-in file with the same number
	 * passed), and not as O_PATH.  Swapped meanwhile for another fd of
	 * the same inode, it is the agent's own all the same.
	 */
	return !(fi.flags & O_PATH) && fi.ino == stx.stx_ino && fi.mnt_id == stx.stx_mnt_id &&
	       req_valid(r);
}

/*
 * The agent's root directory is ward's: the filter refuses chroot,
 * pivot_root, unshare, setns and the mount calls, so no process of the
 * session can have another.  One O_PATH fd to "/" serves every walk.
 */
static int root_fd = -1;
static pthread_once_t root_once = PTHREAD_ONCE_INIT;

static void open_root(void)
{
	root_fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int agent_root(struct req *r, int *fd)
{
	(void)r;
	pthread_once(&root_once, open_root);
	if (root_fd < 0)
		return -EACCES;
	*fd = fcntl(root_fd, F_DUPFD_CLOEXEC, 0);
	return *fd < 0 ? -errno : 0;
}

static bool all_digits(const char *s, size_t n)
{
	if (n == 0)
		return false;
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

int agent_object(struct req *r, int dirfd, int *fd, char *real, size_t reallen)
{
	int rc = agent_fd(r, dirfd, fd);

	if (rc == 0)
		rc = proc_foreign_obj(*fd, "", real, reallen);
	if (rc == 0)
		rc = fd_real_path(*fd, real, reallen);
	return rc;
}

/*
 * The work buffer holds the path still to walk.  Prepending a symlink's
 * target replaces the consumed part.
 */
struct walk {
	char buf[2 * PATH_MAX];
	size_t pos; /* start of what remains */
};

static int walk_prepend(struct walk *w, const char *target)
{
	size_t tl = strlen(target), rest = strlen(w->buf + w->pos);
	/* No slash after a target that ends the path: "f" must not become "f/". */
	size_t sep = rest > 0 ? 1 : 0;

	if (tl + sep + rest + 1 > sizeof(w->buf))
		return -ENAMETOOLONG;
	char tmp[2 * PATH_MAX];
	memcpy(tmp, target, tl);
	if (sep)
		tmp[tl] = '/';
	memcpy(tmp + tl + sep, w->buf + w->pos, rest + 1);
	memcpy(w->buf, tmp, tl + sep + rest + 1);
	w->pos = 0;
	return 0;
}

/*
 * Take the next component; returns its length, 0 at the end.  *slash: a
 * '/' follows it (for the last one: it must be a directory, whether the
 * slash was the agent's or a symlink's target ended in one).
 */
static size_t walk_next(struct walk *w, const char **comp, bool *last, bool *slash)
{
	while (w->buf[w->pos] == '/')
		w->pos++;
	*comp = w->buf + w->pos;
	size_t n = strcspn(*comp, "/");
	w->pos += n;
	*slash = w->buf[w->pos] == '/';
	/* Last unless a non-slash character follows. */
	size_t p = w->pos;
	while (w->buf[p] == '/')
		p++;
	*last = w->buf[p] == '\0';
	return n;
}

static void replace(int *cur, int next)
{
	close(*cur);
	*cur = next;
}

static bool has_dotdot(const char *p)
{
	for (const char *c = p; (c = strstr(c, "..")) != NULL; c += 2)
		if ((c == p || c[-1] == '/') && (c[2] == '/' || c[2] == '\0'))
			return true;
	return false;
}

/*
 * The fast paths: one openat2 from the start directory.
 *
 * First with RESOLVE_NO_SYMLINKS.  When it succeeds no symlink (and so no
 * magic link, nor /proc/self) was on the way: the kernel's walk went
 * through real directories only, exactly as the component-by-component
 * walk would, and the object it opened (O_PATH: no side effect) is what
 * gets decided on.
 *
 * Then, if a symlink was on the way (/bin, /lib, gcc's chain of links),
 * with symlinks followed but no magic link (RESOLVE_NO_MAGICLINKS).  The
 * kernel's walk differs from the agent's in one way then: /proc/self and
 * /proc/thread-self name ward.  A walk that ends on procfs is therefore
 * not taken, nor one that fails (/dev/fd/N is ward's fd table there); the
 * slow walk decides those.  A walk that passed through /proc/self and left
 * procfs by ".." ended where the agent's would.  What is decided on is
 * the real path of the object opened, read back from its fd.
 *
 * Returns -EAGAIN for "take the slow walk".
 */
static int fast_path(int start, const char *path, enum resolve_mode mode, int *out,
		     char *real, size_t reallen, const char **name, bool follow)
{
	static __thread char dir[PATH_MAX];
	static __thread char final[NAME_MAX + 1];
	const char *target = path;
	bool dot = false;
	int fd, rc;

	if (mode == RES_PARENT) {
		size_t len = strlen(path), s;
		while (len > 1 && path[len - 1] == '/')
			len--;
		for (s = len; s > 0 && path[s - 1] != '/'; s--)
			;
		if (len - s == 0)
			return -EINVAL; /* "/": no name */
		if (len - s > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(final, path + s, len - s);
		final[len - s] = '\0';
		/* "." and ".." are no name (EINVAL), once the directory is found. */
		dot = strcmp(final, ".") == 0 || strcmp(final, "..") == 0;
		if (s == 0) {
			target = ".";
		} else {
			memcpy(dir, path, s);
			dir[s] = '\0';
			target = dir;
		}
	}
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (mode == RES_FINAL_NOFOLLOW ? O_NOFOLLOW : 0),
		.resolve = follow ? RESOLVE_NO_MAGICLINKS : RESOLVE_NO_SYMLINKS,
	};
	fd = (int)syscall(SYS_openat2, start, target, &how, sizeof(how));
	if (fd < 0) {
		if (follow)
			return -EAGAIN;
		return errno == ELOOP || errno == EXDEV || errno == EAGAIN ? -EAGAIN : -errno;
	}
	/* Anything in a procfs (wherever mounted) is the slow walk's: it checks whose it is. */
	if (dot || is_procfs(fd)) {
		close(fd);
		return dot ? -EINVAL : -EAGAIN;
	}
	if (real != NULL) {
		/* Absolute, no symlink, no "..": the path itself, made normal, is real. */
		if (!follow && target[0] == '/' && !has_dotdot(target))
			rc = ward_path_normalize("/", target, real, reallen);
		else
			rc = fd_real_path(fd, real, reallen);
		if (rc < 0) {
			close(fd);
			return rc;
		}
	}
	if (name != NULL)
		*name = mode == RES_PARENT ? final : NULL;
	*out = fd;
	return 0;
}

bool slash_end(const char *path)
{
	size_t n = strlen(path);
	return n > 0 && path[n - 1] == '/' && strspn(path, "/") != n;
}

int resolve(struct req *r, int dirfd, const char *path, enum resolve_mode mode,
	    int *out, char *real, size_t reallen, const char **name)
{
	return resolve_from(r, dirfd, -1, path, mode, out, real, reallen, name);
}

int resolve_from(struct req *r, int dirfd, int base, const char *path,
		 enum resolve_mode mode, int *out, char *real, size_t reallen,
		 const char **name)
{
	static __thread struct walk w;
	static __thread char comp_buf[NAME_MAX + 1];
	int cur = -1, rc, hops = 0;
	const char *comp;
	bool last, slash, want_dir = false;
	size_t n;

	*out = -1;
	if (name != NULL)
		*name = NULL;
	r->hop_fd = -1; /* set again only by an fd/N hop that ends the walk */
	if (path[0] == '\0')
		return -ENOENT;
	/* "name/" must be a directory, and a symlink there is followed. */
	r->trailing_slash = slash_end(path);
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	strcpy(w.buf, path);
	w.pos = 0;

	if (path[0] == '/') {
		/* Absolute: the fast path starts at the shared root fd itself. */
		pthread_once(&root_once, open_root);
		if (root_fd < 0)
			return -EACCES;
		rc = fast_path(root_fd, path, mode, out, real, reallen, name, false);
		if (rc == -EAGAIN)
			rc = fast_path(root_fd, path, mode, out, real, reallen, name, true);
		if (rc != -EAGAIN)
			return rc;
		rc = agent_root(r, &cur);
	} else if (base >= 0) {
		cur = fcntl(base, F_DUPFD_CLOEXEC, 0);
		rc = cur < 0 ? -errno : 0;
	} else {
		rc = agent_fd(r, dirfd, &cur);
		r->hop_fd = -1; /* a path follows: what it reaches is reached by name */
	}
	if (rc < 0)
		return rc;

	/*
	 * A walk starting inside /proc (a cwd or dirfd there): if that is
	 * another process's directory, refuse as the walk from the proc root
	 * would, with the lexical path for the decision.
	 */
	if (path[0] != '/' && (rc = proc_foreign_obj(cur, path, real, reallen)) < 0)
		goto fail;
	if (path[0] != '/') {
		rc = fast_path(cur, path, mode, out, real, reallen, name, false);
		if (rc == -EAGAIN)
			rc = fast_path(cur, path, mode, out, real, reallen, name, true);
		if (rc != -EAGAIN) {
			close(cur);
			return rc;
		}
	}

	/* A path of slashes only, or empty after them: the start itself. */
	for (;;) {
		n = walk_next(&w, &comp, &last, &slash);
		if (n == 0)
			break;
		want_dir = last && slash;
		if (n > NAME_MAX) {
			rc = -ENAMETOOLONG;
			goto fail;
		}
		memcpy(comp_buf, comp, n);
		comp_buf[n] = '\0';

		if (last && mode == RES_PARENT) {
			if (strcmp(comp_buf, ".") == 0 || strcmp(comp_buf, "..") == 0) {
				rc = -EINVAL;
				goto fail;
			}
			*name = comp_buf;
			break;
		}
		if (strcmp(comp_buf, ".") == 0)
			continue;

		/* /proc/self and /proc/thread-self mean the agent. */
		if ((strcmp(comp_buf, "self") == 0 || strcmp(comp_buf, "thread-self") == 0 ||
		     all_digits(comp_buf, n)) &&
		    is_proc_root(cur)) {
			char sub[64];
			if (strcmp(comp_buf, "self") == 0)
				snprintf(sub, sizeof(sub), "%d", r->tgid);
			else if (strcmp(comp_buf, "thread-self") == 0)
				snprintf(sub, sizeof(sub), "%d/task/%d", r->tgid, r->tid);
			else
				sub[0] = '\0';
			if (sub[0] != '\0') {
				if ((rc = walk_prepend(&w, sub)) < 0)
					goto fail;
				continue;
			}
			/* Another process's /proc entry: judged lexically, never walked. */
			if (all_digits(comp_buf, n) && !proc_maybe_session(atoi(comp_buf))) {
				rc = snprintf(real, reallen, "/proc/%s%s%s", comp_buf,
					      w.buf[w.pos] ? "/" : "",
					      w.buf[w.pos] ? w.buf + w.pos + strspn(w.buf + w.pos, "/") : "");
				rc = -E_FOREIGN_PROC;
				goto fail;
			}
		}

		int next = openat(cur, comp_buf, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (next < 0) {
			rc = -errno;
			goto fail;
		}
		struct stat st;
		if (fstat(next, &st) < 0) {
			rc = -errno;
			close(next);
			goto fail;
		}
		/*
		 * A task's directory in a procfs (wherever mounted) is walked into
		 * only when the task is the session's: ward traces it.  Checked on
		 * what was opened, so an id of the session freed meanwhile (a
		 * thread's is freed as soon as it execs) and taken by another
		 * process is not taken for the session's.
		 */
		if (is_procfs(next)) {
			/*
			 * Into a procfs mount from outside it (another filesystem,
			 * or another mount: a part of a procfs bound there), or into
			 * a task's directory within one.
			 */
			if (!is_procfs(cur) || mount_id_of(cur) != mount_id_of(next))
				rc = proc_foreign_obj(next, w.buf + w.pos, real, reallen);
			else
				rc = S_ISDIR(st.st_mode) ? proc_foreign_task(next, w.buf + w.pos, real, reallen)
							 : 0;
			if (rc < 0) {
				close(next);
				goto fail;
			}
		}
		r->hop_fd = -1; /* reached by name */
		if (!S_ISLNK(st.st_mode)) {
			if (!last && !S_ISDIR(st.st_mode)) {
				close(next);
				rc = -ENOTDIR;
				goto fail;
			}
			replace(&cur, next);
			continue;
		}
		/* A symlink. */
		if (last && mode == RES_FINAL_NOFOLLOW && !slash) {
			replace(&cur, next);
			break;
		}
		if (++hops > MAX_HOPS) {
			close(next);
			rc = -ELOOP;
			goto fail;
		}
		char target[PATH_MAX];
		ssize_t tl = readlinkat(next, "", target, sizeof(target) - 1);
		if (tl < 0) {
			rc = -errno;
			close(next);
			goto fail;
		}
		target[tl] = '\0';
		if (is_procfs(cur) && (target[0] == '/' || strchr(target, ':') != NULL)) {
			/*
			 * A magic link of a session process (the walk refused other
			 * processes above): let the kernel follow it to the object,
			 * which is then judged by its own real path.
			 */
			close(next);
			/*
			 * An fd/N hop: remember whose fd, for hop_is_own().  The task
			 * is the one whose directory holds this fd/ (whatever procfs
			 * mount it is in: its status says which task it is).
			 */
			char dir[PATH_MAX];
			size_t dl;
			pid_t tid;
			int task;
			if (all_digits(comp_buf, n) && fd_real_path(cur, dir, sizeof(dir)) == 0 &&
			    (dl = strlen(dir)) >= 3 && strcmp(dir + dl - 3, "/fd") == 0 &&
			    (task = openat(cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC)) >= 0) {
				if (proc_task_status(task, &tid, NULL, NULL, NULL) == 1 && tid > 0) {
					r->hop_tid = tid;
					r->hop_fd = atoi(comp_buf);
				}
				close(task);
			}
			next = openat(cur, comp_buf, O_PATH | O_CLOEXEC);
			if (next < 0) {
				rc = -errno;
				goto fail;
			}
			if (!last && (fstat(next, &st) < 0 || !S_ISDIR(st.st_mode))) {
				close(next);
				rc = -ENOTDIR;
				goto fail;
			}
			replace(&cur, next);
			/* The hop may have led into another process's /proc directory. */
			if ((rc = proc_foreign_obj(cur, w.buf + w.pos, real, reallen)) < 0)
				goto fail;
			continue;
		}
		close(next);
		if (target[0] == '/') {
			int root;
			if ((rc = agent_root(r, &root)) < 0)
				goto fail;
			replace(&cur, root);
		}
		if ((rc = walk_prepend(&w, target)) < 0)
			goto fail;
	}
	if (mode == RES_PARENT && *name == NULL) {
		/* "/" or "dir/." : there is no final name to create or remove. */
		rc = -EINVAL;
		goto fail;
	}
	if (mode != RES_PARENT && want_dir) {
		struct stat st;
		if (fstat(cur, &st) < 0 || !S_ISDIR(st.st_mode)) {
			rc = -ENOTDIR;
			goto fail;
		}
	}
	if (real != NULL && (rc = fd_real_path(cur, real, reallen)) < 0)
		goto fail;
	*out = cur;
	return 0;
fail:
	if (cur >= 0)
		close(cur);
	return rc;
}

int join_path(const char *dir, const char *name, char *out, size_t len)
{
	int n = snprintf(out, len, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
