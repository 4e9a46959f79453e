/*
 * attack_connect - reach a service outside the session that hands out the
 * secret (think ssh-agent, a docker or D-Bus socket, a local database).
 * The default profile says:
 *     deny    connect  @loopback unix:/(anything) unix-abstract:*
 *     allow   connect,bind  @session
 * so a socket ward did not see this session bind is out of reach: unix
 * path, unix abstract, and TCP on 127.0.0.1.
 *
 *   serve DIR SECRETFILE   (run by the driver, outside ward) the outside
 *                          service, also used by attack_net*: see serve()
 *   (no argument)          the attack: $ATTACK_DIR names DIR
 */
#include "attack.h"

#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

enum {
	S_UNIX,
	S_ABSTRACT,
	S_TCP4,
	S_TCP6,
	S_UDP4,
	S_UDP6,
	S_UNIX_DGRAM,
	S_ABSTRACT_DGRAM,
	S_TCP4_REUSE,
	S_UDP4_REUSE,
	S_N
};
static const char *const s_name[S_N] = {
	"unix", "abstract",	  "tcp4",	    "tcp6",	       "udp4",
	"udp6", "unix-dgram", "abstract-dgram", "tcp4-reuseport", "udp4-reuseport",
};

static socklen_t abstract_name(struct sockaddr_un *un, const char *fmt, int pid)
{
	memset(un, 0, sizeof(*un));
	un->sun_family = AF_UNIX;
	snprintf(un->sun_path + 1, sizeof(un->sun_path) - 1, fmt, pid);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(un->sun_path + 1));
}

/*
 * An inet socket of type on loopback (v4 or v6), port picked by the
 * kernel; -1 on failure.  reuseport: open to other sockets of the same
 * user (SO_REUSEPORT), as some servers are.
 */
static int loopback_socket(int family, int type, bool reuseport, int *port)
{
	struct sockaddr_storage ss = { .ss_family = (sa_family_t)family };
	socklen_t l = family == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);
	int one = 1, s = socket(family, type, 0);

	if (s < 0)
		return -1;
	if (reuseport && setsockopt(s, SOL_SOCKET, SO_REUSEPORT, &one, sizeof(one)) < 0) {
		close(s);
		return -1;
	}
	if (family == AF_INET)
		((struct sockaddr_in *)&ss)->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	else {
		((struct sockaddr_in6 *)&ss)->sin6_addr = in6addr_loopback;
		/* Only ::1: the IPv4 service is a socket of its own. */
		setsockopt(s, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
	}
	if (bind(s, (struct sockaddr *)&ss, l) < 0 || getsockname(s, (struct sockaddr *)&ss, &l) < 0) {
		close(s);
		return -1;
	}
	*port = ntohs(family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
					: ((struct sockaddr_in6 *)&ss)->sin6_port);
	if (type == SOCK_STREAM) {
		/* So that a fast open (MSG_FASTOPEN, TCP_FASTOPEN_CONNECT) is one natively. */
		int qlen = 8;
		setsockopt(s, IPPROTO_TCP, TCP_FASTOPEN, &qlen, sizeof(qlen));
		if (listen(s, 64) < 0) {
			close(s);
			return -1;
		}
	}
	return s;
}

/*
 * The outside service.  It listens on
 *     DIR/outside.sock, @ward-attack-PID            unix stream
 *     127.0.0.1:TCP4, [::1]:TCP6                     TCP (with TCP_FASTOPEN)
 *     127.0.0.1:UDP4, [::1]:UDP6                     UDP
 *     DIR/outside-dgram.sock, @ward-attack-dgram-PID unix datagram
 *     127.0.0.1:TCPR, 127.0.0.1:UDPR                 TCP and UDP with SO_REUSEPORT
 * writes "TCP4 PID TCP6 UDP4 UDP6 TCPR UDPR" to DIR/info (a port is 0
 * when that socket could not be made, e.g. without IPv6), and hands the
 * secret to every client: to every stream it accepts, in answer to every
 * datagram whose sender has a name.  Every connection and datagram it
 * receives is a line in DIR/hits, so the driver can tell that nothing
 * reached it even when the answer was lost.
 */
