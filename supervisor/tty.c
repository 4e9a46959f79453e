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
#include "tty.h"
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#define MAX_OWN 8
#define PTS_MAJOR_FIRST 136 /* UNIX98_PTY_SLAVE_MAJOR, and the 7 after it */
#define PTS_MAJOR_LAST 143

static dev_t own[MAX_OWN]; /* ward's terminals: held open by ward, so never reused */
static int nown;
static dev_t own_ctty; /* ward's controlling terminal, or 0 */

static long ctty_of(pid_t tid);

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

	/* ward's standard fds: ward holds them for the session, so their numbers stay its own. */
	for (int fd = 0; fd <= 2; fd++)
		if (isatty(fd) && fstat(fd, &st) == 0 && S_ISCHR(st.st_mode))
			add_own(st.st_rdev);
	long c = ctty_of(getpid());
	if (c > 0) {
		dev_t ctty = (dev_t)c;
		/*
		 * The controlling terminal, which no fd of ward's may hold (ward
		 * run in the background, its fds elsewhere): held open for the
		 * session, so that when its window closes no other window's pty
		 * takes its number while ward takes it for its own.  Through its
		 * name under /dev/pts, checked to be it still after the open.
		 */
		unsigned maj = major(ctty), min = minor(ctty);
		if (maj >= PTS_MAJOR_FIRST && maj <= PTS_MAJOR_LAST) {
			char path[64];
			struct stat hs;
			snprintf(path, sizeof(path), "/dev/pts/%u", (maj - PTS_MAJOR_FIRST) * 256 + min);
			int held = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
			if (held >= 0 && fstat(held, &hs) == 0 && hs.st_rdev == ctty &&
			    ctty_of(getpid()) == (long)ctty) {
				own_ctty = ctty;
				add_own(ctty);
			} else if (held >= 0) {
				close(held);
			}
		} else {
			own_ctty = ctty; /* a console or serial line: no number another window takes */
			add_own(ctty);
		}
	}
}

void tty_own_pty(dev_t real, dev_t slave)
{
	for (int i = 0; i < nown; i++)
		if (own[i] == real)
			own[i--] = own[--nown];
	/* ward holds the master for the whole session: the slave's number is not reused. */
	add_own(slave);
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

	if (stat(path, &st) < 0) {
		/*
		 * No such name in /dev/shm or /dev/mqueue: an object the agent
		 * holds that has none now (an O_TMPFILE, a deleted file, named
		 * "#N (deleted)").  No terminal is there to be reached: the
		 * session may not make device nodes, and links and renames do not
		 * cross into other filesystems.  Anything else: a terminal, maybe.
		 */
		if (errno == ENOENT &&
		    (strncmp(path, "/dev/shm/", 9) == 0 || strncmp(path, "/dev/mqueue/", 12) == 0))
			return false;
		return true;
	}
	return S_ISCHR(st.st_mode) && tty_foreign_dev(st.st_rdev);
}

bool tty_foreign_dev(dev_t rdev)
{
	unsigned maj = major(rdev), min = minor(rdev);
	/* /dev/tty is the caller's own terminal whatever it is; /dev/ptmx makes a new pty. */
	if (maj == 5 && (min == 0 || min == 2))
		return false;
	if (!is_terminal(rdev))
		return false;
	for (int i = 0; i < nown; i++)
		if (own[i] == rdev)
			return false;
	if (maj >= PTS_MAJOR_FIRST && maj <= PTS_MAJOR_LAST)
		return !proc_holds_pty((maj - PTS_MAJOR_FIRST) * 256 + min);
	return true;
}

/* A process's controlling terminal, from field 7 of its stat: 0 for none, -1 unknown. */
static long ctty_of(pid_t tid)
{
	char path[64], buf[1024];
	snprintf(path, sizeof(path), "/proc/%d/stat", tid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *p = strrchr(buf, ')');
	int nr;
	if (p == NULL || sscanf(p + 1, " %*c %*d %*d %*d %d", &nr) != 1)
		return -1;
	unsigned u = (unsigned)nr;
	return nr == 0 ? 0 : (long)makedev((u >> 8) & 0xfff, (u & 0xff) | ((u >> 12) & 0xfff00));
}

int tty_open_ctty(pid_t tid, int flags)
{
	long ctty = ctty_of(tid);
	char path[PATH_MAX];

	if (ctty < 0)
		return -ESRCH;
	if (ctty == 0)
		return -ENXIO; /* no controlling terminal, as the kernel answers */
	if (own_ctty != 0 && (dev_t)ctty == own_ctty) {
		/* ward's own: /dev/tty opened by ward is it. */
		int fd = open("/dev/tty", flags | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	unsigned maj = major((dev_t)ctty), min = minor((dev_t)ctty);
	if (maj >= PTS_MAJOR_FIRST && maj <= PTS_MAJOR_LAST) {
		snprintf(path, sizeof(path), "/dev/pts/%u", (maj - PTS_MAJOR_FIRST) * 256 + min);
	} else {
		/* Its name under /dev, from sysfs (DEVNAME in the device's uevent). */
		char ue[64], buf[512];
		snprintf(ue, sizeof(ue), "/sys/dev/char/%u:%u/uevent", maj, min);
		int fd = open(ue, O_RDONLY | O_CLOEXEC);
		ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
		if (fd >= 0)
			close(fd);
		char *d = n > 0 ? (buf[n] = '\0', strstr(buf, "DEVNAME=")) : NULL;
		if (d == NULL)
			return -ENXIO;
		d += 8;
		d[strcspn(d, "\n")] = '\0';
		if (strstr(d, "..") != NULL)
			return -ENXIO;
		snprintf(path, sizeof(path), "/dev/%s", d);
	}
	int fd = open(path, flags | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	/*
	 * Still its terminal: a pty whose master was closed meanwhile lost it
	 * (hung up: ctty 0), and its number may already be another window's.
	 */
	if (fstat(fd, &st) < 0 || (long)st.st_rdev != ctty || ctty_of(tid) != ctty) {
		close(fd);
		return -ENXIO;
	}
	if (!(flags & O_NONBLOCK)) {
		int fl = fcntl(fd, F_GETFL);
		if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
			close(fd);
			return -EIO;
		}
	}
	return fd;
}
