/* creat [-u MASK] PATH MODE ...: creat(2) on each pair, then what the fd is. */
#include "common.h"

int main(int argc, char **argv)
{
	int i = umask_opt(argc, argv);

	if (argc == i || (argc - i) % 2 != 0)
		usage("creat [-u MASK] PATH MODE ...");
	for (; i < argc; i += 2) {
		const char *path = patharg(argv[i]);
		long fd = syscall(SYS_creat, path, num(argv[i + 1]));
		out(fd, errno, "creat(%s, %s)", q(path), argv[i + 1]);
		if (fd >= 0)
			show_fd((int)fd);
	}
	return 0;
}
