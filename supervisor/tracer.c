/*
 * tracer.c - spawning the agent and tracing its process tree.
 *
 * The main thread is the tracer: it forks the child, PTRACE_SEIZEs it,
 * and then makes every ptrace call of the session from its wait loop, as
 * ptrace requires.  It keeps the process table (who belongs to the
 * session) and has every exec verified against the grant the exec
 * handler recorded (execcheck.c), killing a process that fails.
 */
#include "tracer.h"
#include "degraded.h"
#include "execcheck.h"
#include "features.h"
#include "filter.h"
#include "log.h"
#include "mem.h"
#include "netstate.h"
#include "notify.h"
#include "proc.h"
#include "term/pty.h"
#include "procfs.h"
#include "restart.h"
#include "session.h"
#include "sighold.h"
#include "ward.h"
#include "jline.h"

#include <errno.h>
#include <linux/capability.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <stdnoreturn.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/user.h>
#include <sys/wait.h>
#include <sched.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <jansson.h>
#include <unistd.h>


static volatile sig_atomic_t pending_signal;

static void on_signal(int sig)
{
	pending_signal = sig;
}

/*
 * The listener crosses from child to parent by number: the child writes
 * it (write is not supervised; sendmsg already is, and nobody would
 * answer it yet) and the parent takes it with pidfd_getfd.
 */
static int take_listener(int sock, pid_t pid)
{
	int n, pfd, fd;

	if (read(sock, &n, sizeof(n)) != (ssize_t)sizeof(n))
		return -1;
	if (n < 0)
		return S->degraded ? -2 : -1; /* degraded: installed, without a listener */
	pfd = (int)syscall(SYS_pidfd_open, pid, 0);
	if (pfd < 0)
		return -1;
	fd = (int)syscall(SYS_pidfd_getfd, pfd, n, 0);
	close(pfd);
	return fd;
}

/*
 * CAP_NET_ADMIN out of the process's capability sets: every set with
 * drop_bounding (the agent: root regains at exec what the bounding set
 * holds), the effective one alone without (ward, which performs the
 * agent's network calls and must not lend it the capability there).
 */
static int drop_net_admin(bool drop_bounding)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	const unsigned idx = CAP_NET_ADMIN / 32, bit = 1u << (CAP_NET_ADMIN % 32);

	if (syscall(SYS_capget, &h, d) < 0)
		return -1;
	bool setpcap = d[CAP_SETPCAP / 32].effective & (1u << (CAP_SETPCAP % 32));
	if ((d[idx].effective | (drop_bounding ? d[idx].permitted | d[idx].inheritable : 0)) & bit) {
		d[idx].effective &= ~bit;
		if (drop_bounding) {
			d[idx].permitted &= ~bit;
			d[idx].inheritable &= ~bit;
		}
		if (syscall(SYS_capset, &h, d) < 0)
			return -1;
	}
	if (!drop_bounding)
		return 0;
	prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_LOWER, CAP_NET_ADMIN, 0, 0);
	/* Without CAP_SETPCAP (an unprivileged ward) it cannot be dropped, nor gained back. */
	if (setpcap && prctl(PR_CAPBSET_READ, CAP_NET_ADMIN, 0, 0, 0) == 1 &&
	    prctl(PR_CAPBSET_DROP, CAP_NET_ADMIN, 0, 0, 0) < 0)
		return -1;
	return 0;
}

