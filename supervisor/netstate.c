/*
 * netstate.c - what network decisions need besides the policy:
 *
 *   @session   the inet ports and unix sockets bound by processes of the
 *              session, recorded when ward performs their bind or listen;
 *   @dns       the name servers of /etc/resolv.conf (port 53);
 *   names      the addresses of the literal domain names of the policy, as
 *              ward itself resolved them (getaddrinfo: /etc/hosts counts),
 *              so that a domain rule can match an address (resolver.c
 *              resolves, this file keeps the answers).  A resolver
 *              thread resolves them at start and again when their records'
 *              TTL runs out (res_query tells it; 5 s at least, NET_REFRESH
 *              at most, and NET_REFRESH for names that are not in DNS); an
 *              address stays verified for NET_KEEP seconds after it was
 *              last seen, because round-robin answers rotate.
 *              Names the person granted for the session (net_learn_name)
 *              join them, resolved at once and then with the others.
 *
 * All of it is small and changes rarely: arrays under one mutex.
 */
#include "netstate.h"
#include "ward_rules.h"
#include "resolver.h"

#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <sys/sysmacros.h>
#include <netinet/in.h>
#include <linux/unix_diag.h>
#include <linux/sock_diag.h>
#include <linux/rtnetlink.h>
#include <linux/netlink.h>
#include <linux/inet_diag.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netdb.h>
#include <arpa/nameser.h>
#include <resolv.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define NET_REFRESH 300 /* the longest a name goes without being resolved again */
#define NET_MIN_TTL 5
#define NET_KEEP 600
#define NET_MAX_SESSION 4096
#define NET_MAX_NAMES 4096
#define NET_MAX_DNS 16
/* How long a decision waits for the first resolution of the policy's names. */
#define NET_FIRST_WAIT_MS 3000

struct sess_inet {
	int type;     /* SOCK_STREAM or SOCK_DGRAM */
	int protocol; /* for sock_diag: TCP, UDP... */
	uint8_t addr[16];
	uint16_t port;
	bool v6only; /* bound to :: with IPV6_V6ONLY: IPv4 does not reach it */
	uint64_t cookie; /* SO_COOKIE: this socket and no other */
};

/* A unix socket the session bound to a path: its sockfs inode, and the file's. */
struct sess_unix {
	uint32_t sock_ino;
	dev_t dev;
	uint32_t ino; /* what sock_diag reports: the low 32 bits */
};

struct sess_abstract {
	uint32_t sock_ino;
	int type; /* the kernel keeps an abstract name per socket type */
	size_t len;
	char name[108];
};

struct name_entry {
	uint8_t addr[16];
	char name[256];
	time_t seen;
};

static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t first_done = PTHREAD_COND_INITIALIZER;
static struct sess_inet *s_inet;
static size_t n_inet;
static struct sess_unix *s_unix;
static size_t n_unix;
static struct sess_abstract *s_abs;
static size_t n_abs;
static struct name_entry *names;
static size_t n_names;
static bool resolved_once;
static uint8_t dns[NET_MAX_DNS][16];
static size_t n_dns;
static pthread_t resolver;
static bool resolver_running;
#define NET_MAX_LEARNED 256
static char (*learned)[256]; /* names a person's answer granted, under lock */
static size_t n_learned;

void net_v4_mapped(uint32_t be_addr, uint8_t out[16])
{
	memset(out, 0, 10);
	out[10] = out[11] = 0xff;
	memcpy(out + 12, &be_addr, 4);
}

static bool is_v4(const uint8_t a[16])
{
	static const uint8_t pfx[12] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff };
	return memcmp(a, pfx, 12) == 0;
}

bool net_is_loopback(const uint8_t a[16])
{
	static const uint8_t one[16] = { [15] = 1 };
	return memcmp(a, one, 16) == 0 || (is_v4(a) && a[12] == 127);
}

static bool is_any(const uint8_t a[16])
{
	static const uint8_t zero[16];
	return memcmp(a, zero, 16) == 0 || (is_v4(a) && memcmp(a + 12, zero, 4) == 0);
}

void net_format(const uint8_t a[16], char *out, size_t len)
{
	if (is_v4(a))
		inet_ntop(AF_INET, a + 12, out, (socklen_t)len);
	else
		inet_ntop(AF_INET6, a, out, (socklen_t)len);
}

/* ---- @session ---- */

/*
 * The session's sockets are recorded when ward binds them, and checked
 * with the kernel (sock_diag) each time a destination would be theirs:
 * a port or a socket file the session let go of, and someone else took
 * since, is not the session's any more.
 */

static bool grow(void **arr, size_t n, size_t size)
{
	if (n >= NET_MAX_SESSION)
		return false; /* the caller prunes, then tries again */
	if (n == 0 || (n >= 8 && (n & (n - 1)) == 0)) {
		size_t cap = n ? 2 * n : 8;
		void *p = realloc(*arr, cap * size);
		if (p == NULL)
			return false;
		*arr = p;
	}
	return true;
}

