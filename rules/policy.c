/*
 * policy.c - the policy object: variables, layers, settings, and the
 * text forms used by ward check and ward explain.
 */
#define _GNU_SOURCE
#include "policy_int.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int setvar(char *dst, size_t len, struct ward_error *err, const char *what,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

static int setvar(char *dst, size_t len, struct ward_error *err, const char *what,
		  const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(dst, len, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= len) {
		if (err)
			snprintf(err->msg, sizeof(err->msg), "%s is too long", what);
		return -ENAMETOOLONG;
	}
	return 0;
}

/* An environment variable that holds an absolute path, or NULL. */
static const char *abs_env(const char *name)
{
	const char *v = getenv(name);
	return v != NULL && v[0] == '/' ? v : NULL;
}

int ward_vars_from_env(struct ward_vars *v, const char *project_dir,
		       const char *session_id, struct ward_error *err)
{
	uid_t uid = getuid();
	struct passwd *pw = getpwuid(uid);
	const char *home = abs_env("HOME"), *s;
	char cwd[PATH_MAX], real[PATH_MAX];
	int rc = 0;

	memset(v, 0, sizeof(*v));
	if (home == NULL)
		home = pw != NULL && pw->pw_dir[0] == '/' ? pw->pw_dir : "/";
	rc |= setvar(v->home, sizeof(v->home), err, "HOME", "%s", home);
	if (project_dir == NULL) {
		if (getcwd(cwd, sizeof(cwd)) == NULL) {
			if (err)
				snprintf(err->msg, sizeof(err->msg),
					 "cannot get the current directory: %s", strerror(errno));
			return -errno;
		}
		project_dir = cwd;
	}
	if (realpath(project_dir, real) == NULL) {
		if (err)
			snprintf(err->msg, sizeof(err->msg), "project directory '%s': %s",
				 project_dir, strerror(errno));
		return -errno;
	}
	rc |= setvar(v->project, sizeof(v->project), err, "PROJECT", "%s", real);
	s = abs_env("TMPDIR");
	rc |= setvar(v->tmpdir, sizeof(v->tmpdir), err, "TMPDIR", "%s", s ? s : "/tmp");
	rc |= setvar(v->uid, sizeof(v->uid), err, "UID", "%u", (unsigned)uid);
	s = pw != NULL ? pw->pw_name : getenv("USER");
	rc |= setvar(v->user, sizeof(v->user), err, "USER", "%s", s ? s : v->uid);
	s = abs_env("XDG_RUNTIME_DIR");
	if (s != NULL)
		rc |= setvar(v->xdg_runtime_dir, sizeof(v->xdg_runtime_dir), err,
			     "XDG_RUNTIME_DIR", "%s", s);
	else
		rc |= setvar(v->xdg_runtime_dir, sizeof(v->xdg_runtime_dir), err,
			     "XDG_RUNTIME_DIR", "/run/user/%u", (unsigned)uid);
	s = abs_env("XDG_CONFIG_HOME");
	if (s != NULL)
		rc |= setvar(v->xdg_config_home, sizeof(v->xdg_config_home), err,
			     "XDG_CONFIG_HOME", "%s", s);
	else
		rc |= setvar(v->xdg_config_home, sizeof(v->xdg_config_home), err,
			     "XDG_CONFIG_HOME", "%s/.config", strcmp(v->home, "/") ? v->home : "");
	s = abs_env("XDG_STATE_HOME");
	if (s != NULL)
		rc |= setvar(v->xdg_state_home, sizeof(v->xdg_state_home), err,
			     "XDG_STATE_HOME", "%s", s);
	else
		rc |= setvar(v->xdg_state_home, sizeof(v->xdg_state_home), err,
			     "XDG_STATE_HOME", "%s/.local/state", strcmp(v->home, "/") ? v->home : "");
	rc |= setvar(v->session, sizeof(v->session), err, "SESSION", "%s/ward-%s/%s",
		     v->tmpdir, v->uid, session_id ? session_id : "session");
	return rc ? -ENAMETOOLONG : 0;
}

