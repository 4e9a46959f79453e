/*
 * sup.h - the supervisor's shared state: the session, the process table,
 * requests on the notification path, and the parts that serve them.
 */
#ifndef WARD_SUP_H
#define WARD_SUP_H

#include "syscalls.h"
#include "ward.h"

#include <linux/seccomp.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/* Kernel features, detected at start (features.c). */
struct features {
	bool addfd_send;      /* 5.14, required */
	bool wait_killable;   /* 5.19, required */
	bool sync_wake_up;    /* 6.6, used when present */
	bool openat2;	      /* 5.6, required */
	bool pidfd_getfd;     /* 5.6 */
	char kernel[128];
};
int features_detect(struct features *f, char *why, size_t len);
/* Whether ward's own effective capabilities hold capability cap (read once). */
bool ward_capable(int cap);

/* ---- the process table (proc.c) ---- */

/* What the tracer allowed a thread to exec, checked at PTRACE_EVENT_EXEC. */
struct exec_grant {
	bool set;
	bool script;	    /* run through "#!": the kernel rewrote argv's head */
	bool is_static;	    /* the program has no interpreter */
	dev_t dev;	    /* the file /proc/PID/exe must be */
	ino_t ino;
	struct timespec ctime; /* ...unchanged since it was judged (st_ctim, st_size) */
	off_t size;
	uint8_t argv_mac[32]; /* HMAC-SHA256 (session key) over argv, NULs included */
	uint8_t tail_mac[32]; /* the same over argv[1..] */
	uint8_t name_mac[32]; /* a script: the file name the kernel passes its interpreter */
	size_t argv_len;
	int argc;
	/*
	 * The file whose code runs first: the ELF interpreter (PT_INTERP) the
	 * kernel loads for the program, or the program itself.  Its id as
	 * stat tells it, and as /proc/PID/maps shows it (which differs on
	 * overlayfs before Linux 6.8: the layer's file, not the overlay's).
	 */
	dev_t run_dev, run_map_dev;
	ino_t run_ino, run_map_ino;
	bool interp; /* ...and it is the program's ELF interpreter */
	/*
	 * Where maps ids do not tell files apart (a btrfs subvolume's inode
	 * numbers are counted apart, under one device in maps): a SHA-256 of
	 * the interpreter's first bytes, which its mapping must hold too.
	 */
	bool run_hashed;
	size_t run_head_len;
	uint8_t run_head_sha[32];
	/*
	 * ld.so PROG: the loader opens PROG itself, by the name in its argv,
	 * after the exec.  The file it must find there, and a MAC of the name.
	 */
	bool loader;
	dev_t prog_dev;
	ino_t prog_ino;
	uint8_t prog_mac[32];
};
/*
 * argv is compared by a keyed MAC: the key is random per session and the
 * agent never sees it, so it cannot make two argvs that compare equal.
 */
void argv_mac(const void *data, size_t len, uint8_t out[32]);

struct proc;
/* Add tid (a thread of tgid, child of ppid) to the session. */
/* from: the task that made it, whose executable it runs (0: none known). */
int proc_add(pid_t tid, pid_t tgid, pid_t ppid, pid_t from);
void proc_remove(pid_t tid);
/* SIGKILL every process of the session (the command has exited). */
void proc_kill_all(void);
/*
 * The umask is the fs_struct's, which threads and clone(CLONE_FS) share.
 * ward keeps the umask it read from /proc/TID/status for a group of one
 * task (proc.c says when that is safe), so that a create need not read it
 * again.  proc_fs_own: tid has an fs of its own; proc_fs_join: tid has
 * another task's (its creator's, or the thread's that exec'd and took its
 * id).  A task whose group is unknown keeps nothing from anyone.
 */
void proc_fs_own(pid_t tid);
void proc_fs_join(pid_t tid, pid_t creator);
/* The kept umask of tid (true), or false and *gen for proc_umask_put. */
bool proc_umask_get(pid_t tid, mode_t *mask, unsigned *gen);
/* Keep mask, read from /proc, unless tid's group forgot since gen. */
void proc_umask_put(pid_t tid, mode_t mask, unsigned gen);
/* tid is calling umask(2): its group forgets what it kept. */
void proc_umask_changed(pid_t tid);
bool proc_in_session(pid_t pid);
/* Copy what the log needs about tid: its tgid, ppid, exe. */
bool proc_info(pid_t tid, pid_t *tgid, pid_t *ppid, char *exe, size_t len);
void proc_set_exe(pid_t tgid, const char *exe);
/* One task's executable, read from the kernel. */
void proc_set_task_exe(pid_t tid, const char *exe);
/* False when tid is not a traced process of the session (the exec must be refused). */
/* A task's thread group and parent as /proc/TID/status says now (tid and 0 if unreadable). */
void proc_status_ids(pid_t tid, pid_t *tgid, pid_t *ppid);
/* A process is gone: its children now have another parent; ask /proc which. */
void proc_orphans(pid_t tgid);
bool proc_set_grant(pid_t tid, const struct exec_grant *g);
bool proc_take_grant(pid_t tid, struct exec_grant *g);
/* tid has exec'd the loader for PROG (g->loader): its open of PROG is checked. */
void proc_set_loader(pid_t tid, const struct exec_grant *g);
/*
 * An open by tid of path, which found the file st: -EACCES when tid is a
 * loader yet to open its PROG, path names PROG, and st is not the file
 * judged (the name was turned elsewhere since); else 0.  The first open
 * by that name settles it.
 */
