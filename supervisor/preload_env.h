/*
 * preload_env.h - how ward puts libward-preload.so into the agent: where
 * the library is, the environment the agent starts with, and whether a
 * program that has just exec'd will load it.
 *
 * None of it is a security matter (docs/preload.md): a missing library
 * means a session without hints, never a call allowed or denied
 * differently.
 */
#ifndef WARD_PRELOAD_ENV_H
#define WARD_PRELOAD_ENV_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define PRELOAD_LIB_NAME "libward-preload.so"

struct preload_setup {
	char lib[PATH_MAX]; /* the library, as LD_PRELOAD names it */
	char hint[64];      /* WARD_HINT's value */
	uint64_t base;      /* the region's address in every process */
	bool backtrace;
};

/*
 * The library beside the ward executable exe (the build directory), or in
 * ../lib/ward/ from it (an installed ward).  0, or -errno (-ENOENT: none).
 */
int preload_find(const char *exe, char *out, size_t len);

/*
 * Fill p for the library at lib.  -EINVAL when LD_PRELOAD cannot name it
 * (the loader splits LD_PRELOAD at blanks and colons).
 */
int preload_setup(struct preload_setup *p, const char *lib, bool backtrace);

/*
 * envp for the agent: LD_PRELOAD with the library first (after it what
 * envp's LD_PRELOAD named), WARD_HINT, and the rest of envp.  One malloc'd
 * block (free it whole), or NULL.
 */
char **preload_envp(const struct preload_setup *p, char *const envp[]);

/*
 * Will the program exec'd with this environment (the NUL-separated
 * block of /proc/PID/environ, len bytes) load the library?  Its
 * LD_PRELOAD must name it and WARD_HINT must be the session's.  (At the
 * exec event the loader has not run yet, so /proc/PID/maps cannot tell.)
 */
bool preload_in_environ(const struct preload_setup *p, const char *env, size_t len);

#endif
