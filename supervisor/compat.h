/*
 * compat.h - what ward asks of the kernel, made of older calls where the
 * kernel lacks it (--degraded on kernels before 5.6: docs/degraded.md).
 */
#ifndef WARD_COMPAT_H
#define WARD_COMPAT_H

#include <linux/openat2.h>
#include <stdbool.h>

/*
 * openat2(dir, path, how), or where the kernel has none (or it is masked:
 * compat_openat2_off) the same lookup walked a component at a time.  The
 * walk knows RESOLVE_NO_SYMLINKS (and so RESOLVE_NO_MAGICLINKS with it)
 * and RESOLVE_NO_XDEV; any other resolve flag is ENOSYS, as the kernel
 * without openat2 says.  Returns the fd, or -1 with errno, as the call.
 */
int ward_openat2(int dir, const char *path, const struct open_how *how);

/*
 * openat2 is walked, never called: set by run.c for a --degraded session
 * on a kernel without openat2 (or with it masked), and by the unit tests,
 * to hold the walk to the kernel's openat2 and to run resolve.c's slow
 * walk alone.
 */
extern bool compat_openat2_off;

#endif
