/*
 * degraded.c - --degraded: where seccomp user notification is missing
 * (before Linux 5.9 ward cannot use it: no ADDFD), the filter returns
 * SECCOMP_RET_TRACE where it would notify, and the call reaches ward as a
 * PTRACE_EVENT_SECCOMP stop of the tracer (DESIGN.md 2).  Where another
 * listener holds the process (EBUSY: a container runtime's), its answers
 * outrank SECCOMP_RET_TRACE, and ward stops every call at its entry
 * instead (PTRACE_SYSCALL: S->degraded_entry).
 *
 * The tracer reads the stopped thread's registers and queues the call;
 * the notification workers take it as they would a notification (a
 * struct seccomp_notif made of the registers, notify.c) and serve it with
 * the same handlers, which read the agent's memory once and perform the
 * call in ward.  Their answer goes back to the tracer, which injects it:
 * the call is skipped (orig_rax -1) with rax the result or the error.
 * Nothing the agent can change is read after the decision.
 *
 * One answer cannot be injected so: an fd (there is no ADDFD).  For an
 * open, the agent's own kernel opens the object ward decided on and
 * opened: the call becomes openat2(AT_FDCWD, the real path of ward's fd,
 * RESOLVE_NO_SYMLINKS), its path and struct open_how copied by ward into
 * a page of the agent's that only ward writes (DEGRADED_REGION, mapped
 * read-only at the first call of each new address space (executable: a
 * fetch's calls are made from it), kept from the
 * agent below), and at the call's exit the tracer checks that the fd it
 * made is the object ward decided on (device and inode), or kills the
 * process: the fd is in its table by then.  An object without a name is
 * never reopened by /proc/PID/fd/N: the agent's own fd is duplicated.
 * Without openat2 the open is openat with O_NOFOLLOW, made while every
 * other thread of the process is stopped (a freeze, below).  What
 * remains is what degraded_limits says.
 *
 * The tracer's loop here waits for ptrace stops and for the workers'
 * answers alike (sigtimedwait on SIGCHLD), and makes every ptrace call,
 * as ptrace requires.
 */
#include "degraded.h"
#include "compat.h"
#include "filter.h"
#include "log.h"
#include "mem.h"
#include "notify.h"
#include "proc.h"
#include "procfs.h"
#include "session.h"
#include "shm.h"
#include "jline.h"
#include "ward.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/kcmp.h>
#include <linux/openat2.h>
#include <linux/audit.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <uthash.h>

#ifndef MAP_FIXED_NOREPLACE
#define MAP_FIXED_NOREPLACE 0x100000
#endif

const char *const degraded_limits[] = {
	"an open is performed by the agent's kernel on the real path ward decided on, without "
	"symlinks, and checked at its exit: where a name of that path changed in between (a "
	"rename the policy allowed), the process is killed, and until then another of its "
	"threads may use that fd, or move it to another number past the check",
	"a pipe or deleted file reopened through /proc/PID/fd/N is the agent's own fd "
	"duplicated: it shares that fd's offset and flags, and asking for more access than it "
	"has is refused",
	"every supervised call and every mprotect, munmap, mremap, madvise and fixed mmap stops "
	"the process for the tracer: slower than user notification",
	"more than 4096 live threads of the session that open files get EAGAIN",
	NULL,
};

const char *const degraded_limit_no_openat2 =
	"without openat2 (before Linux 5.6, or masked) ward walks each path itself a directory "
	"at a time, and the agent's kernel opens with openat and O_NOFOLLOW while every other "
	"thread of the process is stopped (slower where it has many): a directory on the way "
	"that became a symlink since ward's decision is followed, what it reached is opened (a "
	"FIFO's open waits for a writer), and the check at the open's exit kills the process "
	"before any of its threads runs again; O_TMPFILE is refused (EOPNOTSUPP); a bind mount "
	"of the same filesystem is not told from a directory (openat2's RESOLVE_NO_XDEV, in "
	"ward's walks of /proc)";

const char *const degraded_limit_no_getfd =
	"without pidfd_getfd (before Linux 5.6, or masked) the agent's kernel sends ward the "
	"agent's fds it needs (a socket, the fds of an SCM_RIGHTS message), by calls ward makes "
	"the thread make before its own: a signal that comes meanwhile is sent again by ward "
	"after them (what the kernel said of it, in its siginfo, is then ward's)";

/*
 * The tracer's wake-up: a worker has answered.  SIGCHLD, which it waits
 * for anyway: a standard signal is never refused for want of queue room
 * (RLIMIT_SIGPENDING, which the agent shares with ward), as a real-time one is.
 */
#define WAKE_SIG SIGCHLD

/* ---- the calls between the tracer and the workers ---- */

