/*
 * sigstorm DIR ITERATIONS MODE [PERIOD_US]: file and network calls under a
 * storm of signals (SIGALRM every PERIOD_US microseconds, 1000 unless
 * given), to show that a call interrupted while ward serves it is done
 * once (tests/integration/restart.sh).
 *
 * Each iteration creates DIR/fN with O_EXCL and writes N in it, renames it
 * to DIR/gN, reads N back, makes and removes DIR/dN, removes DIR/gN,
 * connects to its own TCP and unix listeners, and sends N in a datagram
 * to its own UDP socket, which must receive it exactly once.  Then (but
 * in giveup mode) it opens DIR/fifo for reading, which waits for the
 * other end: a thread of its own, with every signal blocked, opens it for
 * writing and writes N, which must be read back (a FIFO's open that ward
 * performed, and whose answer a signal kept from the program, is answered
 * to the restarted call: performed again, it would wait for a writer that
 * has gone).
 *
 * MODE says what the program does about signals:
 *   restart  the handler has SA_RESTART: the kernel restarts each call;
 *            no call may fail;
 *   retry    no SA_RESTART: a call that fails with EINTR is made again
 *            (as careful programs do); no call may fail otherwise;
 *   giveup   no SA_RESTART, and a call that fails with EINTR is not made
 *            again: the iteration is dropped.  Then every fd left open
 *            that the program was not told of must be a file it asked to
 *            open, open as it asked (harmless: before 5.14 ward installs
 *            an fd, then answers its number, and a call interrupted in
 *            between keeps the fd).
 * At the end no fd may be open that was not before (but in giveup mode,
 * as said), DIR must hold nothing but the unix socket, and signals must
 * have come.  Prints "ok ITERATIONS iterations, S signals" and exits 0,
 * or says what failed and exits 1 (2: a usage or set-up error).
 */
#include "common.h"

#include <dirent.h>
#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>

static volatile sig_atomic_t signals;
static int failures;

enum mode { RESTART, RETRY, GIVEUP } mode;

static void ring(int sig)
{
	(void)sig;
	signals++;
}

__attribute__((format(printf, 1, 2))) static void fail(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	failures++;
}

/*
 * A call's result, made again after EINTR in retry mode.  Returns the
 * result, or -2 when the call was interrupted in giveup mode (the
 * iteration is dropped).
 */
#define CALL(expr)                                                                   \
	({                                                                           \
		long rc_;                                                            \
		while ((rc_ = (long)(expr)) < 0 && errno == EINTR && mode == RETRY)   \
			;                                                            \
		if (rc_ < 0 && errno == EINTR && mode == GIVEUP)                     \
			rc_ = -2;                                                    \
		rc_;                                                                 \
	})

/* The same, where anything but want fails the check; false when the iteration is dropped. */
#define EXPECT(expr, want, what, ...)                                                \
	({                                                                           \
		long r_ = CALL(expr);                                                \
		if (r_ != -2 && r_ != (long)(want))                                  \
			fail("%d: " what " = %ld (%s), not %ld", i, ##__VA_ARGS__, r_, \
			     r_ < 0 ? strerror(errno) : "-", (long)(want));          \
		if (r_ == -2)                                                        \
			printf("%d: " what " interrupted\n", i, ##__VA_ARGS__);      \
		r_ != -2;                                                            \
	})

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	struct dirent *e;
	int n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		n += e->d_name[0] != '.';
	if (d != NULL)
		closedir(d);
	return n - 1; /* the directory's own */
}

/* The fds open before the storm. */
#define FDS_MAX 4096
static bool before[FDS_MAX];

static void note_fds(void)
{
	for (int fd = 0; fd < FDS_MAX; fd++)
		before[fd] = fcntl(fd, F_GETFD) >= 0;
}

/*
 * Every fd open now and not before must be one the program asked for and
 * was not told of: a file fN of dir write-only or gN read-only, and
 * close-on-exec, as asked.
 */
static int check_left(const char *dir)
{
	int left = 0;

	for (int fd = 0; fd < FDS_MAX; fd++) {
		if (before[fd])
			continue;
		char link[64], to[PATH_MAX];
		int fl = fcntl(fd, F_GETFL), fdf = fcntl(fd, F_GETFD);
		if (fl < 0)
			continue;
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, to, sizeof(to) - 1);
		to[n < 0 ? 0 : n] = '\0';
		size_t dl = strlen(dir);
		bool ours = strncmp(to, dir, dl) == 0 && to[dl] == '/';
		int want = !ours ? -1 : to[dl + 1] == 'f' ? O_WRONLY : to[dl + 1] == 'g' ? O_RDONLY : -1;
		if ((fl & O_ACCMODE) != want || !(fdf & FD_CLOEXEC))
			fail("fd %d left open: %s, flags %#o%s", fd, to, fl,
			     fdf & FD_CLOEXEC ? " cloexec" : "");
		left++;
	}
	return left;
}

