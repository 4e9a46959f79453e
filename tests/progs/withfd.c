/*
 * withfd [N FD]... -- CMD ARG... [';;' CMD ARG...]...: a helper, not a
 * syscall test.  Opens each FD argument (common.h) and moves it to fd N
 * (printing the open and the dup2), then runs each CMD in turn, waiting
 * for it, so that they all inherit those fds.  Exits with the last
 * command's status.
 *
 * It gives a command an fd it could not have opened itself: run around
 * `ward run`, an O_PATH fd (or one to a file the policy denies) reaches
 * the supervised program.
 */
#include "common.h"

#include <sys/wait.h>

int main(int argc, char **argv)
{
	int i = 1, status = 0;

	for (; i + 1 < argc && strcmp(argv[i], "--") != 0; i += 2) {
		int want = (int)num(argv[i]);
		int fd = fdarg(argv[i + 1]);
		if (fd >= 0 && fd != want) {
			long rc = dup2(fd, want);
			out(rc, errno, "dup2(%d, %d)", fd, want);
			close(fd);
		}
	}
	if (i >= argc || strcmp(argv[i], "--") != 0 || i + 1 >= argc)
		usage("withfd [N FD]... -- CMD ARG... [';;' CMD ARG...]...");
	for (i++; i < argc;) {
		int end = i;
		while (end < argc && strcmp(argv[end], ";;") != 0)
			end++;
		argv[end] = NULL;
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			execv(argv[i], argv + i);
			fprintf(stderr, "withfd: %s: %s\n", argv[i], strerror(errno));
			_exit(127);
		}
		if (pid < 0 || waitpid(pid, &status, 0) < 0)
			return 125;
		status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
		i = end + 1;
	}
	return status;
}
