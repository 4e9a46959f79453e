/*
 * attack_net MODE - reach the outside service of attack_connect (started
 * by the driver, outside ward; $ATTACK_DIR names its directory) by every
 * other road the network handlers must close.  The service hands out the
 * secret to whoever reaches it and writes a line to DIR/hits for every
 * connection and datagram, which the driver checks is empty afterwards.
 *
 *   udp        sendto with an address, connect + send, sendmsg with
 *              msg_name, sendmmsg to the session's own UDP socket then the
 *              outside one (and the other way round), a name tagged
 *              AF_UNSPEC holding a sockaddr_in (udp_sendmsg reads it as
 *              AF_INET), an overlong msg_namelen (the kernel truncates it),
 *              sendto on a socket connected to the session's own
 *   v6         [::1], [::ffff:127.0.0.1], a sockaddr_in on an AF_INET6 UDP
 *              socket (the kernel sends it over IPv4), [::] and 0.0.0.0
 *              (the kernel sends them to loopback), TCP and UDP
 *   fastopen   sendto/sendmsg/sendmmsg with MSG_FASTOPEN,
 *              TCP_FASTOPEN_CONNECT + connect + write
 *   unixdgram  unix datagrams to the outside path and abstract name:
 *              sendto, sendmsg, connect + send, sendmmsg, a symlink
 *   unixpath   connect to the outside unix socket through a symlink (to it
 *              and to its directory), a hard link, a relative path after
 *              chdir, /proc/self/fd/N of an O_PATH fd, /proc/self/cwd,
 *              /proc/self/root, "..", bytes after the NUL, a 108-byte path
 *              without NUL, and a hard link renamed over a socket the
 *              session bound
 *   kinds      raw and packet sockets (root only), vsock, ICMP, MPTCP;
 *              IP options and IPv6 routing headers by setsockopt and by
 *              control message
 *   sessbind   make the outside port "the session's" by binding the same
 *              port number elsewhere: 0.0.0.0 for the IPv6 service, ::1 or
 *              127.0.0.2 for the IPv4 one, the other protocol's port space
 *   v6only     the same with [::] and IPV6_V6ONLY, which leaves IPv4's
 *              127.0.0.1:PORT to the outside service
 *   reuseport  join the SO_REUSEPORT group of an outside TCP and UDP
 *              service (same user), then connect / send to that address
 *   takeover   (the service's directory in $TMPDIR, as an ssh-agent's is)
 *              remove, move or replace the outside service's unix socket
 *              file, or move its directory, so that a socket of the
 *              session's could be bound at its name and hear its clients;
 *              a socket file of the session's own, and one no one listens
 *              on any more, are still removed
 *   anyaddr    (run with "allow connect *" but "deny connect @loopback")
 *              0.0.0.0, [::] and [::ffff:0.0.0.0], which the kernel sends
 *              to loopback; broadcast and multicast, which reach the host too
 *
 * Every attempt uses a fresh socket.  An attempt is through when its call
 * succeeds toward the outside service (a connection made, a datagram
 * sent); the service's answer, when it comes, is printed as the LEAK.
 */
#include "attack.h"

#include <arpa/inet.h>
#include <limits.h>
#include <linux/vm_sockets.h>
#include <netinet/in.h>
#include <netinet/ip.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif
#ifndef TCP_FASTOPEN_CONNECT
#define TCP_FASTOPEN_CONNECT 30
#endif
#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif
#ifndef IPV6_RTHDR
#define IPV6_RTHDR 57
#endif
#ifndef IPV6_2292PKTOPTIONS
#define IPV6_2292PKTOPTIONS 6
#endif
#ifndef ETH_P_ALL
#define ETH_P_ALL 0x0003
#endif

/* The outside service, from DIR/info. */
static const char *dir;
static int tcp4, pid, tcp6, udp4, udp6, tcpr, udpr;

static void read_info(void)
{
	char info[PATH_MAX], buf[128];

	dir = getenv("ATTACK_DIR");
	if (dir == NULL) {
		errno = EINVAL;
		setup_failed("$ATTACK_DIR");
	}
	snprintf(info, sizeof(info), "%s/info", dir);
	if (slurp(info, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%d %d %d %d %d %d %d", &tcp4, &pid, &tcp6, &udp4, &udp6, &tcpr, &udpr) != 7) {
		errno = EINVAL;
		setup_failed("read the service's info (TCP4 PID TCP6 UDP4 UDP6 TCPR UDPR)");
	}
	if (tcp6 == 0 || udp6 == 0)
		say("note: the service has no IPv6 socket: the IPv6 attempts are left out");
}

struct addr {
	struct sockaddr_storage ss;
	socklen_t len;
};

static struct addr a4(const char *ip, int port)
{
	struct addr a = { .len = sizeof(struct sockaddr_in) };
	struct sockaddr_in *in = (struct sockaddr_in *)&a.ss;

	in->sin_family = AF_INET;
	in->sin_port = htons((uint16_t)port);
	inet_pton(AF_INET, ip, &in->sin_addr);
	return a;
}

static struct addr a6(const char *ip, int port)
{
	struct addr a = { .len = sizeof(struct sockaddr_in6) };
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a.ss;

	in6->sin6_family = AF_INET6;
	in6->sin6_port = htons((uint16_t)port);
	inet_pton(AF_INET6, ip, &in6->sin6_addr);
	return a;
}

static struct addr a_unix(const char *fmt, const char *arg)
{
	struct addr a = { .len = sizeof(struct sockaddr_un) };
	struct sockaddr_un *un = (struct sockaddr_un *)&a.ss;

	un->sun_family = AF_UNIX;
	snprintf(un->sun_path, sizeof(un->sun_path), fmt, arg);
	return a;
}

static struct addr a_abstract(const char *fmt, int n)
{
	struct addr a = { 0 };
	struct sockaddr_un *un = (struct sockaddr_un *)&a.ss;

	un->sun_family = AF_UNIX;
	snprintf(un->sun_path + 1, sizeof(un->sun_path) - 1, fmt, n);
	a.len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(un->sun_path + 1));
	return a;
}

#define SA(a) ((struct sockaddr *)&(a).ss)

static int sock(int domain, int type, int proto)
{
	int s = socket(domain, type | SOCK_CLOEXEC, proto);
	if (s < 0)
		setup_failed("socket");
	return s;
}

/* What came back on s within ms milliseconds: a LEAK when it is the secret. */
static bool answered(const char *how, int s, int ms)
{
	char buf[512];
	struct pollfd p = { s, POLLIN, 0 };
	ssize_t n;

	if (poll(&p, 1, ms) <= 0)
		return false;
	n = recv(s, buf, sizeof(buf) - 1, MSG_DONTWAIT);
	if (n > 0 && is_secret(buf, (size_t)n)) {
		leak(how, buf, (size_t)n);
		return true;
	}
	return false;
}

/* A call toward the outside service returned rc (errno err): through unless it failed. */
static void outcome(const char *how, int s, long rc, int err)
{
	if (rc < 0) {
		refused(how, err, EACCES);
		return;
	}
	if (!answered(how, s, 1000)) {
		att_through = 1;
		say("LEAK: %s: succeeded (returned %ld): it reached the outside service", how, rc);
	}
}

