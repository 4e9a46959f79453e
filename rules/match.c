/*
 * match.c - the rule index and the decision.
 *
 * Path rules hang in a tree of path components at their literal directory
 * prefix (a pattern for the .so files of /usr/lib hangs at /usr/lib), so a decision on a path
 * visits only the nodes along that path and tests only the rules anchored
 * there.  Each node keeps its soft and hard (deny!) rules apart, in load
 * order, so the last matching soft rule is found scanning backwards.
 */
#define _GNU_SOURCE
#include "policy_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static struct node *node_new(const char *name, size_t len)
{
	struct node *n = calloc(1, sizeof(*n) + len + 1);
	if (n == NULL)
		return NULL;
	memcpy(n->name, name, len);
	n->namelen = len;
	return n;
}

static int node_push(uint32_t **list, uint32_t *n, uint32_t *cap, uint32_t idx)
{
	if (*n == *cap) {
		uint32_t c = *cap ? 2 * *cap : 4;
		uint32_t *l = realloc(*list, c * sizeof(*l));
		if (l == NULL)
			return -ENOMEM;
		*list = l;
		*cap = c;
	}
	(*list)[(*n)++] = idx;
	return 0;
}

static int node_add_rule(struct node *n, const struct ward_rule *r)
{
	if (r->action == WARD_DENY_HARD)
		return node_push(&n->hard, &n->nhard, &n->caphard, r->index);
	return node_push(&n->soft, &n->nsoft, &n->capsoft, r->index);
}

/* The node for the literal directory prefix of a compiled pattern. */
static struct node *anchor(struct node *root, const char *pattern)
{
	size_t lit = glob_literal_len(pattern), dirlen = lit;
	struct node *n = root;
	const char *p;

	if (pattern[lit] != '\0') {
		/* Only whole components before the first glob character count. */
		while (dirlen > 0 && pattern[dirlen - 1] != '/')
			dirlen--;
	}
	p = pattern;
	while (p < pattern + dirlen) {
		while (p < pattern + dirlen && *p == '/')
			p++;
		const char *end = p;
		while (end < pattern + dirlen && *end != '/')
			end++;
		if (end == p)
			break;
		struct node *child;
		size_t len = (size_t)(end - p);
		HASH_FIND(hh, n->children, p, len, child);
		if (child == NULL) {
			child = node_new(p, len);
			if (child == NULL)
				return NULL;
			HASH_ADD_KEYPTR(hh, n->children, child->name, len, child);
		}
		n = child;
		p = end;
	}
	return n;
}

int index_add(struct ward_policy *p, uint32_t idx)
{
	const struct ward_rule *r = p->rules[idx];
	struct node **list, *n;

	switch (r->kind) {
	case T_PATH:
		n = anchor(p->root, r->target);
		break;
	case T_FOREIGN_PROC:
		n = anchor(p->root, "/proc");
		break;
	case T_FOREIGN_TTY:
		n = anchor(p->root, "/dev");
		break;
	case T_MEMFD:
		list = &p->memfd;
		goto flat;
	default:
		list = &p->net;
	flat:
		if (*list == NULL && (*list = node_new("", 0)) == NULL)
			return -ENOMEM;
		n = *list;
	}
	if (n == NULL)
		return -ENOMEM;
	return node_add_rule(n, r);
}

void index_free(struct node *n)
{
	struct node *c, *tmp;

	if (n == NULL)
		return;
	HASH_ITER(hh, n->children, c, tmp) {
		HASH_DEL(n->children, c);
		index_free(c);
	}
	free(n->soft);
	free(n->hard);
	free(n);
}

/*
 * /proc/N or /proc/N/... with N not a process of the session; with
 * private, not /proc/N/stat, status or comm, which ps and pgrep read of
 * every process (names, states and ids, as any program of the user sees
 * them of another).
 */
static bool foreign_proc(const struct ward_policy *p, const char *path, bool private)
{
	const char *s;
	char *end;
	long pid;

	if (strncmp(path, "/proc/", 6) != 0)
		return false;
	s = path + 6;
	if (!isdigit((unsigned char)*s))
		return false;
	pid = strtol(s, &end, 10);
	if (*end != '\0' && *end != '/')
		return false;
	if (private && (strcmp(end, "/stat") == 0 || strcmp(end, "/status") == 0 ||
			strcmp(end, "/comm") == 0))
		return false;
	if (p->in_session == NULL)
		return true;
	return !p->in_session((pid_t)pid, p->in_session_arg);
}

/*
 * A terminal under /dev that is not the session's own.  The supervisor
 * tells by the device itself (ward_policy_set_ttys); without it (ward
 * explain), by its name: a pty, a console, a serial line, a console's
 * screen (vcs).
 */
