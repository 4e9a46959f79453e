/*
 * pty.c - the agent's pseudo-terminal, and the relay between it and the
 * real terminal.
 *
 * One thread relays, so that everything ward writes to the terminal is
 * written in one order: the agent's output (through screen.c), ward's own
 * messages (its stderr is a pipe to the relay while the agent runs), and
 * ward's rows.  It never stops reading the pty's master, whatever is on
 * the screen: a program that writes to its terminal synchronously (Node
 * does) would stop altogether if the master were not read.
 *
 * The terminal is given back as it was found on every way out: at the
 * session's end (pty_finish), at exit() (a fatal error of ward's after
 * the start), on a fatal signal (a precomputed reset, written by the
 * handler), and while ward is stopped for job control.
 */
#include "pty.h"
#include "ask.h"
#include "front.h"
#include "screen.h"

#include <dirent.h>
#include <stdnoreturn.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#define READ_SIZE 65536
#define MASTER_BACKLOG (256 << 10) /* keys for the agent, buffered at most */
#define SYNC_WAIT_MS 1000	   /* an agent's synchronized update kept open longer is ended */
#define DRAIN_MS 300		   /* at the end: the agent's last output, this long at most */
#define OVERLAY_MAX 64

static struct {
	bool active, running, raw, finished;
	int tty, master, slave, wake[2], err_r, err_saved;
	dev_t real_dev, slave_dev;
	struct termios saved;
	int rows, cols;
	pid_t child;
	pthread_t thread;
	struct screen *scr;
	struct front front;
	struct keyin keys;
	struct obuf to_master;
	bool tty_in;	  /* the terminal's input is read (ward in its foreground) */
	bool tty_dead;	  /* it hung up */
	bool master_eof;  /* every slave closed */
	bool quitting;
	bool overlay;	  /* ward's details drawn over the agent's area */
	bool want_draw;
	int64_t sync_since, esc_since;
	char crash[1024]; /* what a fatal signal writes */
	char session[32], home[4096];
	int arm_ms;
} P = { .tty = -1, .master = -1, .slave = -1, .wake = { -1, -1 }, .err_r = -1, .err_saved = -1 };

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

bool pty_active(void)
{
	return P.active;
}

dev_t pty_real_dev(void)
{
	return P.active ? P.real_dev : 0;
}

dev_t pty_slave_dev(void)
{
	return P.active ? P.slave_dev : 0;
}

static void wake(char c)
{
	int e = errno;
	if (P.wake[1] >= 0)
		(void)!write(P.wake[1], &c, 1);
	errno = e;
}

static void on_winch(int sig)
{
	(void)sig;
	wake('w');
}

static void on_cont(int sig)
{
	(void)sig;
	wake('c');
}

/* The terminal back as it was: from a signal handler too (write and tcsetattr only). */
static void crash_restore(void)
{
	if (!P.raw || P.tty < 0)
		return;
	(void)!write(P.tty, P.crash, strlen(P.crash));
	tcsetattr(P.tty, TCSADRAIN, &P.saved);
	P.raw = false;
}

