/*
 * ward_rules.h - the policy language and decision engine (DESIGN.md §3).
 *
 * A pure library: it parses policy text, compiles it into an indexed rule
 * set and decides on (op, target) queries.  The only system calls it makes
 * are reading policy files, resolving the literal prefixes of their
 * patterns (realpath) and, when asked to, reading the directories below
 * them for symlinks (WARD_POLICY_FOLLOW_LINKS), all at load time.
 *
 * Conventions: functions return 0 or a negative errno; on a policy error
 * they also fill a struct ward_error with "FILE:LINE:COL: message".
 */
#ifndef WARD_RULES_H
#define WARD_RULES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Operations.  A rule carries a mask of them. */
enum ward_op {
	WARD_OP_READ = 1u << 0,
	WARD_OP_WRITE = 1u << 1,
	WARD_OP_CREATE = 1u << 2,
	WARD_OP_DELETE = 1u << 3,
	WARD_OP_EXEC = 1u << 4,
	WARD_OP_STAT = 1u << 5,
	WARD_OP_CONNECT = 1u << 6,
	WARD_OP_BIND = 1u << 7,
};
#define WARD_OPS_PATH                                                          \
	(WARD_OP_READ | WARD_OP_WRITE | WARD_OP_CREATE | WARD_OP_DELETE |      \
	 WARD_OP_EXEC | WARD_OP_STAT)
#define WARD_OPS_NET (WARD_OP_CONNECT | WARD_OP_BIND)
#define WARD_OPS_ALL (WARD_OPS_PATH | WARD_OPS_NET)
/* How many ops there are: their names (rules/parse.c) are kept in step with it. */
#define WARD_OP_COUNT 8

enum ward_action {
	WARD_ALLOW,
	WARD_DENY,
	WARD_DENY_HARD, /* deny!: wins over every other matching rule */
	WARD_ASK,
	WARD_REWRITE,
};

enum ward_undecided { WARD_UNDECIDED_ASK, WARD_UNDECIDED_DENY, WARD_UNDECIDED_ALLOW };

/* Layers in load order (DESIGN.md §3).  SELF holds the built-in deny! rules. */
enum ward_layer {
	WARD_LAYER_SELF,
	WARD_LAYER_PROFILE,
	WARD_LAYER_SYSTEM,
	WARD_LAYER_USER,
	WARD_LAYER_PROJECT,
	WARD_LAYER_FILE,
	WARD_LAYER_RULE,
	WARD_LAYER_COUNT
};

/*
 * The values of the policy variables.  Every field must be set (absolute
 * paths, or the decimal uid / user name); ward_vars_from_env() fills them the
 * way `ward run` does.  session is the session's scratch directory.
 */
struct ward_vars {
	char home[4096];
	char project[4096];
	char tmpdir[4096];
	char session[4096];
	char xdg_runtime_dir[4096];
	char xdg_config_home[4096];
	char xdg_state_home[4096];
	char uid[16];
	char user[256];
};

struct ward_error {
	char msg[1024];
};

struct ward_policy;

/*
 * Fill vars from the environment: HOME (else the passwd entry), PROJECT
 * (project_dir, or the current directory when NULL), TMPDIR (else /tmp),
 * XDG_RUNTIME_DIR (else /run/user/UID), XDG_CONFIG_HOME, XDG_STATE_HOME
 * (else ~/.config, ~/.local/state), SESSION = TMPDIR/ward-UID/SESSION_ID.
 */
int ward_vars_from_env(struct ward_vars *vars, const char *project_dir,
		       const char *session_id, struct ward_error *err);

struct ward_policy *ward_policy_new(const struct ward_vars *vars);
/*
 * With WARD_POLICY_FOLLOW_LINKS, each rule that can refuse a path (deny,
 * deny!, ask) also holds where the symlinks it names lead, and, when it
 * keeps names from being made or removed, the names of the links on the way
 * (rules/links.c): the
 * directories below its pattern's literal prefix are read as it is loaded,
 * a few levels deep.  ward run, check and explain ask for it; the tests of
 * the language and the fuzzer do not.
 */
enum { WARD_POLICY_FOLLOW_LINKS = 1 };
struct ward_policy *ward_policy_open(const struct ward_vars *vars, unsigned flags);
/*
 * Tell each rule added for a symlink that reaches one of places (or /),
 * or a directory above one: a link the agent left where it could make one
 * (an earlier session, ~/snap/firefox/x -> /) denies it that much in every
 * later session, fail closed; said, so that the user can remove it.
 * tell gets the rule's location, the link and the added target.  Returns
 * how many were told.
 */
