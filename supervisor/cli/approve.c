/*
 * cli/approve.c - ward approve: a running session's questions, seen and
 * answered from another terminal, or by a script.
 *
 *   ward approve                  the sessions; with one, its questions, interactively
 *   ward approve ID               session ID's questions, interactively (the prompt's keys)
 *   ward approve --list [--json] [ID]   the sessions and their pending questions
 *   ward approve [ID] --answer N once|session|deny [--scope K]
 *
 * Sessions are found by their control sockets in $XDG_RUNTIME_DIR/ward/
 * (control.c speaks the protocol); only this user's are reached: each
 * side checks the other's uid.
 */
#include "control.h"
#include "front.h"
#include "prompt.h"

#include <dirent.h>
#include <errno.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

int cmd_approve(int argc, char **argv);

static const char help[] =
	"usage: ward approve [ID]\n"
	"       ward approve --list [--json] [ID]\n"
	"       ward approve [ID] --answer N once|session|deny [--scope K]\n"
	"\n"
	"See and answer the questions of a running `ward run` session from another\n"
	"terminal, or from a script.  Without --list or --answer the questions are\n"
	"put here as at the session's own terminal, with the same keys (q leaves).\n"
	"ID may be left out when one session is running.\n"
	"\n"
	"  --list          the sessions, each with its pending questions (numbered N)\n"
	"  --json          the same as JSON\n"
	"  --answer N A    answer question N: once, session or deny\n"
	"  --scope K       for session: the K-th scope the question offers (1: narrowest)\n";

struct conn {
	int fd;
	char buf[1 << 20];
	size_t n;
};

static void runtime_dir(char *out, size_t len)
{
	const char *x = getenv("XDG_RUNTIME_DIR");
	if (x != NULL && x[0] == '/')
		snprintf(out, len, "%s/ward", x);
	else
		snprintf(out, len, "/run/user/%u/ward", (unsigned)getuid());
}

/* Connect to a session's socket: the fd, or -errno (-ECONNREFUSED: it is gone). */
static int dial(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	struct ucred cred;
	socklen_t len = sizeof(cred);

	if (snprintf(a.sun_path, sizeof(a.sun_path), "%s", path) >= (int)sizeof(a.sun_path))
		return -ENAMETOOLONG;
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	if (connect(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		int e = errno;
		close(fd);
		return -e;
	}
	/* The session must be this user's own ward, as it checks that we are its user. */
	if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) < 0 || cred.uid != getuid()) {
		close(fd);
		return -EPERM;
	}
	return fd;
}

static int send_req(struct conn *c, json_t *o)
{
	char *s = json_dumps(o, JSON_COMPACT);
	json_decref(o);
	if (s == NULL)
		return -ENOMEM;
	size_t n = strlen(s);
	s[n] = '\n';
	ssize_t w = send(c->fd, s, n + 1, MSG_NOSIGNAL);
	free(s);
	return w == (ssize_t)(n + 1) ? 0 : -EIO;
}

/* The next line from the session as JSON (the caller's), waiting up to ms (-1: for ever). */
static json_t *recv_msg(struct conn *c, int ms)
{
	for (;;) {
		char *nl = memchr(c->buf, '\n', c->n);
		if (nl != NULL) {
			*nl = '\0';
			json_error_t err;
			json_t *o = json_loads(c->buf, 0, &err);
			size_t used = (size_t)(nl - c->buf) + 1;
			memmove(c->buf, nl + 1, c->n - used);
			c->n -= used;
			return o;
		}
		if (c->n == sizeof(c->buf))
			return NULL;
		struct pollfd p = { .fd = c->fd, .events = POLLIN };
		if (poll(&p, 1, ms) <= 0)
			return NULL;
		ssize_t r = read(c->fd, c->buf + c->n, sizeof(c->buf) - c->n);
		if (r <= 0)
			return NULL;
		c->n += (size_t)r;
	}
}

struct session {
	char id[32], path[PATH_MAX];
	json_t *hello;
};

