/* mknod [-u MASK] PATH MODE DEV ...: mknod(2) on each group, then what was made. */
#include "common.h"

int main(int argc, char **argv)
{
	int i = umask_opt(argc, argv);

	if (argc == i || (argc - i) % 3 != 0)
		usage("mknod [-u MASK] PATH MODE DEV ...");
	for (; i < argc; i += 3) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_mknod, path, num(argv[i + 1]), num(argv[i + 2]));
		out(rc, errno, "mknod(%s, %s, %s)", q(path), argv[i + 1], argv[i + 2]);
		if (rc == 0)
			show_lstat(AT_FDCWD, path);
	}
	return 0;
}
