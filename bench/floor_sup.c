/*
 * floor_sup.c - the mechanisms ward is built on, with nothing of ward's
 * own: the floor of the agent workload under any supervisor that obeys
 * DESIGN.md's law 1 with seccomp user notification and ptrace.
 *
 *   floor_sup [--continue | --ptrace-only] COMMAND [ARG...]
 *
 * The command runs under a seccomp filter that notifies open, openat and
 * creat, execve and execveat, and under ptrace with the options ward uses
 * (EXITKILL, TRACEFORK, TRACEVFORK, TRACECLONE, TRACEEXEC).  Two threads a
 * CPU answer the notifications:
 *   - an open: the path is read (process_vm_readv, then NOTIF_ID_VALID),
 *     the file opened here with the caller's flags (a relative path from
 *     the caller's directory or dirfd, through /proc/TID/cwd or
 *     /proc/TID/fd/N) and handed over with ADDFD|SEND, as ward does;
 *   - every exec: CONTINUE (so this floor is lower than the true one: it
 *     skips the exec checks);
 * nothing is decided and nothing is logged.  The tracer resumes every
 * stop at once.  Exit status: the command's.
 *
 * Two variants take the floor apart: --continue answers every call
 * CONTINUE (what the notifications cost, without ADDFD), --ptrace-only
 * installs no filter (what the ptrace stops cost).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "fdpass.h"

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif

static int listener;
static bool all_continue;

/* The directory, path argument and flags of an open call, or -1 for "let it continue". */
static int open_args(const struct seccomp_data *d, int *dir, uint64_t *path, int *flags,
		     mode_t *mode)
{
	*dir = AT_FDCWD;
	switch (d->nr) {
	case SYS_open:
		*path = d->args[0], *flags = (int)d->args[1], *mode = (mode_t)d->args[2];
		return 0;
	case SYS_creat:
		*path = d->args[0], *flags = O_CREAT | O_WRONLY | O_TRUNC, *mode = (mode_t)d->args[1];
		return 0;
	case SYS_openat:
		*dir = (int)d->args[0];
		*path = d->args[1], *flags = (int)d->args[2], *mode = (mode_t)d->args[3];
		return 0;
	}
	return -1;
}

/*
 * Where the caller's relative path starts, as a path of ours: its working
 * directory or its dirfd, through /proc.  The least a supervisor must look
 * up for a relative open (ward takes the caller's fd itself).
 */
static int open_from(pid_t tid, int dir, const char *path, char *out, size_t len)
{
	int n;

	if (path[0] == '/')
		n = snprintf(out, len, "%s", path);
	else if (dir == AT_FDCWD)
		n = snprintf(out, len, "/proc/%d/cwd/%s", tid, path);
	else
		n = snprintf(out, len, "/proc/%d/fd/%d/%s", tid, dir, path);
	return n < 0 || (size_t)n >= len ? -1 : 0;
}

