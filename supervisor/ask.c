/*
 * ask.c - the questions put to the person: the queue, the answers, the
 * grants they leave, and the rules saved for always.
 *
 * A worker whose call the policy asks about calls ask_call() and waits
 * there (the caller says notify_blocking_begin() first, so that the pool
 * keeps free workers).  Questions alike (the same op on the same target,
 * for an exec the same argv too) are one question: one answer releases
 * every caller waiting on it.  Others queue.  The front ends (the
 * terminal, the control socket) are told of each change, read the queue
 * with ask_list() and answer with ask_answer(); the first answer wins.
 *
 * A question is answered, besides, by its timeout (a deny this once), and
 * withdrawn when its last caller goes away (killed, or interrupted by a
 * signal, which restarts the call as a new question): it stays a second
 * first, so that a call restarted at once finds it still shown rather
 * than a new one with its half second of ignored keys again.
 *
 * Session answers, and the ones saved for always, are grants: rules in a
 * policy of their own, consulted after the session's policy (a deny! of
 * that still wins), under a lock of their own.
 */
#include "ask.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define TICK_MS 200	    /* how often a waiting caller looks whether it is still waited for */
#define ORPHAN_MS 1000	    /* a question without callers is shown this long more */
#define FLOOD_BURST 30	    /* new questions at once... */
#define FLOOD_RATE 3	    /* ...and a second after that, before a flood is declared */
#define PENDING_MAX 64	    /* questions queued at most */
#define NOTICE_SECONDS 30
#define MAX_SUBSCRIBERS 4

struct ask {
	struct ask *next;
	struct ask_view v;
	/* A network question's target, kept to ask the grants about it again. */
	bool has_net;
	struct ward_net_target net;
	char net_host[256], net_path[ASK_TEXT];
	char key[ASK_TEXT + 128];
	enum ask_answer answer;
	int scope;
	char saved[ASK_RULE], file[4096];
	int waiters;
	int64_t asked_ms, deadline_ms, orphaned_ms, answered_ms;
};

static struct ask_config cfg;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t cond;
static struct ask *queue;
static unsigned next_serial = 1;
static int npending;
static bool terminal, shut;
static int approvers;
static struct {
	void (*fn)(void *);
	void *arg;
} subs[MAX_SUBSCRIBERS];
static int nsubs;
static double tokens = FLOOD_BURST;
static int64_t tokens_ms;
static unsigned flooded;
static int64_t flooded_ms;
static json_t *answers; /* the session's, for session-end */
static pthread_t sweeper_thread;
static bool sweeper_running;

/* The grants: rules made by the person's answers, under their own lock. */
static pthread_rwlock_t grants_lock = PTHREAD_RWLOCK_INITIALIZER;
static struct ward_policy *grants;
static bool have_grants;

static int64_t now_ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

static const char *const answer_names[] = {
	[ANSWER_NONE] = "none",		  [ANSWER_ONCE] = "once",
	[ANSWER_SESSION] = "session",	  [ANSWER_ALWAYS] = "always",
	[ANSWER_DENY] = "deny",		  [ANSWER_DENY_ALWAYS] = "deny-always",
	[ANSWER_TIMEOUT] = "timeout",	  [ANSWER_WITHDRAWN] = "withdrawn",
	[ANSWER_UNDECIDED] = "undecided",
};

const char *ask_answer_name(enum ask_answer a)
{
	return (unsigned)a < sizeof(answer_names) / sizeof(answer_names[0]) ? answer_names[a] : "?";
}

enum ask_answer ask_answer_parse(const char *s)
{
	for (int a = ANSWER_ONCE; a <= ANSWER_DENY_ALWAYS; a++)
		if (strcmp(s, answer_names[a]) == 0)
			return (enum ask_answer)a;
	return ANSWER_NONE;
}

static bool allows(enum ask_answer a)
{
	return a == ANSWER_ONCE || a == ANSWER_SESSION || a == ANSWER_ALWAYS;
}

static bool makes_rule(enum ask_answer a)
{
	return a == ANSWER_SESSION || a == ANSWER_ALWAYS || a == ANSWER_DENY_ALWAYS;
}

static void record(struct ask *a, const char *by);
static void *sweeper(void *arg);

/* Tell the front ends (lock held). */
static void changed(void)
{
	for (int i = 0; i < nsubs; i++)
		subs[i].fn(subs[i].arg);
}

int ask_init(const struct ask_config *c)
{
	pthread_condattr_t ca;

	/* Again (the tests do): what a session before left is dropped. */
	if (sweeper_running) {
		pthread_mutex_lock(&lock);
		shut = true;
		pthread_cond_broadcast(&cond);
		pthread_mutex_unlock(&lock);
		pthread_join(sweeper_thread, NULL);
		sweeper_running = false;
	}
	pthread_mutex_lock(&lock);
	if (queue != NULL) {
		pthread_mutex_unlock(&lock);
		return -EBUSY;
	}
	if (grants != NULL)
		ward_policy_free(grants);
	json_decref(answers);
	have_grants = false;
	nsubs = 0;
	terminal = false;
	approvers = 0;
	flooded = 0;
	tokens = FLOOD_BURST;
	pthread_mutex_unlock(&lock);
	cfg = *c;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&cond, &ca);
	pthread_condattr_destroy(&ca);
	grants = ward_policy_new(c->vars);
	answers = json_array();
	tokens_ms = now_ms();
	shut = false;
	if (grants == NULL || answers == NULL)
		return -ENOMEM;
	if (pthread_create(&sweeper_thread, NULL, sweeper, NULL) != 0)
		return -EAGAIN;
	sweeper_running = true;
	return 0;
}

