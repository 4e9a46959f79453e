/*
 * udp_reply: a UDP server of this program's, on 127.0.0.1 and on ::1,
 * answers each client at the address its datagram came from, as asyncio's
 * datagram tests do: a client that connected (remote_addr), and one that
 * sent by address, neither bound by a call of its own (the kernel chose
 * their ports).  Natively every answer arrives; under a supervisor whose
 * policy allows the host's loopback only to the session's own sockets,
 * those clients are the session's too.
 *
 * Then the same server, on a thread of its own, answers at once 500
 * clients that send by address, each a new socket, as test_asyncio's
 * run_udp_echo_server does (test_recvfrom, test_recvfrom_into,
 * test_sendto_blocking).  Its answer can leave before the client's send
 * has returned: the client's port must be the session's before its
 * datagram leaves, or an answer quicker than the supervisor's bookkeeping
 * of the send is refused, and the client (asyncio's sock_recvfrom) waits
 * for ever.
 *
 * Prints "FAMILY connected client: answered", "FAMILY sendto client:
 * answered", "FAMILY no-port client: sends from ADDRESS, a port of the
 * kernel's" and "FAMILY clients answered from a thread: 500 answers" (or
 * the call that failed, or the first round without an answer and why);
 * exit 0.
 */
#include "common.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
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

/* How many clients the threaded server answers. */
#define ROUNDS 500

/* The threaded server's first failure to answer (0: none yet), told to the client by a pipe. */
static _Atomic int answer_errno;
static int told[2];

static void *echo(void *arg)
{
	int srv = *(int *)arg;
	char buf[16];

	for (;;) {
		struct sockaddr_storage from;
		socklen_t fl = sizeof(from);
		ssize_t n = recvfrom(srv, buf, sizeof(buf), 0, (struct sockaddr *)&from, &fl);
		if (n < 0 || (n == 4 && memcmp(buf, "stop", 4) == 0))
			return NULL;
		if (sendto(srv, buf, (size_t)n, 0, (struct sockaddr *)&from, fl) < 0) {
			int none = 0;
			if (atomic_compare_exchange_strong(&answer_errno, &none, errno))
				(void)!write(told[1], "x", 1);
		}
	}
}

/* ROUNDS new clients send by address to srv (at to), answered by a thread. */
static void from_thread(int fam, int srv, const struct sockaddr_storage *to, socklen_t tl,
			const char *what)
{
	pthread_t t;
	long i;

	atomic_store(&answer_errno, 0);
	if (pipe(told) < 0 || pthread_create(&t, NULL, echo, &srv) != 0) {
		printf("%s: pipe or pthread_create failed\n", what);
		return;
	}
	for (i = 0; i < ROUNDS; i++) {
		char buf[16];
		int cli = socket(fam, SOCK_DGRAM, 0);
		if (cli < 0 || sendto(cli, "ping", 4, 0, (const struct sockaddr *)to, tl) != 4) {
			printf("%s: round %ld: client: %s\n", what, i, err());
			break;
		}
		struct pollfd p[2] = { { cli, POLLIN, 0 }, { told[0], POLLIN, 0 } };
		bool answered = poll(p, 2, 10000) > 0 && (p[0].revents & POLLIN) &&
				recv(cli, buf, sizeof(buf), 0) == 4;
		close(cli);
		if (!answered) {
			int e = atomic_load(&answer_errno);
			printf("%s: round %ld: %s%s\n", what, i, e ? "the server's answer: " : "no answer",
			       e ? (strerrorname_np(e) ? strerrorname_np(e) : "?") : "");
			break;
		}
	}
	if (i == ROUNDS)
		printf("%s: %d answers\n", what, ROUNDS);
	/* The server stops at the word stop, sent to it by itself. */
	sendto(srv, "stop", 4, 0, (const struct sockaddr *)to, tl);
	pthread_join(t, NULL);
	close(told[0]);
	close(told[1]);
}

/*
 * A client bound to the loopback address with IP_BIND_ADDRESS_NO_PORT:
 * its port is the kernel's at its first send, and its address stays what
 * it bound (a supervisor binding it to the wildcard first would change
 * both what it receives and what it sends from).
 */
static void no_port_client(int fam, const char *name, int srv, const struct sockaddr_storage *to,
			   socklen_t l)
{
	struct sockaddr_storage lo = *to, got;
	socklen_t gl = sizeof(got);
	int one = 1, cli = socket(fam, SOCK_DGRAM, 0);
	char a[INET6_ADDRSTRLEN] = "?", buf[16];
	struct pollfd p = { .fd = srv, .events = POLLIN };

	if (fam == AF_INET)
		((struct sockaddr_in *)&lo)->sin_port = 0;
	else
		((struct sockaddr_in6 *)&lo)->sin6_port = 0;
	if (cli < 0 || setsockopt(cli, SOL_IP, IP_BIND_ADDRESS_NO_PORT, &one, sizeof(one)) < 0 ||
	    bind(cli, (struct sockaddr *)&lo, l) < 0 || sendto(cli, "n", 1, 0, (const struct sockaddr *)to, l) < 0 ||
	    getsockname(cli, (struct sockaddr *)&got, &gl) < 0) {
		printf("%s no-port client: %s\n", name, err());
	} else {
		bool port = fam == AF_INET ? ((struct sockaddr_in *)&got)->sin_port != 0
					   : ((struct sockaddr_in6 *)&got)->sin6_port != 0;
		inet_ntop(fam, fam == AF_INET ? (void *)&((struct sockaddr_in *)&got)->sin_addr
					      : (void *)&((struct sockaddr_in6 *)&got)->sin6_addr, a, sizeof(a));
		printf("%s no-port client: sends from %s, %s\n", name, a, port ? "a port of the kernel's" : "no port");
		/* The server takes its datagram: the next rounds start clean. */
		if (poll(&p, 1, 5000) == 1)
			(void)!recv(srv, buf, sizeof(buf), 0);
	}
	if (cli >= 0)
		close(cli);
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
	no_port_client(fam, name, srv, &ss, l);
	snprintf(what, sizeof(what), "%s clients answered from a thread", name);
	from_thread(fam, srv, &ss, l, what);
	close(srv);
}

int main(void)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	family(AF_INET, "127.0.0.1");
	family(AF_INET6, "::1");
	return 0;
}
