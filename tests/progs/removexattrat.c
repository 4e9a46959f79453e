/*
 * removexattrat DIRFD PATH ATFLAGS NAME ...: removexattrat(2) (Linux
 * 6.13), which removes an xattr as removexattr does and must be
 * supervised as removexattr is.
 */
#include "common.h"

#ifndef SYS_removexattrat
#define SYS_removexattrat 466
#endif

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 4 != 0)
		usage("removexattrat DIRFD PATH ATFLAGS NAME ...");
	for (int i = 1; i < argc; i += 4) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long rc = syscall(SYS_removexattrat, dirfd, path, num(argv[i + 2]), argv[i + 3]);
		out(rc, errno, "removexattrat(%s, %s, %s, %s)", fdname(dirfd), q(path), argv[i + 2],
		    q(argv[i + 3]));
	}
	return 0;
}
