/*
 * summary.c - a session's audit log read into what ward report shows.
 *
 * The log is read as a stream (logread.c); what is kept grows with what
 * the session touched (one entry a path, a process, a network target, a
 * kind of refusal) and not with the number of lines: a build that opens
 * the same headers a thousand times costs one entry each.
 */
#include "report.h"
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

const char *const did_names[DID_KINDS] = {
	"read",		 "written",	   "created",	      "deleted",    "run",
	"looked at",	 "mode changed",   "owner changed",   "times set",  "xattrs changed",
	"moved away",	 "moved here",	   "linked",	      "rewritten",
};

const char *const tl_names[TL_KINDS] = { "read", "change", "exec", "network", "denied", "other" };

static char *xstrdup(const char *s)
{
	if (s == NULL)
		return NULL;
	char *d = strdup(s);
	if (d == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	return d;
}

static void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n, size);
	if (p == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	return p;
}

static bool eq(const char *a, const char *b)
{
	return a != NULL && strcmp(a, b) == 0;
}

static bool has_prefix(const char *s, const char *p)
{
	return strncmp(s, p, strlen(p)) == 0;
}

/* path is dir or below it. */
static bool under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 0)
		return false;
	if (strcmp(dir, "/") == 0)
		return path[0] == '/';
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

bool summary_device(const char *path)
{
	static const char *const devs[] = { "/dev/null", "/dev/zero", "/dev/full", "/dev/tty",
					    "/dev/ptmx", "/dev/stdout", "/dev/stderr" };
	for (size_t i = 0; i < sizeof(devs) / sizeof(devs[0]); i++)
		if (strcmp(path, devs[i]) == 0)
			return true;
	return has_prefix(path, "/dev/pts/");
}

bool summary_in_project(const struct summary *s, const char *path)
{
	return s->project != NULL && under(path, s->project);
}

bool keep_changed_out(const struct summary *s, const struct pent *p)
{
	return (p->did & (DID_CHANGE | DID_REWRITTEN)) && !summary_in_project(s, p->path) &&
	       !summary_device(p->path);
}

bool keep_changed_in(const struct summary *s, const struct pent *p)
{
	return (p->did & DID_CHANGE) && summary_in_project(s, p->path);
}

bool keep_read_out(const struct summary *s, const struct pent *p)
{
	return (p->did & DID_READ) && !summary_in_project(s, p->path);
}

/* What a successful (syscall, op) did to its path. */
static uint32_t did_of(const char *sc, const char *op)
{
	if (sc == NULL)
		sc = "";
	if (eq(op, "read"))
		return DID_READ;
	if (eq(op, "exec"))
		return DID_EXEC;
	if (eq(op, "stat"))
		return DID_STAT;
	if (strstr(sc, "rename") != NULL)
		return eq(op, "delete") ? DID_MOVED_AWAY : eq(op, "create") ? DID_MOVED_HERE : 0;
	if (eq(op, "write")) {
		if (strstr(sc, "chmod") != NULL)
			return DID_MODE;
		if (strstr(sc, "chown") != NULL)
			return DID_OWNER;
		if (strstr(sc, "utime") != NULL)
			return DID_TIMES;
		if (strstr(sc, "xattr") != NULL)
			return DID_XATTR;
		return DID_WRITE;
	}
	if (eq(op, "create"))
		return has_prefix(sc, "link") ? DID_LINKED : DID_CREATE;
	if (eq(op, "delete"))
		return DID_DELETE;
	return 0;
}

static int op_index(unsigned opbit)
{
	for (int i = 0; i < NOPS; i++)
		if (opbit == 1u << i)
			return i;
	return -1;
}

/* One copy of each program name, however many paths name it. */
static const char *intern(struct summary *s, const char *str)
{
	struct istr *i;
	if (str == NULL)
		return NULL;
	const char *b = strrchr(str, '/');
	str = b ? b + 1 : str;
	size_t n = strlen(str);
	HASH_FIND(hh, s->strings, str, n, i);
	if (i == NULL) {
		i = xcalloc(1, sizeof(*i) + n + 1);
		memcpy(i->s, str, n + 1);
		HASH_ADD_KEYPTR(hh, s->strings, i->s, n, i);
	}
	return i->s;
}

static struct pent *pent_get(struct summary *s, const char *path)
{
	struct pent *p;
	size_t n = strlen(path);

