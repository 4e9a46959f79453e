/*
 * degraded_symswap DIR SECONDS: the attack on the agent's own open under
 * ward --degraded without openat2 (supervisor/degraded.c).  DIR/d is a
 * directory with a file x; DIR/l is a symlink to another directory with
 * its own x (the secret, which the policy denies).  A thread exchanges
 * DIR/d and DIR/l (RENAME_EXCHANGE) without pause while the main thread
 * opens DIR/d/x again and again, and four threads read every fd from 3
 * to 63 as fast as they can.  Where ward decided on d/x while d was the
 * directory, and the agent's kernel then opens the path when d is the
 * symlink, it reaches the secret: a reader that reads it before anything
 * stops the process prints "LEAKED: <what it read>" at once (write(2) to
 * stdout, which outlives the process).
 *
 * Stops after SECONDS.  Prints "opens N reached R" at the end: R the opens
 * that gave the secret to the main thread itself (natively most of the
 * opens made while d was the symlink).
 */
#include "common.h"

#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

#define MARK "TOPSECRET"

static atomic_bool stop, leaked;
static const char *dir;

static void *swapper(void *arg)
{
	char d[PATH_MAX], l[PATH_MAX];

	(void)arg;
	snprintf(d, sizeof(d), "%s/d", dir);
	snprintf(l, sizeof(l), "%s/l", dir);
	while (!atomic_load(&stop))
		syscall(SYS_renameat2, AT_FDCWD, d, AT_FDCWD, l, RENAME_EXCHANGE);
	return NULL;
}

static void *reader(void *arg)
{
	char buf[128], line[192];

	(void)arg;
	while (!atomic_load(&stop)) {
		for (int fd = 3; fd < 64; fd++) {
			ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
			if (n <= 0)
				continue;
			buf[n] = '\0';
			if (strstr(buf, MARK) != NULL && !atomic_exchange(&leaked, true)) {
				int len = snprintf(line, sizeof(line), "LEAKED: %s", buf);
				if (write(1, line, (size_t)len) < 0)
					_exit(3);
			}
		}
	}
	return NULL;
}

int main(int argc, char **argv)
{
	char x[PATH_MAX], buf[128];
	pthread_t t[5];
	long opens = 0, reached = 0;

	if (argc != 3)
		return 2;
	dir = argv[1];
	double secs = atof(argv[2]);
	snprintf(x, sizeof(x), "%s/d/x", dir);
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pthread_create(&t[0], NULL, swapper, NULL) != 0)
		return 2;
	for (int i = 1; i < 5; i++)
		if (pthread_create(&t[i], NULL, reader, NULL) != 0)
			return 2;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9 > secs)
			break;
		int fd = open(x, O_RDONLY | O_CLOEXEC);
		opens++;
		if (fd < 0)
			continue;
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0) {
			buf[n] = '\0';
			reached += strstr(buf, MARK) != NULL;
		}
		close(fd);
	}
	atomic_store(&stop, true);
	for (int i = 0; i < 5; i++)
		pthread_join(t[i], NULL);
	printf("opens %ld reached %ld\n", opens, reached);
	return 0;
}