/* One sock_diag request, one answer: 0 with the answer in buf, or -errno. */
static int diag(const void *req, size_t len, void *buf, size_t buflen)
{
	int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	ssize_t n = -1;

	if (nl < 0)
		return -errno;
	if (send(nl, req, len, 0) == (ssize_t)len)
		n = recv(nl, buf, buflen, 0);
	close(nl);
	const struct nlmsghdr *h = buf;
	if (n < (ssize_t)sizeof(*h) || !NLMSG_OK(h, (size_t)n))
		return -EIO;
	if (h->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = NLMSG_DATA(h);
		return e->error < 0 ? e->error : -EIO;
	}
	return h->nlmsg_type == SOCK_DIAG_BY_FAMILY ? 0 : -EIO;
}

/*
 * The protocol whose port space a socket uses: 0 is the type's own (TCP,
 * UDP), MPTCP shares TCP's.  UDP-Lite, SCTP and the rest have their own.
 */
static int port_space(int type, int protocol)
{
	if (protocol == 0)
		return type == SOCK_STREAM ? IPPROTO_TCP : type == SOCK_DGRAM ? IPPROTO_UDP : 0;
	return protocol == IPPROTO_MPTCP ? IPPROTO_TCP : protocol;
}

/*
 * Is the socket with this cookie the one that receives what is sent to
 * addr:port?  The kernel's exact lookup (inet_diag) finds the listener
 * or datagram socket a packet to addr:port would reach, and answers
 * ENOENT or ESTALE when its cookie is not this one.  src:sport (NULL:
 * not known) is where a datagram comes from: a connected datagram socket
 * receives only from its peer, and is found only so.
 */
static bool inet_receiver(int protocol, const uint8_t addr[16], uint16_t port, uint64_t cookie,
			  const uint8_t *src, uint16_t sport)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} q = {
		.nlh = { .nlmsg_len = sizeof(q), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST },
		.r = { .sdiag_family = is_v4(addr) ? AF_INET : AF_INET6,
		       .sdiag_protocol = (uint8_t)protocol, .idiag_states = ~0U },
	};
	char buf[2048];

	if (protocol == IPPROTO_MPTCP || protocol == 0)
		q.r.sdiag_protocol = IPPROTO_TCP;
	q.r.id.idiag_cookie[0] = (uint32_t)cookie;
	q.r.id.idiag_cookie[1] = (uint32_t)(cookie >> 32);
	/* TCP looks up by (src, sport) as the local end, UDP by (dst, dport). */
	bool tcp = q.r.sdiag_protocol == IPPROTO_TCP;
	__be32 *local = tcp ? q.r.id.idiag_src : q.r.id.idiag_dst;
	if (tcp)
		q.r.id.idiag_sport = htons(port);
	else
		q.r.id.idiag_dport = htons(port);
	memcpy(local, is_v4(addr) ? addr + 12 : addr, is_v4(addr) ? 4 : 16);
	if (!tcp && src != NULL && is_v4(src) == is_v4(addr)) {
		memcpy(q.r.id.idiag_src, is_v4(src) ? src + 12 : src, is_v4(src) ? 4 : 16);
		q.r.id.idiag_sport = htons(sport);
	}
	return diag(&q, sizeof(q), buf, sizeof(buf)) == 0;
}

/*
 * One sock_diag dump (req, len): each socket the kernel lists (a message
 * of at least min bytes) goes to each(h, arg), until one returns 1; the
 * rest of the dump is still read, as it must be drained.  1 when one did,
 * 0 when none, -errno when the kernel could not say.
 */
static int diag_dump(const void *req, size_t len, size_t min,
		     int (*each)(const struct nlmsghdr *h, void *arg), void *arg)
{
	static __thread char buf[32768];
	int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG), found = 0;

	if (nl < 0)
		return -errno;
	if (send(nl, req, len, 0) != (ssize_t)len) {
		int e = errno;
		close(nl);
		return -e;
	}
	for (;;) {
		ssize_t n = recv(nl, buf, sizeof(buf), 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			found = n < 0 ? -errno : -EIO;
			goto out;
		}
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			if (h->nlmsg_type == NLMSG_DONE)
				goto out;
			if (h->nlmsg_type == NLMSG_ERROR) {
				const struct nlmsgerr *e = NLMSG_DATA(h);
				found = h->nlmsg_len >= NLMSG_LENGTH(sizeof(*e)) && e->error < 0
						? e->error
						: -EIO;
				goto out;
			}
			if (h->nlmsg_type == SOCK_DIAG_BY_FAMILY && h->nlmsg_len >= NLMSG_LENGTH(min) &&
			    found == 0)
				found = each(h, arg);
		}
	}
out:
	close(nl);
	return found;
}