	HASH_FIND(hh, s->paths, path, n, p);
	if (p != NULL)
		return p;
	p = xcalloc(1, sizeof(*p) + n + 1);
	memcpy(p->path, path, n + 1);
	p->first = p->last = LEV_NONE;
	HASH_ADD_KEYPTR(hh, s->paths, p->path, n, p);
	return p;
}

/* ---- the timeline ---- */

static void tl_add(struct timeline *tl, int64_t t, enum tl_kind k)
{
	if (t == LEV_NONE)
		return;
	if (tl->t0 == LEV_NONE)
		tl->t0 = t;
	/* Bucket widths people read easily, each a whole multiple of the one before. */
	static const int64_t ladder[] = { 10000, 50000, 100000, 500000, 1000000, 5000000,
					  10000000, 30000000, 60000000, 300000000, 600000000,
					  1800000000, 3600000000, 21600000000, 86400000000 };
	int64_t off = t > tl->t0 ? t - tl->t0 : 0;
	size_t i = (size_t)(off / tl->width);
	while (i >= TL_MAX) {
		/* Wider: each new bucket holds m old ones. */
		size_t step = 0;
		while (step + 1 < sizeof(ladder) / sizeof(ladder[0]) && ladder[step] <= tl->width)
			step++;
		size_t m = ladder[step] > tl->width ? (size_t)(ladder[step] / tl->width) : 2;
		for (size_t b = 0; b < TL_MAX; b++)
			for (int j = 0; j < TL_KINDS; j++) {
				uint32_t sum = 0;
				for (size_t x = b * m; x < (b + 1) * m && x < TL_MAX; x++)
					sum += tl->n[x][j];
				tl->n[b][j] = sum;
			}
		tl->width *= (int64_t)m;
		tl->used = (tl->used + m - 1) / m;
		i = (size_t)(off / tl->width);
	}
	tl->n[i][k]++;
	if (i + 1 > tl->used)
		tl->used = i + 1;
	if (k == TL_DENIED && tl->nmarks < TL_MARKS)
		tl->marks[tl->nmarks++] = off;
}

/* ---- processes ---- */

static long proc_new(struct summary *s, int64_t pid, int64_t ppid, int64_t t)
{
	if (s->nprocs == s->capprocs) {
		size_t cap = s->capprocs ? s->capprocs * 2 : 64;
		struct proc *n = realloc(s->procs, cap * sizeof(*n));
		if (n == NULL)
			die(WARD_EXIT_FAILURE, "out of memory");
		s->procs = n;
		s->capprocs = cap;
	}
	long idx = (long)s->nprocs++;
	struct proc *p = &s->procs[idx];
	memset(p, 0, sizeof(*p));
	p->pid = pid;
	p->ppid = ppid;
	p->start = t;
	p->end = LEV_NONE;
	p->status = LEV_NONE;
	p->parent = p->child = p->next = -1;

	struct pidmap *m;
	HASH_FIND(hh, s->pids, &pid, sizeof(pid), m);
	if (m == NULL) {
		m = xcalloc(1, sizeof(*m));
		m->pid = pid;
		HASH_ADD(hh, s->pids, pid, sizeof(m->pid), m);
	}
	m->idx = idx; /* a pid used again: the newest process has it */
	return idx;
}

/* The process pid is now, made when its spawn was not seen. */
static struct proc *proc_get(struct summary *s, int64_t pid, int64_t ppid, int64_t t)
{
	struct pidmap *m;

	if (pid == LEV_NONE)
		return NULL;
	HASH_FIND(hh, s->pids, &pid, sizeof(pid), m);
	if (m == NULL)
		return &s->procs[proc_new(s, pid, ppid, t)];
	return &s->procs[m->idx];
}

/* Arguments kept of an exec, and bytes of each: a report, not a copy of the log. */
#define ARGV_KEEP 64
#define ARG_BYTES 1024