static int add_builtin(struct ward_policy *p, const char *name, enum ward_layer layer,
		       struct ward_error *err);

/*
 * Every session's scratch directory lies below the parent of $SESSION:
 * links.c does not read there.  A real path ($TMPDIR may lead through a
 * link); "" when there is none to tell.
 */
static void scratch_parent(struct ward_policy *p)
{
	char parent[PATH_MAX];
	const char *session = p->vars.session, *slash = strrchr(session, '/');
	size_t n = slash != NULL ? (size_t)(slash - session) : 0;

	p->link_scratch[0] = '\0';
	if (n <= 1 || n >= sizeof(parent))
		return;
	memcpy(parent, session, n);
	parent[n] = '\0';
	if (ward_path_canonical(parent, p->link_scratch, sizeof(p->link_scratch)) < 0 ||
	    strcmp(p->link_scratch, "/") == 0)
		p->link_scratch[0] = '\0';
}

struct ward_policy *ward_policy_new(const struct ward_vars *vars)
{
	return ward_policy_open(vars, 0);
}

struct ward_policy *ward_policy_open(const struct ward_vars *vars, unsigned flags)
{
	struct ward_policy *p = calloc(1, sizeof(*p));
	struct ward_error err;

	if (p == NULL)
		return NULL;
	p->vars = *vars;
	p->follow_links = flags & WARD_POLICY_FOLLOW_LINKS;
	if (p->follow_links)
		scratch_parent(p);
	p->undecided = WARD_UNDECIDED_ASK;
	p->ask_timeout = 300;
	p->log_max_age = 30 * 86400;
	p->log_max_bytes = 1ull << 30;
	p->root = calloc(1, sizeof(*p->root));
	if (p->root == NULL)
		goto fail;
	if (add_builtin(p, "self", WARD_LAYER_SELF, &err) < 0)
		goto fail;
	return p;
fail:
	ward_policy_free(p);
	return NULL;
}

const char *ward_policy_link_scan_cut(const struct ward_policy *p, size_t *count)
{
	if (count != NULL)
		*count = p->link_cuts;
	return p->link_cut;
}

void ward_policy_free(struct ward_policy *p)
{
	if (p == NULL)
		return;
	for (size_t i = 0; i < p->nrules; i++)
		rule_free(p->rules[i]);
	free(p->rules);
	for (size_t i = 0; i < p->nlayers; i++)
		free(p->layers[i].origin);
	free(p->layers);
	for (size_t i = 0; i < p->nfiles; i++)
		free(p->files[i]);
	free(p->link_cut);
	free(p->files);
	for (size_t i = 0; i < p->nenv; i++) {
		free(p->env[i].name);
		free(p->env[i].value);
		free(p->env[i].loc);
	}
	free(p->env);
	index_free(p->root);
	index_free(p->memfd);
	index_free(p->net);
	free(p);
}

const char *const *ward_profile_names(void)
{
	static const char *names[32];
	size_t n = 0;

	if (names[0] == NULL)
		for (const struct builtin_profile *b = ward_builtin_profiles;
		     b->name != NULL && n + 1 < sizeof(names) / sizeof(names[0]); b++)
			if (strcmp(b->name, "self") != 0)
				names[n++] = b->name;
	return names;
}

static const struct builtin_profile *builtin(const char *name)
{
	for (const struct builtin_profile *b = ward_builtin_profiles; b->name; b++)
		if (strcmp(b->name, name) == 0)
			return b;
	return NULL;
}

const char *ward_profile_text(const char *name)
{
	const struct builtin_profile *b = builtin(name);
	return b != NULL ? b->text : NULL;
}