size_t ward_policy_wide_links(const struct ward_policy *p, const char *const *places, size_t n,
			      void (*tell)(void *arg, const char *loc, const char *via,
					   const char *target),
			      void *arg);
/*
 * The rules whose symlinks were not all followed (a bound of the reading
 * met: rules/links.c): the first, as "LOCATION TARGET", and in *count how
 * many; NULL when none.
 */
const char *ward_policy_link_scan_cut(const struct ward_policy *p, size_t *count);
/*
 * Walk path (absolute) as the kernel would, calling on_link with the name
 * of each symlink met (its directory free of links) before going where it
 * leads; a negative return from on_link stops the walk with it.  final gets
 * where the path leads (a missing end appended as named).  0, or -ELOOP,
 * -ENAMETOOLONG, -ENOENT (".." after a missing component).
 */
int ward_path_links(const char *path, int (*on_link)(void *arg, const char *name), void *arg,
		    char *final, size_t finallen);
void ward_policy_free(struct ward_policy *p);

/* Names of the built-in profiles, NULL-terminated. */
const char *const *ward_profile_names(void);
/*
 * The text of a built-in profile, or of "self" (the built-in deny! rules),
 * so that a rule location "builtin:NAME:LINE" can be shown; NULL if none.
 */
const char *ward_profile_text(const char *name);
/*
 * The profile a built-in profile is layered on (its `base` statement), or
 * NULL for a whole profile (default, strict, audit), or for no profile.
 */
const char *ward_profile_base(const char *name);
/*
 * A built-in profile's own summary: the comment it opens with, its lines
 * joined, "# " taken off ("ward's npm profile: ...").  0, or -ENOENT.
 */
int ward_profile_summary(const char *name, char *out, size_t len);
/*
 * The built-in profiles a --profile list ("claude-code,npm") stands for,
 * in the order they are loaded: the whole profile first (the one named, or
 * else the base the others are layered on), then the others as named,
 * each once.  Up to max names in out (they are the table's own strings),
 * their number in *n.  0, or -EINVAL / -ENOENT with err saying why: an
 * unknown name, two whole profiles, profiles layered on different bases,
 * an empty name, more than max.
 */
int ward_profiles_resolve(const char *list, const char **out, size_t max, size_t *n,
			  struct ward_error *err);

/*
 * Add a layer.  Each call either adds every rule of its input or nothing:
 * on error the policy is unchanged and err says FILE:LINE:COL and the
 * offending word.  ward_policy_new() has added the self-protection rules
 * already; they are not a profile ("self" is an unknown profile).
 * Profiles: one whole profile first, then profiles layered on it (in the
 * order ward_profiles_resolve gives), each once.
 */
int ward_policy_add_profile(struct ward_policy *p, const char *name,
			    struct ward_error *err);
int ward_policy_add_file(struct ward_policy *p, enum ward_layer layer,
			 const char *path, struct ward_error *err);
int ward_policy_add_text(struct ward_policy *p, enum ward_layer layer,
			 const char *origin, const char *text, size_t len,
			 struct ward_error *err);
/* One --rule LINE; its location is "--rule:N" for the Nth such rule. */
int ward_policy_add_rule(struct ward_policy *p, const char *line,
			 struct ward_error *err);

/*
 * Call fn with each variable the policy's `env` statements set for the
 * command (the last statement for a name wins), in the order first set,
 * with the statement's location.  Stops at and returns the first non-zero
 * value fn returns.
 */
int ward_policy_env(const struct ward_policy *p,
		    int (*fn)(const char *name, const char *value, const char *loc, void *arg),
		    void *arg);

/* Override every layer's `set undecided` (the --undecided option). */
void ward_policy_set_undecided(struct ward_policy *p, enum ward_undecided u);
enum ward_undecided ward_policy_undecided(const struct ward_policy *p);
unsigned ward_policy_ask_timeout(const struct ward_policy *p);
/*
 * `set log-retention`: how old (seconds) and how large in all (bytes) the
 * session logs may grow before ward run prunes them; 0 is no limit.
 */
void ward_policy_log_retention(const struct ward_policy *p, uint64_t *max_age,
			       uint64_t *max_bytes);