/*
 * The FIFO's writer: for each number on go, opens the FIFO, writes the
 * number, closes, and says so on done (a reader's next open must not meet
 * this open's end before it is closed: it would read its end of file).
 */
struct writer {
	const char *fifo;
	int go, done;
};

static void *fifo_writer(void *arg)
{
	struct writer *w = arg;
	int i;

	while (read(w->go, &i, sizeof(i)) == sizeof(i)) {
		int fd = open(w->fifo, O_WRONLY | O_CLOEXEC);
		if (fd < 0 || write(fd, &i, sizeof(i)) != sizeof(i))
			fail("%d: the FIFO's writer: %s", i, strerror(errno));
		if (fd >= 0)
			close(fd);
		if (write(w->done, &i, sizeof(i)) != sizeof(i))
			break;
	}
	return NULL;
}

static int listen_on(int domain, int type, struct sockaddr *sa, socklen_t *len)
{
	int s = socket(domain, type | SOCK_CLOEXEC, 0);
	/*
	 * The inet ones learn their port; a unix one keeps the path it was
	 * bound to (under ward, getsockname names the final component only).
	 */
	if (s < 0 || bind(s, sa, *len) < 0 || (type == SOCK_STREAM && listen(s, 16) < 0) ||
	    (domain != AF_UNIX && getsockname(s, sa, len) < 0)) {
		fprintf(stderr, "sigstorm: listener: %s\n", strerror(errno));
		exit(2);
	}
	return s;
}