/* The child: become the agent, under the filter, once the parent says go. */
static noreturn void child(int sock, struct sock_fprog *prog, char **argv, char **envp,
			   mode_t umask_)
{
	char go;
	int listener;

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (getppid() == 1)
		_exit(WARD_EXIT_FAILURE);
	/*
	 * Its own process group, in the terminal's foreground, so ^C reaches
	 * it, not ward.  On ward's pty it becomes that pty's session leader
	 * instead (pty_child, below), which a group leader cannot.
	 */
	bool on_pty = pty_active();
	if (!on_pty)
		setpgid(0, 0);
	if (!on_pty && isatty(STDIN_FILENO)) {
		signal(SIGTTOU, SIG_IGN);
		tcsetpgrp(STDIN_FILENO, getpid());
		signal(SIGTTOU, SIG_DFL);
	}
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGINT, SIG_DFL);
	signal(SIGTERM, SIG_DFL);
	signal(SIGHUP, SIG_DFL);
	umask(umask_);
	/*
	 * No core dumps: the kernel writes one where the crashing process is
	 * (or where core_pattern says), named after it, with no call for ward
	 * to judge.  Hard limit 0: raising it again takes CAP_SYS_RESOURCE,
	 * and the filter refuses that too (pid.c).
	 */
	struct rlimit nocore = { 0, 0 };
	if (setrlimit(RLIMIT_CORE, &nocore) < 0)
		_exit(WARD_EXIT_FAILURE);
	/*
	 * No CAP_NET_ADMIN for a root agent: it reaches the whole host's
	 * network past every rule (SOCK_DESTROY of any connection through
	 * sock_diag, routes, addresses, netfilter), and ward cannot tell those
	 * apart in what it judges.  Dropped from every set, the bounding one
	 * too, before the filter (which keeps the agent from changing them).
	 */
	if (drop_net_admin(true) < 0)
		_exit(WARD_EXIT_FAILURE);

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		_exit(WARD_EXIT_FAILURE);
	listener = filter_install(prog, S->feat.wait_killable, S->degraded);
	if (S->degraded && listener == 0)
		listener = -1; /* no listener: the tracer is told so */
	else if (listener < 0)
		_exit(WARD_EXIT_FAILURE);
	if (write(sock, &listener, sizeof(listener)) != (ssize_t)sizeof(listener))
		_exit(WARD_EXIT_FAILURE);
	/* The parent has its copy when it says go. */
	if (read(sock, &go, 1) != 1)
		_exit(WARD_EXIT_FAILURE);
	close(sock);
	if (listener >= 0)
		close(listener);
	/*
	 * On ward's pty: this process stays as the pty session's leader and
	 * the agent is forked below it, traced and under the filter like
	 * any other process of the session (pty.c says why the leader must
	 * stay: job control).
	 */
	if (on_pty && pty_child() < 0)
		_exit(WARD_EXIT_FAILURE);
	execvpe(argv[0], argv, envp);
	int e = errno;
	dprintf(STDERR_FILENO, "ward: %s: %s\n", argv[0], strerror(e));
	_exit(e == ENOENT ? WARD_EXIT_NOTFOUND : WARD_EXIT_NOEXEC);
}

static void log_spawn(pid_t pid)
{
	log_finish(log_begin(EV_SPAWN, pid));
}

/*
 * A task that stopped before ward heard of it: its ids from /proc.  A
 * thread runs its leader's executable.  A new process runs its creator's,
 * but its creator is not known yet (its fork or clone event comes later),
 * and is not its parent after a clone with CLONE_PARENT: the kernel says
 * which executable it runs.
 */
static void add_task(pid_t tid)
{
	pid_t tgid, ppid;

	if (proc_in_session(tid))
		return;
	proc_status_ids(tid, &tgid, &ppid);
	proc_add(tid, tgid, ppid, tid == tgid ? ppid : tgid);
	if (tid == tgid) {
		char link[64], exe[PATH_MAX];
		snprintf(link, sizeof(link), "/proc/%d/exe", tid);
		ssize_t n = readlink(link, exe, sizeof(exe) - 1);
		if (n > 0) {
			exe[n] = '\0';
			proc_set_task_exe(tid, exe);
		}
		log_spawn(tid);
	}
}

/*
 * A task made by parent (stopped at its fork, vfork or clone event): its
 * ids follow from the call's flags, read from the parent's registers,
 * which nothing can change while it is stopped.  Reading /proc/TID/status
 * instead cost 20-40 us a process here, on the tracer, which every
 * process of the session waits for.
 */