static json_t *argv_cut(const json_t *argv, bool *cut)
{
	json_t *a = json_array();
	size_t i;
	json_t *v;

	*cut = false;
	if (a == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	if (!json_is_array(argv))
		return a;
	json_array_foreach(argv, i, v) {
		if (i >= ARGV_KEEP) {
			*cut = true;
			break;
		}
		const char *str = json_string_value(v);
		if (str == NULL)
			str = "";
		size_t n = strlen(str);
		if (n > ARG_BYTES) {
			/* Cut at a character's start, so that it stays UTF-8. */
			n = ARG_BYTES;
			while (n > 0 && ((unsigned char)str[n] & 0xC0) == 0x80)
				n--;
			*cut = true;
		}
		json_array_append_new(a, json_stringn(str, n));
	}
	return a;
}

static void on_spawn(struct summary *s, const struct lev *e)
{
	if (e->tid != LEV_NONE || e->pid == LEV_NONE)
		return; /* a thread: part of its process */
	struct pidmap *m;
	HASH_FIND(hh, s->pids, &e->pid, sizeof(e->pid), m);
	/* Seen already without a spawn (its first call came first): keep that one. */
	if (m != NULL && s->procs[m->idx].status == LEV_NONE && s->procs[m->idx].execs == 0 &&
	    s->procs[m->idx].ppid == e->ppid)
		return;
	proc_new(s, e->pid, e->ppid, e->t_us);
}

static void on_exec(struct summary *s, const struct lev *e)
{
	struct proc *p = proc_get(s, e->pid, e->ppid, e->t_us);
	if (p == NULL)
		return;
	if (eq(e->decision, "kill")) {
		p->killed = true;
		return;
	}
	p->execs++;
	if (e->path != NULL) {
		free(p->exe);
		p->exe = xstrdup(e->path);
	}
	p->is_static = e->is_static == 1;
	json_t *argv = e->obj != NULL ? json_object_get(e->obj, "argv") : NULL;
	json_decref(p->argv);
	p->argv = argv_cut(argv, &p->argv_cut);
}

static void on_exit_(struct summary *s, const struct lev *e)
{
	if (e->tid != LEV_NONE)
		return;
	struct proc *p = proc_get(s, e->pid, e->ppid, e->t_us);
	if (p == NULL)
		return;
	p->status = e->status;
	p->end = e->t_us;
}

/* ---- refusals and the network ---- */

/* The target of a network event, as a rule names it. */
static void net_target(const struct lev *e, bool by_host, char *buf, size_t len)
{
	const char *a = e->addr ? e->addr : "?";
	if (by_host && e->host != NULL && e->port != LEV_NONE)
		snprintf(buf, len, "%s:%lld", e->host, (long long)e->port);
	else if (e->port != LEV_NONE && strchr(a, ':') != NULL && !has_prefix(a, "unix"))
		snprintf(buf, len, "[%s]:%lld", a, (long long)e->port);
	else if (e->port != LEV_NONE && !has_prefix(a, "unix") && !has_prefix(a, "socket:"))
		snprintf(buf, len, "%s:%lld", a, (long long)e->port);
	else
		snprintf(buf, len, "%s", a);
}

static void refusal_add(struct summary *s, const struct lev *e, const char *target,
			const char *op)
{
	char key[3 * PATH_MAX];
	bool would = eq(e->would, "deny");
	bool asked = eq(e->by, "prompt") || eq(e->by, "timeout");
	snprintf(key, sizeof(key), "%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%s\x1f%d", e->event,
		 op ? op : "", target ? target : "", e->rule ? e->rule : "", e->err ? e->err : "",
		 e->by ? e->by : "", e->answer ? e->answer : "", e->decision ? e->decision : "",
		 would);
	struct refusal *r;
	HASH_FIND_STR(s->refusals, key, r);
	if (r == NULL) {
		r = xcalloc(1, sizeof(*r));
		r->key = xstrdup(key);
		r->event = xstrdup(e->event);
		r->op = xstrdup(op);
		r->target = xstrdup(target);
		r->rule = xstrdup(e->rule);
		r->err = xstrdup(e->err);
		r->by = xstrdup(e->by);
		r->answer = xstrdup(e->answer);
		r->exe = xstrdup(e->exe);
		r->reason = xstrdup(e->reason);
		r->would = would;
		r->asked = asked;
		r->denied = eq(e->decision, "deny") || eq(e->decision, "kill");
		r->first = e->t_us;
		r->pid = e->pid;
		r->seq = s->nrefusals++;
		HASH_ADD_KEYPTR(hh, s->refusals, r->key, strlen(r->key), r);
	}
	r->count++;
	r->last = e->t_us;
}

static void on_net(struct summary *s, const struct lev *e, bool refused)
{
	char target[PATH_MAX + 64], key[PATH_MAX + 80];
	net_target(e, true, target, sizeof(target));
	snprintf(key, sizeof(key), "%s %s", e->event, target);
	struct netent *n;
	HASH_FIND_STR(s->net, key, n);
	if (n == NULL) {
		n = xcalloc(1, sizeof(*n));
		n->key = xstrdup(key);
		n->event = xstrdup(e->event);
		n->target = xstrdup(target);
		n->host = xstrdup(e->host);
		n->addr = xstrdup(e->addr);
		n->port = e->port;
		n->first = e->t_us;
		n->seq = s->nnet++;
		HASH_ADD_KEYPTR(hh, s->net, n->key, strlen(n->key), n);
	}
	if (eq(e->would, "deny") && !eq(e->by, "undecided"))
		n->would_rule++;
	if (refused)
		n->denied++;
	else if (e->err != NULL)
		n->failed++;
	else
		n->allowed++;
	n->last = e->t_us;
}

/* A decision: access, connect, bind, signal, process and kinds to come. */
static void on_decision(struct summary *s, const struct lev *e)
{
	const char *d = e->decision;
	bool would = eq(e->would, "deny");
	bool asked = eq(e->by, "prompt") || eq(e->by, "timeout");
	bool denied = eq(d, "deny");
	bool undecided = eq(e->by, "undecided");
	unsigned opbit = e->op ? ward_op_parse(e->op) : 0;
	bool net = eq(e->event, "connect") || eq(e->event, "bind");

	if (eq(d, "allow") || eq(d, "rewrite"))
		s->allowed++;
	else if (denied)
		s->denied++;
	else if (eq(d, "error"))
		s->failed++;
	if (eq(d, "rewrite"))
		s->rewritten++;
	if (would)
		s->would_deny++;
	if (asked)
		s->asked++;

	enum tl_kind k = TL_OTHER;
	if (denied || would)
		k = TL_DENIED;
	else if (opbit == WARD_OP_READ || opbit == WARD_OP_STAT)
		k = TL_READ;
	else if (opbit & (WARD_OP_WRITE | WARD_OP_CREATE | WARD_OP_DELETE))
		k = TL_CHANGE;
	else if (net)
		k = TL_NET;
	/* Programs are counted by their exec events; an exec decision is one of several. */
	if (opbit != WARD_OP_EXEC || k == TL_DENIED)
		tl_add(&s->tl, e->t_us, k);

	char target[PATH_MAX + 64];
	const char *tgt = e->path;
	if (net) {
		net_target(e, true, target, sizeof(target));
		tgt = target;
		if (!eq(d, "error"))
			on_net(s, e, denied);
	} else if (e->target != LEV_NONE && e->path == NULL) {
		snprintf(target, sizeof(target), "pid %lld", (long long)e->target);
		tgt = target;
	}
	if (denied || would || asked || eq(d, "kill")) {
		char opbuf[32];
		const char *op = e->op;
		if (op == NULL && e->signal != LEV_NONE) {
			snprintf(opbuf, sizeof(opbuf), "signal %lld", (long long)e->signal);
			op = opbuf;
		}
		refusal_add(s, e, tgt, op ? op : e->syscall);
	}

	if (net || e->path == NULL || opbit == 0 || (opbit & WARD_OPS_NET))
		return;
	bool ok = (eq(d, "allow") || eq(d, "rewrite")) && e->err == NULL;
	if (!ok && !denied && !would)
		return; /* failed as it would have natively: it touched nothing */
	struct pent *p = pent_get(s, e->path);
	if (p->prog == NULL)
		p->prog = intern(s, e->exe);
	p->events++;
	if (p->first == LEV_NONE)
		p->first = e->t_us;
	p->last = e->t_us;
	if (ok) {
		p->ops_done |= (uint16_t)opbit;
		p->n[op_index(opbit)]++;
		p->did |= did_of(e->syscall, e->op);
		if (eq(d, "rewrite")) {
			p->did |= DID_REWRITTEN;
			if (p->to == NULL)
				p->to = xstrdup(e->to);
		}
	}
	if (denied || would) {
		if (undecided)
			p->ops_undecided |= (uint16_t)opbit;
		else
			p->ops_refused |= (uint16_t)opbit;
	}
}

static char *json_str_dup(json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));
	return v ? xstrdup(v) : NULL;
}

