/*
 * notify.c - the notification layer: RECV -> dispatch through the syscall
 * table -> one commit point (log, then answer), and the request API the
 * handlers use on the way (notify.h).
 *
 * A pool of workers, two a CPU at start (WARD_WORKERS sets how many:
 * tracer.c), all receive from the one listener, at most four waiting in
 * RECV at once (the others park: recv_enter); more start while some wait
 * in blocking calls (notify_blocking_begin).  The worker that receives a
 * notification answers it; nothing is handed off, but for a FIFO's open,
 * which waits on a thread of its own (handlers/open.c).
 */
#include "notify.h"
#include "degraded.h"
#include "syscalls.h"
#include "handlers/handlers.h"
#include "log.h"
#include "mem.h"
#include "proc.h"
#include "resolve.h"
#include "restart.h"
#include "session.h"
#include "sighold.h"

#include <assert.h>
#include <dirent.h>
#include <linux/audit.h>
#include <linux/futex.h>
#include <linux/kcmp.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <poll.h>
#include <inttypes.h>
#include <stdio.h>
#include <time.h>
#include <signal.h>
#include <stdatomic.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>
#include <sched.h>

#define NONE NULL
#define MAX_NR 512

/*
 * The dispatch table, by syscall number, from syscalls.h: the name for the
 * log, the family, the handler, why the handler may answer CONTINUE (NULL:
 * it may not), and whether signals held back for the caller go first
 * (MAY_CONTINUE_SIGNALS_FIRST).
 */
static const struct dispatch {
	const char *name;
	enum family family;
	handler_fn fn;
	const char *may_continue;
	bool signals_first;
} dispatch[MAX_NR] = {
#define MAY_CONTINUE(why) why, false
#define MAY_CONTINUE_SIGNALS_FIRST(why) why, true
#define ROW(nm, fam, h, notify, continues) [SYS_##nm] = { .name = #nm, fam, h, continues },
	WARD_SYSCALLS(ROW)
#undef ROW
#undef MAY_CONTINUE
#undef MAY_CONTINUE_SIGNALS_FIRST
};

