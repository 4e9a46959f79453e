/*
 * attack_net_race MODE - races on the network handlers, against the
 * outside service of attack_connect ($ATTACK_DIR names its directory).
 *
 *   tcp-thread, tcp-clonevm    a second thread (or a CLONE_VM sibling)
 *                              flips the port of a sockaddr_in between a
 *                              TCP server of the session's own (bound and
 *                              listening on 127.0.0.1 here, so ward records
 *                              it) and the outside service, while the main
 *                              thread connects in a loop
 *   udp-thread, udp-clonevm    the same with sendto and a UDP socket of
 *                              the session's own
 *   unix-thread, unix-clonevm  the same with a unix socket path:
 *                              "./q/srv/outside.sock" (the session's own,
 *                              bound here) and "..//srv/outside.sock" (the
 *                              outside service; the project and srv are
 *                              both in the driver's base directory)
 *   disconnect                 a thread keeps dissolving a TCP socket's
 *                              connection (connect to AF_UNSPEC) and
 *                              connecting it again to the session's own
 *                              server, while the main thread connects the
 *                              same socket to the outside service: ward must
 *                              never let the kernel take the outside name for
 *                              a socket it judged connected (where the kernel
 *                              reads no name, EISCONN)
 *   bindswap                   a thread keeps renaming a hard link of the
 *                              outside socket over the name the main
 *                              thread binds: the socket ward records as the
 *                              session's must be the one it bound, not
 *                              whatever has that name a moment later
 *
 * Each runs for race_seconds().  Reaching the outside service once is a
 * LEAK; at the end the attack also reads the service's DIR/hits, which
 * must be empty (the driver checks it too).  ward must read the address
 * once and act on its copy (DESIGN.md §2 invariant 2).
 *
 * A try is in the race's window when the address (or, for bindswap, the
 * name) changed while the call was in the kernel; a race with no try in
 * its window, or with one kind of answer only, was never run: missed.
 */
#include "attack.h"

#include <arpa/inet.h>
#include <assert.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <pthread.h>
#include <sched.h>
#include <stddef.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/un.h>

static const char *dir;
static int tcp4, udp4;

/* The flipping name: only its first 8 bytes differ between the two values. */
static union {
	struct sockaddr_storage ss;
	uint64_t w[16];
} name __attribute__((aligned(16)));
static uint64_t word_own, word_out;
static volatile int stop;
static unsigned long flips, windows; /* flips by the flipper; tries during one */

/* Around one try: was the name flipped while it was in the kernel? */
static unsigned long try_begin(void)
{
	return __atomic_load_n(&flips, __ATOMIC_RELAXED);
}

static void try_end(unsigned long before)
{
	int e = errno;
	if (__atomic_load_n(&flips, __ATOMIC_RELAXED) != before)
		windows++;
	errno = e;
}

static void *flipper(void *arg)
{
	volatile uint64_t *w = &name.w[0];
	unsigned long n = 0;

	(void)arg;
	while (!stop) {
		__atomic_store_n(w, word_own, __ATOMIC_RELAXED);
		for (volatile int i = 0; i < (int)(n & 63); i++)
			;
		__atomic_store_n(w, word_out, __ATOMIC_RELAXED);
		__atomic_add_fetch(&flips, 1, __ATOMIC_RELAXED);
		for (volatile int i = 0; i < (int)((n >> 6) & 63); i++)
			;
		n = n * 6364136223846793005ul + 1442695040888963407ul;
	}
	__atomic_store_n(w, word_own, __ATOMIC_RELAXED);
	return NULL;
}

static int flipper_clone(void *arg)
{
	flipper(arg);
	return 0;
}

static pthread_t flip_thread;
static pid_t flip_sibling = -1;

static void start_flipper(const char *how)
{
	if (strcmp(how, "thread") == 0) {
		if (pthread_create(&flip_thread, NULL, flipper, NULL) != 0)
			setup_failed("pthread_create");
	} else if (strcmp(how, "clonevm") == 0) {
		size_t sz = 256 * 1024;
		char *stack =
			mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (stack == MAP_FAILED)
			setup_failed("mmap");
		flip_sibling = clone(flipper_clone, stack + sz, CLONE_VM | SIGCHLD, NULL);
		if (flip_sibling < 0)
			setup_failed("clone(CLONE_VM)");
	} else {
		errno = EINVAL;
		setup_failed(how);
	}
}

