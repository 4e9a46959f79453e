/*
 * restart.c - a call the kernel restarts, answered once (restart.h).
 *
 * What replaces SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (Linux 5.19).
 * Without it the agent waits for ward's answer interruptibly, even once a
 * worker has received its call: a signal (a timer, SIGCHLD, Go's
 * preemption) ends the notification, and the call returns ERESTARTSYS.
 * After a handler with SA_RESTART, or when the signal is ignored or held
 * back by a tracer, the kernel restarts it: the same thread makes the same
 * call again, a new notification.  (A handler without SA_RESTART makes it
 * fail with EINTR, and most programs then make it again themselves.)  Had
 * ward performed the first one already, performing it again would fail
 * (EEXIST for a file created with O_EXCL, ENOENT for a rename, EISCONN),
 * or do it twice (a datagram), and the fd it opened would be lost.
 *
 * SEND saying ENOENT is not the only sign: a signal the thread sees just
 * before ward's SEND (or the ADDFD of an fd whose number SEND then gives)
 * ends the wait all the same, and SEND still succeeds: the answer is
 * lost, the call restarted, and ward cannot know from SEND.  What shows
 * it is the tracer's signal-delivery stop, which comes before the
 * restart: the thread's registers say the call was interrupted
 * (-ERESTARTSYS, the call's number, instruction pointer and arguments).
 *
 * So ward keeps the answer it gave to each thread's last call (its memo,
 * one a thread) and answers the thread's next call from it when the
 * tracer has seen that call interrupted since ward began to receive it,
 * and the next call is the same: the same syscall, arguments and
 * instruction pointer, and the same bytes in every range of memory the
 * first one read (read again and compared by hash: a program that moved
 * on to another path in the same buffer makes another call).  Any other
 * call of the thread drops the memo; so does the thread's end.  A
 * restarted call answered so is not logged again: nothing new was
 * decided or done (session-end counts them).  A call the program makes
 * again itself after EINTR (without SA_RESTART) is answered the same way,
 * as the kernel's restart is.
 *
 * What this cannot tell apart: the same call made twice in a row by the
 * same thread, the second one interrupted before ward received it (a
 * poll loop under a timer, the call identical to the byte): the second
 * is answered with what the first did.  Nor does a memo outlive a
 * supervised call made by a signal handler between the interrupted call
 * and its restart: the restart is then performed again.  A restart
 * without a signal (the freezer) is not seen by the tracer, and is
 * performed again too.

 * A notification older than the newest one of its thread that a worker
 * has begun is stale (the thread was interrupted before or while a worker
 * received it, and has moved on: a thread makes one call at a time); it
 * touches no memo, or it would drop the newer call's (a worker that sat
 * between RECV and here while the thread made two more calls did that,
 * and the restart of the second was performed again).
 *
 * A call of a thread that arrives while another worker still serves the
 * thread's earlier call (which must then have been interrupted: a thread
 * makes one call at a time) waits for that worker to end, so that the
 * answer it may keep is there to be found; a person's prompt is not
 * asked twice.
 *
 * A FIFO's open is answered later, by a thread of ward's that waits for
 * the other end (handlers/open.c, req_later): that thread holds the
 * call's place as its server, so that a restart waits for its answer and
 * finds it kept (performed again, the open would wait for a writer that
 * may be gone: natively it had succeeded).
 *
 * What is kept: the answer a handler gave (when the kernel refused it,
 * SEND or ADDFD saying ENOENT, the restart needs no stop to be known for
 * one: the freezer's restarts are answered too); never a CONTINUE (the kernel did nothing
 * yet), an EINTR or ERESTARTSYS ward chose itself (the restart is to be
 * performed), nor anything of a request a handler found gone on the way
 * (req_valid: it stopped there, before doing anything; a check after
 * which it goes on, as for a hint, uses req_alive), nor of one that
 * read more ranges than it remembers (READS_MAX: it is performed again).
 *   VALUE      a value or an errno: answered again as it was.
 *   FD         an fd ADDFD could not install: ward keeps its copy and
 *              installs it in the restarted call, the same open file (a
 *              file created with O_EXCL is the agent's, not an EEXIST).
 *   INSTALLED  an fd ADDFD installed whose number never reached the agent
 *              (ADDFD and SEND are two steps without ADDFD_FLAG_SEND, and
 *              for an fd open for writing or a FIFO's end): the restarted call is answered
 *              that number, once /proc shows it is still that file.  A
 *              call that is never made again (EINTR, and the program gives
 *              up) leaves that fd in the agent: the file it asked for,
 *              opened as it asked, decided and logged, so harmless; it
 *              goes at the process's exit or exec (it is O_CLOEXEC when
 *              the call asked so).  (A FIFO's end so left is less
 *              harmless: the other end sees a reader or writer more,
 *              until then.  ADDFD_FLAG_SEND would not leave it, but
 *              ward's own copy would pair with the other end meanwhile,
 *              on every kernel: handlers/open.c's close_first.)
 *
 * With WAIT_KILLABLE_RECV none of this runs: every entry point returns at
 * once.
 */
