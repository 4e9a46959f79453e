/*
 * test_resolve.c - ward's path walk (supervisor/resolve.c), on requests of
 * an agent of the test's own.
 *
 * A child of the test is the agent: it stands in a tree of the test's
 * (its cwd), holds a dirfd into it and one on /proc/1, installs a filter
 * that notifies getppid, hands the test the listener and calls getppid,
 * which waits in the notification.  The test PTRACE_SEIZEs it (a task of
 * the session is one ward traces), receives that notification, and walks
 * paths for it with resolve() as a handler would: "self" is the agent,
 * relative paths start at its cwd or dirfd, another process's /proc is
 * refused unwalked.  The request is real; only refuse() (decide.c, which
 * would log) is the test's own.
 */
#include "compat.h"
#include "mem.h"
#include "notify.h"
#include "proc.h"
#include "procfs.h"
#include "resolve.h"
#include "session.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/filter.h>
#include <linux/magic.h>
#include <linux/seccomp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdnoreturn.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include "degraded.h"

#include <setjmp.h>
#include <cmocka.h>

#define AGENT_DIRFD 10	/* the agent's fd of BASE/dir */
#define AGENT_PROC1 11	/* the agent's fd of /proc/1, another process's directory */
#define AGENT_FILEFD 12	/* the agent's O_PATH fd of BASE/dir/file */

/* decide.c's refusal, which logs: here it only says why. */
int refuse(struct req *r, int err, const char *why)
{
	r->dec.reason = why;
	return -err;
}

/* degraded.c's, never reached: the test's session is not degraded. */
bool degraded_alive(uint64_t id)
{
	(void)id;
	return false;
}

int degraded_fetched(struct req *r, int n)
{
	(void)r;
	(void)n;
	return -EBADF;
}

static char base[PATH_MAX]; /* the tree, real path */
static pid_t agent;
static struct session session;
static struct seccomp_notif notif;
static struct seccomp_notif_resp resp;
static struct req req;

static void make_tree(void)
{
	char tmpl[] = "/tmp/ward-test-resolve.XXXXXX", path[PATH_MAX + 64];

	assert_non_null(mkdtemp(tmpl));
	assert_non_null(realpath(tmpl, base));
	const char *dirs[] = { "dir", "dir/sub", NULL };
	for (int i = 0; dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", base, dirs[i]);
		assert_int_equal(mkdir(path, 0700), 0);
	}
	const char *files[] = { "dir/file", "notdir", NULL };
	for (int i = 0; files[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", base, files[i]);
		int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0600);
		assert_true(fd >= 0);
		close(fd);
	}
	struct {
		const char *name, *target;
	} links[] = { { "link", "dir" }, { "loop1", "loop2" }, { "loop2", "loop1" },
		      { "dangling", "nowhere" }, { "up", "dir/sub/.." }, { NULL, NULL } };
	for (int i = 0; links[i].name; i++) {
		snprintf(path, sizeof(path), "%s/%s", base, links[i].name);
		assert_int_equal(symlink(links[i].target, path), 0);
	}
	char target[PATH_MAX + 16];
	snprintf(target, sizeof(target), "%s/dir/file", base);
	snprintf(path, sizeof(path), "%s/abs", base);
	assert_int_equal(symlink(target, path), 0);
}

/* The agent: in the tree, its fds in place, waiting in a notified getppid. */
static noreturn void agent_main(int sock)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = insns };
	char cbuf[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 'l';
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };

	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (chdir(base) < 0 || dup2(open("dir", O_PATH | O_DIRECTORY), AGENT_DIRFD) < 0 ||
	    dup2(open("/proc/1", O_PATH | O_DIRECTORY), AGENT_PROC1) < 0 ||
	    dup2(open("dir/file", O_PATH), AGENT_FILEFD) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		_exit(2);
	int listener = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				    SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
	if (listener < 0)
		_exit(3);
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_RIGHTS;
	c->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(c), &listener, sizeof(int));
	if (sendmsg(sock, &m, 0) != 1)
		_exit(4);
	close(listener);
	syscall(SYS_getppid); /* waits here, in the notification, until the test is done */
	_exit(0);
}

