/* unlink PATH ...: unlink(2) on each path. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		usage("unlink PATH ...");
	for (int i = 1; i < argc; i++) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_unlink, path);
		out(rc, errno, "unlink(%s)", q(path));
	}
	return 0;
}
