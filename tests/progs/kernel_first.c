/*
 * kernel_first: calls that natively fail on their own, before any
 * permission is looked at, as CPython's test_os makes them: tcsetpgrp on
 * an fd that is not open (EBADF) and on one that is no terminal (ENOTTY),
 * unlink and rmdir of a name that does not exist in a directory the
 * caller may not write (ENOENT).  Under a supervisor the kernel's own
 * error must come first, not the supervisor's EPERM or EACCES.
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

int main(void)
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
	return 0;
}
