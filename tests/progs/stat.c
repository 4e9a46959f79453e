/* stat PATH ...: stat(2) on each path. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		usage("stat PATH ...");
	for (int i = 1; i < argc; i++) {
		const char *path = patharg(argv[i]);
		struct stat st;
		long rc = syscall(SYS_stat, path, &st);
		if (rc == 0)
			out(rc, 0, "stat(%s, %s)", q(path), fmt_stat(&st));
		else
			out(rc, errno, "stat(%s, ...)", q(path));
	}
	return 0;
}
