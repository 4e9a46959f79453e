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

struct ward_policy *policy_load(const struct policy_opts *o,
				const char *session_id, struct ward_vars *vars,
				struct ward_error *err)
{
	struct ward_policy *p;
	char path[PATH_MAX];
	int rc;

	const char *profile = o->profile ? o->profile : "default";
	struct protect_ctx pc = { .profile = profile, .vars = vars };

	if (ward_vars_from_env(vars, o->project, session_id, err) < 0)
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