#include "restart.h"
#include "mem.h"
#include "notify.h"
#include "session.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

/* What the tracer saw of a thread's last interrupted call. */
struct stop {
	uint64_t seq; /* 0: none */
	int nr;
	uint64_t ip, args[6];
};

struct memo {
	bool valid;
	uint64_t id;	/* the notification it was kept for */
	bool lost;	/* the kernel refused the answer (ENOENT): undelivered for sure */
	uint64_t since; /* restart_now() before ward received the call */
	/* the call */
	int nr, nreads;
	uint64_t args[6], ip;
	struct read_range reads[READS_MAX];
	/* its answer */
	struct replay a;
};

/* A thread's memo and stop; a free slot has tid 0. */
struct slot {
	pid_t tid;
	uint64_t newest; /* the newest notification of the thread a worker began */
	struct memo m;
	struct stop st;
};

/*
 * Slots by thread id: a set of WAYS for each id.  A thread that finds its
 * set full is not kept (its restart is performed again): that takes
 * more than WAYS threads of the session hashing alike at once.
 */
#define SETS 512
#define WAYS 8
static struct slot slots[SETS][WAYS];

/* Who is served now: a worker's thread and notification id. */
#define SERVING 256
static struct {
	pid_t tid;
	uint64_t id;
} serving[SERVING];

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ended = PTHREAD_COND_INITIALIZER;
static atomic_ulong answered;
static _Atomic uint64_t stops; /* how many interrupted calls the tracer saw */

bool restart_active(void)
{
	/* --degraded: a thread at a ptrace stop is not woken by a signal (degraded.c). */
	return !S->feat.wait_killable && !S->degraded;
}

uint64_t restart_now(void)
{
	return atomic_load(&stops);
}

/* tid's slot (with lock held); with make, a free one taken for it; NULL: none. */
static struct slot *slot_of(pid_t tid, bool make)
{
	struct slot *set = slots[(unsigned)tid % SETS], *free_ = NULL;

	for (int i = 0; i < WAYS; i++) {
		if (set[i].tid == tid)
			return &set[i];
		if (set[i].tid == 0 && free_ == NULL)
			free_ = &set[i];
	}
	if (!make || free_ == NULL)
		return NULL;
	memset(free_, 0, sizeof(*free_));
	free_->tid = tid;
	return free_;
}

/*
 * A slot with neither memo nor stop is free again (what newest guards
 * against needs a memo: a stale notification with none to spoil is
 * harmless).
 */
static void slot_tidy(struct slot *sl)
{
	if (!sl->m.valid && sl->st.seq == 0)
		sl->tid = 0;
}

/* Whether a worker serves an earlier call of r's thread (with lock held). */
static bool older_served(const struct req *r)
{
	for (int i = 0; i < SERVING; i++)
		if (serving[i].tid == r->tid && serving[i].id < r->n->id)
			return true;
	return false;
}

