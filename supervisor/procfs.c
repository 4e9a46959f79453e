/*
 * procfs.c - reading /proc: ward's own fds by /proc/self/fd, a task's
 * status, stat, umask and maps, the lines of a /proc file, and whether an
 * object in a procfs belongs to a task outside the session (the walk's
 * /proc checks, resolve.c).
 *
 * procfs needs care: "self" and "thread-self" must mean the agent, not
 * the supervisor, and the magic links under /proc/PID/ (fd/N, cwd, root,
 * exe) are followed by the kernel, but only for processes of the session.
 */
#include "procfs.h"
#include "compat.h"
#include "proc.h"

#include <errno.h>
#include <inttypes.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/vfs.h>
#include <unistd.h>

/*
 * ward's own /proc/self/fd, opened once: its entries are reached with one
 * lookup (openat, readlinkat) instead of a walk through /proc, the "self"
 * link and "fd" on every call.  All of ward's threads share one fd table,
 * so whichever thread opened it, the directory lists the same fds.
 */
static int self_fds = -1;
static pthread_once_t self_fds_once = PTHREAD_ONCE_INIT;

static void open_self_fds(void)
{
	self_fds = open("/proc/self/fd", O_PATH | O_DIRECTORY | O_CLOEXEC);
}

static int self_fd_name(int fd, char name[16])
{
	pthread_once(&self_fds_once, open_self_fds);
	if (self_fds < 0 || fd < 0)
		return -EBADF;
	/* The digits by hand: this is on every open's path. */
	char digits[16], *d = digits + sizeof(digits);
	unsigned u = (unsigned)fd;
	*--d = '\0';
	do
		*--d = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	memcpy(name, d, (size_t)(digits + sizeof(digits) - d));
	return 0;
}

int fd_reopen(int fd, int flags)
{
	char name[16];
	int rc = self_fd_name(fd, name);

	if (rc < 0)
		return rc;
	rc = openat(self_fds, name, flags | O_CLOEXEC);
	return rc < 0 ? -errno : rc;
}

int fd_real_path(int fd, char *out, size_t len)
{
	char name[16];
	ssize_t n;

	if ((n = self_fd_name(fd, name)) < 0)
		return (int)n;
	n = readlinkat(self_fds, name, out, len - 1);
	if (n < 0)
		return -errno;
	if ((size_t)n >= len - 1)
		return -ENAMETOOLONG;
	out[n] = '\0';
	return 0;
}


/*
 * Where fstatfs cannot say, the type of fd's mount in mountinfo does: a
 * symlink on 9p or virtiofs (the host is asked about the link's own path
 * with O_NOFOLLOW, and says ELOOP: WSL's drive mounts, a VM's root).  A
 * filesystem ward cannot tell either way is taken for a procfs: the checks
 * for one then apply, and refuse what they cannot read.
 */
bool is_procfs(int fd)
{
	struct statfs sfs;
	char type[64];

	if (fstatfs(fd, &sfs) == 0)
		return sfs.f_type == PROC_SUPER_MAGIC;
	return mount_fstype(fd, type, sizeof(type)) < 0 || strcmp(type, "proc") == 0;
}

static bool mount_root_of(int fd);

/* True for fd being the root directory of a procfs mount. */
bool is_proc_root(int fd)
{
	struct stat st;
	/*
	 * Inode 1 alone is not enough: /proc/PID directories take their
	 * numbers from a counter that wraps, 1 included.  The root of a procfs
	 * is also the root of its mount.
	 */
	return is_procfs(fd) && fstat(fd, &st) == 0 && st.st_ino == 1 && mount_root_of(fd);
}


/*
 * -E_FOREIGN_PROC when dir, a directory in a procfs, is the directory of a
 * task not of the session (proc_session_dir), with real set to /proc/PID
 * and rest, for the decision; 1 when it is a task's of the session; 0 when
 * it is no task's.
 */
int proc_foreign_task(int dir, const char *rest, char *real, size_t reallen)
{
	pid_t pid, tracer, ppid;
	char state;
	int rc = proc_task_status(dir, &pid, &tracer, &state, &ppid);

	if (rc <= 0)
		return rc;
	if (tracer == getpid() || (state == 'Z' && proc_in_session(ppid)))
		return 1;
	rest += strspn(rest, "/");
	if (real != NULL)
		snprintf(real, reallen, "/proc/%d%s%s", pid, *rest ? "/" : "", rest);
	return -E_FOREIGN_PROC;
}

bool procfs_no_statx_mnt;

static int mount_info(uint64_t id, char *root, size_t len, char *point, size_t plen);

/*
 * True when fd is the root of its mount: statx says so (5.8), or before,
 * its path is its mount's mount point (mountinfo's fifth field; a path
 * below the mount point names a directory inside the mount).
 */