static void try_connect(const char *how, int domain, int type, int proto, struct addr a)
{
	int s = sock(domain, type, proto);
	int rc = connect(s, SA(a), a.len);

	outcome(how, s, rc, errno);
	close(s);
}

static long send_to(int s, struct addr a, int flags)
{
	static const char ping[] = "ping";
	return sendto(s, ping, sizeof(ping) - 1, flags, SA(a), a.len);
}

/* A message of the iovec v to a. */
static struct msghdr to(struct addr *a, struct iovec *v)
{
	return (struct msghdr){ .msg_name = &a->ss, .msg_namelen = a->len, .msg_iov = v,
				.msg_iovlen = 1 };
}

static long send_msg(int s, void *name, socklen_t namelen, int flags)
{
	char ping[] = "ping";
	struct iovec v = { ping, sizeof(ping) - 1 };
	struct msghdr m = { .msg_name = name, .msg_namelen = namelen, .msg_iov = &v, .msg_iovlen = 1 };
	return sendmsg(s, &m, flags);
}

static void try_sendto(const char *how, int domain, int type, int proto, struct addr a, int flags)
{
	int s = sock(domain, type, proto);
	long rc = send_to(s, a, flags);

	outcome(how, s, rc, errno);
	close(s);
}

static void try_sendmsg(const char *how, int domain, int type, struct addr a, int flags)
{
	int s = sock(domain, type, 0);
	long rc = send_msg(s, &a.ss, a.len, flags);

	outcome(how, s, rc, errno);
	close(s);
}

/* connect, then a send without an address: the connect is what must be refused. */
static void try_connect_send(const char *how, int domain, int type, struct addr a)
{
	int s = sock(domain, type, 0);
	long rc = connect(s, SA(a), a.len);
	int e = errno;

	if (rc == 0) {
		rc = send(s, "ping", 4, 0);
		e = errno;
		if (rc < 0) {
			/* The connect alone named the outside service. */
			att_through = 1;
			say("LEAK: %s: the connect succeeded (the send: %s)", how, strerror(e));
			close(s);
			return;
		}
	}
	outcome(how, s, rc, e);
	close(s);
}

/* A socket of the session's own: bound by this process under ward (so @session). */
static int own_socket(int domain, int type, struct addr *at)
{
	struct addr a = domain == AF_INET ? a4("127.0.0.1", 0) : a6("::1", 0);
	int s = sock(domain, type, 0);

	if (bind(s, SA(a), a.len) < 0 || getsockname(s, SA(a), &a.len) < 0)
		setup_failed("bind a socket of the session's own");
	if (type == SOCK_STREAM && listen(s, 128) < 0)
		setup_failed("listen on the session's own socket");
	*at = a;
	return s;
}

/* Drain what s received; how many datagrams. */
static int drain(int s)
{
	char buf[512];
	int n = 0;
	while (recv(s, buf, sizeof(buf), MSG_DONTWAIT) >= 0)
		n++;
	return n;
}

/*
 * sendmmsg of two messages; first and second are their names.  outside
 * says which of them is the outside service (0 or 1).
 */
static void try_sendmmsg(const char *how, int domain, int type, struct addr first,
			 struct addr second, int outside, int receiver)
{
	char ping[] = "ping";
	struct iovec v = { ping, 4 };
	struct mmsghdr mm[2] = { { .msg_hdr = to(&first, &v) }, { .msg_hdr = to(&second, &v) } };
	int s = sock(domain, type, 0);
	int rc = sendmmsg(s, mm, 2, 0);
	int e = errno;

	if (rc > outside) {
		if (!answered(how, s, 1000)) {
			att_through = 1;
			say("LEAK: %s: %d of 2 messages sent: one reached the outside service", how,
			    rc);
		}
	} else if (rc < 0) {
		refused(how, e, EACCES);
	} else {
		blocked("%s: %d of 2 sent, the outside one refused", how, rc);
	}
	/* The session's own destination must still be served. */
	if (receiver >= 0 && outside == 1) {
		usleep(50 * 1000);
		if (drain(receiver) != 1)
			wrong("%s: the session's own socket did not receive its message", how);
	}
	if (receiver >= 0)
		drain(receiver);
	close(s);
}

/* ---- udp ---- */

static void mode_udp(void)
{
	struct addr out = a4("127.0.0.1", udp4), own;
	int r = own_socket(AF_INET, SOCK_DGRAM, &own);

	try_sendto("sendto(127.0.0.1:UDP)", AF_INET, SOCK_DGRAM, 0, out, 0);
	try_connect_send("connect(127.0.0.1:UDP) + send", AF_INET, SOCK_DGRAM, out);
	try_sendmsg("sendmsg(msg_name 127.0.0.1:UDP)", AF_INET, SOCK_DGRAM, out, 0);
	try_sendmmsg("sendmmsg(own socket, then 127.0.0.1:UDP)", AF_INET, SOCK_DGRAM, own, out, 1, r);
	try_sendmmsg("sendmmsg(127.0.0.1:UDP, then own socket)", AF_INET, SOCK_DGRAM, out, own, 0, r);

	/* udp_sendmsg takes an AF_UNSPEC name as AF_INET on an AF_INET socket. */
	struct addr unspec = out;
	unspec.ss.ss_family = AF_UNSPEC;
	try_sendto("sendto(AF_UNSPEC name holding 127.0.0.1:UDP)", AF_INET, SOCK_DGRAM, 0, unspec, 0);
	try_sendmsg("sendmsg(AF_UNSPEC name holding 127.0.0.1:UDP)", AF_INET, SOCK_DGRAM, unspec, 0);

	/* The kernel truncates msg_namelen to sizeof(struct sockaddr_storage). */
	{
		int s = sock(AF_INET, SOCK_DGRAM, 0);
		long rc = send_msg(s, &out.ss, 100000, 0);
		outcome("sendmsg(127.0.0.1:UDP, msg_namelen 100000)", s, rc, errno);
		close(s);
	}
	/* A name on a socket connected to the session's own socket overrides the peer. */
	{
		int s = sock(AF_INET, SOCK_DGRAM, 0);
		if (connect(s, SA(own), own.len) < 0)
			wrong("connect to the session's own UDP socket: %s", strerror(errno));
		long rc = send_to(s, out, 0);
		outcome("connect(own socket), then sendto(127.0.0.1:UDP)", s, rc, errno);
		rc = send(s, "ping", 4, 0);
		if (rc < 0)
			wrong("send to the session's own UDP socket: %s", strerror(errno));
		close(s);
	}
	/* More than one message of a burst to the outside service. */
	{
		struct mmsghdr mm[8];
		char ping[] = "ping";
		struct iovec v = { ping, 4 };
		memset(mm, 0, sizeof(mm));
		for (int i = 0; i < 8; i++)
			mm[i].msg_hdr = (struct msghdr){ .msg_name = &out.ss, .msg_namelen = out.len,
							 .msg_iov = &v, .msg_iovlen = 1 };
		int s = sock(AF_INET, SOCK_DGRAM, 0);
		int rc = sendmmsg(s, mm, 8, MSG_DONTWAIT);
		outcome("sendmmsg(8 x 127.0.0.1:UDP)", s, rc, errno);
		close(s);
	}
	close(r);
}