/* The running sessions of this user; stale sockets (their ward is gone) are removed. */
static int find_sessions(struct session *s, int max)
{
	char dir[PATH_MAX];
	int n = 0;

	runtime_dir(dir, sizeof(dir));
	DIR *d = opendir(dir);
	if (d == NULL)
		return 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL && n < max) {
		size_t l = strlen(e->d_name);
		if (l < 6 || l > 30 || strcmp(e->d_name + l - 5, ".sock") != 0)
			continue;
		struct session *t = &s[n];
		snprintf(t->path, sizeof(t->path), "%s/%s", dir, e->d_name);
		snprintf(t->id, sizeof(t->id), "%.*s", (int)(l - 5), e->d_name);
		struct conn *c = calloc(1, sizeof(*c));
		if (c == NULL)
			break;
		c->fd = dial(t->path);
		struct stat st;
		if (c->fd == -ECONNREFUSED && lstat(t->path, &st) == 0 && S_ISSOCK(st.st_mode) &&
		    st.st_uid == getuid())
			unlink(t->path); /* its ward died without removing it */
		if (c->fd >= 0 && send_req(c, json_pack("{s:s}", "op", "hello")) == 0)
			t->hello = recv_msg(c, 5000);
		if (c->fd >= 0)
			close(c->fd);
		free(c);
		if (t->hello != NULL && json_object_get(t->hello, "session") != NULL)
			n++;
		else
			json_decref(t->hello);
	}
	closedir(d);
	return n;
}

static void argv_text(json_t *hello, char *out, size_t len)
{
	size_t o = 0;
	json_t *a = json_object_get(hello, "argv");
	out[0] = '\0';
	for (size_t i = 0; i < json_array_size(a) && o + 1 < len; i++) {
		char safe[1024];
		text_safe(json_string_value(json_array_get(a, i)) ?: "", safe, sizeof(safe));
		o += (size_t)snprintf(out + o, len - o, "%s%s", i ? " " : "", safe);
	}
}

/* The session named, or the only one; NULL with a message. */
static struct session *pick(struct session *s, int n, const char *id)
{
	if (id == NULL && n == 1)
		return &s[0];
	for (int i = 0; id != NULL && i < n; i++)
		if (strcmp(s[i].id, id) == 0)
			return &s[i];
	if (n == 0)
		fprintf(stderr, "ward: no session of yours is running (looked in $XDG_RUNTIME_DIR/ward)\n");
	else if (id != NULL)
		fprintf(stderr, "ward: no running session %s\n", id);
	else
		fprintf(stderr, "ward: %d sessions are running: name one (ward approve --list)\n", n);
	return NULL;
}

static int open_conn(struct session *s, struct conn *c)
{
	c->n = 0;
	c->fd = dial(s->path);
	if (c->fd < 0)
		fprintf(stderr, "ward: cannot reach session %s: %s\n", s->id, strerror(-c->fd));
	return c->fd;
}

static int list(struct session *s, int n, const char *id, bool json)
{
	json_t *all = json_array();
	struct conn *c = calloc(1, sizeof(*c));

	if (c == NULL)
		return 1;
	for (int i = 0; i < n; i++) {
		if (id != NULL && strcmp(s[i].id, id) != 0)
			continue;
		json_t *l = NULL;
		if (open_conn(&s[i], c) >= 0 && send_req(c, json_pack("{s:s}", "op", "list")) == 0)
			l = recv_msg(c, 5000);
		if (c->fd >= 0)
			close(c->fd);
		json_t *asks = json_object_get(l, "asks");
		if (json) {
			json_array_append_new(all, json_pack("{s:s, s:O, s:O, s:O, s:O}", "session", s[i].id, "pid",
							     json_object_get(s[i].hello, "pid"), "argv",
							     json_object_get(s[i].hello, "argv"), "cwd",
							     json_object_get(s[i].hello, "cwd"), "asks",
							     asks ? asks : json_array()));
		} else {
			char cmd[2048];
			argv_text(s[i].hello, cmd, sizeof(cmd));
			printf("session %s (pid %lld): %s\n", s[i].id,
			       (long long)json_integer_value(json_object_get(s[i].hello, "pid")), cmd);
			for (size_t k = 0; k < json_array_size(asks); k++) {
				struct ask_view *v = malloc(sizeof(*v));
				char t[ASK_TEXT * 4], p[1024];
				if (v != NULL && control_ask_parse(json_array_get(asks, k), v))
					printf("  %u  %s %s  (%s, pid %d, %s)\n", v->serial, ward_op_name(v->op),
					       text_safe(v->target, t, sizeof(t)), text_safe(v->prog, p, sizeof(p)),
					       v->pid, v->rule);
				free(v);
			}
		}
		json_decref(l);
	}
	if (json) {
		char *out = json_dumps(all, JSON_INDENT(2));
		if (out != NULL)
			puts(out);
		free(out);
	}
	json_decref(all);
	free(c);
	return 0;
}