static bool mount_root_of(int fd)
{
	struct statx stx;
	static __thread char root[PATH_MAX], point[PATH_MAX], path[PATH_MAX];

	if (!procfs_no_statx_mnt)
		return statx(fd, "", AT_EMPTY_PATH, STATX_INO, &stx) == 0 &&
		       (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT) &&
		       (stx.stx_attributes & STATX_ATTR_MOUNT_ROOT);
	uint64_t id = mount_id_of(fd);
	return id != 0 && mount_info(id, root, sizeof(root), point, sizeof(point)) == 0 &&
	       fd_real_path(fd, path, sizeof(path)) == 0 && strcmp(path, point) == 0;
}

int mount_id(int fd, uint64_t *id)
{
	struct statx stx;
	char path[64], line[256];
	bool found = false;

	if (!procfs_no_statx_mnt) {
		if (statx(fd, "", AT_EMPTY_PATH, STATX_MNT_ID, &stx) < 0 ||
		    !(stx.stx_mask & STATX_MNT_ID))
			return -1;
		*id = stx.stx_mnt_id;
		return 0;
	}
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "re");
	while (f != NULL && !found && fgets(line, sizeof(line), f) != NULL)
		if (strncmp(line, "mnt_id:", 7) == 0)
			found = sscanf(line + 7, "%" SCNu64, id) == 1;
	if (f != NULL)
		fclose(f);
	return found ? 0 : -1;
}

uint64_t mount_id_of(int fd)
{
	uint64_t id = 0;

	return mount_id(fd, &id) == 0 ? id : 0;
}

/* Undo mountinfo's octal escapes (\040 for a space...) in place. */
static void unescape(char *s)
{
	char *o = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' &&
		    s[3] >= '0' && s[3] <= '7') {
			*o++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
			s += 3;
		} else {
			*o++ = *s;
		}
	}
	*o = '\0';
}

/*
 * The part of its filesystem that mount `id` shows (mountinfo's fourth
 * field: "/sys", "/1234/fd"), from ward's mountinfo.  The line is read
 * whole and split at spaces (the kernel escapes those in paths); a line or
 * a field too long for ward's buffer is an error, never a cut.
 */
struct mount_query {
	uint64_t id;
	char *root; /* (NULL: not asked) */
	size_t len;
	char *point; /* (NULL: not asked) its mount point */
	size_t plen;
	char *type; /* (NULL: not asked) its filesystem's type, after the " - " */
	size_t tlen;
};

static int mount_query_line(char *line, bool whole, void *arg)
{
	struct mount_query *q = arg;

	if (strtoull(line, NULL, 10) != q->id)
		return 0;
	if (!whole)
		return -ENAMETOOLONG;
	char *f[5], *save = NULL, *t = line;
	int k = 0;
	for (; k < 5 && (f[k] = strtok_r(t, " ", &save)) != NULL; k++)
		t = NULL;
	if (k < 5)
		return -EACCES;
	if (q->root != NULL) {
		unescape(f[3]);
		if (strlen(f[3]) >= q->len)
			return -ENAMETOOLONG;
		snprintf(q->root, q->len, "%s", f[3]);
	}
	if (q->point != NULL) {
		unescape(f[4]);
		if (strlen(f[4]) >= q->plen)
			return -ENAMETOOLONG;
		snprintf(q->point, q->plen, "%s", f[4]);
	}
	if (q->type != NULL) {
		/* Optional fields, then "-", then the type. */
		char *x;
		while ((x = strtok_r(NULL, " ", &save)) != NULL && strcmp(x, "-") != 0)
			;
		if (x == NULL || (x = strtok_r(NULL, " ", &save)) == NULL)
			return -EACCES;
		unescape(x);
		if (strlen(x) >= q->tlen)
			return -ENAMETOOLONG;
		snprintf(q->type, q->tlen, "%s", x);
	}
	return 1;
}

static int mount_query(struct mount_query *q)
{
	static __thread char buf[64 * 1024];
	int fd = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC), rc;

	if (fd < 0)
		return -errno;
	rc = proc_lines(fd, buf, sizeof(buf), mount_query_line, q);
	close(fd);
	return rc == 1 ? 0 : rc == 0 ? -EACCES : rc; /* not found: refused */
}

static int mount_info(uint64_t id, char *root, size_t len, char *point, size_t plen)
{
	struct mount_query q = { id, root, len, point, plen, NULL, 0 };

	return mount_query(&q);
}

int mount_fstype(int fd, char *type, size_t len)
{
	uint64_t id;
	struct mount_query q = { 0, NULL, 0, NULL, 0, type, len };

	if (mount_id(fd, &id) < 0)
		return -EACCES;
	q.id = id;
	return mount_query(&q);
}

static int mount_root(uint64_t id, char *root, size_t len)
{
	return mount_info(id, root, len, NULL, 0);
}

