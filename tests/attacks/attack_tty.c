/*
 * attack_tty MODE - terminals outside the session.  attacks.sh keeps a
 * pty open outside the session for the modes that need one.
 *
 *   other    open $VICTIM_TTY (a pty of another window, held by a helper
 *            outside the session) for reading (its keystrokes: a password
 *            typed there) and for writing; a pty of the agent's own must
 *            open (the control); then the console, a virtual console, its
 *            screen (vcs, vcsa) and a serial line, where they exist
 *   reuse    open a pty, note its number N, close it; the helper then
 *            opens ptys outside the session until it holds number N
 *            again: /dev/pts/N is now another's
 *   spin     open and close /dev/ptmx in a loop, so that the number N it
 *            gets keeps coming back free, until another window's pty
 *            (the helper opens and closes one, again and again) takes N:
 *            then open /dev/pts/N (a pty's inode and times are no
 *            identity: another pty with the same number has the same)
 *   othername  the console by a device node outside /dev, in the project
 *            (the driver makes it, root: a chroot's dev/ is such a place)
 *   hangup   vhangup(), and ioctl TIOCVHANGUP, TIOCCONS and TIOCSETD on a
 *            pty of its own, and TIOCSCTTY(1) on it once it is another
 *            session's terminal: as root each works natively, and the
 *            first two hang up a shell's terminal
 */
#include "attack.h"

#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <termios.h>

static int own_pty(char *name, size_t len)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 || ptsname_r(m, name, len) != 0)
		setup_failed("posix_openpt");
	return m;
}

/* The control: a pty of its own opens, by its name (then closed: name holds it). */
static void own_pty_opens(char *name, size_t len)
{
	int m = own_pty(name, len);
	int s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	control_check(s >= 0, "open of its own pty %s", name);
	close(s);
	close(m);
}

static void try_open(const char *what, const char *path)
{
	static const int modes[] = { O_RDONLY, O_WRONLY, O_RDWR };
	for (size_t i = 0; i < 3; i++) {
		int fd = open(path, modes[i] | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0) {
			leak(what, path, strlen(path));
			close(fd);
		} else {
			refused("open(another's terminal)", errno, EACCES);
		}
	}
}

static void mode_other(void)
{
	const char *victim = getenv("VICTIM_TTY");
	char name[64];
	if (victim == NULL || *victim == '\0')
		setup_failed("VICTIM_TTY (set by the driver)");
	own_pty_opens(name, sizeof(name));
	try_open("opened another's terminal", victim);
	/* Terminals by other names: the console, a virtual console and its screen, a serial line. */
	static const char *const others[] = { "/dev/console", "/dev/tty1", "/dev/vcs1", "/dev/vcsa1",
					      "/dev/ttyS0", NULL };
	for (int i = 0; others[i] != NULL; i++) {
		struct stat st;
		if (stat(others[i], &st) < 0)
			continue;
		int fd = open(others[i], O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0) {
			leak("opened a terminal that is not the session's", others[i],
			     strlen(others[i]));
			close(fd);
		} else {
			refused(others[i], errno, EACCES);
		}
	}
}

static void mode_reuse(void)
{
	const char *dir = getenv("REUSE_DIR");
	char name[64], path[4200];
	if (dir == NULL)
		setup_failed("REUSE_DIR (set by the driver)");
	own_pty_opens(name, sizeof(name));
	snprintf(path, sizeof(path), "%s/reuse.tmp", dir);
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, name, strlen(name)) < 0)
		setup_failed("write reuse.tmp");
	close(fd);
	char want[4200];
	snprintf(want, sizeof(want), "%s/reuse.want", dir);
	if (rename(path, want) < 0)
		setup_failed("rename reuse.want");
	snprintf(path, sizeof(path), "%s/reuse.ready", dir);
	double end = now() + 20;
	while (access(path, F_OK) < 0 && now() < end)
		usleep(20 * 1000);
	if (access(path, F_OK) < 0) {
		missed("the helper did not get %s again: nothing to try", name);
		return;
	}
	try_open("opened another's pty with the number of one the session had", name);
}

