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
#include <linux/openat2.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
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

void proc_status_ids(pid_t tid, pid_t *tgid, pid_t *ppid)
{
	char path[64], line[256];
	FILE *f;

	*tgid = tid;
	*ppid = 0;
	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	if ((f = fopen(path, "re")) == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "Tgid:", 5) == 0)
			*tgid = atoi(line + 5);
		else if (strncmp(line, "PPid:", 5) == 0)
			*ppid = atoi(line + 5);
	}
	fclose(f);
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

/*
 * A file of a task's directory, read in one go into buf (NUL-terminated):
 * the task's own file, not one mounted over it.  Its length, -ENOENT when
 * there is no such file, -ESRCH when it reads empty (the task is gone).
 */
static ssize_t task_file(int dir, const char *name, char *buf, size_t len)
{
	struct open_how how = { .flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC,
				.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS };
	int fd = (int)syscall(SYS_openat2, dir, name, &how, sizeof(how));
	ssize_t n;

	if (fd < 0)
		return -errno;
	n = read(fd, buf, len - 1);
	if (n < 0)
		n = -errno;
	close(fd);
	if (n == 0)
		return -ESRCH;
	if (n > 0)
		buf[n] = '\0';
	return n;
}

int proc_task_status(int dir, pid_t *pid, pid_t *tracer, char *state, pid_t *ppid)
{
	char buf[2048], *t;
	ssize_t n = task_file(dir, "status", buf, sizeof(buf));

	if (n < 0)
		return n == -ENOENT ? 0 : (int)n;
	/*
	 * The name, which the task chooses, comes first and is escaped by the
	 * kernel (a newline in it is "\n"): each field is found at a line's start.
	 */
	if ((t = strstr(buf, "\nTracerPid:")) == NULL)
		return 0; /* some other status file: not a task's directory */
	if (tracer)
		*tracer = atoi(t + 11);
	if (pid)
		*pid = (t = strstr(buf, "\nPid:")) ? atoi(t + 5) : -1;
	if (ppid)
		*ppid = (t = strstr(buf, "\nPPid:")) ? atoi(t + 6) : -1;
	if (state)
		*state = (t = strstr(buf, "\nState:")) ? t[8 + strspn(t + 8, " \t")] : '?';
	return 1;
}

bool proc_traced_dir(int dir)
{
	pid_t tracer;

	/* The tracer is ward's main thread, whose id is ward's pid. */
	return proc_task_status(dir, NULL, &tracer, NULL, NULL) == 1 && tracer == getpid();
}

bool proc_session_dir(int dir)
{
	pid_t tracer, ppid;
	char state;

	if (proc_task_status(dir, NULL, &tracer, &state, &ppid) != 1)
		return false;
	/* A zombie: ward has let it go, and its parent, of the session, has yet to reap it. */
	return tracer == getpid() || (state == 'Z' && proc_in_session(ppid));
}

bool proc_session_pid(pid_t pid)
{
	int dir = proc_dir_open(pid);
	bool ok = dir >= 0 && proc_session_dir(dir);

	if (dir >= 0)
		close(dir);
	return ok;
}

bool proc_maybe_session(pid_t pid)
{
	return proc_in_session(pid) || proc_session_pid(pid);
}

int proc_dir_open(pid_t pid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/%d", pid);
	return open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
}

