/*
 * report.h - a session summarised from its audit log (summary.c), the
 * sessions on record (sessions.c), and what shows them: ward report
 * (report.c, html.c), ward sessions and ward learn.
 */
#ifndef WARD_REPORT_H
#define WARD_REPORT_H

#include "logread.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <uthash.h>

/* What was done to a path, and succeeded (a call that failed did nothing). */
enum did {
	DID_READ = 1u << 0,
	DID_WRITE = 1u << 1,
	DID_CREATE = 1u << 2,
	DID_DELETE = 1u << 3,
	DID_EXEC = 1u << 4,
	DID_STAT = 1u << 5,
	DID_MODE = 1u << 6,
	DID_OWNER = 1u << 7,
	DID_TIMES = 1u << 8,
	DID_XATTR = 1u << 9,
	DID_MOVED_AWAY = 1u << 10,
	DID_MOVED_HERE = 1u << 11,
	DID_LINKED = 1u << 12,
	DID_REWRITTEN = 1u << 13, /* the call went to another path (a rewrite rule) */
};
#define DID_CHANGE                                                                       \
	(DID_WRITE | DID_CREATE | DID_DELETE | DID_MODE | DID_OWNER | DID_TIMES | DID_XATTR | \
	 DID_MOVED_AWAY | DID_MOVED_HERE | DID_LINKED)
#define DID_KINDS 14
/* "read", "written", ... for bit i of enum did. */
extern const char *const did_names[DID_KINDS];

#define NOPS 8 /* the path and network ops of ward_rules.h, by bit */

/* A path the session named in a decision. */
struct pent {
	UT_hash_handle hh;
	uint32_t did;
	uint16_t ops_done;	/* WARD_OP_*: allowed, and the call succeeded */
	uint16_t ops_refused;	/* denied (or would be, in shadow mode) by a rule */
	uint16_t ops_undecided; /* denied, or would be, because no rule decided (or ask) */
	uint32_t events;
	uint32_t n[NOPS]; /* events that did each op */
	int64_t first, last;
	char *to;   /* where a rewrite sent it, the first time */
	char *flag; /* a read outside the project that other rules deny or ask: which */
	const char *prog; /* the program that first did it (interned: summary_intern) */
	char path[];
};

/* One line of "Refused and asked": the same refusal, counted. */
struct refusal {
	UT_hash_handle hh;
	char *key;
	char *event, *op, *target, *rule, *err, *by, *answer, *exe, *reason;
	bool would;  /* shadow mode: would have been denied */
	bool asked;  /* put to the person (by prompt or timeout) */
	bool denied; /* the call was refused (else allowed, by the answer or shadow mode) */
	uint32_t count;
	int64_t first, last, pid;
	unsigned long seq; /* order of first appearance */
};

struct netent {
	UT_hash_handle hh;
	char *key; /* event and target */
	char *event, *target, *host, *addr;
	int64_t port;
	uint32_t allowed, denied, failed;
	uint32_t would_rule; /* allowed in shadow mode, but a rule would deny them */
	int64_t first, last;
	unsigned long seq;
};

struct proc {
	int64_t pid, ppid, start, end;
	int64_t status; /* LEV_NONE: no exit seen */
	json_t *argv;	/* the last exec's, cut to bounds; NULL before any exec */
	bool argv_cut;
	char *exe;
	unsigned execs;
	bool is_static, killed, thread_parent_unknown;
	/* The tree, made by summary_finish: indices, -1 for none. */
	long parent, child, next;
};

struct istr {
	UT_hash_handle hh;
	char s[];
};

struct pidmap {
	UT_hash_handle hh;
	int64_t pid;
	long idx;
};

/* Events per time bucket, by kind, for the timeline. */
enum tl_kind { TL_READ, TL_CHANGE, TL_EXEC, TL_NET, TL_DENIED, TL_OTHER, TL_KINDS };
#define TL_MAX 512
#define TL_MARKS 256
extern const char *const tl_names[TL_KINDS];

struct timeline {
	int64_t t0, width; /* microseconds */
	size_t used;
	uint32_t n[TL_MAX][TL_KINDS];
	int64_t marks[TL_MARKS]; /* denials, as offsets from t0 */
	size_t nmarks;
};

enum session_state { ST_ENDED, ST_RUNNING, ST_KILLED };

struct summary {
	/* From session-start and session-end. */
	char *log, *id, *cwd, *project, *profile, *mode, *version, *kernel, *start_ts;
	json_t *argv, *repos;
	int64_t start, end, last_ts; /* microseconds, LEV_NONE when unknown */
	int64_t status, lost;
	double duration; /* < 0: no session-end */
	bool seen_start, seen_end, running;
	enum session_state state;

