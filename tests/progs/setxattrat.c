/*
 * setxattrat DIRFD PATH ATFLAGS NAME VALUE FLAGS ...: setxattrat(2)
 * (Linux 6.13), which sets an xattr as setxattr does and must be
 * supervised as setxattr is.
 */
#include "common.h"

#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#endif

struct xattr_args_ {
	unsigned long long value;
	unsigned size;
	unsigned flags;
};

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 6 != 0)
		usage("setxattrat DIRFD PATH ATFLAGS NAME VALUE FLAGS ...");
	for (int i = 1; i < argc; i += 6) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]), *val;
		size_t size = valarg(argv[i + 4], &val);
		struct xattr_args_ xa = { (unsigned long long)(unsigned long)val, (unsigned)size,
					  (unsigned)num(argv[i + 5]) };
		long rc = syscall(SYS_setxattrat, dirfd, path, num(argv[i + 2]), argv[i + 3], &xa,
				  sizeof(xa));
		int e = errno;
		out(rc, e, "setxattrat(%s, %s, %s, %s, {value=%s, size=%zu, flags=%s}, %zu)",
		    fdname(dirfd), q(path), argv[i + 2], q(argv[i + 3]),
		    val == argv[i + 4] ? q(val) : argv[i + 4], size, argv[i + 5], sizeof(xa));
		xattr_skip(rc, e, argv[i + 3]);
	}
	return 0;
}
