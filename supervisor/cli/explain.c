/*
 * explain.c - ward explain: which rule decides OP on TARGET.
 *
 * The target is judged lexically: a path is made absolute and normal
 * against the current directory but not resolved (it need not exist), and
 * a host name is not looked up, unless --resolve asks ward to resolve it as
 * it does for `ward run` (resolver.c) and judge each address.
 */
#include "cli.h"
#include "netstate.h"
#include "resolver.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char help[] =
	"usage: ward explain [--profile NAME] [-p FILE]... [-r LINE]... [--project DIR]\n"
	"                    [--undecided ask|deny|allow] [--resolve] [-q] OP TARGET\n"
	"\n"
	"Print 'DECISION OP TARGET RULE-LOCATION': DECISION is allow, deny, ask or\n"
	"rewrite:PATH; RULE-LOCATION is FILE:LINE, builtin:PROFILE:LINE, --rule:N, or\n"
	"'undecided' when no rule matches.  OP is read, write, create, delete, exec,\n"
	"stat, connect or bind.  A path TARGET is made absolute lexically (it need not\n"
	"exist), and the part of it that exists is resolved to a real path, as 'ward\n"
	"run' would see it; a network TARGET is HOST:PORT, [IPV6]:PORT, unix:PATH,\n"
	"unix-abstract:NAME or socket:KIND, and a host name is matched by domain rules\n"
	"only, without being resolved.  With --resolve, ward resolves the host name as\n"
	"'ward run' does and prints one line for each address, 'HOST:PORT (ADDRESS)'.\n";

/*
 * --resolve: the name t->host resolved by ward, and one line for each
 * address, judged as ward run judges a connection to it whose name ward
 * verified.  Returns 0, or -errno.
 */
static int explain_resolved(struct ward_policy *p, enum ward_op op, const struct ward_net_target *t,
			    const char *arg)
{
	uint8_t addrs[RESOLVER_ADDRS][16];
	int n = resolver_lookup(t->host, addrs, RESOLVER_ADDRS, NULL);
	if (n < 0)
		die(WARD_EXIT_FAILURE, "cannot resolve '%s': %s", t->host,
		    n == -ENOENT ? "no such name" : strerror(-n));
	if (n == 0)
		die(WARD_EXIT_FAILURE, "'%s' has no address", t->host);
	for (int i = 0; i < n; i++) {
		struct ward_net_target a = { .kind = WARD_NET_INET, .port = t->port, .host = t->host };
		struct ward_verdict v;
		char addr[64], target[512], line[1024];
		memcpy(a.addr, addrs[i], 16);
		net_format(a.addr, addr, sizeof(addr));
		snprintf(target, sizeof(target), "%s (%s)", arg, addr);
		int rc = ward_decide_net(p, op, &a, &v);
		if (rc == 0)
			rc = ward_verdict_format(&v, op, target, line, sizeof(line));
		if (rc < 0)
			return rc;
		puts(line);
	}
	return 0;
}

int cmd_explain(int argc, char **argv)
{
	static const struct option longopts[] = {
		POLICY_LONGOPTS,
		{ "help", no_argument, 0, 'h' },
		{ "resolve", no_argument, 0, 'R' },
		{ 0, 0, 0, 0 },
	};
	struct policy_opts o = { .undecided = -1 };
	struct ward_verdict v;
	struct ward_error err;
	struct ward_vars vars;
	char target[PATH_MAX], cwd[PATH_MAX], line[2 * PATH_MAX];
	int opt, rc;
	bool resolve = false;

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
		if (opt == 'R') {
			resolve = true;
			continue;
		}
		fputs(help, stderr);
		return WARD_EXIT_USAGE;
	}
	if (argc - optind != 2) {
		fprintf(stderr, "ward: explain takes OP and TARGET\n%s", help);
		return WARD_EXIT_USAGE;
	}
	enum ward_op op = ward_op_parse(argv[optind]);
	const char *arg = argv[optind + 1];
	if (op == 0)
		die(WARD_EXIT_USAGE, "unknown op '%s'", argv[optind]);
	if (arg[0] == '\0')
		die(WARD_EXIT_USAGE, "empty target");

	struct ward_policy *p = policy_load(&o, NULL, &vars, &err);
	if (p == NULL)
		die(WARD_EXIT_FAILURE, "%s", err.msg);

	if (op & WARD_OPS_NET) {
		struct ward_net_target t;
		if (ward_net_target_parse(arg, &t, target, sizeof(target)) < 0)
			die(WARD_EXIT_USAGE,
			    "'%s' is not HOST:PORT, [IPV6]:PORT, unix:PATH, unix-abstract:NAME or socket:KIND",
			    arg);
		if (resolve && t.kind == WARD_NET_NAME) {
			rc = explain_resolved(p, op, &t, arg);
			line[0] = '\0';
		} else {
			rc = ward_decide_net(p, op, &t, &v);
			if (rc == 0)
				rc = ward_verdict_format(&v, op, arg, line, sizeof(line));
		}
	} else {
		if (strncmp(arg, "memfd:", 6) == 0) {
			if (op != WARD_OP_EXEC)
				die(WARD_EXIT_USAGE, "memfd: targets take only the exec op");
			snprintf(target, sizeof(target), "%s", arg);
		} else {
			if (getcwd(cwd, sizeof(cwd)) == NULL)
				die(WARD_EXIT_FAILURE, "cannot get the current directory: %m");
			char norm[PATH_MAX];
			if (ward_path_normalize(cwd, arg, norm, sizeof(norm)) < 0)
				die(WARD_EXIT_USAGE, "path too long: '%s'", arg);
			/*
			 * Rules are matched on real paths, so resolve what exists of the
			 * target the same way rule prefixes are; the rest stays lexical.
			 */
			if (ward_path_canonical(norm, target, sizeof(target)) < 0)
				snprintf(target, sizeof(target), "%s", norm);
		}
		rc = ward_decide_path(p, op, target, &v);
		if (rc == 0)
			rc = ward_verdict_format(&v, op, target, line, sizeof(line));
	}
	if (rc < 0)
		die(WARD_EXIT_FAILURE, "cannot decide: %s", strerror(-rc));
	if (line[0] != '\0')
		puts(line);
	ward_policy_free(p);
	free(o.files);
	free(o.rules);
	return 0;
}
