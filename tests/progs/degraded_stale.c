/*
 * degraded_stale GO SECRET: the main thread (the process's leader) execs
 * /usr/bin/true, which the test's policy asks the person about; meanwhile,
 * once the file GO exists, another thread execs this program again as
 * "degraded_stale - SECRET", which takes the leader's id (the kernel kills
 * the leader in the exec) and opens SECRET, which is asked about too.  The
 * exec's answer, given after that, belongs to a call that is gone: under
 * ward --degraded it must never become the answer to the new image's open
 * (found by the review of --degraded).  tests/integration/degraded.sh
 * drives it with ward approve.
 *
 * The second stage prints "open: OPENED" or "open: " and the error.
 */
#include "common.h"

#include <pthread.h>
#include <sys/stat.h>
#include <time.h>

static char *go, *secret, *self;

static void *later(void *arg)
{
	struct stat st;
	struct timespec nap = { 0, 20 * 1000 * 1000 };

	(void)arg;
	while (stat(go, &st) < 0)
		nanosleep(&nap, NULL);
	char *argv[] = { self, "-", secret, NULL };
	execv(self, argv);
	perror("execv");
	return NULL;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc != 3)
		return 2;
	if (strcmp(argv[1], "-") == 0) {
		int fd = open(argv[2], O_RDONLY);
		printf("open: %s\n", fd >= 0 ? "OPENED" : strerror(errno));
		return fd >= 0;
	}
	go = argv[1];
	secret = argv[2];
	self = argv[0];
	pthread_t t;
	if (pthread_create(&t, NULL, later, NULL) != 0)
		return 2;
	char *a[] = { "true", NULL };
	execv("/usr/bin/true", a);
	perror("execv true");
	return 2;
}
