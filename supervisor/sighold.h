/*
 * sighold.h - signals that reach a thread before ward has received its
 * notified call (sighold.c): held back by the tracer until ward has
 * answered the call, then delivered as they came.
 */
#ifndef WARD_SIGHOLD_H
#define WARD_SIGHOLD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- the tracer thread's (each one resumes the stopped thread tid) ---- */

/*
 * tid is at the delivery stop of signal sig: hold it back when it aborted
 * a notified call before ward received it, or give it back the siginfo it
 * came with when it is one ward held and sent again; then resume tid.
 */
void sighold_signal_stop(pid_t tid, int sig);
/* tid is at a system call stop (only a thread holding signals has them). */
void sighold_syscall_stop(pid_t tid);
/* Resume tid after any other stop, delivering sig (0: none). */
void sighold_resume(pid_t tid, int sig);
/* tid is gone: forget what was held for it. */
void sighold_forget(pid_t tid);
/* The thread former exec'd and is tid now (the same id, or its leader's). */
void sighold_exec(pid_t former, pid_t tid);

/* ---- the workers' ---- */

/*
 * ward is about to answer tid's call -ERESTARTSYS (a signal is on its
 * way): the signal that follows is the kernel's to deliver as it is.
 */
void sighold_restart_answered(pid_t tid);
/* A worker received a call of tid's: an earlier mark that no signal followed is stale. */
void sighold_received(pid_t tid);
/* Signals are held for tid: its call is the restart of one they aborted. */
bool sighold_holding(pid_t tid);
/*
 * Signals ward holds for tid (bit sig-1 set for each), and the mask the
 * thread had before ward blocked them: what the thread's signal state
 * really is while ward holds them.  false: none held.
 */
bool sighold_held(pid_t tid, uint64_t *held, uint64_t *mask);

#endif
