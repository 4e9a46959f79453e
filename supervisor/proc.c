/*
 * proc.c - the session's process table: which threads belong to the
 * session, their thread group, parent and executable, and the exec each
 * was allowed.  The tracer thread writes it; notification workers read it.
 */
#include "proc.h"
#include "execcheck.h"
#include "procfs.h"
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <uthash.h>

struct proc {
	UT_hash_handle hh;
	pid_t tid, tgid, ppid;
	char exe[256];
	bool execed; /* exe is its own, from an exec, not its creator's */
	struct exec_grant grant;
	struct exec_grant loader; /* .loader: ld.so, yet to open its PROG */
	struct fs_group *fs; /* its fs_struct's group; NULL: not known */
};

/*
 * The tasks that share one fs_struct, and so one umask (threads,
 * clone(CLONE_FS)), and that umask as ward last read it (-1: not kept).
 * A kept umask is used only while the group has one task and every task's
 * group is known: that task cannot make anything while it is in umask(2),
 * so the value read is never one a umask(2) in flight is about to change,
 * and a umask(2) that never happens (its caller killed first) leaves no
 * wrong value behind, as ward keeps none from a umask(2) itself: it only
 * forgets, and reads /proc again at the next create.  gen counts the
 * forgettings, so that a value read across one is not kept, and a value
 * read while the group was not one task is never kept (gen 0).
 */
struct fs_group {
	int members, umask;
	unsigned gen;
};

/* Tasks whose group is not known: any of them may share any group's fs. */
static int unknown_fs;

/* g forgets its umask; gen skips 0, which means "keep nothing" (proc_umask_get). */
static void fs_forget(struct fs_group *g)
{
	g->umask = -1;
	if (++g->gen == 0)
		g->gen = 1;
}

/* How many tasks are loaders yet to open their PROG: opens look only when some are. */
static int loaders;

/* p (the table write-locked) is no longer a loader yet to open its PROG. */
static void loader_settled(struct proc *p)
{
	if (p->loader.loader) {
		p->loader.loader = false;
		__atomic_sub_fetch(&loaders, 1, __ATOMIC_RELAXED);
	}
}

static struct proc *table;
static pthread_rwlock_t lock = PTHREAD_RWLOCK_INITIALIZER;

/* p leaves its group (the table write-locked), which goes with its last task. */
static void fs_leave(struct proc *p)
{
	if (p->fs == NULL) {
		unknown_fs--;
		return;
	}
	if (--p->fs->members == 0)
		free(p->fs);
	p->fs = NULL;
}

/* p joins g, or no known group when g is NULL (the table write-locked). */
static void fs_enter(struct proc *p, struct fs_group *g)
{
	fs_leave(p);
	p->fs = g;
	if (g == NULL) {
		unknown_fs++;
		return;
	}
	g->members++;
	/* A group of one that grows: what it kept may be changed by either task now. */
	fs_forget(g);
}

int proc_add(pid_t tid, pid_t tgid, pid_t ppid, pid_t from)
{
	struct proc *p, *leader;

	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	if (p == NULL) {
		p = calloc(1, sizeof(*p));
		if (p == NULL) {
			pthread_rwlock_unlock(&lock);
			return -ENOMEM;
		}
		p->tid = tid;
		unknown_fs++; /* until the tracer tells whose fs it has */
		HASH_ADD_INT(table, tid, p);
	}
	p->tgid = tgid;
	p->ppid = ppid;
	/* A new task runs its creator's executable (from: 0 when none is known). */
	HASH_FIND_INT(table, &from, leader);
	if (leader != NULL && !p->execed)
		memcpy(p->exe, leader->exe, sizeof(p->exe));
	pthread_rwlock_unlock(&lock);
	return 0;
}

void proc_orphans(pid_t tgid)
{
	struct proc *p, *tmp;

	pthread_rwlock_wrlock(&lock);
	HASH_ITER(hh, table, p, tmp)
		if (p->ppid == tgid && p->tgid != tgid) {
			pid_t ignored;
			proc_status_ids(p->tid, &ignored, &p->ppid);
		}
	pthread_rwlock_unlock(&lock);
}

void proc_remove(pid_t tid)
{
	struct proc *p;

	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	if (p != NULL) {
		loader_settled(p);
		fs_leave(p);
		HASH_DEL(table, p);
		free(p);
	}
	pthread_rwlock_unlock(&lock);
}

void proc_fs_own(pid_t tid)
{
	struct proc *p;

	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	struct fs_group *g = p != NULL ? calloc(1, sizeof(*g)) : NULL;
	if (g != NULL) {
		g->umask = -1;
		fs_enter(p, g);
	}
	pthread_rwlock_unlock(&lock);
}

