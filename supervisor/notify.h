/*
 * notify.h - the notification layer (notify.c): workers RECV a
 * notification, dispatch it through the syscall table (syscalls.h) to its
 * handler, log and answer; and the request a handler serves (struct req),
 * with the decisions taken on it (decide.c).
 */
#ifndef WARD_NOTIFY_H
#define WARD_NOTIFY_H

#include "session.h"
#include "ward_rules.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- a notification being served ---- */

struct req {
	struct seccomp_notif *n;
	struct seccomp_notif_resp *resp;
	const char *sysname;
	pid_t tid, tgid, ppid;
	char exe[256];
	bool logged;
	/* scratch for the handler, so the path needs no malloc */
	char path[4096];
	char path2[4096];
	char real[4096];
	char real2[4096];
	char logged_path[4096]; /* the path of the last decision, for the log */
	/* what the log line says */
	const char *op;
	const char *log_path;
	const char *log_to;
	const struct ward_verdict *verdict;
	const char *by;
	const char *reason; /* why ward refused what the policy allowed (refuse()), or NULL */
	int64_t result; /* the value returned when > 0 is returned by a handler */
	bool replied;	/* the handler sent the reply itself (ADDFD_FLAG_SEND) */
	bool denied_by_shadow;
	int decided; /* decide_path's answer: 0 allow, 1 rewrite, <0 deny; 2 none yet */
	const char *event; /* "access" unless a handler says otherwise */
	struct ward_verdict vcopy; /* the last verdict, kept for the log line */
	bool batch_reads; /* mem_read*: the caller checks NOTIF_ID_VALID after the batch */
	bool trailing_slash; /* the last path resolved ended in '/' */
	pid_t hop_tid; /* the agent fd a walk ended on: thread and fd (-1: none) */
	int hop_fd;
	int sig_target, sig_num;
	/* a network decision, for the log (event "connect" or "bind") */
	char net_addr[160]; /* "127.0.0.1", "::1", "unix:/real/path", "unix-abstract:NAME" */
	int net_port;	    /* -1: none */
	char net_host[256]; /* the verified name that took part, "" when none */
};

/*
 * A handler serves one notification.  It returns
 *   < 0  deny: the call fails with that errno (negated),
 *   0    continue: the kernel runs the call itself; only where the
 *        decision depended on registers alone, said in a comment there,
 *   > 0  handled: the call was emulated; r->result is its return value,
 *        or r->replied says the reply is already sent.
 */
/*
 * A handler serves one notification.  It returns
 *   < 0  deny: the call fails with that errno (negated),
 *   0    continue: the kernel runs the call itself; only where the
 *        decision depended on registers alone, said in a comment there,
 *   > 0  handled: the call was emulated; r->result is its return value,
 *        or r->replied says the reply is already sent.
 */
typedef int (*handler_fn)(struct req *r);

/* Start n workers on S->listener; stop them all. */
int notify_start(int nworkers);
void notify_stop(void);

/* decide.c: one decision (policy, cache, shadow mode, undecided), and its log fields */
int decide_path(struct req *r, enum ward_op op, const char *path,
		struct ward_verdict *v);
/*
 * A refusal of ward's own, after the policy allowed each part (or where it
 * has nothing to say): logged as a deny with the reason.  Returns -err.
 */
int refuse(struct req *r, int err, const char *why);
/*
 * One more decision for the same call: log the one before it, then
 * decide op on path.  0 to go on, or a denial (a rewrite is refused:
 * only opens are rewritten).
 */
int decide_also(struct req *r, enum ward_op op, const char *path);
/*
 * Log the decision taken so far, and start the next one for the same
 * call (a failure before it is logged as no decision's).  -EACCES when
 * the line cannot be written.
 */
int decide_next(struct req *r);

/*
 * After a decision on another process's /proc path: whatever the policy
 * said, the call is refused (ward never walks there), and logged so.
 */
static inline int foreign_denied(struct req *r, int rc)
{
	if (rc >= 0)
		r->decided = -EACCES;
	return rc < 0 ? rc : -EACCES;
}

/* A network decision on t (decide.c); sets the log fields as decide_path does. */
int decide_net(struct req *r, enum ward_op op, const struct ward_net_target *t);

/* notify.c: a worker about to make a call that may block (a blocking
 * connect or send) says so, so that the pool keeps a free worker. */
void notify_blocking_begin(void);
void notify_blocking_end(void);
/*
 * While blocked: -EINTR when the agent thread has a signal pending that
 * would have interrupted its call, -ESRCH when the call is gone, else 0.
 */
int agent_interrupted(struct req *r);
/* The same for a notification id and the thread waiting on it. */
int agent_interrupted_id(uint64_t id, pid_t tid);
/*
 * -ERESTARTSYS when a signal is on its way to the thread waiting on id
 * (the call is to be answered so: the kernel restarts it after a handler
 * with SA_RESTART, and fails it with EINTR otherwise, as for its own
 * waits), -ESRCH when the caller is gone, else 0.
 */
#define ERESTARTSYS 512
int agent_restart_id(uint64_t id, pid_t tid);
/* True when the agent's thread blocks or ignores sig. */
bool agent_ignores(struct req *r, int sig);
/*
 * Around a blocking call on a thread that is not a worker (a FIFO's open):
 * it is interrupted every 100 ms (EINTR), to look at agent_interrupted_id.
 */
void interruptible_begin(void);
void interruptible_end(void);
/* A thread that is not a worker, before it ends: its timer goes too. */
void interruptible_exit(void);

#endif