static bool foreign_tty(const struct ward_policy *p, const char *path)
{
	static const char *const names[] = { "/dev/pts/", "/dev/tty", "/dev/console", "/dev/vcs",
					     "/dev/hvc", NULL };
	if (strncmp(path, "/dev/", 5) != 0)
		return false;
	if (p->foreign_tty != NULL)
		return p->foreign_tty(path, p->foreign_tty_arg);
	if (strcmp(path, "/dev/tty") == 0 || strcmp(path, "/dev/pts/ptmx") == 0)
		return false; /* the caller's own terminal; a new pty */
	for (int i = 0; names[i] != NULL; i++)
		if (strncmp(path, names[i], strlen(names[i])) == 0)
			return strchr(path + strlen(names[i]), '/') == NULL;
	return false;
}

bool rule_match_path(const struct ward_policy *p, const struct ward_rule *r,
		     const char *path)
{
	switch (r->kind) {
	case T_PATH:
		return glob_match(r->glob, path);
	case T_FOREIGN_PROC:
		return foreign_proc(p, path, r->proc_private);
	case T_FOREIGN_TTY:
		return foreign_tty(p, path);
	case T_MEMFD:
		return strncmp(path, "memfd:", 6) == 0 && glob_match(r->glob, path + 6);
	default:
		return false;
	}
}

/*
 * Scan a node's list backwards for the last rule before limit that
 * matches, stopping at rules older than *best (they could not win).
 */
static void scan(const struct ward_policy *p, const uint32_t *list, uint32_t n,
		 unsigned op, const char *path, long limit, long *best)
{
	for (uint32_t i = n; i-- > 0;) {
		if ((long)list[i] >= limit)
			continue;
		if ((long)list[i] <= *best)
			return;
		const struct ward_rule *r = p->rules[list[i]];
		if ((r->ops & op) && rule_match_path(p, r, path)) {
			*best = list[i];
			return;
		}
	}
}

static void visit(const struct ward_policy *p, const struct node *n, unsigned op,
		  const char *path, long limit, long *soft, long *hard)
{
	scan(p, n->hard, n->nhard, op, path, LONG_MAX, hard);
	scan(p, n->soft, n->nsoft, op, path, limit, soft);
}

int rule_rewrite(const struct ward_rule *r, const char *path, char *out,
		 size_t outlen)
{
	const char *rest = "";
	int n;

	if (r->repl_tail) {
		char head[PATH_MAX];
		size_t len = strlen(path);
		if (len >= sizeof(head))
			return -ENAMETOOLONG;
		/* The shortest prefix, ending at a component, that the pattern's prefix matches. */
		for (size_t k = 0; k <= len; k++) {
			if (path[k] != '/' && path[k] != '\0')
				continue;
			memcpy(head, path, k);
			head[k] = '\0';
			if (glob_match(r->prefix, head)) {
				rest = path + k;
				break;
			}
		}
	}
	n = snprintf(out, outlen, "%s%s", strcmp(r->repl, "/") == 0 && *rest ? "" : r->repl,
		     rest);
	if (n < 0 || (size_t)n >= outlen)
		return -ENAMETOOLONG;
	return 0;
}

static int verdict(const struct ward_policy *p, long soft, long hard,
		   struct ward_verdict *v, const char *path)
{
	long win = hard >= 0 ? hard : soft;

	v->rewrite[0] = '\0';
	v->err = EACCES;
	v->undecided = win < 0;
	v->rule = NULL;
	if (win < 0) {
		switch (p->undecided) {
		case WARD_UNDECIDED_ALLOW:
			v->action = WARD_ALLOW;
			break;
		case WARD_UNDECIDED_DENY:
			v->action = WARD_DENY;
			break;
		default:
			v->action = WARD_ASK;
		}
		return 0;
	}
	const struct ward_rule *r = p->rules[win];
	v->rule = r;
	v->action = r->action == WARD_DENY_HARD ? WARD_DENY : r->action;
	v->err = r->err;
	if (r->action == WARD_REWRITE)
		return rule_rewrite(r, path, v->rewrite, sizeof(v->rewrite));
	return 0;
}

/* The last matching rules (soft below limit, and deny!) along path's nodes. */
static void walk(const struct ward_policy *p, unsigned op, const char *path, long limit,
		 long *soft, long *hard)
{
	const struct node *n = p->root;
	const char *s = path;

	*soft = *hard = -1;
	visit(p, n, op, path, limit, soft, hard);
	for (;;) {
		while (*s == '/')
			s++;
		if (*s == '\0')
			break;
		const char *end = strchrnul(s, '/');
		struct node *child;
		HASH_FIND(hh, n->children, s, (size_t)(end - s), child);
		if (child == NULL)
			break;
		n = child;
		visit(p, n, op, path, limit, soft, hard);
		s = end;
	}
}

