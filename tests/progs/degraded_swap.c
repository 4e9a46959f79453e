/*
 * degraded_swap DIR SECONDS: a thread exchanges DIR/a and DIR/b
 * (renameat2 RENAME_EXCHANGE) without pause while the main thread opens
 * DIR/a/x again and again.  Under ward --degraded the agent's kernel opens
 * by the real path ward decided on; when an exchange falls between the
 * decision and that open, the kernel reaches the other x, and ward must
 * kill the process (supervisor/degraded.c: the fd is in its table, where
 * another thread could take it).  Natively no open fails.  Stops after
 * SECONDS, or once 50 opens have failed with EACCES.
 *
 * Prints "opens N eacces M other O leaked L": EACCES answers, other
 * failures, and fds open at the end that were not at the start
 * (tests/integration/degraded.sh).
 */
#include "common.h"

#include <dirent.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <time.h>

static atomic_bool stop;
static const char *dir;

static void *swapper(void *arg)
{
	char a[PATH_MAX], b[PATH_MAX];

	(void)arg;
	snprintf(a, sizeof(a), "%s/a", dir);
	snprintf(b, sizeof(b), "%s/b", dir);
	while (!atomic_load(&stop))
		syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, RENAME_EXCHANGE);
	return NULL;
}

static int count_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	if (d == NULL)
		return -1;
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

int main(int argc, char **argv)
{
	char x[PATH_MAX];
	pthread_t t;
	long opens = 0, eacces = 0, other = 0;

	if (argc != 3)
		return 2;
	dir = argv[1];
	double secs = atof(argv[2]);
	snprintf(x, sizeof(x), "%s/a/x", dir);
	int before = count_fds();
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (pthread_create(&t, NULL, swapper, NULL) != 0)
		return 2;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if ((double)(now.tv_sec - t0.tv_sec) + (now.tv_nsec - t0.tv_nsec) / 1e9 > secs ||
		    eacces >= 50)
			break;
		int fd = open(x, O_RDONLY | O_CLOEXEC);
		opens++;
		if (fd >= 0)
			close(fd);
		else if (errno == EACCES)
			eacces++;
		else if (errno != ENOENT)
			other++; /* (ENOENT: the name between two exchanges, natively too) */
	}
	atomic_store(&stop, true);
	pthread_join(t, NULL);
	printf("opens %ld eacces %ld other %ld leaked %d\n", opens, eacces, other,
	       count_fds() - before - 0);
	return 0;
}
