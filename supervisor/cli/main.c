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

/*
 * The version: a command of its own, as `ward version` and `ward
 * --version`, with the kernel features ward finds (doctor.c).
 */
static int cmd_version(int argc, char **argv)
{
	char line[1024];

	(void)argc;
	(void)argv;
	features_line(line, sizeof(line));
	printf("ward %s\n%s\n", WARD_VERSION, line);
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
	{ "doctor", "", "what this host's kernel gives ward", cmd_doctor },
	{ "approve", "[ID] [--list [--json]] [--answer N once|session|deny]",
	  "answer a running session's questions from another terminal", cmd_approve },
	{ "help", "[COMMAND|TOPIC]", "a command's usage and examples; topics: profiles, policy",
	  cmd_help },
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
	      "examples:\n"
	      "  ward run --profile claude-code -- claude\n"
	      "  ward run --profile npm -- npm install\n"
	      "  ward explain read ~/.ssh/id_rsa\n"
	      "\n"
	      "Each command takes --help.  ward --version prints the version and the kernel's features.\n",
	      f);
}

/* ward help profiles: each built-in profile with its own summary. */
static int help_profiles(void)
{
	const char *const *names = ward_profile_names();
	char summary[1024];

	fputs("Built-in profiles (--profile NAME[,NAME...]; docs/profiles.md):\n\n", stdout);
	for (int i = 0; names[i] != NULL; i++) {
		const char *base = ward_profile_base(names[i]);
		if (ward_profile_summary(names[i], summary, sizeof(summary)) < 0)
			summary[0] = '\0';
		printf("  %s%s%s%s\n", names[i], base ? " (on " : "", base ? base : "", base ? ")" : "");
		/* The summary, folded at 72 columns below the name. */
		const char *c = summary;
		while (*c) {
			size_t n = strlen(c);
			if (n > 72) {
				n = 72;
				while (n > 0 && c[n] != ' ')
					n--;
				if (n == 0)
					n = 72;
			}
			printf("      %.*s\n", (int)n, c);
			c += n;
			c += strspn(c, " ");
		}
	}
	fputs("\nexamples:\n"
	      "  ward run --profile claude-code -- claude\n"
	      "  ward run --profile claude-code,npm -- claude     # Claude Code, which runs npm\n"
	      "  ward check --profile go                          # what go's profile adds\n",
	      stdout);
	return 0;
}

static const char help_policy[] =
	"The policy language (ward-policy(5), docs/policy.md): one statement a line.\n"
	"\n"
	"  allow|deny|deny!|ask OPS TARGET...    OPS: read write create delete exec stat\n"
	"                                        connect bind, comma-separated, or *\n"
	"  rewrite OPS PATTERN... -> REPLACEMENT\n"
	"  set undecided ask|deny|allow          when no rule matches\n"
	"  set ask-timeout SECONDS\n"
	"  env NAME VALUE                        a variable for the command\n"
	"  include PATH\n"
	"\n"
	"The last matching rule wins, but a matching deny! always does.  Paths are globs\n"
	"(* ? [..] **) on real paths, with ~ $HOME $PROJECT $TMPDIR $SESSION $UID $USER;\n"
	"network targets are HOST:PORTS, CIDRs, unix:PATH and groups (@loopback,\n"
	"@private, @metadata, @session, @dns).\n"
	"\n"
	"Layers, in order: the profiles, /etc/ward/policy, ~/.config/ward/policy, the\n"
	"project's .ward/policy once trusted (ward trust), --policy FILE, --rule LINE.\n"
	"\n"
	"examples:\n"
	"  allow connect registry.npmjs.org:443\n"
	"  allow write,create,delete ~/.npm/**\n"
	"  deny read ~/secrets/**\n"
	"  ward run -r 'allow connect api.example.com:443' -- ./agent\n"
	"  ward explain --profile npm create ~/.npm/_npx/x\n";

/*
 * ward help [COMMAND|TOPIC]: the usage, a command's help (as COMMAND
 * --help prints it: the command's row, asked for --help), or a topic.
 */
static int cmd_help(int argc, char **argv)
{
	if (argc < 2 || strcmp(argv[0], "help") != 0) {
		usage(stdout);
		return 0;
	}
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		const struct command *c = &commands[i];
		if (c->summary == NULL || c->fn == cmd_help || strcmp(argv[1], c->name) != 0)
			continue;
		char *args[] = { argv[1], "--help", NULL };
		return c->fn(2, args);
	}
	if (strcmp(argv[1], "profiles") == 0)
		return help_profiles();
	if (strcmp(argv[1], "policy") == 0) {
		fputs(help_policy, stdout);
		return 0;
	}
	fprintf(stderr, "ward: no help on '%s': a command (ward help lists them) "
			"or a topic (profiles, policy)\n",
		argv[1]);
	return WARD_EXIT_USAGE;
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
