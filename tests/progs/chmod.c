/* chmod PATH MODE ...: chmod(2) on each pair, then the mode. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("chmod PATH MODE ...");
	for (int i = 1; i < argc; i += 2) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_chmod, path, num(argv[i + 1]));
		out(rc, errno, "chmod(%s, %s)", q(path), argv[i + 1]);
		if (rc == 0)
			show_lstat(AT_FDCWD, path);
	}
	return 0;
}
