/*
 * wakeup.c - what this machine charges for waking a thread, the cost
 * every supervisor built on notification pays twice a supervised call.
 *
 *   wakeup [N]
 *
 * Two threads pass a byte back and forth over two pipes, N times a batch,
 * first both pinned to one CPU (each wakeup a switch on that CPU), then
 * pinned to two (each wakeup crosses CPUs, and wakes an idle one).  Prints
 *
 *     same-cpu NS
 *     cross-cpu NS
 *
 * the median of 5 batches, in ns a round trip (two wakeups).  cross-cpu
 * is "-" on a machine with one CPU.
 */
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

static int ping[2], pong[2];
static int peer_cpu;

static int pin(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	return sched_setaffinity(0, sizeof(set), &set);
}

static void *echo(void *arg)
{
	char c;
	(void)arg;
	pin(peer_cpu); /* where it cannot be pinned, it runs where it may */
	while (read(ping[0], &c, 1) == 1)
		if (write(pong[1], &c, 1) != 1)
			break;
	return NULL;
}

/* Median ns a round trip with the echo thread on cpu (this one on CPU 0). */
static double measure(int cpu, long n)
{
	double batch[5];
	pthread_t t;
	char c = 'x';

	if (pipe(ping) < 0 || pipe(pong) < 0)
		exit(2);
	peer_cpu = cpu;
	if (pin(0) < 0 || pthread_create(&t, NULL, echo, NULL) != 0)
		exit(2);
	for (int b = 0; b < 5; b++) {
		double t0 = now();
		for (long i = 0; i < n; i++)
			if (write(ping[1], &c, 1) != 1 || read(pong[0], &c, 1) != 1)
				exit(1);
		batch[b] = (now() - t0) / (double)n;
	}
	close(ping[1]);
	pthread_join(t, NULL);
	close(ping[0]);
	close(pong[0]);
	close(pong[1]);
	return median(batch, 5);
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;

	printf("same-cpu %.0f\n", measure(0, n));
	if (sysconf(_SC_NPROCESSORS_ONLN) > 1)
		printf("cross-cpu %.0f\n", measure(1, n));
	else
		printf("cross-cpu -\n");
	return 0;
}