/* diag_dump's each for net_port_used: the socket's local port is *arg. */
static int on_port(const struct nlmsghdr *h, void *arg)
{
	const struct inet_diag_msg *m = NLMSG_DATA(h);
	return ntohs(m->id.idiag_sport) == *(const uint16_t *)arg;
}

/* A dump of family's sockets of protocol in states (a mask of TCP states): diag_dump's answer. */
static int inet_dump(int family, int protocol, uint32_t states,
		     int (*each)(const struct nlmsghdr *h, void *arg), void *arg)
{
	struct {
		struct nlmsghdr nlh;
		struct inet_diag_req_v2 r;
	} q = {
		.nlh = { .nlmsg_len = sizeof(q), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.r = { .sdiag_family = (uint8_t)family, .sdiag_protocol = (uint8_t)protocol,
		       .idiag_states = states },
	};
	return diag_dump(&q, sizeof(q), sizeof(struct inet_diag_msg), each, arg);
}

int net_port_used(int protocol, uint16_t port)
{
	static const int families[] = { AF_INET, AF_INET6 };
	uint32_t states = protocol == IPPROTO_TCP ? 1U << 10 /* TCP_LISTEN */ : ~0U;

	for (size_t f = 0; f < sizeof(families) / sizeof(families[0]); f++) {
		int found = inet_dump(families[f], protocol, states, on_port, &port);
		if (found != 0)
			return found;
	}
	return 0;
}

/* diag_dump's each for net_diag_probe: the answer alone is enough. */
static int on_any(const struct nlmsghdr *h, void *arg)
{
	(void)h;
	(void)arg;
	return 1;
}

int net_diag_probe(void)
{
	static const int protos[] = { IPPROTO_TCP, IPPROTO_UDP };
	int rc;

	for (size_t i = 0; i < sizeof(protos) / sizeof(protos[0]); i++)
		if ((rc = inet_dump(AF_INET, protos[i], ~0U, on_any, NULL)) < 0)
			return rc;
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} u = {
		.nlh = { .nlmsg_len = sizeof(u), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.req = { .sdiag_family = AF_UNIX, .udiag_states = ~0U },
	};
	rc = diag_dump(&u, sizeof(u), 0, on_any, NULL);
	return rc < 0 ? rc : 0;
}

/*
 * The unix socket whose sockfs inode is sock_ino, if it still exists:
 * the file it is bound to (dev, 32 bits of the inode) and its abstract
 * name.  Returns 0 or -errno.
 */
static int unix_socket(uint32_t sock_ino, dev_t *dev, uint32_t *ino, char *name, size_t *namelen)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} q = {
		.nlh = { .nlmsg_len = sizeof(q), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST },
		.req = { .sdiag_family = AF_UNIX, .udiag_ino = sock_ino,
			 .udiag_show = UDIAG_SHOW_VFS | UDIAG_SHOW_NAME,
			 .udiag_cookie = { ~0U, ~0U } },
	};
	union {
		struct nlmsghdr nlh;
		char buf[2048];
	} a;
	int rc = diag(&q, sizeof(q), &a, sizeof(a));

	*dev = 0;
	*ino = 0;
	*namelen = 0;
	if (rc < 0)
		return rc;
	if (a.nlh.nlmsg_len < NLMSG_LENGTH(sizeof(struct unix_diag_msg)))
		return -EIO;
	struct unix_diag_msg *m = NLMSG_DATA(&a.nlh);
	int len = (int)a.nlh.nlmsg_len - (int)NLMSG_LENGTH(sizeof(*m));
	for (struct rtattr *at = (struct rtattr *)(m + 1); RTA_OK(at, len); at = RTA_NEXT(at, len)) {
		if (at->rta_type == UNIX_DIAG_VFS && RTA_PAYLOAD(at) >= sizeof(struct unix_diag_vfs)) {
			struct unix_diag_vfs v;
			memcpy(&v, RTA_DATA(at), sizeof(v));
			/* The kernel's dev_t is MAJOR << 20 | MINOR. */
			*dev = makedev(v.udiag_vfs_dev >> 20, v.udiag_vfs_dev & 0xfffff);
			*ino = v.udiag_vfs_ino;
		} else if (at->rta_type == UNIX_DIAG_NAME && RTA_PAYLOAD(at) <= 108) {
			memcpy(name, RTA_DATA(at), RTA_PAYLOAD(at));
			*namelen = RTA_PAYLOAD(at);
		}
	}
	return 0;
}

int net_unix_file(uint32_t sock_ino, dev_t *dev, uint32_t *ino)
{
	char name[108];
	size_t nl;
	int rc = unix_socket(sock_ino, dev, ino, name, &nl);

	if (rc == 0 && *dev == 0 && *ino == 0)
		rc = -ENOENT;
	return rc;
}

/*
 * A full list (NET_MAX_SESSION entries: the session bound that many
 * sockets) keeps only those still open; with the lock held.  Entries go
 * from the front: the newest are at the end, where the lookups start.
 */