const char *ward_profile_base(const char *name)
{
	static char bases[32][64];
	const struct builtin_profile *b = builtin(name);

	if (b == NULL || strcmp(name, "self") == 0)
		return NULL;
	/*
	 * The profile's `base NAME` line (parse_base checks it when the
	 * profile is loaded): its first word "base", at the start of a line
	 * but for blanks.
	 */
	for (const char *l = b->text; *l; l += strcspn(l, "\n"), l += *l == '\n') {
		l += strspn(l, " \t");
		if (strncmp(l, "base", 4) != 0 || (l[4] != ' ' && l[4] != '\t'))
			continue;
		const char *w = l + 4 + strspn(l + 4, " \t");
		size_t n = strcspn(w, " \t\r\n#");
		size_t i = (size_t)(b - ward_builtin_profiles);
		if (n == 0 || n >= sizeof(bases[0]) || i >= sizeof(bases) / sizeof(bases[0]))
			return NULL;
		memcpy(bases[i], w, n);
		bases[i][n] = '\0';
		return bases[i];
	}
	return NULL;
}

int ward_profile_summary(const char *name, char *out, size_t len)
{
	const struct builtin_profile *b = builtin(name);
	size_t o = 0;

	if (b == NULL || strcmp(name, "self") == 0 || len == 0)
		return -ENOENT;
	out[0] = '\0';
	for (const char *l = b->text; l[0] == '#'; l += strcspn(l, "\n"), l += *l == '\n') {
		const char *t = l + 1 + (l[1] == ' ');
		size_t n = strcspn(t, "\n");
		int w = snprintf(out + o, len - o, "%s%.*s", o ? " " : "", (int)n, t);
		if (w < 0 || (size_t)w >= len - o)
			break;
		o += (size_t)w;
	}
	return 0;
}

int ward_profiles_resolve(const char *list, const char **out, size_t max, size_t *n,
			  struct ward_error *err)
{
	const char *whole = NULL, *base = NULL;
	char name[64];
	size_t k = 1; /* out[0] is the whole profile's place */

	*n = 0;
	if (max < 2) {
		snprintf(err->msg, sizeof(err->msg), "no room for profiles");
		return -EINVAL;
	}
	for (const char *c = list;; c++) {
		size_t len = strcspn(c, ",");
		const struct builtin_profile *b =
			len > 0 && len < sizeof(name) ? (memcpy(name, c, len), name[len] = '\0',
							 builtin(name)) : NULL;
		if (len == 0) {
			snprintf(err->msg, sizeof(err->msg), "an empty profile name in '%s'", list);
			return -EINVAL;
		}
		if (b == NULL || strcmp(b->name, "self") == 0) {
			snprintf(err->msg, sizeof(err->msg), "unknown profile '%.*s'", (int)len, c);
			return -ENOENT;
		}
		const char *on = ward_profile_base(b->name);
		if (on == NULL) {
			if (whole != NULL && strcmp(whole, b->name) != 0) {
				snprintf(err->msg, sizeof(err->msg),
					 "%s and %s are both whole profiles: name one, and the "
					 "profiles to layer on it", whole, b->name);
				return -EINVAL;
			}
			whole = b->name;
		} else {
			if (base != NULL && strcmp(base, on) != 0) {
				snprintf(err->msg, sizeof(err->msg),
					 "profile %s is layered on %s, another on %s: name the whole "
					 "profile to use", b->name, on, base);
				return -EINVAL;
			}
			base = base != NULL ? base : on;
			bool seen = false;
			for (size_t i = 1; i < k; i++)
				seen |= strcmp(out[i], b->name) == 0;
			if (!seen) {
				if (k >= max) {
					snprintf(err->msg, sizeof(err->msg), "too many profiles");
					return -EINVAL;
				}
				out[k++] = b->name;
			}
		}
		c += len;
		if (*c == '\0')
			break;
	}
	/* A whole profile named goes under the layered ones, whatever base they name. */
	if (whole == NULL && builtin(base) == NULL) {
		snprintf(err->msg, sizeof(err->msg), "profile base '%s' is unknown", base);
		return -ENOENT;
	}
	out[0] = whole != NULL ? whole : builtin(base)->name;
	*n = k;
	return 0;
}

