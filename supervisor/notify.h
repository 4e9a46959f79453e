/*
 * notify.h - the notification layer (notify.c): workers RECV a
 * notification, dispatch it through the syscall table (syscalls.h) to its
 * handler, log and answer; and the request a handler serves (struct req),
 * with the decisions taken on it (decide.c).
 */
#ifndef WARD_NOTIFY_H
#define WARD_NOTIFY_H

#include "hint.h"
#include "log.h"
#include "session.h"
#include "ward_rules.h"

#include <errno.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

/* ---- a notification being served ---- */

/* What a decision came to ("decision"; DEC_NONE: none was taken, see log.c). */
enum outcome {
	DEC_NONE,
	DEC_ALLOW,
	DEC_REWRITE,
	DEC_DENY,
	DEC_ERROR, /* an ask not put: the call fails natively anyway (req.fails_anyway) */
};

/* An op of the log that is no policy op: a core dump limit (pid.c). */
#define OP_RLIMIT (1u << WARD_OP_COUNT)

/*
 * One decision of a call, as its log line tells it.  A call may take
 * several (an open for reading and writing, rename, link, an exec and its
 * interpreters): each is logged when the next one starts (decide_next),
 * and the last at the commit point.
 */
struct decision {
	enum outcome outcome;
	unsigned op;	  /* "op": an enum ward_op, OP_RLIMIT, or 0 for none */
	const char *path; /* "path": what the agent named, or what was decided on */
	const char *to;	  /* "to": a rewrite's replacement */
	const struct ward_verdict *verdict; /* "rule": the deciding rule's (NULL: none) */
	enum decided_by by;
	const char *answer; /* "answer": the person's, with BY_PROMPT */
	const char *reason; /* "reason": why ward refused what the policy allowed */
	bool would_deny;    /* "would": "deny", in shadow mode */
	const char *from;   /* a rename's source, for -v when this is about its target */
	bool moot;	    /* refused, but the call would fail natively anyway (ENOTEMPTY) */
};

/*
 * Where the call's log stands.  Every decision is logged before its
 * effect, and the answer is sent after the log: the line is written at
 * the commit point (serve(), notify.c) unless a handler commits it before
 * it acts (req_commit), or there is nothing to log (req_quiet).
 */
enum req_log {
	LOG_PENDING,	     /* the line is written at the commit point, with the call's result */
	LOG_COMMITTED,	     /* written before the effect; the effect's own failure is not logged */
	LOG_COMMITTED_TELLS, /* written before the effect; should the call fail after all, so is that */
	LOG_QUIET,	     /* nothing was decided: no line */
};

