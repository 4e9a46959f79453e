/*
 * parse.c - the lexer and parser of policy text.
 *
 * A text is parsed whole into a list of pending rules and settings; only
 * when every line (and every included file) is correct are they added to
 * the policy, so that a policy with an error is never half-loaded.
 */
#define _GNU_SOURCE
#include "policy_int.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MAX_INCLUDE_DEPTH 8
#define MAX_LINE 8191
#define MAX_WORDS 1024
#define MAX_FILE (16u << 20)
#define MAX_ASK_TIMEOUT 86400

struct word {
	const char *text; /* unquoted, NUL-terminated */
	int col;	  /* 1-based byte column of its first character */
};

struct pctx {
	struct ward_policy *p;
	enum ward_layer layer;
	struct ward_rule **pending;
	size_t npending, cap;
	bool has_undecided, has_timeout, has_age, has_bytes;
	enum ward_undecided undecided;
	unsigned timeout;
	uint64_t age, bytes; /* set log-retention */
	char *stack[MAX_INCLUDE_DEPTH + 1]; /* real paths of open files */
	int depth;
	int includes; /* how deep in includes: a top-level file is not one */
	char **files; /* the files read, for ward_policy_files once committed */
	size_t nfiles;
	char *link_cut; /* links.c: the first rule whose links were not all read */
	size_t link_cuts;
	struct ward_error *err;
};

/* Note a file read, unless it is noted already. */
static int note_file(struct pctx *c, const char *path)
{
	for (size_t i = 0; i < c->nfiles; i++)
		if (strcmp(c->files[i], path) == 0)
			return 0;
	char **n = realloc(c->files, (c->nfiles + 1) * sizeof(*n));
	if (n == NULL)
		return -ENOMEM;
	c->files = n;
	if ((c->files[c->nfiles] = strdup(path)) == NULL)
		return -ENOMEM;
	c->nfiles++;
	return 0;
}