struct job {
	uint64_t id;
	pid_t tid;
	struct seccomp_data data;
	bool taken, answered, dead;
	int rc;
	int64_t val;
	uint64_t seq;	   /* the stop it was queued at (task.seq) */
	/* an fd: the agent's kernel opens path (openat2) and must reach dev/ino */
	bool open, tmpfile;
	int dup_fd;	   /* >= 0: no name; the agent's own fd is duplicated instead (reach) */
	int chmod_fd;	   /* ward's fd of a file it made, whose mode is set once the agent has it */
	mode_t chmod_mode; /* ...to this (req.degraded_chmod) */
	int fifo_hold;	   /* >= 0: ward holds the FIFO open until the agent's open of it is over */
	bool again;	   /* the call is made again (degraded_fifo_ready) */
	int fetch;	   /* >= 0: the agent's fd the tracer must fetch, then the call made again */
	uint64_t flags, mode, resolve;
	dev_t dev;
	ino_t ino;
	char *path;
	struct job *next; /* in the queue, or the answered list */
	UT_hash_handle hh;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t queued = PTHREAD_COND_INITIALIZER;
static struct job *jobs, *qhead, *qtail, *answered;
static uint64_t next_id = 1;
static pid_t tracer_tid;
static bool over;

/* Done with j: a file ward made gets its mode now (the agent's open of it is over). */
static void job_free(struct job *j)
{
	if (j->open && j->chmod_fd >= 0) {
		fchmod(j->chmod_fd, j->chmod_mode);
		close(j->chmod_fd);
	}
	if (j->open && j->fifo_hold >= 0)
		close(j->fifo_hold);
	free(j->path);
	free(j);
}

int degraded_take(struct seccomp_notif *n)
{
	pthread_mutex_lock(&lock);
	while (qhead == NULL && !over)
		pthread_cond_wait(&queued, &lock);
	if (qhead == NULL) {
		pthread_mutex_unlock(&lock);
		return -1;
	}
	struct job *j = qhead;
	qhead = j->next;
	if (qhead == NULL)
		qtail = NULL;
	j->next = NULL;
	j->taken = true;
	n->id = j->id;
	n->pid = (uint32_t)j->tid;
	n->flags = 0;
	n->data = j->data;
	pthread_mutex_unlock(&lock);
	return 0;
}

bool degraded_alive(uint64_t id)
{
	struct job *j;

	pthread_mutex_lock(&lock);
	HASH_FIND(hh, jobs, &id, sizeof(id), j);
	bool alive = j != NULL && !j->dead && !j->answered;
	pthread_mutex_unlock(&lock);
	return alive;
}

/* Hand j, answered, to the tracer (lock held). */
static void post(struct job *j)
{
	j->answered = true;
	j->next = answered;
	answered = j;
	syscall(SYS_tgkill, getpid(), tracer_tid, WAKE_SIG);
}

void degraded_answer(uint64_t id, int rc, int64_t val)
{
	struct job *j;

	pthread_mutex_lock(&lock);
	HASH_FIND(hh, jobs, &id, sizeof(id), j);
	if (j != NULL && !j->answered) {
		j->rc = rc;
		j->val = val;
		post(j);
	}
	pthread_mutex_unlock(&lock);
}

/*
 * FIFOs ward holds open for an open of them made again (without openat2:
 * degraded_fifo_ready), until that open takes the hold, its thread is
 * gone, or FIFO_HOLD_NS have passed (an open not made again after all:
 * the hold would keep the FIFO's readers from their end of file).
 */
struct fifo_hold {
	pid_t tid;
	dev_t dev;
	ino_t ino;
	int fd;
	uint64_t decided; /* what the open was decided as (its caller's key) */
	struct timespec since;
	struct fifo_hold *next;
};

#define FIFO_HOLD_NS (2 * 1000000000ll)

static struct fifo_hold *fifo_holds; /* (lock) */

void degraded_fifo_ready(uint64_t id, pid_t tid, dev_t dev, ino_t ino, int hold, uint64_t decided)
{
	struct fifo_hold *h = calloc(1, sizeof(*h));
	struct job *j;

	if (h == NULL) {
		close(hold);
		degraded_answer(id, -ENOMEM, 0);
		return;
	}
	*h = (struct fifo_hold){ tid, dev, ino, hold, decided, { 0, 0 }, NULL };
	clock_gettime(CLOCK_MONOTONIC, &h->since);
	pthread_mutex_lock(&lock);
	HASH_FIND(hh, jobs, &id, sizeof(id), j);
	if (j == NULL || j->answered || j->dead) {
		pthread_mutex_unlock(&lock);
		close(hold);
		free(h);
		return;
	}
	h->next = fifo_holds;
	fifo_holds = h;
	j->again = true;
	j->rc = 0;
	post(j);
	pthread_mutex_unlock(&lock);
}

/* The hold of tid's FIFO, taken: its fd (*decided its key when asked), or -1 (lock held). */
static int fifo_hold_find(pid_t tid, dev_t dev, ino_t ino, uint64_t *decided)
{
	for (struct fifo_hold **hp = &fifo_holds; *hp != NULL; hp = &(*hp)->next) {
		struct fifo_hold *h = *hp;
		if (h->tid != tid || h->dev != dev || h->ino != ino)
			continue;
		int fd = h->fd;
		if (decided != NULL)
			*decided = h->decided;
		*hp = h->next;
		free(h);
		return fd;
	}
	return -1;
}

int degraded_fifo_take(pid_t tid, dev_t dev, ino_t ino, uint64_t *decided)
{
	pthread_mutex_lock(&lock);
	int fd = fifo_hold_find(tid, dev, ino, decided);
	pthread_mutex_unlock(&lock);
	return fd;
}

/*
 * The agent's fds the tracer fetched (without pidfd_getfd: the fetch,
 * below), ward's copies, each checked again at every use: the same open
 * file as the thread's fd n now (kcmp), or fetched anew.  A fetch that
 * failed (err: the agent's sendmsg of it said why) answers the call made
 * again once.  At most FETCHED_MAX kept, the oldest let go first.
 */
struct fetched {
	pid_t tid;
	int n, fd, err;
	struct fetched *next;
};

#define FETCHED_MAX 1024 /* (an SCM_RIGHTS message carries up to 253) */

static struct fetched *fetched; /* (lock) newest first */

/* Keep what the tracer fetched (fd, or err) for tid's fd n (lock held). */
static void fetched_put(pid_t tid, int n, int fd, int err)
{
	struct fetched *f = calloc(1, sizeof(*f));
	unsigned count = 0;

	if (f == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	*f = (struct fetched){ tid, n, fd, err, fetched };
	fetched = f;
	for (struct fetched **fp = &fetched; *fp != NULL;) {
		struct fetched *o = *fp;
		bool old = o != f && o->tid == tid && o->n == n;
		if (old || ++count > FETCHED_MAX) {
			*fp = o->next;
			if (o->fd >= 0)
				close(o->fd);
			free(o);
		} else {
			fp = &o->next;
		}
	}
}

/* What was fetched for tid's fd n, taken out (lock held): NULL if nothing. */
static struct fetched *fetched_take(pid_t tid, int n)
{
	for (struct fetched **fp = &fetched; *fp != NULL; fp = &(*fp)->next) {
		struct fetched *f = *fp;
		if (f->tid == tid && f->n == n) {
			*fp = f->next;
			return f;
		}
	}
	return NULL;
}

/* Everything fetched for tid (0: any) let go (lock held). */
static void fetched_drop(pid_t tid)
{
	for (struct fetched **fp = &fetched; *fp != NULL;) {
		struct fetched *f = *fp;
		if (tid == 0 || f->tid == tid) {
			*fp = f->next;
			if (f->fd >= 0)
				close(f->fd);
			free(f);
		} else {
			fp = &f->next;
		}
	}
}

int degraded_fetched(struct req *r, int n)
{
	struct fdinfo fi;

	pthread_mutex_lock(&lock);
	struct fetched *f = fetched_take(r->tid, n);
	pthread_mutex_unlock(&lock);
	if (f != NULL && f->fd < 0) {
		int err = f->err;
		free(f);
		return -err; /* the fetch said why, once */
	}
	if (f != NULL) {
		int mine = fcntl(f->fd, F_DUPFD_CLOEXEC, 0);
		bool same = mine >= 0 && agent_same_file(r->tid, n, mine);
		pthread_mutex_lock(&lock);
		if (same)
			fetched_put(f->tid, f->n, f->fd, 0); /* kept until the call is over (serve) */
		else
			close(f->fd);
		pthread_mutex_unlock(&lock);
		free(f);
		if (same) {
			if (!req_valid(r)) {
				close(mine);
				return -ESRCH;
			}
			return mine;
		}
		if (mine >= 0)
			close(mine);
	}
	/* The kernel's own EBADF where the thread has no fd n, without a fetch. */
	if (n < 0 || agent_fdinfo(r->tid, n, &fi) < 0)
		return req_valid(r) ? -EBADF : -ESRCH;
	r->fetch_fd = n;
	return -E_FETCH;
}

void degraded_fetched_done(pid_t tid)
{
	pthread_mutex_lock(&lock);
	fetched_drop(tid);
	pthread_mutex_unlock(&lock);
}

void degraded_fetch(uint64_t id, int n)
{
	struct job *j;

	pthread_mutex_lock(&lock);
	HASH_FIND(hh, jobs, &id, sizeof(id), j);
	if (j != NULL && !j->answered) {
		j->fetch = n;
		j->rc = 0;
		post(j);
	}
	pthread_mutex_unlock(&lock);
}

/* Holds whose thread is gone (tid; 0: none), or that waited too long, let go. */
static void fifo_holds_expire(pid_t tid)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	pthread_mutex_lock(&lock);
	for (struct fifo_hold **hp = &fifo_holds; *hp != NULL;) {
		struct fifo_hold *h = *hp;
		long long age = (now.tv_sec - h->since.tv_sec) * 1000000000ll +
				(now.tv_nsec - h->since.tv_nsec);
		if (h->tid == tid || age > FIFO_HOLD_NS) {
			*hp = h->next;
			close(h->fd);
			free(h);
		} else {
			hp = &h->next;
		}
	}
	pthread_mutex_unlock(&lock);
}

/* The flags openat2 takes (it refuses others, where openat ignores them). */
#define OPEN_FLAGS                                                                          \
	(O_ACCMODE | O_CREAT | O_EXCL | O_NOCTTY | O_TRUNC | O_APPEND | O_NONBLOCK | O_DSYNC | \
	 O_ASYNC | O_DIRECT | O_LARGEFILE | O_DIRECTORY | O_NOFOLLOW | O_NOATIME | O_CLOEXEC |  \
	 O_PATH | __O_TMPFILE | O_SYNC)
#define PATH_FLAGS (O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/*
 * What the agent's kernel opens for r: the name, its flags and how it
 * resolves.  0, or -EACCES with the reason logged when the object has no
 * name to reach it by.
 */
static int reach(struct req *r, int fd, bool opened, struct job *j, char *path, size_t len)
{
	char link[64];
	struct stat st;
	ssize_t n;
	uint64_t flags = (uint64_t)(unsigned)r->open_flags & OPEN_FLAGS;

	j->dup_fd = -1;
	if (fstat(fd, &st) < 0)
		return -errno;
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	if ((n = readlink(link, path, len - 1)) <= 0)
		return -EACCES;
	path[n] = '\0';
	j->dev = st.st_dev;
	j->ino = st.st_ino;
	j->resolve = RESOLVE_NO_SYMLINKS;
	if ((flags & __O_TMPFILE) != __O_TMPFILE)
		flags &= ~(uint64_t)O_EXCL; /* (with O_TMPFILE it keeps the file from any name) */
	flags &= ~(uint64_t)O_CREAT;
	if (flags & O_PATH)
		flags &= PATH_FLAGS; /* O_PATH ignores the rest, O_TRUNC too (it was decided so) */
	if (!opened && (flags & O_TRUNC) && S_ISREG(st.st_mode)) {
		/*
		 * Truncated by ward, in the object it decided on (O_TRUNC is
		 * decided as a write): the agent's kernel would truncate what it
		 * reaches, before the check at its exit.
		 */
		int w = open(link, O_WRONLY | O_TRUNC | O_NOCTTY | O_CLOEXEC);
		if (w < 0)
			return -errno;
		close(w);
	}
	/* Never to the agent's kernel: done by ward, or nothing on what is not a regular file. */
	flags &= ~(uint64_t)O_TRUNC;
	/*
	 * What is not a terminal: no terminal reached instead (a name changed
	 * between) becomes the process's controlling one.  O_NOCTTY is not
	 * kept in the file's flags, so the agent sees no difference (O_PATH
	 * takes none: openat2 refuses it there).
	 */
	if (!(flags & O_PATH) && !isatty(fd))
		flags |= O_NOCTTY;
	/* Deleted: no link left, and the kernel's mark at the end of its name. */
	const char *del = " (deleted)";
	size_t dl = strlen(del);
	bool deleted = !S_ISDIR(st.st_mode) && st.st_nlink == 0 && (size_t)n > dl &&
		       strcmp(path + n - dl, del) == 0;
	if ((flags & __O_TMPFILE) == __O_TMPFILE && S_ISREG(st.st_mode) && deleted &&
	    strrchr(path, '/') != NULL) {
		/*
		 * Without openat2 the agent's kernel would follow a directory on
		 * the way that became a symlink since, and make the file in
		 * another directory of the same filesystem, which nothing at the
		 * exit can tell: refused as by a filesystem without O_TMPFILE
		 * (callers fall back to a named file, which is decided).
		 */
		if (compat_openat2_off)
			return -EOPNOTSUPP;
		path[n - dl] = '\0';
		/* An O_TMPFILE: the agent's kernel makes its own, in the same directory. */
		*strrchr(path, '/') = '\0';
		if (path[0] == '\0')
			strcpy(path, "/");
		j->tmpfile = true;
		j->flags = flags;
		j->mode = (uint64_t)(r->open_mode & 07777);
		return 0;
	}
	flags &= ~(uint64_t)__O_TMPFILE;
	if (path[0] != '/' || deleted) {
		/*
		 * No name of its own (a pipe, a socket, a deleted file), reached
		 * through the agent's own fd (anon_check said so).  Reopened by
		 * /proc/TID/fd/N, the agent could put another object at N in the
		 * meantime; duplicated, fd N gives only what the agent holds
		 * already, with the access that fd has: so it is, when that
		 * access covers what was asked.
		 */
		pid_t tgid = 0, ppid;
		struct fdinfo fi;
		if (r->hop_fd < 0 || !proc_info(r->hop_tid, &tgid, &ppid, NULL, 0) ||
		    tgid != r->tgid)
			return refuse(r, EACCES, "--degraded: the object has no name the agent's "
						 "kernel could open it by");
		if (agent_fdinfo(r->hop_tid, r->hop_fd, &fi) < 0)
			return -EBADF;
		if (S_ISSOCK(st.st_mode))
			return -ENXIO; /* the kernel's own answer to opening a socket */
		int have = (int)(fi.flags & O_ACCMODE), want = (int)(flags & O_ACCMODE);
		if ((fi.flags & O_PATH) && !(flags & O_PATH))
			return refuse(r, EACCES, "--degraded: an object without a name is reopened as "
						 "a duplicate of its fd, which is O_PATH and reads nothing");
		if (!(flags & O_PATH) && want != have && have != O_RDWR)
			return refuse(r, EACCES, "--degraded: an object without a name is reopened "
						 "only with the access its fd has");
		j->dup_fd = r->hop_fd;
		j->flags = flags & O_CLOEXEC;
		return 0;
	}
	j->flags = flags;
	j->mode = 0;
	return 0;
}

/* The request's hold of a FIFO, not given to a job: let go. */
static void fifo_let_go(struct req *r)
{
	if (r->degraded_fifo >= 0)
		close(r->degraded_fifo);
	r->degraded_fifo = -1;
}

int degraded_answer_fd(struct req *r, int fd, bool opened)
{
	static __thread char path[PATH_MAX];
	struct job *j;
	struct job tmp = { 0 };
	int rc = reach(r, fd, opened, &tmp, path, sizeof(path));
	/* A file ward made with more owner bits than asked: fd keeps it until its mode is set. */
	bool keep = rc == 0 && opened && r->degraded_chmod >= 0;

	if (!keep)
		close(fd);
	if (rc == 0 && req_commit(r, true) < 0)
		rc = -EACCES;
	char *copy = rc == 0 ? strdup(path) : NULL;
	if (rc == 0 && copy == NULL)
		rc = -ENOMEM;
	if (rc < 0) {
		if (keep) {
			fchmod(fd, (mode_t)r->degraded_chmod);
			close(fd);
		}
		fifo_let_go(r);
		return rc;
	}
	pthread_mutex_lock(&lock);
	HASH_FIND(hh, jobs, &r->n->id, sizeof(r->n->id), j);
	if (j == NULL || j->answered) {
		pthread_mutex_unlock(&lock);
		free(copy);
		if (keep) {
			fchmod(fd, (mode_t)r->degraded_chmod);
			close(fd);
		}
		fifo_let_go(r);
		r->replied = true;
		return 1;
	}
	j->open = true;
	j->fifo_hold = r->degraded_fifo; /* (closed with the job, after the agent's open) */
	r->degraded_fifo = -1;
	j->dup_fd = tmp.dup_fd;
	j->chmod_fd = keep ? fd : -1;
	j->chmod_mode = keep ? (mode_t)r->degraded_chmod : 0;
	j->tmpfile = tmp.tmpfile;
	j->flags = tmp.flags;
	j->mode = tmp.mode;
	j->resolve = tmp.resolve;
	j->dev = tmp.dev;
	j->ino = tmp.ino;
	j->path = copy;
	j->rc = 1;
	post(j);
	pthread_mutex_unlock(&lock);
	r->replied = true;
	return 1;
}

/* ---- the tracer's: address spaces and threads ---- */

struct mm {
	int refs;
	bool mapped;
	int mem;     /* /proc/TID/mem of a task in it, opened at the first write (-1: not yet) */
	pid_t mem_tid; /* ...that task's id */
};

/*
 * The slots of the page, the session's: a thread holds one while it lives.
 * Session-wide, so that no two threads share a slot even where ward took
 * two processes for two address spaces that are one (or one for two).
 */
static uint8_t slot_used[DEGRADED_THREADS];

enum phase {
	P_NONE,
	P_QUEUED, /* its call is with the workers */
	P_MMAP,	  /* mapping the page; the call is made again after */
	P_OPEN,	  /* the agent's kernel opens; checked at its exit */
	P_FROZEN, /* its open waits for the group's other threads to stop (no openat2) */
	P_FETCH,  /* ward fetches one of its fds (no pidfd_getfd); the call is made again after */
};

/* The calls of a fetch, one after another (fetch_stop). */
enum fetch_step { F_SOCKET, F_SENDMSG, F_CLOSE };

#define FETCH_HELD 64 /* signals a thread can have held back during a fetch (more real-time ones: lost) */

struct task {
	pid_t tid;
	struct mm *mm;
	int slot; /* -1: none yet */
	unsigned ring;
	enum phase phase;
	uint64_t seq; /* its stops that were queued: an answer is for the last one only */
	struct user_regs_struct saved;
	struct job *job; /* P_OPEN: what it must have opened */
	int restart_nr;	 /* answered a restart code: the call's number, for its signal stop */
	/* P_FETCH: its fd fetch_n, by a socket of its own (fetch_sock), the message at fetch_at */
	enum fetch_step fetch_step;
	int fetch_n, fetch_sock, fetch_err;
	uint64_t fetch_at;
	int nheld;			   /* signals held back meanwhile, delivered after */
	siginfo_t held[FETCH_HELD];
	UT_hash_handle hh;
};

static struct task *tasks;

static void (*stop_fn)(pid_t, int); /* the tracer's: a stop, told on (degraded_trace) */

/* A thread group held still while one of its threads opens (no openat2: below). */
static void freeze_gone(pid_t tid);
static void freeze_exec(pid_t pid);

static struct mm *mm_new(bool mapped)
{
	struct mm *m = calloc(1, sizeof(*m));

