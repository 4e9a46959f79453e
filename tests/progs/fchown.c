/* fchown FD UID GID ...: fchown(2) on each group (UID, GID: OWN, -1 or a number). */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("fchown FD UID GID ...");
	for (int i = 1; i < argc; i += 3) {
		int fd = fdarg(argv[i]);
		long rc = syscall(SYS_fchown, fd, idarg(argv[i + 1], 0), idarg(argv[i + 2], 1));
		out(rc, errno, "fchown(%s, %s, %s)", fdname(fd), argv[i + 1], argv[i + 2]);
	}
	return 0;
}
