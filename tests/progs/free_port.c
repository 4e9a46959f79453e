/*
 * free_port: calls to a port of 127.0.0.1 and of ::1 that nothing uses
 * (one the kernel picked for a socket of this program's, closed at once).
 * A blocking TCP connect, as CPython's test_socket
 * NetworkConnectionNoServer makes it: natively the kernel refuses it.  A
 * UDP sendto, as BasicUDPTest.testRecvFromNegative makes it after its
 * server closed: natively the kernel drops the datagram and the send
 * succeeds.  Under a supervisor whose policy denies the host's loopback,
 * the kernel's own answer must come first.
 *
 * Then a second connect of a TCP socket that is already connected (to a
 * listener of this program's) and a connect of a listening socket, each
 * to that free port and to 192.0.2.1 (TEST-NET-1), a host no policy of a
 * test allows: natively EISCONN whatever the name, which the kernel never
 * reads for a socket past closed.
 *
 * Prints "tcp 127.0.0.1: ERRNO" (or "connected") and "udp 127.0.0.1: N
 * bytes sent" (or the ERRNO), the same for ::1, then "busy WHAT to
 * WHERE: ERRNO"; exit 0.
 */
#include "common.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* A port of family that nothing listens on: bound by the kernel's choice, then closed. */
static int free_port(int family, int type, struct sockaddr_storage *ss, socklen_t *len)
{
	int s = socket(family, type, 0);
	memset(ss, 0, sizeof(*ss));
	ss->ss_family = (sa_family_t)family;
	if (family == AF_INET) {
		((struct sockaddr_in *)ss)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		*len = sizeof(struct sockaddr_in);
	} else {
		((struct sockaddr_in6 *)ss)->sin6_addr = in6addr_loopback;
		*len = sizeof(struct sockaddr_in6);
	}
	if (s < 0 || bind(s, (struct sockaddr *)ss, *len) < 0 ||
	    getsockname(s, (struct sockaddr *)ss, len) < 0)
		return -1;
	close(s);
	return 0;
}

static const char *err(void)
{
	return strerrorname_np(errno) ? strerrorname_np(errno) : "?";
}

static void try(int family, const char *what)
{
	struct sockaddr_storage ss;
	socklen_t len;

	if (free_port(family, SOCK_STREAM, &ss, &len) < 0) {
		printf("tcp %s: no port: %s\n", what, err());
	} else {
		int s = socket(family, SOCK_STREAM, 0);
		if (connect(s, (struct sockaddr *)&ss, len) == 0)
			printf("tcp %s: connected\n", what);
		else
			printf("tcp %s: %s\n", what, err());
		close(s);
	}
	if (free_port(family, SOCK_DGRAM, &ss, &len) < 0) {
		printf("udp %s: no port: %s\n", what, err());
	} else {
		int s = socket(family, SOCK_DGRAM, 0);
		ssize_t n = sendto(s, "hello", 5, 0, (struct sockaddr *)&ss, len);
		if (n >= 0)
			printf("udp %s: %zd bytes sent\n", what, n);
		else
			printf("udp %s: %s\n", what, err());
		close(s);
	}
}

/* A second connect of s to the free port, then to 192.0.2.1:80 (as ::ffff:192.0.2.1 over IPv6). */
static void again(int s, int family, const char *what)
{
	struct sockaddr_storage ss;
	socklen_t len;

	if (free_port(family, SOCK_STREAM, &ss, &len) < 0) {
		printf("busy %s: no port: %s\n", what, err());
		return;
	}
	printf("busy %s to a free port: %s\n", what,
	       connect(s, (struct sockaddr *)&ss, len) == 0 ? "connected" : err());
	if (family == AF_INET) {
		((struct sockaddr_in *)&ss)->sin_port = htons(80);
		inet_pton(AF_INET, "192.0.2.1", &((struct sockaddr_in *)&ss)->sin_addr);
	} else {
		((struct sockaddr_in6 *)&ss)->sin6_port = htons(80);
		inet_pton(AF_INET6, "::ffff:192.0.2.1", &((struct sockaddr_in6 *)&ss)->sin6_addr);
	}
	printf("busy %s to 192.0.2.1: %s\n", what,
	       connect(s, (struct sockaddr *)&ss, len) == 0 ? "connected" : err());
}

/* A connected socket and a listening one of family, each connected again. */
static void busy(int family, const char *what)
{
	struct sockaddr_storage ss;
	socklen_t len;
	char name[64];
	int l = socket(family, SOCK_STREAM, 0), c = socket(family, SOCK_STREAM, 0);

	if (free_port(family, SOCK_STREAM, &ss, &len) < 0 || l < 0 || c < 0 ||
	    bind(l, (struct sockaddr *)&ss, len) < 0 || listen(l, 4) < 0 ||
	    connect(c, (struct sockaddr *)&ss, len) < 0) {
		printf("busy %s: no connection: %s\n", what, err());
		return;
	}
	snprintf(name, sizeof(name), "connected %s", what);
	again(c, family, name);
	snprintf(name, sizeof(name), "listening %s", what);
	again(l, family, name);
	close(c);
	close(l);
}

int main(void)
{
	try(AF_INET, "127.0.0.1");
	try(AF_INET6, "::1");
	busy(AF_INET, "127.0.0.1");
	busy(AF_INET6, "::1");
	return 0;
}
