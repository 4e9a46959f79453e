/* lstat PATH ...: lstat(2) on each path. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2)
		usage("lstat PATH ...");
	for (int i = 1; i < argc; i++) {
		const char *path = patharg(argv[i]);
		struct stat st;
		long rc = syscall(SYS_lstat, path, &st);
		if (rc == 0)
			out(rc, 0, "lstat(%s, %s)", q(path), fmt_stat(&st));
		else
			out(rc, errno, "lstat(%s, ...)", q(path));
	}
	return 0;
}
