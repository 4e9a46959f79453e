/*
 * restart.h - a call the kernel restarts, answered once (restart.c): what
 * replaces SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV before Linux 5.19.
 */
#ifndef WARD_RESTART_H
#define WARD_RESTART_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct req;

/* An answer kept for a call the kernel refused it to (ENOENT), to give its restart. */
struct replay {
	enum { REPLAY_VALUE, REPLAY_FD, REPLAY_INSTALLED } kind;
	int rc;		/* VALUE: what the handler returned (< 0 an errno, > 0 result) */
	int64_t result; /* VALUE: the call's return value when rc > 0 */
	int fd;		/* FD: ward's copy to install; INSTALLED: the agent's number */
	bool cloexec, writable;
	uint64_t ino, mnt, flags; /* INSTALLED: what the agent's fd must still be */
};

enum restart_step {
	RESTART_SERVE,	/* serve the call */
	RESTART_ANSWER, /* the restart of a call ward performed: answer the replay */
	RESTART_GONE,	/* its caller went away meanwhile: nothing to answer */
};

/*
 * Before a worker serves r.  A call of a thread whose earlier call
 * another worker still serves waits for that one to end first.  With
 * RESTART_ANSWER, r holds the first call's reads, so that the answer is
 * kept again should this call be interrupted too.
 */
enum restart_step restart_begin(struct req *r, struct replay *a);
/* r's answer is delivered, or nobody waits for it: the thread's next call need not wait. */
void restart_end(struct req *r);
/*
 * r's answer was sent (lost: the kernel refused it with ENOENT, the call
 * was interrupted or its thread is gone): keep it for a restarted call.
 * rc is what the handler returned (r->result its value, r->installed an
 * fd ADDFD put in the agent).
 */
void restart_keep(struct req *r, int rc, bool lost);
/*
 * ADDFD could not install ward's fd for r: keep it (taken: true) for the
 * restarted call; false when it is not kept, and the caller closes it.
 */
bool restart_keep_fd(struct req *r, int fd, bool cloexec, bool writable);
/*
 * The tracer saw the thread tid stopped for a signal in the call nr at
 * ip with args, interrupted (-ERESTARTSYS): the kernel may restart it.
 */
void restart_interrupted(pid_t tid, int nr, uint64_t ip, const uint64_t args[6]);
/* Whether any of this runs (no WAIT_KILLABLE_RECV); restart_now: what a request's since is. */
bool restart_active(void);
uint64_t restart_now(void);
/* The thread tid has ended: what was kept for it goes (tracer). */
void restart_forget(pid_t tid);
/* How many restarted calls were answered from what ward had done (session-end). */
unsigned long restart_answered(void);

#endif
