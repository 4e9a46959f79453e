/*
 * run.c - ward run: the session from start to end.
 */
#include "cli.h"
#include "ask.h"
#include "control.h"
#include "compat.h"
#include "procfs.h"
#include "degraded.h"
#include "features.h"
#include "filter.h"
#include "log.h"
#include "proc.h"
#include "repos.h"
#include "restart.h"
#include "report.h"
#include "session.h"
#include "shm.h"
#include "tracer.h"
#include "term/pty.h"
#include "tty.h"
#include "ward.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <jansson.h>
#include <limits.h>
#include <pthread.h>
#include <linux/filter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

static const char help[] =
	"usage: ward run [OPTIONS] -- COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND under supervision: every file access and exec it (and every\n"
	"process it starts) makes is decided by the policy and logged.\n"
	"\n"
	"  --profile NAME[,NAME...]  built-in profiles: default, strict, audit, or one\n"
	"                        layered on default: claude-code, codex, aider, opencode,\n"
	"                        npm, pip, cargo, go (ward help profiles)\n"
	"  -p, --policy FILE     add a policy file (repeatable)\n"
	"  -r, --rule LINE       add a rule (repeatable)\n"
	"  --undecided ask|deny|allow   when no rule matches\n"
	"  --ask terminal|approve|both  who is asked when a rule says ask: the terminal\n"
	"                        ward runs on, `ward approve` from elsewhere, or both\n"
	"                        (the default); with neither, ask is `set undecided`\n"
	"  --mode enforce|shadow shadow: decide and log, deny nothing\n"
	"  --log FILE            the audit log (default $XDG_STATE_HOME/ward/sessions/ID.jsonl)\n"
	"  --project DIR         the project directory (default: the top of the git\n"
	"                        repository holding the current one, else the current one)\n"
	"  --ephemeral           remove the session's scratch directory at the end\n"
	"  --no-preload          do not load libward-preload.so into the command's programs\n"
	"                        (it adds host names, the libc function and stacks to the log)\n"
	"  --backtrace           log the caller's stack with each denial (from the preload)\n"
	"  --degraded[=auto]     enforce through ptrace where seccomp user notification is\n"
	"                        missing or taken (=auto: only there; docs/degraded.md)\n"
	"  -q                    no messages from ward\n"
	"  -v                    say each refusal and ask, with the -r rule that would\n"
	"                        allow it (shadow mode: each would-deny; -vv: every decision)\n"
	"\n"
	"Exit status: COMMAND's (128+N when killed by signal N); 125 when ward fails;\n"
	"126 when COMMAND cannot be run; 127 when it is not found.\n"
	"\n"
	"examples:\n"
	"  ward run --profile claude-code -- claude\n"
	"  ward run --profile npm -- npm install\n"
	"  ward run -r 'allow connect api.example.com:443' -- ./agent.sh\n"
	"  ward run --undecided deny -v -- make test     # refuse what is not allowed, say each\n"
	"  ward run --mode shadow --log /tmp/what.jsonl -- ./agent.sh   # decide, refuse nothing\n";

enum { OPT_MODE = 0x200, OPT_LOG, OPT_EPHEMERAL, OPT_NO_PRELOAD, OPT_DEGRADED, OPT_BACKTRACE, OPT_ASK };

/* --ask: who answers a rule's ask. */
enum { ASK_TERMINAL = 1, ASK_APPROVE = 2 };

/*
 * Whose /proc/PID is the session's, for the policy's rule on other
 * processes' entries: the walk has checked the directory it opened (a task
 * ward traces, or a zombie of the session), and this agrees with it.
 */
static bool session_pred(pid_t pid, void *arg)
{
	(void)arg;
	return proc_maybe_session(pid);
}

static bool foreign_tty_pred(const char *path, void *arg)
{
	(void)arg;
	return tty_foreign(path);
}

/*
 * The parent of session scratch directories, $TMPDIR/ward-UID, is shared
 * by the user's sessions: it must be a real directory of the user's, 0700,
 * or another user on the host could have planted it.
 */
