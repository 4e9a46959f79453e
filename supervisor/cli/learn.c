/*
 * learn.c - ward learn: a policy that allows what a recorded session did.
 *
 * Each path the session used becomes a rule for the ops done on it:
 * under the project as $PROJECT/..., under the session's scratch space as
 * $SESSION/..., under $TMPDIR and home as $TMPDIR/... and ~/....  Where the
 * session read many files of one system tree the rule is the tree
 * ("/usr/" and everything below); where it used many paths below one
 * directory of the project, of home or of $TMPDIR, that directory's tree
 * (~/.cache/pip and below); everything else
 * is exact.  Programs it ran are exec rules, always exact; connections are
 * connect rules by host name when the log has one.  A path other rules of
 * the default profile refuse (a credential) is never folded into a wider
 * rule, and its rule says so.
 *
 * What the session was refused stays refused: it is listed as comments
 * for the person to decide.  In shadow mode a call a rule would have
 * denied counts as refused; one that no rule decided (or that would have
 * been asked) is allowed, since finding those is what shadow mode is for.
 */
#include "report.h"
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
	"usage: ward learn [ID|LOG] [--project DIR]\n"
	"\n"
	"Write to stdout a policy that allows what the session did and no more than\n"
	"needed: paths as rules ($PROJECT, ~ and $TMPDIR relative), system trees\n"
	"folded where the session read many files there, programs as exec rules,\n"
	"connections as connect rules.  What the session was refused is listed as\n"
	"comments, for you to decide.  Write a policy for a new agent with:\n"
	"\n"
	"  ward run --mode shadow -- AGENT...     (nothing is refused, all is logged)\n"
	"  ward learn >agent.policy               (read it, then check it)\n"
	"  ward run --profile strict -p agent.policy -- AGENT...\n"
	"\n"
	"  --project DIR   the project its paths are relative to (default: the session's)\n";

/* Paths one directory may hold before the rule is the directory (its tree). */
#define FOLD 8

enum root { R_ABS, R_PROJECT, R_SESSION, R_TMP, R_HOME, R_SYSTEM };

struct rule {
	UT_hash_handle hh;
	uint16_t ops;
	unsigned long events, paths;
	enum root root;
	int order; /* the section it is written in */
	char *example, *note;
	const struct pent *last; /* the path counted last, to count paths once */
	char word[]; /* the target, as the policy writes it */
};

struct learn {
	const struct summary *s;
	struct ward_policy *def; /* the default profile: what it refuses is noted */
	char project[PATH_MAX], session_dir[PATH_MAX], tmp[PATH_MAX], home[PATH_MAX];
	struct rule *rules;
	/* How many paths each folding directory holds, by op. */
	struct fold {
		UT_hash_handle hh;
		unsigned long n[NOPS];
		char key[];
	} *folds;
};

