/*
 * preload_exec.c - what libward-preload.so adds to starting a program,
 * natively (no ward).
 *
 *   bench_preload_exec LIB HINT PROGRAM [N]
 *
 * Each round starts PROGRAM (with no arguments) N times without the
 * library, then N times with LD_PRELOAD=LIB and WARD_HINT=HINT, one right
 * after the other so that both see the same machine; each start is a
 * posix_spawn and a wait.  Prints "exec plain_us preload_us added_us",
 * medians over 31 rounds of each round's mean: the loader's work on the
 * library and what it needs, and the library's constructor.  The time is
 * the CPU time the started programs used (user and system, from
 * getrusage), not the time waited: on a busy machine the wait is mostly
 * other programs' turn.
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include "timing.h"

#define ROUNDS 31

/* The CPU time of the children waited for so far, in ns. */
static double children_cpu(void)
{
	struct rusage ru;
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0)
		return 0;
	return ((double)(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e9 +
		(double)(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec) * 1e3);
}

/* The mean CPU time of n starts of prog with envp, in ns; a negative number when one failed. */
static double starts(const char *prog, char *const envp[], long n)
{
	char *argv[] = { (char *)prog, NULL };
	double t0 = children_cpu();
	for (long i = 0; i < n; i++) {
		pid_t pid;
		int st;
		if (posix_spawn(&pid, prog, NULL, NULL, argv, envp) != 0)
			return -1;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			return -1;
	}
	return (children_cpu() - t0) / (double)n;
}

int main(int argc, char **argv)
{
	if (argc < 4)
		return 2;
	long n = argc > 4 ? atol(argv[4]) : 50;
	char pre[4096], hint[256];
	if (n <= 0 || snprintf(pre, sizeof(pre), "LD_PRELOAD=%s", argv[1]) >= (int)sizeof(pre) ||
	    snprintf(hint, sizeof(hint), "WARD_HINT=%s", argv[2]) >= (int)sizeof(hint))
		return 2;
	char *plain[] = { "PATH=/usr/bin:/bin", NULL };
	char *with[] = { "PATH=/usr/bin:/bin", pre, hint, NULL };
	double p[ROUNDS], w[ROUNDS], added[ROUNDS];
	for (int r = 0; r < ROUNDS; r++) {
		p[r] = starts(argv[3], plain, n);
		w[r] = starts(argv[3], with, n);
		if (p[r] < 0 || w[r] < 0) {
			fprintf(stderr, "bench_preload_exec: %s did not run and exit 0\n", argv[3]);
			return 1;
		}
		added[r] = w[r] - p[r];
	}
	printf("exec %.0f %.0f %.0f\n", median(p, ROUNDS) / 1e3, median(w, ROUNDS) / 1e3,
	       median(added, ROUNDS) / 1e3);
	return 0;
}
