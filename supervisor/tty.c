/*
 * tty.c - which terminals are not the session's, for the @foreign-tty
 * group.  The session's are the terminal ward runs on (what its standard
 * fds and its controlling terminal are) and every pty whose master a
 * process of the session holds.  Any other terminal is another's: a shell
 * in another window, the system console, a serial line, a console's
 * screen (/dev/vcs*), whose keystrokes a read there would take (a
 * password typed in it) and whose screen and settings a write or an
 * ioctl would change.
 *
 * A pty is the session's only while the session holds its master, which
 * is looked for when its slave is opened: a pty's number is reused as
 * soon as the master is closed, and nothing else about the slave (its
 * inode, its times) tells a new pty from an old one.
 */
#include "sup.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_OWN 8
#define PTS_MAJOR_FIRST 136 /* UNIX98_PTY_SLAVE_MAJOR, and the 7 after it */
#define PTS_MAJOR_LAST 143

static dev_t own[MAX_OWN]; /* ward's terminals: held open by ward, never reused */
static int nown;

static void add_own(dev_t rdev)
{
	for (int i = 0; i < nown; i++)
		if (own[i] == rdev)
			return;
	if (nown < MAX_OWN)
		own[nown++] = rdev;
}

void tty_init(void)
{
	struct stat st;
	for (int fd = 0; fd <= 2; fd++)
		if (isatty(fd) && fstat(fd, &st) == 0 && S_ISCHR(st.st_mode))
			add_own(st.st_rdev);
	/* The controlling terminal: field 7 of /proc/self/stat, in the kernel's encoding. */
	char buf[1024];
	int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return;
	buf[n] = '\0';
	char *p = strrchr(buf, ')'); /* the command name may hold anything */
	int nr;
	if (p != NULL && sscanf(p + 1, " %*c %*d %*d %*d %d", &nr) == 1 && nr != 0) {
		unsigned u = (unsigned)nr;
		add_own(makedev((u >> 8) & 0xfff, (u & 0xff) | ((u >> 12) & 0xfff00)));
	}
}

/*
 * Whether a char device is a terminal: a pty, or what sysfs files under
 * the tty or vc class (consoles, serial lines, USB modems, console
 * screens).  Without sysfs, the majors of those.
 */
static bool is_terminal(dev_t rdev)
{
	unsigned maj = major(rdev), min = minor(rdev);
	char path[64], link[256];

	if (maj >= PTS_MAJOR_FIRST && maj <= PTS_MAJOR_LAST)
		return true;
	if (maj == 1)
		return false; /* /dev/null, zero, random...: the common case, no sysfs read */
	snprintf(path, sizeof(path), "/sys/dev/char/%u:%u/subsystem", maj, min);
	ssize_t n = readlink(path, link, sizeof(link) - 1);
	if (n > 0) {
		link[n] = '\0';
		const char *cls = strrchr(link, '/');
		cls = cls ? cls + 1 : link;
		return strcmp(cls, "tty") == 0 || strcmp(cls, "vc") == 0;
	}
	/* No sysfs: ttys, consoles, vcs, ttyACM, ttyUSB, low-density serial, hvc. */
	return maj == 4 || maj == 5 || maj == 7 || maj == 166 || maj == 188 || maj == 204 ||
	       maj == 229;
}

bool tty_foreign(const char *path)
{
	struct stat st;

	if (stat(path, &st) < 0)
		return true; /* a terminal, maybe: refused */
	if (!S_ISCHR(st.st_mode))
		return false;
	unsigned maj = major(st.st_rdev), min = minor(st.st_rdev);
	/* /dev/tty is the caller's own terminal whatever it is; /dev/ptmx makes a new pty. */
	if (maj == 5 && (min == 0 || min == 2))
		return false;
	if (!is_terminal(st.st_rdev))
		return false;
	for (int i = 0; i < nown; i++)
		if (own[i] == st.st_rdev)
			return false;
	if (maj >= PTS_MAJOR_FIRST && maj <= PTS_MAJOR_LAST)
		return !proc_holds_pty((maj - PTS_MAJOR_FIRST) * 256 + min);
	return true;
}