	if (m != NULL) {
		m->refs = 1;
		m->mapped = mapped;
		m->mem = -1;
	}
	return m;
}

static void mm_put(struct mm *m)
{
	if (m != NULL && --m->refs == 0) {
		if (m->mem >= 0)
			close(m->mem);
		free(m);
	}
}

/* The page is in tid's address space already (a fork's copy of its parent's). */
static bool region_in_maps(pid_t tid)
{
	char path[64], line[512], want[64];
	bool found = false;

	snprintf(path, sizeof(path), "/proc/%d/maps", tid);
	snprintf(want, sizeof(want), "%llx-%llx r-xp ", (unsigned long long)DEGRADED_REGION,
		 (unsigned long long)(DEGRADED_REGION + DEGRADED_SIZE));
	FILE *f = fopen(path, "re");
	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f) != NULL)
		found = strncmp(line, want, strlen(want)) == 0;
	fclose(f);
	return found;
}

static struct task *task_find(pid_t tid)
{
	struct task *t;

	HASH_FIND_INT(tasks, &tid, t);
	return t;
}

/*
 * tid's task, made at its first stop: a thread shares its leader's
 * address space; a process shares its parent's when kcmp says so (vfork,
 * posix_spawn), else has its own, a fork's copy (the page is in it when
 * it was in the parent's) or an exec's.
 */
static struct task *task_get(pid_t tid)
{
	struct task *t = task_find(tid);
	pid_t tgid = tid, ppid = 0;

	if (t != NULL && t->mm != NULL)
		return t;
	if (t == NULL) {
		if ((t = calloc(1, sizeof(*t))) == NULL)
			return NULL;
		t->tid = tid;
		t->slot = -1;
		HASH_ADD_INT(tasks, tid, t);
	}
	if (!proc_info(tid, &tgid, &ppid, NULL, 0))
		proc_status_ids(tid, &tgid, &ppid);
	struct task *o = NULL;
	if (tgid != tid)
		o = task_get(tgid);
	else if (ppid > 0 && syscall(SYS_kcmp, tid, ppid, KCMP_VM, 0, 0) == 0)
		o = task_get(ppid);
	if (o != NULL && o->mm != NULL) {
		t->mm = o->mm;
		t->mm->refs++;
	} else {
		t->mm = mm_new(region_in_maps(tid));
	}
	return t->mm != NULL ? t : NULL;
}

static void slot_put(struct task *t)
{
	if (t->slot >= 0)
		slot_used[t->slot] = 0;
	t->slot = -1;
}

/* Every call of tid's still with the workers: its answer is for no one (lock held). */
static void jobs_dead(pid_t tid)
{
	struct job *j, *tmp;

	HASH_ITER(hh, jobs, j, tmp) {
		if (j->tid == tid)
			j->dead = true;
	}
}

void degraded_gone(pid_t tid)
{
	struct task *t = task_find(tid);

	freeze_gone(tid);
	if (fifo_holds != NULL)
		fifo_holds_expire(tid);
	pthread_mutex_lock(&lock);
	fetched_drop(tid);
	jobs_dead(tid);
	pthread_mutex_unlock(&lock);
	if (t == NULL)
		return;
	slot_put(t);
	mm_put(t->mm);
	if (t->job != NULL)
		job_free(t->job);
	HASH_DEL(tasks, t);
	free(t);
}

void degraded_exec(pid_t former, pid_t pid)
{
	if (former != pid)
		degraded_gone(former);
	freeze_exec(pid);
	/*
	 * The leader, killed by a thread's exec, may have had a call with the
	 * workers: its answer must not reach the new image's calls.
	 */
	pthread_mutex_lock(&lock);
	jobs_dead(pid);
	pthread_mutex_unlock(&lock);
	struct task *t = task_find(pid);
	if (t == NULL)
		return;
	if (t->job != NULL)
		job_free(t->job);
	t->job = NULL;
	t->phase = P_NONE;
	t->restart_nr = -1;
	t->seq++;
	slot_put(t);
	mm_put(t->mm);
	t->mm = mm_new(false); /* the new image: no page until its first call */
	t->ring = 0;
}