/* Every row's number fits the table (a number beyond it would be no row at all). */
#define FITS(name, fam, h, notify, continues) \
	_Static_assert(SYS_##name < MAX_NR, "syscall number beyond the dispatch table: " #name);
WARD_SYSCALLS(FITS)
#undef FITS

/* The pool grows (up to MAX_WORKERS) while workers wait in blocking calls. */
#define MAX_WORKERS 128
static pthread_t workers[MAX_WORKERS];
static int nworkers, nblocked;
static pthread_mutex_t pool_lock = PTHREAD_MUTEX_INITIALIZER;
static int wake_setup(void);
static void wake_mask(int how);

static void reply(struct req *r, int rc)
{
	struct seccomp_notif_resp *resp = r->resp;

	if (S->degraded) {
		/* The tracer injects it (degraded.c). */
		degraded_answer(r->n->id, rc, rc > 0 ? r->result : 0);
		return;
	}
	memset(resp, 0, (size_t)S->resp_size);
	resp->id = r->n->id;
	if (rc == -ERESTARTSYS)
		sighold_restart_answered(r->tid); /* a signal is on its way: the kernel's to deliver */
	if (rc < 0) {
		resp->error = rc;
	} else if (rc == 0) {
		/*
		 * CONTINUE only where a handler returned 0, which each does only
		 * at a site whose comment says why its decision depended on
		 * registers alone (signal.c, pid.c, ipc.c, cred.c, note.c, socket()
		 * in net.c) or is verified afterwards (exec.c, at
		 * PTRACE_EVENT_EXEC), and only for a row of the table that says
		 * why it may (MAY_CONTINUE); serve() turns any other 0 into
		 * EACCES.  Every other answer is emulated.
		 */
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	} else {
		resp->val = r->result;
	}
	/*
	 * ENOENT: the caller died or was interrupted meanwhile; nothing to
	 * answer, but for a call the kernel will restart (restart.c).
	 */
	if (ioctl(S->listener, SECCOMP_IOCTL_NOTIF_SEND, resp) == 0) {
		restart_keep(r, rc, false);
		restart_end(r);
	} else if (errno == ENOENT) {
		restart_keep(r, rc, true);
	}
}

/*
 * The commit point: the call's line, if still to be written, then its
 * answer.  An event that cannot be logged is denied.
 */
static void commit(struct req *r, int rc)
{
	if (r->replied)
		return;
	if ((r->log == LOG_PENDING || (r->log == LOG_COMMITTED_TELLS && rc < 0)) &&
	    log_request(r, rc < 0 ? -rc : 0) < 0 && rc >= 0)
		rc = -EACCES;
	reply(r, rc);
}

int req_commit(struct req *r, bool tells)
{
	/* Written already, or nothing to write (req_quiet; a decision since makes it pending). */
	if (r->log != LOG_PENDING)
		return 0;
	if (log_request(r, 0) < 0)
		return -EACCES;
	r->log = tells ? LOG_COMMITTED_TELLS : LOG_COMMITTED;
	return 0;
}

void req_settle(struct req *r, int err)
{
	if (err != 0 && r->log == LOG_PENDING)
		log_request(r, err);
	r->log = LOG_COMMITTED;
}

/*
 * ADDFD could not install fd for r (ENOENT or ESRCH: the call is gone, or
 * interrupted): kept for its restart (restart.c), else closed.
 */
static int addfd_lost(struct req *r, int fd, bool cloexec, bool writable, int rc)
{
	if (rc == -ENOENT || rc == -ESRCH) {
		r->replied = true; /* nobody waits for an answer */
		if (restart_keep_fd(r, fd, cloexec, writable))
			return -ENOENT;
	}
	close(fd);
	return rc;
}

int req_answer_fd(struct req *r, int fd, bool cloexec, bool writable)
{
	struct seccomp_notif_addfd a = {
		.id = r->n->id,
		.flags = SECCOMP_ADDFD_FLAG_SEND,
		.srcfd = (uint32_t)fd,
		.newfd_flags = cloexec ? O_CLOEXEC : 0,
	};
	int rc;

	if (S->degraded)
		return degraded_answer_fd(r, fd, true); /* no ADDFD: the agent's kernel opens it */
	if (req_commit(r, true) < 0) {
		close(fd);
		return -EACCES;
	}
	if (writable || !S->feat.addfd_send) {
		/*
		 * ADDFD, then SEND with the new fd's number: for an fd open for
		 * writing, whose copy ward must close before the agent runs again
		 * (or an exec of the file right after writing it would fail with
		 * ETXTBSY; the same for a FIFO's end, handlers/open.c's
		 * close_first), and, the replacement of ADDFD_FLAG_SEND, before Linux
		 * 5.14.  A call interrupted between the two (before 5.19) holds
		 * the fd under a number it was not told: restart.c answers its
		 * restart with that number.
		 */
		a.flags = 0;
		rc = ioctl(S->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a);
		if (rc < 0)
			return addfd_lost(r, fd, cloexec, writable, -errno);
		struct fdinfo fi;
		if (!S->feat.wait_killable && agent_fdinfo(getpid(), fd, &fi) == 0) {
			r->installed = rc;
			r->installed_ino = fi.ino;
			r->installed_mnt = fi.mnt_id;
			r->installed_flags = fi.flags & ~(uint64_t)O_CLOEXEC;
		}
		close(fd);
		/* The commit point sends the answer with the new fd number. */
		return req_answer_value(r, rc);
	}
	if (ioctl(S->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a) < 0)
		return addfd_lost(r, fd, cloexec, writable, -errno);
	close(fd);
	r->replied = true;
	restart_end(r);
	return 1;
}

struct req *req_later(struct req *r)
{
	struct req *l = calloc(1, sizeof(*l));

	if (l == NULL)
		return NULL;
	l->n = malloc((size_t)S->notify_size);
	l->resp = calloc(1, (size_t)S->resp_size);
	if (l->n == NULL || l->resp == NULL) {
		free(l->n);
		free(l->resp);
		free(l);
		return NULL;
	}
	memcpy(l->n, r->n, (size_t)S->notify_size);
	l->sysname = r->sysname;
	l->tid = r->tid;
	l->tgid = r->tgid;
	l->ppid = r->ppid;
	/* Its decision is logged: the answer adds no line (a failure included, as before). */
	l->log = LOG_COMMITTED;
	l->hop_fd = l->degraded_fifo = l->fetch_fd = l->installed = -1;
	/* What its restart is compared with (restart.c), and the hold as the thread's server. */
	l->gone = r->gone;
	l->since = r->since;
	l->nreads = r->nreads;
	memcpy(l->reads, r->reads, sizeof(r->reads));
	l->busy = r->busy;
	r->busy = false;
	r->replied = true; /* the copy answers */
	return l;
}

void req_later_cancel(struct req *r, struct req *l)
{
	r->busy = l->busy;
	l->busy = false;
	r->replied = false;
	req_later_free(l);
}

void req_later_free(struct req *l)
{
	restart_end(l);
	free(l->n);
	free(l->resp);
	free(l);
}

void req_later_answer(struct req *l, int rc)
{
	if (rc != -ESRCH)
		commit(l, rc);
	req_later_free(l);
}

/*
 * Answer a restarted call as ward answered it before (restart.c): no
 * line, nothing decided or done again.
 */
static void replay(struct req *r, const struct replay *a)
{
	switch (a->kind) {
	case REPLAY_VALUE:
		r->log = LOG_QUIET;
		r->result = a->result;
		commit(r, a->rc);
		break;
	case REPLAY_FD:
		r->log = LOG_COMMITTED;
		commit(r, req_answer_fd(r, a->fd, a->cloexec, a->writable));
		break;
	case REPLAY_INSTALLED:
		r->log = LOG_QUIET;
		r->installed = a->fd;
		r->installed_ino = a->ino;
		r->installed_mnt = a->mnt;
		r->installed_flags = a->flags;
		commit(r, req_answer_value(r, a->fd));
		break;
	}
}

/*
 * A vfork or posix_spawn child's exec can reach ward before the tracer saw
 * its creator's event (the child's own first stop came first), so that
 * whose memory it runs in, and whether the library is there, is not known
 * yet: its parent's, when the kernel says they share one memory.  Only
 * for an exec, which is what such a child is for.  0 when not so.
 */
static pid_t vm_parent(pid_t tid)
{
	pid_t tgid, ppid, owner;

	if (!proc_info(tid, &tgid, &ppid, NULL, 0) || tgid != tid || ppid <= 0)
		return 0;
	if (syscall(SYS_kcmp, tid, ppid, KCMP_VM, 0, 0) != 0 || !proc_preload(ppid, &owner))
		return 0;
	return ppid;
}

int req_hint(struct req *r, const uint8_t *addr)
{
	pid_t owner = 0, parent;
	int fam = hint_family_of(r->n->data.nr), rc = 0;

	if (r->hint_state != 0 &&
	    (addr == NULL || (r->hint_has_addr && memcmp(addr, r->hint_addr, 16) == 0)))
		return r->hint_state > 0;
	r->hint_state = -1;
	/* Nothing to read: no library in the session, or a call it does not describe. */
	if (S->preload.base == 0 || fam == 0)
		return 0;
	bool loaded = proc_preload(r->tid, &owner);
	if (!loaded && fam != WARD_HF_EXEC)
		return 0; /* a program without the library */
	r->hint_has_addr = addr != NULL;
	if (addr != NULL)
		memcpy(r->hint_addr, addr, 16);
	uint64_t args[6];
	for (int i = 0; i < 6; i++)
		args[i] = r->n->data.args[i];
	if (loaded)
		rc = hint_read(r->tid, owner, S->preload.base, r->n->data.nr, args, addr,
			       S->preload.backtrace, &r->hint);
	if (rc == 0 && fam == WARD_HF_EXEC && (!loaded || owner == r->tid) && (parent = vm_parent(r->tid)) > 0)
		rc = hint_read(r->tid, parent, S->preload.base, r->n->data.nr, args, addr,
			       S->preload.backtrace, &r->hint);
	/*
	 * The thread could be gone and its id another's: what was read is then
	 * no hint of its.  req_alive, not req_valid: the handler goes on either
	 * way (a hint is read for the log line, after the decision), and may
	 * perform the call; its answer must still be kept for a restart.
	 */
	if (rc > 0 && req_alive(r))
		r->hint_state = 1;
	return r->hint_state > 0;
}

static void serve(struct req *r)
{
	int nr = r->n->data.nr, rc;
	const struct dispatch *d = nr >= 0 && nr < MAX_NR ? &dispatch[nr] : NULL;

	r->tid = (pid_t)r->n->pid;
	bool known = proc_info(r->tid, &r->tgid, &r->ppid, r->exe, sizeof(r->exe));
	if (!known) {
		r->tgid = r->tid;
		r->ppid = 0;
		r->exe[0] = '\0';
	}
	r->sysname = d && d->name ? d->name : "unknown";
	r->event = EV_ACCESS;
	r->dec = (struct decision){ .outcome = DEC_NONE };
	r->sig_target = r->sig_num = 0; /* a signal line names this call's, never a former one's */
	r->log = LOG_PENDING;
	r->hop_fd = -1;
	r->degraded_fifo = -1;
	r->result = 0;
	r->replied = false;
	r->batch_reads = false;
	r->gone = false;
	r->nreads = 0;
	r->installed = -1;
	r->fails_anyway = NULL;
	r->exec_argv = NULL;
	r->exec_argv_id = NULL;
	r->exec_argv_len = r->exec_argv_total = 0;
	r->ask_host = NULL;
	r->hint_state = 0;
	r->hint_host[0] = '\0';

	struct replay again;
	switch (restart_begin(r, &again)) {
	case RESTART_GONE:
		restart_end(r);
		return;
	case RESTART_ANSWER:
		replay(r, &again);
		restart_end(r);
		return;
	case RESTART_SERVE:
		break;
	}

	sighold_received(r->tid);
	if (d == NULL || d->fn == NULL || r->n->data.arch != AUDIT_ARCH_X86_64) {
		/* The filter notifies only what the table lists: anything else is denied. */
		rc = -ENOSYS;
	} else if (d->signals_first && sighold_holding(r->tid)) {
		/*
		 * The restart of a call a signal aborted before ward received
		 * it, which the kernel would make itself, and may wait in until
		 * a signal comes, or which resets the handlers: the signals ward
		 * held back are delivered first (sighold.c), then the kernel
		 * restarts the call, which is decided then.  Nothing is decided
		 * now, so there is nothing to log.
		 */
		req_quiet(r);
		rc = -ERESTARTNOINTR;
	} else if (!known) {
		/*
		 * Every traced task is in the table before it runs (new tasks wait
		 * at their first ptrace stop until the tracer adds them): a caller
		 * that is not escaped the tracer, and gets nothing.
		 */
		rc = -EPERM;
	} else {
		rc = d->fn(r);
		if (rc == -E_FETCH && S->degraded) {
			/*
			 * --degraded without pidfd_getfd: the tracer fetches the
			 * agent's fd (r->fetch_fd) and makes the call again, which
			 * is decided then.  Nothing was decided now: nothing logged.
			 */
			req_quiet(r);
			degraded_fetch(r->n->id, r->fetch_fd);
			restart_end(r);
			return;
		}
		/*
		 * The call is over: ward's copies of the fds fetched for it go
		 * (kept, they would hold the agent's sockets open after its
		 * close: a peer would never see the end).
		 */
		if (S->degraded && !S->feat.pidfd_getfd)
			degraded_fetched_done(r->tid);
		/*
		 * Only a row that says why (syscalls.h: MAY_CONTINUE) may let the
		 * kernel run the call: a 0 from any other handler would be a bug,
		 * and fails closed rather than continue a call whose arguments it
		 * read.
		 */
		if (rc == 0 && d->may_continue == NULL)
			rc = -EACCES;
		if (rc == -E_FOREIGN_PROC || rc < -4095)
			rc = -EACCES; /* an internal code is never an answer */
		if (rc == -ERESTARTNOINTR)
			rc = -EACCES; /* sighold's alone, above */
	}
	commit(r, rc);
	restart_end(r);
}

/*
 * At most RECV_WAITERS workers wait in RECV at once; the others park on
 * park_gen until the last one in RECV takes a notification.  The kernel's
 * wait in RECV is not exclusive: a notification wakes every thread waiting
 * there (and with SYNC_WAKE_UP moves them all to the caller's CPU), and
 * all but one find nothing and sleep again.  With two workers a CPU in
 * RECV that is 31 wasted wakeups a call on a 16-CPU machine: an emulated
 * open took 97 us in bench/notify_rtt with 32 threads in RECV, 25 us with
 * one.  Four, not one: on this project's two-CPU machine one waiter (a
 * lock around RECV, handed on at each call) made the workload 14% slower
 * than four; the others' wakeups keep the second CPU from halting.
 */
#define RECV_WAITERS 4
static atomic_int in_recv, parked;
static atomic_uint park_gen; /* a futex word: bumped to let a parked worker in */

static void recv_enter(void)
{
	for (;;) {
		unsigned gen = atomic_load(&park_gen);
		int n = atomic_load(&in_recv);
		if (n < RECV_WAITERS) {
			if (atomic_compare_exchange_weak(&in_recv, &n, n + 1))
				return;
			continue;
		}
		/* A bump after gen was read makes the wait return at once: no wakeup is lost. */
		atomic_fetch_add(&parked, 1);
		syscall(SYS_futex, &park_gen, FUTEX_WAIT_PRIVATE, gen, NULL, NULL, 0);
		atomic_fetch_sub(&parked, 1);
	}
}

static void recv_leave(void)
{
	if (atomic_fetch_sub(&in_recv, 1) == 1) {
		/* The last one in RECV took a call: let a parked worker in. */
		atomic_fetch_add(&park_gen, 1);
		if (atomic_load(&parked) > 0)
			syscall(SYS_futex, &park_gen, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	}
}

static void *worker(void *arg)
{
	struct req *r = arg;

	/*
	 * A umask of its own: each worker sets the agent's umask before it
	 * creates a file for it, so that the kernel applies it exactly as for
	 * the agent (and not at all under a default ACL).
	 */
	if (unshare(CLONE_FS) < 0)
		return NULL;
	wake_mask(SIG_BLOCK);

	for (;;) {
		memset(r->n, 0, (size_t)S->notify_size);
		/* Before RECV: a stop the tracer sees later may be this call's (restart.c). */
		r->since = restart_now();
		if (S->degraded) {
			/* The tracer's queue, not the listener (degraded.c). */
			if (degraded_take(r->n) < 0)
				break;
			serve(r);
			continue;
		}
		recv_enter();
		int got = ioctl(S->listener, SECCOMP_IOCTL_NOTIF_RECV, r->n), e = errno;
		recv_leave();
		if (got < 0) {
			if (e == EINTR)
				continue;
			/*
			 * ENOENT: the caller went away before it was received, or no
			 * task is left under the filter, in which case RECV fails at
			 * once, every time, and the listener reads as hung up.
			 */
			struct pollfd p = { .fd = S->listener, .events = POLLIN };
			if (e == ENOENT && !(poll(&p, 1, 0) == 1 && (p.revents & (POLLHUP | POLLERR))))
				continue;
			break; /* the session is over */
		}
		serve(r);
	}
	/*
	 * The session is over and ward is about to exit: wait for that here
	 * rather than end the thread, whose buffers (its request, the
	 * handlers' thread-local ones) would then be lost to no one's use.
	 */
	for (;;)
		pause();
	return NULL;
}

/* Start one more worker: at start, or with pool_lock held. */
static int start_worker(void)
{
	struct req *r = calloc(1, sizeof(*r));
	pthread_attr_t attr;
	int rc;

	if (r == NULL)
		return -ENOMEM;
	if (nworkers >= MAX_WORKERS) {
		free(r);
		return -EAGAIN;
	}
	r->n = calloc(1, (size_t)S->notify_size);
	r->resp = calloc(1, (size_t)S->resp_size);
	if (r->n == NULL || r->resp == NULL) {
		rc = -ENOMEM;
		goto fail;
	}
	pthread_attr_init(&attr);
	/* Room for the handlers' static TLS (a few hundred KiB) and the glob scratch. */
	pthread_attr_setstacksize(&attr, 4 << 20);
	rc = pthread_create(&workers[nworkers], &attr, worker, r);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		rc = -EAGAIN;
		goto fail;
	}
	nworkers++;
	return 0;
fail:
	free(r->n);
	free(r->resp);
	free(r);
	return rc;
}

int notify_start(int n)
{
	if (wake_setup() < 0)
		return -errno;
	for (int i = 0; i < n && i < MAX_WORKERS; i++) {
		int rc = start_worker();
		if (rc < 0)
			return rc;
	}
	return 0;
}

/*
 * A blocking connect or send holds its worker until the kernel is done
 * (a connect to a silent host: minutes).  Keep two workers free for
 * everything else by starting more while some wait.
 *
 * While it waits, a timer of the worker's own interrupts its call every
 * 100 ms (WAKE_SIG, a handler that does nothing, no SA_RESTART), so that
 * the caller can look whether the agent got a signal meanwhile
 * (agent_interrupted) and answer EINTR as the kernel would have: the
 * agent is stuck in ward's notification until then, and not even a
 * fatal signal reaches a traced task there.
 */
#define WAKE_SIG (SIGRTMIN + 3)
static __thread timer_t wake_timer;
static __thread bool wake_timer_made;

static void on_wake(int sig)
{
	(void)sig;
}

static int wake_setup(void)
{
	struct sigaction sa = { .sa_handler = on_wake }; /* no SA_RESTART: the call returns */
	sigemptyset(&sa.sa_mask);
	return sigaction(WAKE_SIG, &sa, NULL);
}

static bool wake_every(long ns)
{
	struct itimerspec it = { { 0, ns }, { 0, ns } };

	if (!wake_timer_made) {
		struct sigevent ev = { .sigev_notify = SIGEV_THREAD_ID, .sigev_signo = WAKE_SIG };
		ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
		if (timer_create(CLOCK_MONOTONIC, &ev, &wake_timer) < 0)
			return false; /* the call is then not interruptible; it still ends */
		wake_timer_made = true;
	}
	return timer_settime(wake_timer, 0, &it, NULL) == 0;
}

/* WAKE_SIG reaches a worker only inside a blocking call: elsewhere it is blocked. */
static void wake_mask(int how)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, WAKE_SIG);
	pthread_sigmask(how, &set, NULL);
}

