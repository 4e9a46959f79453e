/* mknodat [-u MASK] DIRFD PATH MODE DEV ...: mknodat(2) on each group, then what was made. */
#include "common.h"

int main(int argc, char **argv)
{
	int i = umask_opt(argc, argv);

	if (argc == i || (argc - i) % 4 != 0)
		usage("mknodat [-u MASK] DIRFD PATH MODE DEV ...");
	for (; i < argc; i += 4) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long rc = syscall(SYS_mknodat, dirfd, path, num(argv[i + 2]), num(argv[i + 3]));
		out(rc, errno, "mknodat(%s, %s, %s, %s)", fdname(dirfd), q(path), argv[i + 2],
		    argv[i + 3]);
		if (rc == 0)
			show_lstat(dirfd, path);
	}
	return 0;
}
