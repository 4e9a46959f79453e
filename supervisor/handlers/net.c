/*
 * handlers/net.c - connect, bind, listen, sendto, sendmsg, sendmmsg, and
 * the socket() calls the filter hands over.
 *
 * The address is read from the agent once, decoded the way the kernel
 * will read it for that kind of socket, decided, and the call is made by
 * ward on the agent's own socket (taken with pidfd_getfd) with the bytes
 * that were decided on.  The agent's memory is never read again, so a
 * thread flipping the sockaddr after the check changes nothing.  A unix
 * socket path is resolved by ward's own walk and reached through
 * /proc/self/fd/N: the socket connected is the one decided on.
 *
 * What a send carries (its data and control messages) is copied too, and
 * descriptors passed with SCM_RIGHTS are translated into ward's own.
 */
#include "handlers.h"
#include "../compat.h"
#include "../degraded.h"
#include "../features.h"
#include "../log.h"
#include "../mem.h"
#include "../netstate.h"
#include "../notify.h"
#include "../resolve.h"
#include "../resolver.h"
#include "../session.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/openat2.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <time.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

#ifndef MSG_FASTOPEN
#define MSG_FASTOPEN 0x20000000
#endif
#ifndef IPPROTO_MPTCP
#define IPPROTO_MPTCP 262
#endif

#define UIO_MAXIOV 1024
/* The most data one emulated send carries: a stream send beyond it is partial. */
#define SEND_MAX (256 * 1024)
/* The most control data one send may carry (the kernel's optmem limit is of this order). */
#define CONTROL_MAX (64 * 1024)
#define MAX_FDS 253 /* SCM_MAX_FD */

enum dest_kind {
	D_NONE,	    /* no destination: a disconnect, or a name the kernel ignores */
	D_PASS,	    /* a name the kernel refuses for this socket: let it say how */
	D_BUSY,	    /* a TCP connect on a socket past closed: the kernel never reads the name */
	D_INET,	    /* addr, port */
	D_UNIX,	    /* a socket path (NUL-terminated in path) */
	D_ABSTRACT, /* an abstract name: len bytes in path */
	D_AUTOBIND, /* bind of a unix socket to a name the kernel picks */
	D_NETLINK,  /* netlink: routing and interface queries, always allowed */
	D_OTHER,    /* a kind of socket a socket: rule allowed */
};

struct dest {
	enum dest_kind kind;
	uint8_t addr[16];
	uint16_t port;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path) + 1];
	size_t len;
	/* once decided: how ward names it to the kernel */
	int pathfd; /* unix: an O_PATH fd of the socket, or of its parent for bind */
	const char *name; /* bind: the final name, in the resolve scratch */
	bool linked;	  /* bind: ward's walk to the directory followed a symlink or magic link */
};

struct sock {
	int fd; /* ward's copy of the agent's socket */
	int domain, type, protocol;
};

enum call { C_CONNECT, C_BIND, C_SEND };

/* ---- the agent's socket ---- */

static int agent_socket(struct req *r, long n, struct sock *s)
{
	int e;
	socklen_t l = sizeof(int);

	s->fd = -1;
	if (n < 0 || n > INT32_MAX)
		return -EBADF;
	s->fd = agent_takefd(r, (int)n);
	if (s->fd < 0) {
		int rc = s->fd;
		s->fd = -1;
		return rc == -EBADF || rc == -ESRCH || rc == -E_FETCH ? rc : -EACCES;
	}
	if (getsockopt(s->fd, SOL_SOCKET, SO_DOMAIN, &s->domain, &l) < 0 ||
	    getsockopt(s->fd, SOL_SOCKET, SO_TYPE, &s->type, &l) < 0 ||
	    getsockopt(s->fd, SOL_SOCKET, SO_PROTOCOL, &s->protocol, &l) < 0) {
		e = errno;
		close(s->fd);
		s->fd = -1;
		/* An O_PATH fd is no socket to the kernel's connect either: EBADF. */
		return e == ENOTSOCK || e == EBADF ? -e : -EACCES;
	}
	return 0;
}

/* TCP, UDP, UDP-Lite and MPTCP: the protocols whose destination is the address given. */
static bool plain_inet(int domain, int type, int protocol)
{
	type &= 0xf;
	if (domain != AF_INET && domain != AF_INET6)
		return false;
	if (type == SOCK_STREAM)
		return protocol == 0 || protocol == IPPROTO_TCP || protocol == IPPROTO_MPTCP;
	if (type == SOCK_DGRAM)
		return protocol == 0 || protocol == IPPROTO_UDP || protocol == IPPROTO_UDPLITE;
	return false;
}

static bool is_inet(const struct sock *s)
{
	return s->domain == AF_INET || s->domain == AF_INET6;
}

/* The name of a kind of socket, for socket:KIND rules and the log. */
static void sock_kind(int domain, int type, int protocol, char *out, size_t len)
{
	static const char *const families[] = {
		[AF_AX25] = "ax25",	    [AF_IPX] = "ipx",	      [AF_APPLETALK] = "appletalk",
		[AF_NETROM] = "netrom",	    [AF_BRIDGE] = "bridge",   [AF_ATMPVC] = "atmpvc",
		[AF_X25] = "x25",	    [AF_ROSE] = "rose",	      [AF_DECnet] = "decnet",
		[AF_NETBEUI] = "netbeui",   [AF_SECURITY] = "security", [AF_KEY] = "key",
		[AF_PACKET] = "packet",	    [AF_ASH] = "ash",	      [AF_ECONET] = "econet",
		[AF_ATMSVC] = "atmsvc",	    [AF_RDS] = "rds",	      [AF_SNA] = "sna",
		[AF_IRDA] = "irda",	    [AF_PPPOX] = "pppox",     [AF_WANPIPE] = "wanpipe",
		[AF_LLC] = "llc",	    [AF_IB] = "ib",	      [AF_MPLS] = "mpls",
		[AF_CAN] = "can",	    [AF_TIPC] = "tipc",	      [AF_BLUETOOTH] = "bluetooth",
		[AF_IUCV] = "iucv",	    [AF_RXRPC] = "rxrpc",     [AF_ISDN] = "isdn",
		[AF_PHONET] = "phonet",	    [AF_IEEE802154] = "ieee802154", [AF_CAIF] = "caif",
		[AF_ALG] = "alg",	    [AF_NFC] = "nfc",	      [AF_VSOCK] = "vsock",
		[AF_KCM] = "kcm",	    [AF_QIPCRTR] = "qipcrtr", [AF_SMC] = "smc",
		[AF_XDP] = "xdp",	    [AF_MCTP] = "mctp",	      [AF_NETLINK] = "netlink",
	};
	int t = type & 0xf;

	if (domain == AF_INET || domain == AF_INET6) {
		const char *k = t == SOCK_RAW			     ? "raw"
				: t == SOCK_PACKET		     ? "packet"
				: t == SOCK_DCCP || protocol == IPPROTO_DCCP ? "dccp"
				: protocol == IPPROTO_ICMP || protocol == IPPROTO_ICMPV6 ? "icmp"
				: protocol == IPPROTO_SCTP || t == SOCK_SEQPACKET ? "sctp"
				: t == SOCK_RDM				     ? "rdm"
									     : NULL;
		if (k != NULL) {
			snprintf(out, len, "%s", k);
			return;
		}
	}
	if (domain >= 0 && domain < (int)(sizeof(families) / sizeof(families[0])) &&
	    families[domain] != NULL)
		snprintf(out, len, "%s", families[domain]);
	else
		snprintf(out, len, "family-%d/%d/%d", domain, t, protocol);
}

/* ---- addresses ---- */

static uint16_t sa_family_of(const uint8_t *sa, long len)
{
	uint16_t f = 0;
	if (len >= 2)
		memcpy(&f, sa, 2);
	return f;
}

static void decode_v4(const uint8_t *sa, struct dest *d)
{
	struct sockaddr_in in;
	memcpy(&in, sa, sizeof(in));
	d->kind = D_INET;
	net_v4_mapped(in.sin_addr.s_addr, d->addr);
	d->port = ntohs(in.sin_port);
}