static void *xmalloc0(size_t n)
{
	void *p = calloc(1, n);
	if (p == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	return p;
}

static bool under(const char *path, const char *dir, size_t *n)
{
	*n = strlen(dir);
	return *n > 1 && strncmp(path, dir, *n) == 0 && (path[*n] == '/' || path[*n] == '\0');
}

static const char *const system_trees[] = { "/usr", "/lib", "/lib32", "/lib64", "/bin", "/sbin",
					    "/etc", "/opt", "/proc", "/sys", "/var/lib", "/run" };

/*
 * Where path lies: its root, the length of the root's prefix in path, and
 * the directory its rule folds to when FOLD paths lie there ("" when it
 * never folds).
 */
static enum root place(const struct learn *l, const char *path, size_t *plen, char *fold,
		       size_t flen)
{
	size_t n;
	fold[0] = '\0';
	*plen = 0;
	/* The scratch space lies in $TMPDIR and the project may lie in home: the narrowest first. */
	if (l->session_dir[0] && under(path, l->session_dir, &n)) {
		*plen = n;
		return R_SESSION;
	}
	enum root r = R_ABS;
	if (l->project[0] && under(path, l->project, &n))
		r = R_PROJECT;
	else if (l->tmp[0] && under(path, l->tmp, &n))
		r = R_TMP;
	else if (l->home[0] && under(path, l->home, &n))
		r = R_HOME;
	if (r != R_ABS) {
		*plen = n;
		/* The first component below the root; files right in it fold to "ROOT/" and a star. */
		const char *rest = path + n + (path[n] == '/');
		const char *sl = strchr(rest, '/');
		if (sl != NULL)
			snprintf(fold, flen, "%.*s", (int)(sl - path), path);
		else
			snprintf(fold, flen, "%.*s/*", (int)n, path);
		return r;
	}
	for (size_t i = 0; i < sizeof(system_trees) / sizeof(system_trees[0]); i++)
		if (under(path, system_trees[i], &n)) {
			snprintf(fold, flen, "%s", system_trees[i]);
			return R_SYSTEM;
		}
	return R_ABS;
}

/* Another process's /proc/PID: the one on the next run has another number. */
static bool proc_pid(const char *path, size_t *skip)
{
	if (strncmp(path, "/proc/", 6) != 0)
		return false;
	size_t i = 6;
	while (path[i] >= '0' && path[i] <= '9')
		i++;
	if (i == 6 || (path[i] != '/' && path[i] != '\0'))
		return false;
	*skip = i;
	return true;
}

/*
 * The policy word for path: a variable for its root, the rest quoted, and
 * glob (unquoted) the given suffix.  A byte a rule cannot hold (a control
 * character; a "\xNN" the log wrote for a byte that is not UTF-8) becomes
 * '?', which matches it and any other one character.
 */
static int word_for(const struct learn *l, const char *path, const char *suffix, char *out,
		    size_t len, bool *widened)
{
	char fold[PATH_MAX], lit[PATH_MAX], q[3 * PATH_MAX];
	size_t plen, skip;
	enum root r = place(l, path, &plen, fold, sizeof(fold));
	const char *prefix = r == R_PROJECT ? "$PROJECT" : r == R_SESSION ? "$SESSION"
						: r == R_TMP ? "$TMPDIR" : r == R_HOME ? "~" : "";
	const char *rest = r == R_ABS || r == R_SYSTEM ? path : path + plen;
	size_t o = (size_t)snprintf(out, len, "%s", prefix);

	if (r == R_SYSTEM && proc_pid(path, &skip)) {
		o += (size_t)snprintf(out + o, len - o, "/proc/*");
		rest = path + skip;
	}
	/* Pieces between bytes a rule cannot hold, each quoted. */
	while (*rest != '\0') {
		size_t k = 0;
		while (rest[k] != '\0' && (unsigned char)rest[k] >= 0x20 && rest[k] != 0x7f &&
		       !(rest[k] == '\\' && rest[k + 1] == 'x'))
			k++;
		if (k > 0) {
			snprintf(lit, sizeof(lit), "%.*s", (int)k, rest);
			if (policy_quote(q, sizeof(q), lit, false) < 0)
				return -ENAMETOOLONG;
			/* Quoted only when it must be: a blank, a quote, an escaped character. */
			bool bare = strcmp(q, lit) == 0 && strpbrk(lit, " \t\"#") == NULL;
			o += (size_t)snprintf(out + o, len - o, bare ? "%s" : "\"%s\"", q);
			rest += k;
		}
		if (*rest == '\0')
			break;
		*widened = true;
		o += (size_t)snprintf(out + o, len - o, "?");
		rest += rest[0] == '\\' && rest[1] == 'x' && rest[2] && rest[3] ? 4 : 1;
	}
	if (rest == path && *prefix == '\0' && o == 0)
		return -EINVAL;
	o += (size_t)snprintf(out + o, len - o, "%s", suffix);
	return o < len ? 0 : -ENAMETOOLONG;
}

static struct rule *rule_get(struct learn *l, const char *word, enum root root, int order)
{
	struct rule *r;
	size_t n = strlen(word);
	HASH_FIND(hh, l->rules, word, n, r);
	if (r == NULL) {
		r = xmalloc0(sizeof(*r) + n + 1);
		memcpy(r->word, word, n + 1);
		r->root = root;
		r->order = order;
		HASH_ADD_KEYPTR(hh, l->rules, r->word, n, r);
	}
	return r;
}

/* What the default profile says of op on path, when it refuses or asks: "denied by X". */
static const char *refused_by_default(const struct learn *l, unsigned op, const char *path,
				      char *buf, size_t len)
{
	struct ward_verdict v;
	if (l->def == NULL || path[0] != '/' ||
	    ward_decide_path(l->def, (enum ward_op)op, path, &v) < 0 || v.undecided)
		return NULL;
	if (v.action != WARD_DENY && v.action != WARD_DENY_HARD && v.action != WARD_ASK)
		return NULL;
	snprintf(buf, len, "the default profile %s %s here (%s)",
		 v.action == WARD_ASK ? "asks before" : "refuses", ward_op_name((enum ward_op)op),
		 ward_rule_location(v.rule));
	return buf;
}

static int section_of(unsigned ops)
{
	if (ops & WARD_OP_EXEC)
		return 3;
	if (ops & (WARD_OP_WRITE | WARD_OP_CREATE | WARD_OP_DELETE))
		return 2;
	return 1; /* read, stat */
}

/* The count of paths below a folding directory; made when add. */
static struct fold *fold_get(struct learn *l, const char *key, bool add)
{
	struct fold *f;
	size_t n = strlen(key);
	HASH_FIND(hh, l->folds, key, n, f);
	if (f == NULL && add) {
		f = xmalloc0(sizeof(*f) + n + 1);
		memcpy(f->key, key, n + 1);
		HASH_ADD_KEYPTR(hh, l->folds, f->key, n, f);
	}
	return f;
}

static unsigned long fold_n(struct learn *l, const char *key, int op)
{
	struct fold *f = fold_get(l, key, false);
	return f ? f->n[op] : 0;
}

/* The ops of p to allow: done, and not refused by a rule (shadow mode's would-deny). */
static uint16_t learn_ops(const struct pent *p)
{
	if (p->did & DID_REWRITTEN)
		return 0; /* a rewrite is the policy's doing: said as a comment */
	return (uint16_t)(p->ops_done & ~p->ops_refused & WARD_OPS_PATH);
}

static void add_path(struct learn *l, const struct pent *p, int op)
{
	char fold[PATH_MAX], word[4 * PATH_MAX], note[512];
	size_t plen;
	unsigned opbit = 1u << op;
	bool widened = false;
	enum root root = place(l, p->path, &plen, fold, sizeof(fold));
	const char *refused = refused_by_default(l, opbit, p->path, note, sizeof(note));
	/*
	 * Folded: a system tree read from much, a directory of the project,
	 * home or $TMPDIR used much; never a program, nor what the default
	 * profile refuses.
	 */
	bool folds = fold[0] && refused == NULL && opbit != WARD_OP_EXEC &&
		     fold_n(l, fold, op) >= FOLD &&
		     (root != R_SYSTEM || opbit == WARD_OP_READ || opbit == WARD_OP_STAT);
	int rc;
	if (folds) {
		size_t fl = strlen(fold);
		bool files = fl >= 2 && strcmp(fold + fl - 2, "/*") == 0;
		if (files)
			fold[fl - 2] = '\0';
		rc = word_for(l, fold, files ? "/*" : "/**", word, sizeof(word), &widened);
	} else {
		rc = word_for(l, p->path, "", word, sizeof(word), &widened);
	}
	if (rc < 0) {
		printf("# not learned (its path cannot be written as a rule): %s %s\n",
		       ward_op_name((enum ward_op)opbit), p->path);
		return;
	}
	struct rule *r = rule_get(l, word, root, section_of(opbit));
	/* Made once, written at the next run: a file the session created is one it writes. */
	r->ops |= (uint16_t)(opbit | (opbit == WARD_OP_CREATE ? WARD_OP_WRITE : 0));
	if (section_of(r->ops) > r->order)
		r->order = section_of(r->ops);
	r->events += p->n[op];
	if (r->last != p)
		r->paths++;
	r->last = p;
	if (r->example == NULL && folds)
		r->example = strdup(p->path);
	if (refused != NULL && r->note == NULL)
		r->note = strdup(refused);
	if (widened && r->note == NULL)
		r->note = strdup("'?' stands for a byte a rule cannot hold");
}

static int rule_cmp(const void *x, const void *y)
{
	const struct rule *a = *(struct rule *const *)x, *b = *(struct rule *const *)y;
	if (a->order != b->order)
		return a->order - b->order;
	if (a->root != b->root)
		return (int)a->root - (int)b->root;
	return strcmp(a->word, b->word);
}

static const char *ops_text(uint16_t ops, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < NOPS; i++)
		if (ops & (1u << i))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? "," : "",
					      ward_op_name((enum ward_op)(1u << i)));
	return buf;
}

