/*
 * policy_load.c - the policy options and the layered loading of DESIGN.md §3.
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void push(const char ***list, int *n, const char *item)
{
	const char **l = realloc(*list, sizeof(*l) * (size_t)(*n + 1));
	if (l == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	l[(*n)++] = item;
	*list = l;
}

bool policy_opt(struct policy_opts *o, int opt, const char *arg)
{
	switch (opt) {
	case OPT_PROFILE:
		o->profile = arg;
		return true;
	case 'p':
		push(&o->files, &o->nfiles, arg);
		return true;
	case 'r':
		push(&o->rules, &o->nrules, arg);
		return true;
	case OPT_PROJECT:
		o->project = arg;
		return true;
	case OPT_UNDECIDED:
		if (strcmp(arg, "ask") == 0)
			o->undecided = WARD_UNDECIDED_ASK;
		else if (strcmp(arg, "deny") == 0)
			o->undecided = WARD_UNDECIDED_DENY;
		else if (strcmp(arg, "allow") == 0)
			o->undecided = WARD_UNDECIDED_ALLOW;
		else
			die(WARD_EXIT_USAGE, "--undecided takes ask, deny or allow, not '%s'", arg);
		return true;
	}
	return false;
}

int policy_quote(char *out, size_t len, const char *path, bool link)
{
	char *o = out, *end = out + len;

	for (const char *c = path; *c; c++) {
		if (end - o < 8)
			return -ENAMETOOLONG;
		if (link && c[1] == '\0' && c > path && c[-1] != '/') {
			o += strchr("]!^-\\$\"", *c) ? sprintf(o, "?") : sprintf(o, "[%c]", *c);
			continue;
		}
		if (strchr("*?[$", *c)) {
			*o++ = '\\';
			*o++ = '\\';
		} else if (*c == '\\') {
			o += sprintf(o, "\\\\\\\\");
			continue;
		} else if (*c == '"') {
			*o++ = '\\';
		}
		*o++ = *c;
	}
	*o = '\0';
	return 0;
}

/* Add a layer file when it exists; a file that exists but cannot be read is an error. */
static int optional_file(struct ward_policy *p, enum ward_layer layer,
			 const char *path, struct ward_error *err)
{
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	return ward_policy_add_file(p, layer, path, err);
}

/* A rule added for a link that reaches the project, home or above (ward_policy_wide_links). */
static void tell_wide(void *arg, const char *loc, const char *via, const char *target)
{
	char v[2 * PATH_MAX], t[2 * PATH_MAX];
	(void)arg;
	warnx_("the symlink %s makes %s hold %s, which holds the project or your home "
	       "directory: remove the link if you did not make it",
	       term_safe(via, v, sizeof(v)), loc, term_safe(target, t, sizeof(t)));
}

int policy_profiles(const struct policy_opts *o, char *out, size_t len)
{
	const char *names[MAX_PROFILES];
	struct ward_error err;
	size_t n, used = 0;

	out[0] = '\0';
	if (ward_profiles_resolve(o->profile ? o->profile : "default", names, MAX_PROFILES, &n,
				  &err) < 0)
		return -EINVAL;
	for (size_t i = 0; i < n; i++) {
		int w = snprintf(out + used, len - used, "%s%s", i ? "," : "", names[i]);
		if (w < 0 || (size_t)w >= len - used)
			return -ENAMETOOLONG;
		used += (size_t)w;
	}
	return 0;
}

/*
 * A rule of the user's that names /.git at the root of the file system:
 * most likely a $PROJECT the shell expanded to nothing (-r "allow write
 * $PROJECT/.git/... in double quotes), which then guards or opens nothing
 * of the project.
 */
static void warn_root_git(const struct ward_policy *p)
{
	for (size_t i = 0; i < ward_policy_rule_count(p); i++) {
		const struct ward_rule *r = ward_policy_rule_at(p, i);
		const char *t = ward_rule_target(r);
		if (ward_rule_layer(r) < WARD_LAYER_SYSTEM || ward_rule_by_link(r) ||
		    strncmp(t, "/.git", 5) != 0 || (t[5] != '\0' && t[5] != '/'))
			continue;
		warnx_("%s names %s, at the root: did the shell expand $PROJECT to nothing? "
		       "Quote the rule in single quotes ('... $PROJECT/.git/**'), or name the "
		       "project's path",
		       ward_rule_location(r), t);
	}
}