void ask_shutdown(void)
{
	pthread_mutex_lock(&lock);
	shut = true;
	for (struct ask *a = queue; a != NULL; a = a->next)
		if (a->answer == ANSWER_NONE) {
			a->answer = ANSWER_WITHDRAWN;
			record(a, "prompt");
		}
	pthread_cond_broadcast(&cond);
	changed();
	pthread_mutex_unlock(&lock);
	if (sweeper_running) {
		pthread_join(sweeper_thread, NULL);
		sweeper_running = false;
	}
}

void ask_set_terminal(bool present)
{
	pthread_mutex_lock(&lock);
	terminal = present;
	pthread_mutex_unlock(&lock);
}

void ask_approver(int delta)
{
	pthread_mutex_lock(&lock);
	approvers += delta;
	pthread_mutex_unlock(&lock);
}

int ask_subscribe(void (*fn)(void *arg), void *arg)
{
	pthread_mutex_lock(&lock);
	int rc = nsubs < MAX_SUBSCRIBERS ? 0 : -ENOSPC;
	if (rc == 0) {
		subs[nsubs].fn = fn;
		subs[nsubs++].arg = arg;
	}
	pthread_mutex_unlock(&lock);
	return rc;
}

/* ---- the grants ---- */

static bool grant_of(const struct ward_verdict *v)
{
	/* The grants' policy holds ward's own deny! rules too: those are the session policy's. */
	return !v->undecided && v->rule != NULL && ward_rule_layer(v->rule) == WARD_LAYER_RULE;
}

/* The grants' verdict on a path or (t not NULL) a network target. */
static bool grant_decide(enum ward_op op, const char *path, const struct ward_net_target *t,
			 struct ward_verdict *v)
{
	bool hit = false;

	if (!__atomic_load_n(&have_grants, __ATOMIC_ACQUIRE))
		return false;
	pthread_rwlock_rdlock(&grants_lock);
	if (grants != NULL && (t != NULL ? ward_decide_net(grants, op, t, v)
					 : ward_decide_path(grants, op, path, v)) == 0)
		hit = grant_of(v);
	pthread_rwlock_unlock(&grants_lock);
	return hit;
}

bool ask_grant_path(enum ward_op op, const char *path, struct ward_verdict *v)
{
	return grant_decide(op, path, NULL, v);
}

bool ask_grant_net(enum ward_op op, const struct ward_net_target *t, struct ward_verdict *v)
{
	return grant_decide(op, NULL, t, v);
}

static int grant_add(const char *rule, unsigned serial)
{
	char origin[64];
	struct ward_error err;
	int rc;

	snprintf(origin, sizeof(origin), "answer#%u", serial);
	pthread_rwlock_wrlock(&grants_lock);
	rc = grants == NULL ? -EINVAL
			    : ward_policy_add_text(grants, WARD_LAYER_RULE, origin, rule, strlen(rule), &err);
	pthread_rwlock_unlock(&grants_lock);
	if (rc == 0)
		__atomic_store_n(&have_grants, true, __ATOMIC_RELEASE);
	return rc;
}

/* Would the grants decide this question, and allow it? */
static bool grant_covers(const struct ask *a, bool *allow)
{
	struct ward_verdict verdict;
	bool hit = a->has_net ? ask_grant_net(a->v.op, &a->net, &verdict)
			      : ask_grant_path(a->v.op, a->v.target, &verdict);
	if (hit)
		*allow = verdict.action == WARD_ALLOW;
	return hit;
}

/* ---- what a question shows ---- */

static void read_file(const char *path, char *buf, size_t len, size_t *got)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, len - 1);
	if (fd >= 0)
		close(fd);
	*got = n > 0 ? (size_t)n : 0;
	buf[*got] = '\0';
}

/* argv (NUL after each) with spaces between, into out. */
static void join_argv(const char *argv, size_t n, char *out, size_t len)
{
	size_t o = 0;
	for (size_t i = 0; i < n && o + 1 < len; i++)
		out[o++] = argv[i] == '\0' ? ' ' : argv[i];
	while (o > 0 && out[o - 1] == ' ')
		o--;
	out[o] = '\0';
}

#define ARG_SHORT 32 /* bytes of one argument on the prompt's line */
#define ARGS_SHORT 16 /* arguments on the prompt's line */

/*
 * One argument as a shell would read it back: bare when it is made of
 * harmless characters, else in single quotes (a quote inside as '"'"',
 * no backslash: the escaping for the terminal doubles those).  At most
 * max bytes of it (0: all), cut on a character's start with an ellipsis.
 * Control characters are left for the front end to escape.
 */
