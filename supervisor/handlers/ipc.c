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

/* With made_lock held. */
static int remember(int id)
{
	if (nmade == capmade) {
		/* Full: first forget the segments that are gone, then grow if need be. */
		struct shmid_ds ds;
		size_t k = 0;
		for (size_t i = 0; i < nmade; i++)
			if (shmctl(made[i], IPC_STAT, &ds) == 0 || (errno != EINVAL && errno != EIDRM))
				made[k++] = made[i];
		nmade = k;
	}
	if (nmade == capmade) {
		size_t cap = capmade ? 2 * capmade : 64;
		int *m = realloc(made, cap * sizeof(*m));
		if (m == NULL)
			return -ENOMEM;
		made = m;
		capmade = cap;
	}
	made[nmade++] = id;
	return 0;
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
 * the key, which it does not list.  Made and listed under one lock, so
 * that a second caller finding it finds it listed.
 */
static int get(struct req *r, key_t key, size_t size, int flags)
{
	int id = -1, rc = 0;

	if (!req_valid(r))
		return -ESRCH;
	pthread_mutex_lock(&made_lock);
	for (int tries = 0; tries < 4; tries++) {
		if (key == IPC_PRIVATE || (flags & IPC_EXCL)) {
			id = shmget(key, size, flags);
			break;
		}
		/* Made, or found: IPC_EXCL first tells which. */
		if ((id = shmget(key, size, flags | IPC_EXCL)) >= 0 || errno != EEXIST)
			break;
		if ((id = shmget(key, size, flags & ~IPC_CREAT)) >= 0) {
			pthread_mutex_unlock(&made_lock);
			r->result = id;
			return 1;
		}
		if (errno != ENOENT)
			break; /* gone meanwhile (ENOENT): make it again */
	}
	if (id < 0)
		rc = -errno;
	else if ((rc = remember(id)) < 0)
		shmctl(id, IPC_RMID, NULL);
	pthread_mutex_unlock(&made_lock);
	if (rc < 0)
		return rc;
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
