/*
 * fifo_signal FIFO restart|intr [thread]: open(FIFO, O_RDONLY), which
 * waits for a writer, while SIGALRM comes after 0.3 s; a child opens the
 * writing end after 0.8 s.  With a handler installed with SA_RESTART
 * ("restart") the kernel restarts the open after the handler and it
 * succeeds; without ("intr") it fails with EINTR.  With "thread", a
 * second thread, which blocks every signal, waits meanwhile: the timer's
 * signal is the process's, and only the opening thread can take it.
 * Prints the open and how many times the handler ran.
 */
#include "common.h"

#include <pthread.h>
#include <sys/time.h>
#include <sys/wait.h>

static volatile sig_atomic_t rang;

static void ring(int sig)
{
	(void)sig;
	rang++;
}

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc < 3 || argc > 4 || (strcmp(argv[2], "restart") != 0 && strcmp(argv[2], "intr") != 0) ||
	    (argc == 4 && strcmp(argv[3], "thread") != 0))
		usage("fifo_signal FIFO restart|intr [thread]");
	if (argc == 4) {
		sigset_t all, old;
		pthread_t t;
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		if (pthread_create(&t, NULL, idle, NULL) != 0)
			return 2;
		pthread_sigmask(SIG_SETMASK, &old, NULL);
	}
	struct sigaction sa = { .sa_handler = ring };
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = strcmp(argv[2], "restart") == 0 ? SA_RESTART : 0;
	sigaction(SIGALRM, &sa, NULL);
	pid_t writer = fork();
	if (writer == 0) {
		usleep(800 * 1000);
		int w = open(argv[1], O_WRONLY);
		_exit(w < 0 ? 1 : 0);
	}
	struct itimerval it = { { 0, 0 }, { 0, 300 * 1000 } };
	setitimer(ITIMER_REAL, &it, NULL);
	long fd = syscall(SYS_open, argv[1], O_RDONLY, 0);
	out(fd, errno, "open(%s, O_RDONLY, 0)", q(argv[1]));
	if (fd < 0) {
		/* Let the writer through, so that it ends. */
		fd = syscall(SYS_open, argv[1], O_RDONLY, 0);
	}
	waitpid(writer, NULL, 0);
	printf("handler ran %d time(s)\n", (int)rang);
	return 0;
}
