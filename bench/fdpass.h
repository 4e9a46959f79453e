/*
 * fdpass.h - the bench's notifiers take the child's seccomp listener over
 * a socketpair (SCM_RIGHTS).  send_fd returns 0, or -1 on failure.
 */
#ifndef BENCH_FDPASS_H
#define BENCH_FDPASS_H

#include <string.h>
#include <sys/socket.h>
#include <sys/uio.h>

static int send_fd(int sock, int fd)
{
	char c = 0, ctrl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl,
			    .msg_controllen = sizeof(ctrl) };
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_RIGHTS;
	h->cmsg_len = CMSG_LEN(sizeof(int));
	memcpy(CMSG_DATA(h), &fd, sizeof(int));
	return sendmsg(sock, &m, 0) == 1 ? 0 : -1;
}

static int recv_fd(int sock)
{
	char c, ctrl[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { &c, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctrl,
			    .msg_controllen = sizeof(ctrl) };
	int fd;
	if (recvmsg(sock, &m, 0) != 1)
		return -1;
	memcpy(&fd, CMSG_DATA(CMSG_FIRSTHDR(&m)), sizeof(int));
	return fd;
}

#endif