static size_t quote_arg(const char *a, size_t n, size_t max, char *out, size_t len)
{
	bool bare = n > 0;
	size_t o = 0;

	for (size_t i = 0; i < n && bare; i++)
		bare = (unsigned char)a[i] >= 0x80 || strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
							      "0123456789_@%+=:,./-", a[i]) != NULL;
	bool cut = max > 0 && n > max;
	if (cut) {
		n = max;
		while (n > 0 && ((unsigned char)a[n] & 0xc0) == 0x80)
			n--; /* not inside a UTF-8 sequence */
	}
#define PUT(s, l)                                   \
	do {                                        \
		size_t l_ = (l);                    \
		if (o + l_ < len) {                 \
			memcpy(out + o, (s), l_);   \
			o += l_;                    \
		}                                   \
	} while (0)
	if (!bare)
		PUT("'", 1);
	for (size_t i = 0; i < n; i++) {
		if (a[i] == '\'')
			PUT("'\"'\"'", 5);
		else
			PUT(a + i, 1);
	}
	if (cut)
		PUT("\u2026", strlen("\u2026"));
	if (!bare)
		PUT("'", 1);
#undef PUT
	out[o < len ? o : len - 1] = '\0';
	return o;
}

/*
 * An exec's argv (n bytes, NUL after each, of total) for the view: whole
 * into argv (what did not come as "[N more bytes]"), and argv[1..] each
 * shortened, the first ARGS_SHORT of them, into args.
 */
static void exec_argv_text(const char *argv, size_t n, size_t total, struct ask_view *v)
{
	static __thread char one[5 * ASK_TEXT + 8]; /* one argument quoted: a ' becomes five bytes */
	size_t o = 0, s = 0, shown = n;
	int i = 0;

	v->argv[0] = v->args[0] = '\0';
	for (size_t at = 0; at < n; i++) {
		const char *end = memchr(argv + at, '\0', n - at);
		size_t l = end ? (size_t)(end - (argv + at)) : n - at;
		size_t q = quote_arg(argv + at, l, 0, one, sizeof(one));
		/* Whole arguments only, and room kept to say how much is not shown. */
		if (shown == n && o + 1 + q + 40 < sizeof(v->argv))
			o += (size_t)snprintf(v->argv + o, sizeof(v->argv) - o, "%s%s", o ? " " : "", one);
		else if (shown == n)
			shown = at;
		if (i >= 1 && i <= ARGS_SHORT) {
			quote_arg(argv + at, l, ARG_SHORT, one, sizeof(one));
			s += (size_t)snprintf(v->args + s, sizeof(v->args) - s, "%s%s", s ? " " : "", one);
		} else if (i == ARGS_SHORT + 1) {
			s += (size_t)snprintf(v->args + s, sizeof(v->args) - s, " \u2026");
		}
		if (s >= sizeof(v->args))
			s = sizeof(v->args) - 1;
		at += l + 1;
	}
	if (total > shown)
		snprintf(v->argv + o, sizeof(v->argv) - o, " [%zu more bytes]", total - shown);
}

/* A process's short name for a chain: its program's name and first argument. */
static void short_name(const char *cmd, size_t n, char *out, size_t len)
{
	const char *base = strrchr(cmd, '/');
	base = base ? base + 1 : cmd;
	size_t first = strlen(cmd);
	if (first + 1 < n && cmd[first + 1] != '-')
		snprintf(out, len, "%.24s %.24s", base, cmd + first + 1);
	else
		snprintf(out, len, "%.24s", base);
}

static pid_t parent_of(pid_t pid)
{
	char path[64], buf[512];
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", pid);
	read_file(path, buf, sizeof(buf), &n);
	char *p = strrchr(buf, ')');
	int ppid;
	if (p == NULL || sscanf(p + 1, " %*c %d", &ppid) != 1)
		return 0;
	return ppid;
}

/* The process and its parents up to the session's first, from /proc. */
static void describe_procs(struct ask_view *v, pid_t pid)
{
	char path[64], cmd[ASK_TEXT], line[ASK_TEXT], shortn[64];
	size_t n, o = 0, c = 0;

	v->procs[0] = v->chain[0] = '\0';
	for (int depth = 0; pid > 1 && pid != cfg.ward && depth < 8; depth++) {
		snprintf(path, sizeof(path), "/proc/%d/cmdline", pid);
		read_file(path, cmd, sizeof(cmd), &n);
		join_argv(cmd, n, line, sizeof(line));
		o += (size_t)snprintf(v->procs + o, sizeof(v->procs) - o, "%s%d %s", o ? "\n" : "", pid,
				      line);
		if (o >= sizeof(v->procs))
			o = sizeof(v->procs) - 1;
		if (n > 0) {
			short_name(cmd, n, shortn, sizeof(shortn));
			/* The process itself only when its name says more than its program's. */
			if (depth > 0 || strcmp(shortn, v->prog) != 0) {
				c += (size_t)snprintf(v->chain + c, sizeof(v->chain) - c, "%s%s",
						      c ? " \u2190 " : "", shortn);
				if (c >= sizeof(v->chain))
					c = sizeof(v->chain) - 1;
			}
		}
		pid = parent_of(pid);
		if (cfg.in_session == NULL || !cfg.in_session(pid))
			break; /* nothing outside the session is shown */
	}
}

/*
 * The policy word for a rung (a path in the home directory as ~/..., as
 * people write them); false when no rule can name it.
 */
