/*
 * handlers/signal.c - kill, tkill, tgkill, rt_sigqueueinfo,
 * rt_tgsigqueueinfo, pidfd_open, pidfd_send_signal.
 *
 * A signal may reach only processes of the session: never ward, never
 * anything else of the user's.  A process group is allowed when it is the
 * session's (proc_pgrp_in_session()).
 */
#include "handlers.h"
#include "../mem.h"
#include "../notify.h"
#include "../proc.h"
#include "../procfs.h"
#include "../resolve.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>


/*
 * A process of the session (ward traces it), or one that has exited and
 * waits for its parent, of the session, to reap it (ward has let it go): a
 * signal to it does nothing, and pidfd_open of it works, as in the kernel
 * (asyncio opens a pidfd for a child that may have exited already).  Both
 * are proc_session_pid().
 */
static bool of_session(pid_t pid, const struct req *r)
{
	/* The caller's own process: the kernel keeps tgkill within it. */
	return pid == r->tgid || pid == r->tid || proc_session_pid(pid);
}

static bool may_signal(struct req *r, long target)
{
	if (target > 0)
		return of_session((pid_t)target, r);
	if (target == -1)
		return false; /* every process the user owns */
	pid_t pgrp = target == 0 ? proc_pgrp_of(r->tid) : (pid_t)-target;
	return pgrp > 0 && proc_pgrp_in_session(pgrp);
}

/*
 * The process of a /proc/PID directory fd, which pidfd_send_signal takes
 * as a pidfd: the directory must be the one /proc/PID names now (a process
 * of that number is then the one the fd was opened for, or that one is
 * gone and the kernel answers ESRCH).  -2 when fd is no such directory.
 */
static pid_t proc_dir_pid(int fd)
{
	char path[4096], *name, *end;
	struct stat st, now;

	if (fd_real_path(fd, path, sizeof(path)) < 0 || (name = strrchr(path, '/')) == NULL)
		return -2;
	long pid = strtol(name + 1, &end, 10);
	if (name[1] == '\0' || *end != '\0' || pid <= 0 || pid > INT32_MAX)
		return -2;
	snprintf(path, sizeof(path), "/proc/%ld", pid);
	if (fstat(fd, &st) < 0 || stat(path, &now) < 0 || !S_ISDIR(st.st_mode) ||
	    st.st_dev != now.st_dev || st.st_ino != now.st_ino)
		return -2;
	return (pid_t)pid;
}

/* pidfd_send_signal: judged on the process the pidfd refers to, in a copy of it. */
static int send_via_pidfd(struct req *r)
{
	const __u64 *arg = r->n->data.args;
	int fd, rc;
	char path[64], line[128];
	pid_t target = -2; /* no Pid: line: not a pidfd; -1: the process is gone */
	siginfo_t info, *infop = NULL;

	/* PIDFD_SIGNAL_PROCESS_GROUP (4) would reach the target's whole group. */
	if (arg[3] & ~(__u64)3)
		return -EPERM;
	if ((fd = agent_copy_fd(r, (int)arg[0])) < 0)
		return fd;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "re");
	while (f != NULL && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "Pid:", 4) == 0)
			target = atoi(line + 4);
	if (f != NULL)
		fclose(f);
	if (target == -2)
		target = proc_dir_pid(fd);
	r->result = target;
	r->sig_target = target > 0 ? (int)target : 0; /* the log names whom the pidfd was for */
	if (target == -2) {
		close(fd);
		return -EBADF; /* not a pidfd */
	}
	if (target <= 0 || !of_session(target, r)) {
		close(fd);
		return target == -1 || target == 0 ? -ESRCH : -EPERM;
	}
	if (arg[2] != 0) {
		if ((rc = mem_read(r, arg[2], &info, sizeof(info))) < 0) {
			close(fd);
			return rc;
		}
		infop = &info;
	}
	/* Decided on our own copy of the pidfd, sent with the info that was read. */
	rc = (int)syscall(SYS_pidfd_send_signal, fd, (int)arg[1], infop, (unsigned)arg[3]);
	rc = rc < 0 ? -errno : 0;
	close(fd);
	r->result = 0;
	return rc < 0 ? rc : 1;
}

int h_signal(struct req *r)
{
	const __u64 *arg = r->n->data.args;
	long target;
	int sig;

	r->event = EV_SIGNAL;
	switch (r->n->data.nr) {
	case SYS_kill:
	case SYS_rt_sigqueueinfo:
		target = (long)(int)arg[0];
		sig = (int)arg[1];
		break;
	case SYS_tkill:
		target = (long)(int)arg[0];
		sig = (int)arg[1];
		break;
	case SYS_tgkill:
	case SYS_rt_tgsigqueueinfo:
		/* Both ids must be of the session; the thread is what is hit. */
		if (!of_session((pid_t)arg[0], r)) {
			r->sig_target = (int)arg[1];
			r->sig_num = (int)arg[2];
			return -EPERM;
		}
		target = (long)(int)arg[1];
		sig = (int)arg[2];
		break;
	case SYS_pidfd_open:
		target = (long)(int)arg[0];
		sig = 0;
		break;
	case SYS_pidfd_send_signal:
		r->sig_num = (int)arg[1];
		return send_via_pidfd(r);
	default:
		return -ENOSYS;
	}
	r->sig_target = (int)target;
	r->sig_num = sig;
	if (target <= 0 && (r->n->data.nr == SYS_tkill || r->n->data.nr == SYS_tgkill ||
			    r->n->data.nr == SYS_rt_tgsigqueueinfo || r->n->data.nr == SYS_pidfd_open))
		return -EINVAL;
	if (!may_signal(r, target)) {
		/* A process that no longer exists is ESRCH, as without ward. */
		if (target > 0 && kill((pid_t)target, 0) < 0 && errno == ESRCH)
			return -ESRCH;
		return -EPERM;
	}
	/*
	 * CONTINUE: the decision depends on register values alone (the target
	 * id and the signal number) and on ward's own process table, never on
	 * the agent's memory.  The kernel sends the signal as the agent.
	 */
	return 0;
}
