/*
 * mem.c - the agent's memory and descriptors, as ward reaches them (mem.h).
 */
#include "mem.h"
#include "degraded.h"
#include "notify.h"
#include "proc.h"
#include "procfs.h"
#include "session.h"

#include <errno.h>
#include <linux/kcmp.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

int agent_takefd(struct req *r, int agentfd)
{
	if (S->degraded && !S->feat.pidfd_getfd)
		return degraded_fetched(r, agentfd);
	int self = agent_pidfd(r), fd;

	if (self < 0)
		return -ESRCH;
	fd = agent_getfd(r, self, agentfd);
	close(self);
	return fd;
}

int agent_copy_fd(struct req *r, int agentfd)
{
	int fd = agent_takefd(r, agentfd);

	/* Refused with the reason (agent_getfd), gone, or to fetch; else any failure is a bad fd. */
	return fd < 0 && fd != -EACCES && fd != -ESRCH && fd != -E_FETCH ? -EBADF : fd;
}

int agent_pidfd(struct req *r)
{
	/*
	 * Before 6.9 (or with pidfd_thread masked) there are pidfds of
	 * processes only: agent_getfd then checks each fd it takes.
	 */
	int pfd = S->feat.pidfd_thread ? (int)syscall(SYS_pidfd_open, r->tid, PIDFD_THREAD)
				       : (int)syscall(SYS_pidfd_open, r->tgid, 0);
	return pfd < 0 ? -errno : pfd;
}

/*
 * Whether ward's fd mine is the open file the thread tid has as fd n:
 * kcmp says so exactly; where the kernel has no kcmp (CONFIG_KCMP off),
 * what /proc says of both (inode, mount, flags).  A socket's inode is
 * its own, so for the sockets this is asked about that is exact too.
 */
bool agent_same_file(pid_t tid, int n, int mine)
{
	long rc = syscall(SYS_kcmp, getpid(), tid, KCMP_FILE, mine, n);
	if (rc >= 0 || errno != ENOSYS)
		return rc == 0;
	struct fdinfo a, b;
	return agent_fdinfo(getpid(), mine, &a) == 0 && agent_fdinfo(tid, n, &b) == 0 &&
	       a.ino == b.ino && a.mnt_id == b.mnt_id && a.flags == b.flags;
}

int agent_getfd(struct req *r, int pidfd, int agentfd)
{
	int fd = (int)syscall(SYS_pidfd_getfd, pidfd, agentfd, 0), e = errno;

	if (S->feat.pidfd_thread || r->tid == r->tgid) {
		if (fd < 0)
			return e == EBADF ? -EBADF : -e;
	} else {
		/*
		 * The replacement of PIDFD_THREAD: pidfd_getfd read the leader's
		 * table.  A thread made without CLONE_FILES has a table of its
		 * own, and one whose leader has exited has no leader's table to
		 * read: what ward took must be the thread's own fd agentfd, or
		 * nothing is done with it.
		 */
		struct fdinfo fi;
		if (fd < 0 && e != EBADF)
			return -e;
		if (fd >= 0 && agent_same_file(r->tid, agentfd, fd))
			goto valid;
		if (fd >= 0)
			close(fd);
		if (agent_fdinfo(r->tid, agentfd, &fi) < 0)
			return req_valid(r) ? -EBADF : -ESRCH;
		return refuse(r, EACCES, "before Linux 6.9 (PIDFD_THREAD) ward reaches only the "
					 "descriptors of a thread that shares its leader's");
	}
valid:
	/* The thread id could name another thread by now: check it is still ours. */
	if (!req_valid(r)) {
		close(fd);
		return -ESRCH;
	}
	return fd;
}

bool req_alive(const struct req *r)
{
	if (S->degraded)
		return degraded_alive(r->n->id);
	return ioctl(S->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &r->n->id) == 0;
}