static void decode_v6(const uint8_t *sa, struct dest *d)
{
	struct sockaddr_in6 in6;
	memcpy(&in6, sa, 24); /* SIN6_LEN_RFC2133: the scope id is optional */
	d->kind = D_INET;
	memcpy(d->addr, &in6.sin6_addr, 16); /* v4-mapped stays ::ffff:a.b.c.d = IPv4 */
	d->port = ntohs(in6.sin6_port);
}

/*
 * Decode len bytes at sa (ward's copy) as the kernel will read them for
 * call on socket s.  Returns 0, or the errno the kernel gives for them.
 * Where the kernel would refuse the bytes itself, D_PASS lets it.
 */
/*
 * Is s a TCP socket past closed (connecting, connected, listening, or
 * closing)?  Then the kernel's connect answers from the socket's state
 * alone, before it reads the name: EISCONN, EALREADY, or the outcome of a
 * connect in progress.  A socket that is not TCP (MPTCP) is never busy here.
 */
static bool tcp_busy(const struct sock *s)
{
	struct tcp_info ti;
	socklen_t l = sizeof(ti);

	if (s->protocol != 0 && s->protocol != IPPROTO_TCP)
		return false;
	if (getsockopt(s->fd, IPPROTO_TCP, TCP_INFO, &ti, &l) < 0 || l < 1)
		return false;
	return ti.tcpi_state != TCP_CLOSE;
}

static int decode(const struct sock *s, enum call call, const uint8_t *sa, long len,
		  struct dest *d)
{
	uint16_t fam = sa_family_of(sa, len);
	int type = s->type & 0xf;

	memset(d, 0, sizeof(*d));
	d->pathfd = -1;
	if (s->domain == AF_NETLINK) {
		/*
		 * To the kernel (port 0, no multicast group): routing and interface
		 * queries.  To another process's port or a group it is a message
		 * to a process outside the policy: judged as socket:netlink.
		 */
		struct sockaddr_nl nl;
		d->kind = D_NETLINK;
		if (call != C_BIND && len >= (long)sizeof(nl)) {
			memcpy(&nl, sa, sizeof(nl));
			if (nl.nl_family == AF_NETLINK && (nl.nl_pid != 0 || nl.nl_groups != 0))
				d->kind = D_OTHER;
		}
		return 0;
	}
	if (s->domain == AF_UNIX) {
		if (call == C_SEND && len == 0)
			return d->kind = D_NONE, 0;
		if (call == C_SEND && type != SOCK_DGRAM)
			return d->kind = D_PASS, 0; /* stream: refused; seqpacket: ignored */
		if (len < 2)
			return -EINVAL;
		if (call == C_CONNECT && type == SOCK_DGRAM && fam == AF_UNSPEC)
			return d->kind = D_NONE, 0; /* dissolves the association */
		if (call == C_BIND && len == 2 && fam == AF_UNIX)
			return d->kind = D_AUTOBIND, 0;
		if (len <= 2 || len > (long)sizeof(struct sockaddr_un) || fam != AF_UNIX)
			return -EINVAL;
		const char *p = (const char *)sa + 2;
		size_t n = (size_t)len - 2;
		if (p[0] == '\0') {
			d->kind = D_ABSTRACT;
			d->len = n - 1;
			memcpy(d->path, p + 1, d->len);
		} else {
			/* The kernel ends the path at len or at a NUL, whichever is first. */
			d->kind = D_UNIX;
			d->len = strnlen(p, n);
			memcpy(d->path, p, d->len);
			d->path[d->len] = '\0';
		}
		return 0;
	}
	if (!plain_inet(s->domain, s->type, s->protocol)) {
		/* raw, ICMP, SCTP... (a socket: rule let it be made, or it came from outside) */
		d->kind = D_OTHER;
		return 0;
	}

	bool v4sock = s->domain == AF_INET;
	bool stream = type == SOCK_STREAM;
	/*
	 * A name on a stream send is used only by a fast open (MSG_FASTOPEN),
	 * where it is the connect's address; it is judged as one in any case.
	 */
	if (call == C_CONNECT || (call == C_SEND && stream)) {
		if (len < 2)
			return -EINVAL;
		if (fam == AF_UNSPEC) {
			/* connect: a disconnect; a fast open send refuses it */
			d->kind = call == C_CONNECT ? D_NONE : D_PASS;
			return 0;
		}
		if (call == C_CONNECT && stream && tcp_busy(s))
			return d->kind = D_BUSY, 0;
	} else if (call == C_BIND) {
		if (len < (v4sock ? 16 : 24))
			return -EINVAL;
		if (v4sock && fam == AF_UNSPEC) {
			/* Compatibility: the kernel takes it as AF_INET for 0.0.0.0 only. */
			struct sockaddr_in in;
			memcpy(&in, sa, sizeof(in));
			if (in.sin_addr.s_addr != htonl(INADDR_ANY))
				return -EAFNOSUPPORT;
			decode_v4(sa, d);
			return 0;
		}
		if (fam != (v4sock ? AF_INET : AF_INET6))
			return -EAFNOSUPPORT;
	} else {
		/* a datagram send */
		if (len < 2)
			return -EINVAL;
		if (fam == AF_UNSPEC && v4sock)
			fam = AF_INET; /* udp_sendmsg reads an AF_UNSPEC name as AF_INET */
		else if (fam == AF_UNSPEC)
			return d->kind = D_NONE, 0; /* udpv6 ignores it: the name is dropped */
	}
	if (fam == AF_INET6 && v4sock)
		return -EAFNOSUPPORT; /* an IPv4 socket takes IPv4 names only */
	if (fam == AF_INET && !v4sock && stream) {
		/* tcp_v6_connect: an IPv6 name only (v4-mapped for IPv4) */
		return len < 24 ? -EINVAL : -EAFNOSUPPORT;
	}
	if (fam == AF_INET) {
		if (len < 16)
			return -EINVAL;
		decode_v4(sa, d);
		return 0;
	}
	if (fam == AF_INET6) {
		if (len < 24)
			return -EINVAL;
		decode_v6(sa, d);
		return 0;
	}
	return v4sock || call != C_SEND ? -EAFNOSUPPORT : -EINVAL;
}

/* ---- decisions ---- */

static void printable(const char *in, size_t len, char *out, size_t outlen)
{
	/* Abstract names are bytes: NULs are shown as '@', as ss(8) does. */
	size_t o = 0;
	for (size_t i = 0; i < len && o + 1 < outlen; i++)
		out[o++] = in[i] == '\0' ? '@' : in[i];
	out[o] = '\0';
}

/*
 * Resolve a unix socket path as the kernel would: the socket itself for a
 * connect or a send, its parent directory for a bind.
 */
static int resolve_unix(struct req *r, enum call call, struct dest *d, char *real, size_t len)
{
	int rc;

	snprintf(r->path, sizeof(r->path), "%s", d->path);
	if (call == C_BIND) {
		char parent[PATH_MAX];
		rc = resolve(r, AT_FDCWD, r->path, RES_PARENT, &d->pathfd, parent, sizeof(parent),
			     &d->name);
		d->linked = r->walk_hops != 0;
		if (rc == 0)
			rc = join_path(parent, d->name, real, len);
	} else {
		rc = resolve(r, AT_FDCWD, r->path, RES_FINAL, &d->pathfd, real, len, NULL);
	}
	if (rc == -E_FOREIGN_PROC)
		rc = -EACCES;
	return rc;
}

/*
 * The decision on an internet address that ward verified names for.  Each
 * name is tried: a deny! wins, then a deny by a rule naming one of the
 * names (an address the policy denies by name is not reached through a
 * shared front end), then an allow; else the address rules decide alone.
 * *host is the name whose rule decided, or NULL.
 */
static const char *pick_host(enum ward_op op, struct ward_net_target *t, char hosts[][256],
			     int nh)
{
	struct ward_verdict v;
	int allow = -1, named_deny = -1;

	for (int i = 0; i < nh; i++) {
		t->host = hosts[i];
		if (ward_decide_net(S->policy, op, t, &v) < 0)
			continue;
		if (ward_rule_hard(v.rule))
			return hosts[i];
		if (v.action != WARD_ALLOW && ward_rule_names_host(v.rule) && named_deny < 0)
			named_deny = i;
		if (v.action == WARD_ALLOW && allow < 0)
			allow = i;
	}
	t->host = NULL;
	if (named_deny >= 0)
		return hosts[named_deny];
	return allow >= 0 ? hosts[allow] : NULL;
}

