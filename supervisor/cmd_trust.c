/*
 * cmd_trust.c - ward trust: trust a project's .ward/policy as it is now.
 */
#include "ward.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static const char help[] =
	"usage: ward trust [DIR]\n"
	"\n"
	"Check DIR/.ward/policy (DIR defaults to the current directory) and record\n"
	"its SHA-256 in ~/.config/ward/trusted.  'ward run' loads a project's policy\n"
	"only while its content is the one trusted; any change untrusts it.\n";

int cmd_trust(int argc, char **argv)
{
	struct ward_vars vars;
	struct ward_error err;
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

	/* Never trust a policy that does not load. */
	struct ward_policy *p = ward_policy_new(&vars);
	if (p == NULL)
		die(WARD_EXIT_FAILURE, "cannot build the built-in rules");
	if (ward_policy_add_file(p, WARD_LAYER_PROJECT, path, &err) < 0)
		die(1, "%s", err.msg);
	ward_policy_free(p);
	if ((rc = trust_add(&vars, path)) < 0)
		die(1, "cannot record trust for %s: %s", path, strerror(-rc));
	return 0;
}