static bool rung(struct ask_view *v, const char *target, const char *suffix, const char *name)
{
	char word[ASK_RULE];
	size_t h = strlen(cfg.vars->home);
	bool home = h > 1 && strncmp(target, cfg.vars->home, h) == 0 && target[h] == '/';

	if (v->nrungs >= ASK_RUNGS || ward_rule_word(word + home, sizeof(word) - 8, home ? target + h : target) < 0)
		return false;
	if (home) {
		word[0] = '"';
		word[1] = '~';
	}
	if (suffix != NULL) {
		/* The quoted literal, then the glob inside the quotes. */
		size_t l = strlen(word);
		snprintf(word + l - 1, sizeof(word) - l + 1, "%s\"", suffix);
	}
	snprintf(v->rung[v->nrungs], sizeof(v->rung[0]), "%s", word);
	snprintf(v->rung_name[v->nrungs], sizeof(v->rung_name[0]), "%s", name);
	v->nrungs++;
	return true;
}

/*
 * The scope ladder, narrowest first: a file, its directory's files, the
 * directory and below, the same within any project; a host and port, the
 * host, its domain; a program, with any arguments.
 */
static void ladder(struct ask_view *v, const struct ward_net_target *net)
{
	char dir[ASK_TEXT], buf[ASK_TEXT + 16];

	v->nrungs = 0;
	if (net != NULL && net->kind == WARD_NET_INET) {
		/* Host names and addresses need no quoting (and [v6] must not be escaped). */
		const char *colon = strrchr(v->target, ':');
		if (colon == NULL || strspn(v->target, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
							"0123456789.-_:[]") != strlen(v->target))
			return;
		int hl = (int)(colon - v->target);
		snprintf(v->rung[0], sizeof(v->rung[0]), "%s", v->target);
		snprintf(v->rung_name[0], sizeof(v->rung_name[0]), "this host and port");
		snprintf(v->rung[1], sizeof(v->rung[1]), "%.*s:*", hl, v->target);
		snprintf(v->rung_name[1], sizeof(v->rung_name[1]), "this host, any port");
		v->nrungs = 2;
		const char *dot = net->host ? memchr(v->target, '.', (size_t)hl) : NULL;
		if (dot != NULL && memchr(dot + 1, '.', (size_t)(colon - dot - 1)) != NULL) {
			snprintf(v->rung[2], sizeof(v->rung[2]), "*%s", dot);
			snprintf(v->rung_name[2], sizeof(v->rung_name[2]), "its domain, this port");
			v->nrungs = 3;
		}
		return;
	}
	if (net != NULL && net->kind == WARD_NET_UNIX) {
		snprintf(dir, sizeof(dir), "%s", v->target + 5);
		char *slash = strrchr(dir, '/');
		if (!rung(v, v->target, NULL, "this socket") || slash == NULL)
			return;
		*slash = '\0';
		snprintf(buf, sizeof(buf), "unix:%s", dir[0] ? dir : "");
		if (rung(v, buf, "/*", "the sockets beside it"))
			rung(v, buf, "/**", "the directory and below");
		return;
	}
	if (net != NULL) {
		rung(v, v->target, NULL, "this one");
		return;
	}
	if (v->kind == 'x') {
		rung(v, v->target, NULL, "this program, any arguments");
		return;
	}
	/* A path. */
	if (!rung(v, v->target, NULL, "this file"))
		return;
	snprintf(dir, sizeof(dir), "%s", v->target);
	char *slash = strrchr(dir, '/');
	if (slash == NULL)
		return;
	if (slash == dir)
		slash[1] = '\0';
	else
		*slash = '\0';
	const char *d = strcmp(dir, "/") == 0 ? "" : dir;
	if (!rung(v, d, "/*", "the files beside it") || !rung(v, d, "/**", "the directory and below"))
		return;
	/* The same place in whichever project a later session has. */
	const char *proj = cfg.vars->project;
	size_t pl = strlen(proj);
	if (strncmp(dir, proj, pl) == 0 && (dir[pl] == '/' || dir[pl] == '\0') && v->nrungs < ASK_RUNGS) {
		char word[ASK_RULE];
		if (ward_rule_word(word, sizeof(word) - 16, dir[pl] ? dir + pl + 1 : "") == 0) {
			word[strlen(word) - 1] = '\0';
			snprintf(v->rung[v->nrungs], sizeof(v->rung[0]), "\"$PROJECT%s%s/**\"", dir[pl] ? "/" : "",
				 word + 1);
			snprintf(v->rung_name[v->nrungs], sizeof(v->rung_name[0]), "in any project");
			v->nrungs++;
		}
	}
}

static void net_target_text(const struct ward_net_target *t, char *out, size_t len, char *extra,
			    size_t elen)
{
	extra[0] = '\0';
	if (t->kind == WARD_NET_UNIX)
		snprintf(out, len, "unix:%s", t->path ? t->path : "");
	else if (t->kind == WARD_NET_ABSTRACT)
		snprintf(out, len, "unix-abstract:%s", t->path ? t->path : "");
	else if (t->kind == WARD_NET_SOCKET)
		snprintf(out, len, "socket:%s", t->path ? t->path : "");
	else {
		char addr[64];
		bool v4 = memcmp(t->addr, "\0\0\0\0\0\0\0\0\0\0\377\377", 12) == 0;
		if (v4)
			snprintf(addr, sizeof(addr), "%u.%u.%u.%u", t->addr[12], t->addr[13], t->addr[14],
				 t->addr[15]);
		else
			inet_ntop(AF_INET6, t->addr, addr, sizeof(addr));
		if (t->host != NULL && t->host[0]) {
			snprintf(out, len, "%s:%u", t->host, t->port);
			snprintf(extra, elen, "%s", addr);
		} else {
			snprintf(out, len, v4 ? "%s:%u" : "[%s]:%u", addr, t->port);
		}
	}
}