/* decide_dest's answer for a datagram the kernel would drop (never an answer to the agent). */
#define E_NO_RECEIVER 4097

/*
 * What the kernel does with a call to the host's own loopback that the
 * policy denies, where nothing takes what comes to that port (on any
 * address): a TCP connect is refused (ECONNREFUSED), a UDP or UDP-Lite
 * datagram sent by address is dropped (-E_NO_RECEIVER: the send succeeds,
 * send_one).  ward answers so, and connects or sends nothing.  Which
 * ports are in use the agent can ask the kernel itself (sock_diag,
 * /proc/net), so the answer tells it nothing more.  0 otherwise: a
 * listener, or a kernel that cannot say, leaves the policy's denial.
 */
static int kernel_answer(const struct sock *s, enum call call, const struct ward_net_target *t)
{
	int type = s->type & 0xf;
	int proto = s->protocol != 0 ? s->protocol : type == SOCK_STREAM ? IPPROTO_TCP : IPPROTO_UDP;

	if (!net_is_loopback(t->addr))
		return 0;
	if (call == C_CONNECT && type == SOCK_STREAM &&
	    (proto == IPPROTO_TCP || proto == IPPROTO_MPTCP) && net_port_used(IPPROTO_TCP, t->port) == 0)
		return -ECONNREFUSED;
	if (call == C_SEND && type == SOCK_DGRAM && (proto == IPPROTO_UDP || proto == IPPROTO_UDPLITE) &&
	    net_port_used(proto, t->port) == 0)
		return -E_NO_RECEIVER;
	return 0;
}

/*
 * Where a datagram of s to d comes from: s's own address and port, the
 * destination's address standing for a wildcard one (to an address of the
 * host's own, the kernel's source is that address; to any of 127/8 it is
 * 127.0.0.1).  False when s has no port yet, or is
 * not a datagram socket.
 */
static bool sender_address(const struct sock *s, const struct dest *d, uint8_t src[16],
			   uint16_t *sport)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);
	static const uint8_t zero[16];

	if ((s->type & 0xf) != SOCK_DGRAM || getsockname(s->fd, (struct sockaddr *)&ss, &l) < 0)
		return false;
	if (ss.ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)&ss;
		net_v4_mapped(in->sin_addr.s_addr, src);
		*sport = ntohs(in->sin_port);
		if (in->sin_addr.s_addr == htonl(INADDR_ANY)) {
			memcpy(src, d->addr, 16);
			/* To 127.0.0.x the kernel's route says src 127.0.0.1, whatever x. */
			if (src[12] == 127)
				net_v4_mapped(htonl(INADDR_LOOPBACK), src);
		}
	} else if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&ss;
		memcpy(src, &in6->sin6_addr, 16);
		*sport = ntohs(in6->sin6_port);
		if (memcmp(src, zero, 16) == 0)
			memcpy(src, d->addr, 16);
	} else {
		return false;
	}
	return *sport != 0;
}

/*
 * Could name decide op on t (a domain rule of the policy would match it,
 * and win)?  Only such a name is worth ward's own lookup.
 */
static bool name_could_decide(enum ward_op op, struct ward_net_target *t, const char *name)
{
	struct ward_verdict v;

	t->host = name;
	bool could = ward_decide_net(S->policy, op, t, &v) == 0 && ward_rule_names_host(v.rule);
	t->host = NULL;
	return could;
}

/*
 * The name the caller's resolver gave addr, as the preload library
 * recorded it (req_hint): a claim of the agent's.  It joins the verified
 * names in hosts (one more; *nh counts them) only when it is one of them
 * already (the policy's names, resolved by ward), or when ward's own
 * lookup of it finds addr (resolver_verify).  ward looks up only a name
 * that a domain rule of the policy would decide, so that an agent the
 * policy keeps off the network cannot make ward send DNS queries of its
 * choosing.  A name that is not verified goes to the log as hint_host and
 * decides nothing.  Returns the claimed name, or NULL.
 */
static const char *hinted_name(struct req *r, enum ward_op op, struct ward_net_target *t,
			       const uint8_t addr[16], char hosts[][256], int *nh)
{
	if (!req_hint(r, addr) || r->hint.host[0] == '\0')
		return NULL;
	const char *name = r->hint.host;
	for (int i = 0; i < *nh; i++)
		if (strcmp(hosts[i], name) == 0)
			return name;
	if (name_could_decide(op, t, name) && resolver_verify(name, addr) == 1) {
		snprintf(hosts[*nh], sizeof(hosts[*nh]), "%s", name);
		(*nh)++;
		return name;
	}
	snprintf(r->hint_host, sizeof(r->hint_host), "%s", name);
	return name;
}

/*
 * The log's "host" for addr: the name whose rule decided, else the one the
 * caller used if ward verified it, else another name ward verified (the
 * policy's), else one /etc/hosts gives the address (a label only: a
 * reverse lookup decides no rule).  A claimed name that /etc/hosts gives
 * the address is no longer unverified.
 */
static void name_dest(struct req *r, const char *decided, const char *claimed,
		      const uint8_t addr[16], char hosts[][256], int nh)
{
	const char *name = decided;
	char etc[8][256];
	int ne = 0;

	if (name == NULL && claimed != NULL && r->hint_host[0] == '\0')
		name = claimed;
	if (name == NULL)
		ne = resolver_hosts_names(NULL, addr, etc, 8);
	for (int i = 0; i < ne && claimed != NULL && name == NULL; i++)
		if (strcmp(etc[i], claimed) == 0) {
			name = etc[i];
			r->hint_host[0] = '\0';
		}
	if (name == NULL && nh > 0)
		name = hosts[0];
	bool label = name == NULL && ne > 0;
	if (label)
		name = etc[0];
	if (name != NULL)
		snprintf(r->net_host, sizeof(r->net_host), "%s", name);
	r->net_host_label = label;
}

/*
 * Decide call's destination d for socket s.  Returns 0 to go on, or the
 * errno for the agent.  An allowed decision is logged here, before ward
 * acts on it; a call with nothing to decide is not logged at all.
 */