/* ---- v6 ---- */

static void mode_v6(void)
{
	if (tcp6 != 0) {
		try_connect("connect([::1]:TCP6)", AF_INET6, SOCK_STREAM, 0, a6("::1", tcp6));
		/* The kernel sends [::] to ::1 (and 0.0.0.0 to 127.0.0.1). */
		try_connect("connect([::]:TCP6)", AF_INET6, SOCK_STREAM, 0, a6("::", tcp6));
		struct addr rfc2133 = a6("::1", tcp6);
		rfc2133.len = 24; /* without sin6_scope_id */
		try_connect("connect([::1]:TCP6, 24-byte name)", AF_INET6, SOCK_STREAM, 0, rfc2133);
	}
	try_connect("connect([::ffff:127.0.0.1]:TCP4)", AF_INET6, SOCK_STREAM, 0,
		    a6("::ffff:127.0.0.1", tcp4));
	try_connect("connect([::ffff:0.0.0.0]:TCP4)", AF_INET6, SOCK_STREAM, 0,
		    a6("::ffff:0.0.0.0", tcp4));
	try_connect("connect(0.0.0.0:TCP4)", AF_INET, SOCK_STREAM, 0, a4("0.0.0.0", tcp4));

	if (udp6 != 0) {
		struct addr out6 = a6("::1", udp6), own6;
		int r = own_socket(AF_INET6, SOCK_DGRAM, &own6);
		try_sendto("sendto([::1]:UDP6)", AF_INET6, SOCK_DGRAM, 0, out6, 0);
		try_sendto("sendto([::]:UDP6)", AF_INET6, SOCK_DGRAM, 0, a6("::", udp6), 0);
		try_sendmsg("sendmsg(msg_name [::1]:UDP6)", AF_INET6, SOCK_DGRAM, out6, 0);
		try_connect_send("connect([::1]:UDP6) + send", AF_INET6, SOCK_DGRAM, out6);
		try_sendmmsg("sendmmsg(own [::1] socket, then [::1]:UDP6)", AF_INET6, SOCK_DGRAM,
			     own6, out6, 1, r);
		close(r);
	}
	try_sendto("sendto([::ffff:127.0.0.1]:UDP4)", AF_INET6, SOCK_DGRAM, 0,
		   a6("::ffff:127.0.0.1", udp4), 0);
	/* udpv6_sendmsg hands an AF_INET name to udp_sendmsg: IPv4 on an IPv6 socket. */
	try_sendto("sendto(sockaddr_in 127.0.0.1:UDP4) on an AF_INET6 socket", AF_INET6, SOCK_DGRAM,
		   0, a4("127.0.0.1", udp4), 0);
	/* ip6_datagram_connect connects an AF_INET name over IPv4 too. */
	try_connect_send("connect(sockaddr_in 127.0.0.1:UDP4) + send on an AF_INET6 socket",
			 AF_INET6, SOCK_DGRAM, a4("127.0.0.1", udp4));
	try_sendto("sendto(0.0.0.0:UDP4)", AF_INET, SOCK_DGRAM, 0, a4("0.0.0.0", udp4), 0);
}

/* ---- fastopen ---- */

static void mode_fastopen(void)
{
	char buf[32];
	struct addr out = a4("127.0.0.1", tcp4);

	if (slurp("/proc/sys/net/ipv4/tcp_fastopen", buf, sizeof(buf)) > 0)
		say("note: net.ipv4.tcp_fastopen = %d (bit 1: client; without it a fast open is a "
		    "plain connect, which must be refused all the same)",
		    atoi(buf));
	try_sendto("sendto(MSG_FASTOPEN, 127.0.0.1:TCP4)", AF_INET, SOCK_STREAM, 0, out,
		   MSG_FASTOPEN);
	try_sendmsg("sendmsg(MSG_FASTOPEN, msg_name 127.0.0.1:TCP4)", AF_INET, SOCK_STREAM, out,
		    MSG_FASTOPEN);
	{
		char ping[] = "ping";
		struct iovec v = { ping, 4 };
		struct mmsghdr mm = { .msg_hdr = { .msg_name = &out.ss, .msg_namelen = out.len,
						   .msg_iov = &v, .msg_iovlen = 1 } };
		int s = sock(AF_INET, SOCK_STREAM, 0);
		int rc = sendmmsg(s, &mm, 1, MSG_FASTOPEN);
		outcome("sendmmsg(MSG_FASTOPEN, 127.0.0.1:TCP4)", s, rc, errno);
		close(s);
	}
	/* TCP_FASTOPEN_CONNECT: connect may return at once, the SYN leaves with the first write. */
	{
		const char *how = "TCP_FASTOPEN_CONNECT + connect(127.0.0.1:TCP4) + write";
		int one = 1, s = sock(AF_INET, SOCK_STREAM, 0);
		if (setsockopt(s, IPPROTO_TCP, TCP_FASTOPEN_CONNECT, &one, sizeof(one)) < 0)
			say("note: TCP_FASTOPEN_CONNECT: %s", strerror(errno));
		long rc = connect(s, SA(out), out.len);
		int e = errno;
		if (rc < 0) {
			refused(how, e, EACCES);
		} else if ((rc = write(s, "ping", 4)) < 0) {
			/* connect said yes: that alone named the outside service. */
			att_through = 1;
			say("LEAK: %s: connected (the write: %s)", how, strerror(errno));
		} else {
			outcome(how, s, rc, 0);
		}
		close(s);
	}
	if (tcp6 != 0)
		try_sendto("sendto(MSG_FASTOPEN, [::1]:TCP6)", AF_INET6, SOCK_STREAM, 0,
			   a6("::1", tcp6), MSG_FASTOPEN);
	try_sendto("sendto(MSG_FASTOPEN, [::ffff:127.0.0.1]:TCP4)", AF_INET6, SOCK_STREAM, 0,
		   a6("::ffff:127.0.0.1", tcp4), MSG_FASTOPEN);
	/* A fast open refuses an AF_UNSPEC name (EOPNOTSUPP): it must not become an AF_INET one. */
	struct addr unspec = out;
	unspec.ss.ss_family = AF_UNSPEC;
	{
		/* The kernel's own EOPNOTSUPP comes first, natively as under ward. */
		const char *how = "sendto(MSG_FASTOPEN, AF_UNSPEC name holding 127.0.0.1:TCP4)";
		int s = sock(AF_INET, SOCK_STREAM, 0);
		long rc = send_to(s, unspec, MSG_FASTOPEN);
		if (rc < 0)
			refused(how, errno, EOPNOTSUPP);
		else
			outcome(how, s, rc, 0);
		close(s);
	}
}

/* ---- unixdgram ---- */

/*
 * A unix datagram socket bound in the project, so that the service can
 * answer: by its absolute name, which the service's recvfrom reports.
 */
