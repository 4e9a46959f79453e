/*
 * attack_connect - reach a service outside the session that hands out the
 * secret (think ssh-agent, a docker or D-Bus socket, a local database).
 * The default profile says:
 *     deny    connect  @loopback unix:/(anything) unix-abstract:*
 *     allow   connect,bind  @session
 * so a socket ward did not see this session bind is out of reach: unix
 * path, unix abstract, and TCP on 127.0.0.1.
 *
 *   serve DIR SECRETFILE   (run by the driver, outside ward) listens on
 *                          DIR/outside.sock, @ward-attack-PID and
 *                          127.0.0.1:PORT, writes "PORT PID" to DIR/info,
 *                          and sends the secret to every client
 *   (no argument)          the attack: $ATTACK_DIR names DIR
 */
#include "attack.h"

#include <arpa/inet.h>
#include <limits.h>
#include <netinet/in.h>
#include <poll.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

static int serve(const char *dir, const char *secretfile)
{
	char secret[256], path[PATH_MAX];
	ssize_t len = slurp(secretfile, secret, sizeof(secret));
	struct sockaddr_un un = { .sun_family = AF_UNIX }, ab = { .sun_family = AF_UNIX };
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t inlen = sizeof(in);
	int s[3];

	if (len <= 0)
		return 2;
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/outside.sock", dir);
	snprintf(ab.sun_path + 1, sizeof(ab.sun_path) - 1, "ward-attack-%d", getpid());
	unlink(un.sun_path);
	s[0] = socket(AF_UNIX, SOCK_STREAM, 0);
	s[1] = socket(AF_UNIX, SOCK_STREAM, 0);
	s[2] = socket(AF_INET, SOCK_STREAM, 0);
	if (s[0] < 0 || s[1] < 0 || s[2] < 0 ||
	    bind(s[0], (struct sockaddr *)&un, sizeof(un)) < 0 ||
	    bind(s[1], (struct sockaddr *)&ab,
		 (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(ab.sun_path + 1))) < 0 ||
	    bind(s[2], (struct sockaddr *)&in, sizeof(in)) < 0 ||
	    getsockname(s[2], (struct sockaddr *)&in, &inlen) < 0)
		return 2;
	for (int i = 0; i < 3; i++)
		if (listen(s[i], 8) < 0)
			return 2;
	chmod(un.sun_path, 0777);
	snprintf(path, sizeof(path), "%s/info.tmp", dir);
	FILE *f = fopen(path, "w");
	if (f == NULL)
		return 2;
	fprintf(f, "%d %d\n", ntohs(in.sin_port), getpid());
	fclose(f);
	char info[PATH_MAX];
	snprintf(info, sizeof(info), "%s/info", dir);
	rename(path, info);
	for (;;) {
		struct pollfd p[3] = { { s[0], POLLIN, 0 }, { s[1], POLLIN, 0 }, { s[2], POLLIN, 0 } };
		if (poll(p, 3, -1) < 0)
			continue;
		for (int i = 0; i < 3; i++) {
			if (!(p[i].revents & POLLIN))
				continue;
			int c = accept(s[i], NULL, NULL);
			if (c >= 0) {
				ssize_t w = write(c, secret, (size_t)len);
				(void)w;
				close(c);
			}
		}
	}
}

static void attempt(const char *how, int fam, const struct sockaddr *sa, socklen_t len)
{
	int s = socket(fam, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		setup_failed("socket");
	if (connect(s, sa, len) < 0) {
		say("blocked: %s: %s", how, strerror(errno));
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

	struct sockaddr_un un = { .sun_family = AF_UNIX }, ab = { .sun_family = AF_UNIX };
	snprintf(un.sun_path, sizeof(un.sun_path), "%s/outside.sock", dir);
	attempt("connect(unix:DIR/outside.sock)", AF_UNIX, (struct sockaddr *)&un, sizeof(un));
	snprintf(ab.sun_path + 1, sizeof(ab.sun_path) - 1, "ward-attack-%d", pid);
	attempt("connect(unix-abstract:ward-attack-PID)", AF_UNIX, (struct sockaddr *)&ab,
		(socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + strlen(ab.sun_path + 1)));
	struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons((uint16_t)port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	attempt("connect(127.0.0.1:PORT)", AF_INET, (struct sockaddr *)&in, sizeof(in));
	struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons((uint16_t)port) };
	inet_pton(AF_INET6, "::ffff:127.0.0.1", &in6.sin6_addr);
	attempt("connect([::ffff:127.0.0.1]:PORT)", AF_INET6, (struct sockaddr *)&in6, sizeof(in6));
	return finish();
}
