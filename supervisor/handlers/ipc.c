/*
 * handlers/ipc.c - System V shared memory: shmget, shmat, shmctl.
 *
 * Segments live outside the filesystem, keyed by id, shared by every
 * process of the user.  The session's segments are made by ward itself
 * (shmget with IPC_CREAT), so that the kernel names ward as their creator
 * (shm_cpid): a process of the session may attach or control only those.
 * The creator's id cannot be taken over meanwhile, ward being alive; a
 * segment made before ward started is not one of them, though an earlier
 * ward had the same id.  The user's other segments are refused.  Message
 * queues and semaphores record no creator and are not judged (README:
 * Limits).
 */
#include "../sup.h"

#include <errno.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef IPC_64
#define IPC_64 0x0100 /* the kernel's flag for the 64-bit structures */
#endif

int h_ipc(struct req *r)
{
	const __u64 *a = r->n->data.args;
	int id = (int)a[0], cmd = r->n->data.nr == SYS_shmctl ? (int)a[1] & ~IPC_64 : -1;
	struct shmid_ds ds;

	r->event = "process";
	if (r->n->data.nr == SYS_shmget) {
		/*
		 * ward makes it, with the agent's key, size and flags (its ids
		 * are the agent's: h_cred keeps them so), or finds the one that
		 * has the key.
		 */
		int got = shmget((key_t)a[0], (size_t)a[1], (int)a[2]);
		if (got < 0)
			return -errno;
		r->result = got;
		return 1;
	}
	/* Commands on the whole namespace, not one segment: they read, they change nothing. */
	if (cmd == IPC_INFO || cmd == SHM_INFO || cmd == SHM_STAT || cmd == SHM_STAT_ANY)
		return 0;
	if (shmctl(id, IPC_STAT, &ds) < 0)
		return -errno; /* EINVAL for no such segment, as the call would say */
	r->sig_target = ds.shm_cpid;
	/* ward made it, in this session (shm_ctime: when it was made or last set). */
	if (ds.shm_cpid != getpid() || ds.shm_ctime < S->started)
		return -EACCES;
	/*
	 * CONTINUE: the decision depends on the segment id in a register and
	 * on the kernel's record of who created it, not on the agent's memory.
	 * (An id is reused only after its sequence number wraps.)
	 */
	return 0;
}
