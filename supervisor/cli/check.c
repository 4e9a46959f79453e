/*
 * check.c - ward check: validate policies and print the compiled form.
 */
#include "cli.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>

static const char help[] =
	"usage: ward check [--profile NAME] [-p FILE]... [-r LINE]... [--project DIR]\n"
	"                  [--undecided ask|deny|allow] [-q] [POLICY...]\n"
	"\n"
	"Load the policy layers as 'ward run' would (built-in rules, the profile,\n"
	"/etc/ward/policy, ~/.config/ward/policy, the trusted project policy), then\n"
	"each POLICY file and --policy FILE, then each --rule LINE.  Print the merged,\n"
	"compiled policy, each rule with the place it came from.  Exit 1 on an error,\n"
	"which names FILE:LINE:COLUMN.  -q: no warnings (an untrusted project policy).\n";

int cmd_check(int argc, char **argv)
{
	static const struct option longopts[] = {
		POLICY_LONGOPTS,
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct policy_opts o = { .undecided = -1 };
	struct ward_error err;
	struct ward_vars vars;
	int opt;

	argv[0] = "ward"; /* getopt's messages then read "ward: ..." */
	while ((opt = getopt_long(argc, argv, "p:r:hq", longopts, NULL)) != -1) {
		if (policy_opt(&o, opt, optarg))
			continue;
		if (opt == 'h') {
			fputs(help, stdout);
			return 0;
		}
		if (opt == 'q') {
			o.quiet = true;
			continue;
		}
		fputs(help, stderr);
		return WARD_EXIT_USAGE;
	}
	/* Positional files are --policy files, after any given with -p. */
	const char **files = malloc(sizeof(*files) * (size_t)(o.nfiles + argc - optind + 1));
	if (files == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	for (int i = 0; i < o.nfiles; i++)
		files[i] = o.files[i];
	for (int i = optind; i < argc; i++)
		files[o.nfiles++] = argv[i];
	free(o.files);
	o.files = files;

	/* The policy as ward run has it, with ward's own rules for a session (not the log's). */
	struct protect_ctx pc = { 0 };
	struct ward_policy *p = policy_load(&o, NULL, &vars, &err);
	if (p == NULL || protect_add(p, PROTECT_AFTER_POLICY, &pc, &err) < 0) {
		fprintf(stderr, "ward: %s\n", err.msg);
		return 1;
	}
	char *text = ward_policy_dump(p);
	if (text == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	fputs(text, stdout);
	free(text);
	ward_policy_free(p);
	free(o.files);
	free(o.rules);
	return 0;
}