void degraded_clone(pid_t parent, pid_t child, unsigned long flags)
{
	struct task *p = task_find(parent), *c;

	if (p == NULL || p->mm == NULL || (c = task_find(child)) != NULL)
		return;
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return;
	c->tid = child;
	c->slot = -1;
	if (flags & CLONE_VM) {
		c->mm = p->mm;
		p->mm->refs++;
	} else {
		c->mm = mm_new(p->mm->mapped); /* a copy: with the page if the parent had it */
	}
	if (c->mm == NULL) {
		free(c);
		return;
	}
	HASH_ADD_INT(tasks, tid, c);
}

/* ---- the tracer's: answering a stop ---- */

static void resume(pid_t tid, enum __ptrace_request how)
{
	/* At entry stops every resume stops again at the next call. */
	if (how == PTRACE_CONT && S->degraded_entry)
		how = PTRACE_SYSCALL;
	ptrace(how, tid, 0, 0);
}

/* Skip the call tid is stopped in: it returns rv. */
static void skip(pid_t tid, struct user_regs_struct *regs, int64_t rv)
{
	regs->orig_rax = (unsigned long long)-1;
	regs->rax = (unsigned long long)rv;
	if (ptrace(PTRACE_SETREGS, tid, 0, regs) < 0)
		return; /* gone */
	resume(tid, PTRACE_CONT);
}

static bool is_restart(int rc)
{
	return rc <= -ERESTARTSYS && rc >= -516; /* ERESTARTSYS .. ERESTART_RESTARTBLOCK */
}

/*
 * A fatal error of the page: the process cannot be served safely, and is
 * killed (logged).
 */
static void kill_for(pid_t tid, const char *why)
{
	pid_t tgid = tid, ppid;

	if (!proc_info(tid, &tgid, &ppid, NULL, 0))
		tgid = tid;
	struct jline *l = log_begin(EV_ACCESS, tid);
	jl_str(l, "decision", "kill");
	jl_str(l, "reason", why);
	log_finish(l);
	kill(tgid, SIGKILL);
}

/* Map the page in t's address space (it is at a seccomp stop): its call is made again after. */
static void map_region(struct task *t, struct user_regs_struct *regs)
{
	struct user_regs_struct r = *regs;

	t->saved = *regs;
	r.orig_rax = SYS_mmap;
	r.rdi = DEGRADED_REGION;
	r.rsi = DEGRADED_SIZE;
	r.rdx = PROT_READ | PROT_EXEC; /* (executable: a fetch's calls are made from it) */
	r.r10 = MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE;
	r.r8 = (unsigned long long)-1;
	r.r9 = 0;
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) < 0)
		return;
	t->phase = P_MMAP;
	resume(t->tid, PTRACE_SYSCALL);
}

static bool overlaps(uint64_t addr, uint64_t len)
{
	uint64_t end = addr + len;

	if (end < addr)
		return true; /* wraps: the kernel refuses it anyway */
	return addr < DEGRADED_REGION + DEGRADED_SIZE && end > DEGRADED_REGION;
}

static uint64_t page_up(uint64_t len)
{
	return (len + 4095) & ~4095ull;
}

/* A call that would unmap, move, reprotect or replace the page: its error (0: none). */
static int touches_region(const struct user_regs_struct *g)
{
	uint64_t a0 = g->rdi, a1 = g->rsi, a2 = g->rdx, a3 = g->r10, a4 = g->r8;

	switch ((long)g->orig_rax) {
	case SYS_mmap:
		return (a3 & MAP_FIXED) && overlaps(a0, page_up(a1)) ? -EPERM : 0;
	case SYS_munmap:
	case SYS_mprotect:
	case SYS_pkey_mprotect:
	case SYS_madvise:
		return overlaps(a0, page_up(a1)) ? -EPERM : 0;
	case SYS_mremap:
		if (overlaps(a0, page_up(a1)))
			return -EPERM;
		return (a3 & MREMAP_FIXED) && overlaps(a4, page_up(a2)) ? -EPERM : 0;
	case SYS_process_madvise:
		/* An iovec in memory: only the advice that leaves contents as they are (a3). */
		return a3 == MADV_WILLNEED || a3 == MADV_COLD || a3 == MADV_PAGEOUT || a3 == 25 /* COLLAPSE */
			       ? 0 : -EPERM;
	case SYS_shmat: {
		if (!(a2 & SHM_REMAP))
			return 0;
		struct shmid_ds ds;
		if (shmctl((int)a0, IPC_STAT, &ds) < 0)
			return -EINVAL; /* the kernel's own error for a bad id */
		return overlaps(a1 & ~4095ull, page_up(ds.shm_segsz + (a1 & 4095))) ? -EPERM : 0;
	}
	default:
		return 0;
	}
}

/* Calls the filter stops only to keep the page (no row of the table). */
static bool guard_only(long nr)
{
	return nr == SYS_mmap || nr == SYS_munmap || nr == SYS_mprotect || nr == SYS_pkey_mprotect ||
	       nr == SYS_madvise || nr == SYS_mremap || nr == SYS_process_madvise;
}

/*
 * tid is stopped at a call's entry with regs (a SECCOMP_RET_TRACE stop, or
 * an entry stop): decided at once (the page), left to the kernel, or
 * queued to the workers.
 */
static void at_entry(pid_t tid, struct user_regs_struct regs)
{
	struct task *t = task_get(tid);
	int rc;

	if (t == NULL) {
		skip(tid, &regs, -ENOMEM);
		return;
	}
	if (t->phase != P_NONE) {
		/* A call's entry while ward's own call or an answer was pending: not ward's doing. */
		t->phase = P_NONE;
		kill_for(tid, "--degraded: the process left the call ward made for it");
		return;
	}
	t->restart_nr = -1;
	if (!t->mm->mapped) {
		map_region(t, &regs);
		return;
	}
	if ((rc = touches_region(&regs)) != 0) {
		if (rc == -EPERM) {
			struct jline *l = log_begin(EV_ACCESS, tid);
			jl_str(l, "decision", "deny");
			jl_str(l, "reason", "--degraded: the call would change ward's page in the process");
			log_finish(l);
		}
		skip(tid, &regs, rc);
		return;
	}
	uint64_t args[6] = { regs.rdi, regs.rsi, regs.rdx, regs.r10, regs.r8, regs.r9 };
	if (guard_only((long)regs.orig_rax) ||
	    (S->degraded_entry && !filter_notifies((int)regs.orig_rax, args))) {
		/*
		 * CONTINUE, decided on registers alone: a memory-map call whose
		 * range (rdi, rsi, and mremap's new one) touches_region found
		 * clear of the page, or, at entry stops, a call the filter would
		 * not hand ward (filter_notifies reads the same registers the BPF
		 * does).  Nothing of the agent's memory was read.
		 */
		resume(tid, PTRACE_CONT);
		return;
	}
	struct job *j = calloc(1, sizeof(*j));
	if (j == NULL) {
		skip(tid, &regs, -ENOMEM);
		return;
	}
	j->tid = tid;
	j->dup_fd = -1;
	j->fifo_hold = -1;
	j->fetch = -1;
	j->seq = ++t->seq;
	j->data.nr = (int)regs.orig_rax;
	j->data.arch = AUDIT_ARCH_X86_64;
	j->data.instruction_pointer = regs.rip;
	memcpy(j->data.args, args, sizeof(args));
	t->saved = regs;
	t->phase = P_QUEUED;
	pthread_mutex_lock(&lock);
	j->id = next_id++;
	HASH_ADD(hh, jobs, id, sizeof(j->id), j);
	if (qtail != NULL)
		qtail->next = j;
	else
		qhead = j;
	qtail = j;
	pthread_cond_signal(&queued);
	pthread_mutex_unlock(&lock);
}

void degraded_seccomp_stop(pid_t tid)
{
	struct user_regs_struct regs;

	if (S->degraded_entry) {
		/*
		 * CONTINUE with nothing to decide here: at entry stops the call
		 * was decided at its entry stop, on the registers it still has
		 * (a rewrite's own call is this one); this stop reads nothing.
		 */
		resume(tid, PTRACE_SYSCALL);
		return;
	}
	if (ptrace(PTRACE_GETREGS, tid, 0, &regs) == 0)
		at_entry(tid, regs); /* (which kills a process stopped so mid-way through ward's call) */
}

/*
 * Copy len bytes to the agent's page at addr (read-only to it:
 * /proc/PID/mem writes it).  The fd is the address space's, kept with it:
 * it reaches that space whichever of its tasks opened it, and an exec
 * (a new space, a new struct mm here) never sees it.
 */
static int poke(struct task *t, uint64_t addr, const void *buf, size_t len)
{
	char path[64];

	/* Kept only while its task is in the same address space as t (kcmp says). */
	if (t->mm->mem >= 0 && t->mm->mem_tid != t->tid &&
	    syscall(SYS_kcmp, t->mm->mem_tid, t->tid, KCMP_VM, 0, 0) != 0) {
		close(t->mm->mem);
		t->mm->mem = -1;
	}
	if (t->mm->mem < 0) {
		snprintf(path, sizeof(path), "/proc/%d/mem", t->tid);
		if ((t->mm->mem = open(path, O_WRONLY | O_CLOEXEC)) < 0)
			return -errno;
		t->mm->mem_tid = t->tid;
	}
	ssize_t n = pwrite(t->mm->mem, buf, len, (off_t)addr);
	return n == (ssize_t)len ? 0 : n < 0 ? -errno : -EIO;
}

