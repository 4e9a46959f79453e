/* lgetxattr PATH NAME SIZE ...: lgetxattr(2) on each group. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("lgetxattr PATH NAME SIZE ...");
	for (int i = 1; i < argc; i += 3) {
		const char *path = patharg(argv[i]);
		char buf[4096];
		size_t size = num(argv[i + 2]);
		long rc = syscall(SYS_lgetxattr, path, argv[i + 1], buf, size > sizeof(buf) ? sizeof(buf) : size);
		if (rc >= 0 && size > 0)
			out(rc, 0, "lgetxattr(%s, %s, %s, %s)", q(path), q(argv[i + 1]), qn(buf, (size_t)rc),
			    argv[i + 2]);
		else
			out(rc, errno, "lgetxattr(%s, %s, ..., %s)", q(path), q(argv[i + 1]), argv[i + 2]);
	}
	return 0;
}
