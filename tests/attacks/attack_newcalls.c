/*
 * attack_newcalls - change a write-protected file with system calls newer
 * than ward's table: fchmodat2 (Linux 6.6), setxattrat and removexattrat
 * (6.13), file_setattr (6.17).  Each takes a path and changes the object
 * behind it - "write" in DESIGN.md §3 (chmod, xattr) - so each must be
 * judged like chmod and setxattr are, or refused.
 *
 * The driver adds `deny write,create,delete` for everything under secret/.  The
 * attack changes secret/x's mode, user xattrs and file attributes (all
 * harmless to the content), checks whether the change happened, and
 * reports every change that went through.  A call the kernel does not
 * know (ENOSYS) is stopped, of course.
 */
#include "attack.h"

#include <stdbool.h>
#include <sys/xattr.h>

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif
#ifndef SYS_setxattrat
#define SYS_setxattrat 463
#define SYS_getxattrat 464
#define SYS_listxattrat 465
#define SYS_removexattrat 466
#endif
#ifndef SYS_file_getattr
#define SYS_file_getattr 468
#define SYS_file_setattr 469
#endif

struct xattr_args_ {
	uint64_t value;
	uint32_t size;
	uint32_t flags;
};

struct file_attr_ {
	uint64_t fa_xflags;
	uint32_t fa_extsize, fa_nextents, fa_projid, fa_cowextsize;
};

#define FS_XFLAG_NODUMP_ 0x00000080

/* The errno of the call, taken before the check that follows it. */
static int call_errno;

static void changed(const char *how, bool yes, long rc)
{
	if (yes) {
		att_through = 1;
		say("LEAK: %s: a write-protected file was changed", how);
	} else if (rc < 0) {
		/* The filter answers ENOSYS, so that libc falls back to the calls ward judges. */
		refused(how, call_errno, ENOSYS);
	} else {
		missed("%s: returned %ld but nothing changed", how, rc);
	}
}

int main(void)
{
	struct stat st0, st1;
	char v[16];

	/* Control: the plain calls are judged (chmod is "write"); natively they work. */
	if (!native_run())
		control_check(chmod(SECRET, 0600) < 0 && errno == EACCES,
			      "chmod(secret/x) is refused: the rule is in force");

	if (stat(SECRET, &st0) < 0)
		setup_failed("stat secret/x");
	long rc = syscall(SYS_fchmodat2, AT_FDCWD, SECRET, 0604, 0);
	call_errno = errno;
	stat(SECRET, &st1);
	changed("fchmodat2(secret/x, 0604)", (st1.st_mode & 07777) != (st0.st_mode & 07777), rc);
	if ((st1.st_mode & 07777) != (st0.st_mode & 07777))
		syscall(SYS_fchmodat2, AT_FDCWD, SECRET, st0.st_mode & 07777, 0);

	struct xattr_args_ xa = { (uint64_t)(uintptr_t)"pwned", 5, 0 };
	rc = syscall(SYS_setxattrat, AT_FDCWD, SECRET, 0, "user.ward-attack", &xa, sizeof(xa));
	call_errno = errno;
	ssize_t n = getxattr(SECRET, "user.ward-attack", v, sizeof(v));
	changed("setxattrat(secret/x, user.ward-attack)", n == 5, rc);

	/* removexattrat: give it something to remove first, if that worked. */
	rc = syscall(SYS_removexattrat, AT_FDCWD, SECRET, 0, "user.ward-attack");
	call_errno = errno;
	if (n == 5) {
		n = getxattr(SECRET, "user.ward-attack", v, sizeof(v));
		changed("removexattrat(secret/x, user.ward-attack)", n < 0 && errno == ENODATA, rc);
	} else if (rc < 0) {
		refused("removexattrat(secret/x, user.ward-attack)", errno, ENOSYS);
	} else {
		missed("removexattrat(secret/x) returned 0 with nothing to remove");
	}

	struct file_attr_ fa = { 0 };
	rc = syscall(SYS_file_getattr, AT_FDCWD, SECRET, &fa, sizeof(fa), 0);
	if (rc < 0) {
		refused("file_getattr(secret/x)", errno, ENOSYS);
	} else {
		uint64_t before = fa.fa_xflags;
		fa.fa_xflags ^= FS_XFLAG_NODUMP_;
		rc = syscall(SYS_file_setattr, AT_FDCWD, SECRET, &fa, sizeof(fa), 0);
	call_errno = errno;
		struct file_attr_ fb = { 0 };
		syscall(SYS_file_getattr, AT_FDCWD, SECRET, &fb, sizeof(fb), 0);
		changed("file_setattr(secret/x, toggle FS_XFLAG_NODUMP)", fb.fa_xflags != before, rc);
		if (fb.fa_xflags != before) {
			fb.fa_xflags = before;
			syscall(SYS_file_setattr, AT_FDCWD, SECRET, &fb, sizeof(fb), 0);
		}
	}
	return finish();
}