int main(int argc, char **argv)
{
	if (argc < 4 || argc > 5)
		usage("sigstorm DIR ITERATIONS restart|retry|giveup [PERIOD_US]");
	const char *dir = argv[1];
	int iterations = atoi(argv[2]);
	long period = argc == 5 ? atol(argv[4]) : 1000;
	if (strcmp(argv[3], "restart") == 0)
		mode = RESTART;
	else if (strcmp(argv[3], "retry") == 0)
		mode = RETRY;
	else if (strcmp(argv[3], "giveup") == 0)
		mode = GIVEUP;
	else
		usage("sigstorm DIR ITERATIONS restart|retry|giveup [PERIOD_US]");

	/* The three listeners, the program's own (the session's, to ward's policy). */
	struct sockaddr_in tcp = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in udp = tcp;
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	socklen_t tl = sizeof(tcp), ul = sizeof(udp), nl = sizeof(un);
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/sock", dir);
	int tl_fd = listen_on(AF_INET, SOCK_STREAM, (struct sockaddr *)&tcp, &tl);
	int ul_fd = listen_on(AF_UNIX, SOCK_STREAM, (struct sockaddr *)&un, &nl);
	int ur_fd = listen_on(AF_INET, SOCK_DGRAM, (struct sockaddr *)&udp, &ul);
	int us_fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (us_fd < 0)
		return 2;
	int fds = count_fds();
	note_fds();
	/* The FIFO and its writer, which takes no signal (their fds go before the count at the end). */
	char fifo[PATH_MAX];
	int go[2], done[2];
	pthread_t wt;
	sigset_t all, old;
	snprintf(fifo, sizeof(fifo), "%s/fifo", dir);
	struct writer w = { fifo, -1, -1 };
	if (mode != GIVEUP) {
		if (mkfifo(fifo, 0600) < 0 || pipe2(go, O_CLOEXEC) < 0 || pipe2(done, O_CLOEXEC) < 0)
			return 2;
		w.go = go[0];
		w.done = done[1];
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		if (pthread_create(&wt, NULL, fifo_writer, &w) != 0)
			return 2;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}

	struct sigaction sa = { .sa_handler = ring, .sa_flags = mode == RESTART ? SA_RESTART : 0 };
	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval it = { { 0, period }, { 0, period } };
	setitimer(ITIMER_REAL, &it, NULL);

	int dropped = 0;
	for (int i = 0; i < iterations && failures < 10; i++) {
		char f[PATH_MAX], g[PATH_MAX], d[PATH_MAX];
		int v = -1, s, c;
		snprintf(f, sizeof(f), "%s/f%d", dir, i);
		snprintf(g, sizeof(g), "%s/g%d", dir, i);
		snprintf(d, sizeof(d), "%s/d%d", dir, i);

		long fd = CALL(open(f, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600));
		if (fd == -2) {
			printf("%d: open interrupted\n", i);
			dropped++;
			continue;
		}
		if (fd < 0) {
			fail("%d: open(%s, O_CREAT|O_EXCL) = %s", i, f, strerror(errno));
			continue;
		}
		if (write((int)fd, &i, sizeof(i)) != sizeof(i))
			fail("%d: write: %s", i, strerror(errno));
		close((int)fd);
		if (!EXPECT(rename(f, g), 0, "rename(%s, %s)", f, g) ||
		    (fd = CALL(open(g, O_RDONLY | O_CLOEXEC))) == -2) {
			dropped++;
			continue;
		}
		if (fd < 0 || read((int)fd, &v, sizeof(v)) != sizeof(v) || v != i)
			fail("%d: %s holds %d, not %d (%s)", i, g, v, i, strerror(errno));
		if (fd >= 0)
			close((int)fd);
		if (!EXPECT(mkdir(d, 0700), 0, "mkdir(%s)", d) ||
		    !EXPECT(rmdir(d), 0, "rmdir(%s)", d) || !EXPECT(unlink(g), 0, "unlink(%s)", g)) {
			dropped++;
			continue;
		}

		s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (EXPECT(connect(s, (struct sockaddr *)&tcp, tl), 0, "connect(tcp)")) {
			if ((c = accept4(tl_fd, NULL, NULL, SOCK_CLOEXEC)) < 0)
				fail("%d: accept(tcp): %s", i, strerror(errno));
			else
				close(c);
		} else {
			dropped++;
		}
		close(s);
		s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (EXPECT(connect(s, (struct sockaddr *)&un, nl), 0, "connect(unix)")) {
			if ((c = accept4(ul_fd, NULL, NULL, SOCK_CLOEXEC)) < 0)
				fail("%d: accept(unix): %s", i, strerror(errno));
			else
				close(c);
		} else {
			dropped++;
		}
		close(s);

		if (!EXPECT(sendto(us_fd, &i, sizeof(i), 0, (struct sockaddr *)&udp, ul), sizeof(i),
			    "sendto(udp)")) {
			/* Given up: it may or may not have gone; take it if it did. */
			while (recv(ur_fd, &v, sizeof(v), MSG_DONTWAIT) > 0)
				;
			dropped++;
			continue;
		}
		/* Loopback delivers at once: one datagram, this one, and no second. */
		ssize_t n;
		while ((n = recv(ur_fd, &v, sizeof(v), MSG_DONTWAIT)) < 0 && errno == EINTR)
			;
		if (n != sizeof(v) || v != i)
			fail("%d: received %zd bytes (%d), not the datagram %d", i, n, v, i);
		while ((n = recv(ur_fd, &v, sizeof(v), MSG_DONTWAIT)) < 0 && errno == EINTR)
			;
		if (n >= 0)
			fail("%d: datagram %d received twice", i, v);

		if (mode == GIVEUP)
			continue;
		v = -1;
		fd = -1;
		if (write(go[1], &i, sizeof(i)) != sizeof(i) ||
		    (fd = CALL(open(fifo, O_RDONLY | O_CLOEXEC))) < 0 ||
		    CALL(read((int)fd, &v, sizeof(v))) != sizeof(v) || v != i)
			fail("%d: %s gave %d, not %d (%s)", i, fifo, v, i, strerror(errno));
		/* The writer's end closed before the next round's open (it opened, as this one did). */
		if (fd >= 0 && (close((int)fd), CALL(read(done[0], &v, sizeof(v)))) != sizeof(v))
			fail("%d: the FIFO's writer did not finish: %s", i, strerror(errno));
	}
	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);

	if (mode != GIVEUP) {
		close(go[1]);
		pthread_join(wt, NULL);
		close(go[0]);
		close(done[0]);
		close(done[1]);
		unlink(fifo);
	}
	int left = count_fds() - fds;
	if (mode == GIVEUP) {
		int harmless = check_left(dir);
		printf("giveup: %d iteration(s) dropped, %d fd(s) left, each a file asked for\n",
		       dropped, harmless);
	} else if (left != 0) {
		fail("%d fd(s) open that were not before", left);
		check_left(dir);
	}
	if (mode != GIVEUP) {
		DIR *dd = opendir(dir);
		struct dirent *e;
		while (dd != NULL && (e = readdir(dd)) != NULL)
			if (e->d_name[0] != '.' && strcmp(e->d_name, "sock") != 0)
				fail("%s/%s is left", dir, e->d_name);
		if (dd != NULL)
			closedir(dd);
	}
	if (signals == 0)
		fail("no signal came");
	if (failures > 0)
		return 1;
	printf("ok %d iterations, %d signals\n", iterations, (int)signals);
	return 0;
}