static int dgram_socket(void)
{
	static int n;
	char name[32], cwd[PATH_MAX], abs[PATH_MAX + 32];
	struct addr me;
	int s = sock(AF_UNIX, SOCK_DGRAM, 0);

	snprintf(name, sizeof(name), "me-%d.sock", n++);
	unlink(name);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	snprintf(abs, sizeof(abs), "%s/%s", cwd, name);
	me = a_unix("%s", abs);
	if (bind(s, SA(me), me.len) < 0)
		setup_failed("bind a unix datagram socket in the project");
	return s;
}

static void mode_unixdgram(void)
{
	struct addr path = a_unix("%s/outside-dgram.sock", dir);
	struct addr abs = a_abstract("ward-attack-dgram-%d", pid);
	int s;
	long rc;

	s = dgram_socket();
	rc = send_to(s, path, 0);
	outcome("sendto(unix:DIR/outside-dgram.sock)", s, rc, errno);
	close(s);
	s = dgram_socket();
	rc = send_msg(s, &path.ss, path.len, 0);
	outcome("sendmsg(msg_name unix:DIR/outside-dgram.sock)", s, rc, errno);
	close(s);
	s = dgram_socket();
	rc = send_to(s, abs, 0);
	outcome("sendto(unix-abstract:ward-attack-dgram-PID)", s, rc, errno);
	close(s);
	s = dgram_socket();
	rc = send_msg(s, &abs.ss, abs.len, 0);
	outcome("sendmsg(msg_name unix-abstract:ward-attack-dgram-PID)", s, rc, errno);
	close(s);

	s = dgram_socket();
	rc = connect(s, SA(path), path.len);
	if (rc == 0)
		rc = send(s, "ping", 4, 0);
	outcome("connect(unix:DIR/outside-dgram.sock) + send", s, rc, errno);
	close(s);
	s = dgram_socket();
	rc = connect(s, SA(abs), abs.len);
	if (rc == 0)
		rc = send(s, "ping", 4, 0);
	outcome("connect(unix-abstract:ward-attack-dgram-PID) + send", s, rc, errno);
	close(s);

	/* The session's own datagram socket first, then the outside one. */
	{
		struct addr own = a_unix("%s", "own-dgram.sock");
		int r = sock(AF_UNIX, SOCK_DGRAM, 0);
		unlink("own-dgram.sock");
		if (bind(r, SA(own), own.len) < 0)
			setup_failed("bind own-dgram.sock");
		char ping[] = "ping";
		struct iovec v = { ping, 4 };
		struct mmsghdr mm[2] = { { .msg_hdr = to(&own, &v) }, { .msg_hdr = to(&path, &v) } };
		const char *how = "sendmmsg(own-dgram.sock, then DIR/outside-dgram.sock)";
		s = dgram_socket();
		int n = sendmmsg(s, mm, 2, 0);
		if (n == 2)
			outcome(how, s, 2, 0);
		else if (n < 0)
			refused(how, errno, EACCES);
		else
			blocked("%s: %d sent, the outside one refused", how, n);
		usleep(50 * 1000);
		if (drain(r) != 1)
			wrong("%s: the session's own socket did not receive its message", how);
		close(s);
		close(r);
	}

	/* A symlink in the project to the outside socket. */
	unlink("dgram-link.sock");
	if (symlink(((struct sockaddr_un *)&path.ss)->sun_path, "dgram-link.sock") < 0)
		setup_failed("symlink dgram-link.sock");
	s = dgram_socket();
	rc = send_to(s, a_unix("%s", "dgram-link.sock"), 0);
	outcome("sendto(dgram-link.sock, a symlink to DIR/outside-dgram.sock)", s, rc, errno);
	close(s);
}

/* ---- unixpath ---- */

static void connect_path(const char *how, const char *path, socklen_t len)
{
	struct addr a = a_unix("%s", path);
	if (len != 0)
		a.len = len;
	try_connect(how, AF_UNIX, SOCK_STREAM, 0, a);
}

static void mode_unixpath(void)
{
	/* Room for a prefix before a whole path: what does not fit in sun_path is skipped. */
	char out[PATH_MAX], p[PATH_MAX + 64];
	int fd;

	snprintf(out, sizeof(out), "%s/outside.sock", dir);

	unlink("link.sock");
	unlink("link2.sock");
	unlink("srvdir");
	if (symlink(out, "link.sock") < 0 || symlink("link.sock", "link2.sock") < 0 ||
	    symlink(dir, "srvdir") < 0)
		setup_failed("symlinks in the project");
	connect_path("connect(link.sock -> DIR/outside.sock)", "link.sock", 0);
	connect_path("connect(link2.sock -> link.sock -> DIR/outside.sock)", "link2.sock", 0);
	connect_path("connect(srvdir/outside.sock, srvdir -> DIR)", "srvdir/outside.sock", 0);
	{
		char cwd[PATH_MAX], abs[PATH_MAX + 64];
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			setup_failed("getcwd");
		snprintf(abs, sizeof(abs), "%s/link.sock", cwd);
		connect_path("connect(/PROJECT/link.sock -> DIR/outside.sock)", abs, 0);
	}

	/* A hard link: read at the source, create in the project. */
	unlink("hard.sock");
	if (link(out, "hard.sock") == 0)
		connect_path("connect(hard.sock, a hard link of DIR/outside.sock)", "hard.sock", 0);
	else
		refused("link(DIR/outside.sock, hard.sock)", errno, EACCES);

	/* Relative paths from inside the outside directory. */
	int here = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (here < 0 || chdir(dir) < 0)
		setup_failed("chdir into the service's directory");
	connect_path("chdir(DIR), connect(outside.sock)", "outside.sock", 0);
	connect_path("chdir(DIR), connect(./outside.sock)", "./outside.sock", 0);
	connect_path("chdir(DIR), connect(/proc/self/cwd/outside.sock)",
		     "/proc/self/cwd/outside.sock", 0);
	if (fchdir(here) < 0)
		setup_failed("fchdir back");
	close(here);

	/* Magic links of an O_PATH fd. */
	fd = open(out, O_PATH | O_CLOEXEC);
	if (fd < 0)
		setup_failed("open(DIR/outside.sock, O_PATH)");
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	connect_path("connect(/proc/self/fd/N), N an O_PATH fd of DIR/outside.sock", p, 0);
	snprintf(p, sizeof(p), "/dev/fd/%d", fd);
	connect_path("connect(/dev/fd/N), N an O_PATH fd of DIR/outside.sock", p, 0);
	snprintf(p, sizeof(p), "/proc/thread-self/fd/%d", fd);
	connect_path("connect(/proc/thread-self/fd/N)", p, 0);
	snprintf(p, sizeof(p), "/proc/%d/fd/%d", getpid(), fd);
	connect_path("connect(/proc/PID/fd/N), PID our own", p, 0);
	close(fd);
	fd = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		setup_failed("open(DIR, O_PATH)");
	snprintf(p, sizeof(p), "/proc/self/fd/%d/outside.sock", fd);
	connect_path("connect(/proc/self/fd/N/outside.sock), N an O_PATH fd of DIR", p, 0);
	close(fd);
	snprintf(p, sizeof(p), "/proc/self/root%s", out);
	if (strlen(p) < 108)
		connect_path("connect(/proc/self/root/DIR/outside.sock)", p, 0);
	snprintf(p, sizeof(p), "%s/../%s/outside.sock", dir, strrchr(dir, '/') + 1);
	if (strlen(p) < 108)
		connect_path("connect(DIR/../srv/outside.sock)", p, 0);

	/* Bytes after the NUL: the kernel stops at the NUL, so must ward. */
	{
		struct addr a = a_unix("%s", out);
		struct sockaddr_un *un = (struct sockaddr_un *)&a.ss;
		size_t l = strlen(un->sun_path);
		memset(un->sun_path + l + 1, 'x', sizeof(un->sun_path) - l - 1);
		try_connect("connect(DIR/outside.sock NUL xxx...)", AF_UNIX, SOCK_STREAM, 0, a);
	}
	/* 108 bytes and no NUL: padded with slashes, which the path walk ignores. */
	{
		struct addr a = { .len = sizeof(struct sockaddr_un) };
		struct sockaddr_un *un = (struct sockaddr_un *)&a.ss;
		size_t l = strlen(out), pad = sizeof(un->sun_path) - l;
		un->sun_family = AF_UNIX;
		if (l < sizeof(un->sun_path)) {
			memset(un->sun_path, '/', pad);
			memcpy(un->sun_path + pad, out, l); /* no NUL: sun_path is full */
			try_connect("connect(a 108-byte path without NUL to DIR/outside.sock)", AF_UNIX,
				    SOCK_STREAM, 0, a);
		} else {
			errno = ENAMETOOLONG;
			setup_failed("DIR/outside.sock in a 108-byte sun_path");
		}
	}

	/* A socket of the session's own, replaced by a hard link of the outside one. */
	{
		struct addr own = a_unix("%s", "own.sock");
		int s = sock(AF_UNIX, SOCK_STREAM, 0);
		unlink("own.sock");
		unlink("swap.sock");
		if (bind(s, SA(own), own.len) < 0 || listen(s, 8) < 0)
			setup_failed("bind own.sock");
		if (link(out, "swap.sock") == 0 && rename("swap.sock", "own.sock") == 0)
			connect_path("connect(own.sock, a hard link of DIR/outside.sock renamed over it)",
				     "own.sock", 0);
		else
			refused("a hard link of DIR/outside.sock renamed over own.sock", errno, EACCES);
		close(s);
	}
}

