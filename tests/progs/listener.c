/*
 * listener PROG [ARG...]: run PROG under a seccomp filter whose listener
 * (this process) is told of every open, openat, openat2, connect and
 * execve and lets each continue: a stand-in for a container runtime that
 * uses user notification, under which ward gets EBUSY for a listener of
 * its own and must run --degraded at every call's entry
 * (tests/integration/degraded.sh).  Prints "listener: N calls" to stderr
 * at the end, and exits with PROG's status.
 */
#include "common.h"

#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#define NOTIFY(nr)                                                   \
	BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1),             \
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF)

static int install(void)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		NOTIFY(SYS_open),
		NOTIFY(SYS_openat),
		NOTIFY(SYS_openat2),
		NOTIFY(SYS_connect),
		NOTIFY(SYS_execve),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return -1;
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
			    &prog);
}

int main(int argc, char **argv)
{
	int sv[2];

	if (argc < 2 || socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 2;
	pid_t pid = fork();
	if (pid < 0)
		return 2;
	if (pid == 0) {
		close(sv[0]);
		int fd = install();
		char go;
		/* Its number, for the parent's pidfd_getfd; then the parent's word that it has it. */
		if (fd < 0 || write(sv[1], &fd, sizeof(fd)) != sizeof(fd) || read(sv[1], &go, 1) != 1)
			_exit(2);
		close(fd);
		close(sv[1]);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	close(sv[1]);
	int n_fd, pfd, fd;
	if (read(sv[0], &n_fd, sizeof(n_fd)) != sizeof(n_fd) ||
	    (pfd = (int)syscall(SYS_pidfd_open, pid, 0)) < 0 ||
	    (fd = (int)syscall(SYS_pidfd_getfd, pfd, n_fd, 0)) < 0 || write(sv[0], "g", 1) != 1)
		return 2;
	close(pfd);
	long calls = 0;
	struct seccomp_notif n;
	struct seccomp_notif_resp resp;
	for (;;) {
		memset(&n, 0, sizeof(n));
		if (ioctl(fd, SECCOMP_IOCTL_NOTIF_RECV, &n) < 0) {
			if (errno == EINTR || errno == ENOENT) {
				int st;
				if (waitpid(pid, &st, WNOHANG) == pid) {
					fprintf(stderr, "listener: %ld calls\n", calls);
					return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
				}
				continue;
			}
			break;
		}
		calls++;
		memset(&resp, 0, sizeof(resp));
		resp.id = n.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
	int st;
	waitpid(pid, &st, 0);
	fprintf(stderr, "listener: %ld calls\n", calls);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}