int proc_stat_at(int dir, char *state, pid_t *ppid, pid_t *pgrp)
{
	char buf[512], st;
	int pp, pg;

	if (task_file(dir, "stat", buf, sizeof(buf)) < 0)
		return -1;
	/* The command name may hold anything: fields start after the last ')'. */
	char *p = strrchr(buf, ')');
	if (p == NULL || sscanf(p + 1, " %c %d %d", &st, &pp, &pg) != 3)
		return -1;
	if (state)
		*state = st;
	if (ppid)
		*ppid = pp;
	if (pgrp)
		*pgrp = pg;
	return 0;
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

pid_t proc_pgrp_of(pid_t tid)
{
	int dir = proc_dir_open(tid);
	pid_t pgrp = -1;

	if (dir >= 0 && proc_stat_at(dir, NULL, NULL, &pgrp) < 0)
		pgrp = -1;
	if (dir >= 0)
		close(dir);
	return pgrp;
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

/* A mapped file's name (FNV-1a): tells apart files maps gives one id. */
static uint64_t name_hash(const char *c)
{
	uint64_t name = 14695981039346656037ull;
	for (; *c; c++)
		name = (name ^ (unsigned char)*c) * 1099511628211ull;
	return name;
}

/* A mapping found: the hits it answers get its file and range. */
static void maps_entry(uint64_t start, uint64_t end, uint64_t off, dev_t dev, ino_t ino,
		       uint64_t name, struct maps_hit *h, int n)
{
	for (int i = 0; i < n; i++) {
		if (h[i].found)
			continue;
		if (h[i].by_file ? h[i].dev != dev || h[i].ino != ino || off != 0 || h[i].name != name
				 : h[i].addr < start || h[i].addr >= end)
			continue;
		h[i].dev = dev;
		h[i].ino = ino;
		h[i].name = name;
		h[i].start = start;
		h[i].end = end;
		h[i].found = true;
	}
}

/* One line of maps, or the head of one. */
static void maps_line(const char *line, struct maps_hit *h, int n)
{
	unsigned long long start, end, off, ino;
	unsigned maj, min;
	int at = 0;

	if (sscanf(line, "%llx-%llx %*s %llx %x:%x %llu%n", &start, &end, &off, &maj, &min, &ino,
		   &at) != 6)
		return;
	/* The name as far as the line was read. */
	maps_entry(start, end, off, makedev(maj, min), (ino_t)ino,
		   name_hash(line + at + strspn(line + at, " ")), h, n);
}

int proc_lines(int fd, char *buf, size_t size, int (*fn)(char *line, bool whole, void *arg),
	       void *arg)
{
	size_t have = 0;
	bool skipping = false;
	int rc;

	for (;;) {
		ssize_t got = read(fd, buf + have, size - 1 - have);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			return got < 0 ? -errno : 0;
		have += (size_t)got;
		buf[have] = '\0';
		char *line = buf, *nl;
		while ((nl = memchr(line, '\n', have - (size_t)(line - buf))) != NULL) {
			*nl = '\0';
			if (!skipping && (rc = fn(line, true, arg)) != 0)
				return rc;
			skipping = false;
			line = nl + 1;
		}
		size_t rest = have - (size_t)(line - buf);
		if (rest == size - 1) {
			/* A line longer than the buffer: its head alone, then skipped to its end. */
			if (!skipping && (rc = fn(line, false, arg)) != 0)
				return rc;
			skipping = true;
			rest = 0;
		}
		memmove(buf, line, rest);
		have = rest;
	}
}

struct maps_query {
	struct maps_hit *h;
	int n;
};

static int maps_query_line(char *line, bool whole, void *arg)
{
	struct maps_query *q = arg;
	(void)whole; /* a cut line's head has every field but the name's end */
	maps_line(line, q->h, q->n);
	return 0;
}

/*
 * PROCMAP_QUERY (Linux 6.11): one mapping asked of the kernel by address,
 * instead of the whole of maps printed and read (about 5 times cheaper
 * for a process just exec'd, and ward looks at each exec's).  The
 * structure as <linux/fs.h> has it; older headers do not.
 */
struct procmap_query {
	uint64_t size, query_flags, query_addr;
	uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset, inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
#define WARD_PROCMAP_QUERY _IOWR('f', 17, struct procmap_query)
#define WARD_PROCMAP_COVERING_OR_NEXT 0x10
#define WARD_PROCMAP_FILE_BACKED 0x20

/*
 * Whether the kernel answers PROCMAP_QUERY: learnt at the first look and
 * kept, so that the names compared in one session are all hashed from the
 * same source (the ioctl's names are d_path's, maps escapes a newline).
 */
static int query_works = -1; /* -1 not known, 0 no, 1 yes */

/* The mapping at or after addr (a file's only with file), or -errno. */
static int query_at(int fd, uint64_t addr, unsigned flags, struct procmap_query *q,
		    char *name, size_t namelen)
{
	*q = (struct procmap_query){ .size = sizeof(*q), .query_flags = flags, .query_addr = addr,
				     .vma_name_size = (uint32_t)namelen,
				     .vma_name_addr = (uint64_t)(uintptr_t)name };
	if (name != NULL)
		name[0] = '\0';
	return ioctl(fd, WARD_PROCMAP_QUERY, q) < 0 ? -errno : 0;
}

static int maps_by_query(int fd, struct maps_hit *h, int n)
{
	struct procmap_query q;
	char name[PATH_MAX + 32];
	int rc;

	for (int i = 0; i < n; i++) {
		if (h[i].found)
			continue;
		if (!h[i].by_file) {
			rc = query_at(fd, h[i].addr, 0, &q, name, sizeof(name));
			if (rc == -ENOENT)
				continue; /* nothing mapped there */
			if (rc < 0)
				return rc;
			maps_entry(q.vma_start, q.vma_end, q.vma_offset, makedev(q.dev_major, q.dev_minor),
				   (ino_t)q.inode, name_hash(name), h, n);
			continue;
		}
		/* The file's first mapping at offset 0, in address order, as maps lists them. */
		for (uint64_t at = 0;; at = q.vma_end) {
			rc = query_at(fd, at, WARD_PROCMAP_COVERING_OR_NEXT | WARD_PROCMAP_FILE_BACKED,
				      &q, NULL, 0);
			if (rc == -ENOENT)
				break; /* no further file mapping */
			if (rc < 0)
				return rc;
			if (makedev(q.dev_major, q.dev_minor) != h[i].dev || (ino_t)q.inode != h[i].ino ||
			    q.vma_offset != 0)
				continue;
			/* Its name only now: d_path is the dear part. */
			if ((rc = query_at(fd, q.vma_start, 0, &q, name, sizeof(name))) < 0)
				return rc;
			maps_entry(q.vma_start, q.vma_end, q.vma_offset, makedev(q.dev_major, q.dev_minor),
				   (ino_t)q.inode, name_hash(name), &h[i], 1);
			if (h[i].found)
				break;
		}
	}
	return 0;
}

int proc_maps_find(pid_t pid, struct maps_hit *h, int n)
{
	char path[64];
	int fd, rc;

	if (pid > 0)
		snprintf(path, sizeof(path), "/proc/%d/maps", pid);
	else
		snprintf(path, sizeof(path), "/proc/self/maps");
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		for (int i = 0; i < n; i++)
			h[i].found = false;
		return -errno;
	}
	rc = proc_maps_find_fd(fd, h, n);
	close(fd);
	return rc;
}

int proc_maps_find_fd(int fd, struct maps_hit *h, int n)
{
	char buf[4096];
	struct maps_query mq = { h, n };
	int rc;

	for (int i = 0; i < n; i++)
		h[i].found = false;
	int works = __atomic_load_n(&query_works, __ATOMIC_RELAXED);
	if (works != 0) {
		rc = maps_by_query(fd, h, n);
		if (works < 0) {
			/* ENOTTY, EINVAL: a kernel without it; decided once, either way. */
			int now = rc == -ENOTTY || rc == -EINVAL ? 0 : 1, unknown = -1;
			__atomic_compare_exchange_n(&query_works, &unknown, now, false, __ATOMIC_RELAXED,
						    __ATOMIC_RELAXED);
			works = __atomic_load_n(&query_works, __ATOMIC_RELAXED);
		}
		if (works == 1)
			return rc;
		for (int i = 0; i < n; i++)
			h[i].found = false;
	}
	/* From the start: the same fd may be read more than once. */
	if (lseek(fd, 0, SEEK_SET) < 0)
		return -errno;
	return proc_lines(fd, buf, sizeof(buf), maps_query_line, &mq);
}
