/* faccessat2 DIRFD PATH MODE FLAGS ...: faccessat2(2) on each group. */
#include "common.h"

#ifndef SYS_faccessat2
#define SYS_faccessat2 439
#endif

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 4 != 0)
		usage("faccessat2 DIRFD PATH MODE FLAGS ...");
	for (int i = 1; i < argc; i += 4) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long rc = syscall(SYS_faccessat2, dirfd, path, num(argv[i + 2]), num(argv[i + 3]));
		out(rc, errno, "faccessat2(%s, %s, %s, %s)", fdname(dirfd), q(path), argv[i + 2],
		    argv[i + 3]);
	}
	return 0;
}
