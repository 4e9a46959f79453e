/*
 * handlers/ipc.c - System V shared memory: shmat, shmctl.
 *
 * Segments live outside the filesystem, keyed by id, shared by every
 * process of the user.  A process of the session may attach or control a
 * segment only when a process of the session created it (shm_cpid, a
 * process ward saw before the segment was made); the user's other segments
 * are refused.  Message queues and semaphores record
 * no creator and are not judged (README: Limits).
 */
#include "../sup.h"

#include <errno.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/syscall.h>

#ifndef IPC_64
#define IPC_64 0x0100 /* the kernel's flag for the 64-bit structures */
#endif

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
	/*
	 * The kernel keeps the creator's id, and an id is reused: a segment
	 * whose creator has gone may name a process of the session that took
	 * its id later.  The creator was seen by ward before it made the
	 * segment (a new task waits at its first stop until ward has seen it);
	 * shm_ctime, in seconds, is when the segment was made or last set.
	 */
	if (!proc_of_session(ds.shm_cpid) || !proc_seen_by(ds.shm_cpid, ds.shm_ctime))
		return -EACCES;
	/*
	 * CONTINUE: the decision depends on the segment id in a register and
	 * on the kernel's record of who created it, not on the agent's memory.
	 * (An id is reused only after its sequence number wraps.)
	 */
	return 0;
}
