/* lsetxattr PATH NAME VALUE FLAGS ...: lsetxattr(2) on each group (VALUE: text, 0xHEX or NULL). */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 4 != 0)
		usage("lsetxattr PATH NAME VALUE FLAGS ...");
	for (int i = 1; i < argc; i += 4) {
		const char *path = patharg(argv[i]), *val;
		size_t size = valarg(argv[i + 2], &val);
		long rc = syscall(SYS_lsetxattr, path, argv[i + 1], val, size, num(argv[i + 3]));
		int e = errno;
		out(rc, e, "lsetxattr(%s, %s, %s, %zu, %s)", q(path), q(argv[i + 1]),
		    val == argv[i + 2] ? q(val) : argv[i + 2], size, argv[i + 3]);
		xattr_skip(rc, e, argv[i + 1]);
	}
	return 0;
}