bool interruptible_begin(void)
{
	bool on = wake_every(100 * 1000 * 1000);
	wake_mask(SIG_UNBLOCK);
	return on;
}

void interruptible_end(void)
{
	sigset_t set;
	struct timespec zero = { 0, 0 };

	wake_every(0);
	wake_mask(SIG_BLOCK);
	/* One may have come after the call returned: take it, so none is left pending. */
	sigemptyset(&set);
	sigaddset(&set, WAKE_SIG);
	while (sigtimedwait(&set, NULL, &zero) == WAKE_SIG)
		;
}

void interruptible_exit(void)
{
	if (wake_timer_made) {
		timer_delete(wake_timer);
		wake_timer_made = false;
	}
}

void notify_blocking_begin(void)
{
	pthread_mutex_lock(&pool_lock);
	nblocked++;
	if (nworkers - nblocked < 2)
		start_worker();
	pthread_mutex_unlock(&pool_lock);
	interruptible_begin();
}

void notify_blocking_end(void)
{
	interruptible_end();
	pthread_mutex_lock(&pool_lock);
	nblocked--;
	pthread_mutex_unlock(&pool_lock);
}

/* Signals whose default action ends the process (the others do not interrupt a call). */
static uint64_t fatal_by_default(void)
{
	uint64_t m = ~0ULL;
	static const int harmless[] = { SIGCHLD, SIGCONT, SIGURG, SIGWINCH,
					SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU };
	for (size_t i = 0; i < sizeof(harmless) / sizeof(harmless[0]); i++)
		m &= ~(1ULL << (harmless[i] - 1));
	return m;
}