static int check_private_dir(const char *path)
{
	struct stat st;

	if (lstat(path, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode) || st.st_uid != getuid() || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

static int mkdirs(const char *path, mode_t mode)
{
	char buf[PATH_MAX];

	if (strlen(path) >= sizeof(buf))
		return -ENAMETOOLONG;
	strcpy(buf, path);
	for (char *p = buf + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		if (mkdir(buf, mode) < 0 && errno != EEXIST)
			return -errno;
		*p = '/';
	}
	if (mkdir(buf, mode) < 0 && errno != EEXIST)
		return -errno;
	return 0;
}

/*
 * Only ever the session's own scratch directory (or its cache), made by
 * this run.  rm walks it by directory fds and never follows a symlink,
 * whatever a process left behind does meanwhile; no shell reads the path.
 */
static void remove_tree(const char *path)
{
	int st;
	pid_t pid = fork();

	if (pid == 0) {
		execlp("rm", "rm", "-rf", "--", path, (char *)NULL);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0)
		warnx_("could not remove %s", path);
}

/*
 * A project that holds the home directory (ward run from ~, or from /)
 * gives the agent all of it to write under the default profile, but for
 * what the profile protects by name: say so.
 */
static void warn_wide_project(const struct ward_vars *v)
{
	size_t n = strlen(v->project);
	char home[PATH_MAX];

	if (S->quiet || v->home[0] != '/')
		return;
	/* The project is a real path: so must home be (/home a link to /var/home). */
	if (realpath(v->home, home) == NULL)
		snprintf(home, sizeof(home), "%s", v->home);
	if (strcmp(v->project, "/") == 0 ||
	    (strncmp(home, v->project, n) == 0 && (home[n] == '\0' || home[n] == '/')))
		warnx_("the project (%s) holds your home directory: the agent may write all of it "
		       "but its dot files and directories and what the policy protects (--project DIR "
		       "chooses another)",
		       v->project);
}

/* The home directory's real path, for "~" in what ward says (rules see real paths). */
static char home_real[PATH_MAX];

/* path with the home directory written ~, into out. */
static const char *tilde(const char *path, char *out, size_t len)
{
	size_t n = strlen(home_real);
	if (n > 1 && strncmp(path, home_real, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		snprintf(out, len, "~%s", path + n);
	else
		snprintf(out, len, "%s", path);
	return out;
}

/*
 * The rule that would let a refused call through, as -r would take it
 * (-r 'allow create ~/.npm/...'), in out; "" when there is none to give
 * (a name a shell could not take quoted).  Reading, writing or running a
 * file: that file.  Making or removing one: the directory it is in and
 * everything below, or, in the home directory, the top directory it lies
 * in and everything below (~/.npm for ~/.npm/_cacache/tmp/x): a tool
 * makes more than one; but a file of the home directory itself is named
 * alone (~/.npmrc), a directory made there with all below it (the rule
 * ~/.tool followed by slash, star, star: it matches ~/.tool too), never
 * all of ~.
 */
static void paste_rule(const struct log_echo *e, char *out, size_t len)
{
	char target[2 * PATH_MAX], q[3 * PATH_MAX], t[PATH_MAX + 8];

	out[0] = '\0';
	if (e->net) {
		/*
		 * A verified name with the port, as the address rule it stands
		 * for has it: the name alone would allow every port.
		 */
		if (e->host != NULL && e->port >= 0)
			snprintf(target, sizeof(target), "%s:%d", e->host, e->port);
		else
			snprintf(target, sizeof(target), "%s", e->where);
	} else if (e->where[0] == '/') {
		bool dirs = strcmp(e->op, "create") == 0 || strcmp(e->op, "delete") == 0;
		size_t hn = strlen(home_real);
		char dir[PATH_MAX];
		snprintf(dir, sizeof(dir), "%s", e->where);
		if (dirs && hn > 1 && strncmp(dir, home_real, hn) == 0 && dir[hn] == '/') {
			char *top = strchr(dir + hn + 1, '/');
			if (top != NULL)
				*top = '\0'; /* ~/TOP */
			else
				dirs = e->mkdir; /* the directory and below, or the file alone */
		} else if (dirs) {
			char *slash = strrchr(dir, '/');
			if (slash == NULL || slash == dir)
				return;
			*slash = '\0';
		}
		if (policy_quote(q, sizeof(q), tilde(dir, t, sizeof(t)), false) < 0)
			return;
		/* policy_quote escapes for a quoted word; ~ must stay first, unquoted. */
		bool plain = strpbrk(q, " \t#\"\\") == NULL;
		snprintf(target, sizeof(target), "%s%s%s%s", plain ? "" : "\"", q, dirs ? "/**" : "",
			 plain ? "" : "\"");
	} else {
		return;
	}
	if (strchr(target, '\'') != NULL)
		return;
	snprintf(out, len, "-r 'allow %s %s'", e->op, target);
}

/* Whether path's notice was given already (once a path); remembers it. */
static bool told_already(const char *path)
{
	static char told[64][256];
	static int ntold;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
	bool seen = false;

	pthread_mutex_lock(&lock);
	for (int i = 0; i < ntold && !seen; i++)
		seen = strncmp(told[i], path, sizeof(told[i]) - 1) == 0;
	if (!seen && ntold < 64)
		snprintf(told[ntold++], sizeof(told[0]), "%s", path);
	pthread_mutex_unlock(&lock);
	return seen;
}

/*
 * What the terminal is told of a decision.  -v: each refusal, and each
 * ask answered without a person, apart from them (not a call that failed
 * as it would natively: mkdir of a directory that is there), with the rule
 * that decided and the -r line that would allow it; -vv: every decision.
 * Without -v: once a file, a file a rule answers "no such file" (a
 * credential, ~/.npmrc), since the program then runs without it unsaid.
 * The agent names the paths: no escape sequence of its reaches the
 * terminal.
 */
static void tell_decision(const struct log_echo *e)
{
	char where[4 * (160 + 16)], to[4 * 4096], from[4 * 4096], rule[4 * 4096], t[2 * PATH_MAX];
	char name[4 * 256 + 32] = "", via[64] = "";
	bool refused = strcmp(e->decision, "deny") == 0;

	if (S->verbose == 0) {
		if (refused && !S->quiet && e->errnum == ENOENT && e->rule_errnum == ENOENT &&
		    !e->asked && !e->net && !told_already(e->where)) {
			paste_rule(e, rule, sizeof(rule));
			char exe[256];
			const char *base = strrchr(e->exe, '/') ? strrchr(e->exe, '/') + 1 : e->exe;
			warnx_("%s was kept from %s, which it sees as no such file (%s)%s%s",
			       term_safe(base[0] ? base : "the agent", exe, sizeof(exe)),
			       term_safe(tilde(e->where, t, sizeof(t)), where, sizeof(where)),
			       e->rule ? e->rule : "undecided", rule[0] ? ": " : "",
			       term_safe(rule, to, sizeof(to)));
		}
		return;
	}
	/* In shadow mode, what would be denied is told as a refusal is. */
	refused |= e->would_deny;
	if (S->verbose < 2 && (!refused || e->native))
		return;
	const char *word = e->would_deny ? "would deny" : e->asked ? "ask" : e->decision;
	rule[0] = '\0';
	if (refused && !e->native) {
		if (e->hard)
			snprintf(rule, sizeof(rule), ": a hard deny, no rule allows it");
		else if (e->reason != NULL)
			snprintf(rule, sizeof(rule), ": ward's own refusal, no rule allows it");
		else {
			char r[4 * 4096];
			paste_rule(e, r, sizeof(r));
			if (r[0] != '\0')
				snprintf(rule, sizeof(rule), ": %s", term_safe(r, to, sizeof(to)));
		}
	}
	from[0] = '\0';
	if (e->from != NULL) {
		char f[4 * 4096];
		snprintf(from, sizeof(from), " (rename of %s)",
			 term_safe(tilde(e->from, t, sizeof(t)), f, sizeof(f)));
	}
	/* What the preload library adds: the host's name, the libc function. */
	if (e->host != NULL)
		snprintf(name, sizeof(name), " %s", term_safe(e->host, to, sizeof(to)));
	else if (e->hint_host != NULL)
		snprintf(name, sizeof(name), " (said to be %s, not verified)",
			 term_safe(e->hint_host, to, sizeof(to)));
	if (e->via != NULL)
		snprintf(via, sizeof(via), ", via %s", e->via);
	/* Who decided: a rule, set undecided, or ward itself, with its reason. */
	const char *by = e->rule ? e->rule : e->reason ? e->reason : "undecided";
	fprintf(stderr, "ward: %s %s %s%s%s%s%s%s%s (%s%s, pid %d%s)%s\n", word, e->op,
		term_safe(e->net ? e->where : tilde(e->where, t, sizeof(t)), where, sizeof(where)),
		name, from, e->err[0] ? " " : "", e->err, e->to ? " -> " : "",
		e->to ? term_safe(e->to, to, sizeof(to)) : "", by,
		e->asked ? ", no one to answer" : "", e->tid, via, rule);
}

static void tell_repo(const char *path, void *arg)
{
	char safe[4 * PATH_MAX];

	(void)arg;
	fprintf(stderr, "ward:   %s\n", term_safe(path, safe, sizeof(safe)));
}

/* The repositories the agent made or changed (repos.c): said even with -q, code runs there later. */
static void tell_repos(void)
{
	bool more;
	int n = repos_each(NULL, NULL, &more);

	if (n == 0)
		return;
	fprintf(stderr, "ward: the agent made or changed %d git %s inside the project%s; "
			"their config and hooks run at your next git command there, and at "
			"git status in the project once committed as a submodule: look at "
			".git/config and .git/hooks of:\n",
		n, n == 1 ? "repository" : "repositories", more ? " (and more)" : "");
	repos_each(tell_repo, NULL, &more);
}

/* One `env` statement of the policy: set for the command, and noted for the log. */
static int set_env(const char *name, const char *value, const char *loc, void *arg)
{
	(void)loc;
	if (setenv(name, value, 1) < 0)
		die(WARD_EXIT_FAILURE, "cannot set %s for the command: %m", name);
	json_object_set_new(arg, name, jpath(value));
	return 0;
}

/*
 * The variables the policy sets for the command (`env`: a session's own
 * cache directory): in ward's environment, which the command inherits;
 * ward reads none of them.  For session-start, as an object.
 */
static json_t *command_env(void)
{
	json_t *jenv = json_object();
	ward_policy_env(S->policy, set_env, jenv);
	return jenv;
}

/*
 * The profile made for a program, by the name it is run by, and what it
 * lets through: suggested when no profile is named (suggest_profile),
 * never applied unasked.
 */
static const struct {
	const char *cmd, *profile, *what;
} suggestions[] = {
	{ "claude", "claude-code", "its own state" },
	{ "codex", "codex", "its own state" },
	{ "aider", "aider", "its own state" },
	{ "opencode", "opencode", "its own state" },
	{ "npm", "npm", "its cache and the registry" },
	{ "npx", "npm", "its cache and the registry" },
	{ "pnpm", "npm", "its store and the registry" },
	{ "yarn", "npm", "its cache and the registry" },
	{ "pip", "pip", "the package index, with a cache of the session's own" },
	{ "pip3", "pip", "the package index, with a cache of the session's own" },
	{ "uv", "pip", "the package index, with a cache of the session's own" },
	{ "cargo", "cargo", "its registry cache and crates.io" },
	{ "go", "go", "the module proxy, with caches of the session's own" },
};

/*
 * ward: running claude: --profile claude-code lets its own state through.
 * With a profile named instead: the profiles it stood for.
 */
static void tell_profiles(const struct policy_opts *o, const char *cmd, const char *profiles)
{
	const char *base = strrchr(cmd, '/') ? strrchr(cmd, '/') + 1 : cmd;
	char safe[256];

	if (S->quiet)
		return;
	if (o->profile != NULL) {
		warnx_("profiles %s", profiles);
		return;
	}
	for (size_t i = 0; i < sizeof(suggestions) / sizeof(suggestions[0]); i++)
		if (strcmp(base, suggestions[i].cmd) == 0) {
			warnx_("running %s: --profile %s lets %s through",
			       term_safe(base, safe, sizeof(safe)), suggestions[i].profile,
			       suggestions[i].what);
			return;
		}
}

/* What ward run was told, besides the policy options. */
/* --degraded: always, or only where user notification is missing or taken. */
enum { DEGRADED_OFF, DEGRADED_ON, DEGRADED_AUTO, DEGRADED_ENTRY };

struct run_opts {
	struct policy_opts policy;
	int degraded;
	const char *log; /* --log FILE, NULL: the default */
	bool ephemeral;
	bool no_preload, backtrace;
	int ask; /* ASK_TERMINAL | ASK_APPROVE */
};

/*
 * Parse ward run's options into S and ro.  Returns -1 to go on (argv's
 * command at optind), or the exit status.
 */
static int run_options(int argc, char **argv, struct run_opts *ro)
{
	static const struct option longopts[] = {
		POLICY_LONGOPTS,
		{ "mode", required_argument, 0, OPT_MODE },
		{ "log", required_argument, 0, OPT_LOG },
		{ "ephemeral", no_argument, 0, OPT_EPHEMERAL },
		{ "no-preload", no_argument, 0, OPT_NO_PRELOAD },
		{ "degraded", optional_argument, 0, OPT_DEGRADED },
		{ "backtrace", no_argument, 0, OPT_BACKTRACE },
		{ "ask", required_argument, 0, OPT_ASK },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int opt;

	argv[0] = "ward";
	while ((opt = getopt_long(argc, argv, "+p:r:hqv", longopts, NULL)) != -1) {
		if (policy_opt(&ro->policy, opt, optarg))
			continue;
		switch (opt) {
		case 'h':
			fputs(help, stdout);
			return 0;
		case 'q':
			ro->policy.quiet = S->quiet = true;
			break;
		case 'v':
			S->verbose++;
			break;
		case OPT_MODE:
			if (strcmp(optarg, "shadow") == 0)
				S->shadow = true;
			else if (strcmp(optarg, "enforce") != 0)
				die(WARD_EXIT_USAGE, "--mode takes enforce or shadow, not '%s'", optarg);
			break;
		case OPT_LOG:
			ro->log = optarg;
			break;
		case OPT_EPHEMERAL:
			ro->ephemeral = true;
			break;
		case OPT_NO_PRELOAD:
			ro->no_preload = true;
			break;
		case OPT_DEGRADED:
			if (optarg == NULL)
				ro->degraded = DEGRADED_ON;
			else if (strcmp(optarg, "auto") == 0)
				ro->degraded = DEGRADED_AUTO;
			else
				die(WARD_EXIT_USAGE, "--degraded takes nothing or =auto, not '%s'", optarg);
			break;
		case OPT_BACKTRACE:
			ro->backtrace = true;
			break;
		case OPT_ASK:
			ro->ask = strcmp(optarg, "terminal") == 0  ? ASK_TERMINAL
				  : strcmp(optarg, "approve") == 0 ? ASK_APPROVE
				  : strcmp(optarg, "both") == 0	   ? ASK_TERMINAL | ASK_APPROVE
								   : 0;
			if (ro->ask == 0)
				die(WARD_EXIT_USAGE, "--ask takes terminal, approve or both, not '%s'",
				    optarg);
			break;
		default:
			fputs(help, stderr);
			return WARD_EXIT_USAGE;
		}
	}
	/* Stacks are taken by the preload library in the agent: without it there are none. */
	if (ro->backtrace && ro->no_preload)
		die(WARD_EXIT_FAILURE, "--backtrace needs the preload library, which --no-preload leaves out");
	if (optind >= argc) {
		fprintf(stderr, "ward: run needs a command\n%s", help);
		return WARD_EXIT_USAGE;
	}
	return -1;
}

/*
 * The session before the agent: the kernel's features, the session's id
 * and exec key, the policy, the cache, the filter and the notification
 * sizes, in S.
 */
static void session_setup(struct policy_opts *o, int degraded)
{
	struct ward_error err;
	char why[256] = "";
	int rc;

	rc = features_detect(&S->feat, why, sizeof(why));
	procfs_no_statx_mnt = !S->feat.statx_mnt_id; /* (before 5.8: /proc tells instead) */
	/*
	 * --degraded (degraded.c) where user notification is missing or taken,
	 * or wherever it is forced.  Without openat2 (before 5.6, or masked)
	 * ward walks its lookups itself (compat.c), and the agent's own open
	 * is made with its thread group stopped; without pidfd_getfd (5.6)
	 * the tracer fetches the agent's fds (degraded.c): only a degraded
	 * session meets such a kernel.  A WARD_KERNEL_FEATURES that is not
	 * understood is fatal either way.
	 */
	bool notif_missing = !S->feat.user_notif || !S->feat.addfd || !S->feat.openat2 ||
			     !S->feat.pidfd_getfd;
	if (rc != -EINVAL &&
	    (degraded == DEGRADED_ON || degraded == DEGRADED_ENTRY ||
	     (degraded == DEGRADED_AUTO && rc < 0 && notif_missing)) &&
	    (rc == 0 || notif_missing)) {
		compat_openat2_off = !S->feat.openat2;
		S->degraded = true;
		/* Another listener's answers outrank SECCOMP_RET_TRACE: every call's entry stop. */
		S->degraded_entry = S->feat.taken || degraded == DEGRADED_ENTRY;
		degraded_block_signals(); /* before any thread of ward's starts */
		if (!S->quiet) {
			warnx_("--degraded: enforcement by ptrace%s%s; what it cannot promise:",
			       S->degraded_entry ? " at every call's entry (another seccomp listener "
						   "supervises this process)" : "",
			       rc < 0 && !S->degraded_entry ? " (the kernel lacks user notification)" : "");
			for (int i = 0; degraded_limits[i] != NULL; i++)
				warnx_("  - %s", degraded_limits[i]);
			if (compat_openat2_off)
				warnx_("  - %s", degraded_limit_no_openat2);
			if (!S->feat.pidfd_getfd)
				warnx_("  - %s", degraded_limit_no_getfd);
		}
		rc = 0;
	}
	if (rc < 0)
		die(WARD_EXIT_FAILURE, "%s", why);
	filter_set_degraded(S->degraded);

	uint32_t rnd;
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		die(WARD_EXIT_FAILURE, "getrandom: %m");
	snprintf(S->id, sizeof(S->id), "%08x", rnd);
	if (getrandom(S->exec_key, sizeof(S->exec_key), 0) != sizeof(S->exec_key))
		die(WARD_EXIT_FAILURE, "getrandom: %m");

	S->policy = policy_load(o, S->id, &S->vars, &err);
	if (S->policy == NULL)
		die(WARD_EXIT_FAILURE, "%s", err.msg);
	ward_policy_set_session(S->policy, session_pred, NULL);
	if (!S->quiet) {
		char safe[2 * PATH_MAX];
		warnx_("project %s: %s", term_safe(S->vars.project, safe, sizeof(safe)),
		       o->project_why);
	}
	warn_wide_project(&S->vars);
	tty_init();
	if (pty_active())
		tty_own_pty(pty_real_dev(), pty_slave_dev());
	filter_set_own_pty(pty_active());
	shm_init();
	ward_policy_set_ttys(S->policy, foreign_tty_pred, NULL);
	S->cache = ward_cache_new(16384);
	if (S->cache == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	if ((rc = filter_build(S->policy, &ward_filter, why, sizeof(why))) < 0)
		die(WARD_EXIT_FAILURE, "%s", why);

	struct seccomp_notif_sizes sizes = { 0 };
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0 && !S->degraded)
		die(WARD_EXIT_FAILURE, "SECCOMP_GET_NOTIF_SIZES: %m");
	S->notify_size = sizes.seccomp_notif > sizeof(struct seccomp_notif)
				 ? sizes.seccomp_notif : (int)sizeof(struct seccomp_notif);
	S->resp_size = sizes.seccomp_notif_resp > sizeof(struct seccomp_notif_resp)
			       ? sizes.seccomp_notif_resp : (int)sizeof(struct seccomp_notif_resp);
}

/*
 * libward-preload.so for the agent's programs, unless --no-preload: beside
 * ward's own program, or in ../lib/ward/ of an install.  A session without
 * it loses only the hints (names, the libc function, stacks), so a missing
 * library is said and the session goes on; --backtrace, which needs it,
 * fails.
 */
static void preload_prepare(const struct run_opts *ro)
{
	char exe[PATH_MAX], lib[PATH_MAX];
	ssize_t n;
	int rc;

	S->preload.base = 0;
	if (ro->no_preload)
		return;
	n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	rc = n > 0 ? 0 : -ENOENT;
	if (n > 0) {
		exe[n] = '\0';
		rc = preload_find(exe, lib, sizeof(lib));
	}
	if (rc == 0)
		rc = preload_setup(&S->preload, lib, ro->backtrace);
	if (rc == 0)
		return;
	S->preload.base = 0;
	if (ro->backtrace)
		die(WARD_EXIT_FAILURE, "--backtrace needs the preload library: %s", rc == -EINVAL
			? "its path cannot be named in LD_PRELOAD (a blank or a colon in it)"
			: "no " PRELOAD_LIB_NAME " beside ward or in ../lib/ward/");
	if (!S->quiet)
		warnx_("running without the preload library (%s): the log has no host names from "
		       "it, no libc function, no stacks",
		       rc == -EINVAL ? "its path has a blank or a colon, which LD_PRELOAD cannot name"
				     : "no " PRELOAD_LIB_NAME " beside ward or in ../lib/ward/");
}

/*
 * The rule ward added lets every program read the library, but a deny! of
 * the user's still wins; then the loader could not open it, and would say
 * so in every process: the session runs without it.
 */
static void preload_check(bool backtrace)
{
	struct ward_verdict v;

	if (S->preload.base == 0)
		return;
	if (ward_decide_path(S->policy, WARD_OP_READ, S->preload.lib, &v) == 0 && v.action == WARD_ALLOW)
		return;
	S->preload.base = 0;
	if (backtrace)
		die(WARD_EXIT_FAILURE, "--backtrace needs the preload library, and the policy denies "
		    "reading %s (%s)", S->preload.lib, ward_rule_location(v.rule));
	if (!S->quiet)
		warnx_("running without the preload library: the policy denies reading %s (%s)",
		       S->preload.lib, ward_rule_location(v.rule));
}

/* The session's scratch directory, private to the user. */
/*
 * Whose processes a question's chain of parents shows: the session's, but
 * not the pty's session leader, which is ward's (tracer.c, pty_child).
 */
static bool chain_pred(pid_t pid)
{
	return !(pty_active() && pid == S->child) && proc_of_session(pid);
}

/*
 * Who can be asked (DESIGN.md §5): the terminal, through the pty (opened
 * before the policy: the filter and the session's terminals depend on
 * it), and `ward approve`, through the control socket.
 */
static void ask_setup(const struct run_opts *ro, char **cmd)
{
	/* ask.c keeps the pointer for the session: the path outlives this call. */
	static char policy[PATH_MAX + 16];
	char dir[PATH_MAX + 8], cwd[PATH_MAX];
	int rc;

	snprintf(policy, sizeof(policy), "%s/ward/policy", S->vars.xdg_config_home);
	struct ask_config cfg = {
		.vars = &S->vars,
		.session = S->id,
		.timeout = ward_policy_ask_timeout(S->policy),
		.undecided_allows = ward_policy_undecided(S->policy) == WARD_UNDECIDED_ALLOW,
		.user_policy = policy,
		/* Asked only through ward approve: a question waits for one to come. */
		.wait_for_approver = ro->ask == ASK_APPROVE,
		.ward = getpid(),
		.in_session = chain_pred,
	};
	if ((rc = ask_init(&cfg)) < 0)
		die(WARD_EXIT_FAILURE, "cannot set up the questions: %s", strerror(-rc));
	if (!(ro->ask & ASK_APPROVE))
		return;
	snprintf(dir, sizeof(dir), "%s/ward", S->vars.xdg_runtime_dir);
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		strcpy(cwd, "?");
	if ((rc = control_start(dir, S->id, cmd, cwd)) < 0 && !S->quiet)
		warnx_("no control socket in %s (%s): ward approve cannot reach this session", dir,
		       strerror(-rc));
}

static void scratch_dir(void)
{
	char parent[PATH_MAX];
	int rc;

	if ((rc = mkdirs(S->vars.session, 0700)) < 0)
		die(WARD_EXIT_FAILURE, "cannot make %s: %s", S->vars.session, strerror(-rc));
	snprintf(parent, sizeof(parent), "%s", S->vars.session);
	*strrchr(parent, '/') = '\0';
	if ((rc = check_private_dir(parent)) < 0 || (rc = check_private_dir(S->vars.session)) < 0)
		die(WARD_EXIT_FAILURE, "%s is not a private directory of this user (0700)", parent);
}

/*
 * Open the log (log, or the default in path) and add ward's own rules for
 * the session: the log, ward's program, the policy files, the preload
 * library (protect.c).
 * Returns the log's name.
 */
static const char *open_log(const char *log, bool backtrace, char path[PATH_MAX])
{
	struct ward_error err;
	char real[PATH_MAX];
	int rc;

	if (log == NULL) {
		snprintf(path, PATH_MAX, "%s/ward/sessions", S->vars.xdg_state_home);
		if ((rc = mkdirs(path, 0700)) < 0)
			die(WARD_EXIT_FAILURE, "cannot make %s: %s", path, strerror(-rc));
		/* The retention limit (set log-retention), applied to the sessions before this one. */
		uint64_t age, bytes, freed;
		unsigned long removed;
		ward_policy_log_retention(S->policy, &age, &bytes);
		if (sessions_prune(path, age, bytes, &removed, &freed) == 0 && removed > 0 &&
		    !S->quiet)
			warnx_("removed %lu old session log%s (%.1f MiB) beyond the retention limit "
			       "(set log-retention)",
			       removed, removed == 1 ? "" : "s", (double)freed / (1024.0 * 1024.0));
		snprintf(path, PATH_MAX, "%s/ward/sessions/%s.jsonl", S->vars.xdg_state_home, S->id);
		log = path;
	}
	/* -v's lines, and the notices given without it. */
	if (realpath(S->vars.home, home_real) == NULL)
		snprintf(home_real, sizeof(home_real), "%s", S->vars.home);
	log_set_echo(tell_decision);
	if ((rc = log_open(log)) < 0)
		die(WARD_EXIT_FAILURE, "cannot open the log %s: %s", log, strerror(-rc));
	if (realpath(log, real) == NULL)
		die(WARD_EXIT_FAILURE, "cannot resolve the log %s: %m", log);
	struct protect_ctx pc = {
		.log = log_is_device() ? NULL : real,
		.preload = S->preload.base != 0 ? S->preload.lib : NULL,
	};
	if (protect_add(S->policy, PROTECT_AFTER_POLICY, &pc, &err) < 0)
		die(WARD_EXIT_FAILURE, "%s", err.msg);
	preload_check(backtrace);
	return log;
}

/* --degraded: what it cannot promise (session-start's "degraded"), or NULL: not degraded. */
static json_t *degraded_json(void)
{
	if (!S->degraded)
		return NULL;
	json_t *a = json_array();
	for (int i = 0; degraded_limits[i] != NULL; i++)
		json_array_append_new(a, json_string(degraded_limits[i]));
	if (compat_openat2_off)
		json_array_append_new(a, json_string(degraded_limit_no_openat2));
	if (!S->feat.pidfd_getfd)
		json_array_append_new(a, json_string(degraded_limit_no_getfd));
	return json_pack("{s:s, s:o}", "stops", S->degraded_entry ? "entry" : "seccomp", "limits", a);
}

/* session-start: the command, where, the policy (profiles as loaded), the kernel, env. */
static void log_session_start(char **cmd, int n, const struct policy_opts *o,
			      const char *profiles, json_t *jenv)
{
	json_t *jargv = json_array();
	for (int i = 0; i < n; i++)
		json_array_append_new(jargv, jpath(cmd[i]));
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		strcpy(cwd, "?");
	json_t *jpol = json_array();
	for (int i = 0; i < o->nfiles; i++)
		json_array_append_new(jpol, jpath(o->files[i]));
	/* The rules whose symlinks were not all followed (rules/links.c), said on stderr too. */
	size_t ncut;
	const char *cut = ward_policy_link_scan_cut(S->policy, &ncut);
	json_t *jcut = cut == NULL ? NULL
				   : json_pack("{s:I, s:o}", "rules", (json_int_t)ncut, "first",
					       jpath(cut));
	if (json_object_size(jenv) == 0) {
		json_decref(jenv);
		jenv = NULL;
	}
	log_event(EV_SESSION_START, 0,
		  "{s:o, s:s, s:s, s:s, s:o, s:s, s:s, s:{s:s, s:b, s:b, s:b, s:b, s:s*}, s:o*, s:o*, s:o, s:b, s:o*}",
		  "argv", jargv, "cwd", cwd, "project", S->vars.project, "profile", profiles, "policy",
		  jpol, "mode", S->shadow ? "shadow" : "enforce", "version", WARD_VERSION, "kernel",
		  "release", S->feat.kernel, "addfd_send", S->feat.addfd_send, "wait_killable_recv",
		  S->feat.wait_killable, "sync_wake_up", S->feat.sync_wake_up, "pidfd_thread",
		  S->feat.pidfd_thread, "masked", S->feat.masked[0] ? S->feat.masked : NULL,
		  "links_not_followed", jcut, "env", jenv, "preload",
		  S->preload.base != 0 ? jpath(S->preload.lib) : json_false(), "backtrace",
		  S->preload.base != 0 && S->preload.backtrace, "degraded", degraded_json());
}

/*
 * session-end: the status, how long, the person's answers, and the lines
 * lost, repositories touched and what was put back, if any.
 */
static void log_session_end(int status, double secs)
{
	unsigned long lost = log_lost();
	json_t *repos = repos_json();
	json_t *answers = ask_answers_json();

	if (answers != NULL && json_array_size(answers) == 0) {
		json_decref(answers);
		answers = NULL;
	}

	if (repos != NULL && json_array_size(repos) == 0) {
		json_decref(repos);
		repos = NULL;
	}
	/* What the session left that runs code (git config and hooks, ~/.claude.json): put back. */
	json_t *put_back = guard_end(repos);
	/* The counts save ward sessions reading the whole log; refused: not those that failed natively. */
	unsigned long c[3];
	log_counts(c);
	/* Restarted calls answered with what ward had done (restart.c): no line of their own. */
	unsigned long again = restart_answered();
	log_event(EV_SESSION_END, 0, "{s:i, s:f, s:{s:I, s:I, s:I, s:I}, s:o*, s:o*, s:o*, s:o*, s:o*}",
		  "status", status, "duration", secs, "counts", "allowed", (json_int_t)c[0], "denied",
		  (json_int_t)c[1], "refused", (json_int_t)log_refused(), "asked", (json_int_t)c[2],
		  "lost", lost > 0 ? json_integer((json_int_t)lost) : NULL, "repos", repos, "put_back",
		  put_back, "restarts_answered", again > 0 ? json_integer((json_int_t)again) : NULL, "answers",
		  answers);
}

/*
 * The session's last line: ward: 3 refused, 2 asked (ward report 1a2b3c4d
 * for details): the calls refused (not those that failed as they would
 * natively anyway) and those put to a person.  The log by the session's id
 * where it is the default one, else by its name.
 */
static void tell_summary(const char *log, bool named)
{
	unsigned long c[3], refused = log_refused();
	char safe[2 * PATH_MAX];

	log_counts(c);
	if (refused == 0 && c[2] == 0)
		fprintf(stderr, "ward: nothing refused or asked");
	else
		fprintf(stderr, "ward: %lu refused, %lu asked", refused, c[2]);
	fprintf(stderr, " (ward report %s for details)\n",
		named ? term_safe(log, safe, sizeof(safe)) : S->id);
}

int cmd_run(int argc, char **argv)
{
	static struct session session;
	struct run_opts ro = { .policy = { .undecided = -1 }, .ask = ASK_TERMINAL | ASK_APPROVE };
	char why[256] = "", path[PATH_MAX];
	int rc, status;

	S = &session;
	S->own_pgrp = getpgrp();
	if ((rc = run_options(argc, argv, &ro)) >= 0)
		return rc;
	/* The terminal becomes ward's, the agent's a pty: before the filter is built. */
	if ((ro.ask & ASK_TERMINAL) && (rc = pty_open()) < 0)
		die(WARD_EXIT_FAILURE, "cannot open a pseudo-terminal: %s", strerror(-rc));
	/*
	 * WARD_DEGRADED=1: --degraded, for running the test suites so (make
	 * degraded); =entry: at every call's entry stop, as under another
	 * listener, where there is none.
	 */
	const char *dg = getenv("WARD_DEGRADED");
	if (ro.degraded == DEGRADED_OFF && dg != NULL && strcmp(dg, "1") == 0)
		ro.degraded = DEGRADED_ON;
	if (ro.degraded == DEGRADED_OFF && dg != NULL && strcmp(dg, "entry") == 0)
		ro.degraded = DEGRADED_ENTRY;
	session_setup(&ro.policy, ro.degraded);
	preload_prepare(&ro);
	scratch_dir();
	char profiles[512];
	if (policy_profiles(&ro.policy, profiles, sizeof(profiles)) < 0)
		snprintf(profiles, sizeof(profiles), "%s", ro.policy.profile ? ro.policy.profile : "default");
	tell_profiles(&ro.policy, argv[optind], profiles);
	const char *log = open_log(ro.log, ro.backtrace, path);
	log_session_start(argv + optind, argc - optind, &ro.policy, profiles, command_env());
	ask_setup(&ro, argv + optind);
	free(ro.policy.files);
	free(ro.policy.rules);

	guard_start(&S->vars, profiles);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	/* The agent's environment: the library first in LD_PRELOAD, and the channel. */
	char **envp = S->preload.base != 0 ? preload_envp(&S->preload, environ) : environ;
	if (envp == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	int trc = tracer_run(argv + optind, envp, &status, why, sizeof(why));
	if (envp != environ)
		free(envp);
	if (trc < 0)
		die(WARD_EXIT_FAILURE, "%s", why);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	ask_shutdown(); /* what still waits is withdrawn: nobody is left to answer it */
	control_stop();
	log_session_end(status, (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	/* Said even with -q: code that runs after the session. */
	tell_repos();
	log_close();
	/* Said even with -q: the log is not the whole account of the session. */
	unsigned long lost = log_lost();
	if (lost > 0)
		fprintf(stderr, "ward: session %s: %lu events could not be written to the log %s\n",
			S->id, lost, log);
	if (!S->quiet)
		tell_summary(log, ro.log != NULL);
	if (ro.ephemeral) {
		remove_tree(S->vars.session);
	} else {
		/* The caches the profiles keep the session's own (`env`): theirs only. */
		char cache[PATH_MAX + 8];
		struct stat cst;
		snprintf(cache, sizeof(cache), "%s/cache", S->vars.session);
		if (lstat(cache, &cst) == 0)
			remove_tree(cache);
		rmdir(S->vars.session); /* only if the session left nothing there */
	}
	return status;
}
