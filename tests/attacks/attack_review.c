/*
 * attack_review.c - the bypasses a code review of the supervisor found.
 *
 *   untraced   clone(CLONE_UNTRACED): a child the tracer never sees, then
 *              exec of a program denied to exec (bin/mycat) from it
 *   cached     openat2(RESOLVE_CACHED) of /proc/PID/fd/0 of a process
 *              outside the session (a pipe holding the secret)
 *   cwdhop     chdir(/proc/PID), then open /proc/self/cwd/fd/0: a magic
 *              link hop into another process's /proc directory
 *   hooks      rename a protected directory away and back to write in it
 *              (the default profile write-protects what is in .git/hooks)
 *   exchange   renameat2(public/x, secret/x, RENAME_EXCHANGE): the secret
 *              moves to a readable name
 *   pgrpsig    pidfd_send_signal(own pidfd, 0, PIDFD_SIGNAL_PROCESS_GROUP)
 *   clonens    clone() with each CLONE_NEW* flag: a process in a namespace
 *              of its own (as unshare, which is refused), where ward's
 *              pids, SysV ids and paths would not be the process's
 *   btrfs      on a btrfs mounted at bt/ by the driver, whose subvolume
 *              bt/vol holds bt/vol/secret/x (read denied): a snapshot of
 *              bt/vol gives it a new, readable name; TREE_SEARCH reads the
 *              filesystem's trees raw (where small files live inline)
 *   xfs        on an XFS mounted at xfs/ by the driver, holding
 *              xfs/secret/x (read denied): XFS_IOC_PATH_TO_HANDLE, then
 *              XFS_IOC_OPEN_BY_HANDLE (open_by_handle_at by another door)
 *   uffd       open /dev/userfaultfd and USERFAULTFD_IOC_NEW: the
 *              userfaultfd that the userfaultfd() call is refused for
 *   inotify    inotify_add_watch on secret/ (read denied): the names and
 *              times of what is made, opened, read and written there; a
 *              watch on public/ must work (the control)
 *   freeze     FIFREEZE on a file of ext4/ (a loop mount the driver made,
 *              root): every writer on that filesystem would wait, outside
 *              the session too (thawed again at once if it worked)
 *   fsioctl    the ioctls that change a whole filesystem (shutdown, grow
 *              and resize, its UUID, XFS's reserved blocks and error
 *              injection), each on a pipe: a pipe has none of them, so the
 *              kernel answers ENOTTY to each one it is let see, with no
 *              effect; refused, they are EPERM (try-syscall style)
 */
#include "attack.h"

#include <linux/btrfs.h>
#include <linux/fs.h>
#include <sys/inotify.h>
#include <linux/openat2.h>
#include <linux/userfaultfd.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <signal.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#ifndef PIDFD_SIGNAL_PROCESS_GROUP
#define PIDFD_SIGNAL_PROCESS_GROUP 4
#endif

static char stack[256 * 1024];

static int untraced_child(void *arg)
{
	(void)arg;
	char *argv[] = { "mycat", SECRET, NULL };
	execv("bin/mycat", argv);
	_exit(errno == EACCES ? 98 : 99);
}

static void mode_untraced(void)
{
	pid_t pid = clone(untraced_child, stack + sizeof(stack), CLONE_UNTRACED | SIGCHLD, NULL);
	if (pid < 0) {
		refused("clone(CLONE_UNTRACED)", errno, EPERM);
		return;
	}
	int st;
	waitpid(pid, &st, 0);
	if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
		leak("clone(CLONE_UNTRACED) + exec of an exec-denied program", "ran", 3);
	else if (WIFEXITED(st) && WEXITSTATUS(st) == 98)
		blocked("the untraced child's exec of bin/mycat was refused (EACCES)");
	else
		missed("the untraced child: %s, not the policy's EACCES", wstatus(st));
}

static void mode_clonens(void)
{
	static const struct {
		unsigned long flag;
		const char *name;
	} ns[] = {
		{ CLONE_NEWNS, "CLONE_NEWNS" },	    { CLONE_NEWCGROUP, "CLONE_NEWCGROUP" },
		{ CLONE_NEWUTS, "CLONE_NEWUTS" },   { CLONE_NEWIPC, "CLONE_NEWIPC" },
		{ CLONE_NEWUSER, "CLONE_NEWUSER" }, { CLONE_NEWPID, "CLONE_NEWPID" },
		{ CLONE_NEWNET, "CLONE_NEWNET" },
	};
	for (size_t i = 0; i < sizeof(ns) / sizeof(ns[0]); i++) {
		/* fork-like: no new stack, the child goes on from here */
		fflush(stdout);
		long pid = syscall(SYS_clone, ns[i].flag | SIGCHLD, 0, 0, 0, 0);
		if (pid == 0)
			_exit(0);
		if (pid < 0) {
			refused(ns[i].name, errno, EPERM);
			continue;
		}
		waitpid((pid_t)pid, NULL, 0);
		leak("clone() made a process in a namespace of its own", ns[i].name,
		     strlen(ns[i].name));
	}
}

