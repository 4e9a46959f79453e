/* newfstatat DIRFD PATH FLAGS ...: newfstatat(2) on each triple (PATH may be NULL). */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("newfstatat DIRFD PATH FLAGS ...");
	for (int i = 1; i < argc; i += 3) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		struct stat st;
		long rc = syscall(SYS_newfstatat, dirfd, path, &st, num(argv[i + 2]));
		if (rc == 0)
			out(rc, 0, "newfstatat(%s, %s, %s, %s)", fdname(dirfd), q(path),
			    fmt_stat(&st), argv[i + 2]);
		else
			out(rc, errno, "newfstatat(%s, %s, ..., %s)", fdname(dirfd), q(path),
			    argv[i + 2]);
	}
	return 0;
}