static void mode_spin(void)
{
	unsigned base = ~0u, n;
	int rounds = 0;
	double secs = 2 * race_seconds();
	double end = now() + (secs > 4 ? secs : 4);
	while (now() < end && !att_through) {
		int m = open("/dev/ptmx", O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (m < 0 || ioctl(m, TIOCGPTN, &n) < 0)
			setup_failed("open /dev/ptmx");
		close(m);
		usleep(700);
		if (base == ~0u) {
			base = n;
			continue;
		}
		if (n == base)
			continue;
		/*
		 * Another pty took the number: it may be the helper's, in another
		 * window.  Only one of this user's is the attack's target (another
		 * user's the kernel keeps from us): those rounds count.
		 */
		char name[64];
		struct stat st;
		snprintf(name, sizeof(name), "/dev/pts/%u", base);
		if (stat(name, &st) < 0 || st.st_uid != getuid()) {
			base = ~0u;
			continue;
		}
		int fd = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0) {
			leak("opened another window's pty after spinning on its number", name,
			     strlen(name));
			close(fd);
		}
		/* Refused by the policy counts; gone meanwhile (it is spun too) does not. */
		if (fd >= 0 || errno == EACCES)
			rounds++;
		base = ~0u;
		usleep(100 * 1000); /* let it go again */
	}
	if (rounds == 0)
		missed("no round in which another pty of this user took the number");
	else if (!att_through)
		blocked("%d rounds in which another pty of this user took the number", rounds);
}

static void mode_othername(void)
{
	int fd = open("dev/console", O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd >= 0) {
		leak("opened the console by a name outside /dev", "dev/console", 11);
		close(fd);
	} else {
		refused("open(dev/console)", errno, EACCES);
	}
}

static void mode_hangup(void)
{
	char name[64];
	int m = own_pty(name, sizeof(name));
	int s = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (s < 0)
		setup_failed("open of its own pty");
	if (vhangup() == 0) {
		att_through = 1;
		say("LEAK: vhangup() succeeded");
	} else {
		refused("vhangup", errno, EPERM);
	}
	int ldisc = 0; /* N_TTY, which it has: natively a no-op that succeeds */
	if (ioctl(s, TIOCSETD, &ldisc) == 0) {
		att_through = 1;
		say("LEAK: ioctl TIOCSETD succeeded");
	} else {
		refused("ioctl TIOCSETD", errno, EPERM);
	}
	/*
	 * TIOCSCTTY(1) steals a terminal that is another session's controlling
	 * terminal (root's CAP_SYS_ADMIN): a first child makes the pty its
	 * own, a second one, in a session of its own, takes it over.
	 */
	int go[2];
	if (pipe(go) < 0)
		setup_failed("pipe");
	pid_t owner = fork();
	if (owner == 0) {
		char c;
		if (setsid() < 0 || ioctl(s, TIOCSCTTY, 0L) < 0)
			_exit(2);
		close(go[1]);
		if (read(go[0], &c, 1) < 0) /* holds it until the parent is done */
			_exit(2);
		_exit(0);
	}
	usleep(200 * 1000);
	pid_t pid = fork();
	if (pid == 0) {
		if (setsid() < 0)
			_exit(2);
		_exit(ioctl(s, TIOCSCTTY, 1L) == 0 ? 0 : errno == EPERM ? 1 : 3);
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) >= 2)
		setup_failed("the TIOCSCTTY child");
	if (WEXITSTATUS(st) == 0) {
		att_through = 1;
		say("LEAK: ioctl TIOCSCTTY(1) took another session's terminal");
	} else {
		blocked("ioctl TIOCSCTTY(1) on another session's terminal: EPERM");
	}
	close(go[1]);
	close(go[0]);
	waitpid(owner, NULL, 0);
	if (ioctl(s, TIOCCONS) == 0) {
		att_through = 1;
		say("LEAK: ioctl TIOCCONS succeeded");
	} else {
		refused("ioctl TIOCCONS", errno, EPERM);
	}
	/* Last: it hangs the pty up. */
	if (ioctl(s, TIOCVHANGUP) == 0) {
		att_through = 1;
		say("LEAK: ioctl TIOCVHANGUP succeeded");
	} else {
		refused("ioctl TIOCVHANGUP", errno, EPERM);
	}
	close(s);
	close(m);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "other") == 0)
		mode_other();
	else if (strcmp(mode, "reuse") == 0)
		mode_reuse();
	else if (strcmp(mode, "hangup") == 0)
		mode_hangup();
	else if (strcmp(mode, "spin") == 0)
		mode_spin();
	else if (strcmp(mode, "othername") == 0)
		mode_othername();
	else
		setup_failed("unknown mode");
	return finish();
}
