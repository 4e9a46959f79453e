/*
 * net OP ARG... [, OP ARG...]... - the network calls, one line a call.
 *
 * Every call is made with raw syscall(2) and printed strace style with
 * its result, so tests/integration/net.sh can compare a run under ward
 * with the kernel's own answers.  Operations, separated by ",":
 *
 *   socket DOMAIN TYPE PROTO      AF_INET SOCK_STREAM|SOCK_NONBLOCK 0 ...
 *   connect FD ADDR               connect(2)
 *   bind FD ADDR                  bind(2)
 *   listen FD BACKLOG             listen(2)
 *   sendto FD FLAGS ADDR DATA     sendto(2); ADDR "-" is NULL
 *   sendmsg FD FLAGS ADDR DATA [PASSFD]   sendmsg(2), PASSFD sent with SCM_RIGHTS
 *   sendcred FD ADDR DATA UID GID  sendmsg(2) with SCM_CREDENTIALS {getpid(), UID, GID};
 *                                 UID, GID "self": the caller's own
 *   sendmmsg FD FLAGS ADDR/ADDR/... DATA  sendmmsg(2), one message an address;
 *                                 prints the msg_len of each message sent
 *   setsockopt FD LEVEL NAME INT  setsockopt(2)
 *   accept FD                     accept4(2) once FD is ready (5 s at most)
 *   recv FD                       recvfrom(2) (MSG_DONTWAIT unless "recvw"), data printed
 *   recvw FD                      the same, waiting up to 5 s for data
 *   recvc FD                      recvmsg(2) after waiting up to 5 s: the data and the
 *                                 uid and gid of SCM_CREDENTIALS (the pid is not printed:
 *                                 a ward that may not claim the agent's pid sends its own)
 *   wait FD                       poll(2) for POLLOUT, then SO_ERROR (a connect's outcome)
 *   port FD                       getsockname(2): the port bound, printed as "port = N"
 *   name FD                       getsockname(2) of a unix socket: its name
 *   close FD
 *   sleep SECONDS
 *   alarm SECONDS                 SIGALRM in SECONDS, to a handler (no SA_RESTART)
 *
 * ADDR:
 *   in:A.B.C.D:PORT    sockaddr_in              in6:[V6]:PORT   sockaddr_in6
 *   un:PATH            sockaddr_un, full length  abs:NAME        abstract, exact length
 *   unspec             AF_UNSPEC                nl:PID          sockaddr_nl
 *   raw:LEN:HEX        those bytes, LEN given (lengths and families the kernel refuses)
 *   len:LEN:ADDR       ADDR with its length replaced by LEN
 *   bad:LEN            an unmapped pointer, length LEN
 *   unterm:PATH        sockaddr_un whose 108 path bytes hold no NUL (PATH repeated)
 * A PORT of the form @FILE:N is the Nth number in FILE (ports picked at run time).
 */
#include "common.h"

#include <arpa/inet.h>
#include <linux/netlink.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

#ifndef TCP_FASTOPEN_CONNECT
#define TCP_FASTOPEN_CONNECT 30
#endif
#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif

static const struct sym nsyms[] = {
	SYM(AF_UNIX), SYM(AF_INET), SYM(AF_INET6), SYM(AF_NETLINK), SYM(AF_PACKET),
	SYM(AF_UNSPEC), SYM(AF_VSOCK), SYM(AF_ALG),
	SYM(SOCK_STREAM), SYM(SOCK_DGRAM), SYM(SOCK_RAW), SYM(SOCK_SEQPACKET),
	SYM(SOCK_NONBLOCK), SYM(SOCK_CLOEXEC),
	SYM(IPPROTO_TCP), SYM(IPPROTO_UDP), SYM(IPPROTO_ICMP), SYM(IPPROTO_ICMPV6),
	SYM(IPPROTO_SCTP), SYM(IPPROTO_IP), SYM(IPPROTO_IPV6), SYM(NETLINK_ROUTE),
	SYM(MSG_FASTOPEN), SYM(MSG_DONTWAIT), SYM(MSG_NOSIGNAL),
	SYM(SOL_SOCKET), SYM(SO_REUSEADDR), SYM(TCP_FASTOPEN_CONNECT), SYM(IP_OPTIONS),
	SYM(IPV6_V6ONLY), SYM(TCP_NODELAY), SYM(SO_PASSCRED),
	{ NULL, 0 },
};

