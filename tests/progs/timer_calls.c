/*
 * timer_calls DIR restart|intr USEC SECONDS [BUSY]: file calls under a
 * storm of signals.  An interval timer sends SIGALRM every USEC
 * microseconds, and each round sends SIGUSR1 to the process itself (kill),
 * both to handlers installed with SA_RESTART ("restart") or without
 * ("intr"), while the program creates, renames and unlinks files and
 * directories in DIR for SECONDS seconds.  BUSY threads (none unless
 * given), which block every signal, open DIR again and again meanwhile:
 * under a supervisor each of the main thread's calls then waits its turn
 * behind theirs, longer than the timer's interval.
 *
 * None of these calls waits on a local filesystem, so natively none fails
 * with EINTR, whatever the handlers' flags, and each round ends however
 * fast the timer is.  Under a supervisor a signal that reaches a thread
 * before the supervisor has received its call must change neither: no
 * EINTR, and no call restarted for ever.
 *
 * Prints one line, "rounds done, no call failed, signals handled", or the
 * call that failed ("renameat: EINTR", exit 1), or, when a round makes no
 * progress for 20 s, the call it is stuck in (exit 3).
 */
#include "common.h"

#include <pthread.h>
#include <stdatomic.h>
#include <sys/time.h>

static atomic_long rounds, handled;
static const char *_Atomic doing = "start";

static void on_signal(int sig)
{
	(void)sig;
	atomic_fetch_add(&handled, 1);
}

/* A thread with every signal blocked, which ends the program when a round never ends. */
static void *watchdog(void *arg)
{
	long last = -1;
	int still = 0;

	(void)arg;
	for (;;) {
		struct timespec one = { 1, 0 };
		nanosleep(&one, NULL);
		long now = atomic_load(&rounds);
		still = now == last ? still + 1 : 0;
		last = now;
		if (still >= 20) {
			printf("stuck in %s\n", atomic_load(&doing));
			fflush(stdout);
			_exit(3);
		}
	}
	return NULL;
}

/* A thread that keeps the supervisor busy: opens DIR, again and again. */
static void *busy(void *dir)
{
	for (;;) {
		long fd = syscall(SYS_openat, AT_FDCWD, dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fd >= 0)
			close((int)fd);
	}
	return NULL;
}

static void check(long rc, const char *call)
{
	if (rc >= 0)
		return;
	printf("%s: %s\n", call, strerrorname_np(errno) ? strerrorname_np(errno) : "?");
	fflush(stdout);
	exit(1);
}

#define CALL(name, ...) (atomic_store(&doing, #name), syscall(SYS_##name, __VA_ARGS__))

int main(int argc, char **argv)
{
	if ((argc != 5 && argc != 6) ||
	    (strcmp(argv[2], "restart") != 0 && strcmp(argv[2], "intr") != 0))
		usage("timer_calls DIR restart|intr USEC SECONDS [BUSY]");
	const char *dir = argv[1];
	long usec = atol(argv[3]), seconds = atol(argv[4]), nbusy = argc == 6 ? atol(argv[5]) : 0;
	char a[4096], b[4096], c[4096];
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	snprintf(c, sizeof(c), "%s/c", dir);

	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	pthread_t t;
	if (pthread_create(&t, NULL, watchdog, NULL) != 0)
		return 2;
	for (long i = 0; i < nbusy; i++)
		if (pthread_create(&t, NULL, busy, (void *)dir) != 0)
			return 2;
	pthread_sigmask(SIG_SETMASK, &old, NULL);

	struct sigaction sa = { .sa_handler = on_signal };
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = strcmp(argv[2], "restart") == 0 ? SA_RESTART : 0;
	sigaction(SIGALRM, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	struct itimerval it = { { 0, usec }, { 0, usec } };
	setitimer(ITIMER_REAL, &it, NULL);

	struct timespec start, now;
	clock_gettime(CLOCK_MONOTONIC, &start);
	do {
		long fd = CALL(openat, AT_FDCWD, a, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
		check(fd, "openat");
		close((int)fd);
		check(CALL(rename, a, b), "rename");
		check(CALL(renameat, AT_FDCWD, b, AT_FDCWD, a), "renameat");
		check(CALL(unlink, a), "unlink");
		check(CALL(mkdir, c, 0755), "mkdir");
		check(CALL(rmdir, c), "rmdir");
		check(CALL(kill, getpid(), SIGUSR1), "kill");
		atomic_fetch_add(&rounds, 1);
		clock_gettime(CLOCK_MONOTONIC, &now);
	} while (now.tv_sec - start.tv_sec < seconds);

	struct itimerval off = { { 0, 0 }, { 0, 0 } };
	setitimer(ITIMER_REAL, &off, NULL);
	printf("rounds done: %s, no call failed, signals handled: %s\n",
	       atomic_load(&rounds) > 0 ? "yes" : "no", atomic_load(&handled) > 0 ? "yes" : "no");
	return 0;
}