static int receive_fd(int sock)
{
	char cbuf[CMSG_SPACE(sizeof(int))], byte;
	struct iovec iov = { &byte, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = cbuf,
			    .msg_controllen = sizeof(cbuf) };
	int fd = -1;

	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	if (c != NULL && c->cmsg_type == SCM_RIGHTS)
		memcpy(&fd, CMSG_DATA(c), sizeof(int));
	return fd;
}

static int setup(void **state)
{
	int sv[2];

	(void)state;
	make_tree();
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv), 0);
	agent = fork();
	assert_true(agent >= 0);
	if (agent == 0) {
		close(sv[0]);
		agent_main(sv[1]);
	}
	close(sv[1]);
	S = &session;
	session.listener = receive_fd(sv[0]);
	close(sv[0]);
	assert_true(session.listener >= 0);
	/* A task of the session is one ward traces (TracerPid: this process). */
	if (ptrace(PTRACE_SEIZE, agent, 0, 0) < 0) {
		print_message("cannot trace a child here (%s): the walk's checks of /proc need it\n",
			      strerror(errno));
		kill(agent, SIGKILL);
		exit(77);
	}
	assert_int_equal(proc_add(agent, agent, getpid(), 0), 0);
	/* The agent's getppid: a real request, alive until it is answered. */
	assert_int_equal(ioctl(session.listener, SECCOMP_IOCTL_NOTIF_RECV, &notif), 0);
	assert_int_equal((pid_t)notif.pid, agent);
	req.n = &notif;
	req.resp = &resp;
	req.tid = req.tgid = agent;
	req.ppid = getpid();
	req.hop_fd = -1;
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 32];

	(void)state;
	resp = (struct seccomp_notif_resp){ .id = notif.id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE };
	ioctl(session.listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	int st;
	while (waitpid(agent, &st, __WALL) == agent && !WIFEXITED(st) && !WIFSIGNALED(st))
		ptrace(PTRACE_CONT, agent, 0, 0);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

/* resolve() of path from dirfd: its answer, and the real path and type of what it found. */
struct walked {
	int rc;
	char real[PATH_MAX];
	const char *name;
	mode_t type; /* S_IFMT of the fd's object, 0 when none */
};

static struct walked walk(int dirfd, const char *path, enum resolve_mode mode)
{
	struct walked w = { .real = "" };
	struct stat st;
	int fd = -2;

	w.rc = resolve(&req, dirfd, path, mode, &fd, w.real, sizeof(w.real), &w.name);
	if (w.rc == 0) {
		assert_true(fd >= 0);
		assert_int_equal(fstat(fd, &st), 0);
		w.type = st.st_mode & S_IFMT;
		close(fd);
	} else {
		assert_int_equal(fd, -1); /* nothing left open on a failure */
	}
	return w;
}

/* BASE followed by rest (two may be in use at once: a path and what it must lead to). */
static const char *in_base(const char *rest)
{
	static char buf[2][2 * PATH_MAX];
	static int next;
	char *b = buf[next++ % 2];
	snprintf(b, sizeof(buf[0]), "%s%s", base, rest);
	return b;
}

/* A walk that must find what is at want (a real path). */
static struct walked found(int dirfd, const char *path, enum resolve_mode mode, const char *want)
{
	struct walked w = walk(dirfd, path, mode);

	if (w.rc != 0)
		fail_msg("%s: %s", path, strerror(-w.rc));
	assert_string_equal(w.real, want);
	return w;
}

/* The number of fds this process holds, to see that a walk leaves none behind. */
static int open_fds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	assert_non_null(d);
	while (readdir(d) != NULL)
		n++;
	closedir(d);
	return n;
}

static void test_absolute(void **state)
{
	(void)state;
	struct walked w = found(AT_FDCWD, in_base("/dir/file"), RES_FINAL, in_base("/dir/file"));
	assert_int_equal(w.type, S_IFREG);

	w = found(AT_FDCWD, in_base("//dir/./sub/../file"), RES_FINAL, in_base("/dir/file"));
}

