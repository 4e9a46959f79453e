/*
 * control.c - the control socket: `ward approve` lists and answers the
 * session's questions through it.  One thread, polling the listener and
 * every peer; answers go through ask_answer(), so the first answer wins
 * whoever gives it.
 */
#include "control.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define MAX_PEERS 16
#define PEER_IN 65536	      /* a request line at most */
#define PEER_OUT (4u << 20)   /* answers not taken by a peer, at most: then it is dropped */

struct peer {
	int fd;
	bool watch;
	char in[PEER_IN];
	size_t nin;
	char *out;
	size_t nout;
};

static struct {
	int listen, wake[2];
	pthread_t thread;
	bool running;
	char path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	char session[32], cwd[PATH_MAX];
	json_t *argv;
	struct peer peers[MAX_PEERS];
} C = { .listen = -1, .wake = { -1, -1 } };

const char *control_path(void)
{
	return C.path;
}

json_t *control_jstr(const char *s)
{
	json_t *j = json_string(s);
	if (j != NULL)
		return j;
	char buf[ASK_TEXT * 4 + 1];
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p && o + 5 < sizeof(buf); p++) {
		if (*p < 0x80)
			buf[o++] = (char)*p;
		else
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "\\x%02x", *p);
	}
	buf[o] = '\0';
	return json_string(buf);
}

json_t *control_ask_json(const struct ask_view *v)
{
	json_t *scopes = json_array(), *o;
	char rule[ASK_RULE];

	for (int i = 0; i < v->nrungs; i++) {
		ask_rule_text(v, ANSWER_SESSION, i, rule, sizeof(rule));
		json_array_append_new(scopes, json_pack("{s:o, s:o}", "name", control_jstr(v->rung_name[i]),
							"rule", control_jstr(rule)));
	}
	o = json_pack("{s:i, s:s, s:s, s:o, s:o, s:i, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:f, s:f}",
		      "n", (int)v->serial, "op", ward_op_name(v->op), "kind",
		      v->kind == 'x' ? "exec" : v->kind == 'n' ? "net" : "path", "target",
		      control_jstr(v->target), "extra", control_jstr(v->extra), "pid", (int)v->pid, "exe",
		      control_jstr(v->exe), "prog", control_jstr(v->prog), "chain", control_jstr(v->chain),
		      "argv", control_jstr(v->argv), "args", control_jstr(v->args), "cwd", control_jstr(v->cwd), "procs",
		      control_jstr(v->procs), "rule", control_jstr(v->rule), "scopes", scopes, "waiting",
		      v->waiters, "age", v->age, "left", v->left);
	return o;
}

static void copy(char *dst, size_t len, json_t *o, const char *key)
{
	const char *s = json_string_value(json_object_get(o, key));
	snprintf(dst, len, "%s", s ? s : "");
}