/* The clone flags of the call parent is stopped in (false: not known). */
static bool creation_flags(pid_t parent, unsigned long *flags)
{
	struct user_regs_struct regs;

	if (ptrace(PTRACE_GETREGS, parent, 0, &regs) < 0)
		return false;
	if (regs.orig_rax == SYS_clone)
		*flags = regs.rdi;
	else if (regs.orig_rax == SYS_fork || regs.orig_rax == SYS_vfork)
		*flags = 0;
	else
		return false; /* clone3 is refused by the filter; anything else: not known */
	return true;
}

/* Whose fs_struct (and so umask) child has: its own, or its creator's. */
static void note_fs(pid_t parent, pid_t child, bool known, unsigned long flags)
{
	if (!known)
		return; /* never cached (proc.c) */
	if (flags & CLONE_FS)
		proc_fs_join(child, parent);
	else
		proc_fs_own(child);
}

static void add_child(pid_t parent, pid_t child)
{
	pid_t ptgid, pppid;
	unsigned long flags = 0;
	bool have_flags = creation_flags(parent, &flags);

	if (proc_in_session(child)) {
		/*
		 * Its first stop came before this event and /proc told its ids;
		 * only its creator is news: it runs the creator's executable,
		 * and has its fs or its own.
		 */
		pid_t tgid, ppid;
		if (proc_info(child, &tgid, &ppid, NULL, 0))
			proc_add(child, tgid, ppid, parent);
		note_fs(parent, child, have_flags, flags);
		if (have_flags && (flags & CLONE_VM) && !(flags & CLONE_THREAD))
			proc_set_vm_owner(child, parent);
		return;
	}
	if (!proc_info(parent, &ptgid, &pppid, NULL, 0) || !have_flags) {
		add_task(child);
		return;
	}
	pid_t tgid = (flags & CLONE_THREAD) ? ptgid : child;
	pid_t ppid = (flags & (CLONE_THREAD | CLONE_PARENT)) ? pppid : ptgid;
	proc_add(child, tgid, ppid, parent);
	if (S->degraded)
		degraded_clone(parent, child, flags);
	note_fs(parent, child, true, flags);
	/* A vfork or posix_spawn child runs in its creator's memory, with its hint slot. */
	if ((flags & CLONE_VM) && !(flags & CLONE_THREAD))
		proc_set_vm_owner(child, parent);
	if (child == tgid)
		log_spawn(child);
}

/*
 * The argv of an exec event: at most 64 strings, each cut at 4 KiB and
 * 16 KiB in all ("argv_cut": true then), so that the line always fits.
 */
#define LOG_ARGS 64
#define LOG_ARG_BYTES 4096
#define LOG_ARGV_BYTES 16384

static void log_argv(struct jline *l, const char *cmd, size_t n)
{
	static char arg[LOG_ARG_BYTES + 1];
	size_t total = 0, at = 0;
	bool cut = false;
	int count = 0;

	jl_open(l, "argv", '[');
	while (at < n) {
		size_t len = strnlen(cmd + at, n - at), keep = len;
		if (count == LOG_ARGS || total >= LOG_ARGV_BYTES) {
			cut = true;
			break;
		}
		if (keep > LOG_ARG_BYTES)
			keep = LOG_ARG_BYTES;
		if (keep > LOG_ARGV_BYTES - total)
			keep = LOG_ARGV_BYTES - total;
		if (keep < len) {
			/* Cut at a character's start, not inside a UTF-8 sequence. */
			while (keep > 0 && ((unsigned char)cmd[at + keep] & 0xC0) == 0x80)
				keep--;
			cut = true;
		}
		memcpy(arg, cmd + at, keep);
		arg[keep] = '\0';
		jl_str(l, NULL, arg);
		total += keep;
		count++;
		at += len + 1;
	}
	jl_close(l, ']');
	if (cut)
		jl_bool(l, "argv_cut", true);
}

/*
 * Will the program pid has just exec'd load the preload library?  The
 * loader has not run yet at the exec event, so /proc/PID/maps cannot
 * tell: it is judged from what the loader will do.  A program without an
 * ELF interpreter (static, Go) loads nothing; a dynamic one, or ld.so
 * running a program, loads what its environment's LD_PRELOAD names.
 * Only a label and a hint to read or not: a wrong guess costs a log field.
 */