int ward_decide_path(const struct ward_policy *p, enum ward_op op,
		     const char *path, struct ward_verdict *v)
{
	long soft = -1, hard = -1;

	if (!(op & WARD_OPS_PATH))
		return -EINVAL;
	if (strncmp(path, "memfd:", 6) == 0) {
		if (p->memfd != NULL)
			visit(p, p->memfd, op, path, LONG_MAX, &soft, &hard);
		return verdict(p, soft, hard, v, path);
	}
	if (path[0] != '/')
		return -EINVAL;
	walk(p, op, path, LONG_MAX, &soft, &hard);
	/*
	 * An ask added for a symlink (links.c) sits right after the rule it
	 * came from, later than rules that said more of where the link leads:
	 * it may make their decision stricter, never weaker.  Where what came
	 * before it denies or rewrites (a rule, or `set undecided deny`), that
	 * stands.
	 */
	long win = soft;
	while (hard < 0 && win >= 0 && p->rules[win]->by_link && p->rules[win]->action == WARD_ASK) {
		long before, unused;
		walk(p, op, path, win, &before, &unused);
		if (before < 0) {
			if (p->undecided == WARD_UNDECIDED_DENY)
				soft = -1;
			break;
		}
		/* A rewrite before it, too: the ask would let the original be reached. */
		if (p->rules[before]->action == WARD_DENY || p->rules[before]->action == WARD_REWRITE) {
			soft = before;
			break;
		}
		win = before;
	}
	return verdict(p, soft, hard, v, path);
}

size_t ward_policy_wide_links(const struct ward_policy *p, const char *const *places, size_t n,
			      void (*tell)(void *arg, const char *loc, const char *via,
					   const char *target),
			      void *arg)
{
	size_t told = 0;

	for (size_t i = 0; i < p->nrules; i++) {
		const struct ward_rule *r = p->rules[i];
		char dir[PATH_MAX];
		size_t cut;
		if (!r->by_link || r->via == NULL ||
		    !pattern_literal_dir(r->target, dir, sizeof(dir), &cut))
			continue;
		size_t dl = strcmp(dir, "/") == 0 ? 0 : strlen(dir);
		bool wide = dl == 0;
		for (size_t k = 0; k < n && !wide; k++)
			wide = strncmp(places[k], dir, dl) == 0 &&
			       (places[k][dl] == '\0' || places[k][dl] == '/');
		if (wide) {
			tell(arg, r->loc, r->via, r->target);
			told++;
		}
	}
	return told;
}

static bool in_cidr(const struct cidr *c, const uint8_t a[16])
{
	int full = c->plen / 8, rem = c->plen % 8;

	if (memcmp(c->addr, a, (size_t)full) != 0)
		return false;
	if (rem == 0)
		return true;
	uint8_t mask = (uint8_t)(0xff00u >> rem);
	return (a[full] & mask) == c->addr[full];
}

static bool rule_match_net(const struct ward_rule *r, const struct ward_net_target *t,
			   const char *host)
{
	bool inet = t->kind == WARD_NET_INET || t->kind == WARD_NET_NAME;
	bool port = t->port >= r->port_lo && t->port <= r->port_hi;

	switch (r->kind) {
	case T_ANYHOST:
		return inet && port;
	case T_CIDR:
		if (t->kind != WARD_NET_INET || !port)
			return false;
		for (int i = 0; i < r->ncidr; i++)
			if (in_cidr(&r->cidrs[i], t->addr))
				return true;
		return false;
	case T_DOMAIN:
		return inet && port && host != NULL && glob_match(r->glob, host);
	case T_UNIX:
		return t->kind == WARD_NET_UNIX && t->path && glob_match(r->glob, t->path);
	case T_ABSTRACT:
		return t->kind == WARD_NET_ABSTRACT && t->path &&
		       glob_match(r->glob, t->path);
	case T_SESSION:
		return t->session;
	case T_SOCKET:
		return t->kind == WARD_NET_SOCKET && t->path && glob_match(r->glob, t->path);
	case T_DNS:
		return t->kind == WARD_NET_INET && t->dns;
	default:
		return false;
	}
}

int ward_decide_net(const struct ward_policy *p, enum ward_op op,
		    const struct ward_net_target *t, struct ward_verdict *v)
{
	long soft = -1, hard = -1;
	char host[256];
	const char *h = NULL;

	if (!(op & WARD_OPS_NET))
		return -EINVAL;
	if (t->host != NULL) {
		/* Names match without regard to case or a final dot. */
		size_t n = strlen(t->host);
		if (n >= sizeof(host))
			return -ENAMETOOLONG;
		for (size_t i = 0; i <= n; i++)
			host[i] = (char)tolower((unsigned char)t->host[i]);
		if (n > 1 && host[n - 1] == '.')
			host[n - 1] = '\0';
		h = host;
	}
	if (p->net != NULL) {
		const struct node *n = p->net;
		for (uint32_t i = n->nhard; i-- > 0;)
			if ((p->rules[n->hard[i]]->ops & op) &&
			    rule_match_net(p->rules[n->hard[i]], t, h)) {
				hard = n->hard[i];
				break;
			}
		for (uint32_t i = n->nsoft; i-- > 0;)
			if ((p->rules[n->soft[i]]->ops & op) &&
			    rule_match_net(p->rules[n->soft[i]], t, h)) {
				soft = n->soft[i];
				break;
			}
	}
	return verdict(p, soft, hard, v, NULL);
}