static void prune_inet(void)
{
	size_t keep = 0;
	for (size_t i = 0; i < n_inet; i++) {
		const struct sess_inet *e = &s_inet[i];
		static const uint8_t lo4[16] = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 1 };
		static const uint8_t lo6[16] = { [15] = 1 };
		const uint8_t *at = !is_any(e->addr) ? e->addr : is_v4(e->addr) ? lo4 : lo6;
		if (inet_receiver(e->protocol, at, e->port, e->cookie, NULL, 0))
			s_inet[keep++] = *e;
	}
	n_inet = keep;
}

/* The unix socket of inode sock_ino is still open somewhere. */
static bool unix_alive(uint32_t sock_ino)
{
	dev_t d;
	uint32_t ino;
	char name[108];
	size_t nl;
	return unix_socket(sock_ino, &d, &ino, name, &nl) == 0;
}

static void prune_unix(void)
{
	size_t keep = 0;
	for (size_t i = 0; i < n_unix; i++)
		if (unix_alive(s_unix[i].sock_ino))
			s_unix[keep++] = s_unix[i];
	n_unix = keep;
}

static void prune_abstract(void)
{
	size_t keep = 0;
	for (size_t i = 0; i < n_abs; i++)
		if (unix_alive(s_abs[i].sock_ino))
			s_abs[keep++] = s_abs[i];
	n_abs = keep;
}

int net_session_add_inet(int type, int protocol, const uint8_t addr[16], uint16_t port,
			 bool v6only, uint64_t cookie)
{
	int rc = -ENOMEM;

	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_inet; i++)
		if (s_inet[i].cookie == cookie && s_inet[i].port == port) {
			rc = 0;
			goto out;
		}
	if (n_inet >= NET_MAX_SESSION)
		prune_inet();
	if (grow((void **)&s_inet, n_inet, sizeof(*s_inet))) {
		s_inet[n_inet] = (struct sess_inet){ .type = type, .protocol = protocol,
						     .port = port, .v6only = v6only,
						     .cookie = cookie };
		memcpy(s_inet[n_inet].addr, addr, 16);
		n_inet++;
		rc = 0;
	}
out:
	pthread_mutex_unlock(&lock);
	return rc;
}

int net_session_add_unix(uint32_t sock_ino)
{
	int rc = -ENOMEM;
	dev_t dev;
	uint32_t ino;
	char name[108];
	size_t nl;

	/*
	 * The file as the kernel bound it, not as a name finds it: the agent
	 * can put another file at the name the moment the bind is done.
	 */
	if ((rc = unix_socket(sock_ino, &dev, &ino, name, &nl)) < 0)
		return rc;
	rc = -ENOMEM;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_unix; i++)
		if (s_unix[i].sock_ino == sock_ino) {
			rc = 0;
			goto out;
		}
	if (n_unix >= NET_MAX_SESSION)
		prune_unix();
	if (grow((void **)&s_unix, n_unix, sizeof(*s_unix))) {
		s_unix[n_unix++] = (struct sess_unix){ sock_ino, dev, ino };
		rc = 0;
	}
out:
	pthread_mutex_unlock(&lock);
	return rc;
}

int net_session_add_abstract(uint32_t sock_ino, int type, const char *name, size_t len)
{
	int rc = -ENOMEM;

	if (len > sizeof(s_abs->name))
		return -EINVAL;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_abs; i++)
		if (s_abs[i].sock_ino == sock_ino) {
			rc = 0;
			goto out;
		}
	if (n_abs >= NET_MAX_SESSION)
		prune_abstract();
	if (grow((void **)&s_abs, n_abs, sizeof(*s_abs))) {
		s_abs[n_abs].sock_ino = sock_ino;
		s_abs[n_abs].type = type;
		s_abs[n_abs].len = len;
		memcpy(s_abs[n_abs].name, name, len);
		n_abs++;
		rc = 0;
	}
out:
	pthread_mutex_unlock(&lock);
	return rc;
}

/*
 * A destination is the session's when a session socket of the same type
 * was bound to that address and port, or to the wildcard address (0.0.0.0
 * or ::) and the destination is a loopback address — and the kernel says
 * that socket, still open, is the one that would receive there.  0.0.0.0
 * takes IPv4 only; :: takes IPv6, and IPv4 too unless bound IPV6_V6ONLY.
 */