struct req {
	struct seccomp_notif *n;
	struct seccomp_notif_resp *resp;
	const char *sysname;
	pid_t tid, tgid, ppid;
	char exe[256];
	/* scratch for the handler, so the path needs no malloc */
	char path[4096];
	char path2[4096];
	char real[4096];
	char real2[4096];
	char other[4096]; /* a rename's source, kept for the decisions about its target (dec.from) */
	/* what the log line says, and whether it is written yet */
	enum log_event event; /* EV_ACCESS unless a handler says otherwise */
	struct decision dec;
	enum req_log log;
	char logged_path[4096];	   /* the path of the last decision */
	struct ward_verdict vcopy; /* the last verdict */
	int sig_target, sig_num;   /* EV_SIGNAL, EV_PROCESS: "target", "signal" */
	/* a network decision (EV_CONNECT, EV_BIND) */
	char net_addr[160]; /* "127.0.0.1", "::1", "unix:/real/path", "unix-abstract:NAME" */
	int net_port;	    /* -1: none */
	char net_host[256]; /* a name ward verified for the address ("host"), "" when none */
	bool net_host_label; /* ...only a name /etc/hosts gives the address: it decided nothing */
	char hint_host[256]; /* a name the process claimed that ward did not verify ("hint_host") */
	/* what the preload library says of this call (req_hint) */
	int hint_state; /* 0: not read yet; 1: read (hint says what matched); -1: none to be had */
	bool hint_has_addr;
	uint8_t hint_addr[16]; /* the address whose name was read with it */
	struct hint hint;
	/* the answer */
	int64_t result; /* the value returned when > 0 is returned by a handler */
	bool replied;	/* the answer is sent already (ADDFD_FLAG_SEND), or nobody waits */
	/* the walk and the agent's memory */
	bool batch_reads; /* mem_read*: the caller checks NOTIF_ID_VALID after the batch */
	bool trailing_slash; /* the last path resolved ended in '/' */
	int walk_hops;	     /* the last walk that succeeded: the symlinks it followed (magic links too) */
	pid_t hop_tid; /* the agent fd a walk ended on: thread and fd (-1: none) */
	int hop_fd;
	/*
	 * A call the kernel may restart (no WAIT_KILLABLE_RECV: restart.c):
	 * the ranges of the agent's memory it read (mem.c records them), and
	 * an fd ADDFD installed whose number is still to be answered.
	 */
	bool gone;	 /* req_valid() found the call gone: nothing it did is kept */
	bool busy;	 /* restart.c counts this worker as serving r->tid */
	uint64_t since;	 /* restart_now() before the call was received */
	int nreads;	 /* READS_MAX + 1: more than it keeps */
#define READS_MAX 16
	struct read_range {
		uint64_t addr, hash;
		uint32_t len;
	} reads[READS_MAX];
	/*
	 * What the call would fail with natively anyway (a negative errno, or
	 * 0), which a handler may tell around one decision, checked on what
	 * ward opened: looked at only when the verdict asks, so that nobody
	 * is asked about a call that cannot succeed (decide.c).
	 */
	int (*fails_anyway)(struct req *r, const void *arg);
	const void *fails_arg;
	/*
	 * An exec's argv as read (NUL after each; the first exec_argv_len of
	 * its exec_argv_total bytes), and the MAC of all of it, for a
	 * question (NULL: not an exec).  Shown to the person, never trusted:
	 * the tracer checks the argv that runs (execcheck.c).
	 */
	const char *exec_argv;
	size_t exec_argv_len, exec_argv_total;
	const unsigned char *exec_argv_id;
	/*
	 * A connect's name that ward verified for its address when no rule
	 * named it (NULL: none): a question shows it and asks the grants
	 * about it, and a grant for it teaches it to the resolver (netstate).
	 */
	const char *ask_host;
	/* An open's flags and mode as decoded (handlers/open.c), for --degraded's own open of it. */
	int open_flags;
	mode_t open_mode;
	int degraded_chmod; /* --degraded: the mode a file ward made gets once the agent opened it (-1) */
	int degraded_fifo;  /* --degraded: ward's hold of the FIFO opened (degraded_fifo_take, -1) */
	int fetch_fd;	    /* --degraded without pidfd_getfd: the agent's fd the tracer must fetch */
	int installed;	 /* the agent's number for it, or -1 */
	uint64_t installed_ino, installed_mnt, installed_flags; /* what that fd is */
};

/*
 * A handler serves one notification.  It returns
 *   < 0  deny: the call fails with that errno (negated),
 *   0    continue: the kernel runs the call itself; only from a row of the
 *        syscall table that says MAY_CONTINUE, and at a site whose
 *        comment says why,
 *   > 0  handled: the call was emulated; r->result is its return value
 *        (req_answer_value), or r->replied says the answer is sent
 *        (req_answer_fd).
 */
typedef int (*handler_fn)(struct req *r);

/* ---- the request API: what the log says, and the answer ---- */

/* The line names op (0: none) on path (NULL: none), before or without a decision. */
static inline void req_about(struct req *r, unsigned op, const char *path)
{
	r->dec.op = op;
	r->dec.path = path;
}

/* The line names path (the op as it was). */
static inline void req_path(struct req *r, const char *path)
{
	r->dec.path = path;
}

/*
 * op on path, the agent's own object (a pipe, socket or memfd reached
 * through its own fd): allowed without the policy, which judges names.
 */
static inline void req_own(struct req *r, unsigned op, const char *path)
{
	req_about(r, op, path);
	r->dec.outcome = DEC_ALLOW;
	r->dec.by = BY_POLICY;
}

/* Nothing was decided, nor needs to be: the call leaves no line (its answer is CONTINUE). */
static inline void req_quiet(struct req *r)
{
	r->log = LOG_QUIET;
}

/*
 * Write the decision's line now, before ward acts on it (tells: should
 * the call then fail, the failure gets a line too).  0, or -EACCES when
 * the line cannot be written: the call is then refused.  A line already
 * committed is not written again.
 */
int req_commit(struct req *r, bool tells);

/*
 * The call's answer is other than its last part's result (sendmmsg: the
 * count of the messages before it): that part's failure err (0: none), if
 * its line is still to be written, is written now, and the call leaves no
 * other line.
 */
void req_settle(struct req *r, int err);

/*
 * Answer the call with fd, ward's (closed here), as the agent's new fd:
 * the decision is committed first (req_commit, tells).  cloexec: the new
 * fd's flag; writable: ward's copy must be closed before the agent runs
 * again (ETXTBSY; a FIFO's end, which ward's copy would pair with the
 * other end's open), so the fd is installed, closed, then the answer sent.
 * Returns 1 (answered, or about to be with r->result), or -errno.
 */