static unsigned long nnum(const char *s)
{
	unsigned long v = 0;
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *w = strtok_r(buf, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		const struct sym *y;
		for (y = nsyms; y->name && strcmp(y->name, w) != 0; y++)
			;
		v |= y->name ? y->val : num(w);
	}
	return v;
}

/* A port: a number, or @FILE:N, the Nth number (from 1) in FILE. */
static uint16_t port_of(const char *s)
{
	if (s[0] != '@')
		return (uint16_t)atoi(s);
	char file[512], buf[4096];
	const char *colon = strrchr(s, ':');
	if (colon == NULL)
		usage("@FILE:N");
	snprintf(file, sizeof(file), "%.*s", (int)(colon - s - 1), s + 1);
	FILE *f = fopen(file, "r");
	if (f == NULL)
		usage("cannot read the port file");
	size_t n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	int want = atoi(colon + 1), i = 0;
	for (char *save = NULL, *w = strtok_r(buf, " \n", &save); w; w = strtok_r(NULL, " \n", &save))
		if (++i == want)
			return (uint16_t)atoi(w);
	usage("no such port in the port file");
	return 0;
}

struct addr {
	struct sockaddr_storage ss;
	void *ptr;
	socklen_t len;
};

/* Parse ADDR into a; for "-" a->ptr is NULL. */
static void addr_parse(const char *s, struct addr *a)
{
	memset(a, 0, sizeof(*a));
	a->ptr = &a->ss;
	if (strcmp(s, "-") == 0) {
		a->ptr = NULL;
		return;
	}
	if (strncmp(s, "in:", 3) == 0) {
		struct sockaddr_in *in = (struct sockaddr_in *)&a->ss;
		char host[64];
		const char *colon = strrchr(s + 3, ':');
		if (colon == NULL)
			usage("in:A.B.C.D:PORT");
		snprintf(host, sizeof(host), "%.*s", (int)(colon - s - 3), s + 3);
		in->sin_family = AF_INET;
		in->sin_port = htons(port_of(colon + 1));
		if (inet_pton(AF_INET, host, &in->sin_addr) != 1)
			usage("bad IPv4 address");
		a->len = sizeof(*in);
	} else if (strncmp(s, "in6:[", 5) == 0) {
		struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&a->ss;
		char host[64];
		const char *close = strchr(s, ']');
		if (close == NULL || close[1] != ':')
			usage("in6:[V6]:PORT");
		snprintf(host, sizeof(host), "%.*s", (int)(close - s - 5), s + 5);
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port_of(close + 2));
		if (inet_pton(AF_INET6, host, &in6->sin6_addr) != 1)
			usage("bad IPv6 address");
		a->len = sizeof(*in6);
	} else if (strncmp(s, "un:", 3) == 0) {
		struct sockaddr_un *un = (struct sockaddr_un *)&a->ss;
		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof(un->sun_path), "%s", s + 3);
		a->len = sizeof(*un);
	} else if (strncmp(s, "unterm:", 7) == 0) {
		struct sockaddr_un *un = (struct sockaddr_un *)&a->ss;
		size_t n = strlen(s + 7);
		un->sun_family = AF_UNIX;
		for (size_t i = 0; i < sizeof(un->sun_path); i++)
			un->sun_path[i] = s[7 + i % n];
		a->len = sizeof(*un);
	} else if (strncmp(s, "abs:", 4) == 0) {
		struct sockaddr_un *un = (struct sockaddr_un *)&a->ss;
		un->sun_family = AF_UNIX;
		memcpy(un->sun_path + 1, s + 4, strlen(s + 4));
		a->len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(s + 4));
	} else if (strcmp(s, "unspec") == 0) {
		a->ss.ss_family = AF_UNSPEC;
		a->len = sizeof(struct sockaddr_in);
	} else if (strncmp(s, "nl:", 3) == 0) {
		struct sockaddr_nl *nl = (struct sockaddr_nl *)&a->ss;
		nl->nl_family = AF_NETLINK;
		nl->nl_pid = (uint32_t)atoi(s + 3);
		a->len = sizeof(*nl);
	} else if (strncmp(s, "raw:", 4) == 0) {
		char *end;
		a->len = (socklen_t)strtoul(s + 4, &end, 0);
		const char *hex = end + 1;
		for (size_t i = 0; hex[2 * i] && hex[2 * i + 1] && i < sizeof(a->ss); i++) {
			unsigned v;
			sscanf(hex + 2 * i, "%2x", &v);
			((uint8_t *)&a->ss)[i] = (uint8_t)v;
		}
	} else if (strncmp(s, "len:", 4) == 0) {
		char *end;
		long len = strtol(s + 4, &end, 0);
		addr_parse(end + 1, a);
		a->len = (socklen_t)len;
	} else if (strncmp(s, "bad:", 4) == 0) {
		a->ptr = (void *)8; /* never mapped */
		a->len = (socklen_t)atoi(s + 4);
	} else {
		usage("unknown address form");
	}
}

