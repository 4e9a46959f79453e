/*
 * filter.h - the seccomp filter (filter.c), generated from the syscall
 * table and the policy.
 */
#ifndef WARD_FILTER_H
#define WARD_FILTER_H

#include <stddef.h>

struct sock_fprog;
struct ward_policy;

/*
 * Build the filter for policy p into a BPF program (malloc'd into *prog).
 * Runs in the parent, before fork, so that errors are reported cleanly.
 */
int filter_build(const struct ward_policy *p, struct sock_fprog *prog, char *why, size_t len);
/* In the child: load the filter and return the listener fd. */
int filter_install(struct sock_fprog *prog);
/* The program filter_build made for this session, which the child loads. */
extern struct sock_fprog ward_filter;

#endif
