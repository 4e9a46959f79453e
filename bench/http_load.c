/*
 * http_load.c - a loopback HTTP/1.0 load: many short connections, each a
 * connect, a GET, the whole reply read, a close, one after the other.  It
 * is what an agent's test suite does against the dev server it started.
 * Run natively and under ward by bench/net.sh.
 *
 *   http_load local N        a server process and the client, N requests
 *   http_load serve N        listen on 127.0.0.1, print the port, answer N requests
 *   http_load get PORT N     the client alone, against 127.0.0.1:PORT
 *
 * The client prints "rps REQUESTS_PER_SECOND".  `local` binds the listener
 * before it forks the server, so under ward the port is the session's
 * (@session) and the default profile lets the client connect; `get`
 * against a server outside the session needs a rule for its port.
 *
 * Under ward only the client's connect is notified (and the server's bind
 * and listen, once): accept, reads, writes and send without an address
 * are not, so the cost per request is one decided connect.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* A small page, headers and all well under one segment, as an API reply is. */
#define BODY_LEN 512

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static _Noreturn void fail(const char *what)
{
	int e = errno;
	fprintf(stderr, "http_load: %s: %s\n", what, strerror(e));
	exit(1);
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len > 0) {
		ssize_t w = send(fd, p, len, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		len -= (size_t)w;
	}
	return 0;
}

static int listener(uint16_t *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t l = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0)
		fail("socket");
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		fail("bind");
	if (listen(fd, 128) < 0)
		fail("listen");
	if (getsockname(fd, (struct sockaddr *)&sa, &l) < 0)
		fail("getsockname");
	*port = ntohs(sa.sin_port);
	return fd;
}

/*
 * Answer n connections, one at a time: read the request to its blank
 * line, reply, close.  The server closes first, as an HTTP/1.0 server
 * does, so the TIME_WAIT is on the server's side and the client's
 * ephemeral ports stay free for the next run.
 */
static int serve(int lfd, long n)
{
	char reply[256 + BODY_LEN], req[4096];
	int hl = snprintf(reply, sizeof(reply),
			  "HTTP/1.0 200 OK\r\nServer: ward-bench\r\nContent-Type: text/plain\r\n"
			  "Content-Length: %d\r\n\r\n",
			  BODY_LEN);
	memset(reply + hl, 'x', BODY_LEN);
	size_t rlen = (size_t)hl + BODY_LEN;

	for (long i = 0; i < n; i++) {
		int fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		size_t got = 0;
		if (fd < 0) {
			if (errno == EINTR)
				continue;
			fail("accept");
		}
		while (got < sizeof(req) - 1) {
			ssize_t r = recv(fd, req + got, sizeof(req) - 1 - got, 0);
			if (r <= 0)
				break;
			got += (size_t)r;
			req[got] = '\0';
			if (strstr(req, "\r\n\r\n") != NULL)
				break;
		}
		if (got > 0)
			write_all(fd, reply, rlen);
		close(fd);
	}
	return 0;
}

/* n requests to 127.0.0.1:port, one connection each; prints the rate. */
static int get(uint16_t port, long n)
{
	static const char request[] = "GET / HTTP/1.0\r\nHost: 127.0.0.1\r\n"
				      "User-Agent: ward-bench\r\nAccept: */*\r\n\r\n";
	struct sockaddr_in sa = { .sin_family = AF_INET, .sin_port = htons(port) };
	char buf[4096];
	double t0 = now();

	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	for (long i = 0; i < n; i++) {
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		size_t got = 0;
		ssize_t r = 0;
		if (fd < 0)
			fail("socket");
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
			fail("connect");
		if (write_all(fd, request, sizeof(request) - 1) < 0)
			fail("send");
		/* To the server's close: the reply is far smaller than buf. */
		while (got < sizeof(buf) && (r = recv(fd, buf + got, sizeof(buf) - got, 0)) > 0)
			got += (size_t)r;
		if (r < 0)
			fail("recv");
		/* A request that failed must not count. */
		if (got <= BODY_LEN || got == sizeof(buf) || memcmp(buf, "HTTP/1.0 200", 12) != 0) {
			fprintf(stderr, "http_load: request %ld: a short or failed reply\n", i);
			return 1;
		}
		close(fd);
	}
	printf("rps %.0f\n", (double)n / (now() - t0));
	return 0;
}

int main(int argc, char **argv)
{
	uint16_t port;
	int lfd, st;

	if (argc == 3 && strcmp(argv[1], "local") == 0) {
		long n = atol(argv[2]);
		lfd = listener(&port);
		pid_t pid = fork();
		if (pid < 0)
			fail("fork");
		if (pid == 0)
			_exit(serve(lfd, n));
		close(lfd);
		int rc = get(port, n);
		if (rc != 0)
			kill(pid, SIGTERM);
		if (waitpid(pid, &st, 0) < 0 || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
			rc = 1;
		return rc;
	}
	if (argc == 3 && strcmp(argv[1], "serve") == 0) {
		lfd = listener(&port);
		printf("%u\n", port);
		fflush(stdout);
		return serve(lfd, atol(argv[2]));
	}
	if (argc == 4 && strcmp(argv[1], "get") == 0)
		return get((uint16_t)atoi(argv[2]), atol(argv[3]));
	fprintf(stderr, "usage: http_load local N | serve N | get PORT N\n");
	return 2;
}