/* The next slot of t's in the page, its own while it lives: the address, or 0 (none free). */
static uint64_t slot_at(struct task *t)
{
	if (t->slot < 0) {
		for (unsigned i = 0; i < DEGRADED_THREADS && t->slot < 0; i++) {
			if (!slot_used[i]) {
				slot_used[i] = 1;
				t->slot = (int)i;
			}
		}
	}
	if (t->slot < 0)
		return 0;
	return DEGRADED_REGION +
	       ((uint64_t)t->slot * DEGRADED_RING + t->ring++ % DEGRADED_RING) * DEGRADED_SLOT;
}

/* t's call becomes openat2 (or openat) of what j says, from t's slot of the page. */
static void open_by_page(struct task *t, struct job *j)
{
	struct user_regs_struct r = t->saved;
	struct open_how how = { .flags = j->flags, .mode = j->mode, .resolve = j->resolve };
	size_t plen = strlen(j->path) + 1;

	uint64_t at = slot_at(t);
	if (at == 0 || plen > DEGRADED_SLOT - 64) {
		job_free(j);
		t->phase = P_NONE;
		skip(t->tid, &r, at == 0 ? -EAGAIN : -ENAMETOOLONG);
		return;
	}
	/* One write: the struct open_how, then the path 64 bytes in. */
	static char buf[DEGRADED_SLOT];
	memset(buf, 0, 64);
	memcpy(buf, &how, sizeof(how));
	memcpy(buf + 64, j->path, plen);
	if (poke(t, at, buf, 64 + plen) < 0) {
		job_free(j);
		t->phase = P_NONE;
		skip(t->tid, &r, -EACCES); /* fail closed */
		return;
	}
	r.rdi = (unsigned long long)AT_FDCWD;
	r.rsi = at + 64;
	if (compat_openat2_off) {
		/*
		 * No openat2: openat with O_NOFOLLOW, the directories on the way
		 * followed if one became a symlink since, and the exit's check
		 * of the object opened (kill where it is not ward's) catches that.
		 */
		r.orig_rax = SYS_openat;
		r.rdx = how.flags | O_NOFOLLOW;
		r.r10 = how.mode;
	} else {
		r.orig_rax = SYS_openat2;
		r.rdx = at;
		r.r10 = sizeof(how);
	}
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) < 0) {
		job_free(j);
		return;
	}
	t->job = j;
	t->phase = P_OPEN;
	resume(t->tid, PTRACE_SYSCALL);
}

/* ---- the tracer's: fetching one of the agent's fds (no pidfd_getfd) ---- */

static pid_t tgid_of(pid_t tid);
static void syscall_stop_kind(pid_t tid, const struct user_regs_struct *r,
			      struct __ptrace_syscall_info *info);

/*
 * Before Linux 5.6 ward cannot take an fd of the agent's with
 * pidfd_getfd (its sockets, which ward connects, binds and sends on; the
 * fds an SCM_RIGHTS message carries; a pidfd, an inotify instance).  The
 * agent's own kernel sends it instead: at the stop of the call that
 * needs it, the thread's call becomes socket(AF_UNIX, SOCK_DGRAM), then
 * sendmsg of fd n with SCM_RIGHTS to ward's socket (the message, the
 * address and the fd's number in the thread's slot of the page, which
 * the agent cannot change), then close of that socket; then the call is
 * made again, and decided afresh: the handler finds ward's copy, checked
 * to be the same open file as the thread's fd n (kcmp), or fetches anew;
 * the copies go when the call is over.  The calls after the first are
 * made from a syscall instruction in the page, never from the agent's
 * code (which another thread could rewrite), and each is checked at its
 * stops, number and arguments.  Signals that come meanwhile are held
 * back and sent again after (one the kernel sent is sent by ward then:
 * its siginfo says so).
 */
static int fetch_fd = -1; /* ward's socket */
static struct sockaddr_un fetch_addr;
static socklen_t fetch_addrlen;

/* The slot's layout: the msghdr, its iovec, a byte, the SCM_RIGHTS control, ward's address. */
#define FETCH_IOV 64
#define FETCH_BYTE 80
#define FETCH_CMSG 96
#define FETCH_ADDR 128
#define FETCH_SYSCALL 256 /* a syscall instruction: ward's calls are made from here */

#define FETCH_NAME "ward-fetch-%d" /* ward's pid */

bool degraded_fetch_named(const char *name, size_t len)
{
	char own[32];
	int n = snprintf(own, sizeof(own), FETCH_NAME, getpid());

	return len == (size_t)n && memcmp(name, own, len) == 0;
}

static int fetch_socket(void)
{
	int one = 1;

	if (fetch_fd >= 0)
		return 0;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	memset(&fetch_addr, 0, sizeof(fetch_addr));
	fetch_addr.sun_family = AF_UNIX;
	/*
	 * Abstract: nothing in the filesystem.  The agent may find the name,
	 * but never reach it (degraded_fetch_named); a process outside the
	 * session may send there: what comes is kept only from the process
	 * asked, and as the very open file of the fd asked for (kcmp).
	 */
	int len = snprintf(fetch_addr.sun_path + 1, sizeof(fetch_addr.sun_path) - 1,
			   FETCH_NAME, getpid());
	fetch_addrlen = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + (size_t)len);
	if (bind(fd, (struct sockaddr *)&fetch_addr, fetch_addrlen) < 0 ||
	    setsockopt(fd, SOL_SOCKET, SO_PASSCRED, &one, sizeof(one)) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	fetch_fd = fd;
	return 0;
}

/*
 * What came to ward's socket: the fd t's process sent for its fd n, when
 * it is that open file, is kept (fetched_put); anything else is dropped
 * (another process may send to the name too).  True when it was found.
 */
static bool fetch_receive(struct task *t, pid_t tgid)
{
	char byte, control[CMSG_SPACE(sizeof(struct ucred)) + CMSG_SPACE(sizeof(int) * 16)];
	bool found = false;

	for (;;) {
		struct iovec iov = { &byte, 1 };
		struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control,
				    .msg_controllen = sizeof(control) };
		if (recvmsg(fetch_fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC) < 0)
			break;
		pid_t from = 0;
		int got = -1;
		for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
			if (c->cmsg_level != SOL_SOCKET)
				continue;
			if (c->cmsg_type == SCM_CREDENTIALS) {
				struct ucred u;
				memcpy(&u, CMSG_DATA(c), sizeof(u));
				from = u.pid;
			} else if (c->cmsg_type == SCM_RIGHTS) {
				size_t k = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
				for (size_t i = 0; i < k; i++) {
					int fd;
					memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
					if (got < 0 && k == 1)
						got = fd;
					else
						close(fd);
				}
			}
		}
		if (got < 0)
			continue;
		/* Whose it is: this thread's, or another's whose sendmsg came first. */
		struct task *o, *tmp, *whose = NULL;
		if (from == tgid && agent_same_file(t->tid, t->fetch_n, got)) {
			whose = t;
		} else {
			HASH_ITER(hh, tasks, o, tmp) {
				if (o != t && o->phase == P_FETCH && o->fetch_step == F_SENDMSG &&
				    tgid_of(o->tid) == from && agent_same_file(o->tid, o->fetch_n, got)) {
					whose = o;
					break;
				}
			}
		}
		if (whose == NULL || (whose == t && found)) {
			close(got);
			continue;
		}
		pthread_mutex_lock(&lock);
		fetched_put(whose->tid, whose->fetch_n, got, 0);
		pthread_mutex_unlock(&lock);
		found |= whose == t;
	}
	return found;
}

/* The fetch is over (err: what answers the call made again, 0 none): the call is made again. */
static void fetch_end(struct task *t, int err)
{
	struct user_regs_struct r = t->saved;
	pid_t tgid = tgid_of(t->tid);

	if (err != 0) {
		pthread_mutex_lock(&lock);
		fetched_put(t->tid, t->fetch_n, -1, err);
		pthread_mutex_unlock(&lock);
	}
	t->phase = P_NONE;
	/* The signals held back, pending again: delivered before the call is made. */
	for (int i = 0; i < t->nheld; i++) {
		siginfo_t *si = &t->held[i];
		if (si->si_code < 0 && si->si_code != SI_TKILL)
			syscall(SYS_rt_tgsigqueueinfo, tgid, t->tid, si->si_signo, si);
		else
			syscall(SYS_tgkill, tgid, t->tid, si->si_signo);
	}
	t->nheld = 0;
	r.rip -= 2; /* the syscall instruction, with its number: made again */
	r.rax = t->saved.orig_rax;
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) == 0)
		resume(t->tid, PTRACE_CONT);
}

/*
 * t's thread makes the next call of the fetch (at a stop after the last
 * one's exit), from the syscall instruction in its slot of the page: it
 * runs none of the agent's code between ward's calls (its own code could
 * be changed by another thread to make a call of its own there).
 */
static void fetch_next(struct task *t, enum fetch_step step)
{
	struct user_regs_struct r = t->saved;

	r.rip = t->fetch_at + FETCH_SYSCALL;
	if (step == F_SENDMSG) {
		r.rax = SYS_sendmsg;
		r.rdi = (unsigned long long)t->fetch_sock;
		r.rsi = t->fetch_at;
		r.rdx = MSG_DONTWAIT | MSG_NOSIGNAL;
	} else {
		r.rax = SYS_close;
		r.rdi = (unsigned long long)t->fetch_sock;
	}
	t->fetch_step = step;
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) == 0)
		ptrace(PTRACE_SYSCALL, t->tid, 0, 0);
}