static long sys(long nr, long a, long b, long c, long d, long e, long f)
{
	return syscall(nr, a, b, c, d, e, f);
}

static void op_sendmsg(char **w, int n)
{
	int fd = atoi(w[1]), flags = (int)nnum(w[2]);
	struct addr a;
	struct iovec iov = { w[4], strlen(w[4]) };
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} ctl;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };

	addr_parse(w[3], &a);
	m.msg_name = a.ptr;
	m.msg_namelen = a.len;
	if (n > 5) {
		int pass = atoi(w[5]);
		memset(&ctl, 0, sizeof(ctl));
		m.msg_control = ctl.buf;
		m.msg_controllen = sizeof(ctl.buf);
		struct cmsghdr *c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &pass, sizeof(int));
	}
	long rc = sys(SYS_sendmsg, fd, (long)&m, flags, 0, 0, 0);
	out(rc, errno, "sendmsg(%d, {%s, %s%s%s}, %s)", fd, w[3], q(w[4]), n > 5 ? ", SCM_RIGHTS " : "",
	    n > 5 ? w[5] : "", w[2]);
}

static void op_sendcred(char **w)
{
	int fd = atoi(w[1]);
	struct addr a;
	struct iovec iov = { w[3], strlen(w[3]) };
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} ctl;
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct ucred cr = {
		.pid = getpid(),
		.uid = strcmp(w[4], "self") == 0 ? getuid() : (uid_t)atol(w[4]),
		.gid = strcmp(w[5], "self") == 0 ? getgid() : (gid_t)atol(w[5]),
	};

	addr_parse(w[2], &a);
	m.msg_name = a.ptr;
	m.msg_namelen = a.len;
	memset(&ctl, 0, sizeof(ctl));
	m.msg_control = ctl.buf;
	m.msg_controllen = sizeof(ctl.buf);
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SCM_CREDENTIALS;
	c->cmsg_len = CMSG_LEN(sizeof(cr));
	memcpy(CMSG_DATA(c), &cr, sizeof(cr));
	long rc = sys(SYS_sendmsg, fd, (long)&m, 0, 0, 0, 0);
	out(rc, errno, "sendmsg(%d, {%s, %s, SCM_CREDENTIALS %s %s})", fd, w[2], q(w[3]), w[4],
	    w[5]);
}