static void print_rules(struct learn *l)
{
	static const char *const sections[] = { "", "Reading", "Writing, creating, deleting",
						"Programs" };
	size_t n = HASH_COUNT(l->rules), k = 0;
	struct rule **a = xmalloc0((n ? n : 1) * sizeof(*a)), *r, *t;
	char ops[96], safe[4 * PATH_MAX];
	int last = 0;

	HASH_ITER(hh, l->rules, r, t)
		a[k++] = r;
	qsort(a, k, sizeof(*a), rule_cmp);
	for (size_t i = 0; i < k; i++) {
		r = a[i];
		if (r->order != last) {
			printf("\n# %s\n", sections[r->order]);
			last = r->order;
		}
		printf("allow %-18s %s    # %lu event%s", ops_text(r->ops, ops, sizeof(ops)), r->word,
		       r->events, r->events == 1 ? "" : "s");
		if (r->paths > 1)
			printf(", %lu paths", r->paths);
		if (r->example != NULL)
			printf(", e.g. %s", term_safe(r->example, safe, sizeof(safe)));
		if (r->note != NULL)
			printf("; %s", r->note);
		putchar('\n');
	}
	HASH_ITER(hh, l->rules, r, t) {
		HASH_DEL(l->rules, r);
		free(r->example);
		free(r->note);
		free(r);
	}
	free(a);
}

