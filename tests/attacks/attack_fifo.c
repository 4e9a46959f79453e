/*
 * attack_fifo MODE - wedge ward's notification workers.  ward performs
 * opens itself: an open of a FIFO for reading blocks until a writer comes,
 * and if that blocking happens in ward's worker instead of in the agent,
 * a few such opens leave no worker to serve anybody - not even the open
 * of the writer that would release them.  The agent is then stuck and
 * the session with it (DESIGN.md §1: the agent must not be able to stop
 * the supervisor).
 *
 *   open  more threads than CPUs open FIFOs for reading; then the main
 *         thread opens public/x and the FIFOs for writing (which is what
 *         a shell pipeline through named pipes does)
 *   exec  threads execve() a FIFO (the kernel refuses with EACCES at
 *         once; ward must not block reading it to see what it is)
 *
 * The main thread gives ward 3 seconds to answer; a stuck call is
 * reported as WRONG ("ward wedged").
 */
#include "attack.h"

#include <pthread.h>

static const char *mode;

static void *blocker(void *arg)
{
	const char *name = arg;
	if (strcmp(mode, "open") == 0) {
		int fd = open(name, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
	} else {
		extern char **environ;
		execve(name, (char *[]){ (char *)name, NULL }, environ);
	}
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
	say("WRONG: ward wedged: a supervised call got no answer for 3 s (%s mode)", mode);
	say("RESULT: wrong");
	_exit(1);
}

int main(int argc, char **argv)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	int n = (int)(ncpu > 0 ? ncpu : 2) + 2;
	char names[64][16];
	pthread_t t[64];

	mode = argc > 1 ? argv[1] : "open";
	if (strcmp(mode, "open") != 0 && strcmp(mode, "exec") != 0) {
		errno = EINVAL;
		setup_failed(mode);
	}
	if (n > 64)
		n = 64;
	for (int i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "fifo%d", i);
		if (mkfifo(names[i], 0600) < 0)
			setup_failed("mkfifo");
	}
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, blocker, names[i]) != 0)
			setup_failed("pthread_create");
	usleep(300 * 1000);

	signal(SIGALRM, on_alarm);
	alarm(3);
	int fd = open(PUBLIC, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		wrong("open(public/x) with %d blocked FIFO %ss: %s", n, mode, strerror(errno));
	else
		close(fd);
	if (strcmp(mode, "open") == 0) {
		/* Release the readers, as the other end of a pipeline would. */
		for (int i = 0; i < n; i++) {
			int w = open(names[i], O_WRONLY | O_CLOEXEC);
			if (w < 0)
				wrong("open(%s, O_WRONLY): %s", names[i], strerror(errno));
			else
				close(w);
		}
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	alarm(0);
	say("blocked: %d FIFO %ss did not stop ward from serving", n, mode);
	return finish();
}
