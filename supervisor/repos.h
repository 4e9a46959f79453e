/*
 * repos.h - the git repositories below the project the session made or
 * changed (repos.c), told at the end of the session.
 */
#ifndef WARD_REPOS_H
#define WARD_REPOS_H

struct json_t;

/* A change to real (a real path) succeeded: note the repository it is in, if any. */
void repos_note(const char *real);
/* The repositories noted, as a JSON array of paths (session-end). */
struct json_t *repos_json(void);
void repos_tell(void);

#endif
