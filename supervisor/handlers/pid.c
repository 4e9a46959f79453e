/*
 * handlers/pid.c - calls that reach another process without a signal
 * call: SIGIO ownership (fcntl F_SETOWN/F_SETOWN_EX, ioctl FIOSETOWN/
 * SIOCSPGRP), resource limits, priorities, scheduling, page migration,
 * kcmp.  Each may aim only at processes of the session, so the agent
 * cannot make ward a SIGIO target, lower its limits or starve it.
 */
#include "handlers.h"
#include "../mem.h"
#include "../notify.h"
#include "../proc.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <signal.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#define IOPRIO_WHO_PROCESS 1
#define IOPRIO_WHO_PGRP 2

/* 0 (the caller itself) or a process of the session. */
static bool own(pid_t pid)
{
	return pid == 0 || proc_of_session(pid);
}

/* A SIGIO owner: a process (> 0) or a process group (< 0). */
static bool owner_ok(long owner)
{
	if (owner == 0)
		return true; /* clears the owner */
	if (owner > 0)
		return proc_of_session((pid_t)owner);
	return proc_pgrp_in_session((pid_t)-owner);
}

/* Run fcntl/ioctl on fd, ward's copy, and close it: the call's answer. */
static int run_on(struct req *r, int fd, unsigned long cmd, void *arg, bool is_ioctl)
{
	int rc = is_ioctl ? ioctl(fd, cmd, arg) : fcntl(fd, (int)cmd, arg);

	rc = rc < 0 ? -errno : rc;
	close(fd);
	r->result = rc;
	return rc < 0 ? rc : 1;
}

static int on_copy(struct req *r, int agentfd, unsigned long cmd, void *arg, bool is_ioctl)
{
	int fd = agent_copy_fd(r, agentfd);
	return fd < 0 ? fd : run_on(r, fd, cmd, arg, is_ioctl);
}

/*
 * O_ASYNC turned on (F_SETFL, FIOASYNC), judged on the open file itself:
 * SIGIO from a terminal goes to its foreground process group, whoever
 * that is (another terminal's shell, ward's), and can be made SIGKILL
 * (F_SETSIG).  Elsewhere it goes to the owner, which F_SETOWN checks.
 */
static int async_on(struct req *r, int agentfd, unsigned long cmd, void *arg, bool is_ioctl)
{
	int fd = agent_copy_fd(r, agentfd);

	if (fd < 0)
		return fd;
	if (isatty(fd)) {
		close(fd);
		return refuse(r, EPERM, "SIGIO from a terminal goes to its foreground process group");
	}
	return run_on(r, fd, cmd, arg, is_ioctl);
}

/*
 * tcsetpgrp: the new foreground group must be the session's.  ward sets
 * it on its copy of the terminal (ward ignores SIGTTOU: it is in the
 * background then); job control is kept for the agent: a caller in the
 * background that does not ignore or block SIGTTOU gets it, and the call
 * is restarted when it goes on, as the kernel does.
 */
static int set_fg(struct req *r, int agentfd, pid_t pgrp)
{
	if (!proc_pgrp_in_session(pgrp))
		return -EPERM;
	pid_t caller = getpgid(r->tid);
	if (caller < 0)
		return -ESRCH;
	int fd = agent_copy_fd(r, agentfd);
	if (fd < 0)
		return fd;
	pid_t fg = tcgetpgrp(fd);
	if (fg > 0 && fg != caller && !agent_ignores(r, SIGTTOU)) {
		close(fd);
		kill(-caller, SIGTTOU);
		return -ERESTARTSYS;
	}
	return run_on(r, fd, TIOCSPGRP, &pgrp, true);
}

/*
 * A new core dump limit (setrlimit, prlimit64 with one): the session's
 * processes have 0 for both limits from the start (tracer.c), so the only
 * one that passes is 0, 0, which changes nothing: answered here, with the
 * old limits (0, 0) written where asked.  Read from the agent's memory,
 * so never let through to the kernel.
 */
static int core_limit(struct req *r, uint64_t newp, uint64_t oldp)
{
	struct {
		uint64_t cur, max;
	} lim, zero = { 0, 0 };
	int rc;

	req_about(r, OP_RLIMIT, NULL);
	if ((rc = mem_read(r, newp, &lim, sizeof(lim))) < 0)
		return rc;
	if (lim.cur > lim.max)
		return -EINVAL;
	if (lim.max > 0)
		return refuse(r, EPERM, "core dumps stay off in a session: the kernel writes them "
					"where no rule looks");
	if (oldp != 0 && (rc = mem_write(r, oldp, &zero, sizeof(zero))) < 0)
		return rc;
	return req_answer_value(r, 0);
}

/*
 * fcntl: F_SETOWN (CONTINUE, on the owner in a register), O_ASYNC turned
 * on, F_SETOWN_EX (its owner is in the agent's memory: read, checked and
 * set by ward).
 */