static void print_net(const struct learn *l)
{
	size_t n;
	struct netent **a = summary_net_sorted(l->s, &n);
	char q[3 * PATH_MAX];
	bool head = false;

	for (size_t i = 0; i < n; i++) {
		const struct netent *e = a[i];
		uint32_t ok = e->allowed > e->would_rule ? e->allowed - e->would_rule : 0;
		if (ok == 0 || strcmp(e->target, "none") == 0 || e->target[0] == '?')
			continue;
		net_quote(e->target, q, sizeof(q));
		if (!head)
			printf("\n# Network\n");
		head = true;
		printf("allow %-18s \"%s\"    # %u event%s", e->event, q, ok, ok == 1 ? "" : "s");
		if (e->host != NULL && e->addr != NULL)
			printf(", %s", e->addr);
		else if (e->port != LEV_NONE)
			printf(" (no host name in the log: the address)");
		putchar('\n');
	}
	free(a);
}

/* What was refused, as rules commented out. */
static void print_refused(const struct learn *l)
{
	size_t n;
	struct refusal **a = summary_refusals_sorted(l->s, &n);
	char rule[4 * PATH_MAX], safe[4 * PATH_MAX];
	bool head = false;

	for (size_t i = 0; i < n; i++) {
		const struct refusal *r = a[i];
		const char *why = NULL;
		/* Refused, or in shadow mode would have been by a rule (not left undecided). */
		bool refused = r->denied || (r->would && !(r->by && strcmp(r->by, "undecided") == 0));
		if (!refused)
			continue;
		if (!head)
			printf("\n# Refused in the session: not allowed here.  Each is yours to decide;"
			       "\n# to allow one, remove its '#'.\n");
		head = true;
		const char *allow = refusal_rule(r, rule, sizeof(rule), &why);
		/* Every string from the log escaped: a newline in one would start a line of policy. */
		char how[1024];
		snprintf(how, sizeof(how), "%s by %s", r->err ? r->err : "refused",
			 r->rule ? r->rule : r->by ? r->by : "?");
		printf("# %s %s %s: ", r->would ? "would be denied" : "denied",
		       r->op ? r->op : r->event, term_safe(r->target ? r->target : "?", safe, sizeof(safe)));
		printf("%s, %u time%s\n", term_safe(how, safe, sizeof(safe)), r->count,
		       r->count == 1 ? "" : "s");
		if (allow != NULL)
			printf("#%s\n", allow);
		else if (why != NULL) {
			printf("#   (%s)\n", why);
		}
	}
	free(a);
}