static void on_start(struct summary *s, const struct lev *e)
{
	s->seen_start = true;
	s->start = e->t_us;
	free(s->start_ts);
	s->start_ts = xstrdup(e->ts);
	free(s->id);
	s->id = xstrdup(e->session);
	if (s->tl.t0 == LEV_NONE || (e->t_us != LEV_NONE && e->t_us < s->tl.t0))
		s->tl.t0 = e->t_us;
	if (e->obj == NULL)
		return;
	json_decref(s->argv);
	s->argv = json_incref(json_object_get(e->obj, "argv"));
	free(s->cwd);
	free(s->project);
	free(s->profile);
	free(s->mode);
	free(s->version);
	free(s->kernel);
	s->cwd = json_str_dup(e->obj, "cwd");
	s->project = json_str_dup(e->obj, "project");
	s->profile = json_str_dup(e->obj, "profile");
	s->mode = json_str_dup(e->obj, "mode");
	s->version = json_str_dup(e->obj, "version");
	json_t *k = json_object_get(e->obj, "kernel");
	s->kernel = json_is_object(k) ? json_str_dup(k, "release") : NULL;
}

static void on_end(struct summary *s, const struct lev *e)
{
	s->seen_end = true;
	s->end = e->t_us;
	s->status = e->status;
	s->duration = e->duration;
	if (e->lost != LEV_NONE)
		s->lost = e->lost;
	if (e->obj != NULL) {
		json_t *r = json_object_get(e->obj, "repos");
		if (json_is_array(r)) {
			json_decref(s->repos);
			s->repos = json_incref(r);
		}
	}
}