static bool loads_preload(pid_t pid, const struct exec_grant *g)
{
	/* An environment beyond this is judged on its start (the variables usually come first). */
	static char env[1 << 20];
	char path[64];
	ssize_t n, got = 0;

	if (S->preload.base == 0 || !(g->interp || g->loader))
		return false;
	snprintf(path, sizeof(path), "/proc/%d/environ", pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	while ((size_t)got < sizeof(env) && (n = read(fd, env + got, sizeof(env) - (size_t)got)) > 0)
		got += n;
	close(fd);
	return preload_in_environ(&S->preload, env, (size_t)got);
}

static void on_exec(pid_t pid)
{
	/* argv and envp may take 6 MiB (3/4 of the 8 MiB _STK_LIM) with a large stack limit. */
	static char cmd[6 * 1024 * 1024 + 1];
	unsigned long msg = 0;
	struct exec_grant g = { 0 };
	char exe[PATH_MAX];
	ssize_t n = 0;

	ptrace(PTRACE_GETEVENTMSG, pid, 0, &msg);
	pid_t former = (pid_t)msg;
	bool ok = exec_verify(pid, former ? former : pid, &g, exe, sizeof(exe), cmd, sizeof(cmd),
			      &n);
	if (former != pid && former != 0) {
		/* A thread exec'd: it now has the leader's id; the other threads are gone. */
		proc_fs_join(pid, former); /* and its fs_struct */
		proc_remove(former);
		restart_forget(former);
	}
	sighold_exec(former ? former : pid, pid);
	if (S->degraded)
		degraded_exec(former ? former : pid, pid);
	if (!ok) {
		kill(pid, SIGKILL);
		struct jline *l = log_begin(EV_EXEC, pid);
		jl_str(l, "decision", "kill");
		jl_str(l, "reason", "the program, its interpreter or argv differs from what was allowed");
		log_finish(l);
		return;
	}
	proc_set_exe(pid, exe);
	proc_set_loader(pid, &g); /* ld.so PROG: its open of PROG is checked; else nothing pending */
	bool preload = loads_preload(pid, &g);
	proc_set_preload(pid, preload);
	struct jline *l = log_begin(EV_EXEC, pid);
	jl_str(l, "path", exe);
	log_argv(l, cmd, (size_t)n);
	jl_bool(l, "static", g.is_static);
	if (S->preload.base != 0 && !preload)
		jl_bool(l, "preload", false);
	/* An exec that cannot be logged does not run: fail closed. */
	if (log_finish(l) < 0)
		kill(pid, SIGKILL);
}

/* A failure to start: the reason in why, for the command line to say; returns rc. */
__attribute__((format(printf, 4, 5))) static int fail(char *why, size_t len, int rc,
							const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(why, len, fmt, ap);
	va_end(ap);
	return rc;
}

static int exit_status(int st)
{
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

/*
 * The command has exited: what it left running is killed now, and waited
 * for, so that the log's last events are theirs and session-end comes
 * after them (ward's exit would kill them too, EXITKILL, but after
 * session-end was written, with calls still served meanwhile).  A task
 * ward has not seen yet (a child not yet at its first stop) is killed at
 * its first stop.  At most two seconds: a task that does not die (stuck in
 * the kernel) is left to EXITKILL.
 */
static void end_session(void)
{
	struct timespec t0, t;

	proc_kill_all();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		int st;
		pid_t w = waitpid(-1, &st, __WALL | WNOHANG);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return; /* ECHILD: nothing left */
		if (w > 0 && (WIFEXITED(st) || WIFSIGNALED(st))) {
			pid_t tgid, ppid;
			if (proc_info(w, &tgid, &ppid, NULL, 0)) {
				struct jline *l = log_begin(EV_EXIT, w);
				jl_int(l, "status", exit_status(st));
				log_finish(l);
			}
			proc_remove(w);
			continue;
		}
		if (w > 0) {
			kill(w, SIGKILL); /* stopped: a task met only now, or one still running */
			continue;
		}
		clock_gettime(CLOCK_MONOTONIC, &t);
		if ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000 > 2000)
			return;
		struct timespec nap = { 0, 1000 * 1000 };
		nanosleep(&nap, NULL);
	}
}

