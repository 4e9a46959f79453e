/*
 * main.c - ward's command line: dispatch to the subcommands.
 */
#include "ward.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

noreturn void die(int status, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fputs("ward: ", stderr);
	va_start(ap, fmt);
	errno = saved;
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;

	fputs("ward: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

const char *term_safe(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (const unsigned char *c = (const unsigned char *)s; *c != '\0' && o + 9 < len; c++) {
		/* C0, DEL, and C1 as UTF-8 (U+0080..U+009F: CSI is one); a backslash doubled. */
		if (*c < 0x20 || *c == 0x7f)
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x", *c);
		else if (*c == 0xc2 && c[1] >= 0x80 && c[1] <= 0x9f) {
			o += (size_t)snprintf(buf + o, len - o, "\\x%02x\\x%02x", c[0], c[1]);
			c++;
		} else if (*c == '\\')
			o += (size_t)snprintf(buf + o, len - o, "\\\\");
		else
			buf[o++] = (char)*c;
	}
	buf[o] = '\0';
	return buf;
}

static const char usage[] =
	"usage: ward COMMAND [OPTIONS] [ARGS]\n"
	"\n"
	"Run a command under a syscall policy, and explain or audit what it did.\n"
	"\n"
	"commands:\n"
	"  run [OPTIONS] -- COMMAND [ARG...]  run COMMAND under supervision\n"
	"  check [OPTIONS] [POLICY...]        validate policies; print the merged, compiled policy\n"
	"  explain [OPTIONS] OP TARGET        which rule decides OP on TARGET, and why\n"
	"  trust [DIR]                        trust DIR's .ward/policy as it is now\n"
	"\n"
	"Each command takes --help.  ward --version prints the version.\n";

int main(int argc, char **argv)
{
	if (argc < 2) {
		fputs(usage, stderr);
		return WARD_EXIT_USAGE;
	}
	const char *cmd = argv[1];
	if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 || strcmp(cmd, "help") == 0) {
		fputs(usage, stdout);
		return 0;
	}
	if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "version") == 0) {
		printf("ward %s\n", WARD_VERSION);
		return 0;
	}
	if (strcmp(cmd, "check") == 0)
		return cmd_check(argc - 1, argv + 1);
	if (strcmp(cmd, "explain") == 0)
		return cmd_explain(argc - 1, argv + 1);
	if (strcmp(cmd, "trust") == 0)
		return cmd_trust(argc - 1, argv + 1);
	if (strcmp(cmd, "run") == 0)
		return cmd_run(argc - 1, argv + 1);
	if (strcmp(cmd, "report") == 0 ||
	    strcmp(cmd, "learn") == 0 || strcmp(cmd, "approve") == 0)
		die(WARD_EXIT_FAILURE, "%s: not implemented in this version", cmd);
	fprintf(stderr, "ward: unknown command '%s'\n%s", cmd, usage);
	return WARD_EXIT_USAGE;
}
