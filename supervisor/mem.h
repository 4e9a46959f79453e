/*
 * mem.h - the agent as ward reaches it: its memory (process_vm_readv),
 * its descriptors (pidfd_getfd, /proc/TID/fd) and whether the request it
 * waits in is still alive (SECCOMP_IOCTL_NOTIF_ID_VALID).
 *
 * Every read of the agent's memory is followed by a check that the request
 * is alive: the thread may have died and its id been taken by another.
 */
#ifndef WARD_MEM_H
#define WARD_MEM_H

#include <fcntl.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

/* System calls glibc 2.36 has no wrapper or number for. */
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL
#endif

struct req;

/*
 * The notification r serves is still waiting for its answer (its caller
 * alive).  When not, r->gone is set: what the request did is not kept
 * for a restart (restart.c).
 */
bool req_valid(struct req *r);
/*
 * The same, without marking r gone: for a check after which the request
 * goes on whatever it says (whether a hint read is the caller's).
 * req_valid there would mark the call gone while the handler went on to
 * perform it: its answer, lost to the signal, would not be kept, and the
 * kernel's restart performed again (EEXIST for an O_EXCL create).
 */
bool req_alive(const struct req *r);
/*
 * A hash of bytes read from the agent, fed in pieces (the same bytes in
 * any pieces hash the same), to tell a restarted call by what it read.
 */
struct mhash {
	uint64_t h, carry, total;
	unsigned n;
};
void mhash_add(struct mhash *m, const void *p, size_t len);
uint64_t mhash_end(const struct mhash *m);
/* Read len bytes at addr: 0, -EFAULT, or -ESRCH when the request is gone. */
int mem_read(struct req *r, uint64_t addr, void *buf, size_t len);
/* Read a NUL-terminated string: -EFAULT, -ENAMETOOLONG, -ESRCH, or its length. */
int mem_read_str(struct req *r, uint64_t addr, char *buf, size_t len);
/* Write len bytes at addr (the answer of an emulated call): 0, -EFAULT or -ESRCH. */
int mem_write(struct req *r, uint64_t addr, const void *buf, size_t len);
/*
 * A pidfd for the calling thread itself (PIDFD_THREAD, Linux 6.9), so that
 * pidfd_getfd reads its own fd table (a thread may have one of its own),
 * or for its process before 6.9 (agent_getfd checks what it takes then);
 * -errno on failure.
 */
int agent_pidfd(struct req *r);
/*
 * pidfd_getfd of the agent's fd agentfd through pidfd (agent_pidfd's):
 * ward's copy, which is the calling thread's own fd agentfd, or -EBADF
 * (no such fd), -ESRCH (the request is gone), -EACCES (refused, with the
 * reason: the thread's fd cannot be reached before 6.9), another -errno.
 */
int agent_getfd(struct req *r, int pidfd, int agentfd);
/*
 * ward's copy of the agent's fd agentfd, the calling thread's own: the
 * same open file, or -EBADF, -ESRCH, -EACCES (refused, with the reason),
 * another -errno, or -E_FETCH: --degraded on a kernel without
 * pidfd_getfd, where the tracer must fetch it first (degraded.c; the
 * handler passes the code on, nothing decided).
 */
int agent_takefd(struct req *r, int agentfd);
/* The same, any failure but -EACCES, -ESRCH and -E_FETCH made -EBADF. */
int agent_copy_fd(struct req *r, int agentfd);
/* Whether ward's fd mine is the open file the thread tid has as fd n. */
bool agent_same_file(pid_t tid, int n, int mine);
/*
 * An O_PATH fd for the agent's fd n (AT_FDCWD: its cwd), through
 * /proc/TID; an fd n is remembered as the walk's hop (r->hop_tid, hop_fd).
 */
int agent_fd(struct req *r, int n, int *fd);
/* What /proc/TID/fdinfo/FD says of an fd of the agent's. */
struct fdinfo {
	unsigned long long flags, mnt_id, ino;
};
int agent_fdinfo(pid_t tid, int fd, struct fdinfo *fi);
/*
 * Read the agent's umask (kept for its fs group, proc.c, or from
 * /proc/TID/status) and make it the calling worker's, so that files are
 * created with exactly the agent's modes (workers have an fs of their own).
 */
int agent_umask(struct req *r, mode_t *mask);

#endif
