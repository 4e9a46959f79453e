/*
 * cmd_run.c - ward run: the session from start to end.
 */
#include "sup.h"
#include "cli/report.h"

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


struct session *S;
struct sock_fprog ward_filter;

static const char help[] =
	"usage: ward run [OPTIONS] -- COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND under supervision: every file access and exec it (and every\n"
	"process it starts) makes is decided by the policy and logged.\n"
	"\n"
	"  --profile NAME        built-in profile: default, strict, audit\n"
	"  -p, --policy FILE     add a policy file (repeatable)\n"
	"  -r, --rule LINE       add a rule (repeatable)\n"
	"  --undecided ask|deny|allow   when no rule matches (ask: deny, until prompting)\n"
	"  --mode enforce|shadow shadow: decide and log, deny nothing\n"
	"  --log FILE            the audit log (default $XDG_STATE_HOME/ward/sessions/ID.jsonl)\n"
	"  --project DIR         the project directory (default: the current one)\n"
	"  --ephemeral           remove the session's scratch directory at the end\n"
	"  --no-preload          do not load libward-preload.so (it is not built yet)\n"
	"  -q                    no messages from ward\n"
	"  -v                    print each denial to stderr (shadow mode: each would-deny;\n"
	"                        -vv: every decision)\n"
	"\n"
	"Exit status: COMMAND's (128+N when killed by signal N); 125 when ward fails;\n"
	"126 when COMMAND cannot be run; 127 when it is not found.\n";

enum { OPT_MODE = 0x200, OPT_LOG, OPT_EPHEMERAL, OPT_NO_PRELOAD, OPT_DEGRADED, OPT_BACKTRACE };

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
 * A deny! rule of ward's own for one path (the log, whatever --log names;
 * ward's executable), like the built-in ones.  The path is written as a
 * quoted literal word.  A literal path is resolved when the rule is
 * loaded, symlink and all; a symlink's own name (link) is kept from that
 * by a glob on its last character, "[c]" (or "?" where a class cannot
 * hold it, which protects a few more names, never fewer).
 */
static void protect(const char *path, const char *ops, const char *loc, bool link)
{
	char q[3 * PATH_MAX], rule[3 * PATH_MAX + 64];
	struct ward_error err;

	if (policy_quote(q, sizeof(q), path, link) < 0)
		die(WARD_EXIT_FAILURE, "cannot protect %s: path too long", path);
	snprintf(rule, sizeof(rule), "deny! %s \"%s\"", ops, q);
	if (ward_policy_add_text(S->policy, WARD_LAYER_SELF, loc, rule, strlen(rule), &err) < 0)
		die(WARD_EXIT_FAILURE, "cannot protect %s: %s", path, err.msg);
}

static void protect_path(const char *path, const char *ops, const char *loc)
{
	protect(path, ops, loc, false);
}

/*
 * A file the next session reads by this name (a policy file): the file,
 * and every symlink met on the way to it, the way the kernel meets them
 * (a symlink's target walked in turn, links within it too), which the
 * agent could otherwise turn to a file of its own.
 */
struct protect_link {
	const char *ops, *loc;
};

static int protect_link(void *arg, const char *name)
{
	struct protect_link *pl = arg;

	protect(name, pl->ops, pl->loc, true);
	return 0;
}