/* Fill the view of a new question from the call and /proc. */
static void describe(struct ask_view *v, const struct ask_call *c)
{
	char path[64], buf[ASK_TEXT];
	size_t n;

	memset(v, 0, sizeof(*v));
	v->op = c->op;
	v->pid = c->pid;
	snprintf(v->exe, sizeof(v->exe), "%s", c->exe ? c->exe : "");
	const char *base = strrchr(v->exe, '/');
	snprintf(v->prog, sizeof(v->prog), "%s", base ? base + 1 : v->exe);
	snprintf(v->rule, sizeof(v->rule), "%s", c->rule ? c->rule : "undecided");
	snprintf(v->via, sizeof(v->via), "%s", c->via ? c->via : "");
	snprintf(v->stack, sizeof(v->stack), "%s", c->stack ? c->stack : "");
	if (c->net != NULL) {
		v->kind = 'n';
		net_target_text(c->net, v->target, sizeof(v->target), v->extra, sizeof(v->extra));
	} else {
		v->kind = c->op == WARD_OP_EXEC ? 'x' : 'p';
		snprintf(v->target, sizeof(v->target), "%s", c->path ? c->path : "");
	}
	if (c->argv != NULL) {
		exec_argv_text(c->argv, c->argv_len, c->argv_total > c->argv_len ? c->argv_total : c->argv_len, v);
	} else {
		snprintf(path, sizeof(path), "/proc/%d/cmdline", c->pid);
		read_file(path, buf, sizeof(buf), &n);
		join_argv(buf, n, v->argv, sizeof(v->argv));
	}
	snprintf(path, sizeof(path), "/proc/%d/cwd", c->pid);
	ssize_t l = readlink(path, v->cwd, sizeof(v->cwd) - 1);
	v->cwd[l > 0 ? l : 0] = '\0';
	describe_procs(v, c->pid);
	ladder(v, c->net);
}

/* What makes two calls the same question. */
static void ask_key(const struct ask_call *c, char *key, size_t len)
{
	char t[ASK_TEXT], extra[256], id[65] = "";
	uint64_t h = 1469598103934665603ULL; /* FNV-1a of an exec's argv */

	if (c->net != NULL)
		net_target_text(c->net, t, sizeof(t), extra, sizeof(extra));
	else
		snprintf(t, sizeof(t), "%s", c->path ? c->path : "");
	for (size_t i = 0; c->argv != NULL && i < c->argv_len; i++)
		h = (h ^ (unsigned char)c->argv[i]) * 1099511628211ULL;
	/*
	 * An exec's argv is named by its MAC when there is one (all of it,
	 * keyed by ward: the agent can make no two argvs that share it), so
	 * that one answer never releases an exec it did not show.
	 */
	for (size_t i = 0; c->argv != NULL && c->argv_id != NULL && i < 32; i++)
		snprintf(id + 2 * i, 3, "%02x", c->argv_id[i]);
	/* A host's address too: one answer releases only the address the question showed. */
	snprintf(key, len, "%x %llx%s %s %s", (unsigned)c->op, c->argv ? (unsigned long long)h : 0ULL, id, t,
		 c->net != NULL ? extra : "");
}

/* ---- the queue ---- */

static void record(struct ask *a, const char *by)
{
	json_t *o = json_pack("{s:i, s:s, s:s, s:s, s:s, s:i}", "n", (int)a->v.serial, "op",
			      ward_op_name(a->v.op), "target", a->v.target, "answer",
			      ask_answer_name(a->answer), "by", by, "calls", a->waiters);
	if (o == NULL) {
		/* A target that is not UTF-8: said in escapes. */
		char esc[ASK_TEXT * 4];
		size_t e = 0;
		for (const unsigned char *p = (const unsigned char *)a->v.target; *p && e + 5 < sizeof(esc); p++)
			e += (size_t)(*p < 0x80 ? snprintf(esc + e, sizeof(esc) - e, "%c", *p)
						: snprintf(esc + e, sizeof(esc) - e, "\\x%02x", *p));
		o = json_pack("{s:i, s:s, s:s, s:s, s:s, s:i}", "n", (int)a->v.serial, "op",
			      ward_op_name(a->v.op), "target", esc, "answer", ask_answer_name(a->answer),
			      "by", by, "calls", a->waiters);
	}
	if (o != NULL && a->saved[0])
		json_object_set_new(o, "rule", json_string(a->saved));
	if (o != NULL && a->file[0])
		json_object_set_new(o, "file", json_string(a->file));
	if (o != NULL && answers != NULL)
		json_array_append_new(answers, o);
	else
		json_decref(o);
}

static void unlink_ask(struct ask *a)
{
	for (struct ask **p = &queue; *p != NULL; p = &(*p)->next)
		if (*p == a) {
			*p = a->next;
			break;
		}
	npending--;
	free(a);
}