static void op_recvc(int fd)
{
	char buf[512];
	union {
		char buf[CMSG_SPACE(sizeof(struct ucred))];
		struct cmsghdr align;
	} ctl;
	struct iovec iov = { buf, sizeof(buf) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = ctl.buf,
			    .msg_controllen = sizeof(ctl.buf) };
	struct pollfd p = { fd, POLLIN, 0 };

	poll(&p, 1, 5000);
	long rc = sys(SYS_recvmsg, fd, (long)&m, MSG_DONTWAIT, 0, 0, 0);
	if (rc < 0) {
		out(rc, errno, "recvmsg(%d)", fd);
		return;
	}
	printf("recvmsg(%d) = %ld %s", fd, rc, qn(buf, (size_t)rc));
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred cr;
			memcpy(&cr, CMSG_DATA(c), sizeof(cr));
			printf(" creds uid %s gid %s", cr.uid == getuid() ? "self" : "other",
			       cr.gid == getgid() ? "self" : "other");
		}
	}
	printf("\n");
	fflush(stdout);
}

static void op_sendmmsg(char **w)
{
	int fd = atoi(w[1]), flags = (int)nnum(w[2]);
	struct mmsghdr mm[16];
	struct addr a[16];
	struct iovec iov = { w[4], strlen(w[4]) };
	char list[1024], *save = NULL;
	unsigned n = 0;

	memset(mm, 0, sizeof(mm));
	snprintf(list, sizeof(list), "%s", w[3]);
	for (char *t = strtok_r(list, "/", &save); t && n < 16; t = strtok_r(NULL, "/", &save), n++) {
		addr_parse(t, &a[n]);
		mm[n].msg_hdr.msg_name = a[n].ptr;
		mm[n].msg_hdr.msg_namelen = a[n].len;
		mm[n].msg_hdr.msg_iov = &iov;
		mm[n].msg_hdr.msg_iovlen = 1;
	}
	long rc = sys(SYS_sendmmsg, fd, (long)mm, n, flags, 0, 0);
	out(rc, errno, "sendmmsg(%d, [%s], %u, %s)", fd, w[3], n, w[2]);
	for (long i = 0; i < rc; i++)
		printf("  msg_len[%ld] = %u\n", i, mm[i].msg_len);
}

