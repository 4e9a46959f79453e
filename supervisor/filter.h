/*
 * filter.h - the seccomp filter (filter.c), generated from the syscall
 * table and the policy.
 */
#ifndef WARD_FILTER_H
#define WARD_FILTER_H

#include <stddef.h>

#include <stdbool.h>
#include <stdint.h>

struct sock_fprog;
struct ward_policy;

/* What the filter depends on besides the table: the policy and ward's own powers. */
struct filter_opts {
	bool stat;	 /* the policy restricts stat: the stat family is notified */
	bool root;	 /* ward runs as root: the credential calls are notified */
	bool sys_admin;	 /* ward holds CAP_SYS_ADMIN (so would the agent) */
	bool sys_ptrace; /* ward holds CAP_SYS_PTRACE */
	bool own_pty;	 /* the agent runs on ward's pty (term/pty.c): TIOCSPGRP is not notified */
	bool degraded;	 /* --degraded: SECCOMP_RET_TRACE for what is notified, and the page kept */
	/* Bit nr - FIRST_NEWER_CALL: this kernel lacks call nr (kernel_lacks), which is ENOSYS. */
	uint64_t lacking;
};
struct filter_opts filter_opts_of(const struct ward_policy *p);
/* Whether o says this kernel lacks call nr (the filter answers it ENOSYS). */
bool filter_lacks(const struct filter_opts *o, int nr);
/*
 * The agent will run on ward's own pty, whose session holds only the
 * session's processes: set before filter_build.
 */
void filter_set_own_pty(bool on);
/* The session is degraded (degraded.c): set before filter_build. */
void filter_set_degraded(bool on);
/* The filter o asks for, written to fd as BPF (what is loaded) or as libseccomp's PFC text. */
enum filter_form { FILTER_BPF, FILTER_PFC };
int filter_export(const struct filter_opts *o, enum filter_form form, int fd);

/*
 * Build the filter for policy p into a BPF program (malloc'd into *prog).
 * Runs in the parent, before fork, so that errors are reported cleanly.
 */
int filter_build(const struct ward_policy *p, struct sock_fprog *prog, char *why, size_t len);
/*
 * Does the filter filter_build made hand this call (number nr, arguments
 * args) to ward?  Read from the same table (socket() from the same
 * families, types and protocols as socket_rules).  Asked by sighold.c
 * about calls the kernel may have restarted, and by degraded.c at every
 * call's entry.
 */
bool filter_notifies(int nr, const uint64_t args[6]);
/* The same for a filter built with o (tests/unit/test_filter.c compares it with the BPF). */
bool filter_notifies_with(const struct filter_opts *o, int nr, const uint64_t args[6]);
/*
 * In the child: load the filter (WAIT_KILLABLE_RECV if wait_killable) and
 * return the listener fd; degraded: no listener, 0.
 */
int filter_install(struct sock_fprog *prog, bool wait_killable, bool degraded);
/* The program filter_build made for this session, which the child loads. */
extern struct sock_fprog ward_filter;

#endif
