/*
 * attack_uring - io_uring performs opens in the kernel's own workers,
 * where seccomp never looks; clone3 passes its flags in memory, where a
 * filter cannot read them.  DESIGN.md §2 invariant 5: both -> ENOSYS.
 *
 * io_uring_setup, io_uring_enter, io_uring_register and clone3 must all
 * fail with ENOSYS.  If io_uring_setup ever returns a ring, that alone is
 * reported as getting through (an IORING_OP_OPENAT of the secret would
 * follow).
 */
#include "attack.h"

#include <linux/sched.h>

#ifndef SYS_io_uring_setup
#define SYS_io_uring_setup 425
#define SYS_io_uring_enter 426
#define SYS_io_uring_register 427
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif

/* The filter answers ENOSYS, so that libc falls back to what ward sees. */
static void expect_enosys(const char *how, long rc)
{
	should_fail(how, rc, ENOSYS);
}

int main(void)
{
	unsigned char params[120] = { 0 }; /* struct io_uring_params */

	long ring = syscall(SYS_io_uring_setup, 8, params);
	expect_enosys("io_uring_setup(8)", ring);
	if (ring >= 0)
		close((int)ring);
	expect_enosys("io_uring_enter(0, ...)", syscall(SYS_io_uring_enter, 0, 1, 0, 0, NULL, 0));
	expect_enosys("io_uring_register(0, ...)", syscall(SYS_io_uring_register, 0, 0, NULL, 0));
	/* A high-bit variant of the number: the kernel uses the low 32 bits. */
	expect_enosys("io_uring_setup with high bits in the number",
		      syscall(0x100000000l | SYS_io_uring_setup, 8, params));

	struct clone_args ca = { .exit_signal = SIGCHLD };
	long pid = syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid == 0)
		_exit(0); /* the child, if clone3 went through */
	if (pid > 0)
		waitpid((pid_t)pid, NULL, 0);
	expect_enosys("clone3(plain fork)", pid);
	/* glibc's fallback to clone must still work. */
	pid_t kid = fork();
	if (kid == 0)
		_exit(7);
	int st = 0;
	if (kid < 0 || waitpid(kid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 7)
		wrong("fork() after clone3 failed: %s", kid < 0 ? strerror(errno) : wstatus(st));
	else
		say("note: fork() (clone) still works");
	return finish();
}