static void op_recv(int fd, bool wait)
{
	char buf[512];
	if (wait) {
		struct pollfd p = { fd, POLLIN, 0 };
		poll(&p, 1, 5000);
	}
	long rc = sys(SYS_recvfrom, fd, (long)buf, sizeof(buf), MSG_DONTWAIT, 0, 0);
	int e = errno;
	if (rc >= 0)
		printf("recv(%d) = %ld %s\n", fd, rc, qn(buf, (size_t)rc));
	else
		out(rc, e, "recv(%d)", fd);
	fflush(stdout);
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void run(char **w, int n)
{
	const char *op = w[0];
	long rc;

	if (strcmp(op, "socket") == 0 && n == 4) {
		rc = sys(SYS_socket, (long)nnum(w[1]), (long)nnum(w[2]), (long)nnum(w[3]), 0, 0, 0);
		out(rc, errno, "socket(%s, %s, %s)", w[1], w[2], w[3]);
	} else if ((strcmp(op, "connect") == 0 || strcmp(op, "bind") == 0) && n == 3) {
		struct addr a;
		addr_parse(w[2], &a);
		rc = sys(op[0] == 'c' ? SYS_connect : SYS_bind, atoi(w[1]), (long)a.ptr, a.len, 0, 0,
			 0);
		out(rc, errno, "%s(%s, %s)", op, w[1], w[2]);
	} else if (strcmp(op, "listen") == 0 && n == 3) {
		rc = sys(SYS_listen, atoi(w[1]), atoi(w[2]), 0, 0, 0, 0);
		out(rc, errno, "listen(%s, %s)", w[1], w[2]);
	} else if (strcmp(op, "sendto") == 0 && n == 5) {
		struct addr a;
		addr_parse(w[3], &a);
		rc = sys(SYS_sendto, atoi(w[1]), (long)w[4], (long)strlen(w[4]), (long)nnum(w[2]),
			 (long)a.ptr, a.len);
		out(rc, errno, "sendto(%s, %s, %s, %s)", w[1], q(w[4]), w[2], w[3]);
	} else if (strcmp(op, "sendmsg") == 0 && (n == 5 || n == 6)) {
		op_sendmsg(w, n);
	} else if (strcmp(op, "sendcred") == 0 && n == 6) {
		op_sendcred(w);
	} else if (strcmp(op, "recvc") == 0 && n == 2) {
		op_recvc(atoi(w[1]));
	} else if (strcmp(op, "sendmmsg") == 0 && n == 5) {
		op_sendmmsg(w);
	} else if (strcmp(op, "setsockopt") == 0 && n == 5) {
		int v = (int)nnum(w[4]);
		rc = sys(SYS_setsockopt, atoi(w[1]), (long)nnum(w[2]), (long)nnum(w[3]), (long)&v,
			 sizeof(v), 0);
		out(rc, errno, "setsockopt(%s, %s, %s, %s)", w[1], w[2], w[3], w[4]);
	} else if (strcmp(op, "accept") == 0 && n == 2) {
		struct pollfd p = { atoi(w[1]), POLLIN, 0 };
		poll(&p, 1, 5000); /* a test that went wrong ends, it does not hang: */
		fcntl(p.fd, F_SETFL, fcntl(p.fd, F_GETFL) | O_NONBLOCK);
		rc = sys(SYS_accept4, atoi(w[1]), 0, 0, SOCK_CLOEXEC, 0, 0);
		out(rc, errno, "accept(%s)", w[1]);
	} else if ((strcmp(op, "recv") == 0 || strcmp(op, "recvw") == 0) && n == 2) {
		op_recv(atoi(w[1]), op[4] == 'w');
	} else if (strcmp(op, "wait") == 0 && n == 2) {
		struct pollfd p = { atoi(w[1]), POLLOUT, 0 };
		int err = 0;
		socklen_t l = sizeof(err);
		poll(&p, 1, 5000);
		getsockopt(p.fd, SOL_SOCKET, SO_ERROR, &err, &l);
		printf("wait(%s) = %s\n", w[1], err ? strerrorname_np(err) : "connected");
		fflush(stdout);
	} else if (strcmp(op, "port") == 0 && n == 2) {
		struct sockaddr_storage ss;
		socklen_t l = sizeof(ss);
		if (getsockname(atoi(w[1]), (struct sockaddr *)&ss, &l) == 0)
			printf("port = %d\n", ntohs(((struct sockaddr_in *)&ss)->sin_port));
		fflush(stdout);
	} else if (strcmp(op, "name") == 0 && n == 2) {
		struct sockaddr_un un;
		socklen_t l = sizeof(un);
		memset(&un, 0, sizeof(un));
		rc = getsockname(atoi(w[1]), (struct sockaddr *)&un, &l);
		if (rc == 0)
			printf("name(%s) = %s\n", w[1],
			       l <= offsetof(struct sockaddr_un, sun_path) ? "unnamed"
			       : un.sun_path[0] ? q(un.sun_path)
						: qn(un.sun_path, l - offsetof(struct sockaddr_un, sun_path)));
		else
			out(rc, errno, "name(%s)", w[1]);
		fflush(stdout);
	} else if (strcmp(op, "alarm") == 0 && n == 2) {
		struct sigaction sa = { .sa_handler = on_alarm };
		sigaction(SIGALRM, &sa, NULL);
		alarm((unsigned)atoi(w[1]));
	} else if (strcmp(op, "sleep") == 0 && n == 2) {
		sleep((unsigned)atoi(w[1]));
	} else if (strcmp(op, "close") == 0 && n == 2) {
		rc = sys(SYS_close, atoi(w[1]), 0, 0, 0, 0, 0);
		out(rc, errno, "close(%s)", w[1]);
	} else {
		fprintf(stderr, "net: bad operation '%s' with %d words\n", op, n);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	int start = 1;

	if (argc < 2)
		usage("net OP ARG... [, OP ARG...]...");
	for (int i = 1; i <= argc; i++) {
		if (i == argc || strcmp(argv[i], ",") == 0) {
			if (i > start)
				run(argv + start, i - start);
			start = i + 1;
		}
	}
	return 0;
}