int cmd_learn(int argc, char **argv)
{
	enum { OPT_PROJECT_DIR = 0x300 };
	static const struct option longopts[] = {
		{ "project", required_argument, 0, OPT_PROJECT_DIR },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	const char *project = NULL;
	char path[PATH_MAX], t[32];
	int opt;

	argv[0] = "ward";
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		if (opt == 'h') {
			fputs(help, stdout);
			return 0;
		}
		if (opt == OPT_PROJECT_DIR) {
			project = optarg;
			continue;
		}
		fputs(help, stderr);
		return WARD_EXIT_USAGE;
	}
	if (argc - optind > 1) {
		fprintf(stderr, "ward: learn takes one session\n%s", help);
		return WARD_EXIT_USAGE;
	}
	if (sessions_find(optind < argc ? argv[optind] : NULL, path, sizeof(path)) < 0)
		return 1;
	struct summary s;
	int rc = summary_read(&s, path, session_running(path));
	if (rc < 0) {
		fprintf(stderr, "ward: cannot read %s: %s\n", path, strerror(-rc));
		summary_free(&s);
		return 1;
	}

	struct learn l = { .s = &s };
	const char *proj = project ? project : s.project;
	if (proj != NULL && realpath(proj, l.project) == NULL)
		snprintf(l.project, sizeof(l.project), "%s", proj);
	const char *tmp = getenv("TMPDIR");
	if (tmp == NULL || tmp[0] != '/')
		tmp = "/tmp";
	if (realpath(tmp, l.tmp) == NULL)
		snprintf(l.tmp, sizeof(l.tmp), "%s", tmp);
	snprintf(l.home, sizeof(l.home), "%s", s.home);
	if (s.id != NULL)
		snprintf(l.session_dir, sizeof(l.session_dir), "%s/ward-%u/%s", l.tmp,
			 (unsigned)getuid(), s.id);
	struct ward_vars vars;
	struct ward_error err;
	if (ward_vars_from_env(&vars, l.project[0] ? l.project : "/", s.id, &err) == 0 &&
	    (l.def = ward_policy_new(&vars)) != NULL &&
	    ward_policy_add_profile(l.def, "default", &err) < 0) {
		ward_policy_free(l.def);
		l.def = NULL;
	}

	char safe[4 * 4096], cmd[4096];
	/* Nothing from the log reaches the policy raw: a newline would start a line of it. */
	char f1[256], f2[256], f3[256];
	printf("# A policy learned by ward learn from session %s",
	       safe_q(s.id ? s.id : "?", f1, sizeof(f1)));
	if (s.argv != NULL) {
		char line[80];
		argv_line(s.argv, cmd, sizeof(cmd));
		if (strlen(cmd) >= sizeof(line)) {
			size_t k = sizeof(line) - 4;
			while (k > 0 && ((unsigned char)cmd[k] & 0xC0) == 0x80)
				k--;
			snprintf(line, sizeof(line), "%.*s...", (int)k, cmd);
		} else {
			snprintf(line, sizeof(line), "%s", cmd);
		}
		printf(" (%s)", line);
	}
	printf(",\n# started %s UTC, %s mode, profile %s; log %s.\n",
	       time_text(s.start, t, sizeof(t)), safe_q(s.mode ? s.mode : "?", f2, sizeof(f2)),
	       safe_q(s.profile ? s.profile : "?", f3, sizeof(f3)), safe_q(path, safe, sizeof(safe)));
	if (l.project[0])
		printf("# $PROJECT was %s.\n", safe_q(l.project, safe, sizeof(safe)));
	printf("# It allows what the session did; read it before you use it:\n"
	       "#   ward check -p FILE\n"
	       "#   ward run --profile strict -p FILE -- COMMAND...\n");
	if (s.state != ST_ENDED)
		printf("# The session %s: this is what it did until its last event.\n",
		       s.state == ST_RUNNING ? "is still running" : "has no recorded end");
	if (s.bad > 0)
		printf("# %lu malformed line%s of the log were skipped.\n", s.bad,
		       s.bad == 1 ? "" : "s");

	/* How many paths lie below each folding directory, by op; then the rules. */
	size_t n;
	struct pent **a = summary_paths_sorted(&s, NULL, NULL, &n);
	for (size_t i = 0; i < n; i++) {
		char fold[PATH_MAX];
		size_t plen;
		uint16_t ops = learn_ops(a[i]);
		place(&l, a[i]->path, &plen, fold, sizeof(fold));
		if (fold[0] == '\0')
			continue;
		for (int op = 0; op < NOPS; op++)
			if (ops & (1u << op))
				fold_get(&l, fold, true)->n[op]++;
	}
	for (size_t i = 0; i < n; i++) {
		uint16_t ops = learn_ops(a[i]);
		for (int op = 0; op < NOPS; op++)
			if (ops & (1u << op))
				add_path(&l, a[i], op);
	}
	print_rules(&l);
	print_net(&l);
	/* Rewritten calls went where a rewrite rule sent them: that rule, not an allow, does it. */
	bool head = false;
	for (size_t i = 0; i < n; i++) {
		if (!(a[i]->did & DID_REWRITTEN))
			continue;
		if (!head)
			printf("\n# Rewritten in the session (keep the rewrite rule that did it):\n");
		head = true;
		/* Escaped, both: a newline in either would start a line of policy. */
		char to[4 * 4096];
		printf("#   %s -> %s\n", term_safe(a[i]->path, safe, sizeof(safe)),
		       term_safe(a[i]->to ? a[i]->to : "?", to, sizeof(to)));
	}
	free(a);
	print_refused(&l);

	struct fold *f, *ft;
	HASH_ITER(hh, l.folds, f, ft) {
		HASH_DEL(l.folds, f);
		free(f);
	}
	ward_policy_free(l.def);
	summary_free(&s);
	return fflush(stdout) == 0 ? 0 : 1;
}