/* t (stopped at its call's entry) fetches its fd n: the call becomes the first of the fetch. */
static void fetch_start(struct task *t, int n)
{
	struct user_regs_struct r = t->saved;
	uint64_t at = slot_at(t);
	static char buf[FETCH_SYSCALL + 2];

	if (at == 0 || fetch_socket() < 0) {
		struct jline *l = log_begin(EV_ACCESS, t->tid);
		jl_str(l, "decision", "deny");
		jl_str(l, "reason", "--degraded without pidfd_getfd: ward could not fetch the agent's fd");
		log_finish(l);
		skip(t->tid, &r, at == 0 ? -EAGAIN : -EACCES); /* fail closed */
		return;
	}
	memset(buf, 0, sizeof(buf));
	struct msghdr m = { .msg_name = (void *)(uintptr_t)(at + FETCH_ADDR),
			    .msg_namelen = fetch_addrlen,
			    .msg_iov = (void *)(uintptr_t)(at + FETCH_IOV), .msg_iovlen = 1,
			    .msg_control = (void *)(uintptr_t)(at + FETCH_CMSG),
			    .msg_controllen = CMSG_SPACE(sizeof(int)) };
	struct iovec iov = { (void *)(uintptr_t)(at + FETCH_BYTE), 1 };
	struct cmsghdr c = { .cmsg_len = CMSG_LEN(sizeof(int)), .cmsg_level = SOL_SOCKET,
			     .cmsg_type = SCM_RIGHTS };
	memcpy(buf, &m, sizeof(m));
	memcpy(buf + FETCH_IOV, &iov, sizeof(iov));
	buf[FETCH_BYTE] = 'f';
	memcpy(buf + FETCH_CMSG, &c, sizeof(c));
	memcpy(buf + FETCH_CMSG + CMSG_LEN(0), &n, sizeof(n));
	memcpy(buf + FETCH_ADDR, &fetch_addr, fetch_addrlen);
	buf[FETCH_SYSCALL] = 0x0f; /* syscall */
	buf[FETCH_SYSCALL + 1] = 0x05;
	if (poke(t, at, buf, sizeof(buf)) < 0) {
		skip(t->tid, &r, -EACCES); /* fail closed */
		return;
	}
	r.orig_rax = SYS_socket;
	r.rdi = AF_UNIX;
	r.rsi = SOCK_DGRAM | SOCK_CLOEXEC;
	r.rdx = 0;
	if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) < 0)
		return;
	t->phase = P_FETCH;
	t->fetch_step = F_SOCKET;
	t->fetch_n = n;
	t->fetch_at = at;
	t->fetch_sock = -1;
	t->fetch_err = 0;
	t->nheld = 0;
	ptrace(PTRACE_SYSCALL, t->tid, 0, 0);
}

/*
 * A stop of t's during its fetch (st: waitpid's).  Only ward's calls run:
 * each one's entry (a syscall stop, the filter's stop) goes on, each
 * one's exit leads to the next; a signal is held back; anything else
 * means the process left what ward made it do, and it is killed.
 */
static void fetch_stop(struct task *t, int st)
{
	int event = st >> 16, sig = WSTOPSIG(st);
	struct user_regs_struct r;
	static const long nr_of[] = { [F_SOCKET] = SYS_socket, [F_SENDMSG] = SYS_sendmsg,
				      [F_CLOSE] = SYS_close };

	if (event == PTRACE_EVENT_STOP) {
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
			ptrace(PTRACE_LISTEN, t->tid, 0, 0); /* a group-stop: goes on after it */
		else
			ptrace(PTRACE_SYSCALL, t->tid, 0, 0); /* an interrupt (a freeze's) */
		return;
	}
	if (event == 0 && sig != (SIGTRAP | 0x80)) {
		/*
		 * A signal on its way: held back until the fetch is over.  A
		 * standard one already held is one signal, natively too: only
		 * real-time ones queue.
		 */
		siginfo_t si;
		bool already = false;
		for (int i = 0; i < t->nheld && sig < 32; i++)
			already = already || t->held[i].si_signo == sig;
		if (!already && t->nheld < FETCH_HELD && ptrace(PTRACE_GETSIGINFO, t->tid, 0, &si) == 0)
			t->held[t->nheld++] = si;
		ptrace(PTRACE_SYSCALL, t->tid, 0, 0);
		return;
	}
	if (event != 0 && event != PTRACE_EVENT_SECCOMP) {
		/* Another thread's exec (the process is gone), anything not of the fetch's: as ever. */
		t->phase = P_NONE;
		t->nheld = 0;
		stop_fn(t->tid, st);
		return;
	}
	if (ptrace(PTRACE_GETREGS, t->tid, 0, &r) < 0)
		return; /* gone */
	/*
	 * Ward's own call: its number and every argument ward set, made from
	 * the page (the first one replaced the agent's call at its stop).
	 */
	bool ours = (long)r.orig_rax == nr_of[t->fetch_step];
	if (ours && t->fetch_step == F_SOCKET)
		ours = r.rip == t->saved.rip && r.rdi == AF_UNIX &&
		       r.rsi == (SOCK_DGRAM | SOCK_CLOEXEC) && r.rdx == 0;
	else if (ours)
		ours = r.rip == t->fetch_at + FETCH_SYSCALL + 2 &&
		       r.rdi == (unsigned long long)t->fetch_sock &&
		       (t->fetch_step == F_CLOSE ||
			(r.rsi == t->fetch_at && r.rdx == (MSG_DONTWAIT | MSG_NOSIGNAL)));
	if (event == PTRACE_EVENT_SECCOMP && ours) {
		ptrace(PTRACE_SYSCALL, t->tid, 0, 0); /* the filter's stop of ward's own call */
		return;
	}
	struct __ptrace_syscall_info info;
	if (event == 0 && ours) {
		syscall_stop_kind(t->tid, &r, &info);
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY) {
			ptrace(PTRACE_SYSCALL, t->tid, 0, 0);
			return;
		}
		long long rc = (long long)r.rax;
		switch (t->fetch_step) {
		case F_SOCKET:
			if (rc < 0) {
				fetch_end(t, (int)-rc);
				return;
			}
			t->fetch_sock = (int)rc;
			fetch_next(t, F_SENDMSG);
			return;
		case F_SENDMSG:
			/*
			 * Its error (EBADF: no fd n by now) answers the call made
			 * again, once; EAGAIN: ward's socket was full of others'
			 * messages, emptied now: the next call fetches anew.
			 */
			fetch_receive(t, tgid_of(t->tid));
			t->fetch_err = rc < 0 && rc != -EAGAIN ? (int)-rc : 0;
			fetch_next(t, F_CLOSE);
			return;
		case F_CLOSE:
			fetch_end(t, t->fetch_err);
			return;
		}
	}
	t->phase = P_NONE;
	kill_for(t->tid, "--degraded: the process left the calls ward made for it (a fetch)");
}

/* ---- the tracer's: a thread group held still while its open is made (no openat2) ---- */

/*
 * Without openat2 the agent's kernel opens ward's object by openat with
 * O_NOFOLLOW, which follows a directory on the way that became a symlink
 * since ward's decision.  The check at the open's exit then kills the
 * process, but the fd is in its table from the open on, where another of
 * its threads could read it first (a review showed a denied file leaking
 * so).  So that open is made while no other thread of the group runs:
 * each is interrupted (PTRACE_INTERRUPT), and the open waits until each
 * has been seen stopped.  A stop seen then is kept unanswered, a worker's
 * answer to one of its threads too; both go on once the open has been
 * checked.  A thread stopped already for a call of its own (queued) runs
 * nothing until answered; one that is gone or a zombie runs nothing at
 * all: neither is waited for.  An interrupted thread runs no instruction
 * of its own before it stops, but may finish the call it is in: so the
 * open waits for the stop itself, not for the interrupt's return.
 */
struct parked {
	pid_t tid;
	int status;
	struct parked *next;
};

struct freeze {
	pid_t tgid;
	pid_t opener;
	struct timespec since;	  /* begun */
	struct job *job;	  /* the opener's open, made once no other thread runs */
	pid_t *waiting;		  /* interrupted, not seen stopped yet */
	size_t nwaiting;
	struct parked *stops;	  /* its threads' stops, newest first */
	struct job *answers;	  /* the workers' answers to its threads, newest first */
	UT_hash_handle hh;
};

static struct freeze *freezes;

static pid_t tgid_of(pid_t tid)
{
	pid_t tgid = tid, ppid = 0;

	if (!proc_info(tid, &tgid, &ppid, NULL, 0))
		proc_status_ids(tid, &tgid, &ppid);
	return tgid;
}

static struct freeze *freeze_of(pid_t tid)
{
	struct freeze *f;
	pid_t tgid;

	if (freezes == NULL)
		return NULL;
	tgid = tgid_of(tid);
	HASH_FIND_INT(freezes, &tgid, f);
	return f;
}

/* tid can run an instruction of its own, or finish a call: not gone, not a zombie. */
static bool can_run(pid_t tgid, pid_t tid)
{
	char path[64], buf[512];
	ssize_t n;
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", tgid, tid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return errno != ENOENT && errno != ESRCH; /* (anything else: assume it runs) */
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return true;
	buf[n] = '\0';
	const char *state = strrchr(buf, ')');
	return state == NULL || state[1] == '\0' || (state[2] != 'Z' && state[2] != 'X');
}

static bool stop_waiting(struct freeze *f, pid_t tid)
{
	for (size_t i = 0; i < f->nwaiting; i++) {
		if (f->waiting[i] == tid) {
			f->waiting[i] = f->waiting[--f->nwaiting];
			return true;
		}
	}
	return false;
}

