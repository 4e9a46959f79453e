/* access PATH MODE ...: access(2) on each pair. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("access PATH MODE ...");
	for (int i = 1; i < argc; i += 2) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_access, path, num(argv[i + 1]));
		out(rc, errno, "access(%s, %s)", q(path), argv[i + 1]);
	}
	return 0;
}