bool control_ask_parse(json_t *o, struct ask_view *v)
{
	const char *op = json_string_value(json_object_get(o, "op"));
	const char *kind = json_string_value(json_object_get(o, "kind"));

	memset(v, 0, sizeof(*v));
	if (!json_is_integer(json_object_get(o, "n")) || op == NULL || kind == NULL ||
	    (v->op = ward_op_parse(op)) == 0)
		return false;
	v->serial = (unsigned)json_integer_value(json_object_get(o, "n"));
	v->kind = strcmp(kind, "exec") == 0 ? 'x' : strcmp(kind, "net") == 0 ? 'n' : 'p';
	copy(v->target, sizeof(v->target), o, "target");
	copy(v->extra, sizeof(v->extra), o, "extra");
	copy(v->exe, sizeof(v->exe), o, "exe");
	copy(v->prog, sizeof(v->prog), o, "prog");
	copy(v->chain, sizeof(v->chain), o, "chain");
	copy(v->argv, sizeof(v->argv), o, "argv");
	copy(v->args, sizeof(v->args), o, "args");
	copy(v->cwd, sizeof(v->cwd), o, "cwd");
	copy(v->procs, sizeof(v->procs), o, "procs");
	copy(v->rule, sizeof(v->rule), o, "rule");
	v->pid = (pid_t)json_integer_value(json_object_get(o, "pid"));
	v->waiters = (int)json_integer_value(json_object_get(o, "waiting"));
	v->age = json_number_value(json_object_get(o, "age"));
	v->left = json_number_value(json_object_get(o, "left"));
	json_t *scopes = json_object_get(o, "scopes");
	for (size_t i = 0; i < json_array_size(scopes) && v->nrungs < ASK_RUNGS; i++) {
		json_t *s = json_array_get(scopes, i);
		const char *rule = json_string_value(json_object_get(s, "rule"));
		/* The rung is the rule's target word: after "allow OP ". */
		const char *word = rule ? strchr(rule, ' ') : NULL;
		word = word ? strchr(word + 1, ' ') : NULL;
		if (word == NULL)
			break;
		snprintf(v->rung[v->nrungs], sizeof(v->rung[0]), "%s", word + 1);
		copy(v->rung_name[v->nrungs], sizeof(v->rung_name[0]), s, "name");
		v->nrungs++;
	}
	return true;
}

/* ---- the server ---- */

static void send_json(struct peer *p, json_t *o)
{
	char *s = o ? json_dumps(o, JSON_COMPACT) : NULL;
	json_decref(o);
	if (s == NULL)
		return;
	size_t n = strlen(s);
	if (p->nout + n + 1 > PEER_OUT) {
		free(s);
		shutdown(p->fd, SHUT_RDWR); /* a peer that reads nothing is let go */
		return;
	}
	char *out = realloc(p->out, p->nout + n + 1);
	if (out != NULL) {
		memcpy(out + p->nout, s, n);
		out[p->nout + n] = '\n';
		p->out = out;
		p->nout += n + 1;
	}
	free(s);
}

static json_t *list_json(void)
{
	struct ask_view *v;
	size_t n;
	json_t *a = json_array();

	if (ask_list(&v, &n) == 0) {
		for (size_t i = 0; i < n; i++)
			json_array_append_new(a, control_ask_json(&v[i]));
		free(v);
	}
	return json_pack("{s:s, s:o}", "session", C.session, "asks", a);
}

static json_t *result(int rc)
{
	if (rc == 0)
		return json_pack("{s:b}", "ok", 1);
	const char *why = rc == -ESRCH ? "no such question pending (answered already, or withdrawn)"
			  : rc == -EINVAL ? "that answer or scope does not apply to this question"
					  : strerror(-rc);
	return json_pack("{s:b, s:s}", "ok", 0, "error", why);
}

static void request(struct peer *p, const char *line)
{
	json_error_t err;
	json_t *q = json_loads(line, 0, &err);
	const char *op = json_string_value(json_object_get(q, "op"));

	if (op == NULL) {
		send_json(p, json_pack("{s:b, s:s}", "ok", 0, "error", "not a request"));
	} else if (strcmp(op, "hello") == 0) {
		struct ask_view *v;
		size_t n = 0;
		if (ask_list(&v, &n) == 0)
			free(v);
		send_json(p, json_pack("{s:s, s:i, s:O, s:s, s:i}", "session", C.session, "pid", (int)getpid(),
				       "argv", C.argv, "cwd", C.cwd, "pending", (int)n));
	} else if (strcmp(op, "list") == 0) {
		send_json(p, list_json());
	} else if (strcmp(op, "watch") == 0) {
		if (!p->watch)
			ask_approver(1);
		p->watch = true;
		send_json(p, list_json());
	} else if (strcmp(op, "answer") == 0) {
		const char *a = json_string_value(json_object_get(q, "answer"));
		json_t *n = json_object_get(q, "n"), *scope = json_object_get(q, "scope");
		enum ask_answer ans = a ? ask_answer_parse(a) : ANSWER_NONE;
		if (!json_is_integer(n) || ans == ANSWER_NONE)
			send_json(p, result(-EINVAL));
		else
			send_json(p, result(ask_answer((unsigned)json_integer_value(n), ans,
						       scope ? (int)json_integer_value(scope) : 0)));
	} else if (strcmp(op, "touch") == 0) {
		/* No reply: a peer waiting for an answer's result must not take this for it. */
		ask_touch((unsigned)json_integer_value(json_object_get(q, "n")));
	} else {
		send_json(p, json_pack("{s:b, s:s}", "ok", 0, "error", "unknown op"));
	}
	json_decref(q);
}

