/*
 * pidfd_send_signal TARGET SIG ...: a pidfd for TARGET (see targets.h) from
 * pidfd_open(2), or the fd argument TARGET when it is a number or starts
 * with one of common.h's fd prefixes; then pidfd_send_signal(2) on it.
 */
#include "targets.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("pidfd_send_signal TARGET SIG ...");
	for (int i = 1; i < argc; i += 2) {
		int fd;
		if (strchr("@%^=>#&+0123456789", argv[i][0]) != NULL) {
			fd = fdarg(argv[i]);
		} else {
			/* "dead": a pidfd for a live child, which then dies and is reaped. */
			int kill_it = strcmp(argv[i], "dead") == 0;
			pid_t t = target(kill_it ? "child" : argv[i]);
			fd = (int)syscall(SYS_pidfd_open, t, 0);
			out(fd, errno, "pidfd_open(%s, 0)", target_name(argv[i]));
			if (kill_it) {
				kill(t, SIGKILL);
				waitpid(t, NULL, 0);
				child_pid = 0;
			}
		}
		long rc = syscall(SYS_pidfd_send_signal, fd, num(argv[i + 1]), NULL, 0);
		out(rc, errno, "pidfd_send_signal(%s, %s, NULL, 0)", fdname(fd), argv[i + 1]);
		if (rc == 0 && num(argv[i + 1]) != 0)
			reap_if_dead();
		if (fd >= 0)
			close(fd);
	}
	reap_all();
	return 0;
}