static void stop_flipper(void)
{
	stop = 1;
	if (flip_sibling > 0)
		waitpid(flip_sibling, NULL, 0);
	else
		pthread_join(flip_thread, NULL);
}

static void read_info(void)
{
	char info[PATH_MAX], buf[128];
	int pid, tcp6, udp6;

	dir = getenv("ATTACK_DIR");
	if (dir == NULL) {
		errno = EINVAL;
		setup_failed("$ATTACK_DIR");
	}
	snprintf(info, sizeof(info), "%s/info", dir);
	if (slurp(info, buf, sizeof(buf)) <= 0 ||
	    sscanf(buf, "%d %d %d %d %d", &tcp4, &pid, &tcp6, &udp4, &udp6) != 5) {
		errno = EINVAL;
		setup_failed("read the service's info (TCP4 PID TCP6 UDP4 UDP6)");
	}
}

/* What the outside service logged: every line is a connection or datagram that reached it. */
static void check_hits(void)
{
	char path[PATH_MAX], buf[4096];
	ssize_t n;

	snprintf(path, sizeof(path), "%s/hits", dir);
	n = slurp(path, buf, sizeof(buf));
	if (n < 0)
		setup_failed("read the service's hits");
	if (n > 0) {
		int lines = 0;
		for (ssize_t i = 0; i < n; i++)
			lines += buf[i] == '\n';
		att_through = 1;
		say("LEAK: the outside service was reached %d time(s): %.*s", lines,
		    (int)strcspn(buf, "\n"), buf);
	}
}

static void one_sided(const char *what, unsigned long tries, unsigned long own,
		      unsigned long denied)
{
	if (!att_through && (own == 0 || denied == 0))
		missed("the race was one-sided: %lu went to the session's own, %lu were refused", own,
		       denied);
	race_done(what, tries, windows);
}

/* A socket of the session's own on 127.0.0.1, port picked by the kernel. */
static int own_inet(int type, struct sockaddr_in *at)
{
	socklen_t l = sizeof(*at);
	int s = socket(AF_INET, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

	memset(at, 0, sizeof(*at));
	at->sin_family = AF_INET;
	at->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (s < 0 || bind(s, (struct sockaddr *)at, sizeof(*at)) < 0 ||
	    getsockname(s, (struct sockaddr *)at, &l) < 0)
		setup_failed("bind a socket of the session's own");
	if (type == SOCK_STREAM && listen(s, 4096) < 0)
		setup_failed("listen");
	return s;
}

static void set_words(const void *own, const void *out)
{
	memcpy(&word_own, own, 8);
	memcpy(&word_out, out, 8);
	name.w[0] = word_own;
}

static void race_tcp(const char *how)
{
	struct sockaddr_in own, out;
	int l = own_inet(SOCK_STREAM, &own);
	unsigned long tries = 0, owns = 0, denied = 0, other = 0;

	memcpy(&out, &own, sizeof(out));
	out.sin_port = htons((uint16_t)tcp4);
	memcpy(&name.ss, &own, sizeof(own));
	set_words(&own, &out);
	start_flipper(how);
	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		for (int k = 0; k < 32; k++) {
			int s = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
			/* Reset at close: no TIME_WAIT, so the ephemeral ports last the race. */
			struct linger lg = { 1, 0 };
			struct sockaddr_in peer;
			socklen_t pl = sizeof(peer);
			if (s < 0)
				setup_failed("socket");
			setsockopt(s, SOL_SOCKET, SO_LINGER, &lg, sizeof(lg));
			tries++;
			unsigned long before = try_begin();
			int rc = connect(s, (struct sockaddr *)&name.ss, sizeof(struct sockaddr_in));
			try_end(before);
			if (rc < 0) {
				if (errno == EACCES)
					denied++;
				else
					other++;
			} else if (getpeername(s, (struct sockaddr *)&peer, &pl) == 0 &&
				   peer.sin_port == own.sin_port) {
				owns++;
				int c = accept4(l, NULL, NULL, SOCK_CLOEXEC);
				if (c >= 0)
					close(c);
			} else {
				char buf[256];
				struct pollfd p = { s, POLLIN, 0 };
				ssize_t n = poll(&p, 1, 1000) > 0 ? read(s, buf, sizeof(buf) - 1) : 0;
				if (n > 0 && is_secret(buf, (size_t)n))
					leak("connect of a flipping sockaddr", buf, (size_t)n);
				else {
					att_through = 1;
					say("LEAK: connect of a flipping sockaddr: connected to port %d",
					    ntohs(peer.sin_port));
				}
			}
			close(s);
			if (att_through)
				break;
		}
	}
	stop_flipper();
	close(l);
	say("note: %lu connects: %lu to the session's own server, %lu denied, %lu other errors",
	    tries, owns, denied, other);
	one_sided("connect of a flipping sockaddr_in", tries, owns, denied);
}

