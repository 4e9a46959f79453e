/*
 * shm.c - what the session made in /dev/shm.
 *
 * POSIX shared memory and named semaphores (shm_open, sem_open) are files
 * in /dev/shm, which every program of the user shares, as $TMPDIR: the
 * default profile lets the agent write there (Python's multiprocessing
 * needs it).  What another program keeps there (a database's shared
 * buffers, a browser's, a semaphore a service waits on) is not the
 * agent's to change or remove, so the objects the session makes there are
 * listed, by device and inode, and writing, truncating, moving, linking or
 * removing any other is refused, unless a rule of the user's (not the
 * profile's) allowed it by name.
 */
#include "shm.h"
#include "notify.h"
#include "session.h"

#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <uthash.h>

struct shm_key {
	dev_t dev;
	ino_t ino;
};

struct shm_obj {
	struct shm_key key;
	UT_hash_handle hh;
};

/* An agent making objects without end does not grow ward without end. */
#define SHM_MAX 65536

static char root[PATH_MAX]; /* /dev/shm's real path, "" when there is none */
static size_t root_len;
static struct stat root_st;
static struct shm_obj *made;
static unsigned n_made;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

void shm_init(void)
{
	if (realpath("/dev/shm", root) == NULL || stat(root, &root_st) < 0 ||
	    !S_ISDIR(root_st.st_mode) || strcmp(root, "/") == 0) {
		root[0] = '\0';
		return;
	}
	root_len = strlen(root);
}

bool shm_path(const char *real)
{
	return root_len > 0 && strncmp(real, root, root_len) == 0 && real[root_len] == '/';
}

/* The object at real, st, lies in /dev/shm (not /dev/shm itself). */
static bool inside(const char *real, const struct stat *st)
{
	return shm_path(real) && st->st_dev == root_st.st_dev && st->st_ino != root_st.st_ino;
}

void shm_made(const char *real, int dirfd, const char *name)
{
	struct stat st;
	if (!shm_path(real) || fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH) < 0 ||
	    !inside(real, &st))
		return; /* not noted: the agent may not change it later, which fails closed */
	struct shm_key k = { st.st_dev, st.st_ino };
	struct shm_obj *o;
	pthread_mutex_lock(&lock);
	HASH_FIND(hh, made, &k, sizeof(k), o);
	if (o == NULL && n_made < SHM_MAX && (o = calloc(1, sizeof(*o))) != NULL) {
		o->key = k;
		HASH_ADD(hh, made, key, sizeof(k), o);
		n_made++;
	}
	pthread_mutex_unlock(&lock);
}

void shm_gone(const char *real, const struct stat *st)
{
	if (!inside(real, st) || (!S_ISDIR(st->st_mode) && st->st_nlink > 1))
		return; /* another name still holds it */
	struct shm_key k = { st->st_dev, st->st_ino };
	struct shm_obj *o;
	pthread_mutex_lock(&lock);
	HASH_FIND(hh, made, &k, sizeof(k), o);
	if (o != NULL) {
		HASH_DEL(made, o);
		free(o);
		n_made--;
	}
	pthread_mutex_unlock(&lock);
}

int shm_check(struct req *r, enum ward_op op, const char *real, const struct stat *st)
{
	struct ward_verdict v;

	if (!inside(real, st))
		return 0;
	struct shm_key k = { st->st_dev, st->st_ino };
	struct shm_obj *o;
	pthread_mutex_lock(&lock);
	HASH_FIND(hh, made, &k, sizeof(k), o);
	pthread_mutex_unlock(&lock);
	if (o != NULL)
		return 0;
	/* A rule of the user's that allows op on it: their call, not the profile's. */
	if (ward_decide_path(S->policy, op, real, &v) == 0 && v.action == WARD_ALLOW &&
	    v.rule != NULL && ward_rule_layer(v.rule) > WARD_LAYER_PROFILE)
		return 0;
	return refuse(r, EACCES, "another program's object in /dev/shm (shared memory or a "
				 "semaphore the session did not make)");
}
