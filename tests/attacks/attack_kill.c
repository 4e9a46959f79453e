/*
 * attack_kill MODE - kill, stop, trace or write into the supervisor.
 * DESIGN.md §1 guarantee 2: the agent cannot "stop, kill, trace or write
 * into the supervisor".  ward is our parent (getppid()); the driver runs
 * ward in a session and process group of its own (setsid), so an attack
 * that gets through hurts only ward and this agent.  Success shows as
 * ward dying (no "session-end" in its log, exit 128+N) or as a LEAK line.
 *
 *   signals  kill(ward, SIGKILL), kill(ward, SIGSTOP), tkill/tgkill of
 *            ward's threads, rt_sigqueueinfo, pidfd_open + pidfd_send_signal,
 *            kill(-ward's pgrp), kill(-1, 0) (signal 0 only: SIGKILL to -1
 *            would hit every process of the user if it got through)
 *   pgrp     setpgid(0, ward's pgrp) (not supervised), then kill(0, SIGKILL)
 *   ptrace   ptrace(ATTACH/SEIZE/TRACEME), process_vm_readv/writev,
 *            /proc/PPID/mem for reading and writing, pidfd_getfd
 *   sigio    fcntl(F_SETOWN, ward) + O_ASYNC on a pipe, then write to it:
 *            the kernel sends SIGIO (default action: terminate) to ward.
 *            Then F_SETSIG(SIGKILL) and F_SETOWN(-pgrp) for good measure.
 *   prlimit  prlimit(ward, RLIMIT_FSIZE, 0) and RLIMIT_NOFILE, then a call
 *            ward must log (its next write to the log gets SIGXFSZ)
 *   tty      O_ASYNC (F_SETFL, FIOASYNC) on a terminal, whose SIGIO goes to
 *            its foreground process group, whoever that is (another
 *            terminal's shell, ward's own group), made SIGKILL with
 *            F_SETSIG; and tcsetpgrp to ward's group.  Refused (EPERM);
 *            O_ASYNC on a pipe still works (the control)
 */
#include "attack.h"

#include <sys/ioctl.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/uio.h>

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

static pid_t ward;

/* ward's answer to a call aimed at a process outside the session, and the filter's. */
static void expect_fail(const char *how, long rc)
{
	should_fail(how, rc, EPERM);
}

/*
 * A signal to a thread number that may be ward's: where there is no such
 * thread, the kernel's ESRCH (it comes first) says nothing of the policy.
 */
static void thread_kill(const char *how, long rc)
{
	if (rc < 0 && errno == ESRCH)
		say("note: %s: no such thread", how);
	else
		expect_fail(how, rc);
}

