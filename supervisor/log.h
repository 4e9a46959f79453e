/*
 * log.h - the audit log (log.c): JSON Lines, one object per event
 * (DESIGN.md §6), each line written before the reply it tells of.
 */
#ifndef WARD_LOG_H
#define WARD_LOG_H

#include <stdbool.h>
#include <sys/types.h>

struct req;
struct jline;
struct json_t;

/* The events of the log (DESIGN.md §6): "event"; log.c names them. */
enum log_event {
	EV_ACCESS,  /* a path: open, stat, change, exec */
	EV_CONNECT, /* a destination: connect, send, socket */
	EV_BIND,    /* an address taken: bind, listen */
	EV_SIGNAL,  /* a signal, or a call that aims signals (SIGIO, a foreground group) */
	EV_PROCESS, /* another call aimed at a process or an IPC object */
	/* events of their own (log_begin, log_event) */
	EV_SPAWN,
	EV_EXEC,
	EV_EXIT,
	EV_SESSION_START,
	EV_SESSION_END,
	EV_COUNT
};

/* Who decided ("by"). */
enum decided_by {
	BY_POLICY,    /* a rule, or ward itself (refuse) */
	BY_CACHE,     /* a rule, its verdict cached */
	BY_UNDECIDED, /* no rule: `set undecided`; and an ask nobody could answer */
	BY_PROMPT,    /* a person, asked (with "answer") */
	BY_TIMEOUT,   /* a person, asked, who did not answer in time */
	BY_COUNT
};


int log_open(const char *path);
/* Whether the log is a character device (/dev/null, a terminal), not a file of its own. */
bool log_is_device(void);
void log_close(void);
/*
 * A decision as the terminal is told of it (-v): its words, the agent's
 * among them (where, to) as they are, for the teller to escape.
 */
struct log_echo {
	const char *decision, *op, *where, *err;
	const char *to;	  /* a rewrite's replacement, or NULL */
	const char *rule; /* the deciding rule's location, or NULL */
	const char *from; /* a rename's source, when the decision is about its target, or NULL */
	const char *exe;  /* the program that made the call */
	const char *via;       /* the libc function the preload library saw called, or NULL */
	const char *hint_host; /* a network call: a name the caller claimed, not verified, or NULL */
	pid_t tid;
	bool would_deny; /* shadow mode: the call went through, but would be denied */
	int errnum;	 /* the call's errno (0: none) */
	int rule_errnum; /* the errno the deciding rule refuses with (0: no refusing rule) */
	bool asked;	 /* an ask (a rule's, or set undecided's), answered without a person */
	bool hard;	 /* the deciding rule is a deny! */
	bool native;	 /* refused, but with the error the call has natively (EEXIST) */
	bool net;	 /* a network decision: where is an address, host the name verified */
	const char *host;
	int port; /* a network decision's port, -1 when it has none */
	const char *reason; /* why ward refused by itself (no rule decided, none can allow it), or NULL */
	bool mkdir;	    /* the call makes a directory (mkdir, mkdirat) */
};
/*
 * The calls refused so far, not counting those that failed as they would
 * natively anyway (mkdir of a directory that is there): what the session's
 * last line calls refused.
 */
unsigned long log_refused(void);
/* fn is told of each decision the log is given (NULL: none); set before the session starts. */
void log_set_echo(void (*fn)(const struct log_echo *e));
/* The line of r's decision (err: the call's errno, 0 for none). */
int log_request(struct req *r, int err);
/* The caller's stack where --backtrace has it, a frame a line ("" none), for a question's details. */
void log_stack_text(struct req *r, char *out, size_t len);
/* The decisions logged so far: allowed (or rewritten), denied, and asked of a person. */
void log_counts(unsigned long c[3]);
/*
 * A free-form event: fmt is a jansson json_pack format for the event's
 * own fields ("{s:s, s:i}" ...).
 */
int log_event(enum log_event event, pid_t pid, const char *fmt, ...);
/* How many lines could not be written (the disk full, say). */
unsigned long log_lost(void);
/* An event written field by field with jline.h: log_begin, jl_*, log_finish. */
struct jline *log_begin(enum log_event event, pid_t pid);
int log_finish(struct jline *l);
/* A JSON string for bytes that may not be UTF-8 (they are escaped). */
struct json_t *jpath(const char *s);

#endif
