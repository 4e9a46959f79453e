/*
 * policy_int.h - the compiled policy, shared by the files of rules/.
 */
#ifndef WARD_POLICY_INT_H
#define WARD_POLICY_INT_H

#include "glob.h"
#include "ward_rules.h"

#include <sys/types.h>
#include <uthash.h>

enum target_kind {
	T_PATH,		/* glob over a real path */
	T_FOREIGN_PROC, /* /proc/N[/...] for N outside the session */
	T_FOREIGN_TTY,	/* a terminal under /dev that is not the session's */
	T_MEMFD,	/* memfd:NAME-GLOB, exec of an anonymous file */
	T_ANYHOST,	/* '*': any internet address or name */
	T_CIDR,		/* one or more address prefixes (literal or a group) */
	T_DOMAIN,	/* a verified host name */
	T_UNIX,		/* unix:PATH-GLOB */
	T_ABSTRACT,	/* unix-abstract:NAME-GLOB */
	T_SESSION,	/* @session */
	T_SOCKET,	/* socket:KIND-GLOB, a kind of socket (packet, raw, vsock...) */
	T_DNS,		/* @dns: the name servers of /etc/resolv.conf, port 53 */
};

/* An address prefix in IPv6 space; IPv4 is kept as ::ffff:a.b.c.d. */
struct cidr {
	uint8_t addr[16];
	uint8_t plen;
};

struct ward_rule {
	enum ward_action action;
	enum target_kind kind;
	enum ward_layer layer;
	unsigned ops;
	int err;
	uint32_t index; /* position in load order */
	char *loc;	/* "FILE:LINE" */
	char *target;	/* the target as compiled, for ward check */
	bool by_link;	/* added for a symlink another rule names (links.c) */
	char *via;	/* ...where it leads: that link (NULL: a link's own name) */
	struct glob *glob;
	/* rewrite */
	char *repl;		 /* without a trailing slash-star-star */
	bool repl_tail;		 /* append the part below the pattern's prefix */
	struct glob *prefix;	 /* the pattern without its trailing slash-star-star */
	/* network */
	const struct cidr *cidrs;
	int ncidr;
	struct cidr one; /* storage for a literal address */
	uint16_t port_lo, port_hi;
};

/* An index node: one path component, with the rules anchored there. */
struct node {
	UT_hash_handle hh;
	struct node *children;
	uint32_t *soft, *hard; /* rule indices, ascending */
	uint32_t nsoft, nhard, capsoft, caphard;
	size_t namelen;
	char name[];
};

struct layer_info {
	enum ward_layer layer;
	char *origin;
	size_t first; /* index of its first rule */
};

struct ward_policy {
	struct ward_vars vars;
	struct ward_rule **rules;
	size_t nrules, caprules;
	struct layer_info *layers;
	size_t nlayers;
	struct node *root;   /* path index */
	struct node *memfd;  /* memfd: targets (a node used as a plain list) */
	struct node *net;    /* network targets (likewise) */
	enum ward_undecided undecided;
	bool undecided_forced;
	unsigned ask_timeout;
	uint64_t log_max_age, log_max_bytes; /* set log-retention; 0: no such limit */
	unsigned nrule_lines; /* --rule counter */
	uint64_t generation;
	bool (*in_session)(pid_t pid, void *arg);
	void *in_session_arg;
	bool (*foreign_tty)(const char *path, void *arg);
	void *foreign_tty_arg;
	char **files; /* the files read: as named (made absolute) and real */
	size_t nfiles;
	/* WARD_POLICY_FOLLOW_LINKS (links.c) */
	bool follow_links;
	char link_scratch[4096]; /* the parent of $SESSION, real: not read ("": none) */
	char *link_cut;	  /* the first rule whose links were not all read */
	size_t link_cuts; /* how many */
};

/* What the reading for one rule's links, and its added rules', may do at most. */
#define LINK_ENTRIES 262144
#define LINK_STEPS 16384
#define LINK_RULES 256

/* What the reading for one rule's links, and its added rules', may still do. */
struct link_budget {
	size_t entries; /* directory entries read */
	size_t steps;	/* path components looked up (lstat, open, readlink) */
	unsigned rules; /* rules added */
	bool cut;	/* a bound was met */
};

/* parse.c */
int policy_parse(struct ward_policy *p, enum ward_layer layer,
		 const char *origin, const char *text, size_t len,
		 const char *basedir, struct ward_error *err);

/* target.c */
int target_compile(const struct ward_vars *vars, const char *word,
		   struct ward_rule *r, const char **why);
/*
 * A pattern whose literal prefix is a real path already (escaped, then
 * globs): a path rule's target, compiled as it is.
 */
int target_compile_real(struct ward_rule *r, const char *pattern, const char **why);
/*
 * The literal directory prefix of a pattern, unescaped, into dir ("/" for
 * the root; the whole path when it has no glob); *cut is where the rest
 * starts in pattern (at its '/').  False when dir is too small.
 */
bool pattern_literal_dir(const char *pattern, char *dir, size_t dirlen, size_t *cut);
/* Copy s to out with the glob characters escaped: a literal pattern. */
int pattern_escape(const char *s, char *out, size_t outlen);
int expand_vars(const struct ward_vars *vars, const char *in, char *out,
		size_t outlen, bool escape, const char **bad);
bool net_parse_ports(const char *s, uint16_t *lo, uint16_t *hi);
bool ip_parse(const char *s, uint8_t addr[16], bool *v4);
void rule_free(struct ward_rule *r);

/* links.c */
/*
 * Follow the symlinks rule r names (r restricts: deny, deny!, ask): call
 * add for each rule they call for, a pattern (its prefix a real path
 * already) with its ops and the link it comes through (NULL: one on the
 * way to r's own prefix); add decides
 * whether to follow the new rule in turn (hops deep; -1 for a rule on a
 * link's own name, which is not followed).  expanded is r's pattern as
 * written, before its prefix was resolved (NULL: none).
 */
int links_follow(struct ward_policy *p, const struct ward_rule *r, const char *expanded,
		 int hops,
		 int (*add)(void *arg, const char *pattern, unsigned ops, int hops, const char *via),
		 void *arg, struct link_budget *b);

/* match.c */
int index_add(struct ward_policy *p, uint32_t idx);
void index_free(struct node *n);
bool rule_match_path(const struct ward_policy *p, const struct ward_rule *r,
		     const char *path);
int rule_rewrite(const struct ward_rule *r, const char *path, char *out,
		 size_t outlen);

/* profiles.c (generated) */
struct builtin_profile {
	const char *name;
	const char *text;
};
extern const struct builtin_profile ward_builtin_profiles[];

#endif
