/*
 * repos.h - the git repositories below the project the session made or
 * changed (repos.c), told at the end of the session.
 */
#ifndef WARD_REPOS_H
#define WARD_REPOS_H

#include <stdbool.h>

struct json_t;

/* A change to real (a real path) succeeded: note the repository it is in, if any. */
void repos_note(const char *real);
/* The repositories noted, as a JSON array of paths (session-end). */
struct json_t *repos_json(void);
/* fn with each repository noted (fn NULL: none); how many, and *more when others went unnoted. */
int repos_each(void (*fn)(const char *path, void *arg), void *arg, bool *more);

#endif
