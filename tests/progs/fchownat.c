/* fchownat DIRFD PATH UID GID FLAGS ...: fchownat(2) on each group. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 5 != 0)
		usage("fchownat DIRFD PATH UID GID FLAGS ...");
	for (int i = 1; i < argc; i += 5) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		long rc = syscall(SYS_fchownat, dirfd, path, idarg(argv[i + 2], 0),
				  idarg(argv[i + 3], 1), num(argv[i + 4]));
		out(rc, errno, "fchownat(%s, %s, %s, %s, %s)", fdname(dirfd), q(path), argv[i + 2],
		    argv[i + 3], argv[i + 4]);
	}
	return 0;
}
