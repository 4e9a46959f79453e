/* rmdir PATH ...: rmdir(2) on each path. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		usage("rmdir PATH ...");
	for (int i = 1; i < argc; i++) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_rmdir, path);
		out(rc, errno, "rmdir(%s)", q(path));
	}
	return 0;
}
