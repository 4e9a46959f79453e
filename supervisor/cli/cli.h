/*
 * cli/cli.h - what the command line's files share: the commands, the
 * policy options of run, check and explain, the layered policy loading and
 * the trust store.
 */
#ifndef WARD_CLI_H
#define WARD_CLI_H

#include "util.h"
#include "ward.h"
#include "ward_rules.h"

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#ifndef WARD_SYSCONFDIR
#define WARD_SYSCONFDIR "/etc/ward"
#endif

/* The commands (main.c dispatches to them): argv[0] is the command's name. */
int cmd_check(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_trust(int argc, char **argv);
int cmd_run(int argc, char **argv);
int cmd_doctor(int argc, char **argv);
/* doctor.c: ward --version's line, "Linux 6.8.0: seccomp user notification, ..." */
int features_line(char *out, size_t len);

/* How many built-in profiles one --profile list may name. */
#define MAX_PROFILES 16
int cmd_approve(int argc, char **argv);

/* The policy options shared by run, check and explain. */
struct policy_opts {
	const char *profile; /* NULL: "default"; else a list, "claude-code,npm" */
	const char **files;  /* --policy FILE... */
	int nfiles;
	const char **rules; /* --rule LINE... */
	int nrules;
	const char *project; /* --project DIR, NULL: the git top, or the current directory */
	char project_why[PATH_MAX + 96]; /* set by policy_load: how the project was chosen */
	int undecided;	     /* -1, or an enum ward_undecided */
	bool quiet;
};

/*
 * Parse one of the shared policy options (getopt_long codes below).
 * Returns true when opt was one of them.
 */
enum {
	OPT_PROFILE = 0x100,
	OPT_UNDECIDED,
	OPT_PROJECT,
};
bool policy_opt(struct policy_opts *o, int opt, const char *arg);
#define POLICY_LONGOPTS                                                        \
	{ "profile", required_argument, 0, OPT_PROFILE },                      \
		{ "policy", required_argument, 0, 'p' },                       \
		{ "rule", required_argument, 0, 'r' },                         \
		{ "undecided", required_argument, 0, OPT_UNDECIDED },          \
		{ "project", required_argument, 0, OPT_PROJECT }

/*
 * Load the layers in DESIGN order: self, the profiles (the whole one, then
 * those layered on it), /etc/ward/policy,
 * ~/.config/ward/policy, the project's .ward/policy when trusted,
 * --policy files, --rule lines.  On error returns NULL with err set.
 * Without --project the project is the top of the git repository holding
 * the current directory, else the current directory; o->project_why says
 * which, for ward run to tell.
 */
struct ward_policy *policy_load(struct policy_opts *o,
				const char *session_id, struct ward_vars *vars,
				struct ward_error *err);
/*
 * The built-in profiles o's --profile stands for, as loaded, comma-separated
 * ("default,claude-code,npm"), in out.  0, or a negative errno.
 */
int policy_profiles(const struct policy_opts *o, char *out, size_t len);
/*
 * path as a quoted literal word of a rule, glob characters escaped, in
 * out; with link, its last character a one-character glob, so that the
 * rule is not resolved when loaded (a symlink's own name).  -ENAMETOOLONG.
 */
int policy_quote(char *out, size_t len, const char *path, bool link);

/* protect.c: the protections ward adds at start, one list (run adds them, check shows them). */
enum protect_stage {
	PROTECT_AFTER_PROFILE, /* in a layer of the profile's: later layers may allow */
	PROTECT_AFTER_POLICY,  /* deny!, once every layer is loaded */
};
/* git asked, at start, where the project's repository keeps its hooks and config. */
struct git_query {
	pid_t pid; /* -1: not asked (no git, or fork failed) */
	int fd;
};
struct protect_ctx {
	const char *profile;	      /* after the profile: its name */
	const struct ward_vars *vars; /* ...and the variables */
	const char *log;	      /* after the policy: the log's real path (NULL: none of its own) */
	const char *preload;	      /* ...and libward-preload.so's (NULL: not loaded) */
	/* protect_prepare's: the project's repository, and git's answer on its way */
	bool repo;
	char dotgit[4096];
	struct git_query git;
};
/* Find the project's repository and ask git about it, in the background. */
void protect_prepare(struct protect_ctx *c);
/* git is done with (answered, or killed). */
void protect_finish(struct protect_ctx *c);
/* Add the protections of stage to p: 0, or -errno with err set. */
int protect_add(struct ward_policy *p, enum protect_stage stage, struct protect_ctx *c,
		struct ward_error *err);

/* guard.c: files whose content runs code later, put right at the session's end. */
struct json_t;
/*
 * Before the session: keep what the project's .git/config and hooks are,
 * and with the claude-code profile among profiles ("default,claude-code"),
 * ~/.claude.json.
 */
void guard_start(const struct ward_vars *v, const char *profiles);
/*
 * After the session's last process: put back what runs code in them and
 * in the repositories repos (a JSON array of their tops) the session
 * made, each said on stderr.  What was put back, as a JSON array for
 * session-end, or NULL for nothing.
 */
struct json_t *guard_end(struct json_t *repos);

/* truststore.c: the store of trusted project policy files. */
/*
 * 1 when path's content is trusted, with that content in *text (the
 * caller frees it), so that what is loaded is what was checked; 0 when
 * not trusted; <0 on error.
 */
int trust_check(const struct ward_vars *vars, const char *path, char **text,
		size_t *len);
/*
 * Trust path's current content, after validate() accepted that same
 * content (it returns 0 or a negative errno).
 */
int trust_add(const struct ward_vars *vars, const char *path,
	      int (*validate)(const char *real, const char *text, size_t len, void *arg),
	      void *arg);

#endif