/* ---- kinds ---- */

static bool have_net_raw(void)
{
	char buf[4096], *c;
	unsigned long long eff = 0;

	if (slurp("/proc/self/status", buf, sizeof(buf)) <= 0 || (c = strstr(buf, "CapEff:")) == NULL)
		return false;
	eff = strtoull(c + 7, NULL, 16);
	return (eff >> 13) & 1; /* CAP_NET_RAW */
}

static void try_socket(const char *how, long domain, long type, long proto)
{
	long s = syscall(SYS_socket, domain, type, proto);
	if (s < 0) {
		refused(how, errno, EACCES);
		return;
	}
	att_through = 1;
	say("LEAK: %s: made a socket ward cannot judge by address", how);
	close((int)s);
}

/* setsockopt that must fail with EPERM (ward's filter); success is through. */
static void try_sockopt(const char *how, int s, long level, long name, const void *v, socklen_t l)
{
	long rc = syscall(SYS_setsockopt, s, level, name, v, l);
	if (rc == 0) {
		att_through = 1;
		say("LEAK: %s: set", how);
	} else if (errno == EPERM) {
		blocked("%s: %s", how, strerror(errno));
	} else {
		/* The kernel's own refusal (e.g. a routing header type it does not build). */
		say("note: %s: %s, not ward's EPERM: the kernel refused it, which proves nothing", how,
		    strerror(errno));
	}
}

/* A segment routing header (type 4) of one segment. */
struct srh1 {
	uint8_t nexthdr, hdrlen, type, segments_left, first_segment, flags;
	uint16_t tag;
	struct in6_addr seg;
};

/* A type 2 routing header (Mobile IPv6): one address, which becomes the first hop. */
struct rt2 {
	uint8_t nexthdr, hdrlen, type, segments_left;
	uint32_t reserved;
	struct in6_addr addr;
};