void proc_fs_join(pid_t tid, pid_t creator)
{
	struct proc *p, *c;

	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	HASH_FIND_INT(table, &creator, c);
	if (p != NULL && (c == NULL || c->fs != p->fs))
		fs_enter(p, c != NULL ? c->fs : NULL); /* the creator's, unknown too when its is */
	pthread_rwlock_unlock(&lock);
}

/* The group whose kept umask tid may use (the table locked), or NULL. */
static struct fs_group *keeping(pid_t tid, unsigned *gen)
{
	struct proc *p;

	HASH_FIND_INT(table, &tid, p);
	if (p == NULL || p->fs == NULL)
		return NULL;
	*gen = p->fs->gen;
	return unknown_fs == 0 && p->fs->members == 1 ? p->fs : NULL;
}

bool proc_umask_get(pid_t tid, mode_t *mask, unsigned *gen)
{
	struct fs_group *g;
	bool hit = false;

	*gen = 0;
	pthread_rwlock_rdlock(&lock);
	g = keeping(tid, gen);
	if (g == NULL) {
		/*
		 * Read now, while another task may be in umask(2): not to be kept,
		 * even if the group is one task again by the time it is read.
		 */
		*gen = 0;
	} else if (g->umask >= 0) {
		*mask = (mode_t)g->umask;
		hit = true;
	}
	pthread_rwlock_unlock(&lock);
	return hit;
}

void proc_umask_put(pid_t tid, mode_t mask, unsigned gen)
{
	struct fs_group *g;
	unsigned now;

	pthread_rwlock_wrlock(&lock);
	/* Only if it was read while keeping, and nothing was forgotten since. */
	if (gen != 0 && (g = keeping(tid, &now)) != NULL && now == gen)
		g->umask = (int)(mask & 0777);
	pthread_rwlock_unlock(&lock);
}

void proc_umask_changed(pid_t tid)
{
	struct proc *p, *tmp;

	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	if (p != NULL && p->fs != NULL) {
		fs_forget(p->fs);
	} else {
		/* A task whose group is not known may share any: every group forgets. */
		HASH_ITER(hh, table, p, tmp)
			if (p->fs != NULL)
				fs_forget(p->fs);
	}
	pthread_rwlock_unlock(&lock);
}

void proc_kill_all(void)
{
	struct proc *p, *tmp;

	pthread_rwlock_rdlock(&lock);
	HASH_ITER(hh, table, p, tmp)
		kill(p->tgid, SIGKILL);
	pthread_rwlock_unlock(&lock);
}

bool proc_in_session(pid_t pid)
{
	struct proc *p;

	pthread_rwlock_rdlock(&lock);
	HASH_FIND_INT(table, &pid, p);
	pthread_rwlock_unlock(&lock);
	return p != NULL;
}

bool proc_info(pid_t tid, pid_t *tgid, pid_t *ppid, char *exe, size_t len)
{
	struct proc *p;

	pthread_rwlock_rdlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	if (p != NULL) {
		*tgid = p->tgid;
		*ppid = p->ppid;
		if (exe != NULL && len > 0) {
			/* A copy, cut to len: asked at every notification, so no snprintf. */
			size_t n = strnlen(p->exe, len - 1);
			memcpy(exe, p->exe, n);
			exe[n] = '\0';
		}
	}
	pthread_rwlock_unlock(&lock);
	return p != NULL;
}

void proc_set_exe(pid_t tgid, const char *exe)
{
	struct proc *p, *tmp;

	pthread_rwlock_wrlock(&lock);
	HASH_ITER(hh, table, p, tmp)
		if (p->tgid == tgid) {
			snprintf(p->exe, sizeof(p->exe), "%s", exe);
			p->execed = true;
		}
	pthread_rwlock_unlock(&lock);
}

void proc_set_task_exe(pid_t tid, const char *exe)
{
	struct proc *p;

	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	if (p != NULL) {
		snprintf(p->exe, sizeof(p->exe), "%s", exe);
		p->execed = true; /* its own, as the kernel told it: not its creator's to replace */
	}
	pthread_rwlock_unlock(&lock);
}

bool proc_set_grant(pid_t tid, const struct exec_grant *g)
{
	struct proc *p;

	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	if (p != NULL)
		p->grant = *g;
	pthread_rwlock_unlock(&lock);
	return p != NULL;
}

bool proc_take_grant(pid_t tid, struct exec_grant *g)
{
	struct proc *p;
	bool ok = false;

	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	if (p != NULL && p->grant.set) {
		*g = p->grant;
		p->grant.set = false;
		ok = true;
	}
	pthread_rwlock_unlock(&lock);
	return ok;
}

void proc_set_loader(pid_t tid, const struct exec_grant *g)
{
	struct proc *p;

	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	if (p != NULL) {
		loader_settled(p);
		p->loader = *g;
		if (g->loader)
			__atomic_add_fetch(&loaders, 1, __ATOMIC_RELAXED);
	}
	pthread_rwlock_unlock(&lock);
}