static int decide_dest(struct req *r, const struct sock *s, enum call call, struct dest *d)
{
	enum ward_op op = call == C_BIND ? WARD_OP_BIND : WARD_OP_CONNECT;
	struct ward_net_target t = { 0 };
	char real[PATH_MAX], kind[64];
	int rc, k;

	r->event = call == C_BIND ? EV_BIND : EV_CONNECT;
	r->net_port = -1;
	r->net_host[0] = '\0';
	r->net_host_label = false;
	switch (d->kind) {
	case D_NONE:
	case D_PASS:
	case D_BUSY:
	case D_NETLINK:
		/* Nothing outside the socket's own peer or the kernel: no decision to log. */
		req_quiet(r);
		return 0;
	case D_OTHER:
		sock_kind(s->domain, s->type, s->protocol, kind, sizeof(kind));
		t.kind = WARD_NET_SOCKET;
		t.path = kind;
		snprintf(r->net_addr, sizeof(r->net_addr), "socket:%s", kind);
		rc = decide_net(r, op, &t);
		break;
	case D_INET: {
		char hosts[17][256];
		int nh = call == C_BIND ? 0 : net_host_of(d->addr, hosts, 16);
		t.kind = WARD_NET_INET;
		memcpy(t.addr, d->addr, 16);
		t.port = d->port;
		uint8_t src[16];
		uint16_t sport = 0;
		bool from = sender_address(s, d, src, &sport);
		t.session = call != C_BIND && net_session_inet(s->type & 0xf, s->protocol, d->addr,
							     d->port, from ? src : NULL, sport);
		t.dns = net_is_dns(d->addr, d->port);
		if (call != C_BIND && !net_is_loopback(d->addr) && net_is_local(d->addr)) {
			/*
			 * 0.0.0.0, :: and the host's own interface addresses reach
			 * the host's own services as loopback does: they are judged
			 * as loopback.  @session stays what it was for the address
			 * itself (a bind of exactly it), and is never granted for
			 * 0.0.0.0 or ::, which the kernel sends to the source address.
			 */
			static const uint8_t one6[16] = { [15] = 1 };
			static const uint8_t v4pfx[12] = { [10] = 0xff, [11] = 0xff };
			static const uint8_t zero[16];
			bool v4 = memcmp(d->addr, v4pfx, 12) == 0;
			if (memcmp(d->addr, zero, 16) == 0 ||
			    (v4 && memcmp(d->addr + 12, zero, 4) == 0))
				t.session = false;
			if (v4)
				net_v4_mapped(htonl(INADDR_LOOPBACK), t.addr);
			else
				memcpy(t.addr, one6, 16);
		}
		net_format(d->addr, r->net_addr, sizeof(r->net_addr));
		r->net_port = d->port;
		/* A bind takes an address of this host: no name to look for. */
		const char *claimed = call == C_BIND ? NULL : hinted_name(r, op, &t, d->addr, hosts, &nh);
		t.host = pick_host(op, &t, hosts, nh);
		/*
		 * No rule named them: a name ward verified is still the
		 * question's, the one the caller used when it is verified.
		 */
		r->ask_host = t.host != NULL || nh == 0	     ? NULL
			      : claimed != NULL && r->hint_host[0] == '\0' ? claimed
									  : hosts[0];
		rc = decide_net(r, op, &t);
		r->ask_host = NULL;
		if (rc == -EACCES && (k = kernel_answer(s, call, &t)) < 0)
			rc = k;
		if (call != C_BIND)
			name_dest(r, t.host, claimed, d->addr, hosts, nh);
		break;
	}
	case D_UNIX: {
		struct stat st;
		rc = resolve_unix(r, call, d, real, sizeof(real));
		snprintf(r->net_addr, sizeof(r->net_addr), "unix:%s", rc == 0 ? real : d->path);
		if (rc < 0)
			return rc;
		t.kind = WARD_NET_UNIX;
		t.path = real;
		t.session = call != C_BIND && fstat(d->pathfd, &st) == 0 && S_ISSOCK(st.st_mode) &&
			    net_session_unix(st.st_dev, st.st_ino);
		rc = decide_net(r, op, &t);
		/* A bind makes a file: the path policy's create must allow it too. */
		if (rc == 0 && call == C_BIND)
			rc = decide_also(r, WARD_OP_CREATE, real);
		break;
	}
	case D_ABSTRACT:
	case D_AUTOBIND:
		printable(d->path, d->len, real, sizeof(real));
		t.kind = WARD_NET_ABSTRACT;
		t.path = real;
		t.session = d->kind == D_ABSTRACT &&
			    net_session_abstract(s->type & 0xf, d->path, d->len);
		snprintf(r->net_addr, sizeof(r->net_addr), "unix-abstract:%s", real);
		if (d->kind == D_ABSTRACT && degraded_fetch_named(d->path, d->len)) {
			r->dec.op = op;
			return refuse(r, EACCES, "ward's own socket (--degraded's fetch)");
		}
		rc = decide_net(r, op, &t);
		break;
	default:
		return -EACCES;
	}
	if (rc < 0)
		return rc;
	/*
	 * What ward is about to do is in the log before it does it; what the
	 * network then answers (a refused connection) is the call's, not a
	 * decision, and gets no line of its own.
	 */
	return req_commit(r, false);
}

/*
 * The name ward hands the kernel for d: the agent's own bytes for inet
 * and abstract names (the ones decided on), /proc/self/fd/N for a unix
 * path ward resolved.
 */
static socklen_t kernel_name(const struct dest *d, const uint8_t *sa, long len,
			     struct sockaddr_storage *out)
{
	struct sockaddr_un *un = (struct sockaddr_un *)out;

	memset(out, 0, sizeof(*out));
	switch (d->kind) {
	case D_NONE:
		if (len > 0 && sa_family_of(sa, len) == AF_UNSPEC && len <= (long)sizeof(*out)) {
			memcpy(out, sa, (size_t)len);
			return (socklen_t)len;
		}
		return 0;
	case D_BUSY:
		/*
		 * The family alone: the kernel answers from the socket's state.
		 * Should another thread close it meanwhile, the connect it would
		 * then make refuses so short a name (EINVAL): never the agent's.
		 */
		out->ss_family = sa_family_of(sa, len);
		return sizeof(out->ss_family);
	case D_UNIX:
		/* connect and send: the socket file itself (a bind goes by its directory) */
		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof(un->sun_path), "/proc/self/fd/%d", d->pathfd);
		return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(un->sun_path) + 1);
	default:
		memcpy(out, sa, (size_t)len);
		return (socklen_t)len;
	}
}

/* What a bind made: the session's from now on. */
static void record_bind(const struct sock *s, const struct dest *d)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);

	/*
	 * Each entry keeps the identity of the socket itself (its sockfs inode
	 * for unix, its cookie for inet), so that a later decision can ask the
	 * kernel whether that very socket still receives there (net.c).
	 */
	struct stat st;
	uint64_t cookie = 0;
	socklen_t cl = sizeof(cookie);
	if (fstat(s->fd, &st) < 0)
		return;
	if (d->kind == D_UNIX) {
		net_session_add_unix((uint32_t)st.st_ino);
		return;
	}
	if (getsockname(s->fd, (struct sockaddr *)&ss, &l) < 0)
		return;
	if (ss.ss_family == AF_UNIX && l > offsetof(struct sockaddr_un, sun_path) + 1) {
		const struct sockaddr_un *un = (const struct sockaddr_un *)&ss;
		if (un->sun_path[0] == '\0')
			net_session_add_abstract((uint32_t)st.st_ino, s->type & 0xf, un->sun_path + 1,
						 l - offsetof(struct sockaddr_un, sun_path) - 1);
		return;
	}
	if (getsockopt(s->fd, SOL_SOCKET, SO_COOKIE, &cookie, &cl) < 0)
		return;
	if (ss.ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)&ss;
		uint8_t a[16];
		net_v4_mapped(in->sin_addr.s_addr, a);
		net_session_add_inet(s->type & 0xf, s->protocol, a, ntohs(in->sin_port), false,
				     cookie);
	} else if (ss.ss_family == AF_INET6) {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)&ss;
		int v6only = 0;
		socklen_t ol = sizeof(v6only);
		if (getsockopt(s->fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &ol) < 0)
			v6only = 1; /* unknown: the narrower reading */
		net_session_add_inet(s->type & 0xf, s->protocol, (const uint8_t *)&in6->sin6_addr,
				     ntohs(in6->sin6_port), v6only != 0, cookie);
	}
}

/*
 * A UDP or UDP-Lite socket of the session that a connect or a send bound
 * to a port of the kernel's choosing (no bind of its own): its peers'
 * answers come to that port, so it is the session's as a bound one is
 * (asyncio's datagram client, answered by a server of the session).  Not
 * when it may share the port (SO_REUSEADDR, SO_REUSEPORT); each entry is
 * checked against the socket itself at every lookup (its cookie).
 */
/*
 * Has s no port yet (the kernel will choose one at its first connect or
 * send)?  Asked before the call: only a port the kernel chose for the
 * session's own call makes the socket the session's (record_autobound),
 * not one a socket brought in bound (passed by SCM_RIGHTS, inherited).
 */
static bool port_unset(const struct sock *s)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);

	if ((s->type & 0xf) != SOCK_DGRAM || getsockname(s->fd, (struct sockaddr *)&ss, &l) < 0)
		return false;
	if (ss.ss_family == AF_INET)
		return ((const struct sockaddr_in *)&ss)->sin_port == 0;
	if (ss.ss_family == AF_INET6)
		return ((const struct sockaddr_in6 *)&ss)->sin6_port == 0;
	return false;
}

static void record_autobound(const struct sock *s, bool was_unset)
{
	static const struct dest inet = { .kind = D_INET, .pathfd = -1 };
	int reuse = 1, port_reuse = 1;
	socklen_t l = sizeof(int);

	if (!was_unset || (s->type & 0xf) != SOCK_DGRAM || !plain_inet(s->domain, s->type, s->protocol))
		return;
	if (getsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &reuse, &l) < 0 ||
	    getsockopt(s->fd, SOL_SOCKET, SO_REUSEPORT, &port_reuse, &l) < 0 || reuse || port_reuse)
		return;
	record_bind(s, &inet);
}

