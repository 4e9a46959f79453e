/*
 * udp_reply: a UDP server of this program's, on 127.0.0.1 and on ::1,
 * answers each client at the address its datagram came from, as asyncio's
 * datagram tests do: a client that connected (remote_addr), and one that
 * sent by address, neither bound by a call of its own (the kernel chose
 * their ports).  Natively every answer arrives; under a supervisor whose
 * policy allows the host's loopback only to the session's own sockets,
 * those clients are the session's too.
 *
 * Prints "FAMILY connected client: answered" and "FAMILY sendto client:
 * answered" (or the call that failed); exit 0.
 */
#include "common.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdbool.h>
#include <sys/socket.h>

static const char *err(void)
{
	return strerrorname_np(errno) ? strerrorname_np(errno) : "?";
}

/* The server answers the datagram it gets; the client waits for the answer (5 s at most). */
static void round_trip(int srv, int cli, bool connected, const struct sockaddr_storage *to,
		       socklen_t tl, const char *what)
{
	struct sockaddr_storage from;
	socklen_t fl = sizeof(from);
	char buf[16];
	ssize_t n = connected ? send(cli, "ping", 4, 0) : sendto(cli, "ping", 4, 0, (const struct sockaddr *)to, tl);

	if (n < 0) {
		printf("%s: send: %s\n", what, err());
		return;
	}
	if (recvfrom(srv, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl) < 0) {
		printf("%s: server recvfrom: %s\n", what, err());
		return;
	}
	if (sendto(srv, "pong", 4, 0, (struct sockaddr *)&from, fl) < 0) {
		printf("%s: server answers: %s\n", what, err());
		return;
	}
	struct pollfd p = { cli, POLLIN, 0 };
	if (poll(&p, 1, 5000) != 1 || recv(cli, buf, sizeof(buf), 0) != 4) {
		printf("%s: no answer\n", what);
		return;
	}
	printf("%s: answered\n", what);
}

static void family(int fam, const char *name)
{
	struct sockaddr_storage ss = { .ss_family = (sa_family_t)fam };
	socklen_t l = fam == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	char what[64];

	if (fam == AF_INET)
		((struct sockaddr_in *)&ss)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else
		((struct sockaddr_in6 *)&ss)->sin6_addr = in6addr_loopback;
	int srv = socket(fam, SOCK_DGRAM, 0);
	if (srv < 0 || bind(srv, (struct sockaddr *)&ss, l) < 0 ||
	    getsockname(srv, (struct sockaddr *)&ss, &l) < 0) {
		printf("%s server: %s\n", name, err());
		return;
	}
	int cli = socket(fam, SOCK_DGRAM, 0);
	snprintf(what, sizeof(what), "%s connected client", name);
	if (connect(cli, (struct sockaddr *)&ss, l) < 0)
		printf("%s: connect: %s\n", what, err());
	else
		round_trip(srv, cli, true, &ss, l, what);
	close(cli);
	cli = socket(fam, SOCK_DGRAM, 0);
	snprintf(what, sizeof(what), "%s sendto client", name);
	round_trip(srv, cli, false, &ss, l, what);
	close(cli);
	close(srv);
}

int main(void)
{
	family(AF_INET, "127.0.0.1");
	family(AF_INET6, "::1");
	return 0;
}
