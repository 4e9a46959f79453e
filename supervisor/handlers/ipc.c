/*
 * handlers/ipc.c - System V IPC: shared memory (shmget, shmat, shmctl),
 * message queues (msgget, msgsnd, msgrcv, msgctl) and semaphore sets
 * (semget, semop, semtimedop, semctl).
 *
 * These objects live outside the filesystem, known by id to every process
 * of the user (of every user, to root): a queue another program of the
 * user reads from, a database's semaphores.  The session's objects are
 * made by ward itself (a get with IPC_CREAT, or the key IPC_PRIVATE, which
 * makes one without), with the agent's key, size and flags (its ids are
 * the agent's: h_cred keeps them so), and ward lists the ids it made.  A
 * process of the session may use or control only those; the user's other
 * objects are refused (EACCES).  A segment also names ward as its creator
 * (shm_cpid), so that one an earlier ward with the same pid made is not
 * taken for this one's.  Queues and sets record no creator: the list alone
 * tells.  An id leaves it when the session removes the object, and, since
 * a process outside the session may remove one too (ipcrm, logind's
 * RemoveIPC) and the kernel may give the id to a new object later (after
 * some thousands more of its kind are made: no less than about a second
 * however fast they are made), a sweeper looks every 100 ms and forgets
 * the ids no longer there.
 */
#include "handlers.h"
#include "../mem.h"
#include "../notify.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* The *_STAT_ANY commands (Linux 4.17), which older headers lack. */
#ifndef SHM_STAT_ANY
#define SHM_STAT_ANY 15
#endif
#ifndef MSG_STAT_ANY
#define MSG_STAT_ANY 13
#endif
#ifndef SEM_STAT_ANY
#define SEM_STAT_ANY 20
#endif

enum kind { K_SHM, K_MSG, K_SEM, NKINDS };

/* semctl's fourth argument, which the program declares (semctl(2)). */
union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

/* The objects ward made in this session, by kind (a segment removed stays listed). */
static struct {
	int *ids;
	size_t n, cap;
} made[NKINDS];
static pthread_mutex_t made_lock = PTHREAD_MUTEX_INITIALIZER;

/*
 * 0 when object id of kind k is there (*cpid: a segment's creator), else
 * -errno.  Asked with *_STAT_ANY, which needs no read permission (the
 * session's own object of mode 0200 is still found), by the id's index: it
 * answers with the full id of what is there, which must be this one.
 */
static int stat_object(enum kind k, int id, pid_t *cpid)
{
	struct shmid_ds shm;
	struct msqid_ds msg;
	struct semid_ds sem;
	int rc;

	*cpid = 0;
	switch (k) {
	case K_SHM:
		rc = shmctl(id, SHM_STAT_ANY, &shm);
		*cpid = rc == id ? shm.shm_cpid : 0;
		break;
	case K_MSG:
		rc = msgctl(id, MSG_STAT_ANY, &msg);
		break;
	default:
		rc = semctl(id, 0, SEM_STAT_ANY, (union semun){ .buf = &sem });
	}
	if (rc < 0)
		return -errno;
	return rc == id ? 0 : -EINVAL; /* another object in its place: this one is gone */
}

/* With made_lock held: ids of kind k for which gone() holds leave the list. */
static void drop_if(enum kind k, bool (*gone)(enum kind, int, int), int arg)
{
	for (size_t i = 0; i < made[k].n;) {
		if (gone(k, made[k].ids[i], arg))
			made[k].ids[i] = made[k].ids[--made[k].n];
		else
			i++;
	}
}

static bool is_id(enum kind k, int id, int arg)
{
	(void)k;
	return id == arg;
}

static bool not_there(enum kind k, int id, int arg)
{
	pid_t cpid;
	int rc = stat_object(k, id, &cpid);
	(void)arg;
	return rc == -EINVAL || rc == -EIDRM;
}

/* With made_lock held. */
static int remember(enum kind k, int id)
{
	if (made[k].n == made[k].cap) {
		/* Full: first forget the objects that are gone, then grow if need be. */
		drop_if(k, not_there, 0);
	}
	if (made[k].n == made[k].cap) {
		size_t cap = made[k].cap ? 2 * made[k].cap : 64;
		int *m = realloc(made[k].ids, cap * sizeof(*m));
		if (m == NULL)
			return -ENOMEM;
		made[k].ids = m;
		made[k].cap = cap;
	}
	made[k].ids[made[k].n++] = id;
	return 0;
}

static bool was_made(enum kind k, int id)
{
	bool found = false;

	pthread_mutex_lock(&made_lock);
	for (size_t i = made[k].n; i-- > 0 && !found;)
		found = made[k].ids[i] == id;
	pthread_mutex_unlock(&made_lock);
	return found;
}

static void forget(enum kind k, int id)
{
	pthread_mutex_lock(&made_lock);
	drop_if(k, is_id, id);
	pthread_mutex_unlock(&made_lock);
}

/* A sweeper runs while the session has queues or sets (made_lock). */
static bool sweeping;

static void *sweeper(void *arg)
{
	(void)arg;
	for (;;) {
		struct timespec ts = { 0, 100 * 1000 * 1000 };
		nanosleep(&ts, NULL);
		pthread_mutex_lock(&made_lock);
		drop_if(K_MSG, not_there, 0);
		drop_if(K_SEM, not_there, 0);
		if (made[K_MSG].n == 0 && made[K_SEM].n == 0) {
			sweeping = false;
			pthread_mutex_unlock(&made_lock);
			return NULL;
		}
		pthread_mutex_unlock(&made_lock);
	}
}

/*
 * With made_lock held, after a queue or set was listed.  The thread is a
 * worker's, whose signal mask (ward's signals blocked) it inherits.  If it
 * cannot start, the object is refused: listed, it could outlive its own
 * removal by another process unswept.
 */