static void *serve(void *arg)
{
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;
	char path[4096], full[4096 + 64];
	(void)arg;

	for (;;) {
		memset(&req, 0, sizeof(req));
		if (ioctl(listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR)
				continue;
			struct pollfd p = { .fd = listener, .events = POLLIN };
			if (errno == ENOENT && !(poll(&p, 1, 0) == 1 && (p.revents & POLLHUP)))
				continue;
			for (;;)
				pause();
		}
		uint64_t at;
		int dir, flags;
		mode_t mode;
		if (!all_continue && open_args(&req.data, &dir, &at, &flags, &mode) == 0) {
			struct iovec local = { path, 256 }, remote = { (void *)(uintptr_t)at, 256 };
			ssize_t n = process_vm_readv((pid_t)req.pid, &local, 1, &remote, 1, 0);
			if (n <= 0) { /* a string near an unmapped page: the rest of its page */
				remote.iov_len = local.iov_len = 4096 - (at & 4095);
				n = process_vm_readv((pid_t)req.pid, &local, 1, &remote, 1, 0);
			}
			if (n > 0 && memchr(path, '\0', (size_t)n) != NULL && path[0] != '\0' &&
			    open_from((pid_t)req.pid, dir, path, full, sizeof(full)) == 0 &&
			    ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req.id) == 0) {
				int fd = open(full, flags | O_CLOEXEC, mode);
				if (fd >= 0) {
					struct seccomp_notif_addfd a = {
						.id = req.id, .flags = SECCOMP_ADDFD_FLAG_SEND, .srcfd = (__u32)fd,
						.newfd_flags = (flags & O_CLOEXEC) ? O_CLOEXEC : 0 };
					int e = ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a) < 0 ? errno : 0;
					close(fd);
					if (e == 0 || e == ENOENT)
						continue; /* handed over, or the caller is gone */
					errno = e; /* not taken (its fd table full): answered below */
				}
				memset(&resp, 0, sizeof(resp));
				resp.id = req.id;
				resp.error = -errno;
				ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
				continue;
			}
		}
		/*
		 * CONTINUE: this is the benchmark's floor, not a supervisor; it
		 * enforces nothing, so no decision rides on what it read (an open
		 * whose path it could not read, every exec).
		 * That makes the floor lower than the true one.
		 */
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	int sv[2];

	bool ptrace_only = false;

	while (argc > 1 && strncmp(argv[1], "--", 2) == 0) {
		if (strcmp(argv[1], "--continue") == 0)
			all_continue = true;
		else if (strcmp(argv[1], "--ptrace-only") == 0)
			ptrace_only = true;
		else
			break;
		argv++, argc--;
	}
	if (argc < 2) {
		fprintf(stderr, "usage: floor_sup [--continue | --ptrace-only] COMMAND [ARG...]\n");
		return 2;
	}
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return 125;
	pid_t pid = fork();
	if (pid == 0) {
		/*
		 * O_PATH opens are let through, as ward's filter does while the
		 * policy allows stat everywhere (and ADDFD cannot pass them).
		 * The flags' low word is enough: O_PATH is bit 21.
		 */
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_open, 5, 0),	    /* -> 7 */
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_openat, 6, 0),	    /* -> 9 */
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_creat, 8, 0),	    /* -> 12 */
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execve, 7, 0),	    /* -> 12 */
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_execveat, 6, 0),    /* -> 12 */
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
			BPF_JUMP(BPF_JMP | BPF_JA | BPF_K, 1, 0, 0),		    /* -> 10 */
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[2])),
			BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, O_PATH, 0, 1),	    /* -> 11, 12 */
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		};
		struct sock_fprog prog = { sizeof(f) / sizeof(f[0]), f };
		char go;
		if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
			_exit(126);
		/* --ptrace-only: a listener with nothing to hear, so the rest is the same. */
		if (ptrace_only)
			f[12] = f[11];
		int fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				      SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		if (fd < 0)
			_exit(126);
		if (send_fd(sv[1], fd) < 0)
			_exit(126);
		close(fd);
		if (read(sv[1], &go, 1) != 1) /* traced and served from here on */
			_exit(126);
		close(sv[0]);
		close(sv[1]);
		execvp(argv[1], argv + 1);
		_exit(127);
	}
	listener = recv_fd(sv[0]);
	if (listener < 0)
		return 125;
	ioctl(listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS, 1); /* SYNC_WAKE_UP, when the kernel has it */
	if (ptrace(PTRACE_SEIZE, pid, 0,
		   PTRACE_O_EXITKILL | PTRACE_O_TRACEFORK | PTRACE_O_TRACEVFORK |
			   PTRACE_O_TRACECLONE | PTRACE_O_TRACEEXEC) < 0)
		return 125;
	long n = 2 * sysconf(_SC_NPROCESSORS_ONLN);
	for (long i = 0; i < n && i < 64; i++) {
		pthread_t t;
		pthread_create(&t, NULL, serve, NULL);
	}
	if (write(sv[0], "g", 1) != 1)
		return 125;

	/* The tracer: resume every stop at once, as ward does after its checks. */
	int status = 125;
	for (;;) {
		int st;
		pid_t w = waitpid(-1, &st, __WALL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			if (w == pid) {
				status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
				break;
			}
			continue;
		}
		if (!WIFSTOPPED(st))
			continue;
		int event = st >> 16, sig = WSTOPSIG(st);
		if (event == PTRACE_EVENT_STOP) {
			if (sig == SIGSTOP || sig == SIGTSTP || sig == SIGTTIN || sig == SIGTTOU)
				ptrace(PTRACE_LISTEN, w, 0, 0);
			else
				ptrace(PTRACE_CONT, w, 0, 0);
		} else if (event != 0) {
			ptrace(PTRACE_CONT, w, 0, 0); /* fork, vfork, clone, exec */
		} else {
			ptrace(PTRACE_CONT, w, 0, sig); /* a signal on its way */
		}
	}
	return status;
}
