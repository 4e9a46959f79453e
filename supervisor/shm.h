/*
 * shm.h - what the session made in /dev/shm (shm.c).
 */
#ifndef WARD_SHM_H
#define WARD_SHM_H

#include "ward_rules.h"

#include <stdbool.h>
#include <sys/stat.h>

struct req;

void shm_init(void);
/* real lies below /dev/shm (by name: what to look at more closely). */
bool shm_path(const char *real);
/*
 * Note the object the session made at real, found at name below dirfd
 * ("" for dirfd itself); nothing outside /dev/shm is noted (or looked at).
 */
void shm_made(const char *real, int dirfd, const char *name);
/* The session removed real's last name. */
void shm_gone(const char *real, const struct stat *st);
/*
 * 0, or a refusal (-EACCES, with the reason) to change the object at real
 * (op: write or delete) when it lies in /dev/shm, the session did not make
 * it, and no rule of the user's allows op on it.
 */
int shm_check(struct req *r, enum ward_op op, const char *real, const struct stat *st);

#endif
