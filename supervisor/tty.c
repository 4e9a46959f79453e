/*
 * tty.c - which terminals are the session's, for the @foreign-tty group:
 * ward's own terminal (what its standard fds and its controlling terminal
 * are), and the ptys the session opened through /dev/ptmx.  Every other
 * /dev/pts/N and /dev/ttyN is another's: a shell in another window, whose
 * keystrokes a read there would take (a password typed in it), and whose
 * screen and settings a write or an ioctl would change.
 *
 * A pty's number is reused once it is closed, so a pty of the session is
 * known by its slave's inode and ctime as well, taken when the master was
 * opened: a new pty with the same number is another file.
 */
#include "sup.h"

#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <termios.h>
#include <unistd.h>

#define MAX_OWN 8
#define MAX_PTYS 1024

struct pty {
	dev_t rdev;
	ino_t ino;
	struct timespec ctime;
};

static dev_t own[MAX_OWN]; /* ward's terminals: held open by ward, never reused */
static int nown;
static struct pty ptys[MAX_PTYS]; /* a ring: the oldest is forgotten first */
static unsigned nptys, next_pty;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

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

void tty_note_master(int fd)
{
	unsigned n;
	char path[64];
	struct stat st;

	if (ioctl(fd, TIOCGPTN, &n) < 0)
		return;
	snprintf(path, sizeof(path), "/dev/pts/%u", n);
	if (stat(path, &st) < 0 || !S_ISCHR(st.st_mode))
		return;
	pthread_mutex_lock(&lock);
	ptys[next_pty] = (struct pty){ st.st_rdev, st.st_ino, st.st_ctim };
	next_pty = (next_pty + 1) % MAX_PTYS;
	if (nptys < MAX_PTYS)
		nptys++;
	pthread_mutex_unlock(&lock);
}

bool tty_of_session(const char *path)
{
	struct stat st;
	bool found = false;

	if (stat(path, &st) < 0 || !S_ISCHR(st.st_mode))
		return false;
	for (int i = 0; i < nown; i++)
		if (own[i] == st.st_rdev)
			return true;
	pthread_mutex_lock(&lock);
	for (unsigned i = 0; i < nptys && !found; i++)
		found = ptys[i].rdev == st.st_rdev && ptys[i].ino == st.st_ino &&
			ptys[i].ctime.tv_sec == st.st_ctim.tv_sec &&
			ptys[i].ctime.tv_nsec == st.st_ctim.tv_nsec;
	pthread_mutex_unlock(&lock);
	return found;
}
