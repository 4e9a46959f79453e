/*
 * futimesat DIRFD PATH ATIME MTIME ... (PATH NULL: DIRFD itself; ATIME NULL:
 * now; times as SECONDS.MICROSECONDS): futimesat(2), then the times.
 */
#include "common.h"

#include <sys/time.h>

static struct timeval tv(const char *s)
{
	const char *dot = strchr(s, '.');
	struct timeval t = { (time_t)strtoll(s, NULL, 10), dot ? strtol(dot + 1, NULL, 10) : 0 };
	return t;
}

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 4 != 0)
		usage("futimesat DIRFD PATH ATIME|NULL MTIME ...");
	for (int i = 1; i < argc; i += 4) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		int now = strcmp(argv[i + 2], "NULL") == 0;
		struct timeval t[2];
		if (!now) {
			t[0] = tv(argv[i + 2]);
			t[1] = tv(argv[i + 3]);
		}
		long rc = syscall(SYS_futimesat, dirfd, path, now ? NULL : t);
		if (now)
			out(rc, errno, "futimesat(%s, %s, NULL)", fdname(dirfd), q(path));
		else
			out(rc, errno, "futimesat(%s, %s, [%s, %s])", fdname(dirfd), q(path),
			    argv[i + 2], argv[i + 3]);
		if (rc == 0)
			show_times_at(dirfd, path);
	}
	return 0;
}
