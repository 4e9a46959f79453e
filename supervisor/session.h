/*
 * session.h - the session: the policy, the cache, the listener and the
 * settings every part of the supervisor reads.  One instance, S, set up by
 * `ward run` (cli/run.c) before the agent starts and not changed after.
 */
#ifndef WARD_SESSION_H
#define WARD_SESSION_H

#include "features.h"
#include "preload_env.h"
#include "ward_rules.h"

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

struct session {
	struct ward_policy *policy;
	struct ward_cache *cache;
	struct ward_vars vars;
	struct features feat;
	char id[17];
	int listener;	/* -1 in a degraded session (degraded.c) */
	bool degraded; /* --degraded: the calls reach ward through ptrace */
	/*
	 * ...at every system call's entry stop (PTRACE_SYSCALL), not at the
	 * filter's SECCOMP_RET_TRACE, which another listener's answers outrank
	 * (degraded.c)
	 */
	bool degraded_entry;
	bool shadow;
	int verbose; /* -v: print decisions to stderr */
	bool quiet;
	pid_t child;
	pid_t own_pgrp;
	int notify_size, resp_size;
	uint8_t exec_key[32]; /* for argv_mac */
	/*
	 * libward-preload.so in the agent (preload_env.h); preload.base is 0
	 * when the session runs without it (--no-preload, not found, or
	 * reading it hard-denied): then no hint is ever read.
	 */
	struct preload_setup preload;
};
extern struct session *S;

#endif