/* Questions whose callers all left a while ago: withdrawn (lock held). */
static void sweep(int64_t now)
{
	for (struct ask *a = queue, *next; a != NULL; a = next) {
		next = a->next;
		if (a->waiters == 0 && a->answer == ANSWER_NONE && a->orphaned_ms &&
		    now - a->orphaned_ms >= ORPHAN_MS) {
			a->answer = ANSWER_WITHDRAWN;
			record(a, "prompt");
			unlink_ask(a);
			changed();
		} else if (a->waiters == 0 && a->answer != ANSWER_NONE && now - a->answered_ms >= ORPHAN_MS) {
			unlink_ask(a); /* answered while orphaned, and no call came back for it */
		}
	}
}

/*
 * Withdraws the questions whose callers all left, once their grace is
 * over: their callers cannot wait for that (a signal is on its way to
 * them), and nothing else may happen meanwhile to look.
 */
static void *sweeper(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&lock);
	while (!shut) {
		int64_t next = 0;
		for (struct ask *a = queue; a != NULL; a = a->next) {
			int64_t at = a->answer == ANSWER_NONE ? a->orphaned_ms : a->answered_ms;
			if (a->waiters == 0 && at && (next == 0 || at + ORPHAN_MS < next))
				next = at + ORPHAN_MS;
		}
		if (next == 0) {
			pthread_cond_wait(&cond, &lock);
		} else {
			struct timespec ts = { next / 1000, (long)(next % 1000) * 1000000 };
			pthread_cond_timedwait(&cond, &lock, &ts);
		}
		sweep(now_ms());
	}
	pthread_mutex_unlock(&lock);
	return NULL;
}

/* Too many new questions, too fast? (lock held) */
static bool flood(int64_t now)
{
	tokens += (double)(now - tokens_ms) * FLOOD_RATE / 1000.0;
	if (tokens > FLOOD_BURST)
		tokens = FLOOD_BURST;
	tokens_ms = now;
	if (tokens < 1 || npending >= PENDING_MAX) {
		flooded++;
		flooded_ms = now;
		return true;
	}
	tokens -= 1;
	return false;
}

static void result_of(const struct ask *a, struct ask_result *r)
{
	r->serial = a->v.serial;
	r->answer = a->answer;
	r->by = a->answer == ANSWER_TIMEOUT ? "timeout" : "prompt";
	r->rc = allows(a->answer) ? 0 : -EACCES;
	snprintf(r->saved, sizeof(r->saved), "%s", a->saved);
	snprintf(r->file, sizeof(r->file), "%s", a->file);
}

static void undecided(struct ask_result *r)
{
	r->answer = ANSWER_UNDECIDED;
	r->by = "undecided";
	r->rc = cfg.undecided_allows ? 0 : -EACCES;
}

/*
 * The question a call is: one pending, or one answered by the person
 * while it had no caller (the call interrupted, and now restarted).
 */
static struct ask *find(const char *key)
{
	int64_t now = now_ms();

	for (struct ask *a = queue; a != NULL; a = a->next)
		if (strcmp(a->key, key) == 0 &&
		    (a->answer == ANSWER_NONE ||
		     (a->waiters == 0 && a->answer >= ANSWER_ONCE && a->answer <= ANSWER_DENY_ALWAYS &&
		      now - a->answered_ms < ORPHAN_MS)))
			return a;
	return NULL;
}