static void drop(struct peer *p)
{
	if (p->watch)
		ask_approver(-1);
	close(p->fd);
	free(p->out);
	*p = (struct peer){ .fd = -1 };
}

static void accept_peer(void)
{
	int fd = accept4(C.listen, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (fd < 0)
		return;
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.uid != getuid()) {
		/* Said, so that the refused know why; then closed. */
		const char no[] = "{\"ok\":false,\"error\":\"refused: not this session's user\"}\n";
		(void)!send(fd, no, sizeof(no) - 1, MSG_NOSIGNAL);
		close(fd);
		return;
	}
	for (int i = 0; i < MAX_PEERS; i++)
		if (C.peers[i].fd < 0) {
			C.peers[i].fd = fd;
			return;
		}
	close(fd);
}

static void peer_read(struct peer *p)
{
	ssize_t n = read(p->fd, p->in + p->nin, sizeof(p->in) - p->nin);
	if (n <= 0) {
		if (n == 0 || (errno != EAGAIN && errno != EINTR))
			drop(p);
		return;
	}
	p->nin += (size_t)n;
	char *nl;
	while (p->fd >= 0 && (nl = memchr(p->in, '\n', p->nin)) != NULL) {
		*nl = '\0';
		request(p, p->in);
		size_t used = (size_t)(nl - p->in) + 1;
		memmove(p->in, nl + 1, p->nin - used);
		p->nin -= used;
	}
	if (p->fd >= 0 && p->nin == sizeof(p->in))
		drop(p); /* a line longer than any request */
}

static void peer_write(struct peer *p)
{
	/* A peer gone is dropped; no SIGPIPE for ward. */
	ssize_t n = send(p->fd, p->out, p->nout, MSG_NOSIGNAL);
	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		drop(p);
		return;
	}
	if (n > 0) {
		memmove(p->out, p->out + n, p->nout - (size_t)n);
		p->nout -= (size_t)n;
	}
}

static void changed(void *arg)
{
	(void)arg;
	char c = 'a';
	(void)!write(C.wake[1], &c, 1);
}

static void *serve(void *arg)
{
	(void)arg;
	for (;;) {
		struct pollfd p[MAX_PEERS + 2];
		int idx[MAX_PEERS + 2], np = 0;

		p[np++] = (struct pollfd){ .fd = C.wake[0], .events = POLLIN };
		p[np++] = (struct pollfd){ .fd = C.listen, .events = POLLIN };
		for (int i = 0; i < MAX_PEERS; i++)
			if (C.peers[i].fd >= 0) {
				idx[np] = i;
				p[np++] = (struct pollfd){ .fd = C.peers[i].fd,
							   .events = POLLIN | (C.peers[i].nout ? POLLOUT : 0) };
			}
		if (poll(p, (nfds_t)np, -1) < 0 && errno != EINTR)
			break;
		if (p[0].revents) {
			char ev[64];
			bool quit = false, asks = false;
			ssize_t n;
			while ((n = read(C.wake[0], ev, sizeof(ev))) > 0)
				for (ssize_t i = 0; i < n; i++) {
					quit |= ev[i] == 'q';
					asks |= ev[i] == 'a';
				}
			if (quit)
				break;
			if (asks)
				for (int i = 0; i < MAX_PEERS; i++)
					if (C.peers[i].fd >= 0 && C.peers[i].watch)
						send_json(&C.peers[i], list_json());
		}
		if (p[1].revents & POLLIN)
			accept_peer();
		for (int k = 2; k < np; k++) {
			struct peer *pe = &C.peers[idx[k]];
			if (pe->fd < 0 || pe->fd != p[k].fd)
				continue;
			if (p[k].revents & (POLLIN | POLLHUP | POLLERR))
				peer_read(pe);
			if (pe->fd >= 0 && (p[k].revents & POLLOUT))
				peer_write(pe);
		}
	}
	for (int i = 0; i < MAX_PEERS; i++)
		if (C.peers[i].fd >= 0)
			drop(&C.peers[i]);
	return NULL;
}

