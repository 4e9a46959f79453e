/*
 * resolve.h - paths in the agent's context (resolve.c): ward's own walk of
 * the agent's path, from its root, cwd or a dirfd, to an O_PATH fd of
 * ward's and the real path of what it found.
 */
#ifndef WARD_RESOLVE_H
#define WARD_RESOLVE_H

#include "procfs.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

struct req;


enum resolve_mode {
	RES_FINAL,	    /* the object itself, following a final symlink */
	RES_FINAL_NOFOLLOW, /* the object itself, a final symlink as is */
	RES_PARENT,	    /* the parent directory; the final name is returned */
};
/*
 * Resolve path (relative to dirfd in the agent, or its cwd for AT_FDCWD)
 * to an O_PATH fd in the supervisor.  For RES_PARENT *name points into
 * r's scratch at the final component ("." or ".." are refused).
 * real receives the real path of the returned fd.
 */
int resolve(struct req *r, int dirfd, const char *path, enum resolve_mode mode,
	    int *fd, char *real, size_t reallen, const char **name);
/*
 * The agent's dirfd (AT_FDCWD: its cwd) as ward's own fd, with its real
 * path; -E_FOREIGN_PROC (real: what is decided on) when it is in a procfs
 * and not known to be the session's.  On any failure *fd is -1.
 */
int agent_object(struct req *r, int dirfd, int *fd, char *real, size_t reallen);
/* An O_PATH fd of the agent's root directory (ward's: see resolve.c). */
int agent_root(struct req *r, int *fd);
/* "name/": path ends in a slash (and is not only slashes). */
bool slash_end(const char *path);
/* Join a parent's real path and a name into out. */
int join_path(const char *dir, const char *name, char *out, size_t len);
/*
 * A pipe, socket, anonymous inode or memfd (by its real path and stat):
 * reached only through the agent's own fd (anon_check), so its own, to
 * which the path policy does not apply.
 */
bool unnamed_object(const char *real, const struct stat *st);
/*
 * True when the object behind fd (ours) is held by the agent through the
 * fd last walked through (r->hop), and that fd is not O_PATH: an object
 * without a name, reached so, is the agent's own.  False otherwise: an
 * O_PATH fd may have been opened by the kernel alone (/proc/PID/fd/N of a
 * process outside the session), and no name is left to judge.
 */
bool hop_is_own(struct req *r, int fd);
/*
 * 0 when the object behind fd (ours, at real) may be served without a
 * name of its own to judge: a pipe, socket or memfd (real not absolute)
 * only when hop_is_own(); a deleted file reached through an fd likewise
 * (one reached by its path is judged by the name it had).  Else the
 * refusal (-EACCES, logged with the reason).
 */
int anon_check(struct req *r, int fd, const char *real);

#endif