static int answer(struct session *s, unsigned n, const char *word, int scope)
{
	enum ask_answer a = ask_answer_parse(word);
	struct conn *c = calloc(1, sizeof(*c));
	int rc = 1;

	if (a != ANSWER_ONCE && a != ANSWER_SESSION && a != ANSWER_DENY) {
		fprintf(stderr, "ward: --answer takes once, session or deny, not '%s'\n", word);
		free(c);
		return 2;
	}
	if (c != NULL && open_conn(s, c) >= 0 &&
	    send_req(c, json_pack("{s:s, s:i, s:s, s:i}", "op", "answer", "n", (int)n, "answer", word,
				  "scope", scope)) == 0) {
		json_t *r = recv_msg(c, 10000);
		if (json_is_true(json_object_get(r, "ok")))
			rc = 0;
		else
			fprintf(stderr, "ward: session %s did not take the answer: %s\n", s->id,
				r ? json_string_value(json_object_get(r, "error")) ?: "?" : "no reply");
		json_decref(r);
	}
	if (c != NULL && c->fd >= 0)
		close(c->fd);
	free(c);
	return rc;
}

/* ---- interactive ---- */

static struct {
	struct conn *c;
	struct ask_view *v;
	size_t n;
	bool ended;
	struct termios saved;
	bool raw;
} I;

static void take_list(json_t *o)
{
	json_t *asks = json_object_get(o, "asks");
	size_t n = json_array_size(asks), k = 0;
	struct ask_view *v = calloc(n ? n : 1, sizeof(*v));
	if (v == NULL)
		return;
	for (size_t i = 0; i < n; i++)
		if (control_ask_parse(json_array_get(asks, i), &v[k]))
			k++;
	free(I.v);
	I.v = v;
	I.n = k;
}

static int i_list(void *arg, struct ask_view **v, size_t *n)
{
	(void)arg;
	*v = calloc(I.n ? I.n : 1, sizeof(**v));
	if (*v == NULL)
		return -ENOMEM;
	memcpy(*v, I.v, I.n * sizeof(**v));
	*n = I.n;
	return 0;
}

static int i_answer(void *arg, unsigned serial, enum ask_answer a, int scope)
{
	(void)arg;
	if (send_req(I.c, json_pack("{s:s, s:i, s:s, s:i}", "op", "answer", "n", (int)serial, "answer",
				    ask_answer_name(a), "scope", scope)) < 0)
		return -EIO;
	for (;;) {
		json_t *r = recv_msg(I.c, 10000);
		if (r == NULL) {
			I.ended = true;
			return -EIO;
		}
		if (json_object_get(r, "asks") != NULL) {
			take_list(r); /* a change meanwhile */
			json_decref(r);
			continue;
		}
		int rc = json_is_true(json_object_get(r, "ok")) ? 0 : -ESRCH;
		const char *why = json_string_value(json_object_get(r, "error"));
		if (rc < 0 && why != NULL && strstr(why, "pending") == NULL)
			rc = -EINVAL;
		json_decref(r);
		return rc;
	}
}

static void i_touch(void *arg, unsigned serial)
{
	(void)arg;
	send_req(I.c, json_pack("{s:s, s:i}", "op", "touch", "n", (int)serial));
}

static void restore(void)
{
	if (I.raw) {
		(void)!write(STDOUT_FILENO, "\033[?1049l\033[?25h", 15);
		tcsetattr(STDIN_FILENO, TCSADRAIN, &I.saved);
		I.raw = false;
	}
}

