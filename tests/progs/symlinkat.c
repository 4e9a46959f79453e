/* symlinkat TARGET NEWDIR LINK ...: symlinkat(2) on each group. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("symlinkat TARGET NEWDIR LINK ...");
	for (int i = 1; i < argc; i += 3) {
		int nd = fdarg(argv[i + 1]);
		const char *target = patharg(argv[i]), *link = patharg(argv[i + 2]);
		long rc = syscall(SYS_symlinkat, target, nd, link);
		out(rc, errno, "symlinkat(%s, %s, %s)", q(target), fdname(nd), q(link));
		if (rc == 0)
			show_lstat(nd, link);
	}
	return 0;
}
