/* statx DIRFD PATH FLAGS MASK ...: statx(2) on each group (PATH may be NULL). */
#include "common.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 4 != 0)
		usage("statx DIRFD PATH FLAGS MASK ...");
	for (int i = 1; i < argc; i += 4) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		struct statx stx;
		long rc = syscall(SYS_statx, dirfd, path, num(argv[i + 2]), num(argv[i + 3]), &stx);
		if (rc == 0 && S_ISDIR(stx.stx_mode))
			out(rc, 0, "statx(%s, %s, %s, %s, {stx_mode=%s})", fdname(dirfd), q(path),
			    argv[i + 2], argv[i + 3], fmt_mode(stx.stx_mode));
		else if (rc == 0)
			out(rc, 0, "statx(%s, %s, %s, %s, {stx_mode=%s, stx_nlink=%u, stx_size=%llu})",
			    fdname(dirfd), q(path), argv[i + 2], argv[i + 3], fmt_mode(stx.stx_mode),
			    stx.stx_nlink, (unsigned long long)stx.stx_size);
		else
			out(rc, errno, "statx(%s, %s, %s, %s, ...)", fdname(dirfd), q(path), argv[i + 2],
			    argv[i + 3]);
	}
	return 0;
}