static int fail(struct pctx *c, const char *origin, int line, int col,
		const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int fail(struct pctx *c, const char *origin, int line, int col,
		const char *fmt, ...)
{
	va_list ap;
	int n;

	if (c->err == NULL)
		return -EINVAL;
	if (line == 0)
		n = snprintf(c->err->msg, sizeof(c->err->msg), "%s: ", origin);
	else
		n = snprintf(c->err->msg, sizeof(c->err->msg), "%s:%d:%d: ", origin,
			     line, col);
	if (n < 0 || (size_t)n >= sizeof(c->err->msg))
		return -EINVAL;
	va_start(ap, fmt);
	vsnprintf(c->err->msg + n, sizeof(c->err->msg) - (size_t)n, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

/*
 * Split one line into words.  buf has room for the line plus one NUL a
 * word; words point into it.  Returns the word count, or -1 with *col
 * and *why set.
 */
static int lex_line(const char *line, size_t len, char *buf, struct word *w,
		    int *col, const char **why)
{
	size_t i = 0, o = 0;
	int n = 0;

	for (;;) {
		while (i < len && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
			i++;
		if (i >= len || line[i] == '#')
			return n;
		if (n == MAX_WORDS) {
			*col = (int)i + 1;
			*why = "too many words on one line";
			return -1;
		}
		w[n].col = (int)i + 1;
		w[n].text = buf + o;
		while (i < len && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') {
			if (line[i] != '"') {
				buf[o++] = line[i++];
				continue;
			}
			size_t open = i++;
			while (i < len && line[i] != '"') {
				if (line[i] == '\\' && i + 1 < len &&
				    (line[i + 1] == '"' || line[i + 1] == '\\'))
					i++;
				buf[o++] = line[i++];
			}
			if (i >= len) {
				*col = (int)open + 1;
				*why = "unterminated quote";
				return -1;
			}
			i++; /* the closing quote */
		}
		buf[o++] = '\0';
		n++;
	}
}

static const char *const op_names[] = {
	"read", "write", "create", "delete", "exec", "stat", "connect", "bind",
};
_Static_assert(sizeof(op_names) / sizeof(op_names[0]) == WARD_OP_COUNT,
	       "an op without a name, or a name without an op");
_Static_assert(WARD_OPS_ALL == (1u << WARD_OP_COUNT) - 1 && WARD_OP_BIND == 1u << (WARD_OP_COUNT - 1),
	       "the ops are the WARD_OP_COUNT lowest bits, in op_names' order");

enum ward_op ward_op_parse(const char *word)
{
	for (unsigned i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
		if (strcmp(word, op_names[i]) == 0)
			return (enum ward_op)(1u << i);
	return 0;
}

const char *ward_op_name(enum ward_op op)
{
	for (unsigned i = 0; i < sizeof(op_names) / sizeof(op_names[0]); i++)
		if (op == (1u << i))
			return op_names[i];
	return "?";
}

/* "read,write" or "*"; returns the mask or 0 with *badcol set. */
static unsigned parse_ops(const char *s, int col, int *badcol, char *bad,
			  size_t badlen)
{
	unsigned ops = 0;
	const char *p = s;

	if (strcmp(s, "*") == 0)
		return WARD_OPS_ALL;
	for (;;) {
		const char *end = strchrnul(p, ',');
		char name[32];
		size_t n = (size_t)(end - p);
		enum ward_op op = 0;
		if (n < sizeof(name)) {
			memcpy(name, p, n);
			name[n] = '\0';
			op = ward_op_parse(name);
		}
		if (op == 0) {
			*badcol = col + (int)(p - s);
			snprintf(bad, badlen, "%.*s", (int)n, p);
			return 0;
		}
		ops |= op;
		if (*end == '\0')
			return ops;
		p = end + 1;
	}
}

static int errno_parse(const char *name)
{
	for (int e = 1; e < 4096; e++) {
		const char *n = strerrorname_np(e);
		if (n != NULL && strcmp(n, name) == 0)
			return e;
	}
	return 0;
}

/* allow, deny, deny(E), deny!, deny!(E), ask, rewrite. */
static bool parse_action(const char *s, enum ward_action *a, int *err, bool *bad_errno)
{
	char name[64];
	const char *paren = strchr(s, '(');

	*err = EACCES;
	*bad_errno = false;
	if (paren == NULL) {
		if (strcmp(s, "allow") == 0)
			*a = WARD_ALLOW;
		else if (strcmp(s, "deny") == 0)
			*a = WARD_DENY;
		else if (strcmp(s, "deny!") == 0)
			*a = WARD_DENY_HARD;
		else if (strcmp(s, "ask") == 0)
			*a = WARD_ASK;
		else if (strcmp(s, "rewrite") == 0)
			*a = WARD_REWRITE;
		else
			return false;
		return true;
	}
	size_t head = (size_t)(paren - s), n = strlen(paren + 1);
	if (head == 4 && strncmp(s, "deny", 4) == 0)
		*a = WARD_DENY;
	else if (head == 5 && strncmp(s, "deny!", 5) == 0)
		*a = WARD_DENY_HARD;
	else
		return false;
	if (n < 2 || paren[n] != ')' || n - 1 >= sizeof(name)) {
		*bad_errno = true;
		return false;
	}
	memcpy(name, paren + 1, n - 1);
	name[n - 1] = '\0';
	*err = errno_parse(name);
	if (*err == 0) {
		*bad_errno = true;
		return false;
	}
	return true;
}

static unsigned ops_for_kind(enum target_kind k)
{
	switch (k) {
	case T_PATH:
	case T_FOREIGN_PROC:
	case T_FOREIGN_TTY:
		return WARD_OPS_PATH;
	case T_MEMFD:
		return WARD_OP_EXEC;
	default:
		return WARD_OPS_NET;
	}
}

static int push_rule(struct pctx *c, struct ward_rule *r)
{
	if (c->npending == c->cap) {
		size_t cap = c->cap ? 2 * c->cap : 16;
		struct ward_rule **n = realloc(c->pending, cap * sizeof(*n));
		if (n == NULL)
			return -ENOMEM;
		c->pending = n;
		c->cap = cap;
	}
	c->pending[c->npending++] = r;
	return 0;
}

static int parse_text(struct pctx *c, const char *origin, const char *text,
		      size_t len, const char *basedir, int line_base);

/* A rule for where the links of another lead (links.c), pushed after it. */
struct derive {
	struct pctx *c;
	const struct ward_rule *origin;
	size_t first;		     /* the origin's own index among the pending rules */
	struct link_budget b;
};

static int derive(void *arg, const char *pattern, unsigned ops, int hops, const char *via)
{
	struct derive *d = arg;
	struct ward_policy *p = d->c->p;
	const struct ward_rule *o = d->origin;
	const char *why;

	if (d->b.rules >= LINK_RULES) {
		d->b.cut = true;
		return 0;
	}
	struct ward_rule *r = calloc(1, sizeof(*r));
	if (r == NULL)
		return -ENOMEM;
	r->action = o->action;
	r->err = o->err;
	r->layer = o->layer;
	r->ops = ops;
	r->by_link = true;
	if ((r->loc = strdup(o->loc)) == NULL || (via != NULL && (r->via = strdup(via)) == NULL)) {
		rule_free(r);
		return -ENOMEM;
	}
	int rc = target_compile_real(r, pattern, &why);
	if (rc < 0) {
		rule_free(r);
		return rc == -ENOMEM ? rc : 0; /* a place too long to name: none reached there */
	}
	/* Links within one tree lead to the same places again. */
	for (size_t i = d->first; i < d->c->npending; i++) {
		const struct ward_rule *q = d->c->pending[i];
		if (q->ops == r->ops && strcmp(q->target, r->target) == 0) {
			rule_free(r);
			return 0;
		}
	}
	if (push_rule(d->c, r) < 0) {
		rule_free(r);
		return -ENOMEM;
	}
	d->b.rules++;
	return hops < 0 ? 0 : links_follow(p, r, NULL, hops, derive, d, &d->b);
}

/* Follow the links the rule just pushed names, word as it was written. */
static int follow_links(struct pctx *c, struct ward_rule *r, const char *word)
{
	char exp[PATH_MAX];
	const char *bad;

	if (!c->p->follow_links || r->kind != T_PATH)
		return 0;
	if (expand_vars(&c->p->vars, word, exp, sizeof(exp), true, &bad) < 0)
		return 0; /* compiled from it already: cannot fail now */
	struct derive d = { .c = c, .origin = r, .first = c->npending - 1,
			    .b = { .entries = LINK_ENTRIES, .steps = LINK_STEPS } };
	int rc = links_follow(c->p, r, exp, 0, derive, &d, &d.b);
	if (rc < 0 || !d.b.cut)
		return rc;
	/* Said when the layer is added, for the first such rule. */
	if (c->link_cut == NULL && asprintf(&c->link_cut, "%s %s", r->loc, r->target) < 0) {
		c->link_cut = NULL;
		return -ENOMEM;
	}
	c->link_cuts++;
	return 0;
}

static char *read_whole(const char *path, size_t *len, int *rc)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	char *buf = NULL;
	size_t got = 0;

	if (fd < 0) {
		*rc = -errno;
		return NULL;
	}
	if (fstat(fd, &st) < 0) {
		*rc = -errno;
		goto out;
	}
	if (!S_ISREG(st.st_mode)) {
		*rc = S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL;
		goto out;
	}
	if ((size_t)st.st_size > MAX_FILE) {
		*rc = -EFBIG;
		goto out;
	}
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL) {
		*rc = -ENOMEM;
		goto out;
	}
	while (got <= (size_t)st.st_size) {
		ssize_t n = read(fd, buf + got, (size_t)st.st_size + 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			*rc = -errno;
			free(buf);
			buf = NULL;
			goto out;
		}
		if (n == 0)
			break;
		got += (size_t)n;
	}
	if (got > (size_t)st.st_size) {
		*rc = -EAGAIN; /* the file grew while being read */
		free(buf);
		buf = NULL;
		goto out;
	}
	buf[got] = '\0';
	*len = got;
	*rc = 0;
out:
	close(fd);
	return buf;
}

/* Parse a whole file, included or top-level. */
static int parse_file(struct pctx *c, const char *path, const char *from,
		      int line, int col)
{
	char real[PATH_MAX], dir[PATH_MAX];
	size_t len;
	int rc;

	/*
	 * Count includes, not files, so that the limit is the same whether
	 * the top level is a file (on the stack) or a text (not on it).
	 */
	if (from != NULL && c->includes >= MAX_INCLUDE_DEPTH)
		return fail(c, from, line, col, "includes nested deeper than %d at '%s'",
			    MAX_INCLUDE_DEPTH, path);
	if (realpath(path, real) == NULL) {
		if (from == NULL)
			return fail(c, path, 0, 0, "cannot open: %s", strerror(errno));
		return fail(c, from, line, col, "cannot include '%s': %s", path,
			    strerror(errno));
	}
	for (int i = 0; i < c->depth; i++)
		if (strcmp(c->stack[i], real) == 0)
			return fail(c, from, line, col, "include cycle: '%s' includes itself",
				    path);
	char *text = read_whole(real, &len, &rc);
	if (text == NULL) {
		if (from == NULL)
			return fail(c, path, 0, 0, "cannot read: %s", strerror(-rc));
		return fail(c, from, line, col, "cannot include '%s': %s", path,
			    strerror(-rc));
	}
	/* Named relative to the cwd at the top level; includes come made absolute. */
	char named[PATH_MAX], cwd[PATH_MAX];
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		strcpy(cwd, "/");
	if (ward_path_normalize(cwd, path, named, sizeof(named)) < 0 ||
	    note_file(c, named) < 0 || note_file(c, real) < 0) {
		free(text);
		return -ENOMEM;
	}
	c->stack[c->depth] = strdup(real);
	if (c->stack[c->depth] == NULL) {
		free(text);
		return -ENOMEM;
	}
	c->depth++;
	if (from != NULL)
		c->includes++;
	strcpy(dir, real);
	*strrchr(dir, '/') = '\0';
	rc = parse_text(c, path, text, len, dir[0] ? dir : "/", 0);
	if (from != NULL)
		c->includes--;
	c->depth--;
	free(c->stack[c->depth]);
	free(text);
	return rc;
}

/*
 * One value of `set log-retention`: an age, "30d" (days), or a size in
 * all, "1G" (K, M, G or T: powers of 1024); 0 of either is no limit.
 */
static int parse_retention(struct pctx *c, const char *origin, int line, const struct word *w)
{
	const char *t = w->text;
	char *end;

	errno = 0;
	unsigned long long v = strtoull(t, &end, 10);
	const char *units = "dKMGT";
	const char *u = *end ? strchr(units, *end) : NULL;
	if (t[0] < '0' || t[0] > '9' || errno != 0 || u == NULL || end[1] != '\0')
		return fail(c, origin, line, w->col,
			    "'set log-retention' takes an age in days (30d) and a size "
			    "(500M, 1G), not '%s'", t);
	if (*u == 'd') {
		if (v > 100u * 365)
			return fail(c, origin, line, w->col,
				    "'set log-retention' keeps logs at most 36500 days, not '%s'", t);
		c->age = (uint64_t)v * 86400;
		c->has_age = true;
		return 0;
	}
	int shift = 10 * (int)(u - units);
	if (v > (UINT64_MAX >> shift))
		return fail(c, origin, line, w->col, "'set log-retention': '%s' is too large", t);
	c->bytes = (uint64_t)v << shift;
	c->has_bytes = true;
	return 0;
}

static int parse_set(struct pctx *c, const char *origin, int line,
		     struct word *w, int n)
{
	if (n >= 3 && n <= 4 && strcmp(w[1].text, "log-retention") == 0) {
		for (int i = 2; i < n; i++) {
			int rc = parse_retention(c, origin, line, &w[i]);
			if (rc < 0)
				return rc;
		}
		return 0;
	}
	if (n != 3)
		return fail(c, origin, line, w[0].col,
			    "'set' takes a name and a value");
	if (strcmp(w[1].text, "undecided") == 0) {
		if (strcmp(w[2].text, "ask") == 0)
			c->undecided = WARD_UNDECIDED_ASK;
		else if (strcmp(w[2].text, "deny") == 0)
			c->undecided = WARD_UNDECIDED_DENY;
		else if (strcmp(w[2].text, "allow") == 0)
			c->undecided = WARD_UNDECIDED_ALLOW;
		else
			return fail(c, origin, line, w[2].col,
				    "'set undecided' takes ask, deny or allow, not '%s'",
				    w[2].text);
		c->has_undecided = true;
		return 0;
	}
	if (strcmp(w[1].text, "ask-timeout") == 0) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(w[2].text, &end, 10);
		if (w[2].text[0] < '0' || w[2].text[0] > '9' || *end != '\0' ||
		    errno != 0 || v > MAX_ASK_TIMEOUT)
			return fail(c, origin, line, w[2].col,
				    "'set ask-timeout' takes seconds from 0 to %d, not '%s'",
				    MAX_ASK_TIMEOUT, w[2].text);
		c->timeout = (unsigned)v;
		c->has_timeout = true;
		return 0;
	}
	return fail(c, origin, line, w[1].col, "unknown setting '%s'", w[1].text);
}

/* Compile the replacement of a rewrite into r (shared by its targets). */
static int compile_replacement(struct pctx *c, const char *origin, int line,
			       const struct word *w, char **repl, bool *tail)
{
	char exp[PATH_MAX], norm[PATH_MAX];
	const char *bad;
	size_t n, o = 0;
	int rc;

	rc = expand_vars(&c->p->vars, w->text, exp, sizeof(exp), true, &bad);
	if (rc == -ENAMETOOLONG)
		return fail(c, origin, line, w->col, "path too long: '%s'", w->text);
	if (rc < 0)
		return fail(c, origin, line, w->col, "unknown variable in '%s'", w->text);
	if (exp[0] != '/')
		return fail(c, origin, line, w->col,
			    "rewrite replacement is not an absolute path: '%s'", w->text);
	n = strlen(exp);
	*tail = n >= 3 && strcmp(exp + n - 3, "/**") == 0;
	if (*tail)
		exp[n - 3] = '\0';
	/*
	 * The rest is a plain path.  Variables' values come with their glob
	 * characters escaped, and so may the user's: unescape; any glob
	 * character left is an error.
	 */
	for (size_t i = 0; exp[i] != '\0'; i++) {
		if (exp[i] == '\\' && exp[i + 1] != '\0')
			i++;
		else if (strchr("*?[\\", exp[i]) != NULL)
			return fail(c, origin, line, w->col,
				    "rewrite replacement may hold no glob but a final '/**': '%s'",
				    w->text);
		exp[o++] = exp[i];
	}
	exp[o] = '\0';
	if (ward_path_normalize("/", exp[0] ? exp : "/", norm, sizeof(norm)) < 0)
		return fail(c, origin, line, w->col, "path too long: '%s'", w->text);
	*repl = strdup(norm);
	return *repl ? 0 : -ENOMEM;
}

static int parse_rule(struct pctx *c, const char *origin, int line,
		      struct word *w, int n)
{
	enum ward_action action;
	int err, badcol = 0, ntargets = n - 2, rc;
	bool bad_errno, tail = false, any = false;
	unsigned ops, used = 0;
	char bad[64], *repl = NULL, loc[PATH_MAX + 32];
	const struct word *replw = NULL;

	if (!parse_action(w[0].text, &action, &err, &bad_errno)) {
		if (bad_errno)
			return fail(c, origin, line, w[0].col, "unknown errno in '%s'",
				    w[0].text);
		return fail(c, origin, line, w[0].col, "unknown statement '%s'",
			    w[0].text);
	}
	if (n < 2)
		return fail(c, origin, line, w[0].col, "'%s' needs ops and targets",
			    w[0].text);
	ops = parse_ops(w[1].text, w[1].col, &badcol, bad, sizeof(bad));
	if (ops == 0)
		return fail(c, origin, line, badcol, "unknown op '%s'", bad);
	any = strcmp(w[1].text, "*") == 0;

	for (int i = 2; i < n; i++) {
		if (strcmp(w[i].text, "->") != 0)
			continue;
		if (action != WARD_REWRITE)
			return fail(c, origin, line, w[i].col, "'->' only follows a rewrite's patterns");
		if (i == 2)
			return fail(c, origin, line, w[i].col, "rewrite needs a pattern before '->'");
		if (i != n - 2)
			return fail(c, origin, line, w[i].col,
				    "rewrite takes exactly one replacement after '->'");
		replw = &w[i + 1];
		ntargets = i - 2;
	}
	if (action == WARD_REWRITE) {
		if (replw == NULL)
			return fail(c, origin, line, w[0].col, "rewrite needs '-> REPLACEMENT'");
		if (any)
			ops = WARD_OPS_PATH & ~WARD_OP_EXEC;
		if (ops & ~(WARD_OPS_PATH & ~WARD_OP_EXEC))
			return fail(c, origin, line, w[1].col,
				    "rewrite applies to read, write, create, delete and stat only");
		if ((rc = compile_replacement(c, origin, line, replw, &repl, &tail)) < 0)
			return rc;
	}
	if (ntargets == 0) {
		free(repl);
		return fail(c, origin, line, w[1].col, "'%s' needs at least one target",
			    w[0].text);
	}
	snprintf(loc, sizeof(loc), "%s:%d", origin, line);

	for (int i = 2; i < 2 + ntargets; i++) {
		const char *why = NULL;
		struct ward_rule *r = calloc(1, sizeof(*r));
		if (r == NULL)
			goto nomem;
		r->action = action;
		r->err = err;
		r->layer = c->layer;
		r->loc = strdup(loc);
		if (r->loc == NULL) {
			rule_free(r);
			goto nomem;
		}
		if (target_compile(&c->p->vars, w[i].text, r, &why) < 0) {
			rule_free(r);
			free(repl);
			return fail(c, origin, line, w[i].col, "%s: '%s'", why, w[i].text);
		}
		/*
		 * Each target takes the ops that apply to its kind
		 * (`allow read,connect /srv example.com:443`).  A target
		 * that takes none of them is a mistake, and so is an op that
		 * no target takes (checked after the loop).
		 */
		unsigned fits = ops_for_kind(r->kind);
		r->ops = ops & fits;
		used |= r->ops;
		if (!any && r->ops == 0) {
			unsigned badop = ops & -ops;
			rule_free(r);
			free(repl);
			return fail(c, origin, line, w[i].col, "op '%s' does not apply to '%s'",
				    ward_op_name(badop), w[i].text);
		}
		if (action == WARD_REWRITE) {
			size_t tl = strlen(r->target);
			if (r->kind != T_PATH) {
				rule_free(r);
				free(repl);
				return fail(c, origin, line, w[i].col,
					    "rewrite applies to path patterns only: '%s'", w[i].text);
			}
			if (tail && (tl < 3 || strcmp(r->target + tl - 3, "/**") != 0)) {
				rule_free(r);
				free(repl);
				return fail(c, origin, line, w[i].col,
					    "a replacement ending in '/**' needs a pattern ending in '/**': '%s'",
					    w[i].text);
			}
			r->repl = strdup(repl);
			r->repl_tail = tail;
			if (r->repl == NULL) {
				rule_free(r);
				goto nomem;
			}
			if (tail) {
				r->target[tl - 3] = '\0';
				r->prefix = glob_compile(r->target, GLOB_PATH, &why);
				r->target[tl - 3] = '/';
				if (r->prefix == NULL) {
					rule_free(r);
					goto nomem;
				}
			}
		}
		if (push_rule(c, r) < 0) {
			rule_free(r);
			goto nomem;
		}
		if (follow_links(c, r, w[i].text) < 0)
			goto nomem;
	}
	free(repl);
	if (!any && (ops & ~used) != 0) {
		/* No target takes it, so the first one is as good as any to name. */
		unsigned badop = ops & ~used;
		badop &= -badop;
		return fail(c, origin, line, w[2].col, "op '%s' does not apply to '%s'",
			    ward_op_name(badop), w[2].text);
	}
	return 0;
nomem:
	free(repl);
	return -ENOMEM;
}

static int parse_line(struct pctx *c, const char *origin, int line,
		      struct word *w, int n, const char *basedir)
{
	if (strcmp(w[0].text, "include") == 0) {
		char exp[PATH_MAX], path[PATH_MAX];
		const char *bad;
		if (n != 2)
			return fail(c, origin, line, w[0].col, "'include' takes one path");
		/*
		 * A project policy is trusted by the hash of its one file; a file
		 * it included could change (the agent may write in the project)
		 * without untrusting it.
		 */
		if (c->layer == WARD_LAYER_PROJECT)
			return fail(c, origin, line, w[0].col,
				    "'include' is not allowed in a project policy (trust covers one file): '%s'",
				    w[1].text);
		int rc = expand_vars(&c->p->vars, w[1].text, exp, sizeof(exp), false, &bad);
		if (rc == -ENAMETOOLONG)
			return fail(c, origin, line, w[1].col, "path too long: '%s'", w[1].text);
		if (rc < 0)
			return fail(c, origin, line, w[1].col, "unknown variable in '%s'",
				    w[1].text);
		if (exp[0] == '\0')
			return fail(c, origin, line, w[1].col, "empty include path");
		if (ward_path_normalize(basedir, exp, path, sizeof(path)) < 0)
			return fail(c, origin, line, w[1].col, "path too long: '%s'", w[1].text);
		return parse_file(c, path, origin, line, w[1].col);
	}
	if (strcmp(w[0].text, "set") == 0)
		return parse_set(c, origin, line, w, n);
	return parse_rule(c, origin, line, w, n);
}

static int parse_text(struct pctx *c, const char *origin, const char *text,
		      size_t len, const char *basedir, int line_base)
{
	struct word *words = malloc(sizeof(*words) * MAX_WORDS);
	char *buf = malloc(2 * MAX_LINE + 2);
	const char *p = text, *end = text + len;
	int line = line_base, rc = 0;

	if (words == NULL || buf == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	while (p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		const char *nul = memchr(p, '\0', n);
		const char *why;
		int col, nw;

		line++;
		if (nul != NULL) {
			rc = fail(c, origin, line, (int)(nul - p) + 1, "NUL byte in policy text");
			goto out;
		}
		if (n > MAX_LINE) {
			rc = fail(c, origin, line, MAX_LINE + 1, "line longer than %d bytes",
				  MAX_LINE);
			goto out;
		}
		nw = lex_line(p, n, buf, words, &col, &why);
		if (nw < 0) {
			rc = fail(c, origin, line, col, "%s", why);
			goto out;
		}
		if (nw > 0 && (rc = parse_line(c, origin, line, words, nw, basedir)) < 0)
			goto out;
		p += n + 1;
	}
out:
	free(words);
	free(buf);
	return rc;
}

/* Add the pending rules to the policy, with a layer record. */
static int commit(struct pctx *c, const char *origin)
{
	struct ward_policy *p = c->p;
	struct layer_info *li;

	if (p->nrules + c->npending > p->caprules) {
		size_t cap = p->caprules ? p->caprules : 64;
		while (cap < p->nrules + c->npending)
			cap *= 2;
		struct ward_rule **n = realloc(p->rules, cap * sizeof(*n));
		if (n == NULL)
			return -ENOMEM;
		p->rules = n;
		p->caprules = cap;
	}
	li = realloc(p->layers, (p->nlayers + 1) * sizeof(*li));
	if (li == NULL)
		return -ENOMEM;
	p->layers = li;
	li[p->nlayers] = (struct layer_info){ c->layer, strdup(origin), p->nrules };
	if (li[p->nlayers].origin == NULL)
		return -ENOMEM;
	p->nlayers++;
	if (c->nfiles > 0) {
		char **files = realloc(p->files, (p->nfiles + c->nfiles) * sizeof(*files));
		if (files == NULL)
			return -ENOMEM;
		p->files = files;
		for (size_t i = 0; i < c->nfiles; i++)
			p->files[p->nfiles++] = c->files[i];
		c->nfiles = 0;
	}
	for (size_t i = 0; i < c->npending; i++) {
		struct ward_rule *r = c->pending[i];
		r->index = (uint32_t)p->nrules;
		p->rules[p->nrules++] = r;
		c->pending[i] = NULL;
		if (index_add(p, r->index) < 0)
			return -ENOMEM;
	}
	if (c->link_cuts > 0) {
		if (p->link_cut == NULL) {
			p->link_cut = c->link_cut;
			c->link_cut = NULL;
		}
		p->link_cuts += c->link_cuts;
	}
	if (c->has_undecided && !p->undecided_forced)
		p->undecided = c->undecided;
	if (c->has_timeout)
		p->ask_timeout = c->timeout;
	if (c->has_age)
		p->log_max_age = c->age;
	if (c->has_bytes)
		p->log_max_bytes = c->bytes;
	p->generation++;
	return 0;
}

static void pctx_done(struct pctx *c)
{
	for (size_t i = 0; i < c->npending; i++)
		rule_free(c->pending[i]);
	free(c->pending);
	for (size_t i = 0; i < c->nfiles; i++)
		free(c->files[i]);
	free(c->files);
	free(c->link_cut);
}

int policy_parse(struct ward_policy *p, enum ward_layer layer,
		 const char *origin, const char *text, size_t len,
		 const char *basedir, struct ward_error *err)
{
	struct pctx c = { .p = p, .layer = layer, .err = err };
	int rc, line_base = 0;
	char cwd[PATH_MAX];

	if (basedir == NULL) {
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			strcpy(cwd, "/");
		basedir = cwd;
	}
	if (layer == WARD_LAYER_RULE)
		line_base = (int)p->nrule_lines; /* "--rule:N" */
	if (text == NULL)
		rc = parse_file(&c, origin, NULL, 0, 0);
	else
		rc = parse_text(&c, origin, text, len, basedir, line_base);
	if (rc == 0)
		rc = commit(&c, origin);
	if (rc == -ENOMEM && err != NULL)
		snprintf(err->msg, sizeof(err->msg), "%s: out of memory", origin);
	pctx_done(&c);
	return rc;
}
