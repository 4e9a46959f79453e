/* openat [-u MASK] DIRFD PATH FLAGS MODE ...: openat(2) on each group, then what the fd is. */
#include "common.h"

int main(int argc, char **argv)
{
	int i = umask_opt(argc, argv);

	if (argc == i || (argc - i) % 4 != 0)
		usage("openat [-u MASK] DIRFD PATH FLAGS MODE ...");
	for (; i < argc; i += 4) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long fd = syscall(SYS_openat, dirfd, path, num(argv[i + 2]), num(argv[i + 3]));
		out(fd, errno, "openat(%s, %s, %s, %s)", fdname(dirfd), q(path), argv[i + 2],
		    argv[i + 3]);
		if (fd >= 0)
			show_fd((int)fd);
		if (dirfd >= 0)
			close(dirfd);
	}
	return 0;
}