int agent_interrupted(struct req *r)
{
	return agent_interrupted_id(r->n->id, r->tid);
}

/* What /proc/TID/status says of a thread's signals. */
struct sigstate {
	uint64_t own, shared, blk, ign, cgt; /* SigPnd, ShdPnd, SigBlk, SigIgn, SigCgt */
	long threads;
};

static int read_sigstate(uint64_t id, pid_t tid, struct sigstate *st)
{
	char path[64], line[256];
	uint64_t v;
	FILE *f;

	*st = (struct sigstate){ .threads = 0 };
	if (S->degraded ? !degraded_alive(id) : ioctl(S->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0)
		return -ESRCH; /* the agent is gone (killed): nobody waits for the answer */
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (f == NULL)
		return -ESRCH;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (sscanf(line, "SigPnd: %" SCNx64, &v) == 1)
			st->own = v;
		else if (sscanf(line, "ShdPnd: %" SCNx64, &v) == 1)
			st->shared = v;
		else if (sscanf(line, "SigBlk: %" SCNx64, &v) == 1)
			st->blk = v;
		else if (sscanf(line, "SigIgn: %" SCNx64, &v) == 1)
			st->ign = v;
		else if (sscanf(line, "SigCgt: %" SCNx64, &v) == 1)
			st->cgt = v;
		else if (strncmp(line, "Threads:", 8) == 0)
			st->threads = atol(line + 8);
	}
	fclose(f);
	/* Signals the tracer holds back for the thread are pending to it, under its own mask. */
	uint64_t held, mask;
	if (sighold_held(tid, &held, &mask)) {
		st->own |= held;
		st->blk = mask;
	}
	return 0;
}

