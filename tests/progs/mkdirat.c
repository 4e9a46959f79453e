/* mkdirat [-u MASK] DIRFD PATH MODE ...: mkdirat(2) on each group, then what was made. */
#include "common.h"

int main(int argc, char **argv)
{
	int i = umask_opt(argc, argv);

	if (argc == i || (argc - i) % 3 != 0)
		usage("mkdirat [-u MASK] DIRFD PATH MODE ...");
	for (; i < argc; i += 3) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long rc = syscall(SYS_mkdirat, dirfd, path, num(argv[i + 2]));
		out(rc, errno, "mkdirat(%s, %s, %s)", fdname(dirfd), q(path), argv[i + 2]);
		if (rc == 0)
			show_lstat(dirfd, path);
	}
	return 0;
}
