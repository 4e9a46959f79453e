/*
 * utimes PATH ATIME MTIME ... (ATIME NULL: now; times as SECONDS.MICROSECONDS):
 * utimes(2), then the times.
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
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("utimes PATH ATIME|NULL MTIME ...");
	for (int i = 1; i < argc; i += 3) {
		const char *path = patharg(argv[i]);
		int now = strcmp(argv[i + 1], "NULL") == 0;
		struct timeval t[2];
		if (!now) {
			t[0] = tv(argv[i + 1]);
			t[1] = tv(argv[i + 2]);
		}
		long rc = syscall(SYS_utimes, path, now ? NULL : t);
		if (now)
			out(rc, errno, "utimes(%s, NULL)", q(path));
		else
			out(rc, errno, "utimes(%s, [%s, %s])", q(path), argv[i + 1], argv[i + 2]);
		if (rc == 0 && path != NULL)
			show_times(path);
	}
	return 0;
}