static void mode_kinds(void)
{
	if (have_net_raw()) {
		try_socket("socket(AF_PACKET, SOCK_RAW, ETH_P_ALL)", AF_PACKET, SOCK_RAW,
			   htons(ETH_P_ALL));
		try_socket("socket(AF_PACKET, SOCK_DGRAM, ETH_P_ALL)", AF_PACKET, SOCK_DGRAM,
			   htons(ETH_P_ALL));
		try_socket("socket(AF_INET, SOCK_RAW, IPPROTO_RAW)", AF_INET, SOCK_RAW, IPPROTO_RAW);
		try_socket("socket(AF_INET6, SOCK_RAW, IPPROTO_RAW)", AF_INET6, SOCK_RAW, IPPROTO_RAW);
		try_socket("socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK, IPPROTO_UDP)", AF_INET,
			   SOCK_RAW | SOCK_NONBLOCK, IPPROTO_UDP);
		try_socket("socket(AF_INET, SOCK_PACKET, ETH_P_ALL)", AF_INET, SOCK_PACKET,
			   htons(ETH_P_ALL));
		/* The kernel reads int arguments: high bits must not hide the family. */
		try_socket("socket(AF_PACKET | 1 << 32, SOCK_RAW, ETH_P_ALL)", AF_PACKET | (1L << 32),
			   SOCK_RAW, htons(ETH_P_ALL));
		try_socket("socket(AF_INET, SOCK_RAW | 1 << 32, IPPROTO_RAW)", AF_INET,
			   SOCK_RAW | (1L << 32), IPPROTO_RAW);
	} else {
		say("note: no CAP_NET_RAW: raw and packet sockets fail without ward too, left out");
	}
	/* vsock reaches the hypervisor host: no address ward knows how to judge. */
	try_socket("socket(AF_VSOCK, SOCK_STREAM)", AF_VSOCK, SOCK_STREAM, 0);
	try_socket("socket(AF_VSOCK, SOCK_DGRAM)", AF_VSOCK, SOCK_DGRAM, 0);
	/* Ping sockets (net.ipv4.ping_group_range decides natively). */
	try_socket("socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP)", AF_INET, SOCK_DGRAM, IPPROTO_ICMP);
	try_socket("socket(AF_INET6, SOCK_DGRAM, IPPROTO_ICMPV6)", AF_INET6, SOCK_DGRAM,
		   IPPROTO_ICMPV6);
	/* MPTCP is TCP as far as addresses go: its connect must be decided. */
	if (kernel_lacks("mptcp")) {
		absent("MPTCP: this kernel has none (5.6), or it is turned off (net.mptcp.enabled)");
	} else {
		try_connect("MPTCP connect(127.0.0.1:TCP4)", AF_INET, SOCK_STREAM, IPPROTO_MPTCP,
			    a4("127.0.0.1", tcp4));
		try_sendto("MPTCP sendto(MSG_FASTOPEN, 127.0.0.1:TCP4)", AF_INET, SOCK_STREAM,
			   IPPROTO_MPTCP, a4("127.0.0.1", tcp4), MSG_FASTOPEN);
	}

	/* A loose source route through 127.0.0.1: the first hop replaces the destination. */
	static const uint8_t lsrr[8] = { IPOPT_LSRR, 7, 4, 127, 0, 0, 1, IPOPT_END };
	int s = sock(AF_INET, SOCK_DGRAM, 0);
	try_sockopt("setsockopt(IPPROTO_IP, IP_OPTIONS, LSRR)", s, IPPROTO_IP, IP_OPTIONS, lsrr,
		    sizeof(lsrr));
	try_sockopt("setsockopt(IPPROTO_IP | 1 << 32, IP_OPTIONS | 1 << 32, LSRR)", s,
		    IPPROTO_IP | (1L << 32), IP_OPTIONS | (1L << 32), lsrr, sizeof(lsrr));
	close(s);
	s = sock(AF_INET6, SOCK_DGRAM, 0);
	try_sockopt("setsockopt(SOL_IP, IP_OPTIONS, LSRR) on an AF_INET6 socket", s, SOL_IP,
		    IP_OPTIONS, lsrr, sizeof(lsrr));
	struct srh1 srh = { .hdrlen = 2, .type = 4 };
	srh.seg = in6addr_loopback;
	try_sockopt("setsockopt(IPPROTO_IPV6, IPV6_RTHDR, segment routing header)", s, IPPROTO_IPV6,
		    IPV6_RTHDR, &srh, sizeof(srh));
	/*
	 * IPV6_2292PKTOPTIONS takes control messages that stick to the socket,
	 * routing headers among them: a kernel with CONFIG_IPV6_MIP6 takes a
	 * type 2 one (others refuse it with EINVAL, which is no proof).
	 */
	{
		struct rt2 rt = { .hdrlen = 2, .type = 2, .segments_left = 1 };
		union {
			char buf[CMSG_SPACE(sizeof(rt))];
			struct cmsghdr align;
		} u;
		rt.addr = in6addr_loopback;
		memset(&u, 0, sizeof(u));
		u.align.cmsg_len = CMSG_LEN(sizeof(rt));
		u.align.cmsg_level = IPPROTO_IPV6;
		u.align.cmsg_type = IPV6_RTHDR;
		memcpy(CMSG_DATA(&u.align), &rt, sizeof(rt));
		try_sockopt("setsockopt(IPV6_2292PKTOPTIONS, a type 2 routing header)", s,
			    IPPROTO_IPV6, IPV6_2292PKTOPTIONS, u.buf, (socklen_t)sizeof(u.buf));
	}
	close(s);

	/* The same as control messages of a send to the session's own socket. */
	{
		struct addr own;
		int r = own_socket(AF_INET, SOCK_DGRAM, &own);
		union {
			char buf[CMSG_SPACE(sizeof(lsrr))];
			struct cmsghdr align;
		} u;
		memset(&u, 0, sizeof(u));
		u.align.cmsg_len = CMSG_LEN(sizeof(lsrr));
		u.align.cmsg_level = IPPROTO_IP;
		u.align.cmsg_type = IP_RETOPTS;
		memcpy(CMSG_DATA(&u.align), lsrr, sizeof(lsrr));
		char ping[] = "ping";
		struct iovec v = { ping, 4 };
		struct msghdr m = to(&own, &v);
		m.msg_control = u.buf;
		m.msg_controllen = sizeof(u.buf);
		s = sock(AF_INET, SOCK_DGRAM, 0);
		long rc = sendmsg(s, &m, 0);
		if (rc >= 0) {
			att_through = 1;
			say("LEAK: sendmsg(own socket, IP_RETOPTS LSRR): sent with a source route");
		} else {
			refused("sendmsg(own socket, IP_RETOPTS LSRR)", errno, EPERM);
		}
		/* connected, no name: the control message is still judged */
		if (connect(s, SA(own), own.len) < 0)
			wrong("connect to the session's own UDP socket: %s", strerror(errno));
		m.msg_name = NULL;
		m.msg_namelen = 0;
		rc = sendmsg(s, &m, 0);
		const char *how = "connect(own socket), sendmsg(IP_RETOPTS LSRR)";
		if (rc >= 0) {
			att_through = 1;
			say("LEAK: %s: sent with a source route", how);
		} else {
			refused(how, errno, EPERM);
		}
		close(s);
		close(r);
	}
}

/* ---- sessbind ---- */

/*
 * Bind a socket to b, then reach out to the outside service at out: ward
 * records what the session binds as the session's, but the port number
 * alone must not make the outside service one of them.
 */
static void bind_then_proto(const char *how, int bdomain, int btype, int bproto, struct addr b,
			    bool v6only, int domain, int type, struct addr out);

static void bind_then(const char *how, int bdomain, int btype, struct addr b, bool v6only,
		      int domain, int type, struct addr out)
{
	bind_then_proto(how, bdomain, btype, 0, b, v6only, domain, type, out);
}

/* The same, the bound socket of protocol bproto (UDP-Lite has a port space of its own). */
static void bind_then_proto(const char *how, int bdomain, int btype, int bproto, struct addr b,
			    bool v6only, int domain, int type, struct addr out)
{
	int one = 1, bs = sock(bdomain, btype, bproto);

	if (v6only && setsockopt(bs, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one)) < 0)
		setup_failed("IPV6_V6ONLY");
	if (bind(bs, SA(b), b.len) < 0) {
		missed("%s: the bind failed (%s): nothing to try", how, strerror(errno));
		close(bs);
		return;
	}
	if (type == SOCK_STREAM)
		try_connect(how, domain, type, 0, out);
	else
		try_sendto(how, domain, type, 0, out, 0);
	close(bs);
}

/*
 * Every bind stays the session's for the rest of the session, so the
 * binds here must not cover one another's destinations: no wildcard of
 * the destination's family, port and protocol (v6only has that one).
 */
