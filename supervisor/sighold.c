/*
 * sighold.c - signals that reach a thread before ward has received its
 * notified call.
 *
 * A notified call waits in the kernel for ward's answer.  Once a worker
 * has received it (RECV), the wait is killable only
 * (SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV); before that it is
 * interruptible, and a signal arriving then aborts the call with
 * -ERESTARTSYS: without SA_RESTART the program sees EINTR from an open,
 * a rename or a kill that natively never fails so, and with SA_RESTART a
 * timer faster than ward's round trip restarts the call for ever.
 *
 * So the tracer holds such a signal back.  At its delivery stop (the
 * call's number in orig_rax, -ERESTARTSYS in rax, a call the filter
 * notifies, and no answer of ward's own that said -ERESTARTSYS), the
 * signal is taken off the thread (resumed without it), blocked in the
 * thread's mask so that it cannot abort the call again, and the thread is
 * resumed with PTRACE_SYSCALL: the kernel restarts the call, which is
 * notified anew.  At the call's exit stop the mask is put back and each
 * held signal is sent again (tgkill); at its delivery stop it gets back
 * the siginfo it first came with.  The program sees what it would have
 * natively: the call done, then the signal, as for a call that does not
 * wait.  While signals are held, ward's own waits (a blocking connect, a
 * FIFO's open) count them as pending (sighold_held), so that such a call
 * is still interrupted as the kernel would interrupt it.
 *
 * A call the kernel itself then makes and may wait in (System V IPC, an
 * ioctl), or that resets the handlers (exec), must not run with the
 * signal held: for those rows (MAY_CONTINUE_SIGNALS_FIRST, syscalls.h)
 * ward answers -ERESTARTNOINTR instead of letting it continue, the held
 * signals are delivered, and the kernel restarts the call after them.
 *
 * The tracer thread does every ptrace call here; workers read the table
 * and mark their own -ERESTARTSYS answers, under the lock.
 */
#include "sighold.h"
#include "filter.h"
#include "session.h"

#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <unistd.h>
#include <uthash.h>

#define ERESTARTSYS 512
#define ERESTARTNOINTR 513
#define ERESTARTNOHAND 514
#define ERESTART_RESTARTBLOCK 516
/* The most signals held for one thread: one of each standard signal, and room for queued ones. */
#define MAX_HELD 64

struct hold {
	pid_t tid;
	bool holding;	       /* the call is being restarted, signals held */
	bool restart_answered; /* ward answered the call -ERESTARTSYS (or let it continue) */
	uint64_t mask;	       /* the thread's own mask, while holding */
	int nheld, nresent;
	siginfo_t held[MAX_HELD];   /* held, in the order they came */
	siginfo_t resent[MAX_HELD]; /* sent again, not yet delivered */
	UT_hash_handle hh;
};

static struct hold *table;
static atomic_int entries; /* lets the workers skip the lock when nothing is held anywhere */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

static uint64_t bit(int sig)
{
	return 1ULL << (sig - 1);
}

/* With the lock held. */
static struct hold *find(pid_t tid)
{
	struct hold *h;
	HASH_FIND_INT(table, &tid, h);
	return h;
}

static struct hold *find_or_add(pid_t tid)
{
	struct hold *h = find(tid);
	if (h != NULL)
		return h;
	h = calloc(1, sizeof(*h));
	if (h == NULL)
		return NULL;
	h->tid = tid;
	HASH_ADD_INT(table, tid, h);
	atomic_fetch_add(&entries, 1);
	return h;
}

/* An entry with nothing left in it goes. */
static void drop_if_idle(struct hold *h)
{
	if (h == NULL || h->holding || h->restart_answered || h->nresent > 0)
		return;
	HASH_DEL(table, h);
	atomic_fetch_sub(&entries, 1);
	free(h);
}

static void resume(pid_t tid, bool holding, int sig)
{
	/* --degraded under another listener stops at every call (degraded.c). */
	ptrace(holding || S->degraded_entry ? PTRACE_SYSCALL : PTRACE_CONT, tid, 0, sig);
}

void sighold_resume(pid_t tid, int sig)
{
	bool holding = false;

	if (atomic_load(&entries) > 0) {
		pthread_mutex_lock(&lock);
		struct hold *h = find(tid);
		holding = h != NULL && h->holding;
		pthread_mutex_unlock(&lock);
	}
	resume(tid, holding, sig);
}

