/*
 * net_calls.c - per-call latency of network calls, measured in the process
 * that makes them.  Run natively and under ward by bench/net.sh.
 *
 *   net_calls connect|sendto|sendmsg|send N
 *
 *   connect  a TCP connect to a listener on 127.0.0.1
 *   sendto   a 64-byte UDP datagram sent with an address
 *   sendmsg  a 64-byte datagram on a connected UDP socket (no address)
 *   send     64 bytes on a connected TCP socket
 *
 * The peer (listener, receiving socket) is made here, by binding to
 * 127.0.0.1 with a port the kernel picks: under the default profile that
 * bind is allowed (@loopback) and makes the port the session's, so the
 * connects and sends to it are allowed as @session, as an agent's test
 * server would be.  Under ward, connect, sendto with an address and
 * sendmsg are notified and performed by ward; send (sendto without an
 * address) is not notified, so it should cost what it costs natively.
 *
 * Only the call itself is timed: what keeps the loop going (accepting and
 * closing the connection, draining the receiver) is not notified under
 * ward and would only dilute the difference.  Prints "CALL median_ns",
 * the median of 5 batches of N calls.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"

#define BATCHES 5

enum call { CONNECT, SENDTO, SENDMSG, SEND };
static const char *const names[] = { "connect", "sendto", "sendmsg", "send" };
static const char *call;

static _Noreturn void fail(const char *what)
{
	int e = errno;
	fprintf(stderr, "net_calls %s: %s: %s\n", call, what, strerror(e));
	exit(1);
}

/* A socket of type bound to 127.0.0.1 on a port the kernel picks; its address in sa. */
static int bound(int type, struct sockaddr_in *sa)
{
	socklen_t l = sizeof(*sa);
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fail("socket");
	memset(sa, 0, sizeof(*sa));
	sa->sin_family = AF_INET;
	sa->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)sa, sizeof(*sa)) < 0)
		fail("bind");
	if (type == SOCK_STREAM && listen(fd, 128) < 0)
		fail("listen");
	if (getsockname(fd, (struct sockaddr *)sa, &l) < 0)
		fail("getsockname");
	return fd;
}

static int connected(int type, const struct sockaddr_in *to)
{
	int fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fail("socket");
	if (connect(fd, (const struct sockaddr *)to, sizeof(*to)) < 0)
		fail("connect");
	return fd;
}

/* Take what arrived, so that the receiver never fills (UDP would drop, TCP block). */
static void drain(int fd)
{
	char buf[4096];
	while (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

/*
 * One connect, timed; the connection is then accepted and both ends
 * closed, untimed.  The client closes with SO_LINGER 0 (a reset), so no
 * TIME_WAIT piles up over thousands of connections and every run starts
 * from the same state.
 */
static double one_connect(int lfd, const struct sockaddr_in *to)
{
	struct linger lg = { 1, 0 };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	double t0, t;

	if (fd < 0)
		fail("socket");
	if (setsockopt(fd, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg)) < 0)
		fail("setsockopt");
	t0 = now();
	if (connect(fd, (const struct sockaddr *)to, sizeof(*to)) < 0)
		fail("connect");
	t = now() - t0;
	int afd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
	if (afd < 0)
		fail("accept");
	close(fd);
	close(afd);
	return t;
}

int main(int argc, char **argv)
{
	static const char msg[64] = "ward bench: a small datagram, as a DNS query or a metric is";
	struct sockaddr_in peer;
	double batch[BATCHES];
	int lfd = -1, rfd = -1, sfd = -1;
	enum call c = CONNECT;
	long n;

	if (argc < 3)
		return 2;
	call = argv[1];
	while (c <= SEND && strcmp(call, names[c]) != 0)
		c++;
	n = atol(argv[2]);
	if (c > SEND || n <= 0)
		return 2;

	switch (c) {
	case CONNECT:
		lfd = bound(SOCK_STREAM, &peer);
		break;
	case SENDTO:
		rfd = bound(SOCK_DGRAM, &peer);
		if ((sfd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
			fail("socket");
		break;
	case SENDMSG:
		rfd = bound(SOCK_DGRAM, &peer);
		sfd = connected(SOCK_DGRAM, &peer);
		break;
	case SEND:
		lfd = bound(SOCK_STREAM, &peer);
		sfd = connected(SOCK_STREAM, &peer);
		if ((rfd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC)) < 0)
			fail("accept");
		/* Each send its own segment, as an interactive protocol's are. */
		int one = 1;
		setsockopt(sfd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		break;
	}

	for (int b = 0; b < BATCHES; b++) {
		double sum = 0, t0;
		for (long i = 0; i < n; i++) {
			ssize_t r;
			switch (c) {
			case CONNECT:
				sum += one_connect(lfd, &peer);
				continue;
			case SENDTO:
				t0 = now();
				r = sendto(sfd, msg, sizeof(msg), 0, (struct sockaddr *)&peer,
					   sizeof(peer));
				break;
			case SENDMSG: {
				struct iovec v = { (void *)msg, sizeof(msg) };
				struct msghdr m = { .msg_iov = &v, .msg_iovlen = 1 };
				t0 = now();
				r = sendmsg(sfd, &m, 0);
				break;
			}
			case SEND:
			default:
				t0 = now();
				r = send(sfd, msg, sizeof(msg), MSG_NOSIGNAL);
				break;
			}
			sum += now() - t0;
			if (r != (ssize_t)sizeof(msg))
				fail("send");
			drain(rfd);
		}
		batch[b] = sum / (double)n;
	}
	printf("%s %.0f\n", call, median(batch, BATCHES));
	return 0;
}