static void serve_mark(struct req *r)
{
	for (int i = 0; i < SERVING; i++)
		if (serving[i].tid == 0) {
			serving[i].tid = r->tid;
			serving[i].id = r->n->id;
			r->busy = true;
			return;
		}
}

static void memo_drop(struct memo *m)
{
	if (m->valid && m->a.kind == REPLAY_FD)
		close(m->a.fd);
	m->valid = false;
}

/* Keep m as its thread's memo (a former one goes); false when there is no room. */
static bool memo_put(pid_t tid, const struct memo *m)
{
	struct memo old = { .valid = false };
	struct slot *sl;

	pthread_mutex_lock(&lock);
	sl = slot_of(tid, true);
	if (sl != NULL && sl->newest > m->id) {
		sl = NULL; /* the thread has made a newer call: this one is past */
	} else if (sl != NULL) {
		old = sl->m;
		sl->m = *m;
		sl->newest = m->id;
	}
	pthread_mutex_unlock(&lock);
	memo_drop(&old);
	return sl != NULL;
}

/* The bytes at [addr, addr + len) of the agent's memory hash to hash. */
static bool same_bytes(pid_t tid, const struct read_range *rr)
{
	char buf[4096];
	struct mhash h = { 0, 0, 0, 0 };
	uint64_t at = rr->addr;
	size_t left = rr->len;

	while (left > 0) {
		size_t n = left < sizeof(buf) ? left : sizeof(buf);
		struct iovec local = { buf, n }, remote = { (void *)(uintptr_t)at, n };
		if (process_vm_readv(tid, &local, 1, &remote, 1, 0) != (ssize_t)n)
			return false;
		mhash_add(&h, buf, n);
		at += n;
		left -= n;
	}
	return mhash_end(&h) == rr->hash;
}

/*
 * Whether the call m was kept for may have been restarted: the kernel
 * refused its answer, or the tracer saw it interrupted since ward began
 * to receive it.
 */
static bool interrupted(const struct memo *m, const struct stop *st)
{
	return m->lost || (st->seq > m->since && st->nr == m->nr && st->ip == m->ip &&
			   memcmp(st->args, m->args, sizeof(m->args)) == 0);
}

/*
 * How many arguments the call nr takes: the registers beyond are what the
 * caller left there, the same in a restart (the kernel restores them) but
 * not in a call made again after EINTR.  A call not listed compares all six.
 */
static int nargs(int nr)
{
	switch (nr) {
	case SYS_rmdir: case SYS_unlink: case SYS_umask: case SYS_setuid: case SYS_setgid:
	case SYS_setfsuid: case SYS_setfsgid:
		return 1;
	case SYS_creat: case SYS_stat: case SYS_lstat: case SYS_access: case SYS_mkdir:
	case SYS_rename: case SYS_link: case SYS_symlink: case SYS_chmod: case SYS_fchmod:
	case SYS_truncate: case SYS_utime: case SYS_utimes: case SYS_listen: case SYS_kill:
	case SYS_tkill: case SYS_pidfd_open: case SYS_setpgid: case SYS_setrlimit:
	case SYS_setreuid: case SYS_setregid: case SYS_setgroups: case SYS_capset:
	case SYS_removexattr: case SYS_lremovexattr: case SYS_fremovexattr: case SYS_msgget:
	case SYS_sched_setparam:
		return 2;
	case SYS_open: case SYS_chown: case SYS_lchown: case SYS_fchown: case SYS_mkdirat:
	case SYS_mknod: case SYS_unlinkat: case SYS_faccessat: case SYS_readlink:
	case SYS_listxattr: case SYS_llistxattr: case SYS_connect: case SYS_bind: case SYS_socket:
	case SYS_tgkill: case SYS_rt_sigqueueinfo: case SYS_futimesat: case SYS_fchmodat:
	case SYS_symlinkat: case SYS_execve: case SYS_inotify_add_watch: case SYS_sendmsg:
	case SYS_fcntl: case SYS_ioctl: case SYS_setresuid: case SYS_setresgid:
		return 3;
	case SYS_openat: case SYS_openat2: case SYS_newfstatat: case SYS_faccessat2:
	case SYS_readlinkat: case SYS_getxattr: case SYS_lgetxattr: case SYS_mknodat:
	case SYS_renameat: case SYS_utimensat: case SYS_rt_tgsigqueueinfo:
	case SYS_pidfd_send_signal: case SYS_sendmmsg:
		return 4;
	case SYS_statx: case SYS_renameat2: case SYS_linkat: case SYS_setxattr:
	case SYS_lsetxattr: case SYS_fsetxattr: case SYS_execveat: case SYS_fchownat:
		return 5;
	default:
		return 6;
	}
}

