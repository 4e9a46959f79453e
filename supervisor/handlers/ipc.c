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
	if (!proc_in_session(ds.shm_cpid))
		return -EACCES;
	/*
	 * CONTINUE: the decision depends on the segment id in a register and
	 * on the kernel's record of who created it, not on the agent's memory.
	 * (An id is reused only after its sequence number wraps.)
	 */
	return 0;
}
