/*
 * tracer.h - spawning the agent and tracing its process tree (tracer.c).
 */
#ifndef WARD_TRACER_H
#define WARD_TRACER_H

#include <stddef.h>

/*
 * Run argv under the filter and trace it until it exits; *status is its
 * exit status.  -errno, with the reason in why, when it cannot start.
 */
int tracer_run(char **argv, int *status, char *why, size_t len);

#endif