/* A process outside the session whose stdin is a pipe holding the secret. */
static pid_t victim(void)
{
	const char *pid = getenv("VICTIM_PID");
	return pid ? (pid_t)atoi(pid) : 0;
}

static void mode_cached(void)
{
	char path[64];
	pid_t v = victim();
	if (v <= 0) {
		setup_failed("no victim");
		return;
	}
	/*
	 * The victim keeps the secret in a few of its fds: try them all.  As a
	 * program does, on EAGAIN (not in the cache: /proc's entries never
	 * are) again without RESOLVE_CACHED.
	 */
	for (int n = 0; n < 16; n++) {
		snprintf(path, sizeof(path), "/proc/%d/fd/%d", v, n);
		struct stat st;
		if (lstat(path, &st) < 0)
			continue; /* no such fd */
		struct open_how how = { .flags = O_RDONLY | O_NONBLOCK, .resolve = RESOLVE_CACHED };
		int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
		if (fd < 0 && errno == EAGAIN) {
			how.resolve = 0;
			fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
		}
		if (fd < 0) {
			refused("openat2(/proc/VICTIM/fd/N, RESOLVE_CACHED)", errno, openat2_err(EACCES));
			continue;
		}
		if (!check_fd("openat2(RESOLVE_CACHED) of another process's fd", fd))
			leak("openat2(RESOLVE_CACHED) of another process's fd", "opened", 6);
		close(fd);
	}
}