/* Whether r is the restart of the call m was kept for. */
static bool same_call(struct req *r, const struct memo *m)
{
	if (m->nr != r->n->data.nr || m->ip != r->n->data.instruction_pointer ||
	    memcmp(m->args, r->n->data.args, sizeof(m->args[0]) * (size_t)nargs(m->nr)) != 0)
		return false;
	for (int i = 0; i < m->nreads; i++)
		if (!same_bytes(r->tid, &m->reads[i]))
			return false;
	if (m->a.kind == REPLAY_INSTALLED) {
		/* The fd is still the file ADDFD put there (no handler closed it meanwhile). */
		struct fdinfo fi;
		if (agent_fdinfo(r->tid, m->a.fd, &fi) < 0 || fi.ino != m->a.ino ||
		    fi.mnt_id != m->a.mnt || (fi.flags & ~(uint64_t)O_CLOEXEC) != m->a.flags)
			return false;
	}
	return true;
}

enum restart_step restart_begin(struct req *r, struct replay *a)
{
	struct memo m = { .valid = false };
	struct stop st = { .seq = 0 };
	bool blocked = false;

	if (!restart_active())
		return RESTART_SERVE;
	pthread_mutex_lock(&lock);
	while (older_served(r)) {
		if (!blocked) {
			/*
			 * The other worker may wait long (a prompt, a blocking
			 * connect): this one counts as blocked, so the pool grows.
			 */
			pthread_mutex_unlock(&lock);
			notify_blocking_begin();
			blocked = true;
			pthread_mutex_lock(&lock);
			continue;
		}
		struct timespec t;
		clock_gettime(CLOCK_REALTIME, &t);
		t.tv_nsec += 50 * 1000 * 1000;
		if (t.tv_nsec >= 1000000000) {
			t.tv_sec++;
			t.tv_nsec -= 1000000000;
		}
		pthread_cond_timedwait(&ended, &lock, &t);
		if (!req_valid(r)) {
			/* Interrupted again: its own restart will come. */
			pthread_mutex_unlock(&lock);
			notify_blocking_end();
			return RESTART_GONE;
		}
	}
	serve_mark(r);
	/*
	 * The thread's memo and stop are this call's to use, and no later
	 * one's.  A notification older than one of the thread's a worker has
	 * begun already is stale (a thread makes one call at a time: it was
	 * interrupted before or while a worker received it, and the thread
	 * has moved on): it must not spoil the memo of the newer call.
	 */
	struct slot *sl = slot_of(r->tid, false);
	if (sl != NULL && sl->newest > r->n->id) {
		pthread_mutex_unlock(&lock);
		if (blocked)
			notify_blocking_end();
		return req_valid(r) ? RESTART_SERVE : RESTART_GONE;
	}
	if (sl != NULL) {
		sl->newest = r->n->id;
		m = sl->m;
		st = sl->st;
		sl->m.valid = false;
		sl->st.seq = 0;
		slot_tidy(sl);
	}
	pthread_mutex_unlock(&lock);
	if (blocked)
		notify_blocking_end();
	if (!m.valid)
		return RESTART_SERVE;
	if (interrupted(&m, &st) && same_call(r, &m)) {
		if (!req_valid(r)) {
			/* Gone while it was compared: the memo waits for the next restart. */
			m.lost = true;
			if (!memo_put(r->tid, &m))
				memo_drop(&m);
			return RESTART_GONE;
		}
		*a = m.a;
		r->nreads = m.nreads;
		memcpy(r->reads, m.reads, sizeof(m.reads[0]) * (size_t)m.nreads);
		atomic_fetch_add(&answered, 1);
		return RESTART_ANSWER;
	}
	/* Another call: the one kept was not restarted (the program went on). */
	memo_drop(&m);
	return RESTART_SERVE;
}

