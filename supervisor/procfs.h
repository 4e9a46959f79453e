/*
 * procfs.h - reading /proc: a task's status, stat and maps, the lines of a
 * /proc file, and whether a /proc directory is a task of the session's.
 */
#ifndef WARD_PROCFS_H
#define WARD_PROCFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/*
 * A path ward found inside another process's /proc directory: it is
 * refused without a walk, and `real` holds the lexical path for the
 * decision.  Not an errno: it never reaches the agent.
 */
#define E_FOREIGN_PROC 4096
/* The tracer must fetch the agent's fd first (mem.h, agent_takefd): never an answer. */
#define E_FETCH 4097

/* The real path of an fd of ours, as the policy sees it (from /proc/self/fd). */
int fd_real_path(int fd, char *out, size_t len);
/* Open the object behind an fd of ours (an O_PATH one) anew, with flags. */
int fd_reopen(int fd, int flags);
/* True when fd is on a procfs mount (or its filesystem cannot be told). */
bool is_procfs(int fd);
/* True for fd being the root directory of a procfs mount. */
bool is_proc_root(int fd);
/*
 * Before Linux 5.8 statx tells no mount id (STATX_MNT_ID) and no mount
 * root (STATX_ATTR_MOUNT_ROOT): both are read from /proc then
 * (fdinfo's mnt_id, mountinfo's mount point).  Set by run.c where the
 * kernel lacks them, or WARD_KERNEL_FEATURES masks them.
 */
extern bool procfs_no_statx_mnt;
/*
 * The mount id of fd: statx's (5.8), or before, /proc/self/fdinfo's.  0,
 * or -1 when it cannot be told (an internal mount's id, a memfd's, is 0).
 */
int mount_id(int fd, uint64_t *id);
/* The same, 0 when it cannot be told. */
uint64_t mount_id_of(int fd);
/*
 * The filesystem type of fd's mount, as ward's mountinfo names it ("proc",
 * "tmpfs", "9p"): 0, or -errno (-EACCES: no such mount in ward's view).
 */
int mount_fstype(int fd, char *type, size_t len);
/*
 * -E_FOREIGN_PROC when dir, a directory in a procfs, is the directory of a
 * task not of the session (proc_session_dir), with real set to /proc/PID
 * and rest, for the decision; 1 when it is a task's of the session; 0 when
 * it is no task's.
 */
int proc_foreign_task(int dir, const char *rest, char *real, size_t reallen);
/*
 * -E_FOREIGN_PROC when obj is in a procfs (any mount of one, or a part of
 * one bound elsewhere) and in the part of a task not of the session, with
 * real set to obj's path and rest; 0 when it is not; -errno.
 */
int proc_foreign_obj(int obj, const char *rest, char *real, size_t reallen);
/* /proc/PID, an O_PATH directory fd (-1 with errno when it cannot be opened). */
int proc_dir_open(pid_t pid);
/* A task's thread group and parent as /proc/TID/status says now (tid and 0 if unreadable). */
void proc_status_ids(pid_t tid, pid_t *tgid, pid_t *ppid);
/* A task's process group, from /proc/TID/stat (-1: gone). */
pid_t proc_pgrp_of(pid_t tid);
/*
 * dir, a directory in a procfs: 1 when it is a task's (its status has a
 * TracerPid), with the fields asked for; 0 when it is no task's; -errno.
 */
int proc_task_status(int dir, pid_t *pid, pid_t *tracer, char *state, pid_t *ppid);
/* True when dir, a /proc/PID directory, is a task that ward traces. */
bool proc_traced_dir(int dir);
/* ...or a zombie whose parent is of the session (ward has let it go). */
bool proc_session_dir(int dir);
/* proc_session_dir() of /proc/PID. */
bool proc_session_pid(pid_t pid);
/* A task's umask, from /proc/TID/status. */
int proc_read_umask(pid_t tid, mode_t *mask);
/* Fields of dir's stat (state, parent, process group); -1 when it cannot be read. */
int proc_stat_at(int dir, char *state, pid_t *ppid, pid_t *pgrp);
/*
 * Each line of the /proc file fd, whole, to fn (NUL-terminated, without
 * its newline); a line longer than buf (size bytes) goes to fn once, cut
 * (whole false), and the rest of it is skipped: nothing is read from the
 * middle of a line, where a name made to look like a line would be taken
 * for one (names cannot hold a newline: the kernel writes "\012").  fn
 * returns nonzero to stop, and that is returned; else 0 at the end, or
 * -errno.
 */
int proc_lines(int fd, char *buf, size_t size, int (*fn)(char *line, bool whole, void *arg),
	       void *arg);
/*
 * The files mapped at addresses of pid's memory (0: ward's own), by the
 * device and inode /proc/PID/maps shows, in one read of it: each hit's
 * found says whether anything is mapped at its addr.  0 or -errno.
 */
struct maps_hit {
	uint64_t addr;	      /* the address looked up, or... */
	bool by_file;	      /* ...the mapping of the file (dev, ino, name) at offset 0 */
	dev_t dev;	      /* the file mapped there (given, when by_file) */
	ino_t ino;
	uint64_t name;	      /* a hash of the name maps shows for it */
	uint64_t start, end;  /* the mapping */
	bool found;
};
int proc_maps_find(pid_t pid, struct maps_hit *h, int n);
/* The same through fd, a maps file open (it may be asked again). */
int proc_maps_find_fd(int fd, struct maps_hit *h, int n);

#endif
