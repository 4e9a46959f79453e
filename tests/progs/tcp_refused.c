/*
 * tcp_refused: blocking TCP connects to a port of 127.0.0.1 and of ::1
 * that nothing listens on (one the kernel picked for a socket of this
 * program's, closed at once), as CPython's test_socket
 * NetworkConnectionNoServer makes them.  Natively the kernel refuses
 * them; under a supervisor whose policy denies the host's loopback, the
 * kernel's own answer must come first.
 *
 * Prints "127.0.0.1: ERRNO" and "::1: ERRNO" (or "connected"); exit 0.
 */
#include "common.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

/* A port of family that nothing listens on: bound by the kernel's choice, then closed. */
static int free_port(int family, struct sockaddr_storage *ss, socklen_t *len)
{
	int s = socket(family, SOCK_STREAM, 0);
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

static void try(int family, const char *what)
{
	struct sockaddr_storage ss;
	socklen_t len;

	if (free_port(family, &ss, &len) < 0) {
		printf("%s: no port: %s\n", what, strerrorname_np(errno));
		return;
	}
	int s = socket(family, SOCK_STREAM, 0);
	if (connect(s, (struct sockaddr *)&ss, len) == 0)
		printf("%s: connected\n", what);
	else
		printf("%s: %s\n", what, strerrorname_np(errno) ? strerrorname_np(errno) : "?");
	close(s);
}

int main(void)
{
	try(AF_INET, "127.0.0.1");
	try(AF_INET6, "::1");
	return 0;
}