int proc_loader_open(pid_t tid, const char *path, const struct stat *st);
/* The pids of processes whose thread group leader is pid (for kill(-pgrp)). */
pid_t proc_pgrp_of(pid_t tid); /* its process group, from /proc (-1: gone) */
/* /proc/PID, an O_PATH directory fd (-1 with errno when it cannot be opened). */
int proc_dir_open(pid_t pid);
/*
 * In the table and traced by ward: an entry can outlive its task for a
 * moment (a thread's id is freed when it execs, before ward hears of it),
 * and the id be another's by then.
 */
bool proc_of_session(pid_t pid);
/*
 * dir, a directory in a procfs: 1 when it is a task's (its status has a
 * TracerPid), with the fields asked for; 0 when it is no task's; -errno.
 */
int proc_task_status(int dir, pid_t *pid, pid_t *tracer, char *state, pid_t *ppid);
/* True when dir, a /proc/PID directory, is a task that ward traces. */
bool proc_traced_dir(int dir);
/* ...or a zombie whose parent is of the session (ward has let it go). */
bool proc_session_dir(int dir);
/* proc_session_dir() of /proc/PID. */
bool proc_session_pid(pid_t pid);
/* pid is of the session by the table, or by proc_session_pid(). */
bool proc_maybe_session(pid_t pid);

/* tty.c: the session's terminals (ward's own, and the ptys it holds the master of). */
/* What the session made in /dev/shm (shm.c). */
struct req;
void shm_init(void);
/* real lies below /dev/shm (by name: what to look at more closely). */
bool shm_path(const char *real);
/*
 * Note the object the session made at real, found at name below dirfd
 * ("" for dirfd itself); nothing outside /dev/shm is noted (or looked at).
 */
void shm_made(const char *real, int dirfd, const char *name);
/* The session removed real's last name. */
void shm_gone(const char *real, const struct stat *st);
/*
 * 0, or a refusal (-EACCES, with the reason) to change the object at real
 * (op: write or delete) when it lies in /dev/shm, the session did not make
 * it, and no rule of the user's allows op on it.
 */
int shm_check(struct req *r, enum ward_op op, const char *real, const struct stat *st);

void tty_init(void);
/* True for path being a terminal that is not the session's (or one stat cannot tell). */
bool tty_foreign(const char *path);
/* The same for a char device by its number. */
bool tty_foreign_dev(dev_t rdev);
/*
 * Open /dev/tty for task tid: its own controlling terminal (ward's own
 * /dev/tty would be ward's), with the agent's flags; -ENXIO for none.
 */
int tty_open_ctty(pid_t tid, int flags);
/*
 * The files mapped at addresses of pid's memory (0: ward's own), by the
 * device and inode /proc/PID/maps shows, in one read of it: each hit's
 * found says whether anything is mapped at its addr.  0 or -errno.
 */
struct maps_hit {
	uint64_t addr;	      /* the address looked up, or... */
	bool by_file;	      /* ...the mapping of the file (dev, ino, name) at offset 0 */
	dev_t dev;	      /* the file mapped there (given, when by_file) */
	ino_t ino;
	uint64_t name;	      /* a hash of the name maps shows for it */
	uint64_t start, end;  /* the mapping */
	bool found;
};
int proc_maps_find(pid_t pid, struct maps_hit *h, int n);
/* The same through fd, a maps file open (it may be asked again). */
int proc_maps_find_fd(int fd, struct maps_hit *h, int n);
/*
 * Each line of the /proc file fd, whole, to fn (NUL-terminated, without
 * its newline); a line longer than buf (size bytes) goes to fn once, cut
 * (whole false), and the rest of it is skipped: nothing is read from the
 * middle of a line, where a name made to look like a line would be taken
 * for one (names cannot hold a newline: the kernel writes "\012").  fn
 * returns nonzero to stop, and that is returned; else 0 at the end, or
 * -errno.
 */
int proc_lines(int fd, char *buf, size_t size, int (*fn)(char *line, bool whole, void *arg),
	       void *arg);
