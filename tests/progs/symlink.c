/* symlink OLD NEW ...: symlink(2) on each pair. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("symlink OLD NEW ...");
	for (int i = 1; i < argc; i += 2) {
		const char *from = patharg(argv[i]), *to = patharg(argv[i + 1]);
		long rc = syscall(SYS_symlink, from, to);
		out(rc, errno, "symlink(%s, %s)", q(from), q(to));
	}
	return 0;
}