static void protect_name(const char *path, const char *ops, const char *loc)
{
	struct protect_link pl = { ops, loc };

	protect(path, ops, loc, false);
	/* A loop, a name too long: nothing is loaded through it. */
	(void)ward_path_links(path, protect_link, &pl, NULL, 0);
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

int cmd_run(int argc, char **argv)
{
	static const struct option longopts[] = {
		POLICY_LONGOPTS,
		{ "mode", required_argument, 0, OPT_MODE },
		{ "log", required_argument, 0, OPT_LOG },
		{ "ephemeral", no_argument, 0, OPT_EPHEMERAL },
		{ "no-preload", no_argument, 0, OPT_NO_PRELOAD },
		{ "degraded", no_argument, 0, OPT_DEGRADED },
		{ "backtrace", no_argument, 0, OPT_BACKTRACE },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	static struct session session;
	struct policy_opts o = { .undecided = -1 };
	struct ward_error err;
	const char *log_path = NULL;
	bool ephemeral = false;
	char why[256] = "", path[PATH_MAX];
	int opt, rc, status;

	S = &session;
	S->own_pgrp = getpgrp();
	argv[0] = "ward";
	while ((opt = getopt_long(argc, argv, "+p:r:hqv", longopts, NULL)) != -1) {
		if (policy_opt(&o, opt, optarg))
			continue;
		switch (opt) {
		case 'h':
			fputs(help, stdout);
			return 0;
		case 'q':
			o.quiet = S->quiet = true;
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
			log_path = optarg;
			break;
		case OPT_EPHEMERAL:
			ephemeral = true;
			break;
		case OPT_NO_PRELOAD:
			break; /* there is no preload library yet: nothing to leave out */
		case OPT_DEGRADED:
			die(WARD_EXIT_FAILURE, "--degraded needs the preload library, which this version lacks");
		case OPT_BACKTRACE:
			die(WARD_EXIT_FAILURE, "--backtrace is not available in this version");
		default:
			fputs(help, stderr);
			return WARD_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "ward: run needs a command\n%s", help);
		return WARD_EXIT_USAGE;
	}

	if ((rc = features_detect(&S->feat, why, sizeof(why))) < 0)
		die(WARD_EXIT_FAILURE, "%s", why);

	uint32_t rnd;
	if (getrandom(&rnd, sizeof(rnd), 0) != sizeof(rnd))
		die(WARD_EXIT_FAILURE, "getrandom: %m");
	snprintf(S->id, sizeof(S->id), "%08x", rnd);
	if (getrandom(S->exec_key, sizeof(S->exec_key), 0) != sizeof(S->exec_key))
		die(WARD_EXIT_FAILURE, "getrandom: %m");

	S->policy = policy_load(&o, S->id, &S->vars, &err);
	if (S->policy == NULL)
		die(WARD_EXIT_FAILURE, "%s", err.msg);
	ward_policy_set_session(S->policy, session_pred, NULL);
	warn_wide_project(&S->vars);
	tty_init();
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

	/* The session's scratch directory, private to the user. */
	if ((rc = mkdirs(S->vars.session, 0700)) < 0)
		die(WARD_EXIT_FAILURE, "cannot make %s: %s", S->vars.session, strerror(-rc));
	char parent[PATH_MAX];
	snprintf(parent, sizeof(parent), "%s", S->vars.session);
	*strrchr(parent, '/') = '\0';
	if ((rc = check_private_dir(parent)) < 0 || (rc = check_private_dir(S->vars.session)) < 0)
		die(WARD_EXIT_FAILURE, "%s is not a private directory of this user (0700)", parent);

	if (log_path == NULL) {
		snprintf(path, sizeof(path), "%s/ward/sessions", S->vars.xdg_state_home);
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
		snprintf(path, sizeof(path), "%s/ward/sessions/%s.jsonl", S->vars.xdg_state_home,
			 S->id);
		log_path = path;
	}
	if ((rc = log_open(log_path)) < 0)
		die(WARD_EXIT_FAILURE, "cannot open the log %s: %s", log_path, strerror(-rc));
	/*
	 * The log is the agent's to neither read nor change.  Not so a device
	 * (--log /dev/null to keep none, a terminal): it is not a file of the
	 * log's own, and the agent's programs need it.
	 */
	char log_real[PATH_MAX];
	if (realpath(log_path, log_real) == NULL)
		die(WARD_EXIT_FAILURE, "cannot resolve the log %s: %m", log_path);
	if (!log_is_device())
		protect_path(log_real, "read,write,create,delete,exec", "builtin:log");
	/*
	 * ward's own program: the agent may run it (a nested session fails
	 * on its own), but not change it for the next session to run.
	 */
	char exe[PATH_MAX];
	ssize_t en = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
	if (en <= 0)
		die(WARD_EXIT_FAILURE, "cannot find ward's own program: %m");
	exe[en] = '\0';
	protect_path(exe, "write,create,delete", "builtin:exe");
	/*
	 * The policy files ward read (--policy, and what they or the user's
	 * policy include), by the names they were read under and where they
	 * really are: the agent may not change the policy of later sessions.
	 */
	size_t nfiles;
	const char *const *files = ward_policy_files(S->policy, &nfiles);
	for (size_t i = 0; i < nfiles; i++)
		protect_name(files[i], "write,create,delete", "builtin:policy");

	json_t *jargv = json_array();
	for (int i = optind; i < argc; i++)
		json_array_append_new(jargv, jpath(argv[i]));
	char cwd[PATH_MAX];
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		strcpy(cwd, "?");
	json_t *jpol = json_array();
	for (int i = 0; i < o.nfiles; i++)
		json_array_append_new(jpol, jpath(o.files[i]));
	free(o.files);
	free(o.rules);
	/* The rules whose symlinks were not all followed (rules/links.c), said on stderr too. */
	size_t ncut;
	const char *cut = ward_policy_link_scan_cut(S->policy, &ncut);
	json_t *jcut = cut == NULL ? NULL
				   : json_pack("{s:I, s:o}", "rules", (json_int_t)ncut, "first",
					       jpath(cut));
	log_event("session-start", 0,
		  "{s:o, s:s, s:s, s:s, s:o, s:s, s:s, s:{s:s, s:b, s:b, s:b}, s:o*}", "argv", jargv,
		  "cwd", cwd, "project", S->vars.project, "profile",
		  o.profile ? o.profile : "default", "policy", jpol, "mode",
		  S->shadow ? "shadow" : "enforce", "version", WARD_VERSION, "kernel", "release",
		  S->feat.kernel, "addfd_send", S->feat.addfd_send, "wait_killable_recv",
		  S->feat.wait_killable, "sync_wake_up", S->feat.sync_wake_up, "links_not_followed",
		  jcut);

	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	tracer_run(argv + optind, &status);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) / 1e9;
	unsigned long lost = log_lost();
	json_t *repos = repos_json();
	if (repos != NULL && json_array_size(repos) == 0) {
		json_decref(repos);
		repos = NULL;
	}
	/* The counts save ward sessions reading the whole log. */
	unsigned long c[3];
	log_counts(c);
	log_event("session-end", 0, "{s:i, s:f, s:{s:I, s:I, s:I}, s:o*, s:o*}", "status", status,
		  "duration", secs, "counts", "allowed", (json_int_t)c[0], "denied",
		  (json_int_t)c[1], "asked", (json_int_t)c[2], "lost",
		  lost > 0 ? json_integer((json_int_t)lost) : NULL, "repos", repos);
	/* Said even with -q: code that runs after the session. */
	repos_tell();
	log_close();
	/* Said even with -q: the log is not the whole account of the session. */
	if ((lost = log_lost()) > 0)
		fprintf(stderr, "ward: session %s: %lu events could not be written to the log %s\n",
			S->id, lost, log_path);
	if (!S->quiet)
		fprintf(stderr, "ward: session %s: log %s\n", S->id, log_path);
	if (ephemeral)
		remove_tree(S->vars.session);
	else
		rmdir(S->vars.session); /* only if the session left nothing there */
	return status;
}