static void on_signal(int sig)
{
	restore();
	signal(sig, SIG_DFL);
	raise(sig);
}

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* The whole screen: the session, the questions waiting, the one asked, its keys at the bottom. */
static void draw(struct front *f, const struct session *s, bool bell)
{
	struct winsize ws = { .ws_row = 24, .ws_col = 80 };
	static char lines[2][PROMPT_LINE], over[40][PROMPT_LINE];
	char line[PROMPT_LINE], cmd[2048], t[ASK_TEXT * 4];
	const char *sgr[2];
	int nover;
	struct obuf o = { 0 };

	ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws);
	int cols = ws.ws_col > 1 ? ws.ws_col : 80, rows = ws.ws_row > 4 ? ws.ws_row : 24;
	front_lines(f, cols, now_ms(), lines, sgr, over, rows - 6 < 40 ? rows - 6 : 40, &nover);
	argv_text(s->hello, cmd, sizeof(cmd));
	ob_puts(&o, "\033[H\033[2J\033[1m");
	snprintf(line, sizeof(line), "ward approve \u25b8 session %s: %s   (q leaves)", s->id, cmd);
	text_fit(line, cols, t, sizeof(t));
	ob_puts(&o, t);
	ob_puts(&o, "\033[0m\r\n");
	int row = 3;
	for (size_t i = 0; i < I.n && row < rows - 3 - nover; i++, row++) {
		char target[ASK_TEXT * 4];
		snprintf(line, sizeof(line), "%s %3u  %s %s  (%s, pid %d)", i == 0 ? "\u25b8" : " ", I.v[i].serial,
			 ward_op_name(I.v[i].op), text_safe(I.v[i].target, target, sizeof(target)),
			 I.v[i].prog, I.v[i].pid);
		text_fit(line, cols, t, sizeof(t));
		ob_printf(&o, "\033[%d;1H%s", row, t);
	}
	if (I.n == 0)
		ob_printf(&o, "\033[3;1Hno question waiting");
	for (int i = 0; i < nover; i++)
		ob_printf(&o, "\033[%d;1H\033[7m%s\033[K\033[0m", rows - 2 - nover + i, over[i]);
	for (int i = 0; i < 2; i++)
		ob_printf(&o, "\033[%d;1H\033[0;%sm%s\033[K\033[0m", rows - 1 + i, sgr[i], lines[i]);
	if (bell)
		ob_puts(&o, "\a");
	(void)!write(STDOUT_FILENO, o.p, o.len);
	ob_free(&o);
}

static int interactive(struct session *s)
{
	struct front f;
	struct keyin keys = { 0 };
	static struct conn c;
	int64_t esc_since = 0;

	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "ward: answering interactively needs a terminal: see --list and --answer\n");
		return 2;
	}
	I.c = &c;
	if (open_conn(s, &c) < 0)
		return 1;
	if (send_req(&c, json_pack("{s:s}", "op", "watch")) < 0)
		return 1;
	json_t *first = recv_msg(&c, 10000);
	if (first == NULL || json_object_get(first, "asks") == NULL) {
		fprintf(stderr, "ward: session %s did not answer: %s\n", s->id,
			first ? json_string_value(json_object_get(first, "error")) ?: "?" : "no reply");
		json_decref(first);
		return 1;
	}
	take_list(first);
	json_decref(first);
	tcgetattr(STDIN_FILENO, &I.saved);
	struct termios raw = I.saved;
	cfmakeraw(&raw);
	tcsetattr(STDIN_FILENO, TCSADRAIN, &raw);
	I.raw = true;
	atexit(restore);
	signal(SIGTERM, on_signal);
	signal(SIGHUP, on_signal);
	(void)!write(STDOUT_FILENO, "\033[?1049h\033[?25l", 15);
	struct front_ops ops = { i_list, i_answer, i_touch, NULL, NULL };
	front_init(&f, &ops, s->id, getenv("HOME"));
	bool fresh = front_refresh(&f);
	draw(&f, s, fresh);
	front_shown_at(&f, now_ms());
	int rc = 0;
	while (!I.ended) {
		struct pollfd p[2] = { { .fd = STDIN_FILENO, .events = POLLIN }, { .fd = c.fd, .events = POLLIN } };
		int timeout = front_arming(&f, now_ms());
		if (timeout == 0)
			timeout = keyin_pending(&keys) ? PROMPT_ESC_MS : -1;
		bool was_live = front_arming(&f, now_ms()) == 0;
		if (poll(p, 2, c.n > 0 ? 0 : timeout) < 0)
			continue;
		bool redraw = false;
		if (p[1].revents || c.n > 0) {
			json_t *m = recv_msg(&c, 0);
			if (m == NULL && (p[1].revents & (POLLHUP | POLLERR | POLLIN))) {
				I.ended = true;
				break;
			}
			if (m != NULL && json_object_get(m, "asks") != NULL) {
				take_list(m);
				if (front_refresh(&f)) {
					tcflush(STDIN_FILENO, TCIFLUSH);
					memset(&keys, 0, sizeof(keys));
					draw(&f, s, true);
					front_shown_at(&f, now_ms());
				} else {
					redraw = true;
				}
			}
			json_decref(m);
		}
		if (p[0].revents & POLLIN) {
			char buf[4096];
			struct obuf drop = { 0 };
			ssize_t n = read(STDIN_FILENO, buf, sizeof(buf));
			if (n <= 0)
				break;
			int key = keyin_read(&keys, buf, (size_t)n, &drop);
			ob_free(&drop);
			if (key == KEY_QUIT || (key == KEY_INTR && !f.shown))
				break;
			redraw |= front_key(&f, key, now_ms());
		}
		if (keyin_pending(&keys)) {
			if (esc_since == 0)
				esc_since = now_ms();
			if (now_ms() - esc_since >= PROMPT_ESC_MS) {
				struct obuf drop = { 0 };
				redraw |= front_key(&f, keyin_timeout(&keys, &drop), now_ms());
				ob_free(&drop);
			}
		} else {
			esc_since = 0;
		}
		if (redraw || (!was_live && front_arming(&f, now_ms()) == 0))
			draw(&f, s, false);
	}
	restore();
	if (I.ended)
		printf("ward: session %s has ended\n", s->id);
	front_free(&f);
	free(I.v);
	close(c.fd);
	return rc;
}