/*
 * Was tid's call aborted by this signal before ward received it?  It was
 * when the call is one the filter notifies and the kernel left
 * -ERESTARTSYS for it, which the notification's interrupted wait does,
 * and ward did not answer so itself (the caller checks that).
 */
static bool aborted_unreceived(pid_t tid)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, tid, 0, &regs) < 0)
		return false;
	if ((long long)regs.rax != -ERESTARTSYS || (long long)regs.orig_rax < 0)
		return false;
	const uint64_t args[6] = { regs.rdi, regs.rsi, regs.rdx, regs.r10, regs.r8, regs.r9 };
	return filter_notifies((int)regs.orig_rax, args);
}

/* Hold sig (its siginfo si) for h's thread, stopped at its delivery: true when held. */
static bool hold(struct hold *h, int sig, const siginfo_t *si)
{
	uint64_t mask;

	if (ptrace(PTRACE_GETSIGMASK, h->tid, sizeof(mask), &mask) < 0)
		return false;
	bool queued = sig >= 32; /* the kernel's first real-time signal: each one queued */
	bool already = false;
	for (int i = 0; i < h->nheld && !queued; i++)
		already = already || h->held[i].si_signo == sig;
	if (!already && h->nheld >= MAX_HELD)
		return false; /* delivered now: an EINTR, as without ward's help */
	if (ptrace(PTRACE_SETSIGMASK, h->tid, sizeof(mask), &(uint64_t){ mask | bit(sig) }) < 0)
		return false;
	if (!h->holding) {
		h->mask = mask;
		h->holding = true;
	}
	/* A standard signal already pending is one signal, natively too. */
	if (!already)
		h->held[h->nheld++] = *si;
	return true;
}

void sighold_signal_stop(pid_t tid, int sig)
{
	siginfo_t si;
	struct hold *h = NULL;

	/* Most signals come to a thread that holds none, between calls: one register read. */
	if (atomic_load(&entries) == 0 && !aborted_unreceived(tid)) {
		resume(tid, false, sig);
		return;
	}
	pthread_mutex_lock(&lock);
	h = find(tid);
	/* One ward sent again: it goes with the siginfo it first had. */
	for (int i = 0; h != NULL && i < h->nresent; i++) {
		if (h->resent[i].si_signo != sig)
			continue;
		if (ptrace(PTRACE_GETSIGINFO, tid, 0, &si) == 0 && si.si_code == SI_TKILL &&
		    si.si_pid == getpid())
			ptrace(PTRACE_SETSIGINFO, tid, 0, &h->resent[i]);
		/* (Else it merged with one sent since, which natively it would have too.) */
		memmove(&h->resent[i], &h->resent[i + 1], (size_t)(h->nresent - i - 1) * sizeof(si));
		h->nresent--;
		bool holding = h->holding;
		drop_if_idle(h);
		pthread_mutex_unlock(&lock);
		resume(tid, holding, sig);
		return;
	}
	bool answered = h != NULL && h->restart_answered;
	if (answered)
		h->restart_answered = false;
	if (!answered && aborted_unreceived(tid) && ptrace(PTRACE_GETSIGINFO, tid, 0, &si) == 0) {
		struct hold *n = find_or_add(tid);
		if (n != NULL && hold(n, sig, &si)) {
			pthread_mutex_unlock(&lock);
			resume(tid, true, 0);
			return;
		}
		h = n;
	}
	bool holding = h != NULL && h->holding;
	drop_if_idle(h);
	pthread_mutex_unlock(&lock);
	resume(tid, holding, sig);
}

/*
 * The held call is over: the thread's own mask back, and each held
 * signal sent again.  With the lock held.  False when none could be sent.
 */
static bool release(struct hold *h)
{
	bool sent = false;

	ptrace(PTRACE_SETSIGMASK, h->tid, sizeof(h->mask), &h->mask);
	h->holding = false;
	for (int i = 0; i < h->nheld; i++) {
		if (h->nresent >= MAX_HELD)
			break;
		/* To this thread, which the signal had reached (stopped here: its id is its own). */
		if (syscall(SYS_tkill, h->tid, h->held[i].si_signo) == 0) {
			h->resent[h->nresent++] = h->held[i];
			sent = true;
		}
	}
	h->nheld = 0;
	return sent;
}