int ask_call(const struct ask_call *c, struct ask_result *r)
{
	struct ask *a, *fresh = NULL;
	char key[sizeof(a->key)];

	memset(r, 0, sizeof(*r));
	ask_key(c, key, sizeof(key));
	pthread_mutex_lock(&lock);
	for (int round = 0;; round++) {
		a = shut ? NULL : find(key);
		if (a != NULL || shut || round == 1)
			break;
		/* A new question: described outside the lock (it reads /proc), then looked for again. */
		pthread_mutex_unlock(&lock);
		fresh = calloc(1, sizeof(*fresh));
		if (fresh != NULL)
			describe(&fresh->v, c);
		pthread_mutex_lock(&lock);
	}
	if (a != NULL) {
		free(fresh);
		fresh = NULL;
	} else {
		int64_t now = now_ms();
		if (shut || fresh == NULL || (!terminal && approvers == 0 && !cfg.wait_for_approver) ||
		    flood(now)) {
			if (fresh != NULL && !shut && (terminal || approvers > 0 || cfg.wait_for_approver))
				changed(); /* the flood notice */
			pthread_mutex_unlock(&lock);
			free(fresh);
			undecided(r);
			return r->rc;
		}
		a = fresh;
		memcpy(a->key, key, sizeof(key));
		if (c->net != NULL) {
			a->has_net = true;
			a->net = *c->net;
			snprintf(a->net_host, sizeof(a->net_host), "%s", c->net->host ? c->net->host : "");
			snprintf(a->net_path, sizeof(a->net_path), "%s", c->net->path ? c->net->path : "");
			a->net.host = c->net->host ? a->net_host : NULL;
			a->net.path = c->net->path ? a->net_path : NULL;
		}
		a->v.serial = next_serial++;
		a->asked_ms = now;
		a->deadline_ms = cfg.timeout ? now + (int64_t)cfg.timeout * 1000 : 0;
		a->next = NULL;
		struct ask **tail = &queue;
		while (*tail != NULL)
			tail = &(*tail)->next;
		*tail = a;
		npending++;
		changed();
	}
	a->waiters++;
	a->orphaned_ms = 0;
	for (;;) {
		int64_t now = now_ms();
		sweep(now);
		if (a->answer != ANSWER_NONE)
			break;
		if (a->deadline_ms && now >= a->deadline_ms) {
			a->answer = ANSWER_TIMEOUT;
			record(a, "timeout");
			pthread_cond_broadcast(&cond);
			changed();
			break;
		}
		int64_t until = now + TICK_MS;
		if (a->deadline_ms && a->deadline_ms < until)
			until = a->deadline_ms;
		struct timespec ts = { until / 1000, (long)(until % 1000) * 1000000 };
		pthread_cond_timedwait(&cond, &lock, &ts);
		if (a->answer != ANSWER_NONE)
			break;
		/* Still waited for?  Asked outside the lock: it reads /proc. */
		pthread_mutex_unlock(&lock);
		int alive = c->alive ? c->alive(c->alive_arg) : 0;
		pthread_mutex_lock(&lock);
		if (alive < 0 && a->answer == ANSWER_NONE) {
			if (--a->waiters == 0) {
				a->orphaned_ms = now_ms();
				pthread_cond_broadcast(&cond); /* for the sweeper */
			}
			pthread_mutex_unlock(&lock);
			r->serial = a->v.serial;
			r->answer = ANSWER_WITHDRAWN;
			r->by = "prompt";
			r->rc = alive;
			return alive;
		}
	}
	result_of(a, r);
	if (--a->waiters == 0) {
		unlink_ask(a);
		changed();
	}
	pthread_mutex_unlock(&lock);
	return r->rc;
}

/* ---- answers ---- */

void ask_rule_text(const struct ask_view *v, enum ask_answer a, int scope, char *out, size_t len)
{
	if (scope < 0 || scope >= v->nrungs) {
		out[0] = '\0';
		return;
	}
	snprintf(out, len, "%s %s %s", a == ANSWER_DENY_ALWAYS ? "deny" : "allow", ward_op_name(v->op),
		 v->rung[scope]);
}

/* The comment above a saved rule: when, which session, who asked. */
static void save_comment(const struct ask *a, char *out, size_t len)
{
	char when[32];
	time_t t = time(NULL);
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(when, sizeof(when), "%Y-%m-%d %H:%M:%SZ", &tm);
	snprintf(out, len, "# %s by the person at %s, ward session %s (%s, pid %d)",
		 a->answer == ANSWER_DENY_ALWAYS ? "denied always" : "allowed always", when, cfg.session,
		 a->v.prog, a->v.pid);
	for (char *p = out; *p; p++)
		if (*p == '\n' || *p == '\r')
			*p = ' ';
}

/* Answer every other pending question the new grant decides (lock held). */
static void release_covered(struct ask *by)
{
	for (struct ask *a = queue; a != NULL; a = a->next) {
		bool allow;
		if (a == by || a->answer != ANSWER_NONE || !grant_covers(a, &allow))
			continue;
		if (allow == allows(by->answer)) {
			a->answer = by->answer;
			snprintf(a->saved, sizeof(a->saved), "%s", by->saved);
			snprintf(a->file, sizeof(a->file), "%s", by->file);
		} else {
			a->answer = allow ? ANSWER_SESSION : ANSWER_DENY; /* an earlier grant's */
		}
		record(a, "prompt");
	}
}

int ask_answer(unsigned serial, enum ask_answer ans, int scope)
{
	struct ask *a;
	char rule[ASK_RULE], comment[512];
	int rc = 0;

	if (ans < ANSWER_ONCE || ans > ANSWER_DENY_ALWAYS)
		return -EINVAL;
	pthread_mutex_lock(&lock);
	sweep(now_ms());
	for (a = queue; a != NULL && a->v.serial != serial; a = a->next)
		;
	if (a == NULL || a->answer != ANSWER_NONE) {
		pthread_mutex_unlock(&lock);
		return -ESRCH;
	}
	if (makes_rule(ans)) {
		if (scope < 0 || scope >= a->v.nrungs) {
			pthread_mutex_unlock(&lock);
			return -EINVAL;
		}
		ask_rule_text(&a->v, ans, scope, rule, sizeof(rule));
		if (ans != ANSWER_SESSION) {
			a->answer = ans; /* for the comment */
			save_comment(a, comment, sizeof(comment));
			a->answer = ANSWER_NONE;
			rc = policy_append(cfg.user_policy, comment, rule);
		}
		if (rc == 0)
			rc = grant_add(rule, a->v.serial);
		if (rc < 0) {
			pthread_mutex_unlock(&lock);
			return rc;
		}
		snprintf(a->saved, sizeof(a->saved), "%s", rule);
		if (ans != ANSWER_SESSION)
			snprintf(a->file, sizeof(a->file), "%s", cfg.user_policy);
	}
	a->answer = ans;
	a->scope = scope;
	a->answered_ms = now_ms();
	record(a, "prompt");
	if (makes_rule(ans))
		release_covered(a);
	pthread_cond_broadcast(&cond);
	changed();
	pthread_mutex_unlock(&lock);
	return 0;
}