int cmd_approve(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "list", no_argument, 0, 'l' },      { "json", no_argument, 0, 'j' },
		{ "answer", required_argument, 0, 'a' }, { "scope", required_argument, 0, 's' },
		{ "help", no_argument, 0, 'h' },      { 0, 0, 0, 0 },
	};
	bool do_list = false, json = false;
	const char *ans = NULL;
	int scope = 1, opt;
	static struct session s[64];

	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'l':
			do_list = true;
			break;
		case 'j':
			json = true;
			break;
		case 'a':
			ans = optarg;
			break;
		case 's':
			scope = atoi(optarg);
			break;
		case 'h':
			fputs(help, stdout);
			return 0;
		default:
			fputs(help, stderr);
			return 2;
		}
	}
	/* ID, then (for --answer) N and the answer, in that order; ID may be left out. */
	const char *rest[3];
	int nrest = 0;
	for (int i = optind; i < argc && nrest < 3; i++)
		rest[nrest++] = argv[i];
	if (optind + nrest < argc) {
		fputs(help, stderr);
		return 2;
	}
	int n = find_sessions(s, 64);
	if (do_list)
		return list(s, n, nrest > 0 ? rest[0] : NULL, json);
	if (ans != NULL) {
		/* --answer N WORD: N was taken by getopt; WORD is the first operand, or ID then WORD. */
		const char *id = nrest == 2 ? rest[0] : NULL, *word = nrest >= 1 ? rest[nrest - 1] : NULL;
		char *end;
		unsigned long num = strtoul(ans, &end, 10);
		if (word == NULL || *end != '\0' || num == 0 || scope < 1) {
			fputs(help, stderr);
			return 2;
		}
		struct session *one = pick(s, n, id);
		return one ? answer(one, (unsigned)num, word, scope - 1) : 1;
	}
	if (nrest > 1) {
		fputs(help, stderr);
		return 2;
	}
	if (nrest == 0 && n > 1) {
		/* Several: the list, to pick from. */
		for (int i = 0; i < n; i++) {
			char cmd[2048];
			argv_text(s[i].hello, cmd, sizeof(cmd));
			printf("%s  pid %-7lld %3lld waiting  %s\n", s[i].id,
			       (long long)json_integer_value(json_object_get(s[i].hello, "pid")),
			       (long long)json_integer_value(json_object_get(s[i].hello, "pending")), cmd);
		}
		return 0;
	}
	struct session *one = pick(s, n, nrest ? rest[0] : NULL);
	return one ? interactive(one) : 1;
}
