/*
 * attack_raw_syscall - open and read the secret with the `syscall`
 * instruction itself (inline asm, no libc wrapper, no preload library can
 * see it): open, openat, openat2, with garbage in the upper 32 bits of
 * the syscall number and of int arguments (the kernel ignores them), and
 * through a symlink.  seccomp sees every one.
 */
#include "attack.h"

#include <linux/openat2.h>

static long raw(long nr, long a1, long a2, long a3, long a4, long a5, long a6)
{
	long ret;
	register long r10 __asm__("r10") = a4;
	register long r8 __asm__("r8") = a5;
	register long r9 __asm__("r9") = a6;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr), "D"(a1), "S"(a2), "d"(a3), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
}

static void read_raw_want(const char *how, long fd, int want)
{
	char buf[256];

	if (fd < 0) {
		refused(how, (int)-fd, want);
		return;
	}
	long n = raw(SYS_read, fd, (long)buf, sizeof(buf) - 1, 0, 0, 0);
	raw(SYS_close, fd, 0, 0, 0, 0, 0);
	if (n > 0 && is_secret(buf, (size_t)n))
		leak(how, buf, (size_t)n);
	else
		missed("%s: opened, but it is not the secret", how);
}

static void read_raw(const char *how, long fd)
{
	read_raw_want(how, fd, EACCES);
}

int main(void)
{
	const long hi = 0x5a5a5a5a00000000l;
	struct open_how how = { .flags = O_RDONLY };

	/* Control: the public file opens the same way. */
	long fd = raw(SYS_openat, AT_FDCWD, (long)PUBLIC, O_RDONLY, 0, 0, 0);
	errno = fd < 0 ? (int)-fd : 0;
	control_check(fd >= 0, "raw openat(public/x) opens");
	raw(SYS_close, fd, 0, 0, 0, 0, 0);
	read_raw("raw open(secret/x)", raw(SYS_open, (long)SECRET, O_RDONLY, 0, 0, 0, 0));
	read_raw("raw openat(AT_FDCWD, secret/x)",
		 raw(SYS_openat, AT_FDCWD, (long)SECRET, O_RDONLY, 0, 0, 0));
	read_raw_want("raw openat2(AT_FDCWD, secret/x)",
		      raw(SYS_openat2, AT_FDCWD, (long)SECRET, (long)&how, sizeof(how), 0, 0),
		      openat2_err(EACCES));
	/* High bits: the kernel uses the low 32 bits of the number and of int arguments. */
	read_raw("raw openat, high bits in the syscall number",
		 raw(hi | SYS_openat, AT_FDCWD, (long)SECRET, O_RDONLY, 0, 0, 0));
	read_raw("raw openat, high bits in dirfd and flags",
		 raw(SYS_openat, hi | (AT_FDCWD & 0xffffffffl), (long)SECRET, hi | O_RDONLY, 0, 0, 0));
	read_raw("raw open, O_PATH in the high bits of flags",
		 raw(SYS_open, (long)SECRET, ((long)O_PATH << 32) | O_RDONLY, 0, 0, 0, 0));
	if (symlink(SECRET, "raw-link") < 0)
		setup_failed("symlink raw-link");
	read_raw("raw open(symlink to the secret)", raw(SYS_open, (long)"raw-link", O_RDONLY, 0, 0, 0, 0));
	return finish();
}
