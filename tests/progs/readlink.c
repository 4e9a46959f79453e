/* readlink PATH SIZE ...: readlink(2) on each pair. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("readlink PATH SIZE ...");
	for (int i = 1; i < argc; i += 2) {
		const char *path = patharg(argv[i]);
		char buf[4096];
		size_t size = num(argv[i + 1]);
		long rc = syscall(SYS_readlink, path, buf, size > sizeof(buf) ? sizeof(buf) : size);
		if (rc >= 0)
			out(rc, 0, "readlink(%s, %s, %s)", q(path), qn(buf, (size_t)rc), argv[i + 1]);
		else
			out(rc, errno, "readlink(%s, ..., %s)", q(path), argv[i + 1]);
	}
	return 0;
}