/* Still here and ward too? (ward's death takes the agent with it, but not at once.) */
static void ward_alive(const char *after)
{
	usleep(100 * 1000);
	if (getppid() != ward) {
		att_through = 1;
		say("LEAK: after %s ward is gone (parent is now %d)", after, getppid());
	}
	int fd = open(PUBLIC, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		wrong("after %s: open(public/x) fails: %s", after, strerror(errno));
	else
		close(fd);
	if (getppid() == ward)
		blocked("after %s, ward is alive and serving", after);
}

static void mode_signals(void)
{
	pid_t pg = getpgid(ward);

	expect_fail("kill(ward, SIGKILL)", kill(ward, SIGKILL));
	ward_alive("kill(SIGKILL)");
	expect_fail("kill(ward, SIGTERM)", kill(ward, SIGTERM));
	expect_fail("kill(ward, 0)", kill(ward, 0));
	/*
	 * ward's threads have the numbers after its pid.  Natively those are
	 * other processes' (the stand-in's helper, or anyone's): only the
	 * stand-in itself is aimed at then.
	 */
	for (pid_t tid = ward; tid < (native_run() ? ward + 1 : ward + 8); tid++) {
		char how[64];
		snprintf(how, sizeof(how), "tgkill(ward, %d, SIGKILL)", tid);
		if (tid != getpid())
			thread_kill(how, syscall(SYS_tgkill, ward, tid, SIGKILL));
		snprintf(how, sizeof(how), "tkill(%d, SIGKILL)", tid);
		if (tid != getpid() && tid != gettid())
			thread_kill(how, syscall(SYS_tkill, tid, SIGKILL));
	}
	siginfo_t si = { .si_signo = SIGKILL, .si_code = SI_QUEUE };
	expect_fail("rt_sigqueueinfo(ward, SIGKILL)", syscall(SYS_rt_sigqueueinfo, ward, SIGKILL, &si));
	long pfd = syscall(SYS_pidfd_open, ward, 0);
	expect_fail("pidfd_open(ward)", pfd);
	if (pfd >= 0)
		expect_fail("pidfd_send_signal(ward, SIGKILL)",
			    syscall(SYS_pidfd_send_signal, (int)pfd, SIGKILL, NULL, 0));
	if (pg > 0 && pg != getpgrp())
		expect_fail("kill(-ward's pgrp, SIGKILL)", kill(-pg, SIGKILL));
	expect_fail("kill(-1, 0)", kill(-1, 0));
	expect_fail("kill(ward, SIGSTOP)", kill(ward, SIGSTOP));
	ward_alive("kill(SIGSTOP)");
}

static void mode_pgrp(void)
{
	pid_t pg = getpgid(ward);

	say("note: ward %d, ward's pgrp %d, mine %d", ward, pg, getpgrp());
	if (setpgid(0, pg) == 0) {
		say("note: setpgid(0, ward's pgrp) worked: now in ward's process group");
	} else {
		/* Refused: kill(0) now reaches only the agent's own group, which is fine. */
		expect_fail("setpgid(0, ward's pgrp)", -1);
		ward_alive("setpgid(0, ward's pgrp)");
		return;
	}
	expect_fail("kill(0, SIGCONT) in ward's group", kill(0, SIGCONT));
	expect_fail("kill(0, SIGKILL) in ward's group", kill(0, SIGKILL));
	ward_alive("kill(0, SIGKILL)");
}

static void mode_ptrace(void)
{
	char buf[64], p[64];
	struct iovec local = { buf, sizeof(buf) }, remote = { (void *)0x400000, sizeof(buf) };

	expect_fail("ptrace(PTRACE_ATTACH, ward)", ptrace(PTRACE_ATTACH, ward, 0, 0));
	expect_fail("ptrace(PTRACE_SEIZE, ward)", ptrace(PTRACE_SEIZE, ward, 0, 0));
	expect_fail("ptrace(PTRACE_TRACEME)", ptrace(PTRACE_TRACEME, 0, 0, 0));
	ssize_t n = process_vm_readv(ward, &local, 1, &remote, 1, 0);
	if (n < 0 && errno == EFAULT)
		n = 1; /* permitted, the address was just wrong */
	expect_fail("process_vm_readv(ward)", n < 0 ? -1 : n);
	n = process_vm_writev(ward, &local, 1, &remote, 1, 0);
	if (n < 0 && errno == EFAULT)
		n = 1;
	expect_fail("process_vm_writev(ward)", n < 0 ? -1 : n);
	snprintf(p, sizeof(p), "/proc/%d/mem", ward);
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	should_fail("open(/proc/PPID/mem, O_RDONLY)", fd, EACCES); /* deny! on /proc of outsiders */
	if (fd >= 0)
		close(fd);
	fd = open(p, O_RDWR | O_CLOEXEC);
	should_fail("open(/proc/PPID/mem, O_RDWR)", fd, EACCES); /* deny! on /proc of outsiders */
	if (fd >= 0)
		close(fd);
	for (pid_t tid = ward + 1; tid < ward + 8; tid++) {
		snprintf(p, sizeof(p), "/proc/%d/task/%d/mem", ward, tid);
		if (tid == getpid())
			continue;
		fd = open(p, O_RDWR | O_CLOEXEC);
		if (fd >= 0 || errno != ENOENT)
			should_fail("open(/proc/PPID/task/TID/mem)", fd, EACCES); /* deny! on /proc of outsiders */
		if (fd >= 0)
			close(fd);
	}
	/* pidfd_getfd needs a pidfd of ward: try our own and a raw number. */
	long pfd = syscall(SYS_pidfd_open, getpid(), 0);
	if (pfd >= 0)
		for (int i = 3; i < 8; i++) {
			long got = syscall(SYS_pidfd_getfd, (int)pfd, i, 0);
			if (got >= 0) {
				say("note: pidfd_getfd(self, %d) = %ld", i, got);
				close((int)got);
			}
		}
	ward_alive("ptrace attempts");
}

static void mode_sigio(void)
{
	int p[2];
	pid_t pg = getpgid(ward);

	if (pipe(p) < 0)
		setup_failed("pipe");
	if (fcntl(p[0], F_SETOWN, ward) == 0) {
		say("note: fcntl(F_SETOWN, ward) accepted");
		fcntl(p[0], F_SETFL, fcntl(p[0], F_GETFL) | O_ASYNC);
		if (write(p[1], "x", 1) != 1)
			say("note: write: %s", strerror(errno));
		ward_alive("F_SETOWN(ward) + O_ASYNC + write (SIGIO)");
	} else {
		refused("fcntl(F_SETOWN, ward)", errno, EPERM);
	}
	int q[2];
	if (pipe(q) == 0) {
		int ok = fcntl(q[0], F_SETOWN, ward) == 0 && fcntl(q[0], F_SETSIG, SIGKILL) == 0 &&
			 fcntl(q[0], F_SETFL, O_ASYNC) == 0;
		if (ok) {
			if (write(q[1], "x", 1) != 1)
				say("note: write: %s", strerror(errno));
			ward_alive("F_SETOWN(ward) + F_SETSIG(SIGKILL) + write");
		} else {
			refused("F_SETOWN/F_SETSIG(SIGKILL)", errno, EPERM);
		}
	}
	if (pg > 0 && pg != getpgrp() && pipe(q) == 0) {
		int ok = fcntl(q[0], F_SETOWN, -pg) == 0 && fcntl(q[0], F_SETFL, O_ASYNC) == 0;
		if (ok) {
			if (write(q[1], "x", 1) != 1)
				say("note: write: %s", strerror(errno));
			ward_alive("F_SETOWN(-ward's pgrp) + write");
		} else {
			refused("F_SETOWN(-pgrp)", errno, EPERM);
		}
	}
}

static void mode_prlimit(void)
{
	struct rlimit zero = { 0, 0 }, old;

	if (prlimit(ward, RLIMIT_NOFILE, NULL, &old) == 0)
		say("note: prlimit(ward) can read ward's limits (RLIMIT_NOFILE %lu)",
		    (unsigned long)old.rlim_cur);
	expect_fail("prlimit(ward, RLIMIT_FSIZE, 0)", prlimit(ward, RLIMIT_FSIZE, &zero, NULL));
	/* ward logs this decision: a write past RLIMIT_FSIZE raises SIGXFSZ in ward. */
	int fd = open(PUBLIC, O_RDONLY | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	ward_alive("prlimit(RLIMIT_FSIZE)");
	expect_fail("prlimit(ward, RLIMIT_NOFILE, 0)", prlimit(ward, RLIMIT_NOFILE, &zero, NULL));
	ward_alive("prlimit(RLIMIT_NOFILE)");
	struct rlimit one = { 1, 1 };
	expect_fail("prlimit(ward, RLIMIT_CPU, 1s)", prlimit(ward, RLIMIT_CPU, &one, NULL));
	errno = 0;
	int r = setpriority(PRIO_PROCESS, (id_t)ward, 19);
	say("note: setpriority(ward, 19): %s", r == 0 ? "accepted (ward now runs at nice 19)" : strerror(errno));
}

static void mode_tty(void)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY);
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0)
		setup_failed("posix_openpt");
	int t = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (t < 0)
		setup_failed("open the pty");
	int fds[2] = { t, m };
	const char *names[2] = { "the pty", "its master" };
	for (int i = 0; i < 2; i++) {
		fcntl(fds[i], F_SETSIG, SIGKILL);
		int fl = fcntl(fds[i], F_GETFL);
		if (fcntl(fds[i], F_SETFL, fl | O_ASYNC) == 0) {
			att_through = 1;
			say("LEAK: F_SETFL O_ASYNC on %s: SIGIO (SIGKILL) to its foreground group", names[i]);
		} else if (errno != EPERM) {
			wrong("F_SETFL O_ASYNC on %s: %s, expected EPERM", names[i], strerror(errno));
		} else {
			blocked("F_SETFL O_ASYNC on %s: EPERM", names[i]);
		}
		int on = 1;
		if (ioctl(fds[i], FIOASYNC, &on) == 0) {
			att_through = 1;
			say("LEAK: ioctl(FIOASYNC) on %s", names[i]);
		} else {
			refused("ioctl(FIOASYNC) on a terminal", errno, EPERM);
		}
	}
	pid_t wpg = getpgid(getppid());
	if (ioctl(t, TIOCSPGRP, &wpg) == 0) {
		att_through = 1;
		say("LEAK: tcsetpgrp(pty, ward's group)");
	} else {
		refused("tcsetpgrp(pty, ward's group)", errno, EPERM);
	}
	/* The control: O_ASYNC is for pipes and sockets too, and works there. */
	int p[2];
	if (pipe(p) < 0)
		setup_failed("pipe");
	if (fcntl(p[0], F_SETFL, O_ASYNC) < 0 || !(fcntl(p[0], F_GETFL) & O_ASYNC))
		wrong("F_SETFL O_ASYNC on a pipe: %s", strerror(errno));
	else
		say("note: F_SETFL O_ASYNC on a pipe works");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "signals";

	ward = getppid();
	say("note: ward is pid %d", ward);
	if (strcmp(mode, "signals") == 0)
		mode_signals();
	else if (strcmp(mode, "pgrp") == 0)
		mode_pgrp();
	else if (strcmp(mode, "ptrace") == 0)
		mode_ptrace();
	else if (strcmp(mode, "sigio") == 0)
		mode_sigio();
	else if (strcmp(mode, "tty") == 0)
		mode_tty();
	else if (strcmp(mode, "prlimit") == 0)
		mode_prlimit();
	else {
		errno = EINVAL;
		setup_failed(mode);
	}
	return finish();
}