/* Fields of dir's stat (state, parent, process group); -1 when it cannot be read. */
int proc_stat_at(int dir, char *state, pid_t *ppid, pid_t *pgrp);
bool proc_pgrp_in_session(pid_t pgrp);
/* True when a process of the session holds the master of pty number index. */
bool proc_holds_pty(unsigned index);

/* ---- the session ---- */

struct session {
	struct ward_policy *policy;
	struct ward_cache *cache;
	struct ward_vars vars;
	struct features feat;
	char id[17];
	int listener;
	int log_fd;
	bool shadow;
	int verbose; /* -v: print decisions to stderr */
	bool quiet;
	pid_t child;
	pid_t own_pgrp;
	int notify_size, resp_size;
	uint8_t exec_key[32]; /* for argv_mac */
};
extern struct session *S;

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
typedef int (*handler_fn)(struct req *r);
int h_open(struct req *r);
int h_stat(struct req *r);
int h_watch(struct req *r);
int h_change(struct req *r);
int h_exec(struct req *r);
int h_signal(struct req *r);
int h_pid(struct req *r);
int h_ipc(struct req *r);
int h_net(struct req *r);
int h_socket(struct req *r);
int h_cred(struct req *r);
int h_umask(struct req *r);

/* System calls glibc 2.36 has no wrapper or number for. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

/*
 * A pidfd for the calling thread itself (PIDFD_THREAD, Linux 6.9), so that
 * pidfd_getfd reads its own fd table (a thread may have one of its own),
 * or for its process on older kernels; -errno on failure.
 */
int agent_pidfd(struct req *r);
/* ward's copy of the agent's fd agentfd: the same open file (or a negative errno). */
int agent_copy_fd(struct req *r, int agentfd);

/* notify.c: reading the agent's memory and checking the request is alive */
int mem_read(struct req *r, uint64_t addr, void *buf, size_t len);
/* Read a NUL-terminated string: -EFAULT, -ENAMETOOLONG, or its length. */
int mem_read_str(struct req *r, uint64_t addr, char *buf, size_t len);
int mem_write(struct req *r, uint64_t addr, const void *buf, size_t len);
bool req_valid(struct req *r);
int notify_start(int nworkers);
void notify_stop(void);

/* decide.c: policy + cache + shadow mode + the log */
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

/* net.c: @session, @dns and the names ward resolved itself */
int net_init(const struct ward_policy *p);
void net_v4_mapped(uint32_t be_addr, uint8_t out[16]);
bool net_is_loopback(const uint8_t a[16]);
/* An address of this host: loopback, unspecified (0.0.0.0, ::), or an interface's. */
bool net_is_local(const uint8_t a[16]);
void net_format(const uint8_t a[16], char *out, size_t len);
/* Record a bound socket (cookie: SO_COOKIE; sock_ino: its sockfs inode). */
int net_session_add_inet(int type, int protocol, const uint8_t addr[16], uint16_t port,
			 bool v6only, uint64_t cookie);
int net_session_add_unix(uint32_t sock_ino);
int net_session_add_abstract(uint32_t sock_ino, int type, const char *name, size_t len);
/*
 * Would a session socket, still alive, receive at this destination, for a
 * socket of this type and protocol (UDP and UDP-Lite, TCP and SCTP have
 * port spaces of their own; an abstract name is one per socket type)?
 */
bool net_session_inet(int type, int protocol, const uint8_t addr[16], uint16_t port);
bool net_session_unix(dev_t dev, ino_t ino);
bool net_session_abstract(int type, const char *name, size_t len);
bool net_is_dns(const uint8_t addr[16], uint16_t port);
/*
 * A unix socket of a program outside the session takes clients at the
 * file (dev, ino), or at a name that path (not NULL: a directory or a
 * symlink) is or is above, as bound or as it resolves: 1, 0, or -errno.
 */
int net_unix_foreign(dev_t dev, ino_t ino, const char *path);
/* The names ward verified for addr (at most max), waiting a little for
 * the first resolution of the policy's names; returns how many. */
int net_host_of(const uint8_t addr[16], char hosts[][256], int max);

/* resolve.c: paths in the agent's context */
/*
 * resolve() found the path inside another process's /proc directory: it
 * is refused without a walk, and `real` holds the lexical path for the
 * decision.  Not an errno: it never reaches the agent.
 */
#define E_FOREIGN_PROC 4096

enum resolve_mode {
	RES_FINAL,	    /* the object itself, following a final symlink */
	RES_FINAL_NOFOLLOW, /* the object itself, a final symlink as is */
	RES_PARENT,	    /* the parent directory; the final name is returned */
};
/*
 * Resolve path (relative to dirfd in the agent, or its cwd for AT_FDCWD)
 * to an O_PATH fd in the supervisor.  For RES_PARENT *name points into
 * r's scratch at the final component ("." or ".." are refused).
 * real receives the real path of the returned fd.
 */