/* Whether the profile layer holds the built-in profile name already. */
static bool profile_loaded(const struct ward_policy *p, const char *name)
{
	for (size_t i = 0; i < p->nlayers; i++)
		if (p->layers[i].layer == WARD_LAYER_PROFILE &&
		    strncmp(p->layers[i].origin, "builtin:", 8) == 0 &&
		    strcmp(p->layers[i].origin + 8, name) == 0)
			return true;
	return false;
}

/* Load a built-in policy text: the self layer, or a profile. */
static int add_builtin(struct ward_policy *p, const char *name, enum ward_layer layer,
		       struct ward_error *err)
{
	char origin[128];

	for (const struct builtin_profile *b = ward_builtin_profiles; b->name; b++) {
		if (strcmp(b->name, name) != 0)
			continue;
		/*
		 * A whole profile only as the first, a layered one only on top of
		 * one (its own base or another named instead), each once.
		 */
		bool any = false;
		for (size_t i = 0; i < p->nlayers; i++)
			any |= p->layers[i].layer == WARD_LAYER_PROFILE;
		const char *why = NULL;
		if (layer == WARD_LAYER_PROFILE && profile_loaded(p, name))
			why = "is loaded already";
		else if (layer == WARD_LAYER_PROFILE && ward_profile_base(name) == NULL && any)
			why = "is a whole profile and another is loaded already";
		else if (layer == WARD_LAYER_PROFILE && ward_profile_base(name) != NULL && !any)
			why = "is layered on a whole profile, and none is loaded";
		if (why != NULL) {
			if (err) /* err may be NULL, as everywhere else */
				snprintf(err->msg, sizeof(err->msg), "profile %s %s", name, why);
			return -EINVAL;
		}
		snprintf(origin, sizeof(origin), "builtin:%s", name);
		return policy_parse(p, layer, origin, b->text, strlen(b->text), NULL, err);
	}
	if (err)
		snprintf(err->msg, sizeof(err->msg), "unknown profile '%s'", name);
	return -ENOENT;
}

int ward_policy_add_profile(struct ward_policy *p, const char *name,
			    struct ward_error *err)
{
	/*
	 * The self-protection rules are not a profile (ward_profile_names
	 * leaves them out): ward_policy_new() has loaded them already, and
	 * `--profile self` must not stand for "no profile".
	 */
	if (strcmp(name, "self") == 0) {
		if (err)
			snprintf(err->msg, sizeof(err->msg), "unknown profile '%s'", name);
		return -ENOENT;
	}
	return add_builtin(p, name, WARD_LAYER_PROFILE, err);
}

int ward_policy_add_file(struct ward_policy *p, enum ward_layer layer,
			 const char *path, struct ward_error *err)
{
	return policy_parse(p, layer, path, NULL, 0, NULL, err);
}

int ward_policy_add_text(struct ward_policy *p, enum ward_layer layer,
			 const char *origin, const char *text, size_t len,
			 struct ward_error *err)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(origin, '/');

	/* Includes are relative to the directory of the origin, when it is a path. */
	if (slash != NULL && origin[0] == '/' && (size_t)(slash - origin) < sizeof(dir)) {
		memcpy(dir, origin, (size_t)(slash - origin));
		dir[slash - origin] = '\0';
		return policy_parse(p, layer, origin, text, len, dir[0] ? dir : "/", err);
	}
	return policy_parse(p, layer, origin, text, len, NULL, err);
}

int ward_policy_add_rule(struct ward_policy *p, const char *line,
			 struct ward_error *err)
{
	int rc;

	if (strchr(line, '\n') != NULL) {
		if (err)
			snprintf(err->msg, sizeof(err->msg),
				 "--rule:%u: a rule is one line", p->nrule_lines + 1);
		return -EINVAL;
	}
	rc = policy_parse(p, WARD_LAYER_RULE, "--rule", line, strlen(line), NULL, err);
	if (rc == 0)
		p->nrule_lines++;
	return rc;
}