/*
 * A rule of the user's (or the project's, or a --policy or --rule) that
 * undoes a protection of the profiles: for each path rule of theirs that
 * refuses or asks, a path it matches (ward_rule_sample) is decided again
 * with the whole policy, and a user rule that allows it there is named,
 * with up to three of the protections it undoes.  ward run and ward check
 * say it; the rule still stands.
 */
static void warn_undone(const struct ward_policy *p)
{
	size_t n = ward_policy_rule_count(p);

	for (size_t u = 0; u < n; u++) {
		const struct ward_rule *user = ward_policy_rule_at(p, u);
		char list[1024] = "";
		int count = 0;
		if (ward_rule_layer(user) < WARD_LAYER_SYSTEM || ward_rule_action(user) != WARD_ALLOW ||
		    !(ward_rule_ops(user) & WARD_OPS_PATH))
			continue;
		for (size_t i = 0; i < n; i++) {
			const struct ward_rule *r = ward_policy_rule_at(p, i);
			enum ward_action a = ward_rule_action(r);
			char sample[4096];
			if (ward_rule_layer(r) != WARD_LAYER_PROFILE || ward_rule_by_link(r) ||
			    (a != WARD_DENY && a != WARD_ASK) ||
			    ward_rule_sample(p, r, sample, sizeof(sample)) < 0)
				continue;
			unsigned ops = ward_rule_ops(r) & ward_rule_ops(user) & WARD_OPS_PATH;
			for (unsigned op = 1; op <= WARD_OP_STAT; op <<= 1) {
				struct ward_verdict v;
				if (!(ops & op) || ward_decide_path(p, (enum ward_op)op, sample, &v) < 0 ||
				    v.rule != user)
					continue;
				if (count++ < 3) {
					size_t l = strlen(list);
					snprintf(list + l, sizeof(list) - l, "%s%s %s %s (%s)",
						 l ? ", " : "", a == WARD_DENY ? "deny" : "ask",
						 ward_op_name((enum ward_op)op), ward_rule_target(r),
						 ward_rule_location(r));
				}
				break;
			}
		}
		if (count > 0) {
			char more[64] = "", ops[96] = "";
			if (count > 3)
				snprintf(more, sizeof(more), ", and %d more", count - 3);
			for (unsigned op = 1; op <= WARD_OP_STAT; op <<= 1)
				if (ward_rule_ops(user) & op)
					snprintf(ops + strlen(ops), sizeof(ops) - strlen(ops), "%s%s",
						 ops[0] ? "," : "", ward_op_name((enum ward_op)op));
			warnx_("%s (allow %s %s) undoes what the profile keeps from the agent: %s%s",
			       ward_rule_location(user), ops, ward_rule_target(user), list, more);
		}
	}
}

/*
 * The project when none is named: the top of the git repository holding
 * the current directory (the first directory up with a .git), else the
 * current directory.  Not a top that holds the home directory (a
 * repository of dot files in ~): the agent would have all of ~ to write.
 * out: the real path; why: how it was chosen, for ward run to say.
 */