/* Threads of the tree: parent, first child, next sibling; children in the order they began. */
static void make_tree(struct summary *s)
{
	long *last_child = xcalloc(s->nprocs ? s->nprocs : 1, sizeof(*last_child));
	for (size_t i = 0; i < s->nprocs; i++)
		last_child[i] = -1;
	for (size_t i = 0; i < s->nprocs; i++) {
		struct proc *p = &s->procs[i];
		/*
		 * The parent is the newest process with that pid that began
		 * before this one: a pid used again later is another process.
		 */
		long parent = -1;
		for (long j = (long)i - 1; j >= 0; j--)
			if (s->procs[j].pid == p->ppid) {
				parent = j;
				break;
			}
		p->parent = parent;
		if (parent < 0)
			continue;
		if (last_child[parent] < 0)
			s->procs[parent].child = (long)i;
		else
			s->procs[last_child[parent]].next = (long)i;
		last_child[parent] = (long)i;
	}
	free(last_child);
}

int summary_read(struct summary *s, const char *path, bool running)
{
	struct logread *r;
	struct lev e;
	int rc;

	memset(s, 0, sizeof(*s));
	s->log = xstrdup(path);
	s->start = s->end = s->last_ts = s->status = LEV_NONE;
	s->lost = 0;
	s->duration = -1;
	s->running = running;
	s->tl.t0 = LEV_NONE;
	s->tl.width = 10000; /* 10 ms, widened as the session goes on (tl_add) */
	const char *home = getenv("HOME");
	if (home == NULL || home[0] != '/' || realpath(home, s->home) == NULL)
		snprintf(s->home, sizeof(s->home), "%s", home && home[0] == '/' ? home : "");

	r = logread_open(path, &rc);
	if (r == NULL)
		return rc;
	logread_hold_partial(r, running);
	while ((rc = logread_next(r, &e)) > 0) {
		s->events++;
		if (e.t_us != LEV_NONE && (s->last_ts == LEV_NONE || e.t_us > s->last_ts))
			s->last_ts = e.t_us;
		if (eq(e.event, "session-start"))
			on_start(s, &e);
		else if (eq(e.event, "session-end"))
			on_end(s, &e);
		else if (eq(e.event, "spawn"))
			on_spawn(s, &e);
		else if (eq(e.event, "exit"))
			on_exit_(s, &e);
		else if (eq(e.event, "exec")) {
			on_exec(s, &e);
			if (eq(e.decision, "kill")) {
				s->killed++;
				refusal_add(s, &e, e.path ? e.path : e.exe, "exec");
				tl_add(&s->tl, e.t_us, TL_DENIED);
			} else {
				tl_add(&s->tl, e.t_us, TL_EXEC);
			}
		} else if (e.decision != NULL) {
			on_decision(s, &e);
			if (!eq(e.event, "access") && !eq(e.event, "connect") && !eq(e.event, "bind") &&
			    !eq(e.event, "signal") && !eq(e.event, "process"))
				s->unknown_events++;
		} else {
			s->unknown_events++;
		}
	}
	const struct logread_bad *bad;
	s->bad = logread_bad(r, &bad, &s->nbadlines);
	memcpy(s->badlines, bad, s->nbadlines * sizeof(*bad));
	s->partial = logread_partial(r);
	s->lines = logread_lines(r);
	logread_close(r);
	s->state = s->seen_end ? ST_ENDED : running ? ST_RUNNING : ST_KILLED;
	make_tree(s);
	return rc < 0 ? rc : 0;
}