static void race_udp(const char *how)
{
	struct sockaddr_in own, out;
	int r = own_inet(SOCK_DGRAM, &own);
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	unsigned long tries = 0, sent = 0, denied = 0, other = 0, got = 0;
	char buf[512];

	if (s < 0)
		setup_failed("socket");
	memcpy(&out, &own, sizeof(out));
	out.sin_port = htons((uint16_t)udp4);
	memcpy(&name.ss, &own, sizeof(own));
	set_words(&own, &out);
	start_flipper(how);
	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		for (int k = 0; k < 32; k++) {
			tries++;
			unsigned long before = try_begin();
			ssize_t rc = sendto(s, "ping", 4, 0, (struct sockaddr *)&name.ss,
					    sizeof(struct sockaddr_in));
			try_end(before);
			if (rc >= 0)
				sent++;
			else if (errno == EACCES)
				denied++;
			else
				other++;
		}
		/* The outside service answers with the secret; ours says nothing. */
		ssize_t n = recv(s, buf, sizeof(buf) - 1, 0);
		if (n > 0 && is_secret(buf, (size_t)n))
			leak("sendto of a flipping sockaddr", buf, (size_t)n);
		while (recv(r, buf, sizeof(buf), 0) >= 0)
			got++;
	}
	stop_flipper();
	usleep(200 * 1000);
	ssize_t n = recv(s, buf, sizeof(buf) - 1, 0);
	if (n > 0 && is_secret(buf, (size_t)n))
		leak("sendto of a flipping sockaddr", buf, (size_t)n);
	while (recv(r, buf, sizeof(buf), 0) >= 0)
		got++;
	close(s);
	close(r);
	say("note: %lu sends: %lu sent (%lu received by the session's own socket), %lu denied, "
	    "%lu other errors",
	    tries, sent, got, denied, other);
	one_sided("sendto of a flipping sockaddr_in", tries, sent, denied);
}