/*
 * Fork the agent under the filter (it waits at *sock for the word go),
 * take its listener and PTRACE_SEIZE it.  Its pid, or -errno with the
 * reason in why.
 */
static pid_t spawn(char **argv, char **envp, mode_t umask_, int *sock, char *why, size_t len)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return fail(why, len, -errno, "socketpair: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return fail(why, len, -errno, "fork: %s", strerror(errno));
	if (pid == 0) {
		close(sv[0]);
		child(sv[1], &ward_filter, argv, envp, umask_);
	}
	close(sv[1]);
	*sock = sv[0];
	S->child = pid;
	S->listener = take_listener(sv[0], pid);
	if (S->listener == -2)
		S->listener = -1;
	else if (S->listener < 0) {
		waitpid(pid, NULL, 0);
		return fail(why, len, -EIO, "the child could not install the seccomp filter");
	}
	/*
	 * SYNC_WAKE_UP (6.6): the agent and the worker that answers it hand
	 * the CPU to each other.  Without it the kernel's ordinary wake-up
	 * does the same job, a few microseconds slower a call.
	 */
	if (S->feat.sync_wake_up && S->listener >= 0)
		ioctl(S->listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP);
	/* TRACESYSGOOD: the system call stops of a thread holding signals (sighold.c) are told apart. */
	if (ptrace(PTRACE_SEIZE, pid, 0,
		   PTRACE_O_EXITKILL | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			   PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC | PTRACE_O_TRACESYSGOOD |
			   (S->degraded ? PTRACE_O_TRACESECCOMP : 0)) < 0) {
		int e = errno, scope = 0;
		FILE *y = fopen("/proc/sys/kernel/yama/ptrace_scope", "re");
		if (y != NULL && fscanf(y, "%d", &scope) != 1)
			scope = 0;
		if (y != NULL)
			fclose(y);
		kill(pid, SIGKILL);
		if (scope >= 2)
			return fail(why, len, -e, "cannot trace the child (PTRACE_SEIZE): %s: "
				    "kernel.yama.ptrace_scope is %d, which lets only %s trace",
				    strerror(e), scope, scope == 2 ? "CAP_SYS_PTRACE" : "no one");
		if (S->degraded_entry)
			return fail(why, len, -e, "cannot trace the child (PTRACE_SEIZE): %s: the "
				    "supervisor above this process refuses ptrace (ward inside ward: "
				    "docs/degraded.md)", strerror(e));
		return fail(why, len, -e, "cannot trace the child (PTRACE_SEIZE): %s", strerror(e));
	}
	/*
	 * --degraded at entry stops: stopped now, so that the tracer's first
	 * resume is PTRACE_SYSCALL, before it says go (degraded.c).
	 */
	if (S->degraded_entry && ptrace(PTRACE_INTERRUPT, pid, 0, 0) < 0) {
		kill(pid, SIGKILL);
		return fail(why, len, -errno, "cannot stop the child (PTRACE_INTERRUPT): %s",
			    strerror(errno));
	}
	return pid;
}

/*
 * What serves the agent once it runs: the name resolver and the
 * notification workers, with ward's signals blocked in them and handled
 * by this thread.  0, or -errno with the reason in why.
 */
