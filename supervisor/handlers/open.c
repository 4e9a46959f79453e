/*
 * handlers/open.c - open, openat, openat2, creat.
 *
 * decode -> resolve -> decide -> emulate -> reply.  The supervisor opens
 * the file itself and hands the agent the fd it checked (ADDFD):
 *   - an existing object is first opened O_PATH by the supervisor's own
 *     walk, decided on by its real path, then reopened through
 *     /proc/self/fd with the agent's flags: the object reopened is the
 *     object decided on;
 *   - a new file is decided on as its parent's real path plus the name,
 *     and created with O_EXCL | O_NOFOLLOW relative to that parent's fd.
 * An open for reading and writing needs both read and write allowed.
 */
#include "../degraded.h"
#include "../restart.h"
#include "../compat.h"
#include "handlers.h"
#include "../log.h"
#include "../mem.h"
#include "../notify.h"
#include "../proc.h"
#include "../procfs.h"
#include "../repos.h"
#include "../resolve.h"
#include "../session.h"
#include "../sighold.h"
#include "../shm.h"
#include "../tty.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/openat2.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_RETRIES 40

struct open_args {
	int dirfd;
	uint64_t path;
	int flags;
	mode_t mode;
	uint64_t resolve;
	int orig_flags; /* as the agent asked (flags may lose O_CREAT on the way) */
};

static int decode(struct req *r, struct open_args *a)
{
	const __u64 *arg = r->n->data.args;

	switch (r->n->data.nr) {
	case SYS_open:
		*a = (struct open_args){ AT_FDCWD, arg[0], (int)arg[1], (mode_t)arg[2], 0, 0 };
		return 0;
	case SYS_creat:
		*a = (struct open_args){ AT_FDCWD, arg[0], O_CREAT | O_WRONLY | O_TRUNC,
					 (mode_t)arg[1], 0, 0 };
		return 0;
	case SYS_openat:
		*a = (struct open_args){ (int)arg[0], arg[1], (int)arg[2], (mode_t)arg[3], 0, 0 };
		return 0;
	case SYS_openat2: {
		struct open_how how;
		size_t size = (size_t)arg[3];
		int rc;
		if (compat_openat2_off)
			return -ENOSYS; /* a kernel without openat2 (or it masked) */
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
		/* openat2 is strict where open is lax: unknown or clashing flags are EINVAL. */
		const uint64_t valid = O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND |
				       O_NONBLOCK | O_DSYNC | O_SYNC | FASYNC | O_DIRECT |
				       O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | O_NOATIME |
				       O_CLOEXEC | O_PATH | __O_TMPFILE;
		if ((how.flags & ~valid) ||
		    ((how.flags & O_PATH) &&
		     (how.flags & ~(uint64_t)(O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC))))
			return -EINVAL;
		if (how.resolve & ~(uint64_t)(RESOLVE_NO_XDEV | RESOLVE_NO_MAGICLINKS |
					      RESOLVE_NO_SYMLINKS | RESOLVE_BENEATH |
					      RESOLVE_IN_ROOT | RESOLVE_CACHED))
			return -EINVAL;
		*a = (struct open_args){ (int)arg[0], arg[1], (int)how.flags, (mode_t)how.mode,
					 how.resolve, 0 };
		return 0;
	}
	}
	return -ENOSYS;
}

/*
 * The ops an open is judged as: reading for O_RDONLY and O_RDWR, writing
 * (modifying what exists) for O_WRONLY, O_RDWR and O_TRUNC.  O_PATH only
 * looks (stat); it is handed over readable, so it needs read too.
 */
static unsigned open_ops(int flags)
{
	unsigned ops = 0;

	if (flags & O_PATH)
		return WARD_OP_STAT | WARD_OP_READ;
	if ((flags & O_ACCMODE) != O_WRONLY)
		ops |= WARD_OP_READ;
	if ((flags & O_ACCMODE) != O_RDONLY || (flags & O_TRUNC))
		ops |= WARD_OP_WRITE;
	return ops;
}

/* The op a line names for an open before (or without) its decisions. */
static unsigned logged_op(int flags)
{
	return open_ops(flags) & WARD_OP_WRITE ? WARD_OP_WRITE : WARD_OP_READ;
}

/*
 * Decide every op of ops on path: all must allow.  Returns 0, 1 (rewrite,
 * v holds the replacement) or a denial.  Each decision but the last is
 * logged as the next one starts; the last one when the call is answered.
 */