static void race_unix(const char *how)
{
	/* Same length, different in their first 8 bytes (with sun_family). */
	static const char own_path[] = "./q/srv/outside.sock";
	static const char out_path[] = "..//srv/outside.sock";
	struct sockaddr_un own = { .sun_family = AF_UNIX }, out = { .sun_family = AF_UNIX };
	unsigned long tries = 0, owns = 0, denied = 0, other = 0;
	const char *slash = strrchr(dir, '/');

	static_assert(sizeof(own_path) == sizeof(out_path), "the two paths must be as long");
	if (slash == NULL || strcmp(slash, "/srv") != 0) {
		errno = EINVAL;
		setup_failed("$ATTACK_DIR must be BASE/srv, beside the project");
	}
	memcpy(own.sun_path, own_path, sizeof(own_path));
	memcpy(out.sun_path, out_path, sizeof(out_path));
	if (mkdir("q", 0755) < 0 || mkdir("q/srv", 0755) < 0)
		setup_failed("mkdir q/srv");
	int l = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (l < 0 || bind(l, (struct sockaddr *)&own, sizeof(own)) < 0 || listen(l, 4096) < 0)
		setup_failed("bind q/srv/outside.sock");
	memcpy(&name.ss, &own, sizeof(own));
	set_words(&own, &out);
	start_flipper(how);
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + sizeof(own_path));
	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		for (int k = 0; k < 32; k++) {
			int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (s < 0)
				setup_failed("socket");
			tries++;
			unsigned long before = try_begin();
			int rc = connect(s, (struct sockaddr *)&name.ss, len);
			try_end(before);
			if (rc < 0) {
				if (errno == EACCES)
					denied++;
				else
					other++;
				close(s);
				continue;
			}
			/* Ours has it queued now; the outside service's writes the secret. */
			int c = accept4(l, NULL, NULL, SOCK_CLOEXEC);
			if (c >= 0) {
				owns++;
				close(c);
			} else {
				char buf[256];
				struct pollfd p = { s, POLLIN, 0 };
				ssize_t n = poll(&p, 1, 1000) > 0 ? read(s, buf, sizeof(buf) - 1) : 0;
				if (n > 0 && is_secret(buf, (size_t)n))
					leak("connect of a flipping unix path", buf, (size_t)n);
				else {
					att_through = 1;
					say("LEAK: connect of a flipping unix path: connected to a socket "
					    "not the session's");
				}
			}
			close(s);
			if (att_through)
				break;
		}
	}
	stop_flipper();
	close(l);
	say("note: %lu connects: %lu to the session's own socket, %lu denied, %lu other errors",
	    tries, owns, denied, other);
	one_sided("connect of a flipping unix path", tries, owns, denied);
}

/* ---- disconnect ---- */

static int shared_sock, own_listener;
static struct sockaddr_in own_addr;

static void *disconnector(void *arg)
{
	struct sockaddr unspec = { .sa_family = AF_UNSPEC };

	(void)arg;
	while (!stop) {
		connect(shared_sock, &unspec, sizeof(unspec));
		__atomic_add_fetch(&flips, 1, __ATOMIC_RELAXED);
		connect(shared_sock, (struct sockaddr *)&own_addr, sizeof(own_addr));
		int c;
		while ((c = accept4(own_listener, NULL, NULL, SOCK_CLOEXEC)) >= 0)
			close(c);
	}
	return NULL;
}

static void race_disconnect(void)
{
	struct sockaddr_in out;
	unsigned long tries = 0, busy = 0, owns = 0, denied = 0, other = 0;
	pthread_t t;

	own_listener = own_inet(SOCK_STREAM, &own_addr);
	memcpy(&out, &own_addr, sizeof(out));
	out.sin_port = htons((uint16_t)tcp4);
	shared_sock = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (shared_sock < 0 || connect(shared_sock, (struct sockaddr *)&own_addr, sizeof(own_addr)) < 0)
		setup_failed("connect to the session's own server");
	if (pthread_create(&t, NULL, disconnector, NULL) != 0)
		setup_failed("pthread_create");
	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		struct sockaddr_in peer;
		socklen_t pl = sizeof(peer);
		tries++;
		unsigned long before = try_begin();
		int rc = connect(shared_sock, (struct sockaddr *)&out, sizeof(out));
		try_end(before);
		if (rc < 0) {
			if (errno == EISCONN || errno == EALREADY)
				busy++;
			else if (errno == EACCES)
				denied++;
			else
				other++;
		} else if (getpeername(shared_sock, (struct sockaddr *)&peer, &pl) == 0 &&
			   peer.sin_port == own_addr.sin_port) {
			owns++; /* the thread's connect, finished by this one */
		} else if (pl == sizeof(peer) && peer.sin_port == out.sin_port) {
			att_through = 1;
			say("LEAK: connect of a socket being disconnected: connected to the outside "
			    "service (port %d)",
			    ntohs(peer.sin_port));
		} else {
			other++; /* connected, then dissolved by the thread before getpeername */
		}
	}
	stop = 1;
	pthread_join(t, NULL);
	close(shared_sock);
	close(own_listener);
	say("note: %lu connects to the outside service: %lu refused as busy, %lu finished the "
	    "thread's own, %lu denied, %lu other errors",
	    tries, busy, owns, denied, other);
	one_sided("connect of a socket another thread disconnects", tries, busy, denied);
}