void summary_free(struct summary *s)
{
	struct pent *p, *pt;
	HASH_ITER(hh, s->paths, p, pt) {
		HASH_DEL(s->paths, p);
		free(p->to);
		free(p->flag);
		free(p);
	}
	struct refusal *r, *rt;
	HASH_ITER(hh, s->refusals, r, rt) {
		HASH_DEL(s->refusals, r);
		free(r->key);
		free(r->event);
		free(r->op);
		free(r->target);
		free(r->rule);
		free(r->err);
		free(r->by);
		free(r->answer);
		free(r->exe);
		free(r->reason);
		free(r);
	}
	struct netent *n, *nt;
	HASH_ITER(hh, s->net, n, nt) {
		HASH_DEL(s->net, n);
		free(n->key);
		free(n->event);
		free(n->target);
		free(n->host);
		free(n->addr);
		free(n);
	}
	struct istr *is, *ist;
	HASH_ITER(hh, s->strings, is, ist) {
		HASH_DEL(s->strings, is);
		free(is);
	}
	struct pidmap *m, *mt;
	HASH_ITER(hh, s->pids, m, mt) {
		HASH_DEL(s->pids, m);
		free(m);
	}
	for (size_t i = 0; i < s->nprocs; i++) {
		json_decref(s->procs[i].argv);
		free(s->procs[i].exe);
	}
	free(s->procs);
	json_decref(s->argv);
	json_decref(s->repos);
	free(s->log);
	free(s->id);
	free(s->cwd);
	free(s->project);
	free(s->profile);
	free(s->mode);
	free(s->version);
	free(s->kernel);
	free(s->start_ts);
	memset(s, 0, sizeof(*s));
}

const char *summary_short_path(const struct summary *s, const char *path, char *buf, size_t len)
{
	if (s->home[0] == '/' && strcmp(s->home, "/") != 0 && under(path, s->home))
		snprintf(buf, len, "~%s", path + strlen(s->home));
	else
		snprintf(buf, len, "%s", path);
	return buf;
}

const char *did_text(uint32_t did, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < DID_KINDS; i++)
		if (did & (1u << i) && o < len)
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? ", " : "", did_names[i]);
	return buf;
}

int path_weight(const struct summary *s, const char *path)
{
	static const char *const low[] = { "/usr", "/lib", "/lib64", "/lib32", "/bin", "/sbin",
					   "/proc", "/sys", "/dev", "/run", "/var/cache",
					   "/tmp", "/var/tmp" };
	const char *tmp = getenv("TMPDIR");
	if (tmp != NULL && tmp[0] == '/' && under(path, tmp))
		return 0;
	for (size_t i = 0; i < sizeof(low) / sizeof(low[0]); i++)
		if (under(path, low[i]))
			return 0;
	if (s->home[0] == '/' && under(path, s->home)) {
		/* Caches are many files and say little; the rest of home says much. */
		char cache[PATH_MAX];
		snprintf(cache, sizeof(cache), "%s/.cache", s->home);
		return under(path, cache) ? 1 : 3;
	}
	if (under(path, "/etc"))
		return 2;
	return 1;
}

/* ---- flags on reads ---- */

