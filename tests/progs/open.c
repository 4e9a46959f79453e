/* open [-u MASK] PATH FLAGS MODE ...: open(2) on each triple, then what the fd is. */
#include "common.h"

int main(int argc, char **argv)
{
	int i = umask_opt(argc, argv);

	if (argc == i || (argc - i) % 3 != 0)
		usage("open [-u MASK] PATH FLAGS MODE ...");
	for (; i < argc; i += 3) {
		const char *path = patharg(argv[i]);
		long fd = syscall(SYS_open, path, num(argv[i + 1]), num(argv[i + 2]));
		out(fd, errno, "open(%s, %s, %s)", q(path), argv[i + 1], argv[i + 2]);
		if (fd >= 0)
			show_fd((int)fd);
	}
	return 0;
}