static int pid_fcntl(struct req *r, const __u64 *a)
{
	if ((int)a[1] == F_SETOWN) {
		r->sig_target = (int)a[2];
		/* CONTINUE: the owner is a register; ward's process table says whose. */
		return owner_ok((long)(int)a[2]) ? 0 : -EPERM;
	}
	if ((int)a[1] == F_SETFL) {
		/* O_ASYNC (the filter notifies no other F_SETFL): not on a terminal. */
		r->sig_target = 0;
		return async_on(r, (int)a[0], F_SETFL, (void *)(uintptr_t)a[2], false);
	}
	if ((int)a[1] == F_SETOWN_EX) {
		/* The owner is in the agent's memory: read it, check it, set it ourselves. */
		struct f_owner_ex ex;
		int rc = mem_read(r, a[2], &ex, sizeof(ex));
		if (rc < 0)
			return rc;
		r->sig_target = ex.pid;
		if (!(ex.type == F_OWNER_PGRP ? owner_ok(-(long)ex.pid) : owner_ok(ex.pid)))
			return -EPERM;
		return on_copy(r, (int)a[0], F_SETOWN_EX, &ex, false);
	}
	return -EINVAL; /* the filter notifies no other command */
}

/*
 * ioctl: btrfs's type, and the commands that aim SIGIO or choose a
 * terminal's foreground group, whose argument (the agent's memory) ward
 * reads once and passes on its copy of the fd.
 */
static int pid_ioctl(struct req *r, const __u64 *a)
{
	if (((unsigned)a[1] & 0xff00) == 0x9400) {
		/*
		 * btrfs's type: the generic FICLONE, FICLONERANGE and
		 * FIDEDUPERANGE only (their source is an fd the agent opened for
		 * reading, so judged).  CONTINUE: decided on the command number
		 * alone, a register.
		 */
		unsigned cmd = (unsigned)a[1];
		r->sig_target = 0;
		if (cmd == FICLONE || cmd == FICLONERANGE || cmd == FIDEDUPERANGE)
			return 0;
		return refuse(r, EPERM, "a btrfs ioctl: snapshots and raw reads reach files past their names");
	}
	int owner, rc = mem_read(r, a[2], &owner, sizeof(owner));
	if (rc < 0)
		return rc;
	r->sig_target = owner;
	if ((unsigned)a[1] == FIOASYNC) {
		r->sig_target = 0;
		return owner ? async_on(r, (int)a[0], FIOASYNC, &owner, true)
			     : on_copy(r, (int)a[0], FIOASYNC, &owner, true);
	}
	if ((unsigned)a[1] == TIOCSPGRP)
		return set_fg(r, (int)a[0], (pid_t)owner);
	/* FIOSETOWN and SIOCSPGRP take a pid, or a negated process group. */
	if (!owner_ok(owner))
		return -EPERM;
	return on_copy(r, (int)a[0], (unsigned)a[1], &owner, true);
}

int h_pid(struct req *r)
{
	const __u64 *a = r->n->data.args;
	int nr = r->n->data.nr;
	bool ok;

	r->event = nr == SYS_fcntl || nr == SYS_ioctl ? EV_SIGNAL : EV_PROCESS;
	switch (nr) {
	case SYS_fcntl:
		return pid_fcntl(r, a);
	case SYS_ioctl:
		return pid_ioctl(r, a);
	case SYS_setrlimit:
		if ((unsigned)a[0] != RLIMIT_CORE)
			return 0; /* CONTINUE: the filter sends RLIMIT_CORE only; registers alone */
		return core_limit(r, a[1], 0);
	case SYS_prlimit64:
		if ((unsigned)a[1] == RLIMIT_CORE && a[2] != 0) {
			r->sig_target = (int)a[0];
			if (!own((pid_t)a[0]))
				return -EPERM;
			return core_limit(r, a[2], a[3]);
		}
		/* fall through */
	case SYS_sched_setaffinity:
	case SYS_sched_setscheduler:
	case SYS_sched_setparam:
	case SYS_sched_setattr:
	case SYS_migrate_pages:
	case SYS_move_pages:
		r->sig_target = (int)a[0];
		ok = own((pid_t)a[0]);
		break;
	case SYS_setpgid: {
		/*
		 * Joining ward's process group would put ward in reach of kill(0)
		 * and of the terminal's signals meant for the agent.
		 */
		pid_t pid = (pid_t)a[0], pgid = (pid_t)a[1];
		r->sig_target = pgid;
		ok = own(pid) && (pgid == 0 || pgid == pid || pgid == r->tgid ||
				  proc_pgrp_in_session(pgid));
		break;
	}
	case SYS_kcmp:
		r->sig_target = (int)a[1];
		ok = own((pid_t)a[0]) && own((pid_t)a[1]);
		break;
	case SYS_setpriority:
	case SYS_ioprio_set: {
		int which = (int)a[0];
		pid_t who = (pid_t)a[1];
		r->sig_target = who;
		bool process = nr == SYS_setpriority ? which == PRIO_PROCESS : which == IOPRIO_WHO_PROCESS;
		bool pgrp = nr == SYS_setpriority ? which == PRIO_PGRP : which == IOPRIO_WHO_PGRP;
		if (process)
			ok = own(who);
		else if (pgrp)
			ok = who == 0 || proc_pgrp_in_session(who);
		else
			ok = false; /* every process of the user: ward too */
		break;
	}
	default:
		return -ENOSYS;
	}
	if (!ok)
		return -EPERM;
	/*
	 * CONTINUE: the decision depends on register values alone (the
	 * target id) and on ward's own process table, not on the agent's
	 * memory; the kernel performs the call as the agent.
	 */
	return 0;
}
