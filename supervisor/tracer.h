/*
 * tracer.h - spawning the agent and tracing its process tree (tracer.c).
 */
#ifndef WARD_TRACER_H
#define WARD_TRACER_H

/* Run argv under the filter and trace it until it exits; *status is its exit status. */
int tracer_run(char **argv, int *status);

#endif