bool net_session_inet(int type, int protocol, const uint8_t addr[16], uint16_t port,
		      const uint8_t *src, uint16_t sport)
{
	struct {
		int protocol;
		uint64_t cookie;
	} cand[8];
	int n = 0, space = port_space(type, protocol);

	pthread_mutex_lock(&lock);
	/* Newest first: a port bound again and again (a server restarted) is its last socket's. */
	for (size_t i = n_inet; i-- > 0 && n < 8;) {
		const struct sess_inet *e = &s_inet[i];
		if (e->type != type || e->port != port || port_space(e->type, e->protocol) != space)
			continue;
		if (memcmp(e->addr, addr, 16) == 0 ||
		    (is_any(e->addr) && net_is_loopback(addr) &&
		     (is_v4(e->addr) ? is_v4(addr) : !(e->v6only && is_v4(addr)))))
			cand[n].protocol = e->protocol, cand[n++].cookie = e->cookie;
	}
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++)
		if (inet_receiver(cand[i].protocol, addr, port, cand[i].cookie, src, sport))
			return true;
	return false;
}

bool net_session_unix(dev_t dev, ino_t ino)
{
	uint32_t cand[16];
	int n = 0;

	pthread_mutex_lock(&lock);
	for (size_t i = n_unix; i-- > 0 && n < 16;)
		if (s_unix[i].dev == dev && s_unix[i].ino == (uint32_t)ino)
			cand[n++] = s_unix[i].sock_ino;
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++) {
		dev_t d;
		uint32_t vino;
		char name[108];
		size_t nl;
		if (unix_socket(cand[i], &d, &vino, name, &nl) == 0 && d == dev &&
		    vino == (uint32_t)ino)
			return true;
	}
	return false;
}

bool net_session_abstract(int type, const char *name, size_t len)
{
	uint32_t cand[16];
	int n = 0;

	pthread_mutex_lock(&lock);
	for (size_t i = n_abs; i-- > 0 && n < 16;)
		if (s_abs[i].type == type && s_abs[i].len == len &&
		    memcmp(s_abs[i].name, name, len) == 0)
			cand[n++] = s_abs[i].sock_ino;
	pthread_mutex_unlock(&lock);
	for (int i = 0; i < n; i++) {
		dev_t d;
		uint32_t vino;
		char got[108];
		size_t gl;
		/* The name as the kernel shows it: the NUL, then the name. */
		if (unix_socket(cand[i], &d, &vino, got, &gl) == 0 && gl == len + 1 &&
		    got[0] == '\0' && memcmp(got + 1, name, len) == 0)
			return true;
	}
	return false;
}

/* ---- unix sockets of others ---- */

/*
 * A listening socket's bound name resolved (realpath of its directory,
 * then its own name), kept by the socket's inode: the directories and
 * symlinks on both the name as bound and the name resolved are what
 * net_unix_foreign protects, so the resolution stays true while the
 * socket lives.  A small table, the oldest entry replaced when full.
 */
#define RESOLVED_MAX 256
static struct resolved {
	uint32_t sock_ino;
	char name[108];
	char real[PATH_MAX];
} resolved[RESOLVED_MAX];
static size_t n_resolved, next_resolved;
static pthread_mutex_t resolved_lock = PTHREAD_MUTEX_INITIALIZER;

/* The name made lexically plain: "//" and "/./" are one "/"; ".." is kept (real covers it). */
static void lexical(const char *name, char *out, size_t len)
{
	size_t o = 0;
	for (const char *c = name; *c && o + 1 < len; c++) {
		if (*c == '/' && o > 0 && out[o - 1] == '/')
			continue;
		if (*c == '.' && o > 0 && out[o - 1] == '/' && (c[1] == '/' || c[1] == '\0')) {
			if (c[1] == '/')
				c++;
			continue;
		}
		out[o++] = *c;
	}
	while (o > 1 && out[o - 1] == '/')
		o--;
	out[o] = '\0';
}

/* real gets name resolved as now (empty when it cannot be). */
static void resolve_bound(uint32_t sock_ino, const char *name, char *real, size_t len)
{
	pthread_mutex_lock(&resolved_lock);
	for (size_t i = 0; i < n_resolved; i++)
		if (resolved[i].sock_ino == sock_ino && strcmp(resolved[i].name, name) == 0) {
			snprintf(real, len, "%s", resolved[i].real);
			pthread_mutex_unlock(&resolved_lock);
			return;
		}
	pthread_mutex_unlock(&resolved_lock);
	char dir[PATH_MAX], rdir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s", name);
	char *slash = strrchr(dir, '/');
	real[0] = '\0';
	if (slash == NULL)
		return;
	*slash = '\0';
	if (realpath(dir[0] ? dir : "/", rdir) == NULL)
		return;
	snprintf(real, len, "%s/%s", strcmp(rdir, "/") == 0 ? "" : rdir, slash + 1);
	pthread_mutex_lock(&resolved_lock);
	struct resolved *e = &resolved[n_resolved < RESOLVED_MAX ? n_resolved++ : next_resolved++ % RESOLVED_MAX];
	e->sock_ino = sock_ino;
	snprintf(e->name, sizeof(e->name), "%s", name);
	snprintf(e->real, sizeof(e->real), "%s", real);
	pthread_mutex_unlock(&resolved_lock);
}