static void on_fatal(int sig)
{
	crash_restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static void at_exit(void)
{
	/* exit() while the relay still runs: a fatal error of ward's. */
	if (!P.finished)
		crash_restore();
}

static int write_all(int fd, const char *b, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0 && errno == EAGAIN) {
			struct pollfd p = { .fd = fd, .events = POLLOUT };
			poll(&p, 1, 100);
			continue;
		}
		if (w <= 0)
			return -errno;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

static void tty_write(struct obuf *b)
{
	if (!P.tty_dead && b->len > 0 && write_all(P.tty, b->p, b->len) < 0)
		P.tty_dead = true;
	ob_reset(b);
}

int pty_open(void)
{
	char path[64], name[128];
	struct winsize ws;
	struct stat st;
	int src = isatty(STDIN_FILENO) ? STDIN_FILENO : isatty(STDOUT_FILENO) ? STDOUT_FILENO : -1;

	if (src < 0)
		return 0;
	/* A descriptor of ward's own for it, open for reading and writing both. */
	snprintf(path, sizeof(path), "/proc/self/fd/%d", src);
	P.tty = open(path, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (P.tty < 0)
		P.tty = fcntl(src, F_DUPFD_CLOEXEC, 3);
	if (P.tty < 0)
		return -errno;
	/*
	 * In the background (ward run ... &) the terminal is the shell's: ward
	 * neither takes its modes nor reads it.  Too small: no room for ward's
	 * rows.  Either way the agent runs on the terminal as it is.
	 */
	if (tcgetpgrp(P.tty) != getpgrp() || tcgetattr(P.tty, &P.saved) < 0 ||
	    ioctl(P.tty, TIOCGWINSZ, &ws) < 0 || ws.ws_row < SCREEN_MIN_ROWS ||
	    ws.ws_col < SCREEN_MIN_COLS || fstat(P.tty, &st) < 0) {
		close(P.tty);
		P.tty = -1;
		return 0;
	}
	P.real_dev = st.st_rdev;
	P.rows = ws.ws_row;
	P.cols = ws.ws_col;
	P.master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (P.master < 0 || grantpt(P.master) < 0 || unlockpt(P.master) < 0 ||
	    ptsname_r(P.master, name, sizeof(name)) != 0)
		goto fail;
	/* Not close-on-exec: the child's to take (ward closes its copy after the fork). */
	P.slave = open(name, O_RDWR | O_NOCTTY);
	if (P.slave < 0 || fstat(P.slave, &st) < 0)
		goto fail;
	P.slave_dev = st.st_rdev;
	/* The agent's terminal starts with the person's modes, two rows shorter. */
	ws.ws_row -= SCREEN_WARD_ROWS;
	if (tcsetattr(P.slave, TCSANOW, &P.saved) < 0 || ioctl(P.master, TIOCSWINSZ, &ws) < 0 ||
	    pipe2(P.wake, O_CLOEXEC | O_NONBLOCK) < 0)
		goto fail;
	P.active = true;
	return 1;
fail:;
	int e = errno;
	if (P.slave >= 0)
		close(P.slave);
	if (P.master >= 0)
		close(P.master);
	close(P.tty);
	P.tty = P.master = P.slave = -1;
	return -(e ? e : EIO);
}

/* Signals for the agent, sent to the monitor (ward sends its own to its child's group). */
static pid_t monitored;

static void forward(int sig)
{
	kill(-monitored, sig);
}

/*
 * The session's leader, while the agent runs: it waits for the agent,
 * stops when the agent stops (the supervisor, watching this process, then
 * stops too: job control), passes signals on, and ends as the agent did.
 */
static noreturn void monitor(pid_t agent)
{
	static const int passed[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 };
	struct sigaction sa = { .sa_handler = forward, .sa_flags = SA_RESTART };
	int st;

	monitored = agent;
	sigemptyset(&sa.sa_mask);
	for (size_t i = 0; i < sizeof(passed) / sizeof(passed[0]); i++)
		sigaction(passed[i], &sa, NULL);
	for (;;) {
		pid_t w = waitpid(agent, &st, WUNTRACED);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			_exit(125);
		if (WIFSTOPPED(st)) {
			raise(SIGSTOP); /* SIGSTOP: the one stop an orphaned group takes */
			continue;
		}
		break;
	}
	if (WIFSIGNALED(st)) {
		/* Killed by a signal: so is its leader, for the status to say so. */
		signal(WTERMSIG(st), SIG_DFL);
		sigset_t one;
		sigemptyset(&one);
		sigaddset(&one, WTERMSIG(st));
		sigprocmask(SIG_UNBLOCK, &one, NULL);
		raise(WTERMSIG(st));
	}
	_exit(WIFEXITED(st) ? WEXITSTATUS(st) : 125);
}

int pty_child(void)
{
	char buf[4096];

	if (!P.active)
		return 0;
	if (setsid() < 0 || ioctl(P.slave, TIOCSCTTY, 0) < 0)
		return -errno;
	/*
	 * Each descriptor that is the real terminal becomes the slave: the
	 * agent must have no way to write ward's rows or read the person's
	 * keys.  /proc/self/fd is read with getdents64 (no malloc after a fork).
	 * Close-on-exec ones (ward's own) go at the exec anyway.
	 */
	int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	for (;;) {
		long n = syscall(SYS_getdents64, dir, buf, sizeof(buf));
		if (n <= 0)
			break;
		for (long at = 0; at < n;) {
			struct dirent64 *d = (struct dirent64 *)(buf + at);
			at += d->d_reclen;
			int fd = atoi(d->d_name);
			struct stat st;
			if (d->d_name[0] == '.' || fd == dir || fd == P.slave)
				continue;
			int fl = fcntl(fd, F_GETFD);
			if (fl < 0 || (fl & FD_CLOEXEC) || fstat(fd, &st) < 0 || !S_ISCHR(st.st_mode) ||
			    st.st_rdev != P.real_dev)
				continue;
			if (dup2(P.slave, fd) < 0) {
				close(dir);
				return -errno;
			}
		}
	}
	close(dir);
	/*
	 * The agent in a process group of its own, below this process, which
	 * stays the session's leader: a session leader's group has no parent
	 * in its session, is orphaned, and the kernel ignores ^Z (SIGTSTP)
	 * for an orphaned group.  sudo's exec_pty does the same.
	 */
	pid_t agent = fork();
	if (agent < 0)
		return -errno;
	if (agent == 0) {
		setpgid(0, 0);
		signal(SIGTTOU, SIG_IGN); /* taking the foreground from the background */
		tcsetpgrp(P.slave, getpid());
		signal(SIGTTOU, SIG_DFL);
		if (P.slave > STDERR_FILENO)
			close(P.slave);
		return 0;
	}
	setpgid(agent, agent);
	if (P.slave > STDERR_FILENO)
		close(P.slave);
	monitor(agent);
}

/* The question list changed: the relay looks (called with ask.c's lock held). */
static void asks_changed(void *arg)
{
	(void)arg;
	wake('a');
}

static int front_list(void *arg, struct ask_view **v, size_t *n)
{
	(void)arg;
	return ask_list(v, n);
}

static int front_answer(void *arg, unsigned serial, enum ask_answer a, int scope)
{
	(void)arg;
	return ask_answer(serial, a, scope);
}

static void front_touch(void *arg, unsigned serial)
{
	(void)arg;
	ask_touch(serial);
}

static void front_notice(void *arg, char *buf, size_t len)
{
	(void)arg;
	ask_notice(buf, len);
}

/* Where the terminal's cursor is (CSI 6n), within 300 ms; what else came is the agent's. */
static int query_row(void)
{
	char buf[256];
	size_t n = 0;
	int64_t until = now_ms() + 300;

	if (write_all(P.tty, "\033[6n", 4) < 0)
		return 0;
	while (n < sizeof(buf) - 1) {
		struct pollfd p = { .fd = P.tty, .events = POLLIN };
		int64_t left = until - now_ms();
		if (left <= 0 || poll(&p, 1, (int)left) <= 0)
			break;
		ssize_t r = read(P.tty, buf + n, sizeof(buf) - 1 - n);
		if (r <= 0)
			break;
		n += (size_t)r;
		buf[n] = '\0';
		char *esc = strstr(buf, "\033[");
		int row, col, used;
		if (esc != NULL && sscanf(esc, "\033[%d;%dR%n", &row, &col, &used) == 2) {
			ob_put(&P.to_master, buf, (size_t)(esc - buf));
			ob_put(&P.to_master, esc + used, n - (size_t)(esc - buf) - (size_t)used);
			return row;
		}
	}
	ob_put(&P.to_master, buf, n);
	return 0;
}

static void set_raw(void)
{
	struct termios raw = P.saved;

	cfmakeraw(&raw);
	raw.c_cc[VMIN] = 1;
	raw.c_cc[VTIME] = 0;
	if (tcsetattr(P.tty, TCSADRAIN, &raw) == 0)
		P.raw = true;
}

static bool in_foreground(void)
{
	return tcgetpgrp(P.tty) == getpgrp();
}

/* What ward's rows (and the overlay) show now. */
static void compose(void)
{
	static char lines[2][PROMPT_LINE], over[OVERLAY_MAX][PROMPT_LINE];
	const char *l[2] = { lines[0], lines[1] }, *sgr[2];
	const char *o[OVERLAY_MAX], *osgr[OVERLAY_MAX];
	int nover, max = screen_area(P.scr) - 1;

	if (max > OVERLAY_MAX)
		max = OVERLAY_MAX;
	front_lines(&P.front, P.cols, now_ms(), lines, sgr, over, max, &nover);
	screen_set_ward(P.scr, l, sgr);
	struct obuf out = { 0 };
	if (nover > 0) {
		for (int i = 0; i < nover; i++) {
			o[i] = over[i];
			osgr[i] = "7";
		}
		screen_hold(P.scr, o, osgr, nover, &out);
		P.overlay = true;
	} else if (P.overlay) {
		screen_release(P.scr, &out);
		P.overlay = false;
	}
	tty_write(&out);
	ob_free(&out);
}

/* Draw ward's rows when the agent is not in a synchronized update (or has kept one too long). */
static void draw(void)
{
	struct obuf out = { 0 };

	if (!P.want_draw && !screen_ward_dirty(P.scr))
		return;
	if (screen_sync_open(P.scr)) {
		if (P.sync_since == 0)
			P.sync_since = now_ms();
		if (now_ms() - P.sync_since < SYNC_WAIT_MS)
			return;
		screen_sync_close(P.scr, &out);
	}
	P.sync_since = 0;
	if (screen_draw_ward(P.scr, &out)) {
		P.want_draw = false;
		if (P.front.shown && P.front.shown_ms == 0) {
			front_shown_at(&P.front, now_ms());
			ob_puts(&out, "\a"); /* a new question: the bell (tmux flags the pane) */
		}
	}
	tty_write(&out);
	ob_free(&out);
}

/* A new question: what was typed before it is not an answer to it. */
static void discard_typeahead(void)
{
	char buf[4096];

	tcflush(P.tty, TCIFLUSH);
	for (;;) {
		struct pollfd p = { .fd = P.tty, .events = POLLIN };
		if (poll(&p, 1, 0) <= 0 || read(P.tty, buf, sizeof(buf)) <= 0)
			break;
	}
	memset(&P.keys, 0, sizeof(P.keys));
}

static void refresh_asks(void)
{
	if (front_refresh(&P.front) && P.tty_in)
		discard_typeahead();
	compose();
}

static void check_size(void)
{
	struct winsize ws;
	struct obuf out = { 0 };

	if (ioctl(P.tty, TIOCGWINSZ, &ws) < 0 || (ws.ws_row == P.rows && ws.ws_col == P.cols))
		return;
	P.rows = ws.ws_row;
	P.cols = ws.ws_col;
	screen_resize(P.scr, P.rows, P.cols, &out);
	tty_write(&out);
	ws.ws_row = (unsigned short)screen_area(P.scr);
	ioctl(P.master, TIOCSWINSZ, &ws); /* the kernel tells the agent (SIGWINCH) */
	screen_crash_reset(P.rows, P.crash, sizeof(P.crash));
	compose();
}

/* The agent's output (or ward's own messages, nl: their newlines made CR LF). */
static void relay_out(const char *b, size_t n, bool nl)
{
	struct obuf out = { 0 }, reply = { 0 };

	check_size();
	if (nl) {
		struct obuf t = { 0 };
		for (size_t i = 0; i < n; i++) {
			if (b[i] == '\n')
				ob_put(&t, "\r", 1);
			ob_put(&t, b + i, 1);
		}
		screen_feed(P.scr, t.p, t.len, &out, NULL);
		ob_free(&t);
	} else {
		screen_feed(P.scr, b, n, &out, &reply);
	}
	tty_write(&out);
	ob_put(&P.to_master, reply.p, reply.len);
	ob_free(&out);
	ob_free(&reply);
}

/* The person's keys: the question's when one is shown, else the agent's. */
static void relay_in(const char *b, size_t n)
{
	if (!P.front.shown) {
		ob_put(&P.to_master, b, n);
		return;
	}
	struct obuf fwd = { 0 };
	int key = keyin_read(&P.keys, b, n, &fwd);
	ob_put(&P.to_master, fwd.p, fwd.len);
	ob_free(&fwd);
	if (key != KEY_NONE && front_key(&P.front, key, now_ms()))
		compose();
}

/* Stopped with the agent (its ^Z): the terminal back to the shell, then ward stops. */
static void suspend(void)
{
	struct obuf out = { 0 };
	pid_t pgrp = tcgetpgrp(P.master);

	if (P.raw) {
		screen_suspend(P.scr, &out);
		tty_write(&out);
		tcsetattr(P.tty, TCSADRAIN, &P.saved);
		P.raw = false;
	}
	ob_free(&out);
	raise(SIGTSTP);
	/* Continued (fg or bg): SIGCONT's wake will resume; the agent continues with ward. */
	kill(P.child, SIGCONT);
	if (pgrp > 0)
		kill(-pgrp, SIGCONT);
}

/* ward runs again: in the foreground, the terminal is taken again and repainted. */
static void resume(void)
{
	struct obuf out = { 0 };

	P.tty_in = in_foreground() && !P.tty_dead;
	if (!P.tty_in)
		return;
	if (!P.raw)
		set_raw();
	check_size();
	screen_resume(P.scr, &out);
	tty_write(&out);
	ob_free(&out);
	compose();
}

static void events(void)
{
	char ev[64];
	ssize_t n;

	while ((n = read(P.wake[0], ev, sizeof(ev))) > 0)
		for (ssize_t i = 0; i < n; i++)
			switch (ev[i]) {
			case 'w':
				check_size();
				break;
			case 'a':
				refresh_asks();
				break;
			case 'z':
				suspend();
				break;
			case 'c':
				resume();
				break;
			case 'q':
				P.quitting = true;
				break;
			}
}

static void *relay(void *arg)
{
	static char buf[READ_SIZE];
	int64_t drain_until = 0;

	(void)arg;
	for (;;) {
		struct pollfd p[4];
		int np = 0, timeout = -1;
		int64_t now = now_ms();

		p[np++] = (struct pollfd){ .fd = P.wake[0], .events = POLLIN };
		int im = P.master_eof ? -1 : np;
		if (im >= 0)
			p[np++] = (struct pollfd){ .fd = P.master,
						   .events = POLLIN | (P.to_master.len ? POLLOUT : 0) };
		int ie = P.err_r >= 0 ? np : -1;
		if (ie >= 0)
			p[np++] = (struct pollfd){ .fd = P.err_r, .events = POLLIN };
		int it = P.tty_in && P.to_master.len < MASTER_BACKLOG ? np : -1;
		if (it >= 0)
			p[np++] = (struct pollfd){ .fd = P.tty, .events = POLLIN };
		/* Timers: the keys going live, a lone ESC, a draw put off, the end, the foreground. */
		int arming = front_arming(&P.front, now);
		if (P.front.shown && P.front.shown_ms && arming > 0)
			timeout = arming;
		if (keyin_pending(&P.keys) && (timeout < 0 || timeout > PROMPT_ESC_MS))
			timeout = PROMPT_ESC_MS;
		if ((P.want_draw || screen_ward_dirty(P.scr)) && (timeout < 0 || timeout > 20))
			timeout = 20;
		if (!P.tty_in && !P.tty_dead && (timeout < 0 || timeout > 500))
			timeout = 500;
		if (P.quitting) {
			if (drain_until == 0)
				drain_until = now + DRAIN_MS;
			if (P.master_eof || now >= drain_until)
				break;
			timeout = (int)(drain_until - now);
		}
		bool was_live = arming == 0;
		int r = poll(p, (nfds_t)np, timeout);
		if (r < 0 && errno != EINTR)
			break;
		now = now_ms();
		if (p[0].revents)
			events();
		if (im >= 0 && (p[im].revents & POLLOUT) && P.to_master.len) {
			ssize_t w = write(P.master, P.to_master.p, P.to_master.len);
			if (w > 0)
				ob_consume(&P.to_master, (size_t)w);
		}
		if (im >= 0 && (p[im].revents & (POLLIN | POLLHUP | POLLERR))) {
			ssize_t n = read(P.master, buf, sizeof(buf));
			if (n > 0)
				relay_out(buf, (size_t)n, false);
			else if (n == 0 || errno == EIO)
				P.master_eof = true;
		}
		if (ie >= 0 && (p[ie].revents & (POLLIN | POLLHUP))) {
			ssize_t n = read(P.err_r, buf, sizeof(buf));
			if (n > 0)
				relay_out(buf, (size_t)n, true);
			else
				P.err_r = -1;
		}
		if (it >= 0 && (p[it].revents & (POLLIN | POLLHUP | POLLERR))) {
			ssize_t n = read(P.tty, buf, sizeof(buf));
			if (n > 0) {
				relay_in(buf, (size_t)n);
			} else if (n == 0 || errno == EIO) {
				/* The terminal hung up: no one answers there any more. */
				P.tty_in = false;
				P.tty_dead = true;
				ask_set_terminal(false);
			}
		}
		if (!keyin_pending(&P.keys))
			P.esc_since = 0;
		else if (P.esc_since == 0)
			P.esc_since = now;
		if (keyin_pending(&P.keys) && now - P.esc_since >= PROMPT_ESC_MS) {
			struct obuf fwd = { 0 };
			int key = keyin_timeout(&P.keys, &fwd);
			ob_put(&P.to_master, fwd.p, fwd.len);
			ob_free(&fwd);
			if (key != KEY_NONE && front_key(&P.front, key, now))
				compose();
		}
		if (!was_live && P.front.shown && P.front.shown_ms && front_arming(&P.front, now) == 0)
			compose(); /* the keys answer now: their row says so */
		if (!P.tty_in && !P.tty_dead && !P.quitting && in_foreground() && P.active)
			resume();
		if (!P.tty_dead)
			draw();
	}
	/* The end: the terminal given back. */
	struct obuf out = { 0 };
	if (P.raw) {
		screen_end(P.scr, &out);
		tty_write(&out);
		tcsetattr(P.tty, TCSADRAIN, &P.saved);
		P.raw = false;
	}
	ob_free(&out);
	return NULL;
}

int pty_start(pid_t child, const char *session, const char *home)
{
	struct obuf out = { 0 };
	static bool once;

	if (!P.active)
		return 0;
	P.child = child;
	close(P.slave);
	P.slave = -1;
	P.scr = screen_new(P.rows, P.cols);
	if (P.scr == NULL)
		return -ENOMEM;
	snprintf(P.session, sizeof(P.session), "%s", session);
	snprintf(P.home, sizeof(P.home), "%s", home ? home : "");
	int fl = fcntl(P.master, F_GETFL);
	fcntl(P.master, F_SETFL, fl | O_NONBLOCK);
	screen_crash_reset(P.rows, P.crash, sizeof(P.crash));
	if (!once) {
		/* Every way out gives the terminal back. */
		static const int fatal[] = { SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT, SIGQUIT };
		struct sigaction sa = { .sa_handler = on_fatal, .sa_flags = SA_RESETHAND };
		sigemptyset(&sa.sa_mask);
		for (size_t i = 0; i < sizeof(fatal) / sizeof(fatal[0]); i++)
			sigaction(fatal[i], &sa, NULL);
		atexit(at_exit);
		once = true;
	}
	struct sigaction sw = { .sa_handler = on_winch, .sa_flags = SA_RESTART };
	sigemptyset(&sw.sa_mask);
	sigaction(SIGWINCH, &sw, NULL);
	sw.sa_handler = on_cont;
	sigaction(SIGCONT, &sw, NULL);
	set_raw();
	if (!P.raw)
		return -errno;
	P.tty_in = true;
	/* ward's own messages (-v, warnings) go through the relay, not over the screen. */
	int ep[2];
	if (pipe2(ep, O_CLOEXEC) == 0) {
		P.err_saved = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, 3);
		if (P.err_saved >= 0 && dup2(ep[1], STDERR_FILENO) >= 0) {
			P.err_r = ep[0];
		} else {
			close(ep[0]);
			if (P.err_saved >= 0)
				close(P.err_saved);
			P.err_saved = -1;
		}
		close(ep[1]);
	}
	struct front_ops ops = { front_list, front_answer, front_touch, front_notice, NULL };
	front_init(&P.front, &ops, session, home);
	if (P.arm_ms > 0)
		P.front.arm_ms = P.arm_ms;
	int row = query_row();
	screen_begin(P.scr, row, &out);
	tty_write(&out);
	ob_free(&out);
	ask_subscribe(asks_changed, NULL);
	ask_set_terminal(true);
	refresh_asks();
	if (pthread_create(&P.thread, NULL, relay, NULL) != 0) {
		crash_restore();
		return -EAGAIN;
	}
	P.running = true;
	return 0;
}

void pty_arm_ms(int ms)
{
	P.arm_ms = ms;
}

void pty_agent_stopped(int sig)
{
	(void)sig;
	if (P.running)
		wake('z');
}

void pty_finish(void)
{
	if (!P.active)
		return;
	if (P.running) {
		wake('q');
		pthread_join(P.thread, NULL);
		P.running = false;
	}
	ask_set_terminal(false);
	if (P.err_saved >= 0) {
		/* What ward said last, after the terminal is its own again. */
		char buf[4096];
		ssize_t n;
		dup2(P.err_saved, STDERR_FILENO);
		close(P.err_saved);
		P.err_saved = -1;
		fcntl(P.err_r, F_SETFL, O_NONBLOCK);
		while (P.err_r >= 0 && (n = read(P.err_r, buf, sizeof(buf))) > 0)
			(void)!write(STDERR_FILENO, buf, (size_t)n);
	}
	if (P.err_r >= 0)
		close(P.err_r);
	crash_restore();
	P.finished = true;
	screen_free(P.scr);
	P.scr = NULL;
	front_free(&P.front);
	ob_free(&P.to_master);
	close(P.master);
	close(P.tty);
	close(P.wake[0]);
	close(P.wake[1]);
	P.master = P.tty = P.wake[0] = P.wake[1] = P.err_r = -1;
	P.active = false;
}
