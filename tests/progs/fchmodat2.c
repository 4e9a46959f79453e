/*
 * fchmodat2 DIRFD PATH MODE FLAGS ...: fchmodat2(2) (Linux 6.6), which
 * changes a mode as chmod does and must be supervised as chmod is.
 */
#include "common.h"

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 4 != 0)
		usage("fchmodat2 DIRFD PATH MODE FLAGS ...");
	for (int i = 1; i < argc; i += 4) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long rc = syscall(SYS_fchmodat2, dirfd, path, num(argv[i + 2]), num(argv[i + 3]));
		out(rc, errno, "fchmodat2(%s, %s, %s, %s)", fdname(dirfd), q(path), argv[i + 2],
		    argv[i + 3]);
		if (rc == 0)
			show_lstat(dirfd, path);
	}
	return 0;
}
