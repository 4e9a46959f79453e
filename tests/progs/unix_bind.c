/*
 * unix_bind DIR: unix sockets bound by an absolute path (DIR/abs.sock), a
 * relative one (rel.sock, from DIR, the cwd) and one with a directory in
 * it (sub/in.sock), keep the name they were given, as CPython's
 * test_socket and asyncio's unix servers expect: a client connects to the
 * server's getsockname(), the server's accept() and getsockname() show it,
 * and a datagram's recvfrom() shows its sender's name.
 *
 * Prints one line a name seen, with DIR written as "DIR", and exits 0; a
 * call that fails prints "CALL: ERRNO" and exits 1.
 */
#include "common.h"

#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

static const char *dir;

static void fail_on(long rc, const char *call)
{
	if (rc >= 0)
		return;
	printf("%s: %s\n", call, strerrorname_np(errno) ? strerrorname_np(errno) : "?");
	exit(1);
}

/* A name as seen: DIR for the directory, so that runs in other directories print the same. */
static void show(const char *what, const struct sockaddr_un *un, socklen_t len)
{
	size_t n = strlen(dir);
	if (len <= offsetof(struct sockaddr_un, sun_path)) {
		printf("%s: (unnamed)\n", what);
		return;
	}
	const char *p = un->sun_path;
	if (strncmp(p, dir, n) == 0)
		printf("%s: DIR%s\n", what, p + n);
	else
		printf("%s: %s\n", what, p);
}

static void named(int fd, const char *name)
{
	struct sockaddr_un un = { .sun_family = AF_UNIX };
	snprintf(un.sun_path, sizeof(un.sun_path), "%s", name);
	fail_on(bind(fd, (struct sockaddr *)&un, sizeof(un)), "bind");
}

/* A stream server bound to name; a client that connects to what its getsockname() says. */
static void stream(const char *name)
{
	struct sockaddr_un a;
	socklen_t l = sizeof(a);
	int srv = socket(AF_UNIX, SOCK_STREAM, 0), cli = socket(AF_UNIX, SOCK_STREAM, 0);

	fail_on(srv, "socket");
	fail_on(cli, "socket");
	named(srv, name);
	fail_on(listen(srv, 1), "listen");
	fail_on(getsockname(srv, (struct sockaddr *)&a, &l), "getsockname");
	show("stream server getsockname", &a, l);
	fail_on(connect(cli, (struct sockaddr *)&a, l), "connect to getsockname");
	l = sizeof(a);
	fail_on(getpeername(cli, (struct sockaddr *)&a, &l), "getpeername");
	show("stream client getpeername", &a, l);
	l = sizeof(a);
	int c = accept(srv, (struct sockaddr *)&a, &l);
	fail_on(c, "accept");
	l = sizeof(a);
	fail_on(getsockname(c, (struct sockaddr *)&a, &l), "getsockname");
	show("stream accepted getsockname", &a, l);
	close(c);
	close(cli);
	close(srv);
}

/* Datagrams: the receiver's recvfrom shows the sender's name. */
static void dgram(const char *rname, const char *sname)
{
	struct sockaddr_un a;
	socklen_t l = sizeof(a);
	int rcv = socket(AF_UNIX, SOCK_DGRAM, 0), snd = socket(AF_UNIX, SOCK_DGRAM, 0);
	char buf[8];

	fail_on(rcv, "socket");
	fail_on(snd, "socket");
	named(rcv, rname);
	named(snd, sname);
	fail_on(getsockname(rcv, (struct sockaddr *)&a, &l), "getsockname");
	fail_on(sendto(snd, "x", 1, 0, (struct sockaddr *)&a, l), "sendto getsockname");
	l = sizeof(a);
	fail_on(recvfrom(rcv, buf, sizeof(buf), 0, (struct sockaddr *)&a, &l), "recvfrom");
	show("datagram recvfrom", &a, l);
	close(rcv);
	close(snd);
}

int main(int argc, char **argv)
{
	char abs[200], absr[200];

	if (argc != 2)
		usage("unix_bind DIR");
	dir = argv[1];
	if (snprintf(abs, sizeof(abs), "%s/abs.sock", dir) >= (int)sizeof(abs) ||
	    snprintf(absr, sizeof(absr), "%s/absr.sock", dir) >= (int)sizeof(absr))
		usage("unix_bind DIR (a shorter DIR)");
	fail_on(chdir(dir), "chdir");
	fail_on(mkdir("sub", 0755), "mkdir");
	stream(abs);
	stream("rel.sock");
	stream("sub/in.sock");
	dgram(absr, "sub/from.sock");
	return 0;
}