/* dir: a directory of this user's, 0700 (made so when it is missing). */
static int private_dir(const char *dir)
{
	struct stat st;

	if (mkdir(dir, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (lstat(dir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid())
		return -EPERM;
	if ((st.st_mode & 077) && chmod(dir, 0700) < 0)
		return -errno;
	return 0;
}

int control_start(const char *dir, const char *session, char *const *argv, const char *cwd)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	int rc;

	for (int i = 0; i < MAX_PEERS; i++)
		C.peers[i].fd = -1;
	if ((rc = private_dir(dir)) < 0)
		return rc;
	if ((size_t)snprintf(a.sun_path, sizeof(a.sun_path), "%s/%s.sock", dir, session) >=
	    sizeof(a.sun_path))
		return -ENAMETOOLONG;
	snprintf(C.session, sizeof(C.session), "%s", session);
	snprintf(C.cwd, sizeof(C.cwd), "%s", cwd);
	C.argv = json_array();
	for (int i = 0; argv[i] != NULL; i++)
		json_array_append_new(C.argv, control_jstr(argv[i]));
	C.listen = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (C.listen < 0)
		return -errno;
	/* 0600 from the start: the directory is 0700 besides. */
	mode_t old = umask(0177);
	rc = bind(C.listen, (struct sockaddr *)&a, sizeof(a));
	if (rc < 0 && errno == EADDRINUSE) {
		/* A socket left by a ward that was killed: nobody listens, it goes. */
		int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (probe >= 0 && connect(probe, (struct sockaddr *)&a, sizeof(a)) < 0 &&
		    errno == ECONNREFUSED && unlink(a.sun_path) == 0)
			rc = bind(C.listen, (struct sockaddr *)&a, sizeof(a));
		else
			errno = EADDRINUSE;
		if (probe >= 0)
			close(probe);
	}
	umask(old);
	if (rc < 0 || chmod(a.sun_path, 0600) < 0 || listen(C.listen, 8) < 0 ||
	    pipe2(C.wake, O_CLOEXEC | O_NONBLOCK) < 0) {
		rc = -errno;
		if (C.path[0] == '\0')
			unlink(a.sun_path);
		close(C.listen);
		C.listen = -1;
		return rc;
	}
	snprintf(C.path, sizeof(C.path), "%s", a.sun_path);
	ask_subscribe(changed, NULL);
	sigset_t all, old_mask;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old_mask); /* ward's signals are the tracer's */
	rc = pthread_create(&C.thread, NULL, serve, NULL);
	pthread_sigmask(SIG_SETMASK, &old_mask, NULL);
	if (rc != 0) {
		control_stop();
		return -rc;
	}
	C.running = true;
	return 0;
}

void control_stop(void)
{
	if (C.running) {
		char q = 'q';
		(void)!write(C.wake[1], &q, 1);
		pthread_join(C.thread, NULL);
		C.running = false;
	}
	if (C.path[0])
		unlink(C.path);
	C.path[0] = '\0';
	if (C.listen >= 0)
		close(C.listen);
	for (int i = 0; i < 2; i++)
		if (C.wake[i] >= 0)
			close(C.wake[i]);
	C.listen = C.wake[0] = C.wake[1] = -1;
	json_decref(C.argv);
	C.argv = NULL;
}