/* path is name, or a directory above it. */
static bool at_or_above(const char *path, const char *name)
{
	size_t pl = strlen(path);
	if (pl == 1 && path[0] == '/')
		return name[0] == '/';
	return strncmp(name, path, pl) == 0 && (name[pl] == '\0' || name[pl] == '/');
}

/*
 * Is a unix socket outside the session, listening (or a datagram socket
 * bound and not connected: both take new clients), at the file (dev,
 * ino), or, with path set, at a name that path is (a symlink on the way)
 * or is above, whether the name is taken as it was bound or as it
 * resolves now?  A socket of the session bound at the file makes it the
 * session's.  The kernel lists the sockets (sock_diag, a dump of those two
 * states only); 1, 0, or -errno when it cannot say.  Asked anew each
 * time: a socket bound a moment ago counts at once.
 */
/* What net_unix_foreign looks for, for its diag_dump's each (on_unix). */
struct foreign_at {
	dev_t dev;
	ino_t ino;
	const char *path;
};

static int on_unix(const struct nlmsghdr *h, void *arg)
{
	const struct foreign_at *f = arg;
	struct unix_diag_msg *m = NLMSG_DATA(h);
	int len = (int)h->nlmsg_len - (int)NLMSG_LENGTH(sizeof(*m));
	bool vfs = false;
	dev_t d = 0;
	uint32_t vino = 0;
	char name[109] = "";

	for (struct rtattr *at = (struct rtattr *)(m + 1); RTA_OK(at, len); at = RTA_NEXT(at, len)) {
		if (at->rta_type == UNIX_DIAG_VFS && RTA_PAYLOAD(at) >= sizeof(struct unix_diag_vfs)) {
			struct unix_diag_vfs v;
			memcpy(&v, RTA_DATA(at), sizeof(v));
			d = makedev(v.udiag_vfs_dev >> 20, v.udiag_vfs_dev & 0xfffff);
			vino = v.udiag_vfs_ino;
			vfs = true;
		} else if (at->rta_type == UNIX_DIAG_NAME && RTA_PAYLOAD(at) < sizeof(name)) {
			memcpy(name, RTA_DATA(at), RTA_PAYLOAD(at));
			name[RTA_PAYLOAD(at)] = '\0';
		}
	}
	if (!vfs)
		return 0; /* abstract */
	bool here;
	if (f->path == NULL) {
		here = d == f->dev && vino == (uint32_t)f->ino;
	} else {
		char lex[sizeof(name)], real[PATH_MAX];
		lexical(name, lex, sizeof(lex));
		here = name[0] == '/' && at_or_above(f->path, lex);
		if (!here && name[0] == '/') {
			resolve_bound(m->udiag_ino, name, real, sizeof(real));
			here = real[0] == '/' && at_or_above(f->path, real);
		}
	}
	return here && !net_session_unix(d, vino);
}

int net_unix_foreign(dev_t dev, ino_t ino, const char *path)
{
	struct {
		struct nlmsghdr nlh;
		struct unix_diag_req req;
	} q = {
		.nlh = { .nlmsg_len = sizeof(q), .nlmsg_type = SOCK_DIAG_BY_FAMILY,
			 .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP },
		.req = { .sdiag_family = AF_UNIX,
			 .udiag_states = (1U << 10) | (1U << 7), /* TCP_LISTEN, TCP_CLOSE */
			 .udiag_show = UDIAG_SHOW_VFS | UDIAG_SHOW_NAME },
	};
	struct foreign_at f = { dev, ino, path };

	return diag_dump(&q, sizeof(q), sizeof(struct unix_diag_msg), on_unix, &f);
}

/* ---- the host's own addresses ---- */

static uint8_t (*local)[16];
static size_t n_local;
static time_t local_read;

/*
 * The addresses of this host's interfaces (getifaddrs), and their
 * broadcast addresses, read again when older than 5 seconds: a
 * connection or datagram to one of them reaches the host's own services
 * as surely as one to loopback does.
 */
static void read_local(time_t now)
{
	struct ifaddrs *ifa = NULL;
	size_t n = 0;

	if (getifaddrs(&ifa) < 0)
		return;
	for (struct ifaddrs *i = ifa; i != NULL; i = i->ifa_next)
		n += 2 * (i->ifa_addr != NULL && (i->ifa_addr->sa_family == AF_INET ||
						  i->ifa_addr->sa_family == AF_INET6));
	uint8_t(*a)[16] = calloc(n ? n : 1, 16);
	if (a == NULL) {
		freeifaddrs(ifa);
		return;
	}
	n = 0;
	for (struct ifaddrs *i = ifa; i != NULL; i = i->ifa_next) {
		if (i->ifa_addr == NULL)
			continue;
		if (i->ifa_addr->sa_family == AF_INET) {
			net_v4_mapped(((struct sockaddr_in *)i->ifa_addr)->sin_addr.s_addr, a[n++]);
			if ((i->ifa_flags & IFF_BROADCAST) && i->ifa_broadaddr != NULL &&
			    i->ifa_broadaddr->sa_family == AF_INET)
				net_v4_mapped(((struct sockaddr_in *)i->ifa_broadaddr)->sin_addr.s_addr,
					      a[n++]);
		} else if (i->ifa_addr->sa_family == AF_INET6)
			memcpy(a[n++], &((struct sockaddr_in6 *)i->ifa_addr)->sin6_addr, 16);
	}
	freeifaddrs(ifa);
	free(local);
	local = a;
	n_local = n;
	local_read = now;
}

