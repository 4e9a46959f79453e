/* pidfd_open TARGET FLAGS ...: pidfd_open(2) on each pair (TARGET: see targets.h). */
#include "targets.h"

#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("pidfd_open TARGET FLAGS ...");
	for (int i = 1; i < argc; i += 2) {
		pid_t t = target(argv[i]);
		long fd = syscall(SYS_pidfd_open, t, num(argv[i + 1]));
		out(fd, errno, "pidfd_open(%s, %s)", target_name(argv[i]), argv[i + 1]);
		if (fd >= 0)
			close((int)fd);
	}
	reap_all();
	return 0;
}
