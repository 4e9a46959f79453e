/*
 * cache.c - a bounded cache of path decisions keyed by (op, path).
 *
 * All memory is taken at creation: the entries, the keys' bytes, and an
 * arena from which uthash takes its table and bucket arrays (through
 * uthash_malloc), so the notification path does not allocate.  When the
 * arena is spent uthash stops growing the bucket array (HASH_NONFATAL_OOM)
 * and carries on with longer chains.  When every entry or the keys' room
 * is in use the cache is emptied: paths an agent touches come in bursts,
 * and refilling is cheap.
 *
 * Most decisions on a busy path miss (a grep reads each file once), so a
 * miss must cost little next to the rule engine's own decision: the key is
 * hashed once, and entries are small, their keys packed one after another
 * (a fixed 256-byte key made each entry six cache lines, and the first
 * fill a page fault every dozen decisions).
 */
#define _GNU_SOURCE
#include <stddef.h>

struct ward_cache;
static void *arena_alloc(size_t size);
/* The cache whose arena uthash allocates from; set while holding its lock. */
static __thread struct ward_cache *arena_owner;
#define HASH_NONFATAL_OOM 1
#define uthash_malloc(sz) arena_alloc(sz)
#define uthash_free(ptr, sz) ((void)(ptr), (void)(sz))

#include "policy_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define CACHE_KEY_MAX 256 /* longer paths are decided every time */
#define CACHE_KEY_ROOM 96  /* bytes of keys per entry, on average */

struct entry {
	UT_hash_handle hh;
	const struct ward_rule *rule;
	const char *key; /* op byte, then the path; in the cache's keys */
	enum ward_action action;
	int err;
	bool undecided;
};

struct ward_cache {
	pthread_mutex_t lock;
	struct entry *table; /* uthash head */
	struct entry *pool;
	size_t used, capacity;
	char *keys;
	size_t keys_used, keys_size;
	uint64_t generation;
	const struct ward_policy *policy;
	char *arena;
	size_t arena_used, arena_size;
};

static void *arena_alloc(size_t size)
{
	struct ward_cache *c = arena_owner;
	size_t at = (c->arena_used + 15) & ~(size_t)15;

	if (at + size > c->arena_size)
		return NULL;
	c->arena_used = at + size;
	return c->arena + at;
}

struct ward_cache *ward_cache_new(size_t capacity)
{
	struct ward_cache *c = calloc(1, sizeof(*c));

	if (c == NULL || capacity == 0)
		goto fail;
	c->pool = calloc(capacity, sizeof(*c->pool));
	c->keys_size = capacity * CACHE_KEY_ROOM + CACHE_KEY_MAX; /* room for one longest key */
	c->keys = malloc(c->keys_size);
	if (c->pool == NULL || c->keys == NULL)
		goto fail;
	c->capacity = capacity;
	/*
	 * uthash doubles its bucket array from 32 while chains pass 10 items;
	 * room for every array up to one bucket per entry (each doubling keeps
	 * the old array until the new one is filled) is twice that.
	 */
	c->arena_size = sizeof(UT_hash_table) + 4 * capacity * sizeof(UT_hash_bucket) + 4096;
	c->arena = malloc(c->arena_size);
	if (c->arena == NULL)
		goto fail;
	pthread_mutex_init(&c->lock, NULL);
	return c;
fail:
	if (c != NULL) {
		free(c->pool);
		free(c->keys);
		free(c->arena);
	}
	free(c);
	return NULL;
}

static void clear_locked(struct ward_cache *c)
{
	HASH_CLEAR(hh, c->table);
	c->used = 0;
	c->keys_used = 0;
	c->arena_used = 0;
}

void ward_cache_clear(struct ward_cache *c)
{
	pthread_mutex_lock(&c->lock);
	clear_locked(c);
	pthread_mutex_unlock(&c->lock);
}

void ward_cache_free(struct ward_cache *c)
{
	if (c == NULL)
		return;
	pthread_mutex_destroy(&c->lock);
	free(c->arena);
	free(c->keys);
	free(c->pool);
	free(c);
}

int ward_cache_decide_path(struct ward_cache *c, const struct ward_policy *p,
			   enum ward_op op, const char *path,
			   struct ward_verdict *v, bool *by_cache)
{
	char key[CACHE_KEY_MAX];
	size_t len = strlen(path);
	struct entry *e;
	int rc;

	*by_cache = false;
	/*
	 * The key holds one op: a verdict for "read or write" stored under
	 * read would answer later questions about read alone.
	 */
	if (!(op & WARD_OPS_PATH) || (op & (op - 1)) != 0)
		return -EINVAL;
	/*
	 * /proc/PID decisions depend on who is in the session, which changes
	 * as processes come and go (and ids are reused): never cached.  So do
	 * a pty's (whose is it now, the session's or another window's).
	 */
	if (len + 1 > sizeof(key) || strncmp(path, "/proc/", 6) == 0 ||
	    strncmp(path, "/dev/pts/", 9) == 0)
		return ward_decide_path(p, op, path, v);
	key[0] = (char)__builtin_ctz((unsigned)op);
	memcpy(key + 1, path, len);
	unsigned hash;
	HASH_VALUE(key, len + 1, hash);

	pthread_mutex_lock(&c->lock);
	if (c->policy != p || c->generation != ward_policy_generation(p)) {
		clear_locked(c);
		c->policy = p;
		c->generation = ward_policy_generation(p);
	}
	HASH_FIND_BYHASHVALUE(hh, c->table, key, len + 1, hash, e);
	if (e != NULL) {
		v->action = e->action;
		v->err = e->err;
		v->undecided = e->undecided;
		v->rule = e->rule;
		v->rewrite[0] = '\0';
		pthread_mutex_unlock(&c->lock);
		*by_cache = true;
		if (v->action == WARD_REWRITE)
			return rule_rewrite(v->rule, path, v->rewrite, sizeof(v->rewrite));
		return 0;
	}
	pthread_mutex_unlock(&c->lock);

	rc = ward_decide_path(p, op, path, v);
	if (rc < 0)
		return rc;

	pthread_mutex_lock(&c->lock);
	if (c->policy == p && c->generation == ward_policy_generation(p)) {
		/* Another worker may have added it meanwhile: keys stay unique. */
		HASH_FIND_BYHASHVALUE(hh, c->table, key, len + 1, hash, e);
		if (e == NULL) {
			if (c->used == c->capacity || c->keys_used + len + 1 > c->keys_size)
				clear_locked(c);
			e = &c->pool[c->used++];
			char *k = c->keys + c->keys_used;
			memcpy(k, key, len + 1);
			c->keys_used += len + 1;
			e->key = k;
			e->rule = v->rule;
			e->action = v->action;
			e->err = v->err;
			e->undecided = v->undecided;
			arena_owner = c;
			HASH_ADD_KEYPTR_BYHASHVALUE(hh, c->table, e->key, len + 1, hash, e);
			arena_owner = NULL;
		}
	}
	pthread_mutex_unlock(&c->lock);
	return 0;
}
