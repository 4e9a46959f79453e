/*
 * attack_seccomp - install a second seccomp filter with a listener of our
 * own, to answer our own notifications.  DESIGN.md §2 invariant 5:
 * "seccomp with SECCOMP_FILTER_FLAG_NEW_LISTENER -> EPERM".
 *
 * Tried with the flag alone, combined with other flags, with garbage in
 * the upper 32 bits of the flags register (the kernel takes an unsigned
 * int), and through prctl(PR_SET_SECCOMP).  A filter that returns
 * SECCOMP_RET_USER_NOTIF for openat without a listener must not open the
 * secret either.  Each attempt runs in a child: a filter cannot be removed.
 */
#include "attack.h"

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/prctl.h>

#ifndef SECCOMP_FILTER_FLAG_NEW_LISTENER
#define SECCOMP_FILTER_FLAG_NEW_LISTENER (1UL << 3)
#endif
#ifndef SECCOMP_FILTER_FLAG_TSYNC_ESRCH
#define SECCOMP_FILTER_FLAG_TSYNC_ESRCH (1UL << 4)
#endif

static struct sock_filter insns[] = {
	BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
};
static struct sock_fprog prog = { .len = 4, .filter = insns };

/* In a child: try, report the result through the exit status. */
static void attempt_op(const char *how, unsigned long op, unsigned long flags)
{
	pid_t kid = fork();
	int st;

	if (kid == 0) {
		/* As ward's agents have it: then no privilege is needed. */
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		long fd = syscall(SYS_seccomp, op, flags, &prog);
		if (fd >= 0)
			_exit(100);
		_exit(errno == EPERM ? 0 : errno > 0 && errno < 100 ? errno : 99);
	}
	waitpid(kid, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
		blocked("%s: EPERM", how);
	} else if (WIFEXITED(st) && WEXITSTATUS(st) == 100) {
		att_through = 1;
		say("LEAK: %s: got a listener fd of our own", how);
	} else if (WIFEXITED(st)) {
		wrong("%s: %s, not EPERM", how, strerror(WEXITSTATUS(st)));
	} else {
		wrong("%s: %s", how, wstatus(st));
	}
}

static void attempt(const char *how, unsigned long flags)
{
	attempt_op(how, SECCOMP_SET_MODE_FILTER, flags);
}

int main(void)
{
	attempt("seccomp(SET_MODE_FILTER, NEW_LISTENER)", SECCOMP_FILTER_FLAG_NEW_LISTENER);
	attempt("seccomp(..., NEW_LISTENER | TSYNC_ESRCH)",
		SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_TSYNC_ESRCH);
	attempt("seccomp(..., NEW_LISTENER | LOG | SPEC_ALLOW)",
		SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_LOG |
			SECCOMP_FILTER_FLAG_SPEC_ALLOW);
	attempt("seccomp(..., NEW_LISTENER with high bits set)",
		0xffffffff00000000ul | SECCOMP_FILTER_FLAG_NEW_LISTENER);
	attempt("seccomp(..., all flag bits)", 0xfffffffful);
	/* The kernel takes op as 32 bits (past ward, it would answer EBUSY: a listener exists). */
	attempt_op("seccomp(SET_MODE_FILTER with high bits set, NEW_LISTENER)",
		   (1ul << 32) | SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER);

	/* prctl cannot ask for a listener; a notifying filter then has nobody to answer. */
	pid_t kid = fork();
	if (kid == 0) {
		struct sock_filter ins[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog pr = { .len = 4, .filter = ins };
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &pr, 0, 0) < 0)
			_exit(0);
		int fd = openat(AT_FDCWD, SECRET, O_RDONLY);
		if (fd >= 0 && check_fd("prctl filter returning USER_NOTIF, then openat(secret/x)", fd))
			_exit(1);
		_exit(0);
	}
	int st;
	waitpid(kid, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		blocked("prctl(PR_SET_SECCOMP) + a USER_NOTIF filter: the secret stays closed");
	else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGSYS && kernel_lacks("user_notif"))
		/* Before 5.0 an action the kernel does not know kills the process. */
		blocked("prctl(PR_SET_SECCOMP) + a USER_NOTIF filter: killed by SIGSYS (no user "
			"notification in this kernel), the secret stays closed");
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 1)
		att_through = 1; /* check_fd said the secret's LEAK */
	else
		wrong("prctl(PR_SET_SECCOMP) + a USER_NOTIF filter: the child %s", wstatus(st));
	return finish();
}