void summary_flag_reads(struct summary *s)
{
	struct ward_vars vars;
	struct ward_error err;
	char path[PATH_MAX];

	/* The session's project, when it is still there; its rules do not decide reads outside it. */
	if (ward_vars_from_env(&vars, s->project, NULL, &err) < 0 &&
	    ward_vars_from_env(&vars, "/", NULL, &err) < 0)
		return;
	struct ward_policy *p = ward_policy_new(&vars);
	if (p == NULL)
		return;
	if (ward_policy_add_profile(p, "default", &err) < 0) {
		ward_policy_free(p);
		return;
	}
	/* The user's own rules too; a policy that does not load adds nothing. */
	snprintf(path, sizeof(path), "%s/ward/policy", vars.xdg_config_home);
	if (access(path, R_OK) == 0)
		(void)ward_policy_add_file(p, WARD_LAYER_USER, path, &err);
	struct pent *e, *t;
	HASH_ITER(hh, s->paths, e, t) {
		struct ward_verdict v;
		if (!(e->did & DID_READ) || summary_in_project(s, e->path))
			continue;
		if (ward_decide_path(p, WARD_OP_READ, e->path, &v) < 0)
			continue;
		if (v.action != WARD_DENY && v.action != WARD_DENY_HARD && v.action != WARD_ASK)
			continue;
		if (v.undecided)
			continue; /* nothing names it: not a known secret */
		char flag[256];
		snprintf(flag, sizeof(flag), "%s by %s", v.action == WARD_ASK ? "asked" : "denied",
			 ward_rule_location(v.rule));
		e->flag = xstrdup(flag);
	}
	ward_policy_free(p);
}

/* ---- the rule that would allow a refusal ---- */

/* The text of line n of a built-in profile or a policy file; false when unknown. */
static bool rule_line(const char *loc, char *buf, size_t len)
{
	char file[PATH_MAX];
	const char *colon = strrchr(loc, ':');
	if (colon == NULL || colon == loc)
		return false;
	long n = strtol(colon + 1, NULL, 10);
	if (n <= 0)
		return false;
	snprintf(file, sizeof(file), "%.*s", (int)(colon - loc), loc);
	if (has_prefix(file, "builtin:")) {
		const char *text = ward_profile_text(file + 8);
		if (text == NULL)
			return false;
		for (long i = 1; i < n && text != NULL; i++)
			if ((text = strchr(text, '\n')) != NULL)
				text++;
		if (text == NULL)
			return false;
		snprintf(buf, len, "%.*s", (int)strcspn(text, "\n"), text);
		return true;
	}
	FILE *f = fopen(file, "re");
	if (f == NULL)
		return false;
	bool found = false;
	for (long i = 1; fgets(buf, (int)len, f) != NULL; i++)
		if (i == n) {
			buf[strcspn(buf, "\n")] = '\0';
			found = true;
			break;
		}
	fclose(f);
	return found;
}

/* The deny! rules ward adds of its own (cmd_run.c), and the built-in ones. */
static bool hard_rule(const char *loc)
{
	char line[1024];
	if (loc == NULL)
		return false;
	if (has_prefix(loc, "builtin:log") || has_prefix(loc, "builtin:exe") ||
	    has_prefix(loc, "builtin:policy") || has_prefix(loc, "builtin:self"))
		return true;
	if (!rule_line(loc, line, sizeof(line)))
		return false;
	const char *w = line + strspn(line, " \t");
	return has_prefix(w, "deny!");
}

const char *net_quote(const char *target, char *buf, size_t len)
{
	size_t o = 0;
	for (const char *c = target; *c && o + 3 < len; c++) {
		if (*c == '"' || *c == '\\')
			buf[o++] = '\\';
		buf[o++] = *c;
	}
	buf[o] = '\0';
	return buf;
}

const char *refusal_rule(const struct refusal *r, char *buf, size_t len, const char **why)
{
	char q[3 * PATH_MAX];
	bool net = eq(r->event, "connect") || eq(r->event, "bind");

	*why = NULL;
	if (hard_rule(r->rule)) {
		*why = "a deny! rule: no rule lifts it";
		return NULL;
	}
	if (r->target == NULL || r->op == NULL || ward_op_parse(r->op) == 0) {
		*why = eq(r->event, "signal") || eq(r->event, "process")
			       ? "only the session's own processes can be reached"
			       : "no rule decides this";
		return NULL;
	}
	if (net && (eq(r->target, "none") || has_prefix(r->target, "?"))) {
		*why = "no address to name";
		return NULL;
	}
	if (!net && r->target[0] != '/' && !has_prefix(r->target, "memfd:")) {
		*why = "no path to name";
		return NULL;
	}
	for (const unsigned char *c = (const unsigned char *)r->target; *c; c++)
		if (*c < 0x20 || *c == 0x7f) {
			*why = "its name holds a control character, which a rule cannot";
			return NULL;
		}
	if (net) {
		net_quote(r->target, q, sizeof(q));
	} else if (policy_quote(q, sizeof(q), r->target, false) < 0) {
		*why = "its name is too long";
		return NULL;
	}
	if ((size_t)snprintf(buf, len, "allow %s \"%s\"", r->op, q) >= len) {
		*why = "its name is too long";
		return NULL;
	}
	return buf;
}