static int decide_ops(struct req *r, unsigned ops, const char *path, struct ward_verdict *v)
{
	int rc, result = 0;
	bool first = true;
	struct ward_verdict w;

	for (unsigned op = 1; op & WARD_OPS_ALL; op <<= 1) {
		if (!(ops & op))
			continue;
		if (!first && decide_next(r) < 0)
			return -EACCES;
		first = false;
		rc = decide_path(r, (enum ward_op)op, path, &w);
		if (rc < 0)
			return rc;
		if (rc == 1) {
			*v = w;
			result = 1;
		}
	}
	return result;
}

/* A file removed since it was opened is judged by the name it had. */
static void strip_deleted(char *real, const struct stat *st)
{
	size_t n = strlen(real);
	if (st->st_nlink == 0 && n > 10 && strcmp(real + n - 10, " (deleted)") == 0)
		real[n - 10] = '\0';
}

/* Open with the agent's flags, through the O_PATH fd that was decided on. */
static int reopen(int opath, int flags)
{
	flags &= ~(O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC);
	return fd_reopen(opath, flags | O_NOCTTY);
}

/* A write or a create was let through: a repository it changed is noted (repos.c). */
static void note_change(struct req *r)
{
	if (r->dec.outcome == DEC_ALLOW && (r->dec.op & (WARD_OP_WRITE | WARD_OP_CREATE)))
		repos_note(r->dec.path);
}

/*
 * Whether ward's copy of the agent's new fd must be closed before the
 * agent runs again (req_answer_fd's writable): one open for writing (an
 * exec of the file would fail with ETXTBSY), and either end of a FIFO,
 * which while ward holds it is a reader or writer to the other end's
 * open (a writer let through, whose data then goes with ward's copy).
 */
static bool close_first(int flags, bool fifo)
{
	return fifo || (flags & O_ACCMODE) != O_RDONLY || (flags & (O_CREAT | O_TRUNC));
}

/* Hand over fd: the decision is logged first, then the agent gets it. */
static int finish_as(struct req *r, int fd, int flags, bool fifo)
{
	int rc = req_answer_fd(r, fd, flags & O_CLOEXEC, close_first(flags, fifo));
	if (rc > 0)
		note_change(r);
	return rc;
}

static int finish(struct req *r, int fd, int flags)
{
	return finish_as(r, fd, flags, false);
}

/*
 * Open a rewrite's replacement: under $SESSION, where the agent may make
 * anything, so nothing on the way is followed.  Missing parents are made
 * one at a time below the directory before them (mkdirat on an fd, never
 * a path that could lead through a symlink planted meanwhile).  The open
 * never blocks (a FIFO waits for its other end and would hold a worker):
 * what is found must be a regular file or a directory.
 */