void ward_policy_set_undecided(struct ward_policy *p, enum ward_undecided u)
{
	p->undecided = u;
	p->undecided_forced = true;
	p->generation++;
}

enum ward_undecided ward_policy_undecided(const struct ward_policy *p)
{
	return p->undecided;
}

void ward_policy_log_retention(const struct ward_policy *p, uint64_t *max_age,
			       uint64_t *max_bytes)
{
	*max_age = p->log_max_age;
	*max_bytes = p->log_max_bytes;
}

unsigned ward_policy_ask_timeout(const struct ward_policy *p)
{
	return p->ask_timeout;
}

size_t ward_policy_rule_count(const struct ward_policy *p)
{
	return p->nrules;
}

uint64_t ward_policy_generation(const struct ward_policy *p)
{
	return p->generation;
}

bool ward_policy_restricts(const struct ward_policy *p, enum ward_op op)
{
	/*
	 * `set undecided` matters only when a path can go undecided: not when
	 * an "allow OP" rule on the whole tree covers every path.
	 */
	bool covered = p->undecided == WARD_UNDECIDED_ALLOW;
	for (size_t i = 0; i < p->nrules; i++) {
		const struct ward_rule *r = p->rules[i];
		if (!(r->ops & op))
			continue;
		if (r->action != WARD_ALLOW)
			return true;
		if (r->kind == T_PATH && strcmp(r->target, "/**") == 0)
			covered = true;
	}
	return !covered;
}

void ward_policy_set_session(struct ward_policy *p, bool (*in_session)(pid_t, void *),
			     void *arg)
{
	p->in_session = in_session;
	p->in_session_arg = arg;
	p->generation++;
}

void ward_policy_set_ttys(struct ward_policy *p, bool (*foreign_tty)(const char *, void *),
			  void *arg)
{
	p->foreign_tty = foreign_tty;
	p->foreign_tty_arg = arg;
	p->generation++;
}

const char *ward_rule_location(const struct ward_rule *r)
{
	return r ? r->loc : "undecided";
}

enum ward_layer ward_rule_layer(const struct ward_rule *r)
{
	return r->layer;
}

const struct ward_rule *ward_policy_rule_at(const struct ward_policy *p, size_t i)
{
	return i < p->nrules ? p->rules[i] : NULL;
}

enum ward_action ward_rule_action(const struct ward_rule *r)
{
	return r->action;
}

unsigned ward_rule_ops(const struct ward_rule *r)
{
	return r->ops;
}

const char *ward_rule_target(const struct ward_rule *r)
{
	return r->target;
}

bool ward_rule_by_link(const struct ward_rule *r)
{
	return r->by_link;
}

int ward_rule_sample(const struct ward_policy *p, const struct ward_rule *r, char *out, size_t len)
{
	size_t o = 0;

	if (r->kind != T_PATH || len == 0)
		return -EINVAL;
	for (const char *c = r->target; *c; c++) {
		char ch = *c;
		if (ch == '\\' && c[1] != '\0') {
			ch = *++c;
		} else if (ch == '*') {
			while (c[1] == '*')
				c++;
			ch = 'x';
		} else if (ch == '?') {
			ch = 'x';
		} else if (ch == '[') {
			/* The class's first member, or x for a negated one. */
			const char *end = strchr(c + 1, ']');
			if (end == NULL)
				return -EINVAL;
			ch = (c[1] == '!' || c[1] == '^') ? 'x' : c[1];
			c = end;
		}
		if (o + 1 >= len)
			return -ENAMETOOLONG;
		out[o++] = ch;
	}
	out[o] = '\0';
	return rule_match_path(p, r, out) ? 0 : -EINVAL;
}

bool ward_rule_hard(const struct ward_rule *r)
{
	return r != NULL && r->action == WARD_DENY_HARD;
}

bool ward_rule_names_host(const struct ward_rule *r)
{
	return r != NULL && r->kind == T_DOMAIN;
}

