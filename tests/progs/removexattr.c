/* removexattr PATH NAME ...: removexattr(2) on each pair. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("removexattr PATH NAME ...");
	for (int i = 1; i < argc; i += 2) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_removexattr, path, argv[i + 1]);
		out(rc, errno, "removexattr(%s, %s)", q(path), q(argv[i + 1]));
	}
	return 0;
}