/*
 * A UDP or UDP-Lite socket without a port, about to send by address: bind
 * it where the kernel's send would (inet_autobind: the wildcard address of
 * its family, a port of the kernel's choosing) and record it as the
 * session's, before its datagram leaves.  Recorded after the send, it was
 * too late whenever a server of the session answered at once from another
 * thread (asyncio's run_udp_echo_server): the answer was decided before
 * the record, refused, and the client waited for ever.  When ward cannot
 * bind it (bound meanwhile by another thread, or no port free) the send
 * does what it would have done, and nothing is recorded.
 */
static void bind_before_send(const struct sock *s)
{
	struct sockaddr_storage any = { .ss_family = (sa_family_t)s->domain };
	socklen_t l = s->domain == AF_INET ? sizeof(struct sockaddr_in) : sizeof(struct sockaddr_in6);

	struct sockaddr_storage now;
	socklen_t nl = sizeof(now);
	static const uint8_t zero[16];

	if (!plain_inet(s->domain, s->type, s->protocol) || !port_unset(s))
		return; /* port_unset: a datagram socket (not a ping socket: plain_inet) */
	/*
	 * Only a socket with no address yet: one bound to an address with
	 * IP_BIND_ADDRESS_NO_PORT keeps it, and its port is the kernel's at
	 * the send, as natively (a bind here would make it the wildcard).
	 */
	if (getsockname(s->fd, (struct sockaddr *)&now, &nl) < 0 ||
	    (now.ss_family == AF_INET && ((struct sockaddr_in *)&now)->sin_addr.s_addr != 0) ||
	    (now.ss_family == AF_INET6 && memcmp(&((struct sockaddr_in6 *)&now)->sin6_addr, zero, 16) != 0))
		return;
	/* Zeroed: INADDR_ANY or in6addr_any, and port 0. */
	if (bind(s->fd, (struct sockaddr *)&any, l) == 0 && !port_unset(s))
		record_autobound(s, true);
}

/*
 * The end of a blocking call's wait as SO_SNDTIMEO sets it (false: none,
 * it waits for good).  ward's own call on the agent's socket is woken by
 * ward's timer every 100 ms and made again, which would start the
 * kernel's timeout over each time: ward keeps the deadline instead.
 */
static bool send_deadline(const struct sock *s, struct timespec *end)
{
	struct timeval tv = { 0, 0 };
	socklen_t l = sizeof(tv);

	if (getsockopt(s->fd, SOL_SOCKET, SO_SNDTIMEO, &tv, &l) < 0 || (tv.tv_sec == 0 && tv.tv_usec == 0))
		return false;
	clock_gettime(CLOCK_MONOTONIC, end);
	end->tv_sec += tv.tv_sec;
	end->tv_nsec += tv.tv_usec * 1000L;
	if (end->tv_nsec >= 1000000000L) {
		end->tv_sec++;
		end->tv_nsec -= 1000000000L;
	}
	return true;
}

/* Milliseconds left until end (0 when it has passed), at most 100. */
static int ms_left(const struct timespec *end)
{
	struct timespec now;
	clock_gettime(CLOCK_MONOTONIC, &now);
	long ms = (end->tv_sec - now.tv_sec) * 1000 + (end->tv_nsec - now.tv_nsec) / 1000000;
	return ms <= 0 ? 0 : ms > 100 ? 100 : (int)ms;
}

static bool may_block(const struct sock *s, int flags)
{
	int fl = fcntl(s->fd, F_GETFL);
	return !(flags & MSG_DONTWAIT) && fl >= 0 && !(fl & O_NONBLOCK);
}

/* Read the agent's sockaddr (addr, len) as move_addr_to_kernel does. */
static int read_name(struct req *r, uint64_t addr, long len, uint8_t *buf)
{
	if (len < 0 || len > (long)sizeof(struct sockaddr_storage))
		return -EINVAL;
	if (len == 0)
		return 0;
	return mem_read(r, addr, buf, (size_t)len);
}

/* ---- connect, bind, listen ---- */

static int do_connect(struct req *r, struct sock *s, uint64_t addr, long len)
{
	uint8_t sa[sizeof(struct sockaddr_storage)];
	struct sockaddr_storage k;
	struct dest d;
	int rc;

	r->event = EV_CONNECT;
	if ((rc = read_name(r, addr, len, sa)) < 0)
		return rc;
	if ((rc = decode(s, C_CONNECT, sa, len, &d)) < 0)
		return rc;
	if ((rc = decide_dest(r, s, C_CONNECT, &d)) < 0)
		goto out;
	socklen_t kl = kernel_name(&d, sa, len, &k);
	bool blocking = may_block(s, 0), unset = d.kind == D_INET && port_unset(s);
	struct timespec end;
	bool timed = blocking && send_deadline(s, &end);
	if (blocking)
		notify_blocking_begin();
	rc = connect(s->fd, (struct sockaddr *)&k, kl) < 0 ? -errno : 1;
	while (blocking && rc == -EINTR) {
		/* ward's wake-up timer: has the agent been interrupted meanwhile? */
		int why = agent_interrupted(r);
		if (why < 0) {
			rc = why;
			break;
		}
		/* SO_SNDTIMEO ran out: a unix connect says EAGAIN, an internet one EINPROGRESS. */
		if (timed && ms_left(&end) == 0) {
			rc = s->domain == AF_UNIX ? -EAGAIN : -EINPROGRESS;
			break;
		}
		if (s->domain == AF_UNIX) {
			rc = connect(s->fd, (struct sockaddr *)&k, kl) < 0 ? -errno : 1;
			continue;
		}
		/* An internet connect goes on by itself: wait for its outcome. */
		struct pollfd p = { s->fd, POLLOUT, 0 };
		int n = poll(&p, 1, timed ? ms_left(&end) : -1);
		if (n <= 0)
			continue; /* EINTR, or the deadline: look again */
		int err = 0;
		socklen_t el = sizeof(err);
		if (getsockopt(s->fd, SOL_SOCKET, SO_ERROR, &err, &el) < 0)
			err = errno;
		rc = err ? -err : 1;
	}
	if (blocking)
		notify_blocking_end();
	if (rc == 1 && d.kind == D_INET)
		record_autobound(s, unset);
	r->result = 0;
out:
	if (d.pathfd >= 0)
		close(d.pathfd);
	return rc;
}

/*
 * Would a bind of this socket to name share the port with a socket bound
 * before it (SO_REUSEPORT, or SO_REUSEADDR for UDP)?  Then the address is
 * not the session's alone, and a connection to it may reach the other
 * socket's owner: it is not recorded as @session.  A probe socket without
 * those options tries the same bind first.
 */
static bool shares_port(const struct sock *s, const struct sockaddr_storage *k, socklen_t kl)
{
	int on = 0, v6only = 0, probe;
	socklen_t l = sizeof(on);
	bool udp = (s->type & 0xf) == SOCK_DGRAM;
	uint16_t port = ((const struct sockaddr_in *)k)->sin_port; /* same offset in sin6 */

	if (port == 0)
		return false; /* the kernel picks a free one */
	if (getsockopt(s->fd, SOL_SOCKET, SO_REUSEPORT, &on, &l) < 0)
		return true;
	if (!on && udp && getsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &on, &l) < 0)
		return true;
	if (!on)
		return false;
	probe = socket(s->domain, s->type & 0xf, s->protocol);
	if (probe < 0)
		return true;
	int one = 1;
	if (!udp) /* TCP: a port left in TIME_WAIT is not shared */
		setsockopt(probe, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (s->domain == AF_INET6) {
		l = sizeof(v6only);
		getsockopt(s->fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, &l);
		setsockopt(probe, IPPROTO_IPV6, IPV6_V6ONLY, &v6only, sizeof(v6only));
	}
	bool shared = bind(probe, (const struct sockaddr *)k, kl) < 0;
	close(probe);
	return shared;
}