void restart_end(struct req *r)
{
	if (!r->busy)
		return;
	pthread_mutex_lock(&lock);
	for (int i = 0; i < SERVING; i++)
		if (serving[i].tid == r->tid && serving[i].id == r->n->id)
			serving[i].tid = 0;
	r->busy = false;
	pthread_cond_broadcast(&ended);
	pthread_mutex_unlock(&lock);
}

/* What r was, as a memo (its answer is filled in by the caller); false: not to be kept. */
static bool memo_of(const struct req *r, struct memo *m, bool lost)
{
	if (!restart_active() || r->gone || r->nreads > READS_MAX)
		return false;
	memset(m, 0, sizeof(*m));
	m->valid = true;
	m->id = r->n->id;
	m->lost = lost;
	m->since = r->since;
	m->nr = r->n->data.nr;
	m->ip = r->n->data.instruction_pointer;
	memcpy(m->args, r->n->data.args, sizeof(m->args));
	m->nreads = r->nreads;
	memcpy(m->reads, r->reads, sizeof(m->reads[0]) * (size_t)r->nreads);
	return true;
}

void restart_keep(struct req *r, int rc, bool lost)
{
	struct memo m;

	/* Nothing done yet, or a restart ward asked for itself: it is performed when it comes. */
	if (rc == 0 || rc == -ESRCH || rc == -EINTR || rc == -ERESTARTSYS || !memo_of(r, &m, lost))
		return;
	if (r->installed >= 0) {
		m.a = (struct replay){ .kind = REPLAY_INSTALLED, .fd = r->installed,
				       .ino = r->installed_ino, .mnt = r->installed_mnt,
				       .flags = r->installed_flags };
	} else {
		m.a = (struct replay){ .kind = REPLAY_VALUE, .rc = rc, .result = r->result };
	}
	memo_put(r->tid, &m);
}

bool restart_keep_fd(struct req *r, int fd, bool cloexec, bool writable)
{
	struct memo m;

	if (!memo_of(r, &m, true))
		return false;
	m.a = (struct replay){ .kind = REPLAY_FD, .fd = fd, .cloexec = cloexec,
			       .writable = writable };
	return memo_put(r->tid, &m);
}

void restart_interrupted(pid_t tid, int nr, uint64_t ip, const uint64_t args[6])
{
	pthread_mutex_lock(&lock);
	struct slot *sl = slot_of(tid, true);
	if (sl != NULL) {
		sl->st = (struct stop){ .seq = atomic_fetch_add(&stops, 1) + 1, .nr = nr, .ip = ip };
		memcpy(sl->st.args, args, sizeof(sl->st.args));
	}
	pthread_mutex_unlock(&lock);
}

void restart_forget(pid_t tid)
{
	struct memo m = { .valid = false };

	if (!restart_active())
		return;
	pthread_mutex_lock(&lock);
	struct slot *sl = slot_of(tid, false);
	if (sl != NULL) {
		m = sl->m;
		sl->m.valid = false;
		sl->st.seq = 0;
		slot_tidy(sl);
	}
	pthread_mutex_unlock(&lock);
	memo_drop(&m);
}

unsigned long restart_answered(void)
{
	return atomic_load(&answered);
}
