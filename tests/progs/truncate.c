/* truncate PATH LENGTH ...: truncate(2) on each pair, then the size. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("truncate PATH LENGTH ...");
	for (int i = 1; i < argc; i += 2) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_truncate, path, (long)num(argv[i + 1]));
		out(rc, errno, "truncate(%s, %s)", q(path), argv[i + 1]);
		if (rc == 0)
			show_lstat(AT_FDCWD, path);
	}
	return 0;
}