void ask_touch(unsigned serial)
{
	pthread_mutex_lock(&lock);
	for (struct ask *a = queue; a != NULL; a = a->next)
		if (a->v.serial == serial && a->deadline_ms)
			a->deadline_ms = now_ms() + (int64_t)cfg.timeout * 1000;
	pthread_mutex_unlock(&lock);
}

int ask_list(struct ask_view **out, size_t *n)
{
	pthread_mutex_lock(&lock);
	int64_t now = now_ms();
	sweep(now);
	size_t k = 0;
	for (struct ask *a = queue; a != NULL; a = a->next)
		k += a->answer == ANSWER_NONE;
	struct ask_view *v = calloc(k ? k : 1, sizeof(*v));
	if (v == NULL) {
		pthread_mutex_unlock(&lock);
		return -ENOMEM;
	}
	k = 0;
	for (struct ask *a = queue; a != NULL; a = a->next) {
		if (a->answer != ANSWER_NONE)
			continue;
		v[k] = a->v;
		v[k].waiters = a->waiters;
		v[k].age = (double)(now - a->asked_ms) / 1000.0;
		v[k].left = a->deadline_ms ? (double)(a->deadline_ms - now) / 1000.0 : -1;
		k++;
	}
	pthread_mutex_unlock(&lock);
	*out = v;
	*n = k;
	return 0;
}

void ask_notice(char *buf, size_t len)
{
	pthread_mutex_lock(&lock);
	if (flooded > 0 && now_ms() - flooded_ms < NOTICE_SECONDS * 1000)
		snprintf(buf, len,
			 "ward: %u question%s came faster than a person can answer: answered as `set undecided` (%s)",
			 flooded, flooded == 1 ? "" : "s", cfg.undecided_allows ? "allow" : "deny");
	else
		buf[0] = '\0';
	pthread_mutex_unlock(&lock);
}

void *ask_answers_json(void)
{
	pthread_mutex_lock(&lock);
	json_t *a = answers ? json_deep_copy(answers) : json_array();
	pthread_mutex_unlock(&lock);
	return a;
}

/* ---- saving a rule ---- */

int policy_append(const char *path, const char *comment, const char *rule)
{
	char real[PATH_MAX], dir[PATH_MAX], tmp[PATH_MAX + 32], lockp[PATH_MAX + 32];
	struct stat st;
	int rc = 0, lk = -1, fd = -1, out = -1;
	char *text = NULL;
	size_t len = 0;

	/* The file a symlink names is the one written, so that the link stays. */
	if (realpath(path, real) == NULL) {
		if (errno != ENOENT)
			return -errno;
		snprintf(real, sizeof(real), "%s", path);
	}
	snprintf(dir, sizeof(dir), "%s", real);
	char *slash = strrchr(dir, '/');
	if (slash == NULL)
		return -EINVAL;
	*slash = '\0';
	/* ~/.config/ward, and ~/.config before it when need be: private. */
	for (char *p = dir + 1;; p++) {
		if (*p != '/' && *p != '\0')
			continue;
		char c = *p;
		*p = '\0';
		if (mkdir(dir, 0700) < 0 && errno != EEXIST)
			return -errno;
		*p = c;
		if (c == '\0')
			break;
	}
	/* Two sessions saving at once: one after the other, neither's rule lost. */
	snprintf(lockp, sizeof(lockp), "%s/.policy.lock", dir);
	lk = open(lockp, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (lk < 0 || flock(lk, LOCK_EX) < 0) {
		rc = -errno;
		goto out;
	}
	fd = open(real, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0 && errno != ENOENT) {
		rc = -errno;
		goto out;
	}
	mode_t mode = 0600;
	if (fd >= 0) {
		if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
			rc = -EINVAL;
			goto out;
		}
		mode = st.st_mode & 07777;
		text = malloc((size_t)st.st_size + 1);
		if (text == NULL) {
			rc = -ENOMEM;
			goto out;
		}
		for (ssize_t n; len < (size_t)st.st_size; len += (size_t)n)
			if ((n = read(fd, text + len, (size_t)st.st_size - len)) <= 0) {
				rc = n < 0 ? -errno : -EIO;
				goto out;
			}
	}
	snprintf(tmp, sizeof(tmp), "%s.ward-new", real);
	out = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, mode);
	if (out < 0) {
		rc = -errno;
		goto out;
	}
	FILE *f = fdopen(out, "w");
	if (f == NULL) {
		rc = -errno;
		goto out;
	}
	out = -1;
	if (len > 0)
		fwrite(text, 1, len, f);
	fprintf(f, "%s%s\n%s\n", len > 0 && text[len - 1] != '\n' ? "\n" : "", comment, rule);
	if (fflush(f) != 0 || fsync(fileno(f)) < 0) {
		rc = -errno;
		fclose(f);
		unlink(tmp);
		goto out;
	}
	if (fclose(f) != 0 || rename(tmp, real) < 0) {
		rc = -errno;
		unlink(tmp);
	}
out:
	free(text);
	if (fd >= 0)
		close(fd);
	if (out >= 0)
		close(out);
	if (lk >= 0)
		close(lk);
	return rc;
}