/*
 * The directory the kernel reaches by the directory part of d's path, from
 * this worker's cwd, when no symlink is on the way: an O_PATH fd, or
 * -errno (-ELOOP: a symlink or a magic link is on the way, which ward's
 * walk did not meet: the path changed).  A path whose walk passed a link
 * is not bound by its string at all (bind_unix): a magic link
 * (/proc/PID/fd/N, /proc/PID/cwd, /dev/fd/N) leads where the agent's fd
 * table or cwd says at the moment the kernel looks, which no lock of
 * ward's holds still (another thread's dup2 or chdir), so the directory
 * checked would not be the one bound in.
 */
static int kernel_parent(const struct dest *d)
{
	char dir[sizeof(d->path)];
	const char *slash = strrchr(d->path, '/');
	struct open_how how = { .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
				.resolve = RESOLVE_NO_SYMLINKS };

	if (slash == NULL)
		snprintf(dir, sizeof(dir), ".");
	else if (slash == d->path)
		snprintf(dir, sizeof(dir), "/");
	else
		snprintf(dir, sizeof(dir), "%.*s", (int)(slash - d->path), d->path);
	int fd = ward_openat2(AT_FDCWD, dir, &how);
	return fd < 0 ? -errno : fd;
}

static bool same_file(const struct stat *a, const struct stat *b)
{
	return a->st_dev == b->st_dev && a->st_ino == b->st_ino;
}

/*
 * Is the file s was just bound to the one named d->name in the decided
 * directory?  If not (a process outside the session changed the path
 * between the check and the bind), s is shut down so that no peer reaches
 * it, the file is removed where the path leads now if it is there, and
 * the bind is refused.
 */
static int bound_as_decided(struct req *r, const struct sock *s, const struct dest *d)
{
	struct stat ss, st;
	dev_t dev = 0;
	uint32_t ino = 0;
	bool known = fstat(s->fd, &ss) == 0 && net_unix_file((uint32_t)ss.st_ino, &dev, &ino) == 0;

	if (known && fstatat(d->pathfd, d->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
	    S_ISSOCK(st.st_mode) && st.st_dev == dev && (uint32_t)st.st_ino == ino)
		return 1;
	shutdown(s->fd, SHUT_RDWR);
	int now = kernel_parent(d);
	bool removed = known && now >= 0 && fstatat(now, d->name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		       S_ISSOCK(st.st_mode) && st.st_dev == dev && (uint32_t)st.st_ino == ino &&
		       unlinkat(now, d->name, 0) == 0;
	if (now >= 0)
		close(now);
	return refuse(r, EACCES, removed ? "the path changed during the bind (outside the session): "
					   "the socket made elsewhere was removed"
					 : "the path changed during the bind (outside the session): "
					   "the socket made elsewhere could not be found to remove");
}

/*
 * Bind a unix socket to the path d (decided: d->pathfd is its directory,
 * d->name its final name) by the agent's own bytes (sa, len), from the
 * agent's cwd, so that the socket keeps the very name the agent gave
 * (getsockname, and the peers' getpeername, accept and recvfrom, show
 * it).  The kernel resolves that string anew, so under the namespace lock
 * held exclusive (no process of the session renames or links meanwhile)
 * the directory the string reaches must first be the one decided, and the
 * file made is checked afterwards against a process outside the session
 * (bound_as_decided); a directory that is another by then (a path changed
 * meanwhile) is refused.  A string under /proc, which the kernel would
 * resolve in ward's own process here (/proc/self), one whose walk met a
 * symlink or a magic link (d->linked, kernel_parent), or one whose last component is
 * not a plain name, is bound by its final name from inside the decided
 * directory, as before: the same file, a name without its directory.  This worker's cwd is its own (unshare(CLONE_FS) in
 * notify.c), and agent_umask made the agent's umask its own, which the
 * kernel applies to the socket file.
 */
static int bind_unix(struct req *r, const struct sock *s, const struct dest *d,
		     const uint8_t *sa, long len)
{
	struct sockaddr_storage k;
	struct stat want, got;
	const char *slash = strrchr(d->path, '/');
	bool by_string = !d->linked && strncmp(d->path, "/proc/", 6) != 0 &&
			 strcmp(slash != NULL ? slash + 1 : d->path, d->name) == 0;
	mode_t um;
	int cwd = -1, kdir = -1, rc;

	if ((rc = agent_umask(r, &um)) < 0)
		return rc;
	if ((rc = agent_fd(r, AT_FDCWD, &cwd)) < 0)
		return rc == -ESRCH ? rc : -EACCES;
	ns_bind_begin();
	if (by_string) {
		if (fchdir(cwd) < 0) {
			rc = -EACCES;
			goto out;
		}
		kdir = kernel_parent(d); /* -ELOOP: a link that ward's walk did not meet */
	}
	if (!by_string && fchdir(d->pathfd) < 0) {
		rc = -EACCES;
		goto out;
	}
	if (!by_string) {
		struct sockaddr_un *un = (struct sockaddr_un *)&k;
		memset(&k, 0, sizeof(k));
		un->sun_family = AF_UNIX;
		snprintf(un->sun_path, sizeof(un->sun_path), "%s", d->name);
		socklen_t kl = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(d->name) + 1);
		rc = bind(s->fd, (struct sockaddr *)&k, kl) < 0 ? -errno : 1;
	} else if (kdir >= 0 && fstat(kdir, &got) == 0 &&
		   fstat(d->pathfd, &want) == 0 && same_file(&want, &got)) {
		rc = bind(s->fd, (const struct sockaddr *)sa, (socklen_t)len) < 0 ? -errno : 1;
		if (rc == 1)
			rc = bound_as_decided(r, s, d);
	} else {
		rc = refuse(r, EACCES, "the path's directory changed between the decision and the bind");
	}
	if (chdir("/") < 0 && rc == 1)
		rc = -EACCES; /* cannot happen; fail closed all the same */
out:
	ns_bind_end();
	if (kdir >= 0)
		close(kdir);
	close(cwd);
	return rc;
}

static int do_bind(struct req *r, struct sock *s, uint64_t addr, long len)
{
	uint8_t sa[sizeof(struct sockaddr_storage)];
	struct sockaddr_storage k;
	struct dest d;
	bool shared = false;
	int rc;

	r->event = EV_BIND;
	if ((rc = read_name(r, addr, len, sa)) < 0)
		return rc;
	if ((rc = decode(s, C_BIND, sa, len, &d)) < 0)
		return rc;
	if ((rc = decide_dest(r, s, C_BIND, &d)) < 0)
		goto out;
	socklen_t kl = kernel_name(&d, sa, len, &k);
	if (d.kind == D_UNIX) {
		rc = bind_unix(r, s, &d, sa, len);
	} else {
		if (d.kind == D_AUTOBIND)
			kl = sizeof(sa_family_t);
		if (d.kind == D_INET)
			shared = shares_port(s, &k, kl);
		rc = bind(s->fd, (struct sockaddr *)&k, kl) < 0 ? -errno : 1;
	}
	if (rc == 1 && !shared)
		record_bind(s, &d);
	r->result = 0;
out:
	if (d.pathfd >= 0)
		close(d.pathfd);
	return rc;
}

/*
 * listen: on an inet socket not yet bound the kernel binds one itself, to
 * the wildcard address and a port it picks: that is a bind to decide.
 */
static int do_listen(struct req *r, struct sock *s, int backlog)
{
	struct sockaddr_storage ss;
	socklen_t l = sizeof(ss);
	bool autobind = false;
	int rc;

	r->event = EV_BIND;
	r->net_port = -1;
	req_quiet(r); /* a bound socket: its bind was the decision, and is logged */
	snprintf(r->net_addr, sizeof(r->net_addr), "none");
	if (is_inet(s)) {
		if (getsockname(s->fd, (struct sockaddr *)&ss, &l) < 0)
			return -errno;
		uint16_t port = ss.ss_family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
							: ((struct sockaddr_in6 *)&ss)->sin6_port;
		autobind = port == 0;
		if (autobind) {
			struct ward_net_target t = { .kind = WARD_NET_INET };
			if (s->domain == AF_INET)
				net_v4_mapped(0, t.addr);
			net_format(t.addr, r->net_addr, sizeof(r->net_addr));
			r->net_port = 0;
			if ((rc = decide_net(r, WARD_OP_BIND, &t)) < 0 || (rc = req_commit(r, false)) < 0)
				return rc;
		}
	}
	if (listen(s->fd, backlog) < 0)
		return -errno;
	/* Only the port the kernel picked here is new; a bind recorded its own. */
	struct dest d = { .kind = D_INET, .pathfd = -1 };
	if (autobind)
		record_bind(s, &d);
	return req_answer_value(r, 0);
}

/* ---- sends ---- */

struct send_buf {
	uint8_t data[SEND_MAX];
	uint8_t control[CONTROL_MAX];
	struct iovec iov[UIO_MAXIOV];
	int fds[MAX_FDS];
	int nfds;
};

static struct send_buf *send_buf(void)
{
	/* One per worker, made on its first send. */
	static __thread struct send_buf *b;
	if (b == NULL)
		b = malloc(sizeof(*b));
	return b;
}

static void close_fds(struct send_buf *b)
{
	for (int i = 0; i < b->nfds; i++)
		close(b->fds[i]);
	b->nfds = 0;
}

/*
 * SCM_CREDENTIALS: the pid must be the agent's own (the kernel's rule for
 * a sender without CAP_SYS_ADMIN).  ward is the sender, so a ward that may
 * not claim another pid names its own instead, as SO_PEERCRED names ward
 * (README Limits).  The uid and gid the kernel judges against ward's
 * credentials, which are the agent's: h_cred refuses every change of ids
 * and capabilities.
 */
static int creds_claim(struct req *r, struct ucred *cr)
{
	if (cr->pid != r->tgid)
		return -EPERM;
	if (!ward_capable(CAP_SYS_ADMIN))
		cr->pid = getpid();
	return 0;
}

/*
 * Copy the control messages and turn the descriptors of SCM_RIGHTS into
 * ward's own (the same open files).  On an internet socket, IP options and
 * routing headers (a source route sends the packet to its first hop, not
 * to the address decided) are refused.  Credentials are judged by
 * creds_claim().
 */
static int copy_control(struct req *r, const struct sock *s, struct send_buf *b, uint64_t addr,
			size_t len)
{
	struct msghdr m = { .msg_control = b->control, .msg_controllen = len };
	int rc = 0;

	b->nfds = 0;
	if (len == 0)
		return 0;
	if (len > CONTROL_MAX)
		return -ENOBUFS;
	if ((rc = mem_read(r, addr, b->control, len)) < 0)
		return rc;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c)) {
		size_t left = len - (size_t)((uint8_t *)c - b->control);
		if (c->cmsg_len < sizeof(*c) || c->cmsg_len > left) {
			rc = -EINVAL;
			goto out;
		}
		if (is_inet(s) &&
		    ((c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_RETOPTS) ||
		     (c->cmsg_level == IPPROTO_IPV6 &&
		      (c->cmsg_type == IPV6_RTHDR || c->cmsg_type == IPV6_2292RTHDR)))) {
			rc = -EPERM;
			goto out;
		}
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_CREDENTIALS) {
			struct ucred cr;
			if (c->cmsg_len < CMSG_LEN(sizeof(cr))) {
				rc = -EINVAL;
				goto out;
			}
			memcpy(&cr, CMSG_DATA(c), sizeof(cr));
			if ((rc = creds_claim(r, &cr)) < 0)
				goto out;
			memcpy(CMSG_DATA(c), &cr, sizeof(cr));
			continue;
		}
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		size_t n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		int *fds = (int *)CMSG_DATA(c);
		for (size_t i = 0; i < n; i++) {
			int fd;
			memcpy(&fd, fds + i, sizeof(int));
			if (b->nfds >= MAX_FDS) {
				rc = -EINVAL; /* SCM_MAX_FD, as the kernel says */
				goto out;
			}
			int mine = fd < 0 ? -EBADF : agent_copy_fd(r, fd);
			if (mine < 0) {
				rc = mine;
				goto out;
			}
			b->fds[b->nfds++] = mine;
			memcpy(fds + i, &mine, sizeof(int));
		}
	}
