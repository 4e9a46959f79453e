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
#include "compat.h"
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
	struct stat st;
	uint64_t mnt;

	if (r->hop_fd < 0 || fstat(fd, &st) < 0 || mount_id(fd, &mnt) < 0 ||
	    agent_fdinfo(r->hop_tid, r->hop_fd, &fi) < 0)
		return false;
	/*
	 * Read after the object was opened: the agent's fd N, now, holds this
	 * very inode (mount and inode number: an inode number alone repeats
	 * across filesystems, and a swapped-in file with the same number
	 * passed), and not as O_PATH.  Swapped meanwhile for another fd of
	 * the same inode, it is the agent's own all the same.
	 */
	return !(fi.flags & O_PATH) && fi.ino == st.st_ino && fi.mnt_id == mnt && req_valid(r);
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

/* Writers first: a bind waits for the changes under way, not for every one to come. */
static pthread_rwlock_t ns_lock = PTHREAD_RWLOCK_WRITER_NONRECURSIVE_INITIALIZER_NP;

void ns_change_begin(void)
{
	pthread_rwlock_rdlock(&ns_lock);
}

int ns_change_end(int rc)
{
	pthread_rwlock_unlock(&ns_lock);
	return rc;
}

void ns_bind_begin(void)
{
	pthread_rwlock_wrlock(&ns_lock);
}

void ns_bind_end(void)
{
	pthread_rwlock_unlock(&ns_lock);
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

	if (rc < 0)
		return rc;
	if ((rc = proc_foreign_obj(*fd, "", real, reallen)) == 0 &&
	    (rc = fd_real_path(*fd, real, reallen)) == 0)
		return 0;
	/* Refused, or no path to judge: the fd is not the caller's to close. */
	close(*fd);
	*fd = -1;
	return rc;
}

/*
 * One walk: the path still to walk (prepending a symlink's target replaces
 * the consumed part), the directory reached, and what the walk returns.
 */
