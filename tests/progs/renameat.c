/* renameat OLDDIR OLD NEWDIR NEW ...: renameat(2) on each group. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 4 != 0)
		usage("renameat OLDDIR OLD NEWDIR NEW ...");
	for (int i = 1; i < argc; i += 4) {
		int od = fdarg(argv[i]);
		int nd = fdarg(argv[i + 2]);
		const char *from = patharg(argv[i + 1]), *to = patharg(argv[i + 3]);
		long rc = syscall(SYS_renameat, od, from, nd, to);
		out(rc, errno, "renameat(%s, %s, %s, %s)", fdname(od), q(from), fdname(nd), q(to));
	}
	return 0;
}
