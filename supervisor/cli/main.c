/*
 * main.c - ward's command line: dispatch to the commands.
 *
 * Adding a command is one row of the table below and a cmd_NAME function
 * in a file of its own (cli.h declares them).
 */
#include "cli.h"
#include "report.h"

#include <stdio.h>
#include <string.h>

/* The version: a command of its own, as `ward version` and `ward --version`. */
static int cmd_version(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("ward %s\n", WARD_VERSION);
	return 0;
}

static int cmd_help(int argc, char **argv);

/*
 * The commands: name, its arguments and a one-line summary for the usage
 * (no summary: not listed there), and the function, which gets argv from
 * the command's name on.
 */
static const struct command {
	const char *name, *args, *summary;
	int (*fn)(int argc, char **argv);
} commands[] = {
	{ "run", "[OPTIONS] -- COMMAND [ARG...]", "run COMMAND under supervision", cmd_run },
	{ "check", "[OPTIONS] [POLICY...]", "validate policies; print the merged, compiled policy",
	  cmd_check },
	{ "explain", "[OPTIONS] OP TARGET", "which rule decides OP on TARGET, and why", cmd_explain },
	{ "trust", "[DIR]", "trust DIR's .ward/policy as it is now", cmd_trust },
	{ "sessions", "[--prune]", "the recorded sessions, newest first", cmd_sessions },
	{ "report", "[ID|LOG] [--json] [--html FILE]", "what a session touched", cmd_report },
	{ "learn", "[ID|LOG] [--project DIR]", "a policy that allows what a session did",
	  cmd_learn },
	{ "approve", "[ID] [--list [--json]] [--answer N once|session|deny]",
	  "answer a running session's questions from another terminal", cmd_approve },
	{ "help", NULL, NULL, cmd_help },
	{ "--help", NULL, NULL, cmd_help },
	{ "-h", NULL, NULL, cmd_help },
	{ "version", NULL, NULL, cmd_version },
	{ "--version", NULL, NULL, cmd_version },
};

static void usage(FILE *f)
{
	fputs("usage: ward COMMAND [OPTIONS] [ARGS]\n"
	      "\n"
	      "Run a command under a syscall policy, and explain or audit what it did.\n"
	      "\n"
	      "commands:\n",
	      f);
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct command *c = &commands[i];
		if (c->summary == NULL)
			continue;
		int n = fprintf(f, "  %s %s", c->name, c->args);
		fprintf(f, "%*s%s\n", n < 37 ? 37 - n : 1, "", c->summary);
	}
	fputs("\n"
	      "Each command takes --help.  ward --version prints the version.\n",
	      f);
}

static int cmd_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	usage(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage(stderr);
		return WARD_EXIT_USAGE;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(argv[1], commands[i].name) == 0)
			return commands[i].fn(argc - 1, argv + 1);
	fprintf(stderr, "ward: unknown command '%s'\n", argv[1]);
	usage(stderr);
	return WARD_EXIT_USAGE;
}
