/* utime PATH ATIME MTIME ... (ATIME NULL: the times are now): utime(2), then the times. */
#include "common.h"

#include <utime.h>

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("utime PATH ATIME|NULL MTIME ...");
	for (int i = 1; i < argc; i += 3) {
		const char *path = patharg(argv[i]);
		int now = strcmp(argv[i + 1], "NULL") == 0;
		struct utimbuf u = { 0, 0 };
		if (!now)
			u = (struct utimbuf){ (time_t)num(argv[i + 1]), (time_t)num(argv[i + 2]) };
		long rc = syscall(SYS_utime, path, now ? NULL : &u);
		if (now)
			out(rc, errno, "utime(%s, NULL)", q(path));
		else
			out(rc, errno, "utime(%s, {actime=%s, modtime=%s})", q(path), argv[i + 1],
			    argv[i + 2]);
		if (rc == 0)
			show_times(path);
	}
	return 0;
}
