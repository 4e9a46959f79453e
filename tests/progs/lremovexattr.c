/* lremovexattr PATH NAME ...: lremovexattr(2) on each pair. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("lremovexattr PATH NAME ...");
	for (int i = 1; i < argc; i += 2) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_lremovexattr, path, argv[i + 1]);
		out(rc, errno, "lremovexattr(%s, %s)", q(path), q(argv[i + 1]));
	}
	return 0;
}