static int start_serving(char *why, size_t len)
{
	sigset_t sigs, old;
	int rc;

	/* Workers must not take ward's signals: block them before they start. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigaddset(&sigs, SIGHUP);
	pthread_sigmask(SIG_BLOCK, &sigs, &old);
	/*
	 * ward holds descriptors for the agent while it works (a send may pass
	 * hundreds): its own limit, not the agent's, is raised to the hard one.
	 */
	struct rlimit nofile;
	if (getrlimit(RLIMIT_NOFILE, &nofile) == 0 && nofile.rlim_cur < nofile.rlim_max) {
		nofile.rlim_cur = nofile.rlim_max;
		setrlimit(RLIMIT_NOFILE, &nofile);
	}
	if ((rc = net_init(S->policy)) < 0)
		return fail(why, len, rc, "cannot start the name resolver: %s", strerror(-rc));
	/*
	 * Two workers a CPU: a worker that has just answered (ADDFD waits for
	 * the agent to take the fd) is still on its way back to RECV when the
	 * agent's next call arrives; a second one waiting there takes it at
	 * once.  Measured on the 2-CPU development machine: 1 worker 75 us an
	 * open, 2 workers 27 us, 4 workers 19 us, 8 workers 21 us.
	 */
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	long nworkers = getenv("WARD_WORKERS") ? atol(getenv("WARD_WORKERS")) : 2 * ncpu;
	if ((rc = notify_start(nworkers > 0 ? (int)nworkers : 4)) < 0)
		return fail(why, len, rc, "cannot start the notification workers: %s", strerror(-rc));
	struct sigaction sa = { .sa_handler = on_signal }; /* no SA_RESTART: waitpid returns */
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	return 0;
}

/*
 * Before 5.19 (no WAIT_KILLABLE_RECV) a signal ends a call's wait for
 * ward's answer even once ward has it, even as ward answers: a task
 * stopped for a signal with -ERESTARTSYS in rax was in a call the kernel
 * may restart, which restart.c must then answer, not perform again.
 */
static void note_interrupted(pid_t w)
{
	struct user_regs_struct g;

	if (ptrace(PTRACE_GETREGS, w, 0, &g) == 0 && (long long)g.rax == -512 /* ERESTARTSYS */) {
		uint64_t args[6] = { g.rdi, g.rsi, g.rdx, g.r10, g.r8, g.r9 };
		restart_interrupted(w, (int)g.orig_rax, g.rip, args);
	}
}

/*
 * A task of the session stopped (st: waitpid's): what stopped it, then on
 * (sighold_resume: a thread holding signals goes on to its next system
 * call stop).
 */
static void on_stop(pid_t w, int st)
{
	int event = st >> 16, sig = WSTOPSIG(st);

	add_task(w);
	switch (event) {
	case PTRACE_EVENT_FORK:
	case PTRACE_EVENT_VFORK:
	case PTRACE_EVENT_CLONE: {
		unsigned long msg = 0;
		if (ptrace(PTRACE_GETEVENTMSG, w, 0, &msg) == 0)
			add_child(w, (pid_t)msg);
		sighold_resume(w, 0);
		break;
	}
	case PTRACE_EVENT_EXEC:
		on_exec(w);
		sighold_resume(w, 0);
		break;
	case PTRACE_EVENT_SECCOMP:
		degraded_seccomp_stop(w); /* resumed when its call is answered */
		break;
	case PTRACE_EVENT_STOP:
		if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU) {
			ptrace(PTRACE_LISTEN, w, 0, 0); /* a group-stop */
			/* The pty's session leader stops with the agent (^Z): so does ward. */
			if (w == S->child)
				pty_agent_stopped(sig);
		} else {
			sighold_resume(w, 0);
		}
		break;
	case 0:
		if (sig == (SIGTRAP | 0x80)) {
			if (!S->degraded || !degraded_syscall_stop(w))
				sighold_syscall_stop(w);
			break;
		}
		if (S->degraded) {
			/* No notification to abort: the signal goes as it came (degraded.c). */
			degraded_signal_stop(w);
			ptrace(S->degraded_entry ? PTRACE_SYSCALL : PTRACE_CONT, w, 0, sig);
			break;
		}
		/* A signal on its way to the tracee: delivered, or held back (sighold.c). */
		if (restart_active())
			note_interrupted(w); /* before sighold looks: the call's registers as stopped */
		sighold_signal_stop(w, sig);
		break;
	default:
		sighold_resume(w, 0);
	}
}