out:
	if (rc < 0)
		close_fds(b);
	if (rc == 0 && !req_valid(r))
		rc = -ESRCH;
	return rc;
}

/*
 * Copy the data of the iovecs v (ward's copy of them) from byte `from` on.
 * A stream send carries at most SEND_MAX bytes at a time (send_one sends
 * the rest in further rounds); a datagram beyond it is refused with
 * EMSGSIZE.  *want is the size of the whole message.
 */
static int copy_data(struct req *r, const struct sock *s, struct send_buf *b,
		     const struct iovec *v, size_t iovcnt, size_t from, struct iovec *out,
		     size_t *want)
{
	size_t total = 0, pos = 0;
	bool stream = (s->type & 0xf) == SOCK_STREAM;
	int rc = 0;

	out->iov_base = b->data;
	out->iov_len = 0;
	*want = 0;
	for (size_t i = 0; i < iovcnt; i++) {
		if ((ssize_t)v[i].iov_len < 0)
			return -EINVAL;
		*want += v[i].iov_len;
	}
	if (!stream && *want > SEND_MAX)
		return -EMSGSIZE;
	r->batch_reads = true;
	for (size_t i = 0; i < iovcnt && total < SEND_MAX; i++) {
		size_t n = v[i].iov_len, skip = 0;
		if (pos + n <= from) {
			pos += n;
			continue;
		}
		if (pos < from)
			skip = from - pos;
		pos += n;
		n -= skip;
		if (total + n > SEND_MAX)
			n = SEND_MAX - total;
		if (n > 0 &&
		    mem_read(r, (uint64_t)(uintptr_t)v[i].iov_base + skip, b->data + total, n) < 0) {
			rc = -EFAULT;
			break;
		}
		total += n;
	}
	r->batch_reads = false;
	if (rc < 0)
		return rc;
	out->iov_len = total;
	return req_valid(r) ? 0 : -ESRCH;
}

/*
 * The kernel sends SIGPIPE to the sender of a stream whose other end is
 * gone; ward's own send used MSG_NOSIGNAL, so it passes the signal on.
 */
static void pipe_signal(struct req *r, const struct sock *s, long rc, int flags)
{
	if (rc == -EPIPE && !(flags & MSG_NOSIGNAL) && (s->type & 0xf) == SOCK_STREAM &&
	    req_alive(r))
		syscall(SYS_tgkill, r->tgid, r->tid, SIGPIPE);
}

/*
 * One message.  m is ward's copy of the agent's msghdr; its iovecs are in
 * the agent's memory, or already in ward's (is_sendto: sendto's one
 * buffer).  Returns the count sent or a negative errno; *want is the size
 * of the message (a count below it is a partial send).
 */