/* A relative path starts at the agent's cwd, or its dirfd: not the test's. */
static void test_relative(void **state)
{
	(void)state;
	struct walked w = found(AT_FDCWD, "dir/file", RES_FINAL, in_base("/dir/file"));

	w = found(AGENT_DIRFD, "file", RES_FINAL, in_base("/dir/file"));

	w = found(AGENT_DIRFD, "sub", RES_FINAL, in_base("/dir/sub"));
	assert_int_equal(w.type, S_IFDIR);

	/* An fd the agent does not hold. */
	w = walk(99, "file", RES_FINAL);
	assert_int_equal(w.rc, -EBADF);
}

/* Symlinks are followed by the walk, and the real path is what was found. */
static void test_symlinks(void **state)
{
	(void)state;
	struct walked w = found(AT_FDCWD, "link/file", RES_FINAL, in_base("/dir/file"));

	w = found(AT_FDCWD, "abs", RES_FINAL, in_base("/dir/file"));

	/* The link itself, not followed. */
	w = found(AT_FDCWD, "abs", RES_FINAL_NOFOLLOW, in_base("/abs"));
	assert_int_equal(w.type, S_IFLNK);

	/* ".." after a link: from where it led, as the kernel walks. */
	w = found(AT_FDCWD, "up/file", RES_FINAL, in_base("/dir/file"));
}

