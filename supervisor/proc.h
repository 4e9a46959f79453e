/*
 * proc.h - the session's process table (proc.c): which threads belong to
 * the session, their thread group, parent and executable, the fs_struct
 * (umask) they share, and the exec each was allowed.  The tracer thread
 * writes it; notification workers read it.
 */
#ifndef WARD_PROC_H
#define WARD_PROC_H

#include "execcheck.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/stat.h>
#include <sys/types.h>

/*
 * Add tid (a thread of tgid, child of ppid) to the session; from: the task
 * that made it, whose executable it runs (0: none known).
 */
int proc_add(pid_t tid, pid_t tgid, pid_t ppid, pid_t from);
void proc_remove(pid_t tid);
/* SIGKILL every process of the session (the command has exited). */
void proc_kill_all(void);
/* A process is gone: its children now have another parent; ask /proc which. */
void proc_orphans(pid_t tgid);
/*
 * The umask is the fs_struct's, which threads and clone(CLONE_FS) share.
 * ward keeps the umask it read from /proc/TID/status for a group of one
 * task (proc.c says when that is safe), so that a create need not read it
 * again.  proc_fs_own: tid has an fs of its own; proc_fs_join: tid has
 * another task's (its creator's, or the thread's that exec'd and took its
 * id).  A task whose group is unknown keeps nothing from anyone.
 */
void proc_fs_own(pid_t tid);
void proc_fs_join(pid_t tid, pid_t creator);
/* The kept umask of tid (true), or false and *gen for proc_umask_put. */
bool proc_umask_get(pid_t tid, mode_t *mask, unsigned *gen);
/* Keep mask, read from /proc, unless tid's group forgot since gen. */
void proc_umask_put(pid_t tid, mode_t mask, unsigned gen);
/* tid is calling umask(2): its group forgets what it kept. */
void proc_umask_changed(pid_t tid);
/* tid is in the table (it may have exited a moment ago: see proc_of_session). */
bool proc_in_session(pid_t pid);
/* Copy what the log needs about tid: its tgid, ppid, exe (false: not in the table). */
bool proc_info(pid_t tid, pid_t *tgid, pid_t *ppid, char *exe, size_t len);
/* Every task of tgid runs exe now (an exec). */
void proc_set_exe(pid_t tgid, const char *exe);
/* One task's executable, read from the kernel. */
void proc_set_task_exe(pid_t tid, const char *exe);
/*
 * The exec a thread was allowed: set by the exec handler (false when tid
 * is not in the table: the exec must be refused), taken by the tracer.
 */
bool proc_set_grant(pid_t tid, const struct exec_grant *g);
bool proc_take_grant(pid_t tid, struct exec_grant *g);
/* tid has exec'd the loader for PROG (g->loader): its open of PROG is checked. */
void proc_set_loader(pid_t tid, const struct exec_grant *g);
/*
 * An open by tid of path, which found the file st: -EACCES when tid is a
 * loader yet to open its PROG, path names PROG, and st is not the file
 * judged (the name was turned elsewhere since); else 0.  The first open
 * by that name settles it.
 */
int proc_loader_open(pid_t tid, const char *path, const struct stat *st);
/*
 * In the table and traced by ward: an entry can outlive its task for a
 * moment (a thread's id is freed when it execs, before ward hears of it),
 * and the id be another's by then.
 */
bool proc_of_session(pid_t pid);
/* pid is of the session by the table, or by proc_session_pid(). */
bool proc_maybe_session(pid_t pid);
/* A process group of the session's (never ward's own): see proc.c. */
bool proc_pgrp_in_session(pid_t pgrp);
/* True when a process of the session holds the master of pty number index. */
bool proc_holds_pty(unsigned index);

#endif