static int serve(const char *dir, const char *secretfile)
{
	char secret[256], path[PATH_MAX], info[PATH_MAX];
	ssize_t len = slurp(secretfile, secret, sizeof(secret));
	struct sockaddr_un un;
	socklen_t l;
	int s[S_N], port[S_N] = { 0 }, hits;

	if (len <= 0)
		return 2;
	snprintf(path, sizeof(path), "%s/hits", dir);
	hits = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND | O_CLOEXEC, 0644);
	if (hits < 0)
		return 2;

	memset(&un, 0, sizeof(un));
	un.sun_family = AF_UNIX;
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/outside.sock", dir);
	unlink(un.sun_path);
	s[S_UNIX] = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s[S_UNIX] < 0 || bind(s[S_UNIX], (struct sockaddr *)&un, sizeof(un)) < 0 ||
	    listen(s[S_UNIX], 64) < 0)
		return 2;
	chmod(un.sun_path, 0777);
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/outside-dgram.sock", dir);
	unlink(un.sun_path);
	s[S_UNIX_DGRAM] = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (s[S_UNIX_DGRAM] < 0 || bind(s[S_UNIX_DGRAM], (struct sockaddr *)&un, sizeof(un)) < 0)
		return 2;
	chmod(un.sun_path, 0777);
	l = abstract_name(&un, "ward-attack-%d", getpid());
	s[S_ABSTRACT] = socket(AF_UNIX, SOCK_STREAM, 0);
	if (s[S_ABSTRACT] < 0 || bind(s[S_ABSTRACT], (struct sockaddr *)&un, l) < 0 ||
	    listen(s[S_ABSTRACT], 64) < 0)
		return 2;
	l = abstract_name(&un, "ward-attack-dgram-%d", getpid());
	s[S_ABSTRACT_DGRAM] = socket(AF_UNIX, SOCK_DGRAM, 0);
	if (s[S_ABSTRACT_DGRAM] < 0 || bind(s[S_ABSTRACT_DGRAM], (struct sockaddr *)&un, l) < 0)
		return 2;
	s[S_TCP4] = loopback_socket(AF_INET, SOCK_STREAM, false, &port[S_TCP4]);
	s[S_UDP4] = loopback_socket(AF_INET, SOCK_DGRAM, false, &port[S_UDP4]);
	s[S_TCP4_REUSE] = loopback_socket(AF_INET, SOCK_STREAM, true, &port[S_TCP4_REUSE]);
	s[S_UDP4_REUSE] = loopback_socket(AF_INET, SOCK_DGRAM, true, &port[S_UDP4_REUSE]);
	if (s[S_TCP4] < 0 || s[S_UDP4] < 0 || s[S_TCP4_REUSE] < 0 || s[S_UDP4_REUSE] < 0)
		return 2;
	/* IPv6 may be off: the attacks skip what has port 0. */
	s[S_TCP6] = loopback_socket(AF_INET6, SOCK_STREAM, false, &port[S_TCP6]);
	s[S_UDP6] = loopback_socket(AF_INET6, SOCK_DGRAM, false, &port[S_UDP6]);

	snprintf(path, sizeof(path), "%s/info.tmp", dir);
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return 2;
	fprintf(f, "%d %d %d %d %d %d %d\n", port[S_TCP4], getpid(), port[S_TCP6], port[S_UDP4],
		port[S_UDP6], port[S_TCP4_REUSE], port[S_UDP4_REUSE]);
	fclose(f);
	snprintf(info, sizeof(info), "%s/info", dir);
	rename(path, info);
	for (;;) {
		struct pollfd p[S_N];
		for (int i = 0; i < S_N; i++)
			p[i] = (struct pollfd){ s[i], POLLIN, 0 };
		if (poll(p, S_N, -1) < 0)
			continue;
		for (int i = 0; i < S_N; i++) {
			char line[160], buf[512];
			struct sockaddr_storage from;
			socklen_t fl = sizeof(from);
			ssize_t w;

			if (!(p[i].revents & POLLIN))
				continue;
			if (i == S_UDP4 || i == S_UDP6 || i == S_UNIX_DGRAM || i == S_ABSTRACT_DGRAM ||
			    i == S_UDP4_REUSE) {
				ssize_t n = recvfrom(s[i], buf, sizeof(buf), MSG_DONTWAIT,
						     (struct sockaddr *)&from, &fl);
				if (n < 0)
					continue;
				snprintf(line, sizeof(line), "%s datagram of %zd bytes\n", s_name[i], n);
				w = write(hits, line, strlen(line));
				/* A unix sender without a name cannot be answered. */
				if (fl > sizeof(sa_family_t))
					w = sendto(s[i], secret, (size_t)len, MSG_DONTWAIT,
						   (struct sockaddr *)&from, fl);
				(void)w;
				continue;
			}
			int c = accept4(s[i], NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				continue;
			snprintf(line, sizeof(line), "%s connection\n", s_name[i]);
			w = write(hits, line, strlen(line));
			w = write(c, secret, (size_t)len);
			(void)w;
			close(c);
		}
	}
}

static void attempt(const char *how, int fam, const struct sockaddr *sa, socklen_t len)
{
	int s = socket(fam, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		setup_failed("socket");
	if (connect(s, sa, len) < 0) {
		refused(how, errno, EACCES);
		close(s);
		return;
	}
	char buf[256];
	ssize_t n = read(s, buf, sizeof(buf) - 1);
	if (n > 0 && is_secret(buf, (size_t)n))
		leak(how, buf, (size_t)n);
	else {
		att_through = 1;
		say("LEAK: %s: connected to a socket outside the session", how);
	}
	close(s);
}

int main(int argc, char **argv)
{
	if (argc == 4 && strcmp(argv[1], "serve") == 0)
		return serve(argv[2], argv[3]);

	const char *dir = getenv("ATTACK_DIR");
	char info[PATH_MAX], buf[64];
	int port = 0, pid = 0;

	if (dir == NULL) {
		errno = EINVAL;
		setup_failed("$ATTACK_DIR");
	}
	snprintf(info, sizeof(info), "%s/info", dir);
	if (slurp(info, buf, sizeof(buf)) <= 0 || sscanf(buf, "%d %d", &port, &pid) != 2)
		setup_failed("read the server's info");

	struct sockaddr_un un = { .sun_family = AF_UNIX }, ab;
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/outside.sock", dir);
	attempt("connect(unix:DIR/outside.sock)", AF_UNIX, (struct sockaddr *)&un, sizeof(un));
	socklen_t abl = abstract_name(&ab, "ward-attack-%d", pid);
	attempt("connect(unix-abstract:ward-attack-PID)", AF_UNIX, (struct sockaddr *)&ab, abl);
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	attempt("connect(127.0.0.1:PORT)", AF_INET, (struct sockaddr *)&in, sizeof(in));
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &in6.sin6_addr);
	attempt("connect([::ffff:127.0.0.1]:PORT)", AF_INET6, (struct sockaddr *)&in6, sizeof(in6));
	return finish();
}