const char *refusal_allow_rule(const struct refusal *r, char *buf, size_t len, const char **why)
{
	char text[4 * PATH_MAX];
	if (refusal_rule(r, text, sizeof(text), why) == NULL)
		return NULL;
	/* One shell word: the rule in single quotes, a quote in it closed and reopened. */
	size_t o = (size_t)snprintf(buf, len, "-r '");
	for (const char *c = text; *c && o + 8 < len; c++) {
		if (*c == '\'')
			o += (size_t)snprintf(buf + o, len - o, "'\\''");
		else
			buf[o++] = *c;
	}
	if (o + 2 >= len)
		return NULL;
	buf[o++] = '\'';
	buf[o] = '\0';
	return buf;
}

/* ---- sorted views ---- */

int pent_by_tree(const void *x, const void *y)
{
	const struct pent *a = *(struct pent *const *)x, *b = *(struct pent *const *)y;
	const unsigned char *p = (const unsigned char *)a->path, *q = (const unsigned char *)b->path;
	while (*p && *p == *q)
		p++, q++;
	/* '/' before any other byte, so that a directory's tree stays together. */
	int cp = *p == '/' ? 1 : *p ? *p + 1 : 0, cq = *q == '/' ? 1 : *q ? *q + 1 : 0;
	return cp - cq;
}

struct pent **summary_paths_sorted(const struct summary *s,
				   bool (*keep)(const struct summary *, const struct pent *),
				   int (*cmp)(const void *, const void *), size_t *n)
{
	size_t cap = HASH_COUNT(s->paths), k = 0;
	struct pent **a = xcalloc(cap ? cap : 1, sizeof(*a));
	struct pent *e, *t;
	HASH_ITER(hh, s->paths, e, t)
		if (keep == NULL || keep(s, e))
			a[k++] = e;
	if (cmp != NULL && k > 1)
		qsort(a, k, sizeof(*a), cmp);
	*n = k;
	return a;
}

static int refusal_cmp(const void *x, const void *y)
{
	const struct refusal *a = *(struct refusal *const *)x, *b = *(struct refusal *const *)y;
	/* Refused before asked-and-allowed, then in the order they happened. */
	if (a->denied != b->denied)
		return a->denied ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct refusal **summary_refusals_sorted(const struct summary *s, size_t *n)
{
	size_t cap = HASH_COUNT(s->refusals), k = 0;
	struct refusal **a = xcalloc(cap ? cap : 1, sizeof(*a));
	struct refusal *e, *t;
	HASH_ITER(hh, s->refusals, e, t)
		a[k++] = e;
	if (k > 1)
		qsort(a, k, sizeof(*a), refusal_cmp);
	*n = k;
	return a;
}

static int net_cmp(const void *x, const void *y)
{
	const struct netent *a = *(struct netent *const *)x, *b = *(struct netent *const *)y;
	/* Denied first, then the most used. */
	if ((a->denied > 0) != (b->denied > 0))
		return a->denied > 0 ? -1 : 1;
	uint32_t na = a->allowed + a->denied + a->failed, nb = b->allowed + b->denied + b->failed;
	if (na != nb)
		return na > nb ? -1 : 1;
	return a->seq < b->seq ? -1 : a->seq > b->seq;
}

struct netent **summary_net_sorted(const struct summary *s, size_t *n)
{
	size_t cap = HASH_COUNT(s->net), k = 0;
	struct netent **a = xcalloc(cap ? cap : 1, sizeof(*a));
	struct netent *e, *t;
	HASH_ITER(hh, s->net, e, t)
		a[k++] = e;
	if (k > 1)
		qsort(a, k, sizeof(*a), net_cmp);
	*n = k;
	return a;
}
