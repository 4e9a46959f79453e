/*
 * policy_load.c - the policy options and the layered loading of DESIGN.md §3.
 */
#include "ward.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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

/* Add a layer file when it exists; a file that exists but cannot be read is an error. */
static int optional_file(struct ward_policy *p, enum ward_layer layer,
			 const char *path, struct ward_error *err)
{
	if (access(path, F_OK) < 0 && errno == ENOENT)
		return 0;
	return ward_policy_add_file(p, layer, path, err);
}

struct ward_policy *policy_load(const struct policy_opts *o,
				const char *session_id, struct ward_vars *vars,
				struct ward_error *err)
{
	struct ward_policy *p;
	char path[PATH_MAX];
	int rc;

	if (ward_vars_from_env(vars, o->project, session_id, err) < 0)
		return NULL;
	p = ward_policy_new(vars);
	if (p == NULL) {
		snprintf(err->msg, sizeof(err->msg), "cannot build the built-in rules");
		return NULL;
	}
	if ((rc = ward_policy_add_profile(p, o->profile ? o->profile : "default", err)) < 0)
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
	return p;
fail:
	ward_policy_free(p);
	return NULL;
}
