/*
 * calls.c - per-call latency of a few supervised calls, measured in the
 * process that makes them.  Run natively and under ward by bench/run.sh.
 *
 *   calls open|stat|exec|getppid N FILE
 *
 * Prints "CALL median_ns" over 5 batches of N calls.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

int main(int argc, char **argv)
{
	double batch[5];
	long n;

	if (argc < 4)
		return 2;
	n = atol(argv[2]);
	for (int b = 0; b < 5; b++) {
		double t0 = now();
		for (long i = 0; i < n; i++) {
			if (strcmp(argv[1], "open") == 0) {
				int fd = open(argv[3], O_RDONLY | O_CLOEXEC);
				if (fd < 0)
					return 1;
				close(fd);
			} else if (strcmp(argv[1], "stat") == 0) {
				struct stat st;
				if (stat(argv[3], &st) < 0)
					return 1;
			} else if (strcmp(argv[1], "exec") == 0) {
				pid_t pid = fork();
				if (pid == 0) {
					execl(argv[3], argv[3], (char *)NULL);
					_exit(127);
				}
				int st;
				waitpid(pid, &st, 0);
			} else {
				syscall(SYS_getppid);
			}
		}
		batch[b] = (now() - t0) / (double)n;
	}
	printf("%s %.0f\n", argv[1], median(batch, 5));
	return 0;
}