size_t ward_policy_rule_count(const struct ward_policy *p);
/* Bumped by every change; caches compare it to drop stale decisions. */
uint64_t ward_policy_generation(const struct ward_policy *p);
/* True when some rule, or `set undecided`, can refuse `op` somewhere. */
bool ward_policy_restricts(const struct ward_policy *p, enum ward_op op);
/*
 * Tell the policy which processes belong to the session, for the
 * @foreign-proc group (/proc/PID/... of processes outside it).  Without
 * it every /proc/PID is foreign (ward explain).
 */
void ward_policy_set_session(struct ward_policy *p, bool (*in_session)(pid_t, void *),
			     void *arg);
/*
 * Tell the policy which of the paths under /dev are terminals that are not
 * the session's, for the @foreign-tty group.  Without it terminals are
 * told by their names (ward explain): /dev/pts/N, /dev/ttyX, /dev/console,
 * /dev/vcsX, /dev/hvcN, all of them foreign but /dev/tty and /dev/pts/ptmx.
 */
void ward_policy_set_ttys(struct ward_policy *p, bool (*foreign_tty)(const char *, void *),
			  void *arg);
/*
 * True when moving what is at from to to (a directory, with everything
 * below it) could change what a rule other than allow says about
 * something below: some such rule may match a path below one of the two
 * but not the same path below the other.  Moving then could take files
 * out of a deny rule's reach, or carry them into it (say, a prepared
 * directory renamed to .git/hooks).  Globs count wherever they stand
 * (a rule on sec*<slash>* guards what is below secret); a rule that
 * treats both alike (** below a project moved within it) does not stop
 * the move.
 */
bool ward_policy_moves_guarded(const struct ward_policy *p, const char *from, const char *to);
/*
 * Whether a symlink at name leading to target (both absolute, real as far
 * as they exist) would let the agent reach below name what the policy
 * keeps from it there: some path below target allows an op that the same
 * path below name does not.  Unexaminable (beyond the search's bound, out
 * of memory): true.
 */
bool ward_policy_link_widens(const struct ward_policy *p, const char *name, const char *target);
/*
 * Whether the policy may keep the agent from writing, creating or deleting
 * something below dir (false: it surely allows all of that there).
 */
bool ward_policy_keeps_below(const struct ward_policy *p, const char *dir);

/*
 * Make path (absolute, lexically normal) real the way rule prefixes are:
 * its longest existing ancestor is resolved and the rest appended.
 */
int ward_path_canonical(const char *path, char *out, size_t outlen);

/*
 * Call fn with each literal domain name the policy's network rules name
 * (not the ones with a wildcard), so that the supervisor can resolve
 * them.  Stops at and returns the first non-zero value fn returns.
 */
int ward_policy_domains(const struct ward_policy *p,
			int (*fn)(const char *name, void *arg), void *arg);

/*
 * The policy files read, included ones too: each as it was named (made
 * absolute) and as its real path.  What the agent must not change.
 */
const char *const *ward_policy_files(const struct ward_policy *p, size_t *n);

/* ---- queries ---- */

enum ward_net_kind {
	WARD_NET_INET,	   /* addr/port, optionally with a verified host name */
	WARD_NET_NAME,	   /* a host name only, no address (ward explain) */
	WARD_NET_UNIX,	   /* a unix socket path */
	WARD_NET_ABSTRACT, /* an abstract unix socket name */
	WARD_NET_SOCKET,   /* a kind of socket ward denies unless a rule allows it (path: its name) */
};

struct ward_net_target {
	enum ward_net_kind kind;
	uint8_t addr[16]; /* IPv4 as ::ffff:a.b.c.d, IPv6 as is */
	uint16_t port;
	const char *host; /* verified name for INET, the name for NAME, or NULL */
	const char *path; /* UNIX path, ABSTRACT name or SOCKET kind */
	bool session;	  /* the destination was bound by a session process */
	bool dns;	  /* the destination is a name server of /etc/resolv.conf, port 53 */
};

/* The outcome of a decision. */
struct ward_verdict {
	enum ward_action action; /* WARD_ALLOW, WARD_DENY, WARD_ASK or WARD_REWRITE */
	int err;		 /* the errno for a denial (EACCES by default) */
	bool undecided;		 /* no rule matched: action comes from `set undecided` */
	const struct ward_rule *rule; /* the deciding rule, NULL when undecided */
	char rewrite[4096];	      /* the replacement path for WARD_REWRITE */
};

