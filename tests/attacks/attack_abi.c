/*
 * attack_abi - system calls through the other x86 ABIs, whose numbers
 * mean different calls: i386 `int $0x80` (getpid, and open of the secret
 * with a path below 4 GiB) and x32 (number | 0x40000000).  DESIGN.md §2
 * invariant 5: "non-native ABIs (i386 int 0x80, x32) kill the process".
 *
 * Each runs in a child; the child must die of SIGSYS (seccomp's
 * KILL_PROCESS) or SIGKILL.  A child that returns from the call is
 * reported: WRONG if it only got an error back, LEAK if the call worked.
 */
#include "attack.h"

#include <sys/mman.h>

static long int80(long nr, long b, long c, long d)
{
	long ret;
	__asm__ volatile("int $0x80" : "=a"(ret) : "a"(nr), "b"(b), "c"(c), "d"(d) : "memory");
	return ret;
}

static long x32(long nr, long a1, long a2, long a3)
{
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(nr | 0x40000000l), "D"(a1), "S"(a2), "d"(a3)
			 : "rcx", "r11", "memory");
	return ret;
}

static char *low; /* a page below 4 GiB, for i386 pointers */

static void attempt(const char *how, int which)
{
	int p[2];
	if (pipe(p) < 0)
		setup_failed("pipe");
	pid_t kid = fork();
	if (kid == 0) {
		long r = 0;
		close(p[0]);
		switch (which) {
		case 0:
			r = int80(20, 0, 0, 0); /* i386 getpid */
			break;
		case 1:
			r = int80(5, (long)low, O_RDONLY, 0); /* i386 open(secret/x) */
			if (r >= 0) {
				char buf[128];
				ssize_t n = read((int)r, buf, sizeof(buf));
				if (n > 0 && write(p[1], buf, (size_t)n) != n)
					_exit(5);
			}
			break;
		case 2:
			r = x32(39, 0, 0, 0); /* x32 getpid */
			break;
		case 3:
			r = x32(257, AT_FDCWD, (long)low, O_RDONLY); /* x32 openat(secret/x) */
			if (r >= 0) {
				char buf[128];
				ssize_t n = read((int)r, buf, sizeof(buf));
				if (n > 0 && write(p[1], buf, (size_t)n) != n)
					_exit(5);
			}
			break;
		}
		_exit(r >= 0 ? 10 : 11);
	}
	close(p[1]);
	char buf[256];
	ssize_t n = read(p[0], buf, sizeof(buf) - 1);
	close(p[0]);
	int st;
	waitpid(kid, &st, 0);
	if (n > 0 && is_secret(buf, (size_t)n))
		leak(how, buf, (size_t)n);
	else if (WIFSIGNALED(st) && (WTERMSIG(st) == SIGSYS || WTERMSIG(st) == SIGKILL))
		blocked("%s: %s", how, wstatus(st));
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 10) {
		att_through = 1;
		say("LEAK: %s: the call was executed and succeeded", how);
	} else
		wrong("%s: the process was not killed (%s)", how, wstatus(st));
}

int main(void)
{
	low = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT, -1, 0);
	if (low == MAP_FAILED)
		setup_failed("mmap(MAP_32BIT)");
	strcpy(low, SECRET);
	attempt("i386 int $0x80 getpid", 0);
	attempt("i386 int $0x80 open(secret/x)", 1);
	attempt("x32 getpid (39 | 0x40000000)", 2);
	attempt("x32 openat(secret/x) (257 | 0x40000000)", 3);
	/* The agent itself is still fine. */
	if (getpid() <= 0)
		wrong("getpid");
	return finish();
}