static void mode_cwdhop(void)
{
	char path[64];
	pid_t v = victim();
	if (v <= 0) {
		setup_failed("no victim");
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d", v);
	if (chdir(path) < 0)
		setup_failed("chdir(/proc/VICTIM), which is not supervised");
	for (int n = 0; n < 16; n++) {
		snprintf(path, sizeof(path), "/proc/self/cwd/fd/%d", n);
		int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (fd < 0) {
			if (errno != ENOENT)
				refused("/proc/self/cwd/fd/N from another process's /proc", errno, EACCES);
			continue;
		}
		if (!check_fd(path, fd))
			leak("/proc/self/cwd/fd/N into another process", "opened", 6);
		close(fd);
	}
}

static void mode_hooks(void)
{
	if (mkdir(".git", 0755) < 0 && errno != EEXIST)
		setup_failed("mkdir .git");
	if (mkdir(".git/hooks", 0755) < 0 && errno != EEXIST)
		setup_failed("mkdir .git/hooks (the driver makes it)");
	if (rename(".git/hooks", ".git/h2") < 0) {
		refused("rename(.git/hooks, .git/h2)", errno, EACCES);
		return;
	}
	int fd = open(".git/h2/pre-commit", O_WRONLY | O_CREAT, 0755);
	if (fd >= 0)
		close(fd);
	if (rename(".git/h2", ".git/hooks") == 0 && access(".git/hooks/pre-commit", F_OK) == 0)
		leak("a hook planted by renaming .git/hooks away and back", "planted", 7);
	else
		blocked("the hook did not end up in .git/hooks");
}

static void mode_exchange(void)
{
	if (syscall(SYS_renameat2, AT_FDCWD, PUBLIC, AT_FDCWD, SECRET, 2 /* RENAME_EXCHANGE */) < 0) {
		refused("renameat2(public/x, secret/x, RENAME_EXCHANGE)", errno, EACCES);
		return;
	}
	try_read("public/x after RENAME_EXCHANGE with secret/x", AT_FDCWD, PUBLIC, O_RDONLY);
}

static void mode_pgrpsig(void)
{
	/* A group of its own (allowed: it reaches no one else), whose leader the pidfd names. */
	if (setpgid(0, 0) < 0)
		setup_failed("setpgid(0, 0)");
	int self = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (self < 0 && errno == ENOSYS && kernel_lacks("pidfd_open")) {
		absent("pidfd_open: ENOSYS: this kernel lacks the call (5.3), so pidfd_send_signal has no pidfd");
		return;
	}
	if (self < 0) {
		setup_failed("pidfd_open");
		return;
	}
	if (syscall(SYS_pidfd_send_signal, self, 0, NULL, PIDFD_SIGNAL_PROCESS_GROUP) == 0)
		leak("pidfd_send_signal(PIDFD_SIGNAL_PROCESS_GROUP)", "sent", 4);
	else
		refused("pidfd_send_signal(PIDFD_SIGNAL_PROCESS_GROUP)", errno, EPERM);
	close(self);
}

static void mode_btrfs(void)
{
	struct btrfs_ioctl_vol_args_v2 snap = { 0 };
	int vol = open("bt/vol", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int bt = open("bt", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (vol < 0 || bt < 0)
		setup_failed("open bt/vol, bt (the driver mounts a btrfs there)");
	try_read("control: bt/vol/secret/x by its own name", AT_FDCWD, "bt/vol/secret/x", O_RDONLY);
	snap.fd = vol;
	snprintf(snap.name, sizeof(snap.name), "snap");
	if (ioctl(bt, BTRFS_IOC_SNAP_CREATE_V2, &snap) < 0)
		refused("BTRFS_IOC_SNAP_CREATE_V2 of bt/vol", errno, EPERM);
	else
		try_read("a snapshot's bt/snap/secret/x", AT_FDCWD, "bt/snap/secret/x", O_RDONLY);

	/* The filesystem's trees raw: small files live inline there. */
	static struct btrfs_ioctl_search_args search;
	sync();
	search.key.tree_id = 0; /* the tree of the subvolume of the fd */
	search.key.max_objectid = (__u64)-1;
	search.key.max_offset = (__u64)-1;
	search.key.max_transid = (__u64)-1;
	search.key.min_type = 0;
	search.key.max_type = 255;
	search.key.nr_items = 4096;
	if (ioctl(vol, BTRFS_IOC_TREE_SEARCH, &search) < 0)
		refused("BTRFS_IOC_TREE_SEARCH of bt/vol", errno, EPERM);
	else if (is_secret(search.buf, sizeof(search.buf)))
		leak("BTRFS_IOC_TREE_SEARCH", "(secret in the tree)", 20);
	else
		missed("BTRFS_IOC_TREE_SEARCH answered, without the secret in its first page");
	close(vol);
	close(bt);
}

/* XFS's handle request (xfs_fs.h, which Debian ships in xfslibs-dev). */
struct xfs_handlereq {
	uint32_t fd;
	void *path;
	uint32_t oflags;
	void *ihandle;
	uint32_t ihandlen;
	void *ohandle;
	uint32_t *ohandlen;
};
#define XFS_PATH_TO_HANDLE _IOWR('X', 105, struct xfs_handlereq)
#define XFS_OPEN_BY_HANDLE _IOWR('X', 107, struct xfs_handlereq)

static void mode_xfs(void)
{
	char handle[128];
	uint32_t hlen = sizeof(handle);
	struct xfs_handlereq req = { .path = "xfs/secret/x", .ohandle = handle, .ohandlen = &hlen };
	int dir = open("xfs", O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dir < 0)
		setup_failed("open xfs (the driver mounts an XFS there)");
	try_read("control: xfs/secret/x by its own name", AT_FDCWD, "xfs/secret/x", O_RDONLY);
	if (ioctl(dir, XFS_PATH_TO_HANDLE, &req) < 0) {
		refused("XFS_IOC_PATH_TO_HANDLE", errno, EPERM);
		close(dir);
		return;
	}
	struct xfs_handlereq open_req = { .ihandle = handle, .ihandlen = hlen, .oflags = O_RDONLY };
	int fd = ioctl(dir, XFS_OPEN_BY_HANDLE, &open_req);
	if (fd < 0)
		refused("XFS_IOC_OPEN_BY_HANDLE", errno, EPERM);
	else if (!check_fd("XFS_IOC_OPEN_BY_HANDLE of xfs/secret/x", fd))
		missed("XFS_IOC_OPEN_BY_HANDLE opened something else");
	if (fd >= 0)
		close(fd);
	close(dir);
}

static void mode_uffd(void)
{
	int fd = open("/dev/userfaultfd", O_RDONLY | O_CLOEXEC); /* read: the default profile allows it */
	if (fd < 0 && errno == ENOENT && kernel_lacks("/dev/userfaultfd")) {
		absent("open(/dev/userfaultfd): ENOENT: this kernel has no such device (6.1)");
		return;
	}
	if (fd < 0) {
		/* The device is root's (0600): for anyone else the kernel refuses it already. */
		refused("open(/dev/userfaultfd)", errno, EACCES);
		return;
	}
	int u = ioctl(fd, USERFAULTFD_IOC_NEW, O_CLOEXEC);
	if (u >= 0) {
		att_through = 1;
		say("LEAK: USERFAULTFD_IOC_NEW gave a userfaultfd (%d)", u);
		close(u);
	} else {
		refused("USERFAULTFD_IOC_NEW", errno, EPERM);
	}
	close(fd);
}

static void mode_inotify(void)
{
	int in = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (in < 0)
		setup_failed("inotify_init1");
	control_check(inotify_add_watch(in, "public", IN_CREATE) >= 0, "inotify_add_watch(public) works");
	int fd = open("public/made", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	char buf[4096] __attribute__((aligned(8)));
	/* The event is queued as the file is made: no wait. */
	control_check(read(in, buf, sizeof(buf)) > 0, "the watch on public/ reports what is made there");
	static const char *const names[] = { "secret", SECRET, "./secret/../secret" };
	for (size_t i = 0; i < 3; i++) {
		if (inotify_add_watch(in, names[i], IN_ALL_EVENTS) >= 0)
			leak("inotify_add_watch on a read-denied object", names[i], strlen(names[i]));
		else
			refused("inotify_add_watch(a read-denied object)", errno, EACCES);
	}
	close(in);
}

static void mode_fsioctl(void)
{
	static const struct {
		const char *name;
		unsigned long cmd;
	} calls[] = {
		{ "FS_IOC_SHUTDOWN", _IOR('X', 125, __u32) },
		{ "XFS_IOC_FSGROWFSDATA", _IOW('X', 110, char[16]) },
		{ "XFS_IOC_FSGROWFSLOG", _IOW('X', 111, char[8]) },
		{ "XFS_IOC_FSGROWFSRT", _IOW('X', 112, char[16]) },
		{ "XFS_IOC_SET_RESBLKS", _IOWR('X', 114, char[16]) },
		{ "XFS_IOC_ERROR_INJECTION", _IOW('X', 116, char[8]) },
		{ "XFS_IOC_ERROR_CLEARALL", _IOW('X', 117, char[8]) },
		{ "EXT4_IOC_GROUP_EXTEND", _IOW('f', 7, unsigned long) },
		{ "EXT4_IOC_GROUP_ADD", _IOW('f', 8, char[48]) },
		{ "EXT4_IOC_RESIZE_FS", _IOW('f', 16, __u64) },
		{ "EXT4_IOC_SETFSUUID", _IOW('f', 44, char[8]) },
	};
	int p[2];
	char buf[64] = { 0 };

	if (pipe(p) < 0)
		setup_failed("pipe");
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		int rc = ioctl(p[0], calls[i].cmd, buf);
		if (rc < 0 && errno == EPERM) {
			blocked("%s: %s", calls[i].name, strerror(errno));
		} else {
			att_through = 1;
			say("LEAK: %s reached the kernel (%s)", calls[i].name,
			    rc < 0 ? strerror(errno) : "it succeeded");
		}
	}
	close(p[0]);
	close(p[1]);
}

static void mode_freeze(void)
{
	int fd = open("ext4", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		setup_failed("open ext4/ (the driver mounts it)");
	int arg = 0;
	if (ioctl(fd, FIFREEZE, &arg) == 0) {
		att_through = 1;
		say("LEAK: FIFREEZE froze the filesystem");
		ioctl(fd, FITHAW, &arg);
	} else {
		refused("FIFREEZE", errno, EPERM);
	}
	if (ioctl(fd, FITHAW, &arg) == 0) {
		att_through = 1;
		say("LEAK: FITHAW was let through");
	} else {
		refused("FITHAW", errno, EPERM);
	}
	close(fd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "untraced") == 0)
		mode_untraced();
	else if (strcmp(mode, "cached") == 0)
		mode_cached();
	else if (strcmp(mode, "clonens") == 0)
		mode_clonens();
	else if (strcmp(mode, "cwdhop") == 0)
		mode_cwdhop();
	else if (strcmp(mode, "hooks") == 0)
		mode_hooks();
	else if (strcmp(mode, "exchange") == 0)
		mode_exchange();
	else if (strcmp(mode, "pgrpsig") == 0)
		mode_pgrpsig();
	else if (strcmp(mode, "btrfs") == 0)
		mode_btrfs();
	else if (strcmp(mode, "uffd") == 0)
		mode_uffd();
	else if (strcmp(mode, "xfs") == 0)
		mode_xfs();
	else if (strcmp(mode, "freeze") == 0)
		mode_freeze();
	else if (strcmp(mode, "fsioctl") == 0)
		mode_fsioctl();
	else if (strcmp(mode, "inotify") == 0)
		mode_inotify();
	else
		setup_failed("unknown mode");
	return finish();
}
