/*
 * ask.h - the questions put to the person (DESIGN.md §5).
 *
 * A call the policy says to ask about waits, blocked, in ask_call() until
 * the person answers (at the terminal or with `ward approve`, the first
 * answer wins), its question times out, or its caller goes away.  Asks
 * alike (the same op on the same target) wait as one question.  Answers
 * for the session become grants, consulted by every decision after; the
 * ones for always are appended to the user's policy too.
 */
#ifndef WARD_ASK_H
#define WARD_ASK_H

#include "ward_rules.h"

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

enum ask_answer {
	ANSWER_NONE,
	ANSWER_ONCE,
	ANSWER_SESSION,
	ANSWER_ALWAYS,
	ANSWER_DENY,
	ANSWER_DENY_ALWAYS,
	ANSWER_TIMEOUT,	  /* no answer in time: a deny, this once */
	ANSWER_WITHDRAWN, /* the caller went away, or was interrupted */
	ANSWER_UNDECIDED, /* no one to ask, or too many questions: `set undecided` */
};
const char *ask_answer_name(enum ask_answer a);
/* "once", "session", ... as an answer a person gives; ANSWER_NONE when not one. */
enum ask_answer ask_answer_parse(const char *s);

struct ask_config {
	const struct ward_vars *vars;
	const char *session;	 /* the session's id, named in saved rules' comments */
	unsigned timeout;	 /* seconds an ask waits; 0: no limit */
	bool undecided_allows;	 /* what `set undecided` answers when no one can be asked */
	const char *user_policy; /* where always and deny always go */
	bool wait_for_approver;	 /* --ask approve: wait for `ward approve` though none watches yet */
	pid_t ward;		 /* the supervisor: process chains stop below it */
	/* Whether a process is the session's: a chain shows no other (NULL: only the asker). */
	bool (*in_session)(pid_t pid);
};
int ask_init(const struct ask_config *c);
/* The session is over: every question still pending is withdrawn, grants dropped. */
void ask_shutdown(void);

/* Who can answer: the terminal ward runs on, and `ward approve`s watching. */
void ask_set_terminal(bool present);
void ask_approver(int delta);
/* Called (quickly: it must not block or take locks) whenever the questions change. */
int ask_subscribe(void (*changed)(void *arg), void *arg);

/* One call that the policy says to ask about. */
struct ask_call {
	enum ward_op op;
	const char *path;		   /* a path's op, exec: the real path */
	const struct ward_net_target *net; /* connect, bind */
	const char *argv;		   /* exec: its argv as read, NUL after each */
	size_t argv_len;		   /* the bytes of it given... */
	size_t argv_total;		   /* ...of all it has */
	const unsigned char *argv_id;	   /* 32 bytes naming all of it (NULL: none) */
	const char *rule; /* the asking rule's location; NULL: no rule matched */
	pid_t tid, pid;
	const char *exe;
	const char *via;   /* the libc function the preload saw called (NULL: none) */
	const char *stack; /* the caller's stack, a frame a line (NULL or "": none) */
	/*
	 * 0 while the caller still waits; else a negative errno to answer
	 * (-ESRCH: it is gone, -ERESTARTSYS: a signal interrupts it).
	 */
	int (*alive)(void *arg);
	void *alive_arg;
};

#define ASK_RULE 8400 /* a rule's text: "allow write " and a quoted path */

struct ask_result {
	int rc; /* 0 allowed, -EACCES denied, or what alive() said */
	enum ask_answer answer;
	const char *by; /* "prompt", "timeout", "undecided" */
	unsigned serial;
	char saved[ASK_RULE]; /* the rule granted for the session or saved, "" when none */
	char file[4096];      /* the file it was saved to, "" when none */
};

/* Ask, and wait for the answer.  Never fails open: rc is 0 only for an allow. */
int ask_call(const struct ask_call *c, struct ask_result *r);

/* A grant of the person's deciding op on path (or t): true, with v its verdict. */
bool ask_grant_path(enum ward_op op, const char *path, struct ward_verdict *v);
bool ask_grant_net(enum ward_op op, const struct ward_net_target *t, struct ward_verdict *v);

/* ---- for the front ends: the terminal, the control socket ---- */

#define ASK_RUNGS 4
#define ASK_TEXT 4096

/* A question as a front end shows it.  Strings are raw: escape them to show them. */
struct ask_view {
	unsigned serial;
	enum ward_op op;
	int kind; /* 'p' a path, 'x' an exec, 'n' a network target */
	char target[ASK_TEXT]; /* the path, "host:port", the program */
	char extra[256];       /* the address beside a host name */
	char argv[ASK_TEXT];   /* its process's argv (an exec's new one, quoted as a shell would), spaces between */
	char args[ASK_TEXT];   /* an exec's argv[1..] for the prompt's line, each one shortened */
	char exe[ASK_TEXT], cwd[ASK_TEXT], prog[256];
	char chain[1024];     /* "npm install <- claude": itself if not prog, then its parents */
	char procs[ASK_TEXT]; /* "PID ARGV" a line, the process first */
	char via[64];	      /* the libc call, as the preload said ("" none) */
	char stack[ASK_TEXT]; /* the caller's stack with --backtrace, a frame a line ("" none) */
	char rule[512];
	pid_t pid;
	int nrungs; /* the scope ladder: 0 when no rule can name the target */
	char rung[ASK_RUNGS][ASK_RULE]; /* the target word of each rung */
	char rung_name[ASK_RUNGS][128];
	int waiters;
	double age; /* seconds since asked */
	double left; /* seconds to its timeout (-1: none) */
};
/* The pending questions, oldest first (caller frees *v). */
int ask_list(struct ask_view **v, size_t *n);
/*
 * Answer question serial, at rung scope for the answers that make a rule.
 * 0; -ESRCH when there is none (answered already, withdrawn); -EINVAL
 * for a scope it does not have; -errno when the rule could not be saved
 * (the question then waits on).
 */
int ask_answer(unsigned serial, enum ask_answer a, int scope);
/* The person looked at it: its timeout starts again. */
void ask_touch(unsigned serial);
/* The rule an answer at a rung makes: "allow write \"/p\"" (len bytes into out). */
void ask_rule_text(const struct ask_view *v, enum ask_answer a, int scope, char *out, size_t len);
/* A line for the terminal: a flood answered by `set undecided` ("" when none lately). */
void ask_notice(char *buf, size_t len);

/* The session's answers, for session-end: a JSON array (a json_t *, the caller's). */
void *ask_answers_json(void);

/*
 * Append rule to the policy file path, after a comment line, keeping the
 * file's text as it was: written to a new file beside it and renamed
 * over it (a symlink's target is the one written).  0 or -errno.
 */
int policy_append(const char *path, const char *comment, const char *rule);

#endif
