/*
 * fifo_signal FIFO restart|intr: open(FIFO, O_RDONLY), which waits for a
 * writer, while SIGALRM comes after 0.3 s; a child opens the writing end
 * after 0.8 s.  With a handler installed with SA_RESTART ("restart") the
 * kernel restarts the open after the handler and it succeeds; without
 * ("intr") it fails with EINTR.  Prints the open and how many times the
 * handler ran.
 */
#include "common.h"

#include <sys/time.h>
#include <sys/wait.h>

static volatile sig_atomic_t rang;

static void ring(int sig)
{
	(void)sig;
	rang++;
}

int main(int argc, char **argv)
{
	if (argc != 3 || (strcmp(argv[2], "restart") != 0 && strcmp(argv[2], "intr") != 0))
		usage("fifo_signal FIFO restart|intr");
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
