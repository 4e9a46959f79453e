/* fremovexattr FD NAME ...: fremovexattr(2) on each pair. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("fremovexattr FD NAME ...");
	for (int i = 1; i < argc; i += 2) {
		int fd = fdarg(argv[i]);
		long rc = syscall(SYS_fremovexattr, fd, argv[i + 1]);
		out(rc, errno, "fremovexattr(%s, %s)", fdname(fd), q(argv[i + 1]));
	}
	return 0;
}