int resolve(struct req *r, int dirfd, const char *path, enum resolve_mode mode,
	    int *fd, char *real, size_t reallen, const char **name);
/* The same, a relative path starting from base, an fd of the supervisor's. */
int resolve_from(struct req *r, int dirfd, int base, const char *path,
		 enum resolve_mode mode, int *fd, char *real, size_t reallen,
		 const char **name);
/*
 * Read the agent's umask (from /proc/TID/status) and make it the calling
 * worker's, so that files are created with exactly the agent's modes.
 */
int agent_umask(struct req *r, mode_t *mask);
/*
 * A pipe, socket, anonymous inode or memfd (by its real path and stat):
 * reached only through the agent's own fd (anon_check), so its own, to
 * which the path policy does not apply.
 */
bool unnamed_object(const char *real, const struct stat *st);
/* Hand fd to the agent as the call's result (ADDFD | SEND); closes fd. */
int reply_fd(struct req *r, int fd, bool cloexec, bool writable);
/* Open (creating parents as needed) a rewrite target; no symlink is followed. */
int open_rewrite(const char *path, int flags, mode_t mode, int *fd);
/* Join a parent's real path and a name into out. */
int join_path(const char *dir, const char *name, char *out, size_t len);
/* The real path of an fd of ours, as the policy sees it. */
int fd_real_path(int fd, char *out, size_t len);
/*
 * The agent's dirfd (AT_FDCWD: its cwd) as ward's own fd, with its real
 * path; -E_FOREIGN_PROC (real: what is decided on) when it is in a procfs
 * and not known to be the session's.
 */
int agent_object(struct req *r, int dirfd, int *fd, char *real, size_t reallen);
/* Open the object behind an fd of ours (an O_PATH one) anew, with flags. */
int fd_reopen(int fd, int flags);
/* An O_PATH fd of the agent's root directory (ward's: see resolve.c). */
int agent_root(struct req *r, int *fd);
/* "name/": path ends in a slash (and is not only slashes). */
bool slash_end(const char *path);
/* True when fd is on a procfs mount. */
bool is_procfs(int fd);
/* An O_PATH fd for the agent's fd n (AT_FDCWD: its cwd). */
int agent_fd(struct req *r, int n, int *fd);
/*
 * True when the object behind fd (ours) is held by the agent through the
 * fd last walked through (r->hop), and that fd is not O_PATH: an object
 * without a name, reached so, is the agent's own.  False otherwise: an
 * O_PATH fd may have been opened by the kernel alone (/proc/PID/fd/N of a
 * process outside the session), and no name is left to judge.
 */
bool hop_is_own(struct req *r, int fd);
/* What /proc/TID/fdinfo/FD says of an fd of the agent's. */
struct fdinfo {
	unsigned long long flags, mnt_id, ino;
};
int agent_fdinfo(pid_t tid, int fd, struct fdinfo *fi);
/*
 * 0 when the object behind fd (ours, at real) may be served without a
 * name of its own to judge: a pipe, socket or memfd (real not absolute)
 * only when hop_is_own(); a deleted file reached through an fd likewise
 * (one reached by its path is judged by the name it had).  Else the
 * refusal (-EACCES, logged with the reason).
 */
int anon_check(struct req *r, int fd, const char *real);

/* log.c */
int log_open(const char *path);
/* Whether the log is a character device (/dev/null, a terminal), not a file of its own. */
bool log_is_device(void);
int log_request(struct req *r, int err);
int log_event(const char *event, pid_t pid, const char *fmt, ...);
/* How many lines could not be written (the disk full, say). */
unsigned long log_lost(void);
/* Decisions so far: allowed (rewrites too), denied, and put to the person. */
void log_counts(unsigned long c[3]);
/* An event written field by field with jline.h: log_begin, jl_*, log_finish. */
struct jline;
struct jline *log_begin(const char *event, pid_t pid);
int log_finish(struct jline *l);
/* A JSON string for bytes that may not be UTF-8 (they are escaped). */
struct json_t;
struct json_t *jpath(const char *s);

/* The git repositories below the project the session made or changed (repos.c). */
void repos_note(const char *real);
struct json_t *repos_json(void);
void repos_tell(void);
void log_close(void);

/* filter.c */
struct sock_fprog;
int filter_build(const struct ward_policy *p, struct sock_fprog *prog, char *why, size_t len);
int filter_install(struct sock_fprog *prog);
extern struct sock_fprog ward_filter;

/* tracer.c */
int tracer_run(char **argv, int *status);

#endif
