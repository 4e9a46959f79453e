/*
 * timing.h - what the per-call benchmarks share: a clock in ns and the
 * median of a few batches (each batch's mean, so one slow batch of a
 * noisy machine does not move the result).
 */
#ifndef WARD_BENCH_TIMING_H
#define WARD_BENCH_TIMING_H

#include <stdlib.h>
#include <time.h>

static inline double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e9 + (double)ts.tv_nsec;
}

static inline int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return x < y ? -1 : x > y;
}

/* The median of n values (sorts them). */
static inline double median(double *v, size_t n)
{
	qsort(v, n, sizeof(double), cmp_double);
	return v[n / 2];
}

#endif