bool net_is_local(const uint8_t addr[16])
{
	static pthread_mutex_t local_lock = PTHREAD_MUTEX_INITIALIZER;
	time_t now = time(NULL);
	bool found = false;

	static const uint8_t v4pfx[12] = { [10] = 0xff, [11] = 0xff };
	bool v4 = memcmp(addr, v4pfx, 12) == 0;
	if (is_any(addr) || net_is_loopback(addr))
		return true;
	/*
	 * Broadcast (255.255.255.255) and multicast (224/4, ff00::/8): every
	 * socket of the host bound to the port and the group gets them (the
	 * sender's own host included, by default).
	 */
	if ((v4 && (addr[12] & 0xf0) == 0xe0) || (!v4 && addr[0] == 0xff) ||
	    (v4 && addr[12] == 0xff && addr[13] == 0xff && addr[14] == 0xff && addr[15] == 0xff))
		return true;
	/* Its own lock: getifaddrs talks to the kernel, @session lookups should not wait. */
	pthread_mutex_lock(&local_lock);
	if (local == NULL || now - local_read >= 5)
		read_local(now);
	for (size_t i = 0; i < n_local && !found; i++)
		found = memcmp(local[i], addr, 16) == 0;
	pthread_mutex_unlock(&local_lock);
	return found;
}

/* ---- @dns ---- */

static void read_resolv_conf(void)
{
	FILE *f = fopen("/etc/resolv.conf", "re");
	char line[512], word[256];

	if (f == NULL)
		return;
	while (fgets(line, sizeof(line), f) != NULL && n_dns < NET_MAX_DNS) {
		if (sscanf(line, " nameserver %255s", word) != 1)
			continue;
		struct in_addr a4;
		struct in6_addr a6;
		char *pct = strchr(word, '%'); /* fe80::1%eth0 */
		if (pct != NULL)
			*pct = '\0';
		if (inet_pton(AF_INET, word, &a4) == 1)
			net_v4_mapped(a4.s_addr, dns[n_dns++]);
		else if (inet_pton(AF_INET6, word, &a6) == 1)
			memcpy(dns[n_dns++], &a6, 16);
	}
	fclose(f);
}

bool net_is_dns(const uint8_t addr[16], uint16_t port)
{
	if (port != 53)
		return false;
	for (size_t i = 0; i < n_dns; i++)
		if (memcmp(dns[i], addr, 16) == 0)
			return true;
	return false;
}

/* ---- names ---- */

static void name_add(const uint8_t addr[16], const char *name, time_t now)
{
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_names; i++)
		if (memcmp(names[i].addr, addr, 16) == 0 && strcmp(names[i].name, name) == 0) {
			names[i].seen = now;
			goto out;
		}
	/* Drop what has not been seen for NET_KEEP seconds to make room. */
	if (n_names >= NET_MAX_NAMES) {
		size_t k = 0;
		for (size_t i = 0; i < n_names; i++)
			if (now - names[i].seen < NET_KEEP)
				names[k++] = names[i];
		n_names = k;
		if (n_names >= NET_MAX_NAMES)
			goto out;
	}
	if (!grow((void **)&names, n_names, sizeof(*names)))
		goto out;
	memcpy(names[n_names].addr, addr, 16);
	snprintf(names[n_names].name, sizeof(names[n_names].name), "%s", name);
	names[n_names].seen = now;
	n_names++;
out:
	pthread_mutex_unlock(&lock);
}

/* One literal name of the policy and when to resolve it again. */
struct domain {
	char name[256];
	time_t next;
};
static struct domain *domains;
static size_t n_domains;


/* When to resolve d again: when its records expire (NET_MIN_TTL..NET_REFRESH s). */
static void schedule_domain(struct domain *d, time_t now)
{
	long ttl = resolver_ttl(d->name);
	if (ttl < 0 || ttl > NET_REFRESH)
		ttl = NET_REFRESH; /* not in DNS (a hosts file), or no answer */
	if (ttl < NET_MIN_TTL)
		ttl = NET_MIN_TTL;
	d->next = now + ttl;
}

static int add_domain(const char *name, void *arg)
{
	(void)arg;
	struct domain *d = realloc(domains, (n_domains + 1) * sizeof(*d));
	if (d == NULL)
		return -ENOMEM;
	domains = d;
	snprintf(domains[n_domains].name, sizeof(domains[n_domains].name), "%s", name);
	domains[n_domains].next = 0;
	n_domains++;
	return 0;
}