static void mode_sessbind(void)
{
	struct addr t4 = a4("127.0.0.1", tcp4), u4 = a4("127.0.0.1", udp4);

	if (tcp6 != 0) {
		/* 0.0.0.0 is IPv4's wildcard: it says nothing of ::1. */
		bind_then("bind(0.0.0.0:TCP6), connect([::1]:TCP6)", AF_INET, SOCK_STREAM,
			  a4("0.0.0.0", tcp6), false, AF_INET6, SOCK_STREAM, a6("::1", tcp6));
		bind_then("bind(0.0.0.0:UDP6), sendto([::1]:UDP6)", AF_INET, SOCK_DGRAM,
			  a4("0.0.0.0", udp6), false, AF_INET6, SOCK_DGRAM, a6("::1", udp6));
	}
	/* Another loopback address with the same port. */
	bind_then("bind([::1]:TCP4), connect(127.0.0.1:TCP4)", AF_INET6, SOCK_STREAM,
		  a6("::1", tcp4), true, AF_INET, SOCK_STREAM, t4);
	bind_then("bind(127.0.0.2:TCP4), connect(127.0.0.1:TCP4)", AF_INET, SOCK_STREAM,
		  a4("127.0.0.2", tcp4), false, AF_INET, SOCK_STREAM, t4);
	bind_then("bind([::ffff:127.0.0.2]:UDP4), sendto([::ffff:127.0.0.1]:UDP4)", AF_INET6,
		  SOCK_DGRAM, a6("::ffff:127.0.0.2", udp4), false, AF_INET6, SOCK_DGRAM,
		  a6("::ffff:127.0.0.1", udp4));
	/* The same port number in the other protocol's space. */
	bind_then("bind(UDP 0.0.0.0:TCP4), connect(TCP 127.0.0.1:TCP4)", AF_INET, SOCK_DGRAM,
		  a4("0.0.0.0", tcp4), false, AF_INET, SOCK_STREAM, t4);
	bind_then("bind(TCP 0.0.0.0:UDP4), sendto(UDP 127.0.0.1:UDP4)", AF_INET, SOCK_STREAM,
		  a4("0.0.0.0", udp4), false, AF_INET, SOCK_DGRAM, u4);
	/* UDP-Lite's port space is not UDP's: its bind takes nothing from the UDP service. */
	bind_then_proto("bind(UDP-Lite 0.0.0.0:UDP4), sendto(UDP 127.0.0.1:UDP4)", AF_INET,
			SOCK_DGRAM, IPPROTO_UDPLITE, a4("0.0.0.0", udp4), false, AF_INET, SOCK_DGRAM,
			u4);
	/*
	 * An abstract name is one per socket type: a datagram socket may take
	 * the name the outside stream service listens on.
	 */
	struct addr abs = a_abstract("ward-attack-%d", pid);
	bind_then("bind(DGRAM unix-abstract:ward-attack-PID), connect(STREAM to it)", AF_UNIX,
		  SOCK_DGRAM, abs, false, AF_UNIX, SOCK_STREAM, abs);
}

/*
 * [::] with IPV6_V6ONLY does not take IPv4's port, so the bind succeeds
 * beside the outside service's 127.0.0.1:PORT; what it makes the
 * session's must not include IPv4 loopback.
 */
static void mode_v6only(void)
{
	bind_then("bind([::]:TCP4, IPV6_V6ONLY), connect(127.0.0.1:TCP4)", AF_INET6, SOCK_STREAM,
		  a6("::", tcp4), true, AF_INET, SOCK_STREAM, a4("127.0.0.1", tcp4));
	bind_then("bind([::]:UDP4, IPV6_V6ONLY), sendto(127.0.0.1:UDP4)", AF_INET6, SOCK_DGRAM,
		  a6("::", udp4), true, AF_INET, SOCK_DGRAM, a4("127.0.0.1", udp4));
}

/* ---- reuseport ---- */

/*
 * SO_REUSEPORT lets sockets of one user share an address and port.  A
 * socket of the session that joins the outside service's group binds
 * that address, but the kernel spreads connections and datagrams over the
 * whole group: the outside service gets its share.
 */
static void mode_reuseport(void)
{
	static const char tcp_how[] = "join the SO_REUSEPORT group of 127.0.0.1:TCPR, connect to it";
	static const char udp_how[] = "join the SO_REUSEPORT group of 127.0.0.1:UDPR, sendto it";
	struct addr t = a4("127.0.0.1", tcpr), u = a4("127.0.0.1", udpr);
	int one = 1, ours = 0, denied = 0, other = 0;
	int l = sock(AF_INET, SOCK_STREAM | SOCK_NONBLOCK, 0);

	if (setsockopt(l, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) < 0 ||
	    bind(l, SA(t), t.len) < 0 || listen(l, 64) < 0) {
		setup_failed("joining the SO_REUSEPORT group of 127.0.0.1:TCPR");
	} else {
		for (int i = 0; i < 32 && !att_through; i++) {
			int s = sock(AF_INET, SOCK_STREAM, 0);
			if (connect(s, SA(t), t.len) < 0) {
				errno == EACCES ? denied++ : other++;
			} else {
				int c = accept4(l, NULL, NULL, SOCK_CLOEXEC);
				if (c >= 0) {
					ours++;
					close(c);
				} else {
					outcome(tcp_how, s, 0, 0);
				}
			}
			close(s);
		}
		if (!att_through && denied > 0 && other == 0)
			blocked("%s: 32 connects: %d to our socket, %d denied", tcp_how, ours, denied);
		else if (!att_through)
			missed("%s: 32 connects: %d to our socket, %d denied, %d other errors", tcp_how,
			       ours, denied, other);
	}
	close(l);

	int r = sock(AF_INET, SOCK_DGRAM, 0), s[32];
	ours = denied = other = 0;
	if (setsockopt(r, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) < 0 ||
	    bind(r, SA(u), u.len) < 0) {
		setup_failed("joining the SO_REUSEPORT group of 127.0.0.1:UDPR");
	}
	/* From 32 sockets, 32 source ports: the kernel's hash spreads them. */
	for (int i = 0; i < 32; i++) {
		s[i] = sock(AF_INET, SOCK_DGRAM, 0);
		if (send_to(s[i], u, 0) < 0)
			errno == EACCES ? denied++ : other++;
	}
	usleep(200 * 1000);
	ours = drain(r);
	bool leaked = false;
	for (int i = 0; i < 32; i++) {
		if (!leaked)
			leaked = answered(udp_how, s[i], 0);
		close(s[i]);
	}
	if (!leaked && denied > 0 && other == 0)
		blocked("%s: 32 sends: %d to our socket, %d denied", udp_how, ours, denied);
	else if (!leaked)
		missed("%s: 32 sends: %d to our socket, %d denied, %d other errors", udp_how, ours,
		       denied, other);
	close(r);
}

/* ---- anyaddr ---- */