/* The signals of m that would interrupt the thread: handled, or ending it. */
static uint64_t acting(const struct sigstate *st, uint64_t m)
{
	return m & ~st->blk & (st->cgt | (fatal_by_default() & ~st->ign));
}

bool agent_ignores(struct req *r, int sig)
{
	struct sigstate st;
	uint64_t bit = 1ULL << (sig - 1);

	/* Unknown counts as not ignored: the caller then acts as for the kernel's default. */
	if (read_sigstate(r->n->id, r->tid, &st) < 0)
		return false;
	return (st.blk | st.ign) & bit;
}

int agent_interrupted_id(uint64_t id, pid_t tid)
{
	struct sigstate st;
	int rc = read_sigstate(id, tid, &st);

	if (rc < 0)
		return rc;
	/* A signal the agent handles, or one that ends it, interrupts its call. */
	return acting(&st, st.own | st.shared) ? -EINTR : 0;
}

/*
 * The signals of m that every other thread of tid's process blocks: a
 * process-wide one of them only tid can take.  0 when a thread's mask
 * cannot be read.
 */
static uint64_t blocked_by_others(pid_t tid, uint64_t m)
{
	char path[64], line[256];
	struct dirent *e;
	uint64_t v;

	snprintf(path, sizeof(path), "/proc/%d/task", tid);
	DIR *d = opendir(path);
	if (d == NULL)
		return 0;
	while (m != 0 && (e = readdir(d)) != NULL) {
		pid_t t = (pid_t)atoi(e->d_name);
		if (t <= 0 || t == tid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/status", tid, t);
		FILE *f = fopen(path, "re");
		if (f == NULL) {
			if (errno != ENOENT && errno != ESRCH)
				m = 0;
			continue; /* (a thread gone meanwhile takes nothing) */
		}
		bool read = false;
		while (fgets(line, sizeof(line), f) != NULL)
			if (sscanf(line, "SigBlk: %" SCNx64, &v) == 1) {
				m &= v;
				read = true;
			}
		fclose(f);
		if (!read)
			m = 0;
	}
	closedir(d);
	return m;
}

int agent_restart_id(uint64_t id, pid_t tid)
{
	struct sigstate st;
	int rc = read_sigstate(id, tid, &st);

	if (rc < 0)
		return rc;
	/*
	 * Only a signal this thread will take on its way out: one of its own,
	 * or a process-wide one when it is the only thread, or when every
	 * other thread blocks it (a program's signal thread does the
	 * opposite; a thread that takes it first would leave the call the bare
	 * ERESTARTSYS, which the kernel hands back to the program: so a
	 * thread that unblocks it just then can).
	 */
	uint64_t shared = acting(&st, st.shared);
	if (acting(&st, st.own) || (shared != 0 && st.threads == 1))
		return -ERESTARTSYS;
	if (shared == 0 || (shared = blocked_by_others(tid, shared)) == 0)
		return 0;
	/*
	 * Still pending once every other thread was seen blocking it: one
	 * that took it in between (it unblocked it a moment) took it away.
	 */
	if ((rc = read_sigstate(id, tid, &st)) < 0)
		return rc;
	return acting(&st, st.shared) & shared ? -ERESTARTSYS : 0;
}

void notify_stop(void)
{
	/* Closing the listener ends every RECV with an error. */
	pthread_mutex_lock(&pool_lock);
	int n = nworkers;
	for (int i = 0; i < n; i++)
		pthread_cancel(workers[i]);
	pthread_mutex_unlock(&pool_lock);
	for (int i = 0; i < n; i++)
		pthread_join(workers[i], NULL);
	nworkers = 0;
}
