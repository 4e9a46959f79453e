/*
 * run.c - ward run: the session from start to end.
 */
#include "cli.h"
#include "ask.h"
#include "control.h"
#include "features.h"
#include "filter.h"
#include "log.h"
#include "proc.h"
#include "repos.h"
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
#include <linux/filter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <unistd.h>

static const char help[] =
	"usage: ward run [OPTIONS] -- COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND under supervision: every file access and exec it (and every\n"
	"process it starts) makes is decided by the policy and logged.\n"
	"\n"
	"  --profile NAME        built-in profile: default, strict, audit\n"
	"  -p, --policy FILE     add a policy file (repeatable)\n"
	"  -r, --rule LINE       add a rule (repeatable)\n"
	"  --undecided ask|deny|allow   when no rule matches\n"
	"  --ask terminal|approve|both  who is asked when a rule says ask: the terminal\n"
	"                        ward runs on, `ward approve` from elsewhere, or both\n"
	"                        (the default); with neither, ask is `set undecided`\n"
	"  --mode enforce|shadow shadow: decide and log, deny nothing\n"
	"  --log FILE            the audit log (default $XDG_STATE_HOME/ward/sessions/ID.jsonl)\n"
	"  --project DIR         the project directory (default: the current one)\n"
	"  --ephemeral           remove the session's scratch directory at the end\n"
	"  --no-preload          do not load libward-preload.so (ward does not load it yet)\n"
	"  -q                    no messages from ward\n"
	"  -v                    print each denial to stderr (shadow mode: each would-deny;\n"
	"                        -vv: every decision)\n"
	"\n"
	"Exit status: COMMAND's (128+N when killed by signal N); 125 when ward fails;\n"
	"126 when COMMAND cannot be run; 127 when it is not found.\n";

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

static void remove_tree(const char *path)
{
	char cmd[PATH_MAX + 32];
	/* Only ever the session's own scratch directory, made by this run. */
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", path);
	if (system(cmd) != 0)
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

/*
 * -v: denials on stderr; -vv: every decision.  The agent names the paths:
 * no escape sequence of its reaches the terminal.
 */
static void tell_decision(const struct log_echo *e)
{
	char where[4 * (160 + 16)], to[4 * 4096];

	/* -v: denials (in shadow mode, what would be denied); -vv: every decision. */
	if (S->verbose < 2 && strcmp(e->decision, "deny") != 0 && !e->would_deny)
		return;
	fprintf(stderr, "ward: %s %s %s %s%s%s (%s, pid %d)\n",
		e->would_deny ? "would deny" : e->decision, e->op,
		term_safe(e->where, where, sizeof(where)), e->err, e->to ? " -> " : "",
		e->to ? term_safe(e->to, to, sizeof(to)) : "", e->rule ? e->rule : "no rule", e->tid);
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

/* What ward run was told, besides the policy options. */
struct run_opts {
	struct policy_opts policy;
	const char *log; /* --log FILE, NULL: the default */
	bool ephemeral;
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
		{ "degraded", no_argument, 0, OPT_DEGRADED },
		{ "backtrace", no_argument, 0, OPT_BACKTRACE },
		{ "ask", required_argument, 0, OPT_ASK },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	int opt;
	bool no_preload = false, backtrace = false;

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
			no_preload = true; /* ward run does not load the library yet: nothing else to leave out */
			break;
		case OPT_DEGRADED:
			die(WARD_EXIT_FAILURE, "--degraded needs the preload library, which this version lacks");
		case OPT_BACKTRACE:
			backtrace = true;
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
	if (backtrace && no_preload)
		die(WARD_EXIT_FAILURE, "--backtrace needs the preload library, which --no-preload leaves out");
	if (backtrace)
		die(WARD_EXIT_FAILURE, "--backtrace is not available in this version");
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
static void session_setup(const struct policy_opts *o)
{
	struct ward_error err;
	char why[256] = "";
	int rc;

	if ((rc = features_detect(&S->feat, why, sizeof(why))) < 0)
		die(WARD_EXIT_FAILURE, "%s", why);

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

	struct seccomp_notif_sizes sizes;
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		die(WARD_EXIT_FAILURE, "SECCOMP_GET_NOTIF_SIZES: %m");
	S->notify_size = sizes.seccomp_notif > sizeof(struct seccomp_notif)
				 ? sizes.seccomp_notif : (int)sizeof(struct seccomp_notif);
	S->resp_size = sizes.seccomp_notif_resp > sizeof(struct seccomp_notif_resp)
			       ? sizes.seccomp_notif_resp : (int)sizeof(struct seccomp_notif_resp);
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
	char dir[PATH_MAX + 8], policy[PATH_MAX + 16], cwd[PATH_MAX];
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
 * the session: the log, ward's program, the policy files (protect.c).
 * Returns the log's name.
 */
static const char *open_log(const char *log, char path[PATH_MAX])
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
	if (S->verbose > 0)
		log_set_echo(tell_decision);
	if ((rc = log_open(log)) < 0)
		die(WARD_EXIT_FAILURE, "cannot open the log %s: %s", log, strerror(-rc));
	if (realpath(log, real) == NULL)
		die(WARD_EXIT_FAILURE, "cannot resolve the log %s: %m", log);
	struct protect_ctx pc = { .log = log_is_device() ? NULL : real };
	if (protect_add(S->policy, PROTECT_AFTER_POLICY, &pc, &err) < 0)
		die(WARD_EXIT_FAILURE, "%s", err.msg);
	return log;
}

/* session-start: the command, where, the policy, the kernel. */
static void log_session_start(char **cmd, int n, const struct policy_opts *o)
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
	log_event(EV_SESSION_START, 0,
		  "{s:o, s:s, s:s, s:s, s:o, s:s, s:s, s:{s:s, s:b, s:b, s:b}, s:o*}", "argv", jargv,
		  "cwd", cwd, "project", S->vars.project, "profile",
		  o->profile ? o->profile : "default", "policy", jpol, "mode",
		  S->shadow ? "shadow" : "enforce", "version", WARD_VERSION, "kernel", "release",
		  S->feat.kernel, "addfd_send", S->feat.addfd_send, "wait_killable_recv",
		  S->feat.wait_killable, "sync_wake_up", S->feat.sync_wake_up, "links_not_followed",
		  jcut);
}

/* session-end: the status, how long, the person's answers, and the lines lost and repositories touched, if any. */
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
	/* The counts save ward sessions reading the whole log. */
	unsigned long c[3];
	log_counts(c);
	log_event(EV_SESSION_END, 0, "{s:i, s:f, s:{s:I, s:I, s:I}, s:o*, s:o*, s:o*}", "status", status,
		  "duration", secs, "counts", "allowed", (json_int_t)c[0], "denied",
		  (json_int_t)c[1], "asked", (json_int_t)c[2], "lost",
		  lost > 0 ? json_integer((json_int_t)lost) : NULL, "repos", repos, "answers", answers);
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
	session_setup(&ro.policy);
	scratch_dir();
	const char *log = open_log(ro.log, path);
	log_session_start(argv + optind, argc - optind, &ro.policy);
	ask_setup(&ro, argv + optind);
	free(ro.policy.files);
	free(ro.policy.rules);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	if (tracer_run(argv + optind, &status, why, sizeof(why)) < 0)
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
		fprintf(stderr, "ward: session %s: log %s\n", S->id, log);
	if (ro.ephemeral)
		remove_tree(S->vars.session);
	else
		rmdir(S->vars.session); /* only if the session left nothing there */
	return status;
}