/* ---- bindswap ---- */

static char outside_sock[PATH_MAX];
static unsigned long swaps;

static void *swapper(void *arg)
{
	(void)arg;
	while (!stop) {
		unlink("swap.tmp");
		if (link(outside_sock, "swap.tmp") == 0 && rename("swap.tmp", "b.sock") == 0)
			__atomic_add_fetch(&swaps, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void race_bindswap(void)
{
	static const char how[] = "connect(DIR/outside.sock) after a bind raced with a rename";
	struct sockaddr_un b = { .sun_family = AF_UNIX }, out = { .sun_family = AF_UNIX };
	unsigned long tries = 0, bound = 0, denied = 0, other = 0;
	pthread_t t;

	snprintf(outside_sock, sizeof(outside_sock), "%s/outside.sock", dir);
	if (strlen(outside_sock) >= sizeof(out.sun_path)) {
		errno = ENAMETOOLONG;
		setup_failed("DIR/outside.sock as a socket address");
	}
	memcpy(out.sun_path, outside_sock, strlen(outside_sock) + 1);
	snprintf(b.sun_path, sizeof(b.sun_path), "b.sock");
	/* The hard link is the attack's tool: without it there is nothing to race. */
	if (link(outside_sock, "probe.sock") < 0) {
		/* The attack's tool, refused: a hard link of an outside socket is a read of it. */
		refused("link(DIR/outside.sock, probe.sock), the tool of the race", errno, EACCES);
		return;
	}
	unlink("probe.sock");
	if (pthread_create(&t, NULL, swapper, NULL) != 0)
		setup_failed("pthread_create");
	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (s < 0)
			setup_failed("socket");
		unlink("b.sock");
		tries++;
		unsigned long before = __atomic_load_n(&swaps, __ATOMIC_RELAXED);
		int rc = bind(s, (struct sockaddr *)&b, sizeof(b));
		if (__atomic_load_n(&swaps, __ATOMIC_RELAXED) != before)
			windows++;
		if (rc == 0) {
			bound++;
			/* Did ward take the outside socket for the one just bound? */
			int c = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
			if (c < 0)
				setup_failed("socket");
			if (connect(c, (struct sockaddr *)&out, sizeof(out)) == 0) {
				char buf[256];
				struct pollfd p = { c, POLLIN, 0 };
				ssize_t n = poll(&p, 1, 1000) > 0 ? read(c, buf, sizeof(buf) - 1) : 0;
				if (n > 0 && is_secret(buf, (size_t)n))
					leak(how, buf, (size_t)n);
				else {
					att_through = 1;
					say("LEAK: %s: connected", how);
				}
			} else if (errno == EACCES) {
				denied++;
			} else {
				other++;
			}
			close(c);
		}
		close(s);
	}
	stop = 1;
	pthread_join(t, NULL);
	say("note: %lu binds (%lu succeeded, %lu renames over them): %lu connects denied, %lu "
	    "other errors",
	    tries, bound, swaps, denied, other);
	if (!att_through && (bound == 0 || swaps == 0 || denied == 0))
		missed("the race was one-sided: %lu binds, %lu renames, %lu connects refused", bound, swaps,
		       denied);
	race_done("a bind raced with a rename of the outside socket over its name", tries, windows);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	const char *dash = strchr(mode, '-');

	signal(SIGPIPE, SIG_IGN);
	read_info();
	if (strcmp(mode, "bindswap") == 0)
		race_bindswap();
	else if (strcmp(mode, "disconnect") == 0)
		race_disconnect();
	else if (dash != NULL && strncmp(mode, "tcp-", 4) == 0)
		race_tcp(dash + 1);
	else if (dash != NULL && strncmp(mode, "udp-", 4) == 0)
		race_udp(dash + 1);
	else if (dash != NULL && strncmp(mode, "unix-", 5) == 0)
		race_unix(dash + 1);
	else {
		errno = EINVAL;
		setup_failed(mode);
	}
	check_hits();
	return finish();
}
