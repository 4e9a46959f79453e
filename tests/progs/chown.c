/* chown PATH UID GID ...: chown(2) on each group (UID, GID: OWN, -1 or a number). */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("chown PATH UID GID ...");
	for (int i = 1; i < argc; i += 3) {
		const char *path = patharg(argv[i]);
		long rc = syscall(SYS_chown, path, idarg(argv[i + 1], 0), idarg(argv[i + 2], 1));
		out(rc, errno, "chown(%s, %s, %s)", q(path), argv[i + 1], argv[i + 2]);
	}
	return 0;
}
