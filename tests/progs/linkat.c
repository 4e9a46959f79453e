/* linkat OLDDIR OLD NEWDIR NEW FLAGS ...: linkat(2) on each group. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 5 != 0)
		usage("linkat OLDDIR OLD NEWDIR NEW FLAGS ...");
	for (int i = 1; i < argc; i += 5) {
		int od = fdarg(argv[i]);
		int nd = fdarg(argv[i + 2]);
		const char *from = patharg(argv[i + 1]), *to = patharg(argv[i + 3]);
		long rc = syscall(SYS_linkat, od, from, nd, to, num(argv[i + 4]));
		out(rc, errno, "linkat(%s, %s, %s, %s, %s)", fdname(od), q(from), fdname(nd), q(to),
		    argv[i + 4]);
		if (rc == 0)
			show_lstat(nd, to);
	}
	return 0;
}
