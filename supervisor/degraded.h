/*
 * degraded.h - --degraded (degraded.c): the session's calls reach ward
 * through ptrace (SECCOMP_RET_TRACE) where seccomp user notification is
 * missing or taken, and are served by the same workers and handlers.
 * docs/degraded.md says what this mode cannot promise.
 */
#ifndef WARD_DEGRADED_H
#define WARD_DEGRADED_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct req;

/*
 * The page ward copies the names it decided on into, in every process of
 * a degraded session: mapped read-only (and executable: a fetch's calls
 * are made from it) by ward at the process's first call after its exec, and kept from the agent (no munmap, mprotect,
 * mremap, madvise, MAP_FIXED or SHM_REMAP over it; no write through
 * /proc/PID/mem).  Each thread has its own slots in it.
 */
#define DEGRADED_REGION 0x7e5a00000000ull
#define DEGRADED_SLOT 8192u	/* a struct open_how and a path */
#define DEGRADED_RING 4u	/* slots a thread goes round (a call restarted after a handler's) */
#define DEGRADED_THREADS 4096u /* threads of the session that open (a slot each, while it lives) */
#define DEGRADED_SIZE ((uint64_t)DEGRADED_SLOT * DEGRADED_RING * DEGRADED_THREADS)

/* What --degraded cannot promise, one sentence each (session-start, stderr, docs/degraded.md). */
extern const char *const degraded_limits[];
/* And this one where the kernel has no openat2 (compat.c walks instead). */
extern const char *const degraded_limit_no_openat2;
/* And this one where it has no pidfd_getfd (the tracer fetches the agent's fds). */
extern const char *const degraded_limit_no_getfd;

/* ---- the tracer thread's ---- */

/* Signals the tracer waits for in a degraded session: blocked in every thread from the start. */
void degraded_block_signals(void);
/* The tracer's loop of a degraded session, until the command pid has exited. */
void degraded_trace(pid_t pid, int *status, void (*on_stop)(pid_t, int),
		    bool (*on_end)(pid_t, int, pid_t, int *));
/* tid stopped at PTRACE_EVENT_SECCOMP: decided at once, or queued to the workers. */
void degraded_seccomp_stop(pid_t tid);
/* tid stopped at a system call stop: true when it was one of degraded.c's (and it is resumed). */
bool degraded_syscall_stop(pid_t tid);
/* tid stopped to take signal sig (its call answered with a restart code: that is fixed first). */
void degraded_signal_stop(pid_t tid);
/* child was made by parent with clone flags (a thread, or a process in its memory, shares it). */
void degraded_clone(pid_t parent, pid_t child, unsigned long flags);
/* pid exec'd (former: the thread that did): a new address space, without the page. */
void degraded_exec(pid_t former, pid_t pid);
/* tid is gone. */
void degraded_gone(pid_t tid);

/* ---- the workers' ---- */

/* The next call to serve, as a notification (blocks).  -1: the session is over. */
int degraded_take(struct seccomp_notif *n);
/* The call id is still waiting for its answer (its thread alive at its stop). */
bool degraded_alive(uint64_t id);
/* Answer id: rc < 0 an error, 0 continue, > 0 the value val. */
void degraded_answer(uint64_t id, int rc, int64_t val);
/*
 * Answer r with the object behind fd (ward's, closed here): the agent's
 * kernel opens it by its real path from the page, and the tracer checks
 * at the call's exit that it opened that object.  opened: ward opened it
 * with the call's flags (its O_TRUNC is done); else fd is an O_PATH fd.
 * 1 (answered), or -errno.
 */
int degraded_answer_fd(struct req *r, int fd, bool opened);
/*
 * Without openat2, a FIFO's open that would wait for the other end
 * (open.c): ward waited for it, and holds the FIFO open by hold (taken);
 * the call id is made again, and its open finds the hold.  decided: what
 * the open was decided as (a key of open.c's), given back with the hold.
 */
void degraded_fifo_ready(uint64_t id, pid_t tid, dev_t dev, ino_t ino, int hold, uint64_t decided);
/*
 * Ward's hold of that FIFO for tid's open of it, taken (the request's
 * degraded_fifo, given with it to degraded_answer_fd), or -1: none.
 */
int degraded_fifo_take(pid_t tid, dev_t dev, ino_t ino, uint64_t *decided);
/*
 * Without pidfd_getfd: ward's copy of the agent's fd n of r's thread, if
 * the tracer fetched it (checked: the same open file now), else -E_FETCH
 * with r->fetch_fd = n: the handler passes that on, and the worker has
 * the tracer fetch it (degraded_fetch) and make the call again.
 */
int degraded_fetched(struct req *r, int n);
void degraded_fetch(uint64_t id, int n);
/* tid's call is over: ward's copies of the fds fetched for it let go. */
void degraded_fetched_done(pid_t tid);
/*
 * Whether the abstract unix name (len bytes, after its NUL) is ward's own
 * fetch socket's: never the agent's to reach, whatever a policy allows.
 */
bool degraded_fetch_named(const char *name, size_t len);

#endif