/*
 * A restart code the kernel acts on only when a signal is delivered: with
 * none left to deliver, the thread restarts the call itself, as the
 * kernel does for a signal that is ignored.
 */
static void restart_by_hand(pid_t tid)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, tid, 0, &regs) < 0)
		return;
	regs.rax = regs.orig_rax;
	regs.rip -= 2; /* the syscall instruction again */
	ptrace(PTRACE_SETREGS, tid, 0, &regs);
}

void sighold_syscall_stop(pid_t tid)
{
	struct __ptrace_syscall_info info;

	memset(&info, 0, sizeof(info));
	if (ptrace(PTRACE_GET_SYSCALL_INFO, tid, sizeof(info), &info) < 0)
		info.op = PTRACE_SYSCALL_INFO_NONE;
	pthread_mutex_lock(&lock);
	struct hold *h = find(tid);
	if (h == NULL || !h->holding) {
		/* Not one of ours (cannot happen: only a holding thread is traced so). */
		pthread_mutex_unlock(&lock);
		resume(tid, false, 0);
		return;
	}
	if (info.op != PTRACE_SYSCALL_INFO_EXIT) {
		pthread_mutex_unlock(&lock);
		resume(tid, true, 0);
		return;
	}
	long long rv = info.exit.rval;
	bool answered = h->restart_answered;
	h->restart_answered = false;
	if (rv == -ERESTARTSYS && !answered) {
		/* Aborted again before ward received it, by a signal not held yet: its stop follows. */
		pthread_mutex_unlock(&lock);
		resume(tid, true, 0);
		return;
	}
	bool sent = release(h);
	bool restart = rv == -ERESTARTSYS || rv == -ERESTARTNOINTR || rv == -ERESTARTNOHAND ||
		       rv == -ERESTART_RESTARTBLOCK;
	if (restart && !sent)
		restart_by_hand(tid);
	drop_if_idle(h);
	pthread_mutex_unlock(&lock);
	resume(tid, false, 0);
}

void sighold_forget(pid_t tid)
{
	if (atomic_load(&entries) == 0)
		return;
	pthread_mutex_lock(&lock);
	struct hold *h = find(tid);
	if (h != NULL) {
		HASH_DEL(table, h);
		atomic_fetch_sub(&entries, 1);
		free(h);
	}
	pthread_mutex_unlock(&lock);
}

void sighold_exec(pid_t former, pid_t tid)
{
	/*
	 * An exec is never made while signals are held for its thread (exec
	 * is a MAY_CONTINUE_SIGNALS_FIRST row), and the thread that had the
	 * id before, if another, is gone: nothing is carried over.
	 */
	sighold_forget(former);
	sighold_forget(tid);
}

void sighold_restart_answered(pid_t tid)
{
	pthread_mutex_lock(&lock);
	struct hold *h = find_or_add(tid);
	if (h != NULL)
		h->restart_answered = true;
	pthread_mutex_unlock(&lock);
}

void sighold_received(pid_t tid)
{
	if (atomic_load(&entries) == 0)
		return;
	pthread_mutex_lock(&lock);
	struct hold *h = find(tid);
	if (h != NULL && h->restart_answered) {
		h->restart_answered = false;
		drop_if_idle(h);
	}
	pthread_mutex_unlock(&lock);
}

bool sighold_holding(pid_t tid)
{
	bool holding = false;

	if (atomic_load(&entries) == 0)
		return false;
	pthread_mutex_lock(&lock);
	struct hold *h = find(tid);
	holding = h != NULL && h->holding;
	pthread_mutex_unlock(&lock);
	return holding;
}

bool sighold_held(pid_t tid, uint64_t *held, uint64_t *mask)
{
	bool any = false;

	if (atomic_load(&entries) == 0)
		return false;
	pthread_mutex_lock(&lock);
	struct hold *h = find(tid);
	if (h != NULL && h->holding && h->nheld > 0) {
		*held = 0;
		for (int i = 0; i < h->nheld; i++)
			*held |= bit(h->held[i].si_signo);
		*mask = h->mask;
		any = true;
	}
	pthread_mutex_unlock(&lock);
	return any;
}