const char *ward_layer_name(enum ward_layer layer)
{
	static const char *const names[WARD_LAYER_COUNT] = {
		[WARD_LAYER_SELF] = "self",	    [WARD_LAYER_PROFILE] = "profile",
		[WARD_LAYER_SYSTEM] = "system",	    [WARD_LAYER_USER] = "user",
		[WARD_LAYER_PROJECT] = "project",   [WARD_LAYER_FILE] = "policy",
		[WARD_LAYER_RULE] = "rule",
	};
	return (unsigned)layer < WARD_LAYER_COUNT ? names[layer] : "?";
}

static const char *action_word(enum ward_action a)
{
	switch (a) {
	case WARD_ALLOW:
		return "allow";
	case WARD_DENY:
		return "deny";
	case WARD_DENY_HARD:
		return "deny!";
	case WARD_ASK:
		return "ask";
	default:
		return "rewrite";
	}
}

static void ops_text(unsigned ops, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (unsigned bit = 1; bit & WARD_OPS_ALL; bit <<= 1) {
		if (!(ops & bit))
			continue;
		int n = snprintf(out + o, len - o, "%s%s", o ? "," : "",
				 ward_op_name((enum ward_op)bit));
		if (n < 0 || (size_t)n >= len - o)
			return;
		o += (size_t)n;
	}
}

int ward_verdict_format(const struct ward_verdict *v, enum ward_op op,
			const char *target, char *out, size_t outlen)
{
	const char *d;
	int n;

	switch (v->action) {
	case WARD_ALLOW:
		d = "allow";
		break;
	case WARD_ASK:
		d = "ask";
		break;
	case WARD_REWRITE:
		d = "rewrite:";
		break;
	default:
		d = "deny";
	}
	n = snprintf(out, outlen, "%s%s %s %s %s", d,
		     v->action == WARD_REWRITE ? v->rewrite : "", ward_op_name(op),
		     target, ward_rule_location(v->rule));
	if (n < 0 || (size_t)n >= outlen)
		return -ENOSPC;
	return n;
}

static void dump_rule(FILE *f, const struct ward_rule *r)
{
	char ops[96], act[64];

	ops_text(r->ops, ops, sizeof(ops));
	if ((r->action == WARD_DENY || r->action == WARD_DENY_HARD) && r->err != EACCES)
		snprintf(act, sizeof(act), "%s(%s)", action_word(r->action), strerrorname_np(r->err));
	else
		snprintf(act, sizeof(act), "%s", action_word(r->action));
	fprintf(f, "%-8s %-24s ", act, ops);
	/*
	 * A name a link gave may hold anything but '/' and NUL: one line a
	 * rule, and no terminal control (C0, DEL, C1 in UTF-8) printed raw.
	 */
	for (const unsigned char *c = (const unsigned char *)r->target; *c; c++) {
		if (*c < 0x20 || *c == 0x7f) {
			fprintf(f, "\\x%02x", *c);
		} else if (*c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) {
			fprintf(f, "\\x%02x\\x%02x", c[0], c[1]);
			c++;
		} else {
			fputc(*c, f);
		}
	}
	if (r->action == WARD_REWRITE)
		fprintf(f, " -> %s%s", r->repl, r->repl_tail ? (strcmp(r->repl, "/") ? "/**" : "**") : "");
	fprintf(f, "    # %s%s\n", r->loc, r->by_link ? ", by a symlink" : "");
}

/* The rules of layer record i. */
static void dump_layer(FILE *f, const struct ward_policy *p, size_t i)
{
	size_t end = i + 1 < p->nlayers ? p->layers[i + 1].first : p->nrules;

	for (size_t k = p->layers[i].first; k < end; k++)
		dump_rule(f, p->rules[k]);
}

/* A size as `set log-retention` takes it: the largest unit that divides it. */
static void retention_size(uint64_t bytes, char *buf, size_t len)
{
	static const char units[] = "KMGT";
	int u = -1;
	if (bytes == 0) {
		snprintf(buf, len, "0G");
		return;
	}
	while (u < 3 && bytes >= 1024 && bytes % 1024 == 0) {
		bytes /= 1024;
		u++;
	}
	if (u < 0)
		snprintf(buf, len, "%lluK", (unsigned long long)(bytes + 1023) / 1024);
	else
		snprintf(buf, len, "%llu%c", (unsigned long long)bytes, units[u]);
}

