/*
 * degraded_vforkwait FILE: the main thread vforks a child that sleeps 7
 * seconds before it exits, so the main thread waits in vfork, where no
 * signal but a fatal one reaches it; meanwhile another thread opens FILE.
 * Natively that open is made at once.  Under ward --degraded without
 * openat2 each open waits for every other thread of the process to stop
 * (supervisor/degraded.c), which a vfork's parent cannot until its child
 * is gone: after 5 seconds ward refuses the open (EAGAIN) rather than
 * hold the process for ever.  Prints "open: RESULT after N s".
 */
#include "common.h"

#include <pthread.h>
#include <time.h>

static const char *file;

static double now(void)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + t.tv_nsec / 1e9;
}

static void *opener(void *arg)
{
	struct timespec d = { 0, 300 * 1000 * 1000 };

	(void)arg;
	nanosleep(&d, NULL); /* the main thread is in vfork by then */
	double t0 = now();
	int fd = open(file, O_RDONLY | O_CLOEXEC);
	int e = errno;
	printf("open: %s after %.0f s\n", fd >= 0 ? "ok" : strerror(e), now() - t0);
	fflush(stdout);
	if (fd >= 0)
		close(fd);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t;

	if (argc != 2)
		return 2;
	file = argv[1];
	if (pthread_create(&t, NULL, opener, NULL) != 0)
		return 2;
	pid_t pid = vfork();
	if (pid == 0) {
		struct timespec d = { 7, 0 };
		syscall(SYS_nanosleep, &d, NULL);
		_exit(0);
	}
	pthread_join(t, NULL);
	return pid < 0 ? 1 : 0;
}
