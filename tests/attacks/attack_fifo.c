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
 *   many  200 threads open FIFOs for reading: each waiting open costs
 *         ward a thread of about half a MiB, so ward must let only so
 *         many wait (the others fail with EAGAIN), or the agent spends
 *         ward's memory 50 times faster than its own
 *
 * The main thread gives ward 3 seconds to answer; a stuck call is
 * reported as WRONG ("ward wedged").
 */
#include "attack.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>

static const char *mode;
static atomic_int again, execs_refused;
static atomic_bool done[200];
static char names[200][16];

static void *blocker(void *arg)
{
	const char *name = arg;
	if (strcmp(mode, "exec") != 0) {
		int fd = open(name, O_RDONLY | O_CLOEXEC);
		if (fd >= 0)
			close(fd);
		else if (errno == EAGAIN)
			atomic_fetch_add(&again, 1);
		done[(name - names[0]) / sizeof(names[0])] = true;
	} else {
		extern char **environ;
		execve(name, (char *[]){ (char *)name, NULL }, environ);
		/* A FIFO is no program: EACCES, as the kernel says. */
		if (errno == EACCES)
			atomic_fetch_add(&execs_refused, 1);
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
	static pthread_t t[200];
	pthread_attr_t attr;

	mode = argc > 1 ? argv[1] : "open";
	if (strcmp(mode, "open") != 0 && strcmp(mode, "exec") != 0 && strcmp(mode, "many") != 0) {
		errno = EINVAL;
		setup_failed(mode);
	}
	if (n > 64)
		n = 64;
	if (strcmp(mode, "many") == 0)
		n = 200;
	pthread_attr_init(&attr);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	for (int i = 0; i < n; i++) {
		snprintf(names[i], sizeof(names[i]), "fifo%d", i);
		if (mkfifo(names[i], 0600) < 0)
			setup_failed("mkfifo");
	}
	for (int i = 0; i < n; i++)
		if (pthread_create(&t[i], &attr, blocker, names[i]) != 0)
			setup_failed("pthread_create");
	usleep(strcmp(mode, "many") == 0 ? 1500 * 1000 : 300 * 1000);

	int waiting = 0;
	for (int i = 0; i < n; i++)
		waiting += !done[i];
	signal(SIGALRM, on_alarm);
	alarm(3);
	int fd = open(PUBLIC, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		wrong("open(public/x) with %d blocked FIFO %ss: %s", n, mode, strerror(errno));
	else
		close(fd);
	if (strcmp(mode, "exec") != 0) {
		/*
		 * Release the readers, as the other end of a pipeline would: a
		 * writer's open that does not wait (ENXIO: no reader waits yet, or
		 * it was refused), again until every reader is done.
		 */
		alarm(30);
		for (int left = n; left > 0;) {
			left = 0;
			for (int i = 0; i < n; i++) {
				if (done[i])
					continue;
				left++;
				int w = open(names[i], O_WRONLY | O_NONBLOCK | O_CLOEXEC);
				if (w < 0 && errno != ENXIO)
					wrong("open(%s, O_WRONLY): %s", names[i], strerror(errno));
				else if (w >= 0)
					close(w);
			}
			if (left > 0)
				usleep(20 * 1000);
		}
	}
	if (strcmp(mode, "many") == 0) {
		if (again == 0)
			wrong("all %d FIFO opens waited in ward at once: none was refused", n);
		else
			blocked("%d of %d FIFO opens refused with EAGAIN", again, n);
	}
	for (int i = 0; i < n; i++)
		pthread_join(t[i], NULL);
	alarm(0);
	if (strcmp(mode, "exec") == 0) {
		if (execs_refused != n)
			missed("%d of %d FIFO execs were refused with EACCES", execs_refused, n);
		else
			blocked("%d FIFO execs did not stop ward from serving", n);
	} else if (waiting == 0) {
		missed("no FIFO open was waiting when ward was probed: nothing wedged it");
	} else {
		blocked("%d FIFO opens waiting (of %d) did not stop ward from serving", waiting, n);
	}
	return finish();
}
