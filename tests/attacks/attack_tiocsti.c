/*
 * attack_tiocsti - push characters into a terminal's input queue, the
 * classic way to type commands into whoever reads that terminal next.
 * DESIGN.md §2 invariant 5: ioctl TIOCSTI/TIOCLINUX -> EPERM, "all 64 bits
 * compared" - the kernel looks at the low 32 bits of the request only, so
 * 0x100005412 is TIOCSTI as well.
 *
 * Tried on stdin (not a terminal here: the kernel itself would say
 * ENOTTY, so EPERM proves the filter), on a pseudo-terminal of our own
 * that we make our controlling terminal (where the kernel would allow
 * it), with high bits in the request, and TIOCLINUX.  Anything pushed into
 * the pty shows up on its master: that is checked too.
 */
#include "attack.h"

#include <sys/ioctl.h>
#include <termios.h>

#ifndef TIOCSTI
#define TIOCSTI 0x5412
#endif
#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* The filter answers EPERM, whatever the fd. */
static void expect_eperm(const char *how, int fd, unsigned long req, void *arg)
{
	should_fail(how, syscall(SYS_ioctl, fd, req, arg), EPERM);
}

int main(void)
{
	char c = 'X', sel[2] = { 2, 0 };

	expect_eperm("ioctl(0, TIOCSTI)", 0, TIOCSTI, &c);
	expect_eperm("ioctl(0, 0x100005412)", 0, 0x100005412ul, &c);
	expect_eperm("ioctl(0, 0xffffffff00005412)", 0, 0xffffffff00005412ul, &c);
	expect_eperm("ioctl(1, TIOCSTI)", 1, TIOCSTI, &c);
	expect_eperm("ioctl(0, TIOCLINUX)", 0, TIOCLINUX, sel);
	expect_eperm("ioctl(0, 0x10000541C)", 0, 0x10000541Cul, sel);

	/* A pty of our own, made our controlling terminal in a new session. */
	pid_t kid = fork();
	if (kid == 0) {
		int m = posix_openpt(O_RDWR | O_NOCTTY);
		if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0) {
			say("MISSED: no pty: %s", strerror(errno));
			_exit(3);
		}
		char *name = ptsname(m);
		if (setsid() < 0)
			say("note: setsid: %s", strerror(errno));
		int s = name ? open(name, O_RDWR) : -1;
		if (s < 0) {
			say("MISSED: open(%s): %s", name ? name : "?", strerror(errno));
			_exit(3);
		}
		ioctl(s, TIOCSCTTY, 0);
		struct termios t;
		if (tcgetattr(s, &t) == 0) {
			cfmakeraw(&t);
			tcsetattr(s, TCSANOW, &t);
		}
		expect_eperm("ioctl(own controlling pty, TIOCSTI)", s, TIOCSTI, &c);
		expect_eperm("ioctl(own controlling pty, 0x100005412)", s, 0x100005412ul, &c);
		/* What was pushed would be readable on the slave's input. */
		fcntl(s, F_SETFL, O_NONBLOCK);
		char buf[16];
		ssize_t n = read(s, buf, sizeof(buf));
		if (n > 0) {
			att_through = 1;
			say("LEAK: %zd byte(s) were pushed into the pty's input", n);
		}
		_exit(att_through ? 1 : att_wrong ? 2 : att_missed || !att_stopped ? 3 : 0);
	}
	/* The child's counts are its own: its exit status brings them back. */
	int st;
	waitpid(kid, &st, 0);
	if (!WIFEXITED(st) || WEXITSTATUS(st) == 1)
		att_through = 1;
	else if (WEXITSTATUS(st) == 2)
		att_wrong = 1;
	else if (WEXITSTATUS(st) == 3)
		att_missed++;
	else
		att_stopped++;
	return finish();
}
