/* readlinkat DIRFD PATH SIZE ...: readlinkat(2) on each group. */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("readlinkat DIRFD PATH SIZE ...");
	for (int i = 1; i < argc; i += 3) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		char buf[4096];
		size_t size = num(argv[i + 2]);
		long rc = syscall(SYS_readlinkat, dirfd, path, buf,
				  size > sizeof(buf) ? sizeof(buf) : size);
		if (rc >= 0)
			out(rc, 0, "readlinkat(%s, %s, %s, %s)", fdname(dirfd), q(path),
			    qn(buf, (size_t)rc), argv[i + 2]);
		else
			out(rc, errno, "readlinkat(%s, %s, ..., %s)", fdname(dirfd), q(path),
			    argv[i + 2]);
	}
	return 0;
}
