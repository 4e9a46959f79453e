/*
 * handlers/ipc.c - System V shared memory: shmget, shmat, shmctl.
 *
 * Segments live outside the filesystem, keyed by id, shared by every
 * process of the user.  The session's segments are made by ward itself
 * (shmget with IPC_CREAT), so that the kernel names ward as their creator
 * (shm_cpid): a process of the session may attach or control only those.
 * ward also lists the ids it made: a segment an earlier ward with the same
 * pid made is not one of them.  The user's other segments are refused.  Message
 * queues and semaphores record no creator and are not judged (README:
 * Limits).
 */
#include "../sup.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef IPC_64
#define IPC_64 0x0100 /* the kernel's flag for the 64-bit structures */
#endif

/* The segments ward made in this session (ids; a segment removed stays listed). */
static int *made;
static size_t nmade, capmade;
static pthread_mutex_t made_lock = PTHREAD_MUTEX_INITIALIZER;

static int remember(int id)
{
	int rc = 0;

	pthread_mutex_lock(&made_lock);
	if (nmade == capmade) {
		size_t cap = capmade ? 2 * capmade : 64;
		int *m = realloc(made, cap * sizeof(*m));
		if (m == NULL)
			rc = -ENOMEM;
		else
			made = m, capmade = cap;
	}
	if (rc == 0)
		made[nmade++] = id;
	pthread_mutex_unlock(&made_lock);
	return rc;
}

static bool was_made(int id)
{
	bool found = false;

	pthread_mutex_lock(&made_lock);
	for (size_t i = nmade; i-- > 0 && !found;)
		found = made[i] == id;
	pthread_mutex_unlock(&made_lock);
	return found;
}

/*
 * shmget that may make a segment (IPC_CREAT, or the key IPC_PRIVATE):
 * ward makes it, with the agent's key, size and flags (its ids are the
 * agent's: h_cred keeps them so), and lists it; or finds the one that has
 * the key, which it does not list.
 */
static int get(struct req *r, key_t key, size_t size, int flags)
{
	int id;

	if (!req_valid(r))
		return -ESRCH;
	if (key == IPC_PRIVATE || (flags & IPC_EXCL)) {
		id = shmget(key, size, flags);
	} else {
		/* Made, or found: IPC_EXCL first tells which. */
		id = shmget(key, size, flags | IPC_EXCL);
		if (id < 0 && errno == EEXIST)
			return (id = shmget(key, size, flags)) < 0 ? -errno : (r->result = id, 1);
	}
	if (id < 0)
		return -errno;
	if (remember(id) < 0) {
		shmctl(id, IPC_RMID, NULL);
		return -ENOMEM;
	}
	r->result = id;
	return 1;
}

int h_ipc(struct req *r)
{
	const __u64 *a = r->n->data.args;
	int id = (int)a[0], cmd = r->n->data.nr == SYS_shmctl ? (int)a[1] & ~IPC_64 : -1;
	struct shmid_ds ds;

	r->event = "process";
	if (r->n->data.nr == SYS_shmget)
		return get(r, (key_t)a[0], (size_t)a[1], (int)a[2]);
	/* Commands on the whole namespace, not one segment: they read, they change nothing. */
	if (cmd == IPC_INFO || cmd == SHM_INFO || cmd == SHM_STAT || cmd == SHM_STAT_ANY)
		return 0;
	if (shmctl(id, IPC_STAT, &ds) < 0)
		return -errno; /* EINVAL for no such segment, as the call would say */
	r->sig_target = ds.shm_cpid;
	/* ward made it in this session: listed, and the kernel names ward its creator. */
	if (ds.shm_cpid != getpid() || !was_made(id))
		return -EACCES;
	/*
	 * CONTINUE: the decision depends on the segment id in a register and
	 * on the kernel's record of who created it, not on the agent's memory.
	 * An id is given again only after its sequence number wraps, or when
	 * /proc/sys/kernel/shm_next_id says so; a segment with it then is not
	 * ward's (shm_cpid).
	 */
	return 0;
}