static void open_by_page(struct task *t, struct job *j);
static void apply(struct job *j);
static void degraded_stop(pid_t tid, int st);

/*
 * The freeze is over: its kept stops are told on and its kept answers
 * applied, oldest first (either may start another freeze, which keeps
 * what is its own again).  drop: the process is being killed: nothing
 * of it goes on.
 */
static void freeze_end(struct freeze *f, bool drop)
{
	struct parked *p = NULL;
	struct job *a = NULL;

	HASH_DEL(freezes, f);
	if (f->job != NULL)
		job_free(f->job);
	while (f->stops != NULL) { /* (reversed: oldest first) */
		struct parked *n = f->stops->next;
		f->stops->next = p;
		p = f->stops;
		f->stops = n;
	}
	while (f->answers != NULL) {
		struct job *n = f->answers->next;
		f->answers->next = a;
		a = f->answers;
		f->answers = n;
	}
	free(f->waiting);
	free(f);
	while (p != NULL) {
		struct parked *n = p->next;
		if (!drop)
			degraded_stop(p->tid, p->status);
		free(p);
		p = n;
	}
	while (a != NULL) {
		struct job *n = a->next;
		a->next = NULL;
		if (drop)
			job_free(a);
		else
			apply(a);
		a = n;
	}
}

/* No other thread of f's group runs: the open is made (and checked at its exit). */
static void freeze_go(struct freeze *f)
{
	struct task *t = task_find(f->opener);
	struct job *j = f->job;

	f->job = NULL;
	if (t == NULL || t->phase != P_FROZEN) {
		job_free(j);
		freeze_end(f, false);
		return;
	}
	open_by_page(t, j);
	if (t->phase != P_OPEN)
		freeze_end(f, false); /* refused before the open (no slot): answered already */
}

static void log_freeze_failed(pid_t tid, const char *path)
{
	struct jline *l = log_begin(EV_ACCESS, tid);
	jl_str(l, "decision", "deny");
	jl_str(l, "path", path);
	jl_str(l, "reason", "--degraded without openat2: the process's other threads could not "
			    "be stopped for its open");
	log_finish(l);
}

/*
 * t's open (j) is made with the rest of its thread group stopped: each of
 * the others is interrupted, and the open is made once each has stopped.
 */
static void freeze_begin(struct task *t, struct job *j)
{
	char path[64];
	struct dirent *e;
	struct freeze *f = calloc(1, sizeof(*f));
	pid_t tgid = tgid_of(t->tid);
	DIR *d;

	snprintf(path, sizeof(path), "/proc/%d/task", tgid);
	struct user_regs_struct r = t->saved;
	if (f == NULL || (d = opendir(path)) == NULL) {
		free(f);
		log_freeze_failed(t->tid, j->path);
		job_free(j);
		skip(t->tid, &r, -EACCES); /* fail closed */
		return;
	}
	f->tgid = tgid;
	f->opener = t->tid;
	f->job = j;
	clock_gettime(CLOCK_MONOTONIC, &f->since);
	t->phase = P_FROZEN;
	HASH_ADD_INT(freezes, tgid, f);
	bool failed = false;
	while (!failed && (e = readdir(d)) != NULL) {
		pid_t tid = (pid_t)atoi(e->d_name);
		struct task *o;
		if (tid <= 0 || tid == t->tid)
			continue;
		if ((o = task_find(tid)) != NULL && o->phase == P_QUEUED)
			continue; /* at its own call's stop: its answer waits (apply) */
		if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) < 0) {
			failed = can_run(tgid, tid);
			continue;
		}
		pid_t *w = realloc(f->waiting, (f->nwaiting + 1) * sizeof(*w));
		if (w == NULL) {
			failed = true;
			continue;
		}
		f->waiting = w;
		f->waiting[f->nwaiting++] = tid;
	}
	closedir(d);
	if (failed) {
		f->job = NULL;
		t->phase = P_NONE;
		log_freeze_failed(t->tid, j->path);
		job_free(j);
		skip(t->tid, &r, -EACCES); /* fail closed */
		freeze_end(f, false);
		return;
	}
	if (f->nwaiting == 0)
		freeze_go(f);
}

/* A stop of tid, kept while its group is frozen: true when it was. */
static bool freeze_park(pid_t tid, int status)
{
	struct freeze *f = freeze_of(tid);
	struct parked *p;

	if (f == NULL || tid == f->opener)
		return false;
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		/* Not told on (it would run): the process cannot be held still, and is killed. */
		kill_for(tid, "--degraded: a thread's stop could not be kept during an open");
		return true;
	}
	p->tid = tid;
	p->status = status;
	p->next = f->stops;
	f->stops = p;
	if (stop_waiting(f, tid) && f->nwaiting == 0 && f->job != NULL)
		freeze_go(f);
	return true;
}

/* A worker's answer to a thread of a frozen group, kept: true when it was. */
static bool freeze_keep_answer(struct job *j)
{
	struct freeze *f = freeze_of(j->tid);

	if (f == NULL || j->tid == f->opener)
		return false;
	j->next = f->answers;
	f->answers = j;
	return true;
}

/* tid is gone (its stops kept are for no one): not waited for; the freeze it opened for is over. */
static void freeze_gone(pid_t tid)
{
	struct freeze *f = freeze_of(tid);

	if (f == NULL)
		return;
	for (struct parked **pp = &f->stops; *pp != NULL;) {
		struct parked *p = *pp;
		if (p->tid == tid) {
			*pp = p->next;
			free(p);
		} else {
			pp = &p->next;
		}
	}
	if (f->opener == tid)
		freeze_end(f, false);
	else if (stop_waiting(f, tid) && f->nwaiting == 0 && f->job != NULL)
		freeze_go(f);
}

/* pid exec'd: its other threads are gone, a freeze of the old image (its opener was one) over. */
static void freeze_exec(pid_t pid)
{
	struct freeze *f = NULL;

	if (freezes != NULL)
		HASH_FIND_INT(freezes, &pid, f);
	if (f != NULL)
		freeze_end(f, false);
}

/*
 * How long an open waits for the other threads to stop: one that does
 * not stop is in an uninterruptible wait (a vfork's parent, whose child
 * may wait on this process), and the process would hang there for good.
 */
#define FREEZE_WAIT_NS (5 * 1000000000ll)

/*
 * Threads waited for that have become zombies (a leader that exited
 * alone: its exit is told only with its group's) run nothing; an open
 * that waited FREEZE_WAIT_NS is refused (EAGAIN, logged).  One freeze at
 * a time: going on may end or begin others.
 */
static void freeze_poll(void)
{
	struct freeze *f, *tmp, *ready;
	struct timespec now;
	bool late;

	do {
		ready = NULL;
		late = false;
		clock_gettime(CLOCK_MONOTONIC, &now);
		HASH_ITER(hh, freezes, f, tmp) {
			if (f->job == NULL)
				continue;
			for (size_t i = 0; i < f->nwaiting;) {
				if (!can_run(f->tgid, f->waiting[i]))
					f->waiting[i] = f->waiting[--f->nwaiting];
				else
					i++;
			}
			late = (now.tv_sec - f->since.tv_sec) * 1000000000ll +
				       (now.tv_nsec - f->since.tv_nsec) > FREEZE_WAIT_NS;
			if (f->nwaiting == 0 || late) {
				ready = f;
				break;
			}
		}
		if (ready != NULL && !late) {
			freeze_go(ready);
		} else if (ready != NULL) {
			struct task *t = task_find(ready->opener);
			struct job *j = ready->job;
			ready->job = NULL;
			log_freeze_failed(ready->opener, j->path);
			job_free(j);
			if (t != NULL && t->phase == P_FROZEN) {
				struct user_regs_struct r = t->saved;
				t->phase = P_NONE;
				skip(t->tid, &r, -EAGAIN);
			}
			freeze_end(ready, false);
		}
	} while (ready != NULL);
}

/* A stop of tid (waitpid's status st): kept while its group is frozen, else told on. */
static void degraded_stop(pid_t tid, int st)
{
	struct task *t;

	if (freeze_park(tid, st))
		return;
	if ((t = task_find(tid)) != NULL && t->phase == P_FETCH)
		fetch_stop(t, st);
	else
		stop_fn(tid, st);
}

/* Inject a worker's answer into the thread stopped for it. */
static void apply(struct job *j)
{
	struct task *t = task_find(j->tid);

	if (freeze_keep_answer(j))
		return;
	if (j->dead || t == NULL || t->phase != P_QUEUED || t->seq != j->seq) {
		job_free(j);
		return;
	}
	t->phase = P_NONE;
	struct user_regs_struct r = t->saved;
	if (j->open && j->dup_fd >= 0) {
		/* No name: the agent's own fd duplicated (reach): the lowest free number, as open's. */
		r.orig_rax = SYS_fcntl;
		r.rdi = (unsigned long long)j->dup_fd;
		r.rsi = (j->flags & O_CLOEXEC) ? F_DUPFD_CLOEXEC : F_DUPFD;
		r.rdx = 0;
		job_free(j);
		if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) == 0)
			resume(t->tid, PTRACE_CONT);
		return;
	}
	if (j->open && compat_openat2_off) {
		freeze_begin(t, j);
		return;
	}
	if (j->open) {
		open_by_page(t, j);
		return;
	}
	if (j->fetch >= 0) {
		fetch_start(t, j->fetch);
		job_free(j);
		return;
	}
	if (j->again) {
		/*
		 * Made again: skipped, and back at its syscall instruction with
		 * its number, so that it stops here anew and is decided afresh.
		 */
		r.orig_rax = (unsigned long long)-1;
		r.rax = t->saved.orig_rax;
		r.rip -= 2;
		if (ptrace(PTRACE_SETREGS, t->tid, 0, &r) == 0)
			resume(t->tid, PTRACE_CONT);
		job_free(j);
		return;
	}
	if (j->rc == 0) {
		/*
		 * CONTINUE only as a handler answered it, from a row that says
		 * MAY_CONTINUE and at a site whose comment says why (serve() turns
		 * any other 0 into EACCES): the same calls and reasons as under
		 * notification (syscalls.h).
		 */
		resume(t->tid, PTRACE_CONT);
	} else if (j->rc < 0) {
		if (is_restart(j->rc))
			t->restart_nr = (int)r.orig_rax;
		skip(t->tid, &r, j->rc);
	} else {
		skip(t->tid, &r, j->val);
	}
	job_free(j);
}