/* Resolve name now and record its addresses. */
static void resolve_name(const char *name, time_t now)
{
	uint8_t addrs[RESOLVER_ADDRS][16];
	int n = resolver_lookup(name, addrs, RESOLVER_ADDRS, NULL);
	for (int i = 0; i < n; i++)
		name_add(addrs[i], name, now);
}

/* Resolve d's name now (resolver.c) and record its addresses. */
static void resolve_domain(struct domain *d, time_t now)
{
	resolve_name(d->name, now);
}

/* The learned names again, at most every NET_MIN_TTL seconds (resolver.c caches by TTL). */
static void refresh_learned(time_t now)
{
	static time_t last;
	char name[256];

	if (now - last < NET_MIN_TTL)
		return;
	last = now;
	for (size_t i = 0;; i++) {
		pthread_mutex_lock(&lock);
		bool more = i < n_learned;
		if (more)
			memcpy(name, learned[i], sizeof(name));
		pthread_mutex_unlock(&lock);
		if (!more)
			break;
		resolve_name(name, now);
	}
}

static void *resolver_main(void *arg)
{
	(void)arg;
	for (;;) {
		time_t now = time(NULL), wake = now + NET_REFRESH;
		bool due[n_domains > 0 ? n_domains : 1];
		for (size_t i = 0; i < n_domains; i++)
			if ((due[i] = domains[i].next <= now))
				resolve_domain(&domains[i], now);
		refresh_learned(now);
		/* Decisions waiting for the first answers go on now, not after the TTL queries. */
		pthread_mutex_lock(&lock);
		resolved_once = true;
		pthread_cond_broadcast(&first_done);
		pthread_mutex_unlock(&lock);
		for (size_t i = 0; i < n_domains; i++) {
			if (due[i])
				schedule_domain(&domains[i], now);
			if (domains[i].next < wake)
				wake = domains[i].next;
		}
		now = time(NULL);
		if (wake > now)
			sleep((unsigned)(wake - now));
	}
	return NULL;
}

void net_learn_name(const char *name)
{
	bool start = false, known = false;

	if (!resolver_name_ok(name))
		return;
	pthread_mutex_lock(&lock);
	for (size_t i = 0; i < n_learned && !known; i++)
		known = strcmp(learned[i], name) == 0;
	pthread_mutex_unlock(&lock);
	if (known)
		return;
	/*
	 * Now, in the caller's thread, before the name is listed: the call the
	 * answer was for goes on after it, and so does every other caller of
	 * the same question (each looks it up: resolver.c's cache answers
	 * all but the first), so none finds the name listed but not resolved.
	 */
	resolve_name(name, time(NULL));
	pthread_mutex_lock(&lock);
	known = false;
	for (size_t i = 0; i < n_learned && !known; i++)
		known = strcmp(learned[i], name) == 0;
	if (!known && n_learned < NET_MAX_LEARNED &&
	    grow((void **)&learned, n_learned, sizeof(*learned))) {
		snprintf(learned[n_learned], sizeof(learned[0]), "%s", name);
		n_learned++;
	}
	if (!resolver_running)
		start = resolver_running = true;
	pthread_mutex_unlock(&lock);
	if (!start)
		return;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	int rc = pthread_create(&resolver, &attr, resolver_main, NULL);
	pthread_attr_destroy(&attr);
	if (rc != 0) {
		/* The name is known for now; not kept fresh (its addresses age out: asked again). */
		pthread_mutex_lock(&lock);
		resolver_running = false;
		pthread_mutex_unlock(&lock);
	}
}

int net_host_of(const uint8_t addr[16], char hosts[][256], int max)
{
	int n = 0;
	time_t now = time(NULL);
	struct timespec deadline;

	clock_gettime(CLOCK_REALTIME, &deadline);
	deadline.tv_sec += NET_FIRST_WAIT_MS / 1000;
	pthread_mutex_lock(&lock);
	while (resolver_running && !resolved_once)
		if (pthread_cond_timedwait(&first_done, &lock, &deadline) == ETIMEDOUT)
			break;
	for (size_t i = 0; i < n_names && n < max; i++)
		if (memcmp(names[i].addr, addr, 16) == 0 && now - names[i].seen < NET_KEEP)
			memcpy(hosts[n++], names[i].name, 256);
	pthread_mutex_unlock(&lock);
	return n;
}

int net_init(const struct ward_policy *p)
{
	read_resolv_conf();
	if (ward_policy_domains(p, add_domain, NULL) < 0)
		return -ENOMEM;
	if (n_domains == 0)
		return 0;
	pthread_attr_t attr;
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	int rc = pthread_create(&resolver, &attr, resolver_main, (void *)p);
	pthread_attr_destroy(&attr);
	if (rc != 0)
		return -rc;
	resolver_running = true;
	return 0;
}
