/*
 * trust.c - ward trust: trust a project's .ward/policy as it is now.
 */
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char help[] =
	"usage: ward trust [DIR]\n"
	"\n"
	"Check DIR/.ward/policy (DIR defaults to the current directory) and record\n"
	"its SHA-256 in $XDG_CONFIG_HOME/ward/trusted (~/.config/ward/trusted).\n"
	"'ward run' loads a project's policy only while its content is the one\n"
	"trusted; any change untrusts it.  A project policy may not include other\n"
	"files, since the trust covers one file.\n";

struct validation {
	const struct ward_vars *vars;
	struct ward_error err;
};

/* Never trust a policy that does not load. */
static int validate(const char *real, const char *text, size_t len, void *arg)
{
	struct validation *v = arg;
	struct ward_policy *p = ward_policy_new(v->vars);
	int rc;

	if (p == NULL) {
		snprintf(v->err.msg, sizeof(v->err.msg), "cannot build the built-in rules");
		return -ENOMEM;
	}
	rc = ward_policy_add_text(p, WARD_LAYER_PROJECT, real, text, len, &v->err);
	ward_policy_free(p);
	return rc;
}

int cmd_trust(int argc, char **argv)
{
	struct ward_vars vars;
	struct ward_error err;
	struct validation val = { .vars = &vars };
	char path[PATH_MAX];
	const char *dir = ".";
	int rc;

	if (argc > 1 && (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0)) {
		fputs(help, stdout);
		return 0;
	}
	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fputs(help, stderr);
		return WARD_EXIT_USAGE;
	}
	if (argc == 2)
		dir = argv[1];
	if (ward_vars_from_env(&vars, dir, NULL, &err) < 0)
		die(1, "%s", err.msg);
	snprintf(path, sizeof(path), "%s/.ward/policy", vars.project);
	val.err.msg[0] = '\0';
	if ((rc = trust_add(&vars, path, validate, &val)) < 0) {
		if (val.err.msg[0] != '\0')
			die(1, "%s", val.err.msg);
		die(1, "cannot trust %s: %s", path, strerror(-rc));
	}
	return 0;
}