/*
 * -E_FOREIGN_PROC when obj is in a procfs (any mount of one, or a part of
 * one bound elsewhere, a directory or a file) and in the part of a task not
 * of the session; real is then obj's path and the rest, for the decision.
 * From obj (a file: from its directory) up, within obj's mount: the first
 * task's directory decides, by its own status, in that very procfs (the
 * tracer's id there is ward's only in ward's pid namespace); the procfs
 * root, reached first, means no task's part.  At the top of a mount of a
 * part of a procfs, the part is read from mountinfo: one below a task's
 * directory ("/PID/fd") is refused, any other ("/sys") is no task's.
 */
int proc_foreign_obj(int obj, const char *rest, char *real, size_t reallen)
{
	char path[PATH_MAX], root[PATH_MAX];
	struct stat st, in;
	int cur, up, rc = 0;

	if (!is_procfs(obj))
		return 0;
	if (fstat(obj, &st) < 0)
		return -errno;
	if (S_ISDIR(st.st_mode)) {
		if ((cur = fcntl(obj, F_DUPFD_CLOEXEC, 0)) < 0)
			return -errno;
	} else {
		/* A file: its directory, the one its real path names, if it holds this very file. */
		char *slash;
		if ((rc = fd_real_path(obj, path, sizeof(path))) < 0 ||
		    (slash = strrchr(path, '/')) == NULL)
			return rc < 0 ? rc : -EACCES;
		*slash = '\0';
		cur = open(path[0] ? path : "/", O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (cur < 0 || fstatat(cur, slash + 1, &in, AT_SYMLINK_NOFOLLOW) < 0 ||
		    in.st_dev != st.st_dev || in.st_ino != st.st_ino) {
			if (cur >= 0)
				close(cur);
			goto unknown;
		}
		if (mount_id_of(cur) != mount_id_of(obj)) {
			/* A file bound alone (it is its mount's root): the part is that root. */
			close(cur);
			if (!mount_root_of(obj))
				goto unknown; /* something was mounted over its directory since */
			if ((rc = mount_root(mount_id_of(obj), root, sizeof(root))) < 0)
				return rc;
			goto part;
		}
	}
	uint64_t mnt = mount_id_of(cur);
	for (int depth = 0;; depth++) {
		if ((rc = proc_foreign_task(cur, rest, real, reallen)) != 0 || is_proc_root(cur))
			break;
		if (depth > 32 || mnt == 0) {
			rc = -ELOOP;
			break;
		}
		/*
		 * Up within the mount only: ".." would follow a mount made over
		 * the directory above (a task's directory overmounted since the
		 * agent took an fd below it) into another mount's view.
		 */
		struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
					.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS };
		if ((up = ward_openat2(cur, "..", &how)) < 0 &&
		    errno != EXDEV) {
			rc = -errno;
			break;
		}
		if (up < 0) {
			/* The top of a mount of a part of a procfs, below no task. */
			bool top = mount_root_of(cur);
			close(cur);
			if (!top)
				goto unknown; /* overmounted above: the part cannot be told */
			if ((rc = mount_root(mnt, root, sizeof(root))) < 0)
				return rc;
			goto part;
		}
		if (mount_id_of(up) != mnt) {
			close(up);
			close(cur);
			goto unknown;
		}
		close(cur);
		cur = up;
	}
	close(cur);
	return rc < 0 ? rc : 0;
part:;
	const char *c = root + strspn(root, "/");
	size_t digits = strspn(c, "0123456789");
	if (digits == 0 || (c[digits] != '/' && c[digits] != '\0'))
		return 0; /* not a task's part */
unknown:
	if (real != NULL && fd_real_path(obj, real, reallen) == 0) {
		rest += strspn(rest, "/");
		size_t l = strlen(real);
		snprintf(real + l, reallen - l, "%s%s", *rest ? "/" : "", rest);
	}
	return -E_FOREIGN_PROC;
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


/*
 * A file of a task's directory, read in one go into buf (NUL-terminated):
 * the task's own file, not one mounted over it.  Its length, -ENOENT when
 * there is no such file, -ESRCH when it reads empty (the task is gone).
 */
static ssize_t task_file(int dir, const char *name, char *buf, size_t len)
{
	struct open_how how = { .flags = O_RDONLY | O_NOFOLLOW | O_CLOEXEC,
				.resolve = RESOLVE_NO_XDEV | RESOLVE_NO_SYMLINKS };
	int fd = ward_openat2(dir, name, &how);
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

int proc_read_umask(pid_t tid, mode_t *mask)
{
	char path[64], line[256];
	FILE *f;
	int rc = -EIO;

	snprintf(path, sizeof(path), "/proc/%d/status", tid);
	f = fopen(path, "re");
	if (f == NULL)
		return -errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "Umask:", 6) == 0) {
			*mask = (mode_t)strtoul(line + 6, NULL, 8) & 0777;
			rc = 0;
			break;
		}
	}
	fclose(f);
	return rc;
}