	/* Counts. */
	unsigned long lines, events, unknown_events;
	unsigned long allowed, denied, failed, rewritten, would_deny, asked, killed;
	unsigned long bad;
	struct logread_bad badlines[LOGREAD_BAD_KEPT];
	size_t nbadlines;
	bool partial; /* the last line had no newline */

	struct pent *paths;
	struct refusal *refusals;
	unsigned long nrefusals;
	struct netent *net;
	unsigned long nnet;
	struct proc *procs;
	size_t nprocs, capprocs;
	struct pidmap *pids;
	struct istr *strings; /* interned program names */
	struct timeline tl;
	char home[4096];
};

/* ---- summary.c ---- */

/*
 * Read the log at path into s, event by event.  running: the session is
 * still going (its last line may be half written).  0, or a negative errno
 * when the log cannot be read (then s holds what was read before).
 */
int summary_read(struct summary *s, const char *path, bool running);
void summary_free(struct summary *s);
bool summary_in_project(const struct summary *s, const char *path);
/*
 * A device every program writes to (/dev/null, a terminal): writing it
 * changes nothing, and "changed outside the project" leaves it out.
 */
bool summary_device(const char *path);
/* The sections' paths: changed outside the project, changed in it, read outside it. */
bool keep_changed_out(const struct summary *s, const struct pent *p);
bool keep_changed_in(const struct summary *s, const struct pent *p);
bool keep_read_out(const struct summary *s, const struct pent *p);
/*
 * Flag the reads outside the project that the built-in default profile
 * and the user's policy would refuse or ask about (credentials...).
 */
void summary_flag_reads(struct summary *s);
/*
 * path for people: "~/x" under the home directory, as it is otherwise.
 * Returns buf.
 */
const char *summary_short_path(const struct summary *s, const char *path, char *buf, size_t len);
/* Comma-separated names of the did bits, in buf. */
const char *did_text(uint32_t did, char *buf, size_t len);
/*
 * The rule that would allow a refusal ("allow OP TARGET"), or NULL with
 * why set (a deny! rule, a signal); refusal_allow_rule gives it as the
 * -r option of ward run, quoted for the shell.
 */
/* A network target inside the quotes of a policy word: no glob, only " and \ escaped. */
const char *net_quote(const char *target, char *buf, size_t len);
const char *refusal_rule(const struct refusal *r, char *buf, size_t len, const char **why);
const char *refusal_allow_rule(const struct refusal *r, char *buf, size_t len, const char **why);
/* Entries of a table as an array sorted by cmp; caller frees. */
struct pent **summary_paths_sorted(const struct summary *s, bool (*keep)(const struct summary *,
									   const struct pent *),
				   int (*cmp)(const void *, const void *), size_t *n);
struct refusal **summary_refusals_sorted(const struct summary *s, size_t *n);
struct netent **summary_net_sorted(const struct summary *s, size_t *n);
/* qsort order of struct pent *: by path, a directory's tree together. */
int pent_by_tree(const void *x, const void *y);
/* How telling a path outside the project is: higher first. */
int path_weight(const struct summary *s, const char *path);

/* ---- sessions.c ---- */

/* $XDG_STATE_HOME/ward/sessions (without creating it), in buf. */
const char *sessions_dir(char *buf, size_t len);
/*
 * The log named by arg: a path to a file, a session id or its prefix, or
 * with arg NULL the newest session.  0 with path set, or -errno with a
 * message on stderr.
 */
int sessions_find(const char *arg, char *path, size_t len);
/* true when a ward run still writes the log at path (it holds its lock). */
bool session_running(const char *path);
/*
 * Apply the log retention to dir: remove the logs of ended sessions last
 * written more than max_age seconds ago, then the oldest until the rest
 * take at most max_bytes (0: no such limit).  The logs of running
 * sessions stay.  Counts what was removed.  0 or -errno.
 */
int sessions_prune(const char *dir, uint64_t max_age, uint64_t max_bytes, unsigned long *removed,
		   uint64_t *freed);

/* ---- html.c ---- */
int report_html(struct summary *s, FILE *f);

/* ---- text helpers (report.c) ---- */
/* s with every byte that is not printable ASCII or UTF-8 as '?'. */
const char *safe_q(const char *s, char *buf, size_t len);
/* argv as one line, each argument quoted when it needs it, '?'-escaped. */
const char *argv_line(const json_t *argv, char *buf, size_t len);
/* "3.2 s", "12 min 5 s", "1 h 02 min" */
const char *duration_text(double secs, char *buf, size_t len);
/* "2026-11-29 14:02:29" (UTC) for microseconds since the epoch */
const char *time_text(int64_t us, char *buf, size_t len);

int cmd_report(int argc, char **argv);
int cmd_sessions(int argc, char **argv);
int cmd_learn(int argc, char **argv);

#endif