/*
 * Decide op on an absolute path (which the caller has already made real
 * or, for ward explain, lexically normal).  "memfd:NAME" names an
 * anonymous executable.  Returns 0, or -ENAMETOOLONG when a rewrite does
 * not fit, or -EINVAL for an op that does not apply to paths.
 */
int ward_decide_path(const struct ward_policy *p, enum ward_op op,
		     const char *path, struct ward_verdict *v);
int ward_decide_net(const struct ward_policy *p, enum ward_op op,
		    const struct ward_net_target *t, struct ward_verdict *v);

/* The location of a rule: "FILE:LINE", "builtin:PROFILE:LINE" or "--rule:N". */
const char *ward_rule_location(const struct ward_rule *r);
enum ward_layer ward_rule_layer(const struct ward_rule *r);
/* A deny! rule (NULL: false). */
bool ward_rule_hard(const struct ward_rule *r);
/* A rule whose target is a domain name (NULL: false). */
bool ward_rule_names_host(const struct ward_rule *r);
/* The i-th rule in load order (i < ward_policy_rule_count), or NULL. */
const struct ward_rule *ward_policy_rule_at(const struct ward_policy *p, size_t i);
/* A rule's action, its ops, its target as compiled (as ward check prints it). */
enum ward_action ward_rule_action(const struct ward_rule *r);
unsigned ward_rule_ops(const struct ward_rule *r);
const char *ward_rule_target(const struct ward_rule *r);
/* Whether the rule was added for a symlink another rule names (rules/links.c). */
bool ward_rule_by_link(const struct ward_rule *r);
/*
 * A path a path rule matches, made from its pattern (each glob taken as a
 * plain name), into out: a probe for what else the policy says there.
 * 0, or -EINVAL (no path rule, or no such path).
 */
int ward_rule_sample(const struct ward_policy *p, const struct ward_rule *r, char *out,
		     size_t len);

/* ---- text helpers used by ward check and ward explain ---- */

/*
 * s as one quoted word of a rule's text that matches s itself: glob
 * characters and $ escaped, and the quote's own.  -EINVAL when s holds a
 * newline (no rule can name it), -ENAMETOOLONG.
 */
int ward_rule_word(char *out, size_t len, const char *s);

/* Parse "read", "connect"... into one op; 0 when unknown. */
enum ward_op ward_op_parse(const char *word);
const char *ward_op_name(enum ward_op op);
const char *ward_layer_name(enum ward_layer layer);

/*
 * Parse a network target as ward explain takes it: "HOST:PORT",
 * "[V6]:PORT", "unix:PATH", "unix-abstract:NAME".  HOST may be an address
 * or a name.  The strings in *t point into buf, which must outlive t.
 */
int ward_net_target_parse(const char *text, struct ward_net_target *t,
			  char *buf, size_t buflen);

/*
 * Make an absolute, lexically normal path from path (relative to cwd):
 * no "." or ".." components, no repeated or trailing slashes.
 */
int ward_path_normalize(const char *cwd, const char *path, char *out,
			size_t outlen);

/*
 * ward explain's line: "DECISION OP TARGET RULE-LOCATION" where DECISION
 * is allow, deny, ask or rewrite:PATH and the location is "undecided"
 * when no rule matched.  Returns the length or -ENOSPC.
 */
int ward_verdict_format(const struct ward_verdict *v, enum ward_op op,
			const char *target, char *out, size_t outlen);

/* The merged, compiled policy as text (ward check).  Caller frees. */
char *ward_policy_dump(const struct ward_policy *p);

/* ---- decision cache ---- */

/*
 * A bounded, thread-safe cache of verdicts keyed by (op, target).  It
 * allocates all its memory at creation; a full cache is emptied and
 * refilled.  Entries made under an older policy generation are ignored.
 */
struct ward_cache;
struct ward_cache *ward_cache_new(size_t capacity);
void ward_cache_free(struct ward_cache *c);
/* Decide through the cache.  by_cache tells whether the answer was cached. */
int ward_cache_decide_path(struct ward_cache *c, const struct ward_policy *p,
			   enum ward_op op, const char *path,
			   struct ward_verdict *v, bool *by_cache);
void ward_cache_clear(struct ward_cache *c);

#endif
