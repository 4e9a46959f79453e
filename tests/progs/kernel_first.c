/*
 * kernel_first: calls that natively fail on their own, before any
 * permission is looked at, as CPython's test_os makes them: tcsetpgrp on
 * an fd that is not open (EBADF) and on one that is no terminal (ENOTTY),
 * unlink and rmdir of a name that does not exist in a directory the
 * caller may not write (ENOENT).  Under a supervisor the kernel's own
 * error must come first, not the supervisor's EPERM or EACCES.
 *
 * With a directory RO (a read-only mount) as argument, also unlink, rmdir
 * and mkdir of RO/missing and mkdir of RO itself: EROFS, EROFS, EROFS and
 * EEXIST natively (the kernel asks the mount for writing before it looks
 * a name up to remove it, after it looked one up to make it).
 *
 * Prints "CALL: ERRNO" a line (or "CALL: ok"); exit 0.
 */
#include "common.h"

#include <sys/ioctl.h>
#include <termios.h>

static void show(const char *call, long rc)
{
	printf("%s: %s\n", call, rc >= 0 ? "ok" : strerrorname_np(errno) ? strerrorname_np(errno) : "?");
}

int main(int argc, char **argv)
{
	int p[2];
	pid_t pg = getpgrp();

	show("tcsetpgrp(not open, 0)", tcsetpgrp(1000, 0));
	show("tcsetpgrp(not open, own group)", tcsetpgrp(1000, pg));
	if (pipe(p) < 0)
		return 2;
	show("tcsetpgrp(pipe, own group)", tcsetpgrp(p[0], pg));
	show("unlink(/nonexistent-ward-test)", unlink("/nonexistent-ward-test"));
	show("rmdir(/nonexistent-ward-test)", rmdir("/nonexistent-ward-test"));
	if (argc > 1) {
		char missing[4096];
		snprintf(missing, sizeof(missing), "%s/missing", argv[1]);
		show("unlink(RO/missing)", unlink(missing));
		show("rmdir(RO/missing)", rmdir(missing));
		show("mkdir(RO/missing)", mkdir(missing, 0755));
		show("mkdir(RO)", mkdir(argv[1], 0755));
	}
	return 0;
}