static int default_project(char *out, size_t len, char *why, size_t whylen)
{
	char cwd[PATH_MAX], dir[PATH_MAX], home[PATH_MAX], dotgit[PATH_MAX + 8];
	const char *h = getenv("HOME");

	if (getcwd(cwd, sizeof(cwd)) == NULL || realpath(cwd, dir) == NULL)
		return -errno;
	snprintf(out, len, "%s", dir);
	snprintf(why, whylen, "the current directory: no git repository holds it");
	if (h == NULL || h[0] != '/' || realpath(h, home) == NULL)
		snprintf(home, sizeof(home), "%s", h && h[0] == '/' ? h : "/");
	for (;;) {
		struct stat st;
		snprintf(dotgit, sizeof(dotgit), "%s/.git", strcmp(dir, "/") == 0 ? "" : dir);
		if (lstat(dotgit, &st) == 0) {
			if (strcmp(dir, out) == 0) {
				snprintf(why, whylen, "the current directory, the top of its git repository");
			} else if (path_below(home, dir)) {
				snprintf(why, whylen,
					 "the current directory: its git repository's top, %s, holds your "
					 "home directory",
					 dir);
			} else {
				snprintf(why, whylen, "the top of the git repository holding the current "
						      "directory (--project . for the directory alone)");
				snprintf(out, len, "%s", dir);
			}
			return 0;
		}
		char *slash = strrchr(dir, '/');
		if (slash == NULL || strcmp(dir, "/") == 0)
			return 0;
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

struct ward_policy *policy_load(struct policy_opts *o,
				const char *session_id, struct ward_vars *vars,
				struct ward_error *err)
{
	struct ward_policy *p;
	char path[PATH_MAX];
	int rc;

	const char *names[MAX_PROFILES];
	size_t nnames;

	if (ward_profiles_resolve(o->profile ? o->profile : "default", names, MAX_PROFILES,
				  &nnames, err) < 0)
		return NULL;
	/* The whole profile the others are layered on: what the protections below follow. */
	const char *profile = names[0];
	struct protect_ctx pc = { .profile = profile, .vars = vars };
	char project[PATH_MAX];
	const char *project_dir = o->project;
	snprintf(o->project_why, sizeof(o->project_why), "named by --project");
	if (project_dir == NULL) {
		if ((rc = default_project(project, sizeof(project), o->project_why,
					  sizeof(o->project_why))) < 0) {
			snprintf(err->msg, sizeof(err->msg), "cannot get the current directory: %s",
				 strerror(-rc));
			return NULL;
		}
		project_dir = project;
	}
	if (ward_vars_from_env(vars, project_dir, session_id, err) < 0)
		return NULL;
	protect_prepare(&pc); /* git reads the repository while the profile is read */
	p = ward_policy_open(vars, WARD_POLICY_FOLLOW_LINKS);
	if (p == NULL) {
		protect_finish(&pc);
		snprintf(err->msg, sizeof(err->msg), "cannot build the built-in rules");
		return NULL;
	}
	rc = ward_policy_add_profile(p, profile, err);
	if (rc == 0)
		rc = protect_add(p, PROTECT_AFTER_PROFILE, &pc, err);
	protect_finish(&pc); /* git answered, or was not asked for after all */
	if (rc < 0)
		goto fail;
	/*
	 * The profiles layered on the whole one come after what guards it:
	 * what they let through they name on purpose (~/.claude when the
	 * project holds the home directory), and what they keep they say
	 * again after it.
	 */
	for (size_t i = 1; i < nnames; i++)
		if ((rc = ward_policy_add_profile(p, names[i], err)) < 0)
			goto fail;
	if ((rc = optional_file(p, WARD_LAYER_SYSTEM, WARD_SYSCONFDIR "/policy", err)) < 0)
		goto fail;
	snprintf(path, sizeof(path), "%s/ward/policy", vars->xdg_config_home);
	if ((rc = optional_file(p, WARD_LAYER_USER, path, err)) < 0)
		goto fail;
	snprintf(path, sizeof(path), "%s/.ward/policy", vars->project);
	if (access(path, F_OK) == 0) {
		char *text = NULL;
		size_t len = 0;
		rc = trust_check(vars, path, &text, &len);
		if (rc < 0) {
			snprintf(err->msg, sizeof(err->msg), "%s: cannot check trust: %s",
				 path, strerror(-rc));
			goto fail;
		}
		if (rc == 0) {
			if (!o->quiet)
				warnx_("ignoring untrusted project policy %s (run 'ward trust' to use it)",
				       path);
		} else {
			rc = ward_policy_add_text(p, WARD_LAYER_PROJECT, path, text, len, err);
			free(text);
			if (rc < 0)
				goto fail;
		}
	}
	for (int i = 0; i < o->nfiles; i++)
		if ((rc = ward_policy_add_file(p, WARD_LAYER_FILE, o->files[i], err)) < 0)
			goto fail;
	for (int i = 0; i < o->nrules; i++)
		if ((rc = ward_policy_add_rule(p, o->rules[i], err)) < 0)
			goto fail;
	if (o->undecided >= 0)
		ward_policy_set_undecided(p, (enum ward_undecided)o->undecided);
	if (!o->quiet) {
		warn_root_git(p);
		warn_undone(p);
	}
	if (!o->quiet) {
		char home[PATH_MAX];
		const char *places[2] = { vars->project, vars->home };
		if (realpath(vars->home, home) != NULL)
			places[1] = home;
		ward_policy_wide_links(p, places, 2, tell_wide, NULL);
	}
	size_t ncut;
	const char *cut = ward_policy_link_scan_cut(p, &ncut);
	if (cut != NULL && !o->quiet) {
		char safe[2 * PATH_MAX];
		warnx_("not all the symlinks named by %zu %s were followed (too much to read, too "
		       "many links, or a pattern not taken apart), the first %s: a link not followed "
		       "is judged only where it leads",
		       ncut, ncut == 1 ? "rule" : "rules", term_safe(cut, safe, sizeof(safe)));
	}
	return p;
fail:
	ward_policy_free(p);
	return NULL;
}