int proc_loader_open(pid_t tid, const char *path, const struct stat *st)
{
	struct proc *p;
	uint8_t mac[32];
	int rc = 0;

	if (__atomic_load_n(&loaders, __ATOMIC_RELAXED) == 0)
		return 0;
	argv_mac(path, strlen(path) + 1, mac);
	pthread_rwlock_wrlock(&lock);
	HASH_FIND_INT(table, &tid, p);
	if (p != NULL && p->loader.loader && memcmp(mac, p->loader.prog_mac, 32) == 0) {
		if (st->st_dev != p->loader.prog_dev || st->st_ino != p->loader.prog_ino)
			rc = -EACCES;
		loader_settled(p);
	}
	pthread_rwlock_unlock(&lock);
	return rc;
}

bool proc_maybe_session(pid_t pid)
{
	return proc_in_session(pid) || proc_session_pid(pid);
}

bool proc_of_session(pid_t pid)
{
	int dir;
	bool ok;

	if (!proc_in_session(pid) || (dir = proc_dir_open(pid)) < 0)
		return false;
	ok = proc_traced_dir(dir);
	close(dir);
	return ok;
}

/*
 * A process group is the session's when it is not ward's and its leader is
 * of the session or a process of the session is in it (the leader may be
 * gone, or a zombie).  No other process is in such a group: a process
 * joins only a group of its own POSIX session, by its own call or its
 * parent's, and the session's processes may join only the session's
 * groups (h_pid), so an outsider is there only if the user put it there;
 * nor is a process of the session in an outsider's group.  While the
 * group has a member its number is not given to a new process.
 */
/* The thread group leaders in the table, for the caller to free (NULL: none). */
static pid_t *session_leaders(size_t *n)
{
	struct proc *p, *tmp;

	*n = 0;
	pthread_rwlock_rdlock(&lock);
	pid_t *leaders = malloc((HASH_COUNT(table) + 1) * sizeof(*leaders));
	HASH_ITER(hh, table, p, tmp)
		if (leaders != NULL && p->tid == p->tgid)
			leaders[(*n)++] = p->tid;
	pthread_rwlock_unlock(&lock);
	return leaders;
}

bool proc_pgrp_in_session(pid_t pgrp)
{
	pid_t *leaders;
	size_t n = 0;
	bool found = false;

	if (pgrp <= 0 || pgrp == S->own_pgrp)
		return false;
	if (proc_of_session(pgrp))
		return true;
	leaders = session_leaders(&n);
	/*
	 * An entry can outlive its task for a moment (a thread's id is freed
	 * when it execs, before ward hears of it): a process read here is one
	 * ward traces.
	 */
	for (size_t i = 0; i < n && !found; i++) {
		int dir = proc_dir_open(leaders[i]);
		pid_t g;
		found = dir >= 0 && proc_stat_at(dir, NULL, NULL, &g) == 0 && g == pgrp &&
			proc_traced_dir(dir);
		if (dir >= 0)
			close(dir);
	}
	free(leaders);
	return found;
}

/* Whether fd (a name in a process's fd/ directory) is a pty master with that index. */
static bool fd_is_master(int dir, const char *fd, unsigned index)
{
	char path[64], link[32], buf[512];

	snprintf(path, sizeof(path), "fd/%s", fd);
	ssize_t n = readlinkat(dir, path, link, sizeof(link) - 1);
	if (n <= 0)
		return false;
	link[n] = '\0';
	if (strcmp(link, "/dev/ptmx") != 0 && strcmp(link, "/dev/pts/ptmx") != 0)
		return false;
	snprintf(path, sizeof(path), "fdinfo/%s", fd);
	int f = openat(dir, path, O_RDONLY | O_CLOEXEC);
	n = f < 0 ? -1 : read(f, buf, sizeof(buf) - 1);
	if (f >= 0)
		close(f);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	const char *t = strstr(buf, "\ntty-index:");
	return t != NULL && strtoul(t + 11, NULL, 10) == index;
}

bool proc_holds_pty(unsigned index)
{
	pid_t *leaders;
	size_t n = 0;
	bool found = false;

	leaders = session_leaders(&n);
	/* Processes read through /proc directories of tasks ward traces, as proc_pgrp_in_session. */
	for (size_t i = 0; i < n && !found; i++) {
		int dir = proc_dir_open(leaders[i]);
		if (dir < 0)
			continue;
		int fds = proc_traced_dir(dir) ? openat(dir, "fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
		DIR *d = fds < 0 ? NULL : fdopendir(fds);
		struct dirent *e;
		while (d != NULL && !found && (e = readdir(d)) != NULL)
			found = e->d_name[0] != '.' && fd_is_master(dir, e->d_name, index);
		if (d != NULL)
			closedir(d);
		else if (fds >= 0)
			close(fds);
		found = found && proc_traced_dir(dir);
		close(dir);
	}
	free(leaders);
	return found;
}
