/* fchmodat DIRFD PATH MODE ...: the raw fchmodat(2), which has no flags. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("fchmodat DIRFD PATH MODE ...");
	for (int i = 1; i < argc; i += 3) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long rc = syscall(SYS_fchmodat, dirfd, path, num(argv[i + 2]));
		out(rc, errno, "fchmodat(%s, %s, %s)", fdname(dirfd), q(path), argv[i + 2]);
		if (rc == 0)
			show_lstat(dirfd, path);
	}
	return 0;
}