int req_answer_fd(struct req *r, int fd, bool cloexec, bool writable);

/*
 * A call answered later, by a thread of ward's that serves no request (a
 * FIFO's open, which waits for its other end): a copy of r on the heap
 * with what the answer needs, and r's hold as its thread's server (a
 * restart of the call waits for the copy's answer: restart.c).  r counts
 * as answered (r->replied).  Its decision must be logged already: the
 * copy's answer adds no line.  NULL: no memory (r unchanged).
 */
struct req *req_later(struct req *r);
/*
 * Answer the copy l as a handler's rc (req_answer_fd and
 * req_answer_value work on it; -ESRCH: nobody waits), kept for a restart
 * as any answer is, and free it.
 */
void req_later_answer(struct req *l, int rc);
/* Free l unanswered (--degraded answers by the tracer). */
void req_later_free(struct req *l);
/* l will not answer after all: r, its original, answers (its hold back). */
void req_later_cancel(struct req *r, struct req *l);

/*
 * What the preload library in the caller says of this call (hint.h): the
 * libc function, the stack (with --backtrace) and, with addr (ward's own
 * decoding of the call's address), the name its resolver gave that
 * address.  Read once a call, with one process_vm_readv, and only for a
 * process that loads the library and a call of a family it describes:
 * 1 with r->hint filled, 0 when there is nothing.  The agent wrote it:
 * it labels, it never allows (hint.h).
 */
int req_hint(struct req *r, const uint8_t *addr);

/* Answer the call with the value v (what a handler returns for it). */
static inline int req_answer_value(struct req *r, int64_t v)
{
	r->result = v;
	return 1;
}

/* Start n workers on S->listener; stop them all. */
int notify_start(int nworkers);
void notify_stop(void);

/* ---- decide.c: one decision (policy, cache, a person, shadow mode) ---- */

/*
 * Decide op on path (a real path, or "memfd:NAME"): 0 to allow, 1 to
 * rewrite (to v->rewrite), or a negative errno to deny.  It becomes the
 * request's current decision.
 */
int decide_path(struct req *r, enum ward_op op, const char *path,
		struct ward_verdict *v);
/*
 * Whether the policy lets the agent learn what is at path (a real path):
 * stat is not restricted, or it is allowed there.  Only then may a
 * handler answer with what the kernel says of the name (EEXIST for a name
 * to make, ENOENT for one to remove) before the decision: elsewhere that
 * answer would tell what the policy hides, so the decision comes first.
 */
bool decide_may_see(const char *path);
/* A network decision on t; 0 or a denial, as decide_path. */
int decide_net(struct req *r, enum ward_op op, const struct ward_net_target *t);
/*
 * A refusal of ward's own, after the policy allowed each part (or where it
 * has nothing to say): logged as a deny with the reason.  Returns -err.
 */
int refuse(struct req *r, int err, const char *why);
/*
 * Log the decision taken so far, and start the next one for the same
 * call (a failure before it is logged as no decision's).  -EACCES when
 * the line cannot be written.
 */
int decide_next(struct req *r);
/*
 * One more decision for the same call: log the one before it, then
 * decide op on path.  0 to go on, or a denial (a rewrite is refused:
 * only opens are rewritten).
 */
int decide_also(struct req *r, enum ward_op op, const char *path);
/*
 * The call's next part is about another object (rename's and link's
 * target, op on path): what was decided so far is logged, and no decision
 * is taken yet for it.  (Its line keeps the last decision's "by" until the
 * target's own, as the log always had it.)  0, or -EACCES.
 */
int decide_next_object(struct req *r, unsigned op, const char *path);
/* A fresh line for the next part of the call (sendmmsg's next message): nothing carried over. */
void decide_restart(struct req *r);

/*
 * After a decision on another process's /proc path: whatever the policy
 * said, the call is refused (ward never walks there), and logged so.
 */
static inline int foreign_denied(struct req *r, int rc)
{
	if (rc >= 0)
		r->dec.outcome = DEC_DENY;
	return rc < 0 ? rc : -EACCES;
}

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
#define ERESTARTNOINTR 513
int agent_restart_id(uint64_t id, pid_t tid);
/* True when the agent's thread blocks or ignores sig. */
bool agent_ignores(struct req *r, int sig);
/*
 * Around a blocking call on a thread that is not a worker (a FIFO's open):
 * it is interrupted every 100 ms (EINTR), to look at agent_interrupted_id.
 * False when the timer could not be set: the call would not be.
 */
bool interruptible_begin(void);
void interruptible_end(void);
/* A thread that is not a worker, before it ends: its timer goes too. */
void interruptible_exit(void);

#endif
