/*
 * preload_cost.c - what libward-preload.so adds to a call, in process.
 *
 *   bench_preload_cost N
 *
 * Run with the library preloaded (and WARD_HINT set, so that its channel
 * is on).  Each round times N calls through the program's own binding
 * (the library's wrapper) and N calls of glibc's function itself, looked
 * up in libc.so.6 past the library, one right after the other so that
 * both see the same machine.  The calls are open of "" (refused before
 * any lookup) and connect on no socket: a wrapper does the same work
 * whatever the call costs, and these cost little and vary little, so the
 * difference shows.  Prints "CALL direct_ns wrapped_ns added_ns", medians
 * over 101 rounds.  Without the library the two are the same function
 * and the difference is the noise.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "timing.h"

#define ROUNDS 101

typedef int open_fn(const char *, int, ...);
typedef int connect_fn(int, const struct sockaddr *, socklen_t);

static open_fn *direct_open;
static connect_fn *direct_connect;

static void call(const char *which, int wrapped)
{
	if (which[0] == 'o')
		(void)(wrapped ? open("", O_RDONLY) : direct_open("", O_RDONLY));
	else
		(void)(wrapped ? connect(-1, NULL, 0) : direct_connect(-1, NULL, 0));
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 2000;
	void *libc = dlopen("libc.so.6", RTLD_NOW | RTLD_NOLOAD);

	if (libc == NULL || n <= 0)
		return 2;
	direct_open = (open_fn *)dlvsym(libc, "open", "GLIBC_2.2.5");
	direct_connect = (connect_fn *)dlvsym(libc, "connect", "GLIBC_2.2.5");
	if (direct_open == NULL || direct_connect == NULL)
		return 2;
	const char *calls[] = { "open", "connect" };
	for (int c = 0; c < 2; c++) {
		double d[ROUNDS], w[ROUNDS], added[ROUNDS];
		for (int r = 0; r < ROUNDS; r++) {
			double t0 = now();
			for (long i = 0; i < n; i++)
				call(calls[c], 0);
			double t1 = now();
			for (long i = 0; i < n; i++)
				call(calls[c], 1);
			double t2 = now();
			d[r] = (t1 - t0) / (double)n;
			w[r] = (t2 - t1) / (double)n;
			added[r] = w[r] - d[r];
		}
		printf("%s %.0f %.0f %.0f\n", calls[c], median(d, ROUNDS), median(w, ROUNDS), median(added, ROUNDS));
	}
	return 0;
}