char *ward_policy_dump(const struct ward_policy *p)
{
	char *buf = NULL;
	size_t size = 0;
	FILE *f = open_memstream(&buf, &size);

	if (f == NULL)
		return NULL;
	/* Rules before the first layer record, if any. */
	for (size_t k = 0; k < (p->nlayers > 0 ? p->layers[0].first : p->nrules); k++)
		dump_rule(f, p->rules[k]);
	for (size_t i = 0; i < p->nlayers; i++) {
		bool self = p->layers[i].layer == WARD_LAYER_SELF;
		if (self && i > 0)
			continue; /* with the first self layer, below */
		fprintf(f, "# layer %s %s\n", ward_layer_name(p->layers[i].layer), p->layers[i].origin);
		dump_layer(f, p, i);
		if (!self)
			continue;
		/*
		 * The self layer's later parts, which ward adds for a session once
		 * every layer is loaded (its log, its program, the policy files):
		 * listed with it, each under its origin.  They are all deny!,
		 * which wins wherever it stands, so where they are listed changes
		 * nothing.
		 */
		const char *last = p->layers[i].origin;
		for (size_t k = i + 1; k < p->nlayers; k++) {
			if (p->layers[k].layer != WARD_LAYER_SELF)
				continue;
			if (strcmp(p->layers[k].origin, last) != 0)
				fprintf(f, "#   and %s\n", p->layers[k].origin);
			last = p->layers[k].origin;
			dump_layer(f, p, k);
		}
	}
	for (size_t i = 0; i < p->nenv; i++)
		fprintf(f, "env %s %s    # %s\n", p->env[i].name, p->env[i].value, p->env[i].loc);
	fprintf(f, "set undecided %s\n",
		p->undecided == WARD_UNDECIDED_ALLOW  ? "allow"
		: p->undecided == WARD_UNDECIDED_DENY ? "deny"
						      : "ask");
	fprintf(f, "set ask-timeout %u\n", p->ask_timeout);
	char bytes[32];
	retention_size(p->log_max_bytes, bytes, sizeof(bytes));
	fprintf(f, "set log-retention %llud %s\n", (unsigned long long)(p->log_max_age / 86400),
		bytes);
	if (fclose(f) != 0) {
		free(buf);
		return NULL;
	}
	return buf;
}

int ward_policy_domains(const struct ward_policy *p,
			int (*fn)(const char *name, void *arg), void *arg)
{
	char name[256];

	for (size_t i = 0; i < p->nrules; i++) {
		const struct ward_rule *r = p->rules[i];
		if (r->kind != T_DOMAIN)
			continue;
		/* The compiled target is "NAME[:PORTS]", lower case. */
		size_t n = strcspn(r->target, ":");
		if (n == 0 || n >= sizeof(name) || r->target[strcspn(r->target, "*?[")] != '\0')
			continue;
		for (size_t k = 0; k < n; k++)
			name[k] = (char)tolower((unsigned char)r->target[k]);
		if (n > 1 && name[n - 1] == '.')
			n--;
		name[n] = '\0';
		int rc = fn(name, arg);
		if (rc != 0)
			return rc;
	}
	return 0;
}

int ward_policy_env(const struct ward_policy *p,
		    int (*fn)(const char *name, const char *value, const char *loc, void *arg),
		    void *arg)
{
	for (size_t i = 0; i < p->nenv; i++) {
		int rc = fn(p->env[i].name, p->env[i].value, p->env[i].loc, arg);
		if (rc != 0)
			return rc;
	}
	return 0;
}

const char *const *ward_policy_files(const struct ward_policy *p, size_t *n)
{
	*n = p->nfiles;
	return (const char *const *)p->files;
}