/* Apply every answer the workers have posted. */
static void drain(void)
{
	pthread_mutex_lock(&lock);
	struct job *list = answered;
	answered = NULL;
	for (struct job *j = list; j != NULL; j = j->next)
		HASH_DEL(jobs, j);
	pthread_mutex_unlock(&lock);
	/* Oldest first. */
	struct job *rev = NULL;
	while (list != NULL) {
		struct job *n = list->next;
		list->next = rev;
		rev = list;
		list = n;
	}
	while (rev != NULL) {
		struct job *n = rev->next;
		apply(rev);
		rev = n;
	}
}

/*
 * What the agent's kernel opened (fd in tid) is what ward decided on.  An
 * O_TMPFILE is the agent's own, not the one ward made: in /dev/shm it is
 * noted as the session's (shm.c), as ward's was, so that it can be linked.
 */
static bool opened_right(pid_t tid, int fd, const struct job *j)
{
	char path[64], name[PATH_MAX + 16];
	struct stat st;

	snprintf(path, sizeof(path), "/proc/%d/fd/%d", tid, fd);
	if (stat(path, &st) < 0)
		return false;
	if (!j->tmpfile)
		return st.st_dev == j->dev && st.st_ino == j->ino;
	if (!S_ISREG(st.st_mode) || st.st_nlink != 0 || st.st_dev != j->dev)
		return false;
	int own = open(path, O_PATH | O_CLOEXEC);
	if (own >= 0) {
		snprintf(name, sizeof(name), "%s/#tmpfile", j->path);
		shm_made(name, own, "");
		close(own);
	}
	return true;
}

static void log_mismatch(pid_t tid, const struct job *j)
{
	struct jline *l = log_begin(EV_ACCESS, tid);
	jl_str(l, "decision", "deny");
	jl_str(l, "path", j->path);
	jl_str(l, "reason", "--degraded: what the open reached is not what ward decided on "
			    "(a name changed between); the process is killed");
	log_finish(l);
}

/*
 * Whether tid's syscall stop is a call's entry or its exit: the kernel
 * says (PTRACE_GET_SYSCALL_INFO); before Linux 5.3 (or masked) the
 * registers do: x86-64 enters every call with rax -ENOSYS.  An exit that
 * returns ENOSYS is then taken for an entry, and decided again: never an
 * entry taken for an exit, which would let a call through undecided.
 */
static void syscall_stop_kind(pid_t tid, const struct user_regs_struct *r,
			      struct __ptrace_syscall_info *info)
{
	memset(info, 0, sizeof(*info));
	if (S->feat.syscall_info && ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof(*info), info) >= 0)
		return;
	if (S->feat.syscall_info && errno == EIO)
		S->feat.syscall_info = false; /* the kernel does not know the request */
	info->op = (long long)r->rax == -ENOSYS ? PTRACE_SYSCALL_INFO_ENTRY : PTRACE_SYSCALL_INFO_EXIT;
}

bool degraded_syscall_stop(pid_t tid)
{
	struct task *t = task_find(tid);
	struct user_regs_struct r;
	struct __ptrace_syscall_info info;

	bool ours = t != NULL && (t->phase == P_MMAP || t->phase == P_OPEN);
	if (!ours && !S->degraded_entry)
		return false;
	if (ptrace(PTRACE_GETREGS, tid, 0, &r) < 0)
		return true;
	syscall_stop_kind(tid, &r, &info);
	if (!ours) {
		if (info.op == PTRACE_SYSCALL_INFO_ENTRY)
			at_entry(tid, r); /* --degraded at entry stops: every call */
		else
			resume(tid, PTRACE_SYSCALL); /* the exit of a call decided at its entry */
		return true;
	}
	/*
	 * The only stop that may follow ward's rewrite is that very call's
	 * exit: anything else (another call's entry, another number) means
	 * the process did something ward did not arrange, and it is killed.
	 */
	long want = t->phase == P_MMAP ? SYS_mmap : compat_openat2_off ? SYS_openat : SYS_openat2;
	if (info.op != PTRACE_SYSCALL_INFO_EXIT || (long)r.orig_rax != want) {
		t->phase = P_NONE;
		kill_for(tid, "--degraded: the process left the call ward made for it");
		return true;
	}
	if (t->phase == P_MMAP) {
		t->phase = P_NONE;
		if (r.rax != DEGRADED_REGION) {
			kill_for(tid, "--degraded: ward's page cannot be mapped in the process (the "
				      "address is taken)");
			return true;
		}
		t->mm->mapped = true;
		struct user_regs_struct again = t->saved;
		again.rip -= 2; /* the syscall instruction: the call is made again */
		again.rax = t->saved.orig_rax;
		if (ptrace(PTRACE_SETREGS, tid, 0, &again) == 0)
			resume(tid, PTRACE_CONT);
		return true;
	}
	struct job *j = t->job;
	long long fd = (long long)r.rax;
	t->job = NULL;
	t->phase = P_NONE;
	struct freeze *f = freeze_of(tid);
	if (f != NULL && f->opener != tid)
		f = NULL;
	if (fd < 0 || opened_right(tid, (int)fd, j)) {
		job_free(j);
		resume(tid, PTRACE_CONT);
		if (f != NULL)
			freeze_end(f, false); /* its other threads go on */
		return true;
	}
	/*
	 * The kernel reached another object than ward's (a name of the path
	 * changed between).  The fd is in the process's table already, where
	 * its other threads (or a signal handler, before an injected close)
	 * could take it: the process is killed, not answered.
	 */
	log_mismatch(tid, j);
	job_free(j);
	kill_for(tid, "--degraded: its open reached another object than ward decided on");
	if (f != NULL)
		freeze_end(f, true); /* killed, its other threads never ran while it had the fd */
	return true;
}

void degraded_signal_stop(pid_t tid)
{
	struct task *t = task_find(tid);
	struct user_regs_struct r;

	/*
	 * A call skipped with a restart code (-ERESTARTSYS: a signal came
	 * while ward decided): the kernel restarts it, or answers EINTR, only
	 * for a call it was in, which a skipped one (orig_rax -1) is not:
	 * the call's number goes back before the signal is delivered.
	 */
	if (t == NULL || t->restart_nr < 0)
		return;
	if (ptrace(PTRACE_GETREGS, tid, 0, &r) == 0 && (long long)r.orig_rax == -1 &&
	    is_restart((int)(long long)r.rax)) {
		r.orig_rax = (unsigned long long)t->restart_nr;
		ptrace(PTRACE_SETREGS, tid, 0, &r);
	}
	t->restart_nr = -1;
}

/* ---- the tracer's loop ---- */

static sigset_t waited(void)
{
	sigset_t s;

	sigemptyset(&s);
	sigaddset(&s, SIGCHLD); /* a tracee's stop, and WAKE_SIG */
	sigaddset(&s, SIGINT);
	sigaddset(&s, SIGTERM);
	sigaddset(&s, SIGHUP);
	return s;
}

void degraded_block_signals(void)
{
	sigset_t s = waited();

	pthread_sigmask(SIG_BLOCK, &s, NULL);
}

void degraded_trace(pid_t pid, int *status, void (*on_stop)(pid_t, int),
		    bool (*on_end)(pid_t, int, pid_t, int *))
{
	sigset_t s = waited();

	tracer_tid = (pid_t)syscall(SYS_gettid);
	stop_fn = on_stop;
	pthread_sigmask(SIG_BLOCK, &s, NULL);
	*status = WARD_EXIT_FAILURE;
	for (;;) {
		drain();
		for (;;) {
			int st;
			pid_t w = waitpid(-1, &st, __WALL | WNOHANG);
			if (w == 0)
				break;
			if (w < 0) {
				if (errno == EINTR)
					continue;
				goto done; /* ECHILD: nothing left */
			}
			if (WIFEXITED(st) || WIFSIGNALED(st)) {
				degraded_gone(w);
				if (on_end(w, st, pid, status))
					goto done;
				continue;
			}
			if (WIFSTOPPED(st))
				degraded_stop(w, st);
		}
		drain();
		if (freezes != NULL)
			freeze_poll();
		if (fifo_holds != NULL)
			fifo_holds_expire(0);
		/*
		 * SIGCHLD may have gone to another thread (one made before the
		 * mask): the wait is short, so a missed one costs 10 ms.
		 */
		struct timespec ts = { 0, 10 * 1000 * 1000 };
		int sig = sigtimedwait(&s, NULL, &ts);
		/* Signals sent to ward go to the agent's process group. */
		if (sig == SIGINT || sig == SIGTERM || sig == SIGHUP)
			kill(-pid, sig);
	}
done:
	pthread_mutex_lock(&lock);
	over = true;
	pthread_cond_broadcast(&queued);
	pthread_mutex_unlock(&lock);
}
