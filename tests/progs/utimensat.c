/*
 * utimensat DIRFD PATH ATIME MTIME FLAGS ... (PATH NULL: futimens on DIRFD;
 * ATIME NULL: now; a time is SECONDS or UTIME_NOW or UTIME_OMIT):
 * utimensat(2), then the times.
 */
#include "common.h"

static struct timespec ts(const char *s)
{
	if (strcmp(s, "UTIME_NOW") == 0)
		return (struct timespec){ 0, UTIME_NOW };
	if (strcmp(s, "UTIME_OMIT") == 0)
		return (struct timespec){ 0, UTIME_OMIT };
	return (struct timespec){ (time_t)strtoll(s, NULL, 10), 0 };
}

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 5 != 0)
		usage("utimensat DIRFD PATH ATIME|NULL MTIME FLAGS ...");
	for (int i = 1; i < argc; i += 5) {
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		int now = strcmp(argv[i + 2], "NULL") == 0;
		struct timespec t[2];
		if (!now) {
			t[0] = ts(argv[i + 2]);
			t[1] = ts(argv[i + 3]);
		}
		long rc = syscall(SYS_utimensat, dirfd, path, now ? NULL : t, num(argv[i + 4]));
		if (now)
			out(rc, errno, "utimensat(%s, %s, NULL, %s)", fdname(dirfd), q(path),
			    argv[i + 4]);
		else
			out(rc, errno, "utimensat(%s, %s, [%s, %s], %s)", fdname(dirfd), q(path),
			    argv[i + 2], argv[i + 3], argv[i + 4]);
		if (rc == 0)
			show_times_at(dirfd, path);
	}
	return 0;
}