static long send_one(struct req *r, struct sock *s, const struct msghdr *m, int flags,
		     bool is_sendto, size_t *want)
{
	uint8_t sa[sizeof(struct sockaddr_storage)];
	struct sockaddr_storage k;
	struct send_buf *b = send_buf();
	struct iovec data;
	struct dest d = { .kind = D_NONE, .pathfd = -1 };
	long namelen = m->msg_name == NULL ? 0 : (long)(int)m->msg_namelen;
	long rc, sent = 0;
	bool dropped = false;

	*want = 0;
	if (b == NULL)
		return -ENOMEM;
	r->event = EV_CONNECT;
	r->net_port = -1;
	r->net_host[0] = '\0';
	snprintf(r->net_addr, sizeof(r->net_addr), "none");
	if (namelen < 0)
		return -EINVAL;
	if (namelen > (long)sizeof(struct sockaddr_storage)) {
		if (is_sendto)
			return -EINVAL; /* move_addr_to_kernel */
		namelen = sizeof(struct sockaddr_storage); /* __copy_msghdr truncates it */
	}
	/* ward's buffer is copied: the caller's pages need no pinning. */
	flags &= ~MSG_ZEROCOPY;
	if (namelen > 0) {
		if ((rc = mem_read(r, (uint64_t)(uintptr_t)m->msg_name, sa, (size_t)namelen)) < 0)
			return rc;
		if ((rc = decode(s, C_SEND, sa, namelen, &d)) < 0)
			return rc;
		rc = decide_dest(r, s, C_SEND, &d);
		if (rc == -E_NO_RECEIVER) {
			dropped = true;
			r->dec.reason = "nothing receives at that port: dropped, as the kernel drops it";
		} else if (rc < 0) {
			goto out;
		}
	} else {
		/* A send on a connected socket: nothing to decide, nothing to log. */
		req_quiet(r);
	}
	if (m->msg_iovlen > UIO_MAXIOV) {
		rc = -EMSGSIZE;
		goto out;
	}
	const struct iovec *v = m->msg_iov;
	if (!is_sendto && m->msg_iovlen > 0) {
		rc = mem_read(r, (uint64_t)(uintptr_t)m->msg_iov, b->iov,
			      m->msg_iovlen * sizeof(struct iovec));
		if (rc < 0)
			goto out;
		v = b->iov;
	}
	if ((rc = copy_control(r, s, b, (uint64_t)(uintptr_t)m->msg_control, m->msg_controllen)) < 0)
		goto out;
	struct msghdr mine = {
		.msg_iov = &data,
		.msg_iovlen = 1,
		.msg_control = m->msg_controllen ? b->control : NULL,
		.msg_controllen = m->msg_controllen,
	};
	if (namelen > 0 && d.kind != D_NONE) {
		mine.msg_name = &k;
		mine.msg_namelen = kernel_name(&d, sa, namelen, &k);
	}
	bool blocking = may_block(s, flags);
	/* The port the kernel would choose for this send is the session's before anything goes. */
	if (d.kind == D_INET)
		bind_before_send(s);
	struct timespec end;
	bool timed = blocking && send_deadline(s, &end);
	/*
	 * A stream message larger than ward's buffer goes in rounds, as the
	 * kernel would send it in one call; control data goes with the first.
	 */
	for (;;) {
		if ((rc = copy_data(r, s, b, v, m->msg_iovlen, (size_t)sent, &data, want)) < 0)
			break;
		if (blocking)
			notify_blocking_begin();
		rc = dropped ? (long)data.iov_len : sendmsg(s->fd, &mine, flags | MSG_NOSIGNAL);
		rc = rc < 0 ? -errno : rc;
		if (blocking)
			notify_blocking_end();
		if (rc == -EINTR && blocking) {
			/* ward's wake-up timer: nothing was sent; go on unless the agent was interrupted */
			int why = agent_interrupted(r);
			if (why == 0 && timed && ms_left(&end) == 0)
				why = -EAGAIN; /* SO_SNDTIMEO ran out, as the kernel's wait would */
			if (why == 0)
				continue;
			rc = why;
		}
		if (rc < 0)
			break;
		sent += rc;
		mine.msg_control = NULL;
		mine.msg_controllen = 0;
		if (!blocking || (size_t)rc < data.iov_len || (size_t)sent >= *want)
			break;
	}
	close_fds(b);
	if (sent > 0)
		rc = sent; /* what went out went out; an error after it is not reported */
	pipe_signal(r, s, rc, flags);
out:
	if (d.pathfd >= 0)
		close(d.pathfd);
	return rc;
}

static int do_sendto(struct req *r, struct sock *s)
{
	const __u64 *a = r->n->data.args;
	struct iovec v = { (void *)(uintptr_t)a[1], (size_t)a[2] };
	struct msghdr m = {
		.msg_name = (void *)(uintptr_t)a[4],
		.msg_namelen = (socklen_t)a[5],
		.msg_iov = &v,
		.msg_iovlen = 1,
	};
	size_t want;
	long rc = send_one(r, s, &m, (int)a[3], true, &want);

	if (rc < 0)
		return (int)rc;
	return req_answer_value(r, rc);
}

static int do_sendmsg(struct req *r, struct sock *s)
{
	const __u64 *a = r->n->data.args;
	struct msghdr m;
	size_t want;
	long rc;

	if ((rc = mem_read(r, a[1], &m, sizeof(m))) < 0)
		return (int)rc;
	if ((rc = send_one(r, s, &m, (int)a[2], false, &want)) < 0)
		return (int)rc;
	return req_answer_value(r, rc);
}

/*
 * sendmmsg: each message decided and sent in turn.  The first failure, or
 * a message sent only in part, ends it; the count of messages sent is the
 * result (the failure itself only when it is the first message), as the
 * kernel does.
 */
static int do_sendmmsg(struct req *r, struct sock *s)
{
	const __u64 *a = r->n->data.args;
	unsigned int vlen = (unsigned int)a[2];
	int flags = (int)a[3];
	unsigned int i;
	long rc = 0;

	if (vlen > UIO_MAXIOV)
		vlen = UIO_MAXIOV;
	for (i = 0; i < vlen; i++) {
		struct mmsghdr mm;
		uint64_t at = a[1] + (uint64_t)i * sizeof(mm);
		size_t want;
		if (i > 0)
			decide_restart(r); /* the last message's line is written */
		if ((rc = mem_read(r, at, &mm, sizeof(mm))) < 0)
			break;
		if ((rc = send_one(r, s, &mm.msg_hdr, flags, false, &want)) < 0)
			break;
		unsigned int sent = (unsigned int)rc;
		if (mem_write(r, at + offsetof(struct mmsghdr, msg_len), &sent, sizeof(sent)) < 0) {
			rc = -EFAULT;
			break;
		}
		if ((size_t)rc < want) {
			i++;
			break;
		}
	}
	if (rc < 0 && i == 0)
		return (int)rc;
	/* The answer is the count: a failed message has its own line, if it is to have one. */
	req_settle(r, rc < 0 ? (int)-rc : 0);
	return req_answer_value(r, i);
}

int h_net(struct req *r)
{
	const __u64 *a = r->n->data.args;
	int nr = r->n->data.nr;
	struct sock s;
	int rc;

	r->event = nr == SYS_bind || nr == SYS_listen ? EV_BIND : EV_CONNECT;
	r->net_port = -1;
	r->net_host[0] = '\0';
	snprintf(r->net_addr, sizeof(r->net_addr), "none");
	if ((rc = agent_socket(r, (long)(int)a[0], &s)) < 0)
		return rc;
	switch (nr) {
	case SYS_connect:
		rc = do_connect(r, &s, a[1], (long)(int)a[2]);
		break;
	case SYS_bind:
		rc = do_bind(r, &s, a[1], (long)(int)a[2]);
		break;
	case SYS_listen:
		rc = do_listen(r, &s, (int)a[1]);
		break;
	case SYS_sendto:
		rc = do_sendto(r, &s);
		break;
	case SYS_sendmsg:
		rc = do_sendmsg(r, &s);
		break;
	case SYS_sendmmsg:
		rc = do_sendmmsg(r, &s);
		break;
	default:
		rc = -ENOSYS;
	}
	close(s.fd);
	return rc;
}

/*
 * socket(): the filter hands over only the kinds ward does not supervise
 * by address (packet, raw, ICMP, SCTP, vsock, ...): they are refused unless
 * a socket:KIND rule allows them.
 */
int h_socket(struct req *r)
{
	const __u64 *a = r->n->data.args;
	struct ward_net_target t = { .kind = WARD_NET_SOCKET };
	char kind[64];
	int rc;

	/*
	 * The filter hands over every internet socket with a protocol number:
	 * TCP, UDP, UDP-Lite and MPTCP are judged by address later, and need
	 * no decision (nor a log line) here.  CONTINUE: registers only.
	 */
	if (plain_inet((int)a[0], (int)a[1], (int)a[2])) {
		req_quiet(r);
		return 0;
	}
	sock_kind((int)a[0], (int)a[1], (int)a[2], kind, sizeof(kind));
	t.path = kind;
	r->event = EV_CONNECT;
	r->net_port = -1;
	r->net_host[0] = '\0';
	snprintf(r->net_addr, sizeof(r->net_addr), "socket:%s", kind);
	if ((rc = decide_net(r, WARD_OP_CONNECT, &t)) < 0)
		return rc;
	/*
	 * CONTINUE: the decision read the three registers (domain, type,
	 * protocol) and nothing else, and the kernel uses them as they are.
	 */
	return 0;
}
