/*
 * handlers/ipc.c - System V shared memory: shmat, shmctl.
 *
 * Segments live outside the filesystem, keyed by id, shared by every
 * process of the user.  A process of the session may attach or control a
 * segment only when a process of the session created it (shm_cpid); the
 * user's other segments are refused.  Message queues and semaphores record
 * no creator and are not judged (README: Limits).
 */
#include "../sup.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#ifndef IPC_64
#define IPC_64 0x0100 /* the kernel's flag for the 64-bit structures */
#endif

/*
 * Whether pid, now, can be the creator of a segment last changed at ctime
 * (seconds; its creation or an IPC_SET): it started no later.  The kernel
 * keeps the creator's id, and an id is reused: a segment whose creator
 * has gone may name a process of the session that took its id later.  The
 * comparison is to the second (a process that took the id within a second
 * of the segment's creation is not told apart).
 */
static bool started_by(pid_t pid, time_t ctime)
{
	struct timespec real, boot;
	unsigned long long start;
	char path[64], buf[1024];
	int fd;
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	/* Field 22, starttime, in clock ticks since boot; fields start after the last ')'. */
	char *p = strrchr(buf, ')');
	if (p == NULL || sscanf(p + 1, " %*c" "%*s %*s %*s %*s %*s %*s %*s %*s %*s %*s"
			       "%*s %*s %*s %*s %*s %*s %*s %*s %llu", &start) != 1)
		return false;
	clock_gettime(CLOCK_REALTIME, &real);
	clock_gettime(CLOCK_BOOTTIME, &boot);
	double started = (double)(real.tv_sec - boot.tv_sec) + (real.tv_nsec - boot.tv_nsec) / 1e9 +
			 (double)start / (double)sysconf(_SC_CLK_TCK);
	return started <= (double)ctime + 1.0;
}

int h_ipc(struct req *r)
{
	const __u64 *a = r->n->data.args;
	int id = (int)a[0], cmd = r->n->data.nr == SYS_shmctl ? (int)a[1] & ~IPC_64 : -1;
	struct shmid_ds ds;

	r->event = "process";
	/* Commands on the whole namespace, not one segment: they read, they change nothing. */
	if (cmd == IPC_INFO || cmd == SHM_INFO || cmd == SHM_STAT || cmd == SHM_STAT_ANY)
		return 0;
	if (shmctl(id, IPC_STAT, &ds) < 0)
		return -errno; /* EINVAL for no such segment, as the call would say */
	r->sig_target = ds.shm_cpid;
	if (!proc_of_session(ds.shm_cpid) || !started_by(ds.shm_cpid, ds.shm_ctime))
		return -EACCES;
	/*
	 * CONTINUE: the decision depends on the segment id in a register and
	 * on the kernel's record of who created it, not on the agent's memory.
	 * (An id is reused only after its sequence number wraps.)
	 */
	return 0;
}