static void mode_anyaddr(void)
{
	/* The control: the policy of this test denies loopback. */
	try_connect("connect(127.0.0.1:TCP4) (the policy's own loopback deny)", AF_INET,
		    SOCK_STREAM, 0, a4("127.0.0.1", tcp4));
	try_connect("connect(0.0.0.0:TCP4)", AF_INET, SOCK_STREAM, 0, a4("0.0.0.0", tcp4));
	try_connect("connect([::ffff:0.0.0.0]:TCP4)", AF_INET6, SOCK_STREAM, 0,
		    a6("::ffff:0.0.0.0", tcp4));
	try_sendto("sendto(MSG_FASTOPEN, 0.0.0.0:TCP4)", AF_INET, SOCK_STREAM, 0,
		   a4("0.0.0.0", tcp4), MSG_FASTOPEN);
	try_sendto("sendto(0.0.0.0:UDP4)", AF_INET, SOCK_DGRAM, 0, a4("0.0.0.0", udp4), 0);
	struct addr unspec = a4("0.0.0.0", udp4);
	unspec.ss.ss_family = AF_UNSPEC;
	try_sendto("sendto(AF_UNSPEC name holding 0.0.0.0:UDP4)", AF_INET, SOCK_DGRAM, 0, unspec, 0);
	if (tcp6 != 0) {
		try_connect("connect([::]:TCP6)", AF_INET6, SOCK_STREAM, 0, a6("::", tcp6));
		try_sendto("sendto([::]:UDP6)", AF_INET6, SOCK_DGRAM, 0, a6("::", udp6), 0);
	}
	/*
	 * Broadcast and multicast reach every socket of the host bound to the
	 * port (and the group): the host's own services too.  Any send counts
	 * here, answered or not.
	 */
	const char *casts[] = { "255.255.255.255", "224.0.0.1", NULL };
	for (int i = 0; casts[i]; i++) {
		int s = sock(AF_INET, SOCK_DGRAM, 0), on = 1;
		char how[96];
		setsockopt(s, SOL_SOCKET, SO_BROADCAST, &on, sizeof(on));
		snprintf(how, sizeof(how), "sendto(%s:UDP4)", casts[i]);
		if (send_to(s, a4(casts[i], udp4), 0) >= 0) {
			att_through = 1;
			say("LEAK: %s: sent, to every socket of the host on that port", how);
		} else {
			refused(how, errno, EACCES);
		}
		close(s);
	}
}

/* A unix socket bound at path (closed again when keep is false: a stale file). */
static int bound_at(const char *path, bool keep)
{
	struct addr a = a_unix("%s", path);
	int s = sock(AF_UNIX, SOCK_STREAM, 0);

	if (bind(s, SA(a), a.len) < 0 || listen(s, 1) < 0)
		setup_failed("bind a unix socket of the session's");
	if (!keep) {
		close(s);
		return -1;
	}
	return s;
}

/* The outside service's socket, or the way to it, was changed: through. */
static void taken(const char *what)
{
	att_through = 1;
	say("LEAK: %s", what);
}

static void mode_takeover(void)
{
	char osock[PATH_MAX + 32], moved[PATH_MAX + 32], mine[PATH_MAX + 32], dmoved[PATH_MAX + 96];
	char cwd[PATH_MAX];

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	snprintf(osock, sizeof(osock), "%s/outside.sock", dir);
	snprintf(moved, sizeof(moved), "%s/moved.sock", dir);
	snprintf(mine, sizeof(mine), "%s/mine.txt", cwd);
	snprintf(dmoved, sizeof(dmoved), "%s.moved", dir);
	int fd = open(mine, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (fd < 0)
		setup_failed("a file of the session's");
	close(fd);
	if (unlink(osock) == 0)
		taken("unlink() removed the socket the outside service listens on");
	else
		refused("unlink(outside.sock)", errno, EACCES);
	if (rename(osock, moved) == 0) {
		taken("rename() moved the socket the outside service listens on");
		rename(moved, osock);
	} else {
		refused("rename(outside.sock, moved.sock)", errno, EACCES);
	}
	if (rename(mine, osock) == 0)
		taken("rename() replaced the socket the outside service listens on");
	else
		refused("rename(a file, outside.sock)", errno, EACCES);
	if (syscall(SYS_renameat2, AT_FDCWD, mine, AT_FDCWD, osock, RENAME_EXCHANGE) == 0) {
		taken("renameat2(RENAME_EXCHANGE) moved the socket the outside service listens on");
		syscall(SYS_renameat2, AT_FDCWD, mine, AT_FDCWD, osock, RENAME_EXCHANGE);
	} else {
		refused("renameat2(a file, outside.sock, RENAME_EXCHANGE)", errno, EACCES);
	}
	if (rename(dir, dmoved) == 0) {
		taken("rename() moved the directory of the socket the outside service listens on");
		rename(dmoved, dir);
	} else {
		refused("rename(the service's directory)", errno, EACCES);
	}
	/*
	 * A listener bound by a name with a symlink and "//" in it
	 * ($LINKED_DIR//srvlink/svc/s.sock, srvlink -> srvreal): the real
	 * directory moved, the symlink replaced or removed.
	 */
	const char *ld = getenv("LINKED_DIR");
	if (ld == NULL)
		setup_failed("$LINKED_DIR");
	char real_svc[PATH_MAX + 32], link[PATH_MAX + 32], tmpl[PATH_MAX + 32];
	snprintf(real_svc, sizeof(real_svc), "%s/srvreal/svc", ld);
	snprintf(link, sizeof(link), "%s/srvlink", ld);
	snprintf(tmpl, sizeof(tmpl), "%s/srvlink.new", ld);
	snprintf(dmoved, sizeof(dmoved), "%s.moved", real_svc);
	if (rename(real_svc, dmoved) == 0) {
		taken("rename() moved the real directory of a socket bound through a symlink");
		rename(dmoved, real_svc);
	} else {
		refused("rename(srvreal/svc)", errno, EACCES);
	}
	if (symlink(cwd, tmpl) < 0)
		setup_failed("symlink");
	if (rename(tmpl, link) == 0)
		taken("rename() replaced the symlink on the way to an outside listener");
	else
		refused("rename(a symlink, srvlink)", errno, EACCES);
	unlink(tmpl);
	if (unlink(link) == 0)
		taken("unlink() removed the symlink on the way to an outside listener");
	else
		refused("unlink(srvlink)", errno, EACCES);
	/* The session's own socket files: one listened on, one left stale. */
	char own[PATH_MAX + 32], stale[PATH_MAX + 32];
	snprintf(own, sizeof(own), "%s/own.sock", cwd);
	snprintf(stale, sizeof(stale), "%s/stale.sock", cwd);
	int l = bound_at(own, true);
	bound_at(stale, false);
	/* A connection accepted, then the listener closed: the file is still the session's. */
	struct addr oa = a_unix("%s", own);
	int c = sock(AF_UNIX, SOCK_STREAM, 0), acc;
	if (connect(c, SA(oa), oa.len) < 0 || (acc = accept(l, NULL, NULL)) < 0)
		setup_failed("connect to the session's own socket");
	close(l);
	l = acc;
	if (unlink(own) < 0)
		wrong("unlink() of the session's own socket file: %s", strerror(errno));
	if (unlink(stale) < 0)
		wrong("unlink() of a socket file no one listens on: %s", strerror(errno));
	close(l);
	close(c);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	static const struct {
		const char *name;
		void (*fn)(void);
	} modes[] = {
		{ "udp", mode_udp },
		{ "v6", mode_v6 },
		{ "fastopen", mode_fastopen },
		{ "unixdgram", mode_unixdgram },
		{ "unixpath", mode_unixpath },
		{ "kinds", mode_kinds },
		{ "sessbind", mode_sessbind },
		{ "v6only", mode_v6only },
		{ "reuseport", mode_reuseport },
		{ "anyaddr", mode_anyaddr },
		{ "takeover", mode_takeover },
	};

	/* A refused stream connection must not kill us with SIGPIPE. */
	signal(SIGPIPE, SIG_IGN);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++) {
		if (strcmp(mode, modes[i].name) == 0) {
			read_info();
			modes[i].fn();
			return finish();
		}
	}
	errno = EINVAL;
	setup_failed(mode);
}
