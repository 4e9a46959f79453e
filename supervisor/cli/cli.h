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

#include <stdbool.h>
#include <stddef.h>

#ifndef WARD_SYSCONFDIR
#define WARD_SYSCONFDIR "/etc/ward"
#endif

/* The commands (main.c dispatches to them): argv[0] is the command's name. */
int cmd_check(int argc, char **argv);
int cmd_explain(int argc, char **argv);
int cmd_trust(int argc, char **argv);
int cmd_run(int argc, char **argv);

/* The policy options shared by run, check and explain. */
struct policy_opts {
	const char *profile; /* NULL: "default" */
	const char **files;  /* --policy FILE... */
	int nfiles;
	const char **rules; /* --rule LINE... */
	int nrules;
	const char *project; /* --project DIR, NULL: the current directory */
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
 * Load the layers in DESIGN order: self, profile, /etc/ward/policy,
 * ~/.config/ward/policy, the project's .ward/policy when trusted,
 * --policy files, --rule lines.  On error returns NULL with err set.
 */
struct ward_policy *policy_load(const struct policy_opts *o,
				const char *session_id, struct ward_vars *vars,
				struct ward_error *err);
/*
 * path as a quoted literal word of a rule, glob characters escaped, in
 * out; with link, its last character a one-character glob, so that the
 * rule is not resolved when loaded (a symlink's own name).  -ENAMETOOLONG.
 */
int policy_quote(char *out, size_t len, const char *path, bool link);

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