static int open_rewrite(const char *path, int flags, mode_t mode, int *fd)
{
	struct open_how dir_how = {
		.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct open_how how = {
		.flags = (uint64_t)(flags | O_CLOEXEC | O_NOCTTY | O_NONBLOCK),
		.mode = (flags & (O_CREAT | O_TMPFILE)) ? mode : 0,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	char name[NAME_MAX + 1];
	const char *p = path, *slash;
	int dir, rc = 0;

	*fd = -1;
	if (path[0] != '/')
		return -EACCES; /* rewrites are absolute after expansion */
	if ((dir = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	while (*p == '/')
		p++;
	while ((slash = strchr(p, '/')) != NULL) {
		size_t n = (size_t)(slash - p);
		if (n > NAME_MAX) {
			rc = -ENAMETOOLONG;
			goto out;
		}
		memcpy(name, p, n);
		name[n] = '\0';
		for (p = slash; *p == '/'; p++)
			;
		if (n == 0 || strcmp(name, ".") == 0)
			continue;
		int next = ward_openat2(dir, name, &dir_how);
		if (next < 0 && errno == ENOENT && (flags & O_CREAT)) {
			if (mkdirat(dir, name, 0700) < 0 && errno != EEXIST) {
				rc = -errno;
				goto out;
			}
			next = ward_openat2(dir, name, &dir_how);
		}
		if (next < 0) {
			rc = -errno;
			goto out;
		}
		close(dir);
		dir = next;
	}
	if (strlen(p) > NAME_MAX) {
		rc = -ENAMETOOLONG;
		goto out;
	}
	*fd = ward_openat2(dir, *p ? p : ".", &how);
	if (*fd < 0) {
		rc = -errno;
		goto out;
	}
	struct stat st;
	int fl;
	if (fstat(*fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISDIR(st.st_mode)))
		rc = -EACCES;
	else if (!(flags & O_NONBLOCK) && ((fl = fcntl(*fd, F_GETFL)) < 0 ||
					   fcntl(*fd, F_SETFL, fl & ~O_NONBLOCK) < 0))
		rc = -errno;
	if (rc < 0) {
		close(*fd);
		*fd = -1;
	}
out:
	close(dir);
	return rc;
}

static int do_rewrite(struct req *r, const struct ward_verdict *v, int flags, mode_t mode)
{
	/* flags as the agent asked: an O_CREAT dropped on the way counts here. */
	int fd, rc = open_rewrite(v->rewrite, flags & ~O_NOFOLLOW, mode, &fd);
	return rc < 0 ? rc : finish(r, fd, flags);
}

/*
 * A FIFO's open blocks until the other end opens: done on a thread of its
 * own, so that the workers stay free (ncpu blocked opens would otherwise
 * stop the whole session).  The decision is logged before it starts.
 */
struct fifo_open {
	struct req *l; /* the call, answered later (req_later) */
	int opath, flags;
	uint64_t decided; /* --degraded: what it was decided as (decided_as) */
};

/*
 * Each waiting open costs ward a thread (its stack, and the handlers'
 * thread-local buffers, about half a MiB in all): at most this many wait
 * at once; one more is refused (EAGAIN), logged with the reason.
 */
#define MAX_FIFO_WAITS 64
static atomic_int fifo_waits;

static void fifo_done(struct fifo_open *f)
{
	close(f->opath);
	free(f);
	atomic_fetch_sub(&fifo_waits, 1);
}

/*
 * What r's last decision was, as a key: its outcome, the op, the path and
 * the rule (not who took it: made again, it is the cache's).  --degraded
 * without openat2 decides a FIFO's open that waited in ward again when it
 * is made again: the same decision is not logged twice, another one is.
 */
static uint64_t decided_as(const struct req *r)
{
	uint64_t h = 14695981039346656037ull;
	const struct decision *d = &r->dec;
	const uint64_t parts[] = { (uint64_t)d->outcome, d->op, d->would_deny,
				   (uint64_t)(uintptr_t)(d->verdict != NULL ? d->verdict->rule : NULL) };

	for (size_t i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
		h = (h ^ parts[i]) * 1099511628211ull;
	for (const char *c = d->path != NULL ? d->path : ""; *c != '\0'; c++)
		h = (h ^ (unsigned char)*c) * 1099511628211ull;
	return h;
}

static void *fifo_thread(void *arg)
{
	struct fifo_open *f = arg;
	struct req *l = f->l;
	int fd;

	/*
	 * The open waits for the other end: until then the agent waits in
	 * ward's notification, where not even a fatal signal reaches a traced
	 * task.  So look every 100 ms whether one is on its way, and answer as
	 * the kernel's own wait does, ERESTARTSYS: restarted after a handler
	 * with SA_RESTART, EINTR after one without (gone: nobody is waiting).
	 * Where no timer can be set (timer_create counts against the
	 * RLIMIT_SIGPENDING ward shares with every process of its user, which
	 * another may fill), only the other end ends the wait: the call's
	 * place (restart.c) is let go first, so that the thread's next calls
	 * do not wait for it.
	 */
	if (!interruptible_begin())
		restart_end(l);
	fd = reopen(f->opath, f->flags);
	while (fd == -EINTR) {
		int why = agent_restart_id(l->n->id, l->tid);
		fd = why < 0 ? why : reopen(f->opath, f->flags);
	}
	interruptible_end();
	interruptible_exit();
	if (fd == -ESRCH) {
		req_later_free(l);
		fifo_done(f);
		return NULL;
	}
	if (S->degraded) {
		/*
		 * Without openat2 (open.c's degraded branch): the other end is
		 * there; the FIFO is held open for reading and writing (or by
		 * this end, where its mode allows no more) so that the agent's
		 * own open of it, made again, does not wait.
		 */
		if (fd >= 0) {
			int hold = reopen(f->opath, O_RDWR | O_NONBLOCK);
			struct stat st;
			if (hold < 0)
				hold = fd;
			else
				close(fd);
			if (fstat(hold, &st) == 0) {
				degraded_fifo_ready(l->n->id, l->tid, st.st_dev, st.st_ino, hold,
						    f->decided);
			} else {
				close(hold);
				degraded_answer(l->n->id, -EACCES, 0); /* answered: fail closed, never left waiting */
			}
		} else {
			degraded_answer(l->n->id, fd, 0);
		}
		req_later_free(l);
		fifo_done(f);
		return NULL;
	}
	/*
	 * Answered as a worker answers (ward's copy closed before the agent
	 * runs: close_first): should a signal end the agent's wait before
	 * the fd reaches it (before 5.19; the other end may be gone
	 * since, and natively this open has succeeded), the fd is kept for
	 * the call's restart (restart.c), which waits for this answer.
	 */
	req_later_answer(l, fd < 0 ? fd : req_answer_fd(l, fd, f->flags & O_CLOEXEC, close_first(f->flags, true)));
	fifo_done(f);
	return NULL;
}

static int open_fifo(struct req *r, int opath, int flags)
{
	struct fifo_open *f = malloc(sizeof(*f));
	pthread_attr_t attr;
	pthread_t t;

	if (f == NULL)
		return -ENOMEM;
	if (atomic_fetch_add(&fifo_waits, 1) >= MAX_FIFO_WAITS) {
		atomic_fetch_sub(&fifo_waits, 1);
		free(f);
		return refuse(r, EAGAIN, "too many FIFO opens wait at once (64)");
	}
	if (req_commit(r, true) < 0) {
		atomic_fetch_sub(&fifo_waits, 1);
		free(f);
		return -EACCES;
	}
	*f = (struct fifo_open){ NULL, fcntl(opath, F_DUPFD_CLOEXEC, 0), flags, decided_as(r) };
	if (f->opath < 0 || (f->l = req_later(r)) == NULL) {
		if (f->opath >= 0)
			close(f->opath);
		free(f);
		atomic_fetch_sub(&fifo_waits, 1);
		return -EAGAIN;
	}
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* The stack holds the static TLS of the handlers too (a few hundred KiB). */
	pthread_attr_setstacksize(&attr, 2 << 20);
	if (pthread_create(&t, &attr, fifo_thread, f) != 0) {
		req_later_cancel(r, f->l); /* the worker answers after all */
		fifo_done(f);
		pthread_attr_destroy(&attr);
		return -EAGAIN;
	}
	pthread_attr_destroy(&attr);
	note_change(r);
	return 1;
}

/*
 * For an absolute path that starts with /proc/self or /proc/thread-self,
 * however written ("//proc/./self"): what follows them, as given, and
 * which of the two (*thread).  NULL for any other path.
 */
static const char *proc_self_rest(const char *path, bool *thread)
{
	const char *c = path;
	size_t len;

	if (path[0] != '/')
		return NULL;
	for (int k = 0; k < 2; k++) {
		do {
			c += strspn(c, "/");
			len = strcspn(c, "/");
		} while (len == 1 && c[0] == '.' && (c += 1));
		if (k == 0 && len == 4 && strncmp(c, "proc", 4) == 0) {
			c += 4;
			continue;
		}
		if (k == 1 && ((len == 4 && strncmp(c, "self", 4) == 0) ||
			       (len == 11 && strncmp(c, "thread-self", 11) == 0))) {
			*thread = len == 11;
			return c + len;
		}
		break;
	}
	return NULL;
}

/*
 * Resolve for an open, always with ward's own walk.  openat2's RESOLVE_*
 * flags restrict the agent's own lookup: the kernel is asked to do that
 * lookup too (O_PATH, from the agent's dirfd: no side effect), only to
 * refuse what the agent asked to be refused, and the two must have found
 * the same object; what is decided on and handed over is ward's.
 */
static int open_resolve(struct req *r, const struct open_args *a, enum resolve_mode m,
			int *fd, char *real, size_t reallen, const char **name)
{
	uint64_t flags = a->resolve & ~(uint64_t)RESOLVE_CACHED;
	int base, kfd, rc;

	if (flags == 0)
		return resolve(r, a->dirfd, r->path, m, fd, real, reallen, name);
	if (m == RES_PARENT)
		return -EOPNOTSUPP; /* creation under RESOLVE_* flags: see h_open */
	/*
	 * The kernel's lookup, with the agent's flags, from the agent's dirfd
	 * (O_PATH: no side effect), answers what those flags refuse.  Its
	 * object is then looked up again by ward's own walk, by its real path
	 * from the root, and the two must agree: a lookup the kernel did as
	 * ward (/proc/self, another process's magic links) cannot pass.
	 */
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC | (m == RES_FINAL_NOFOLLOW ? O_NOFOLLOW : 0),
		.resolve = flags,
	};
	/*
	 * An absolute path starts at the root unless RESOLVE_BENEATH or
	 * RESOLVE_IN_ROOT tie it to the dirfd: then the dirfd is not looked at
	 * (not even whether it is one), as the kernel does.
	 */
	bool tied = flags & (RESOLVE_BENEATH | RESOLVE_IN_ROOT);
	rc = r->path[0] == '/' && !tied ? agent_root(r, &base) : agent_fd(r, a->dirfd, &base);
	if (rc < 0)
		return rc;
	/*
	 * The kernel looks up as ward: /proc/self and /proc/thread-self would
	 * be ward's.  For a path that starts with them, name the agent's.
	 */
	const char *kpath = r->path, *rest;
	char self_path[PATH_MAX + 64];
	bool thread;
	if (!tied && (rest = proc_self_rest(r->path, &thread)) != NULL) {
		if (flags & RESOLVE_NO_SYMLINKS) {
			close(base);
			return -ELOOP; /* "self" is a symlink */
		}
		int n = thread ? snprintf(self_path, sizeof(self_path), "/proc/%d/task/%d%s", r->tgid,
					  r->tid, rest)
			       : snprintf(self_path, sizeof(self_path), "/proc/%d%s", r->tgid, rest);
		if (n < 0 || n >= (int)sizeof(self_path)) {
			close(base);
			return -ENAMETOOLONG;
		}
		kpath = self_path;
	}
	/*
	 * EAGAIN: a rename or mount anywhere in the system while ".." was
	 * walked under RESOLVE_BENEATH or RESOLVE_IN_ROOT (the kernel's counts
	 * are global); the kernel leaves the retry to its caller, and ward's
	 * longer way round meets it more often than the agent would: retried.
	 * (RESOLVE_CACHED, whose EAGAIN means something else, is not passed.)
	 */
	for (int tries = 0;; tries++) {
		kfd = ward_openat2(base, kpath, &how);
		if (kfd >= 0 || errno != EAGAIN || tries == 16)
			break;
	}
	rc = kfd < 0 ? -errno : 0;
	close(base);
	if (rc < 0)
		return rc;
	char kreal[PATH_MAX];
	rc = fd_real_path(kfd, kreal, sizeof(kreal));
	if (rc == 0 && kreal[0] != '/')
		rc = -EACCES;
	if (rc == 0)
		rc = resolve(r, AT_FDCWD, kreal, m, fd, real, reallen, name);
	if (rc == 0) {
		struct stat ours, theirs;
		if (fstat(*fd, &ours) < 0 || fstat(kfd, &theirs) < 0 ||
		    ours.st_dev != theirs.st_dev || ours.st_ino != theirs.st_ino) {
			close(*fd);
			*fd = -1;
			rc = -EACCES; /* the two lookups disagree: refuse */
		}
	}
	close(kfd);
	return rc;
}

/* Open something that exists (or fail as the kernel would). */
/*
 * A mem file of a procfs (/proc/PID/mem, /proc/PID/task/TID/mem) of a
 * process other than the caller's: ward opens it with its own rights,
 * where the agent may not ptrace nor process_vm_readv.  It would also
 * read a process ward is about to kill, whose exec failed its checks:
 * the kernel mapped what the exec found, a denied program, meanwhile.
 * Anything ward cannot tell is another's.
 */
static bool others_mem(struct req *r, int opath, const char *real)
{
	char buf[PATH_MAX], *end, *comp;
	size_t len = strlen(real);

	if (len < 4 || strcmp(real + len - 4, "/mem") != 0 || !is_procfs(opath))
		return false;
	snprintf(buf, sizeof(buf), "%.*s", (int)(len - 4), real);
	/* .../PID/mem, or .../PID/task/TID/mem: the process is PID either way. */
	if ((comp = strrchr(buf, '/')) == NULL)
		return true;
	char *task = comp - 5 >= buf && strncmp(comp - 5, "/task", 5) == 0 ? comp - 5 : NULL;
	if (task != NULL) {
		*task = '\0';
		if ((comp = strrchr(buf, '/')) == NULL)
			return true;
	}
	long pid = strtol(comp + 1, &end, 10);
	if (*end != '\0' || end == comp + 1 || pid <= 0)
		return true;
	pid_t tgid, ppid;
	if (!proc_info((pid_t)pid, &tgid, &ppid, NULL, 0))
		proc_status_ids((pid_t)pid, &tgid, &ppid);
	/* --degraded: its own too, for writing, which would reach ward's page (degraded.c). */
	return tgid != r->tgid || (S->degraded && (r->open_flags & O_ACCMODE) != O_RDONLY);
}

/*
 * What holds other files' bytes whatever their names: a block device (a
 * disk, a partition, a loop device), SCSI generic devices, physical or
 * kernel memory (/dev/mem, /dev/kmem, /dev/port, /proc/kcore,
 * /dev/snapshot).  Path rules cannot
 * guard what is read through them (a root agent could read any file off
 * its disk), so the agent opens none of them, whatever the policy says.
 */
static bool raw_store(struct req *r, int opath, const struct stat *st)
{
	if (S_ISBLK(st->st_mode))
		return true;
	if (S_ISCHR(st->st_mode) && major(st->st_rdev) == 1 &&
	    (minor(st->st_rdev) == 1 || minor(st->st_rdev) == 2 || minor(st->st_rdev) == 4))
		return true;
	/* SCSI generic (/dev/sg*: a disk's sectors by read and write), /dev/snapshot (memory). */
	if (S_ISCHR(st->st_mode) &&
	    (major(st->st_rdev) == 21 || (major(st->st_rdev) == 10 && minor(st->st_rdev) == 231)))
		return true;
	size_t len = strlen(r->real);
	/* The name first: fstatfs costs more than a compare, and most files are not kcore. */
	return S_ISREG(st->st_mode) && len >= 6 && strcmp(r->real + len - 6, "/kcore") == 0 &&
	       is_procfs(opath);
}

static int open_existing(struct req *r, const struct open_args *a, mode_t mode)
{
	struct ward_verdict v;
	int opath, fd, rc;
	enum resolve_mode m = (a->flags & O_NOFOLLOW) ? RES_FINAL_NOFOLLOW : RES_FINAL;

	rc = open_resolve(r, a, m, &opath, r->real, sizeof(r->real), NULL);
	if (rc == -E_FOREIGN_PROC) {
		/* Another process's /proc entry: decided on lexically (and denied). */
		rc = decide_ops(r, open_ops(a->flags), r->real, &v);
		return foreign_denied(r, rc);
	}
	if (rc < 0)
		return rc;

	struct stat st;
	if (fstat(opath, &st) < 0) {
		rc = -errno;
		goto out;
	}
	if (S_ISLNK(st.st_mode)) {
		rc = -ELOOP; /* O_NOFOLLOW on a symlink */
		goto out;
	}
	if ((a->flags & O_DIRECTORY) && !S_ISDIR(st.st_mode)) {
		rc = -ENOTDIR;
		goto out;
	}
	/*
	 * A terminal by a name outside /dev (a chroot's device nodes, a bind
	 * of /dev/pts): the policy's @foreign-tty is told by names under /dev.
	 */
	if (S_ISCHR(st.st_mode) && strncmp(r->real, "/dev/", 5) != 0 &&
	    tty_foreign_dev(st.st_rdev)) {
		rc = refuse(r, EACCES, "a terminal not the session's, by a name outside /dev");
		goto out;
	}
	if (raw_store(r, opath, &st)) {
		rc = refuse(r, EACCES, "a block device or memory device holds files ward judges by name");
		goto out;
	}
	if (S_ISREG(st.st_mode) && others_mem(r, opath, r->real)) {
		rc = refuse(r, EACCES, "another process's memory (/proc/PID/mem): refused as ptrace is");
		goto out;
	}
	/* ld.so PROG opening PROG: the file judged at the exec, or nothing. */
	if (proc_loader_open(r->tid, r->path, &st) < 0) {
		rc = refuse(r, EACCES, "ld.so PROG: PROG is no longer the file judged at the exec");
		goto out;
	}
	/*
	 * No name to judge (a pipe, a socket, a memfd), or only the name it
	 * had (a deleted file): reached only through an fd, which must be the
	 * agent's own, not an O_PATH fd the kernel may have opened for it on
	 * another process's /proc/PID/fd/N.
	 */
	if ((rc = anon_check(r, opath, r->real)) < 0) {
		req_about(r, logged_op(a->flags), r->real);
		goto out;
	}
	strip_deleted(r->real, &st);
	if (unnamed_object(r->real, &st)) {
		req_own(r, logged_op(a->flags), r->real);
	} else {
		rc = decide_ops(r, open_ops(a->flags), r->real, &v);
		if (rc < 0)
			goto out;
		if (rc == 1) {
			rc = do_rewrite(r, &v, a->orig_flags, mode);
			goto out;
		}
		if ((open_ops(a->flags) & WARD_OP_WRITE) && (rc = shm_check(r, WARD_OP_WRITE, r->real, &st)) < 0)
			goto out;
	}
	if ((a->orig_flags & O_CREAT) && S_ISDIR(st.st_mode)) {
		rc = -EISDIR; /* O_CREAT on a directory */
		goto out;
	}
	if (S->degraded) {
		uint64_t decided = 0;
		/*
		 * The agent's kernel opens it (degraded.c), as the agent asked:
		 * a FIFO waits there for its other end, /dev/tty is its own
		 * terminal, O_PATH stays O_PATH.  Without openat2 that open is
		 * made while the process's other threads are stopped, where a
		 * FIFO must not wait (its other end may be one of them): ward
		 * waits for the other end first, on a thread of its own, and the
		 * call is made again, ward holding the FIFO open meanwhile.
		 */
		if (compat_openat2_off && S_ISFIFO(st.st_mode) && !(a->flags & (O_PATH | O_NONBLOCK)) &&
		    (a->flags & O_ACCMODE) != O_RDWR &&
		    (r->degraded_fifo = degraded_fifo_take(r->tid, st.st_dev, st.st_ino, &decided)) < 0) {
			rc = open_fifo(r, opath, a->flags);
			close(opath);
			return rc;
		}
		if (r->degraded_fifo >= 0 && decided == decided_as(r))
			req_quiet(r); /* made again: decided so, and logged, when it began to wait */
		rc = degraded_answer_fd(r, opath, false);
		return rc;
	}
	if (a->flags & O_PATH) {
		/*
		 * ADDFD cannot pass an O_PATH fd (the kernel refuses them), so
		 * the agent gets the object opened for reading, which is why read
		 * was decided too: a directory or a regular file only, never a
		 * device whose open could do something.
		 */
		if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
			rc = -EACCES;
			goto out;
		}
		fd = reopen(opath, O_RDONLY | O_NONBLOCK | (a->flags & O_CLOEXEC) |
					   (S_ISDIR(st.st_mode) ? O_DIRECTORY : 0));
		rc = fd < 0 ? fd : finish(r, fd, a->flags);
		goto out;
	}
	if (S_ISFIFO(st.st_mode) && !(a->flags & O_NONBLOCK)) {
		rc = open_fifo(r, opath, a->flags);
		goto out;
	}
	if (S_ISCHR(st.st_mode) && st.st_rdev == makedev(5, 0))
		/* /dev/tty: the caller's controlling terminal; reopened by ward it would be ward's. */
		fd = tty_open_ctty(r->tid, a->flags & ~(O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC));
	else
		fd = reopen(opath, a->flags);
	rc = fd < 0 ? fd : finish_as(r, fd, a->flags, S_ISFIFO(st.st_mode));
out:
	close(opath);
	return rc;
}

/*
 * A create that fails (err) because of what is at parent/name: the kernel
 * answers before it looks at permissions, and so does ward where the
 * policy lets the agent see what is there (decide_may_see).  Elsewhere
 * the answer would tell that the name exists (EEXIST, where a name not
 * there gets the create's EACCES): the create is decided first, as it is
 * for a name not there, and only a create allowed fails with err.
 */
static int there_answer(struct req *r, const struct open_args *a, mode_t mode,
			const char *name, int err)
{
	struct ward_verdict v;
	int rc;

	if ((rc = join_path(r->real2, name, r->real, sizeof(r->real))) < 0)
		return rc;
	if (decide_may_see(r->real))
		return err;
	rc = decide_path(r, WARD_OP_CREATE, r->real, &v);
	if (rc == 1)
		return do_rewrite(r, &v, a->orig_flags, mode);
	return rc < 0 ? rc : err;
}

/* O_CREAT: create in the parent directory, or open what is there. */
static int open_create(struct req *r, const struct open_args *a, mode_t mode)
{
	struct ward_verdict v;
	const char *name;
	int parent, fd, rc;
	char *path = r->path;

	for (int tries = 0; tries < MAX_RETRIES; tries++) {
		rc = resolve(r, a->dirfd, path, RES_PARENT, &parent, r->real2, sizeof(r->real2),
			     &name);
		if (rc == -E_FOREIGN_PROC)
			return open_existing(r, a, mode);
		if (rc == -EINVAL)
			return -EISDIR; /* "dir/." or "/" */
		if (rc < 0)
			return rc;
		fd = openat(parent, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		if (fd >= 0) {
			struct stat st;
			bool link = fstat(fd, &st) == 0 && S_ISLNK(st.st_mode);
			if (link && !(a->flags & (O_NOFOLLOW | O_EXCL)) && is_procfs(parent)) {
				/*
				 * A link in /proc (/proc/self/fd/N, /dev/stdout's target,
				 * /proc/self): its text is no path to make a file at; the
				 * kernel follows it to what is there, which the walk of
				 * an ordinary open does too.
				 */
				close(fd);
				close(parent);
				struct open_args b = *a;
				b.flags &= ~O_CREAT;
				return open_existing(r, &b, mode);
			}
			if (link && !(a->flags & (O_NOFOLLOW | O_EXCL))) {
				/*
				 * A symlink where the file is to be: the kernel would create
				 * its target.  Follow it one hop, from the parent, and look
				 * again there.
				 */
				ssize_t n = readlinkat(fd, "", r->path2, sizeof(r->path2) - 1);
				close(fd);
				if (n < 0) {
					close(parent);
					return -errno;
				}
				r->path2[n] = '\0';
				/*
				 * Continue from the link's directory: a relative target is
				 * made absolute against its real path, so that every later
				 * lookup (open_existing too) starts from the same place.
				 */
				if (r->path2[0] == '/')
					strcpy(r->path, r->path2);
				else if (join_path(r->real2, r->path2, r->path, sizeof(r->path)) < 0) {
					close(parent);
					return -ENAMETOOLONG;
				}
				close(parent);
				path = r->path;
				continue;
			}
			close(fd);
			if (r->trailing_slash || (a->flags & O_EXCL) || link) {
				/* O_CREAT and "name/" fail whatever is there. */
				rc = r->trailing_slash ? -EISDIR : (a->flags & O_EXCL) ? -EEXIST : -ELOOP;
				rc = there_answer(r, a, mode, name, rc);
				close(parent);
				return rc;
			}
			close(parent);
			/* It exists: judge it as an open of what it is. */
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
			return do_rewrite(r, &v, a->orig_flags, mode);
		}
		if (r->trailing_slash) {
			close(parent);
			return -EISDIR; /* "newname/": a file cannot be made there */
		}
		int flags = (a->flags & ~O_CLOEXEC) | O_CREAT | O_EXCL | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC;
		/*
		 * --degraded: the agent's kernel opens the file after ward made
		 * it, and checks the mode then, which the creating open does not
		 * (git makes its objects 0444 and writes them): made with the
		 * owner's bits the open needs, given its mode once the agent has
		 * it open (degraded.c).
		 */
		mode_t made = mode;
		if (S->degraded)
			made |= (a->flags & O_ACCMODE) == O_WRONLY ? S_IWUSR
				: (a->flags & O_ACCMODE) == O_RDWR ? S_IRUSR | S_IWUSR : S_IRUSR;
		fd = openat(parent, name, flags, made);
		rc = fd < 0 ? -errno : 0;
		close(parent);
		if (fd >= 0) {
			struct stat st;
			if (made != mode && fstat(fd, &st) == 0)
				r->degraded_chmod = (int)(st.st_mode & 07777 & ~(made & ~mode));
			shm_made(r->real, fd, "");
			return finish(r, fd, a->flags);
		}
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

	rc = open_resolve(r, a, RES_FINAL, &dir, r->real, sizeof(r->real), NULL);
	if (rc < 0)
		return rc == -E_FOREIGN_PROC ? -EACCES : rc;
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
	if (fd >= 0) {
		/* Unnamed until linked in: noted by its directory's name. */
		char name[PATH_MAX + 8];
		snprintf(name, sizeof(name), "%s/#tmpfile", r->real);
		shm_made(name, fd, "");
	}
	return fd < 0 ? rc : finish(r, fd, a->flags);
}

int h_open(struct req *r)
{
	struct open_args a;
	mode_t umask_ = 022;
	int rc;

	if ((rc = decode(r, &a)) < 0)
		return rc;
	a.orig_flags = a.flags;
	r->open_flags = a.flags;
	r->open_mode = a.mode;
	r->degraded_chmod = -1;
	r->degraded_fifo = -1;
	if ((a.flags & O_CREAT) && (a.flags & O_DIRECTORY) && !(a.flags & O_PATH) &&
	    (a.flags & O_TMPFILE) != O_TMPFILE)
		return -EINVAL; /* since Linux 6.4 */
	if ((rc = mem_read_str(r, a.path, r->path, sizeof(r->path))) < 0)
		return rc;
	req_about(r, logged_op(a.flags), r->path);
	if ((a.flags & (O_CREAT | __O_TMPFILE)) && a.resolve != 0) {
		/*
		 * Creating under openat2's RESOLVE_* restrictions would need the
		 * kernel to resolve the parent with them; refused rather than
		 * created without them.
		 */
		return -EOPNOTSUPP;
	}
	if (a.flags & (O_CREAT | __O_TMPFILE)) {
		if ((rc = agent_umask(r, &umask_)) < 0)
			return rc;
	}
	/* The worker now has the agent's umask: the kernel applies it. */
	mode_t mode = a.mode & 07777;
	if ((a.flags & O_TMPFILE) == O_TMPFILE)
		return open_tmpfile(r, &a, mode);
	if ((a.flags & O_CREAT) && !(a.flags & O_PATH))
		return open_create(r, &a, mode);
	return open_existing(r, &a, mode);
}
