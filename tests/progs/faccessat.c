/* faccessat DIRFD PATH MODE ...: the raw faccessat(2), which has no flags. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("faccessat DIRFD PATH MODE ...");
	for (int i = 1; i < argc; i += 3) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long rc = syscall(SYS_faccessat, dirfd, path, num(argv[i + 2]));
		out(rc, errno, "faccessat(%s, %s, %s)", fdname(dirfd), q(path), argv[i + 2]);
	}
	return 0;
}