static int sweep_start(void)
{
	pthread_attr_t attr;
	pthread_t t;
	int rc;

	if (sweeping)
		return 0;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	/* Room for the handlers' static TLS, as every thread of ward's. */
	pthread_attr_setstacksize(&attr, 2 << 20);
	rc = pthread_create(&t, &attr, sweeper, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return -EAGAIN;
	sweeping = true;
	return 0;
}

/* The get itself, by ward: arg is a segment's size or a set's count. */
static int get_as(enum kind k, key_t key, unsigned long arg, int flags)
{
	switch (k) {
	case K_SHM:
		return shmget(key, (size_t)arg, flags);
	case K_MSG:
		return msgget(key, flags);
	default:
		return semget(key, (int)arg, flags);
	}
}

static void remove_object(enum kind k, int id)
{
	switch (k) {
	case K_SHM:
		shmctl(id, IPC_RMID, NULL);
		break;
	case K_MSG:
		msgctl(id, IPC_RMID, NULL);
		break;
	default:
		semctl(id, 0, IPC_RMID);
	}
}

/*
 * A get that may make an object: ward makes it and lists it, or finds
 * the one that has the key, which it does not list.  Made and listed
 * under one lock, so that a second caller finding it finds it listed.
 */
static int get(struct req *r, enum kind k, key_t key, unsigned long arg, int flags)
{
	int id = -1, rc = 0;

	if (!req_valid(r))
		return -ESRCH;
	pthread_mutex_lock(&made_lock);
	for (int tries = 0; tries < 4; tries++) {
		if (key == IPC_PRIVATE || (flags & IPC_EXCL)) {
			id = get_as(k, key, arg, flags);
			break;
		}
		/* Made, or found: IPC_EXCL first tells which. */
		if ((id = get_as(k, key, arg, flags | IPC_EXCL)) >= 0 || errno != EEXIST)
			break;
		if ((id = get_as(k, key, arg, flags & ~IPC_CREAT)) >= 0) {
			pthread_mutex_unlock(&made_lock);
			return req_answer_value(r, id);
		}
		if (errno != ENOENT)
			break; /* gone meanwhile (ENOENT): make it again */
	}
	if (id < 0) {
		rc = -errno;
	} else if ((rc = remember(k, id)) < 0 || (k != K_SHM && (rc = sweep_start()) < 0)) {
		drop_if(k, is_id, id);
		remove_object(k, id);
	}
	pthread_mutex_unlock(&made_lock);
	if (rc < 0)
		return rc;
	return req_answer_value(r, id);
}

/* Commands on the whole namespace, not one object: they read, they change nothing. */
static bool namespace_wide(enum kind k, int cmd)
{
	switch (k) {
	case K_SHM:
		return cmd == IPC_INFO || cmd == SHM_INFO || cmd == SHM_STAT || cmd == SHM_STAT_ANY;
	case K_MSG:
		return cmd == IPC_INFO || cmd == MSG_INFO || cmd == MSG_STAT || cmd == MSG_STAT_ANY;
	default:
		return cmd == IPC_INFO || cmd == SEM_INFO || cmd == SEM_STAT || cmd == SEM_STAT_ANY;
	}
}

/* A call on object id (cmd: a ctl call's command, -1 for the others). */
static int use(struct req *r, enum kind k, int id, int cmd)
{
	pid_t cpid = 0;
	int rc;

	if (cmd >= 0 && namespace_wide(k, cmd))
		return 0;
	if (k == K_SHM) {
		if ((rc = stat_object(k, id, &cpid)) < 0)
			return rc; /* EINVAL for no such segment, as the call would say */
		r->sig_target = cpid;
		/* ward made it in this session: listed, and the kernel names ward its creator. */
		if (cpid != getpid() || !was_made(k, id))
			return -EACCES;
	} else if (!was_made(k, id)) {
		/* Not the session's: as the kernel says if it is not there at all. */
		rc = stat_object(k, id, &cpid);
		return rc == -EINVAL || rc == -EIDRM ? rc : -EACCES;
	} else if (cmd == IPC_RMID) {
		forget(k, id); /* from now on, that id is no longer the session's */
	}
	/*
	 * CONTINUE: the decision depends on the object's id in a register and
	 * on ward's list of what it made (for a segment, also on the kernel's
	 * record of who created it), not on the agent's memory: what the call
	 * reads or writes there (a message, semaphore operations, a
	 * structure) is the agent's business with its own object.
	 */
	return 0;
}

int h_ipc(struct req *r)
{
	const __u64 *a = r->n->data.args;

	r->event = EV_PROCESS;
	switch (r->n->data.nr) {
	case SYS_shmget:
		return get(r, K_SHM, (key_t)a[0], (unsigned long)a[1], (int)a[2]);
	case SYS_msgget:
		return get(r, K_MSG, (key_t)a[0], 0, (int)a[1]);
	case SYS_semget:
		return get(r, K_SEM, (key_t)a[0], (unsigned long)a[1], (int)a[2]);
	case SYS_shmat:
		return use(r, K_SHM, (int)a[0], -1);
	case SYS_shmctl:
		return use(r, K_SHM, (int)a[0], (int)a[1]);
	case SYS_msgsnd:
	case SYS_msgrcv:
		return use(r, K_MSG, (int)a[0], -1);
	case SYS_msgctl:
		return use(r, K_MSG, (int)a[0], (int)a[1]);
	case SYS_semop:
	case SYS_semtimedop:
		return use(r, K_SEM, (int)a[0], -1);
	case SYS_semctl:
		return use(r, K_SEM, (int)a[0], (int)a[2]);
	}
	return -ENOSYS;
}
