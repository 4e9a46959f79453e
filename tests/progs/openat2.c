/*
 * openat2 [-u MASK] DIRFD PATH FLAGS MODE RESOLVE ...: openat2(2) with an
 * open_how of exactly sizeof(struct open_how) bytes, then what the fd is.
 */
#include "common.h"

int main(int argc, char **argv)
{
	int i = umask_opt(argc, argv);

	if (argc == i || (argc - i) % 5 != 0)
		usage("openat2 [-u MASK] DIRFD PATH FLAGS MODE RESOLVE ...");
	for (; i < argc; i += 5) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		struct open_how how = { .flags = num(argv[i + 2]), .mode = num(argv[i + 3]),
					.resolve = num(argv[i + 4]) };
		long fd = syscall(SYS_openat2, dirfd, path, &how, sizeof(how));
		out(fd, errno, "openat2(%s, %s, {flags=%s, mode=%s, resolve=%s}, %zu)",
		    fdname(dirfd), q(path), argv[i + 2], argv[i + 3], argv[i + 4], sizeof(how));
		if (fd >= 0)
			show_fd((int)fd);
		if (dirfd >= 0)
			close(dirfd);
	}
	return 0;
}