/* A task of the session ended (st: waitpid's); true when it was the command, pid. */
static bool on_end(pid_t w, int st, pid_t pid, int *status)
{
	pid_t tgid = 0, ppid;

	if (proc_info(w, &tgid, &ppid, NULL, 0)) {
		struct jline *l = log_begin(EV_EXIT, w);
		jl_int(l, "status", exit_status(st));
		log_finish(l);
	}
	proc_remove(w);
	restart_forget(w);
	sighold_forget(w);
	if (tgid == w)
		proc_orphans(w); /* reparented by the kernel: ppid in the log follows */
	if (w != pid)
		return false;
	*status = exit_status(st);
	end_session();
	return true;
}

/* The tracer's loop, every ptrace call of the session, until the command pid has exited. */
static void trace(pid_t pid, int *status)
{
	*status = WARD_EXIT_FAILURE;
	for (;;) {
		int st;
		pid_t w = waitpid(-1, &st, __WALL);
		if (w < 0) {
			if (errno == EINTR) {
				int sig = pending_signal;
				pending_signal = 0;
				/* Signals sent to ward go to the agent's process group. */
				if (sig != 0)
					kill(-pid, sig);
				continue;
			}
			return; /* ECHILD: nothing left */
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (on_end(w, st, pid, status))
				return;
			continue;
		}
		if (WIFSTOPPED(st))
			on_stop(w, st);
	}
}

int tracer_run(char **argv, char **envp, int *status, char *why, size_t len)
{
	int sock = -1, rc;
	mode_t umask_ = umask(0);
	pid_t pid;

	umask(umask_);
	/*
	 * ward's own threads, which connect, bind and send for the agent, do
	 * so without CAP_NET_ADMIN (a netlink SOCK_DESTROY sent by ward is
	 * checked against ward's capabilities, not the agent's).
	 */
	if (drop_net_admin(false) < 0)
		return fail(why, len, -errno, "cannot drop CAP_NET_ADMIN: %s", strerror(errno));
	/*
	 * The session's orphans (a daemon's double fork) become ward's
	 * children, not init's: ward stays an ancestor of every process it
	 * serves, which Yama's ptrace_scope 1 (Ubuntu's default) requires of
	 * an unprivileged ward to read a process's memory.
	 */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
		return fail(why, len, -errno, "cannot become the session's subreaper: %s",
			    strerror(errno));
	if ((pid = spawn(argv, envp, umask_, &sock, why, len)) < 0)
		return pid;
	/* From here on ward serves the agent; its own files stay its own. */
	prctl(PR_SET_DUMPABLE, 0);
	/*
	 * ward sets the terminal's foreground group for the agent (tcsetpgrp,
	 * handlers/pid.c) from the background: it must not be stopped for it.
	 * The agent, forked already, keeps its own disposition.
	 */
	signal(SIGTTOU, SIG_IGN);
	umask(0);
	proc_add(pid, pid, getpid(), 0);
	proc_fs_own(pid); /* forked: a copy of ward's */
	log_spawn(pid);
	if ((rc = start_serving(why, len)) == 0 && (rc = pty_start(pid, S->id, S->vars.home)) < 0)
		rc = fail(why, len, rc, "cannot take the terminal: %s", strerror(-rc));
	if (rc == 0 && write(sock, "g", 1) != 1)
		rc = fail(why, len, -EIO, "cannot start the child");
	if (rc < 0) {
		kill(pid, SIGKILL);
		return rc;
	}
	close(sock);

	if (S->degraded)
		degraded_trace(pid, status, on_stop, on_end);
	else
		trace(pid, status);
	pty_finish(); /* the agent's last output shown, the terminal as it was */
	/* Take the terminal back for ward's process group. */
	if (isatty(STDIN_FILENO)) {
		signal(SIGTTOU, SIG_IGN);
		tcsetpgrp(STDIN_FILENO, getpgrp());
		signal(SIGTTOU, SIG_DFL);
	}
	return 0;
}
