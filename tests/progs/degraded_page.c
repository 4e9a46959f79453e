/*
 * degraded_page ADDR SIZE: every way a process could change the page at
 * ADDR (SIZE bytes) that a degraded ward copies the names it decided on
 * into (supervisor/degraded.h): it must be mapped and readable, and each
 * attempt below must fail.  One line per attempt, "NAME ok" or
 * "NAME errno-name"; tests/integration/degraded.sh compares them.
 * Natively (no page) the first line says "mapped no".
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <sched.h>
#include <signal.h>
#include <unistd.h>

static void say(const char *what, long rc)
{
	if (rc < 0)
		printf("%s %s\n", what, strerrorname_np(errno));
	else
		printf("%s ok\n", what);
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	uintptr_t a = strtoull(argv[1], NULL, 0);
	size_t n = strtoull(argv[2], NULL, 0);
	char *p = (char *)a;

	/* mincore tells whether the range is mapped (ENOMEM: not). */
	unsigned char vec[1];
	printf("mapped %s\n", mincore(p, 4096, vec) == 0 ? "yes" : "no");
	say("mprotect", mprotect(p, 4096, PROT_READ | PROT_WRITE));
	say("mprotect-around", mprotect(p - 4096, 3 * 4096, PROT_READ | PROT_WRITE));
	say("pkey_mprotect", syscall(SYS_pkey_mprotect, p, 4096, PROT_READ | PROT_WRITE, -1));
	say("munmap", munmap(p + 4096, 4096));
	say("madvise-dontneed", madvise(p, 4096, MADV_DONTNEED));
	void *m = mmap(p, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED, -1, 0);
	say("mmap-fixed", m == MAP_FAILED ? -1 : 0);
	m = mmap(p - 4096, 2 * 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
		 -1, 0);
	say("mmap-fixed-below", m == MAP_FAILED ? -1 : 0);
	m = mremap(p, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, (char *)0x100000000ull);
	say("mremap-away", m == MAP_FAILED ? -1 : 0);
	char *other = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	m = mremap(other, 4096, 4096, MREMAP_MAYMOVE | MREMAP_FIXED, p);
	say("mremap-onto", m == MAP_FAILED ? -1 : 0);
	int id = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	m = id < 0 ? MAP_FAILED : shmat(id, p, SHM_REMAP);
	say("shmat-remap", m == (void *)-1 ? -1 : 0);
	if (id >= 0)
		shmctl(id, IPC_RMID, NULL);
	int fd = open("/proc/self/mem", O_RDWR);
	say("proc-self-mem", fd);
	if (fd >= 0)
		say("proc-self-mem-write", pwrite(fd, "x", 1, (off_t)a));
	struct iovec local = { "x", 1 }, remote = { p, 1 };
	say("process_vm_writev", syscall(SYS_process_vm_writev, getpid(), &local, 1, &remote, 1, 0));
	say("userfaultfd", syscall(SYS_userfaultfd, O_CLOEXEC));
	/* process_madvise of its own pidfd: ranges in memory, where the filter cannot look. */
	int pfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	struct iovec range = { p, 8192 };
	say("process_madvise-dontneed", syscall(SYS_process_madvise, pfd, &range, 1, MADV_DONTNEED, 0));
	say("process_madvise-cold", syscall(SYS_process_madvise, pfd, &range, 1, MADV_COLD, 0));
	/* A process sharing this one's fd table would outlive its kill (degraded.c). */
	long c = syscall(SYS_clone, CLONE_FILES | SIGCHLD, NULL, NULL, NULL, NULL);
	if (c == 0)
		_exit(0);
	if (c > 0)
		waitpid((pid_t)c, NULL, 0);
	say("clone-files", c);
	printf("mapped-after %s\n", mincore(p, 4096, vec) == 0 ? "yes" : "no");
	/* Its last page is kept too; the page after it is no one's (ENOMEM): nothing more is refused. */
	say("mprotect-last", mprotect(p + n - 4096, 4096, PROT_READ | PROT_WRITE));
	say("mprotect-after", mprotect(p + n, 4096, PROT_READ | PROT_WRITE));
	return 0;
}