/* What fails, fails as the kernel would say. */
static void test_errors(void **state)
{
	char longpath[PATH_MAX + 8], longname[NAME_MAX + 8];

	(void)state;
	assert_int_equal(walk(AT_FDCWD, "loop1", RES_FINAL).rc, -ELOOP);
	assert_int_equal(walk(AT_FDCWD, "dangling", RES_FINAL).rc, -ENOENT);
	assert_int_equal(walk(AT_FDCWD, "missing/x", RES_FINAL).rc, -ENOENT);
	assert_int_equal(walk(AT_FDCWD, "notdir/x", RES_FINAL).rc, -ENOTDIR);
	assert_int_equal(walk(AT_FDCWD, "", RES_FINAL).rc, -ENOENT);

	/* "name/" must be a directory. */
	struct walked w = walk(AT_FDCWD, "dir/file/", RES_FINAL);
	assert_int_equal(w.rc, -ENOTDIR);
	assert_true(req.trailing_slash);
	w = found(AT_FDCWD, "dir/sub/", RES_FINAL, in_base("/dir/sub"));

	memset(longpath, 'a', sizeof(longpath) - 1);
	longpath[sizeof(longpath) - 1] = '\0';
	assert_int_equal(walk(AT_FDCWD, longpath, RES_FINAL).rc, -ENAMETOOLONG);
	memset(longname, 'b', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_int_equal(walk(AT_FDCWD, longname, RES_FINAL).rc, -ENAMETOOLONG);
}

/*
 * The same walks without openat2 (a kernel before 5.6, compat.c): no
 * fast path, ward's own walk alone, with the same answers; and "." of a
 * file is ENOTDIR there too, before anything is decided.
 */
static void test_slow_walk(void **state)
{
	compat_openat2_off = true;
	test_absolute(state);
	test_relative(state);
	test_symlinks(state);
	test_errors(state);
	assert_int_equal(walk(AT_FDCWD, "notdir/.", RES_FINAL).rc, -ENOTDIR);
	assert_int_equal(walk(AGENT_FILEFD, ".", RES_FINAL).rc, -ENOTDIR);
	assert_int_equal(walk(AGENT_FILEFD, "./", RES_FINAL).rc, -ENOTDIR);
	found(AT_FDCWD, "dir/sub/.", RES_FINAL, in_base("/dir/sub"));
	compat_openat2_off = false;
	assert_int_equal(walk(AGENT_FILEFD, ".", RES_FINAL).rc, -ENOTDIR);
}

/* RES_PARENT: the directory a name is to be made or removed in, and the name. */
static void test_parent(void **state)
{
	(void)state;
	struct walked w = found(AT_FDCWD, "dir/newname", RES_PARENT, in_base("/dir"));
	assert_string_equal(w.name, "newname");
	assert_int_equal(w.type, S_IFDIR);

	/* The parent through a link, the final name kept as given (a link is not followed). */
	w = found(AT_FDCWD, "link/abs", RES_PARENT, in_base("/dir"));
	assert_string_equal(w.name, "abs");

	/* "." and ".." and "/" are no name. */
	assert_int_equal(walk(AT_FDCWD, "dir/.", RES_PARENT).rc, -EINVAL);
	assert_int_equal(walk(AT_FDCWD, "dir/..", RES_PARENT).rc, -EINVAL);
	assert_int_equal(walk(AT_FDCWD, "/", RES_PARENT).rc, -EINVAL);
}

/* /proc/self, thread-self and the magic links under them are the agent's. */
static void test_proc_self(void **state)
{
	char want[64];

	(void)state;
	snprintf(want, sizeof(want), "/proc/%d", agent);
	found(AT_FDCWD, "/proc/self", RES_FINAL, want);

	snprintf(want, sizeof(want), "/proc/%d/task/%d", agent, agent);
	found(AT_FDCWD, "/proc/thread-self", RES_FINAL, want);

	/* The agent's cwd, not the test's. */
	found(AT_FDCWD, "/proc/self/cwd", RES_FINAL, base);

	/* Its fd: followed by the kernel, and remembered as the walk's hop. */
	char fdpath[64];
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d/file", AGENT_DIRFD);
	found(AT_FDCWD, fdpath, RES_FINAL, in_base("/dir/file"));
	snprintf(fdpath, sizeof(fdpath), "/proc/self/fd/%d", AGENT_DIRFD);
	found(AT_FDCWD, fdpath, RES_FINAL, in_base("/dir"));
	assert_int_equal(req.hop_fd, AGENT_DIRFD);
	assert_int_equal(req.hop_tid, agent);
}

/* Another process's /proc directory is refused without a walk, with the lexical path. */
static void test_proc_foreign(void **state)
{
	char path[64], want[64];

	(void)state;
	snprintf(path, sizeof(path), "/proc/%d/environ", getpid());
	struct walked w = walk(AT_FDCWD, path, RES_FINAL);
	assert_int_equal(w.rc, -E_FOREIGN_PROC);
	assert_string_equal(w.real, path);

	w = walk(AT_FDCWD, "/proc/1/root/etc", RES_FINAL);
	assert_int_equal(w.rc, -E_FOREIGN_PROC);
	assert_string_equal(w.real, "/proc/1/root/etc");

	/* A dirfd the agent holds there: judged as /proc/1 and what follows. */
	w = walk(AGENT_PROC1, "environ", RES_FINAL);
	assert_int_equal(w.rc, -E_FOREIGN_PROC);
	assert_string_equal(w.real, "/proc/1/environ");

	/* The agent's own, by number, is walked. */
	snprintf(path, sizeof(path), "/proc/%d/cwd", agent);
	snprintf(want, sizeof(want), "%s", base);
	w = found(AT_FDCWD, path, RES_FINAL, want);
}

/*
 * Before Linux 5.8 (procfs_no_statx_mnt) the mount id is fdinfo's and a
 * mount's root is told by its mount point: the same answers as statx's,
 * and the /proc walks above give what they give with statx.
 */
static void test_proc_without_statx_mnt(void **state)
{
	const char *dirs[] = { "/", "/proc", "/proc/self", "/proc/1", "/proc/sys", "/dev",
			       "/usr", "/tmp", base };
	uint64_t with[sizeof(dirs) / sizeof(dirs[0])];
	bool root_with[sizeof(dirs) / sizeof(dirs[0])];

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd = open(dirs[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
		assert_true(fd >= 0);
		with[i] = mount_id_of(fd);
		root_with[i] = is_proc_root(fd);
		assert_true(with[i] != 0);
		close(fd);
	}
	assert_true(root_with[1]);  /* /proc */
	assert_false(root_with[2]); /* /proc/self */
	/* An internal mount's id is 0, and told (hop_is_own compares it). */
	int m = memfd_create("t", MFD_CLOEXEC);
	uint64_t id = 1;
	assert_true(m >= 0);
	assert_int_equal(mount_id(m, &id), 0);
	procfs_no_statx_mnt = true;
	uint64_t id2 = 2;
	assert_int_equal(mount_id(m, &id2), 0);
	assert_true(id == id2);
	close(m);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		int fd = open(dirs[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
		assert_true(fd >= 0);
		assert_true(mount_id_of(fd) == with[i]);
		assert_int_equal(is_proc_root(fd), root_with[i]);
		close(fd);
	}
	test_proc_self(state);
	test_proc_foreign(state);
	procfs_no_statx_mnt = false;
}

/*
 * mount_fstype, is_procfs's answer where fstatfs has none (a symlink on 9p):
 * the type mountinfo gives each object's mount is procfs's exactly where
 * fstatfs says procfs, for directories, files and symlinks (O_PATH) in and
 * out of /proc.
 */
static void test_mount_fstype(void **state)
{
	char link[PATH_MAX];
	const char *objs[] = { "/", "/proc", "/proc/self", "/proc/self/status", "/proc/self/exe",
			       "/dev/null", "/tmp", base, link };
	(void)state;

	snprintf(link, sizeof(link), "%s/fstype-link", base);
	unlink(link);
	assert_int_equal(symlink("/nowhere", link), 0);
	for (size_t i = 0; i < sizeof(objs) / sizeof(objs[0]); i++) {
		int fd = open(objs[i], O_PATH | O_NOFOLLOW | O_CLOEXEC);
		struct statfs sf;
		char type[64];
		assert_true(fd >= 0);
		assert_int_equal(mount_fstype(fd, type, sizeof(type)), 0);
		if (fstatfs(fd, &sf) == 0)
			assert_int_equal(strcmp(type, "proc") == 0, sf.f_type == PROC_SUPER_MAGIC);
		assert_int_equal(is_procfs(fd), strncmp(objs[i], "/proc", 5) == 0);
		close(fd);
	}
	/* Too small a buffer is an error, never a cut name. */
	int fd = open("/proc", O_PATH | O_CLOEXEC);
	char tiny[3];
	assert_int_equal(mount_fstype(fd, tiny, sizeof(tiny)), -ENAMETOOLONG);
	close(fd);
	unlink(link);
}

/* agent_object: the agent's dirfd itself, and nothing left open when it is refused. */
static void test_agent_object(void **state)
{
	char real[PATH_MAX];
	int fd = -2;

	(void)state;
	assert_int_equal(agent_object(&req, AT_FDCWD, &fd, real, sizeof(real)), 0);
	assert_string_equal(real, base);
	close(fd);
	assert_int_equal(agent_object(&req, AGENT_DIRFD, &fd, real, sizeof(real)), 0);
	assert_string_equal(real, in_base("/dir"));
	close(fd);

	int before = open_fds();
	for (int i = 0; i < 20; i++) {
		fd = -2;
		assert_int_equal(agent_object(&req, AGENT_PROC1, &fd, real, sizeof(real)),
				 -E_FOREIGN_PROC);
		assert_string_equal(real, "/proc/1");
		assert_int_equal(fd, -1);
	}
	assert_int_equal(open_fds(), before);
}

/* Once the request is answered, nothing more is walked for it. */
static void test_gone(void **state)
{
	(void)state;
	struct seccomp_notif_resp r = { .id = notif.id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE };
	assert_int_equal(ioctl(session.listener, SECCOMP_IOCTL_NOTIF_SEND, &r), 0);
	int st;
	while (waitpid(agent, &st, __WALL) == agent && !WIFEXITED(st) && !WIFSIGNALED(st))
		ptrace(PTRACE_CONT, agent, 0, 0);
	struct walked w = walk(AT_FDCWD, "dir/file", RES_FINAL);
	assert_true(w.rc == -ESRCH || w.rc == -EBADF || w.rc == -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absolute),    cmocka_unit_test(test_relative),
		cmocka_unit_test(test_symlinks),    cmocka_unit_test(test_errors),
		cmocka_unit_test(test_parent),	    cmocka_unit_test(test_proc_self),
		cmocka_unit_test(test_proc_foreign), cmocka_unit_test(test_agent_object),
		cmocka_unit_test(test_slow_walk),   cmocka_unit_test(test_proc_without_statx_mnt),
		cmocka_unit_test(test_mount_fstype), cmocka_unit_test(test_gone),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
