/*
 * notify_rtt.c - the bare cost of a seccomp user-notification round trip,
 * measured by a child whose calls are notified to its parent:
 *
 *   notify_rtt N [rtt]     getppid, answered CONTINUE at once: "rtt median_ns"
 *   notify_rtt N open      open("/etc/passwd") emulated as bare as it can be:
 *                          the parent opens the file and hands it over with
 *                          SECCOMP_IOCTL_NOTIF_ADDFD (FLAG_SEND): "open median_ns".
 *                          No memory read, no decision, no log: the floor
 *                          of any supervisor that performs opens itself
 *                          (DESIGN.md law 1) instead of letting them continue.
 *   notify_rtt N MODE T    the same with T answering threads, all waiting in
 *                          RECV (default: two a CPU, as ward's workers).
 *                          The kernel wakes every one of them for each call.
 *
 * Nothing is decided, read or logged: the gap between this and ward's
 * per-call latency is ward's own cost.  SYNC_WAKE_UP is used when present.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fdpass.h"

#include "timing.h"

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif

struct server {
	int listener, open_mode;
};

/* Answer notifications until the child is gone (RECV then fails at once). */
static void *serve(void *arg)
{
	const struct server *s = arg;
	struct seccomp_notif req;
	struct seccomp_notif_resp resp;

	for (;;) {
		memset(&req, 0, sizeof(req));
		if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR)
				continue;
			if (errno == ENOENT) {
				struct pollfd p = { .fd = s->listener, .events = POLLIN };
				if (poll(&p, 1, 0) == 1 && (p.revents & POLLHUP))
					return NULL;
				continue;
			}
			return NULL;
		}
		if (s->open_mode) {
			/* The bare emulation: open, hand over, answer, in one ioctl. */
			int f = open("/etc/passwd", O_RDONLY | O_CLOEXEC);
			struct seccomp_notif_addfd a = { .id = req.id, .flags = SECCOMP_ADDFD_FLAG_SEND,
							 .srcfd = (__u32)f, .newfd_flags = O_CLOEXEC };
			ioctl(s->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &a);
			close(f);
			continue;
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		/*
		 * CONTINUE: this is the benchmark's bare round trip, not ward; it
		 * decides nothing (getppid has no arguments to read), which is the
		 * point: it measures the kernel's cost alone.
		 */
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 20000;
	int open_mode = argc > 2 && strcmp(argv[2], "open") == 0;
	int sv[2];

	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	pid_t pid = fork();
	if (pid == 0) {
		struct sock_filter f[] = {
			BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
			BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, open_mode ? SYS_openat : SYS_getppid, 0, 1),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
			BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
		};
		struct sock_fprog prog = { 4, f };
		prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
		int fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				      SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		if (send_fd(sv[1], fd) < 0)
			_exit(1);
		close(fd);
		char go;
		if (read(sv[1], &go, 1) != 1)
			_exit(1);
		double batch[5];
		for (int b = 0; b < 5; b++) {
			double t0 = now();
			for (long i = 0; i < n; i++) {
				if (!open_mode) {
					syscall(SYS_getppid);
					continue;
				}
				int got = (int)syscall(SYS_openat, AT_FDCWD, "/etc/passwd", O_RDONLY | O_CLOEXEC);
				if (got < 0)
					_exit(1);
				close(got);
			}
			batch[b] = (now() - t0) / (double)n;
		}
		printf("%s %.0f\n", open_mode ? "open" : "rtt", median(batch, 5));
		fflush(stdout);
		_exit(0);
	}
	int fd = recv_fd(sv[0]);
	ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, 1); /* SYNC_WAKE_UP, when the kernel has it */
	if (write(sv[0], "g", 1) != 1)
		return 1;
	/*
	 * As many answering threads as ward has workers (two a CPU), so that
	 * the floor has the same shape: one thread is back in RECV while
	 * another still waits for the child to take its fd.
	 */
	struct server sv_arg = { fd, open_mode };
	long nthreads = argc > 3 ? atol(argv[3]) : 2 * sysconf(_SC_NPROCESSORS_ONLN);
	pthread_t th[64];
	if (nthreads < 1)
		nthreads = 1;
	if (nthreads > 64)
		nthreads = 64;
	for (long i = 0; i < nthreads; i++)
		pthread_create(&th[i], NULL, serve, &sv_arg);
	waitpid(pid, NULL, 0);
	for (long i = 0; i < nthreads; i++)
		pthread_join(th[i], NULL);
	return 0;
}
