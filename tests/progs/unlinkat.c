/* unlinkat DIRFD PATH FLAGS ...: unlinkat(2) on each group. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("unlinkat DIRFD PATH FLAGS ...");
	for (int i = 1; i < argc; i += 3) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long rc = syscall(SYS_unlinkat, dirfd, path, num(argv[i + 2]));
		out(rc, errno, "unlinkat(%s, %s, %s)", fdname(dirfd), q(path), argv[i + 2]);
	}
	return 0;
}
