/* mkdir [-u MASK] PATH MODE ...: mkdir(2) on each pair, then what was made. */
#include "common.h"

int main(int argc, char **argv)
{
	int i = umask_opt(argc, argv);

	if (argc == i || (argc - i) % 2 != 0)
		usage("mkdir [-u MASK] PATH MODE ...");
	for (; i < argc; i += 2) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_mkdir, path, num(argv[i + 1]));
		out(rc, errno, "mkdir(%s, %s)", q(path), argv[i + 1]);
		if (rc == 0)
			show_lstat(AT_FDCWD, path);
	}
	return 0;
}
