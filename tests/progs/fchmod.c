/* fchmod FD MODE ...: fchmod(2) on each pair, then the mode. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("fchmod FD MODE ...");
	for (int i = 1; i < argc; i += 2) {
		int fd = fdarg(argv[i]);
		long rc = syscall(SYS_fchmod, fd, num(argv[i + 1]));
		out(rc, errno, "fchmod(%s, %s)", fdname(fd), argv[i + 1]);
		if (rc == 0)
			show_fstat(fd);
	}
	return 0;
}