bool req_valid(struct req *r)
{
	if (req_alive(r))
		return true;
	r->gone = true;
	return false;
}

static inline uint64_t mix(uint64_t h, uint64_t w)
{
	h = (h ^ w) * 0x9e3779b97f4a7c15ull;
	return h ^ (h >> 29);
}

void mhash_add(struct mhash *m, const void *p, size_t len)
{
	const unsigned char *b = p;

	m->total += len;
	/* A word begun by the bytes before, then whole words, then the start of the next. */
	while (len > 0 && m->n > 0) {
		m->carry |= (uint64_t)*b++ << (8 * m->n++);
		len--;
		if (m->n == 8) {
			m->h = mix(m->h, m->carry);
			m->carry = 0;
			m->n = 0;
		}
	}
	for (; len >= 8; len -= 8, b += 8) {
		uint64_t w;
		memcpy(&w, b, sizeof(w));
		m->h = mix(m->h, w);
	}
	while (len > 0) {
		m->carry |= (uint64_t)*b++ << (8 * m->n++);
		len--;
	}
}

uint64_t mhash_end(const struct mhash *m)
{
	return mix(mix(m->h, m->carry), m->total);
}

/*
 * What a call read, for restart.c to tell its restart from another call
 * (only where the kernel may restart a call ward has received).
 */
static void note_read(struct req *r, uint64_t addr, const void *buf, size_t len)
{
	if (S->feat.wait_killable || r->nreads > READS_MAX)
		return;
	if (r->nreads == READS_MAX) {
		r->nreads++; /* more than it keeps: no restart is answered from it */
		return;
	}
	struct mhash m = { 0, 0, 0, 0 };
	mhash_add(&m, buf, len);
	r->reads[r->nreads++] = (struct read_range){ addr, mhash_end(&m), (uint32_t)len };
}

int mem_read(struct req *r, uint64_t addr, void *buf, size_t len)
{
	struct iovec local = { buf, len }, remote = { (void *)(uintptr_t)addr, len };
	ssize_t n = process_vm_readv(r->tid, &local, 1, &remote, 1, 0);

	if (n != (ssize_t)len)
		return -EFAULT;
	note_read(r, addr, buf, len);
	/*
	 * The thread may have died and its id been reused: check after reading
	 * (or, for a batch of reads, once after the batch: r->batch_reads).
	 */
	if (r->batch_reads)
		return 0;
	return req_valid(r) ? 0 : -ESRCH;
}

int mem_read_str(struct req *r, uint64_t addr, char *buf, size_t len)
{
	/*
	 * First 256 bytes, or the rest of the string's page if less (most
	 * paths end there), then, if no NUL came, the rest up to len in one
	 * more read.  Reading len at once would copy 128 KiB for each argv
	 * string whose page is followed by more stack (and 4 KiB for a path
	 * was 7% of ward's time opening files).  A read that stops at an
	 * unmapped page returns what it got, so a string that ends before one
	 * is still read whole.
	 */
	size_t first = 4096 - (addr & 4095), got = 0;
	if (first > 256)
		first = 256;
	char *nul = NULL;

	if (addr == 0)
		return -EFAULT;
	for (int round = 0; round < 2 && got < len && nul == NULL; round++) {
		size_t want = round == 0 && first < len ? first : len - got;
		struct iovec local = { buf + got, want };
		struct iovec remote = { (void *)(uintptr_t)(addr + got), want };
		ssize_t n = process_vm_readv(r->tid, &local, 1, &remote, 1, 0);
		if (n <= 0) {
			if (got == 0)
				return -EFAULT;
			break;
		}
		nul = memchr(buf + got, '\0', (size_t)n);
		got += (size_t)n;
		if ((size_t)n < want)
			break; /* an unmapped page follows */
	}
	if (!r->batch_reads && !req_valid(r))
		return -ESRCH;
	if (nul == NULL)
		return got == len ? -ENAMETOOLONG : -EFAULT;
	note_read(r, addr, buf, (size_t)(nul - buf) + 1);
	return (int)(nul - buf);
}