struct walk {
	char buf[2 * PATH_MAX];
	size_t pos; /* start of what remains */
	int cur;    /* the directory reached so far: an O_PATH fd of ward's (-1: none) */
	int hops;   /* symlinks followed */
	enum resolve_mode mode;
	char *real; /* what is decided on; with -E_FOREIGN_PROC, the lexical path */
	size_t reallen;
	const char **name; /* RES_PARENT: the final name */
	/* the component looked at: its name, and whether it is the last, or a '/' follows it */
	char comp[NAME_MAX + 1];
	size_t n;
	bool last, slash;
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
 * Take the next component into w->comp (when it fits NAME_MAX); returns
 * its length, 0 at the end.  w->slash: a '/' follows it (for the last one:
 * it must be a directory, whether the slash was the agent's or a symlink's
 * target ended in one).
 */
static size_t walk_next(struct walk *w)
{
	while (w->buf[w->pos] == '/')
		w->pos++;
	const char *comp = w->buf + w->pos;
	size_t n = strcspn(comp, "/");
	w->pos += n;
	w->slash = w->buf[w->pos] == '/';
	/* Last unless a non-slash character follows. */
	size_t p = w->pos;
	while (w->buf[p] == '/')
		p++;
	w->last = w->buf[p] == '\0';
	w->n = n;
	if (n <= NAME_MAX) {
		memcpy(w->comp, comp, n);
		w->comp[n] = '\0';
	}
	return n;
}

/* The walk goes on from next (ward's fd, now the walk's). */
static void walk_to(struct walk *w, int next)
{
	close(w->cur);
	w->cur = next;
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

	if (compat_openat2_off)
		return -EAGAIN; /* no openat2: the slow walk is the only one */
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

/* Both fast paths from start: -EAGAIN when neither can tell (take the slow walk). */
static int fast_paths(int start, const char *path, struct walk *w, int *out)
{
	int rc = fast_path(start, path, w->mode, out, w->real, w->reallen, w->name, false);

	if (rc == -EAGAIN) {
		rc = fast_path(start, path, w->mode, out, w->real, w->reallen, w->name, true);
		if (rc == 0)
			w->hops = 1; /* a symlink was on the way: how many, the kernel does not say */
	}
	return rc;
}

/*
 * Where the walk starts: the agent's root for an absolute path, else its
 * cwd or dirfd (through /proc/TID), in w->cur (0).  1 when a fast path
 * answered already (*out, w->real), or -errno.
 */
static int walk_start(struct req *r, struct walk *w, int dirfd, const char *path, int *out)
{
	int rc;

	if (path[0] == '/') {
		/* Absolute: the fast path starts at the shared root fd itself. */
		pthread_once(&root_once, open_root);
		if (root_fd < 0)
			return -EACCES;
		if ((rc = fast_paths(root_fd, path, w, out)) != -EAGAIN)
			return rc < 0 ? rc : 1;
		return agent_root(r, &w->cur);
	}
	if ((rc = agent_fd(r, dirfd, &w->cur)) < 0)
		return rc;
	r->hop_fd = -1; /* a path follows: what it reaches is reached by name */
	/*
	 * A walk starting inside /proc (a cwd or dirfd there): if that is
	 * another process's directory, refuse as the walk from the proc root
	 * would, with the lexical path for the decision.
	 */
	if ((rc = proc_foreign_obj(w->cur, path, w->real, w->reallen)) < 0)
		return rc;
	if ((rc = fast_paths(w->cur, path, w, out)) != -EAGAIN) {
		close(w->cur);
		w->cur = -1;
		return rc < 0 ? rc : 1;
	}
	return 0;
}

/*
 * What ps and pgrep read of every process: comp is a task's directory (by
 * its number) and rest (what the walk has still to take below it) names
 * its stat, status or comm, and nothing below.  Such a file of a task
 * outside the session is walked to, and its path decided by the policy
 * (whose self-protection refuses all but reading it:
 * @foreign-proc-private); every other one is refused unwalked.  Not to
 * make or remove a name there (RES_PARENT).
 */
static bool proc_public(const char *comp, const char *rest, enum resolve_mode mode)
{
	char own[64];

	if (mode == RES_PARENT)
		return false;
	/* Not ward's own, nor one of its threads': the agent reads nothing of ward. */
	snprintf(own, sizeof(own), "/proc/self/task/%.20s", comp);
	if (strspn(comp, "0123456789") != strlen(comp) || access(own, F_OK) == 0)
		return false;
	rest += strspn(rest, "/");
	size_t n = strcspn(rest, "/");
	if (rest[n] != '\0')
		return false;
	return (n == 4 && strncmp(rest, "stat", 4) == 0) ||
	       (n == 6 && strncmp(rest, "status", 6) == 0) || (n == 4 && strncmp(rest, "comm", 4) == 0);
}

/*
 * The component at a procfs root: "self" and "thread-self" mean the
 * agent, and the walk goes on there (1); another process's /proc/PID is
 * judged lexically, never walked (-E_FOREIGN_PROC, w->real set), but for
 * the files ps reads (checked again once opened: walk_into_procfs); else 0.
 */
static int walk_proc_entry(struct req *r, struct walk *w)
{
	bool self = strcmp(w->comp, "self") == 0, thread = strcmp(w->comp, "thread-self") == 0;
	bool digits = all_digits(w->comp, w->n);
	char sub[64];

	if (!(self || thread || digits) || !is_proc_root(w->cur))
		return 0;
	if (self || thread) {
		if (self)
			snprintf(sub, sizeof(sub), "%d", r->tgid);
		else
			snprintf(sub, sizeof(sub), "%d/task/%d", r->tgid, r->tid);
		int rc = walk_prepend(w, sub);
		return rc < 0 ? rc : 1;
	}
	if (proc_maybe_session(atoi(w->comp)) || proc_public(w->comp, w->buf + w->pos, w->mode))
		return 0;
	snprintf(w->real, w->reallen, "/proc/%s%s%s", w->comp, w->buf[w->pos] ? "/" : "",
		 w->buf[w->pos] ? w->buf + w->pos + strspn(w->buf + w->pos, "/") : "");
	return -E_FOREIGN_PROC;
}

/*
 * next, the component just opened, is in a procfs (wherever mounted): a
 * task's directory there is walked into only when the task is the
 * session's, ward traces it.  Checked on what was opened, so an id of the
 * session freed meanwhile (a thread's is freed as soon as it execs) and
 * taken by another process is not taken for the session's.  0, or
 * -E_FOREIGN_PROC (w->real set).
 */
static int walk_into_procfs(struct walk *w, int next, const struct stat *st)
{
	/*
	 * Into a procfs mount from outside it (another filesystem, or another
	 * mount: a part of a procfs bound there), or into a task's directory
	 * within one.
	 */
	if (!is_procfs(w->cur) || mount_id_of(w->cur) != mount_id_of(next))
		return proc_foreign_obj(next, w->buf + w->pos, w->real, w->reallen);
	if (!S_ISDIR(st->st_mode))
		return 0;
	int rc = proc_foreign_task(next, w->buf + w->pos, w->real, w->reallen);
	/* Into another's task directory: only for that file (proc_public). */
	return rc == -E_FOREIGN_PROC && proc_public(w->comp, w->buf + w->pos, w->mode) ? 0 : rc;
}

/*
 * A magic link of a session process (the walk refused other processes
 * above): let the kernel follow it to the object, which is then judged by
 * its own real path.  0 to go on from there, or -errno.
 */
static int walk_magic_link(struct req *r, struct walk *w)
{
	struct stat st;
	/*
	 * An fd/N hop: remember whose fd, for hop_is_own().  The task is the
	 * one whose directory holds this fd/ (whatever procfs mount it is in:
	 * its status says which task it is).
	 */
	char dir[PATH_MAX];
	size_t dl;
	pid_t tid;
	int task, next;
	if (all_digits(w->comp, w->n) && fd_real_path(w->cur, dir, sizeof(dir)) == 0 &&
	    (dl = strlen(dir)) >= 3 && strcmp(dir + dl - 3, "/fd") == 0 &&
	    (task = openat(w->cur, "..", O_PATH | O_DIRECTORY | O_CLOEXEC)) >= 0) {
		if (proc_task_status(task, &tid, NULL, NULL, NULL) == 1 && tid > 0) {
			r->hop_tid = tid;
			r->hop_fd = atoi(w->comp);
		}
		close(task);
	}
	next = openat(w->cur, w->comp, O_PATH | O_CLOEXEC);
	if (next < 0)
		return -errno;
	if (!w->last && (fstat(next, &st) < 0 || !S_ISDIR(st.st_mode))) {
		close(next);
		return -ENOTDIR;
	}
	walk_to(w, next);
	/* The hop may have led into another process's /proc directory. */
	return proc_foreign_obj(w->cur, w->buf + w->pos, w->real, w->reallen);
}

/*
 * The component is a symlink, next (ward's fd of it): the walk stops at it
 * (1: the last, not to be followed), or follows it, one hop (0), or -errno.
 * next is the walk's or closed, either way.
 */
static int walk_symlink(struct req *r, struct walk *w, int next)
{
	char target[PATH_MAX];
	int rc;

	if (w->last && w->mode == RES_FINAL_NOFOLLOW && !w->slash) {
		walk_to(w, next);
		return 1;
	}
	if (++w->hops > MAX_HOPS) {
		close(next);
		return -ELOOP;
	}
	ssize_t tl = readlinkat(next, "", target, sizeof(target) - 1);
	rc = tl < 0 ? -errno : 0;
	close(next);
	if (rc < 0)
		return rc;
	target[tl] = '\0';
	if (is_procfs(w->cur) && (target[0] == '/' || strchr(target, ':') != NULL))
		return walk_magic_link(r, w);
	if (target[0] == '/') {
		int root;
		if ((rc = agent_root(r, &root)) < 0)
			return rc;
		walk_to(w, root);
	}
	return walk_prepend(w, target);
}

/*
 * One step: open the component from w->cur, never following a symlink,
 * and go on from it.  1 when the walk ends at it (a final symlink not to
 * be followed), 0 to go on, or -errno.
 */
static int walk_step(struct req *r, struct walk *w)
{
	struct stat st;
	int rc, next = openat(w->cur, w->comp, O_PATH | O_NOFOLLOW | O_CLOEXEC);

	if (next < 0)
		return -errno;
	if (fstat(next, &st) < 0) {
		rc = -errno;
		close(next);
		return rc;
	}
	if (is_procfs(next) && (rc = walk_into_procfs(w, next, &st)) < 0) {
		close(next);
		return rc;
	}
	r->hop_fd = -1; /* reached by name */
	if (S_ISLNK(st.st_mode))
		return walk_symlink(r, w, next);
	if (!w->last && !S_ISDIR(st.st_mode)) {
		close(next);
		return -ENOTDIR;
	}
	walk_to(w, next);
	return 0;
}

int resolve(struct req *r, int dirfd, const char *path, enum resolve_mode mode,
	    int *out, char *real, size_t reallen, const char **name)
{
	static __thread struct walk w;
	bool want_dir = false;
	int rc;

	*out = -1;
	if (name != NULL)
		*name = NULL;
	r->hop_fd = -1; /* set again only by an fd/N hop that ends the walk */
	r->walk_hops = -1;
	if (path[0] == '\0')
		return -ENOENT;
	/* "name/" must be a directory, and a symlink there is followed. */
	r->trailing_slash = slash_end(path);
	if (strlen(path) >= PATH_MAX)
		return -ENAMETOOLONG;
	strcpy(w.buf, path);
	w.pos = 0;
	w.cur = -1;
	w.hops = 0;
	w.mode = mode;
	w.real = real;
	w.reallen = reallen;
	w.name = name;
	if ((rc = walk_start(r, &w, dirfd, path, out)) != 0)
		goto done;

	/* A path of slashes only, or empty after them: the start itself. */
	while (walk_next(&w) > 0) {
		want_dir = w.last && w.slash;
		if (w.n > NAME_MAX) {
			rc = -ENAMETOOLONG;
			goto done;
		}
		if (w.last && mode == RES_PARENT) {
			if (strcmp(w.comp, ".") == 0 || strcmp(w.comp, "..") == 0) {
				rc = -EINVAL;
				goto done;
			}
			*name = w.comp;
			break;
		}
		if (strcmp(w.comp, ".") == 0) {
			/* Looked up in a directory only: "." of a file is ENOTDIR, before any decision. */
			struct stat st;
			if (fstat(w.cur, &st) < 0 || !S_ISDIR(st.st_mode)) {
				rc = -ENOTDIR;
				goto done;
			}
			continue;
		}
		/* /proc/self and /proc/thread-self mean the agent. */
		if ((rc = walk_proc_entry(r, &w)) < 0)
			goto done;
		if (rc == 1)
			continue;
		if ((rc = walk_step(r, &w)) < 0)
			goto done;
		if (rc == 1)
			break;
	}
	if (mode == RES_PARENT && *name == NULL) {
		/* "/" or "dir/." : there is no final name to create or remove. */
		rc = -EINVAL;
		goto done;
	}
	if (mode != RES_PARENT && want_dir) {
		struct stat st;
		if (fstat(w.cur, &st) < 0 || !S_ISDIR(st.st_mode)) {
			rc = -ENOTDIR;
			goto done;
		}
	}
	if (real != NULL && (rc = fd_real_path(w.cur, real, reallen)) < 0)
		goto done;
	r->walk_hops = w.hops;
	*out = w.cur;
	return 0;
done:
	if (rc < 0 && w.cur >= 0)
		close(w.cur);
	if (rc >= 0)
		r->walk_hops = w.hops;
	return rc < 0 ? rc : 0;
}

int join_path(const char *dir, const char *name, char *out, size_t len)
{
	int n = snprintf(out, len, "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, name);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}