int mem_write(struct req *r, uint64_t addr, const void *buf, size_t len)
{
	struct iovec local = { (void *)buf, len }, remote = { (void *)(uintptr_t)addr, len };

	if (!req_valid(r))
		return -ESRCH;
	return process_vm_writev(r->tid, &local, 1, &remote, 1, 0) == (ssize_t)len ? 0 : -EFAULT;
}

int agent_fd(struct req *r, int n, int *fd)
{
	char path[64];

	if (n == AT_FDCWD) {
		snprintf(path, sizeof(path), "/proc/%d/cwd", r->tid);
	} else if (n < 0) {
		return -EBADF;
	} else {
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", r->tid, n);
		r->hop_tid = r->tid;
		r->hop_fd = n;
	}
	*fd = open(path, O_PATH | O_CLOEXEC);
	if (*fd < 0)
		return errno == ENOENT ? -EBADF : -errno;
	/* The thread id could name another thread by now: check it is still ours. */
	if (!req_valid(r)) {
		close(*fd);
		*fd = -1;
		return -ESRCH;
	}
	return 0;
}

/*
 * fdinfo's flags, mount and inode (the inode: 5.14 and later, unless
 * WARD_KERNEL_FEATURES masks it): which of them it had (bits 1, 2, 4).
 */
static int read_fdinfo(pid_t tid, int fd, struct fdinfo *fi)
{
	char path[64], line[128];
	int have = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/fdinfo/%d", tid, fd);
	if ((f = fopen(path, "re")) == NULL)
		return -errno;
	while (fgets(line, sizeof(line), f) != NULL) {
		if (strncmp(line, "flags:", 6) == 0)
			have |= sscanf(line + 6, "%llo", &fi->flags) == 1 ? 1 : 0;
		else if (strncmp(line, "mnt_id:", 7) == 0)
			have |= sscanf(line + 7, "%llu", &fi->mnt_id) == 1 ? 2 : 0;
		else if (strncmp(line, "ino:", 4) == 0 && S->feat.fdinfo_ino)
			have |= sscanf(line + 4, "%llu", &fi->ino) == 1 ? 4 : 0;
	}
	fclose(f);
	return have;
}

int agent_fdinfo(pid_t tid, int fd, struct fdinfo *fi)
{
	char path[64];
	struct fdinfo again;
	struct stat st;
	int have = read_fdinfo(tid, fd, fi);

	if (have < 0 || have == 7)
		return have < 0 ? have : 0;
	if (have != 3)
		return -EIO;
	/*
	 * Before Linux 5.14 fdinfo names no inode: the object's own, through
	 * the fd's link, and fdinfo read again around it unchanged, so that
	 * all three are of one open file (an fd moved to another file in
	 * between changes its flags or mount, or is refused).
	 */
	snprintf(path, sizeof(path), "/proc/%d/fd/%d", tid, fd);
	if (stat(path, &st) < 0)
		return -errno;
	if (read_fdinfo(tid, fd, &again) != 3 || again.flags != fi->flags ||
	    again.mnt_id != fi->mnt_id)
		return -EIO;
	fi->ino = st.st_ino;
	return 0;
}

int agent_umask(struct req *r, mode_t *mask)
{
	unsigned gen;
	int rc = 0;

	/* Cached for the caller's fs group since its last umask(2) (proc.c, note.c). */
	if (!proc_umask_get(r->tid, mask, &gen)) {
		rc = proc_read_umask(r->tid, mask);
		if (rc == 0 && !req_valid(r))
			rc = -ESRCH;
		if (rc == 0)
			proc_umask_put(r->tid, *mask, gen);
	}
	/* This worker's fs is its own (unshare(CLONE_FS) in notify.c). */
	if (rc == 0)
		umask(*mask);
	return rc;
}
