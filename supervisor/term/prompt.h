/*
 * prompt.h - a question put to the person: the lines that show it, and
 * the keys that answer it.  Shared by the terminal ward runs on and by
 * `ward approve`.  No I/O here.
 */
#ifndef WARD_PROMPT_H
#define WARD_PROMPT_H

#include "obuf.h"

#include <stdbool.h>
#include <stddef.h>

/* Keys typed in the first half second of a prompt answer nothing (type-ahead meant for the agent). */
#define PROMPT_ARM_MS 500
/* A lone ESC is the Esc key only when nothing follows it this soon. */
#define PROMPT_ESC_MS 50

enum key {
	KEY_NONE = 0,	 /* no key: nothing, several at once, a paste, a reply */
	KEY_ONCE = 'y',
	KEY_SESSION = 's',
	KEY_ALWAYS = 'a',
	KEY_DENY = 'n',
	KEY_DENY_ALWAYS = 'd',
	KEY_TAB = '\t',
	KEY_DETAILS = '?',
	KEY_ESC = 27,	 /* deny, as n */
	KEY_ENTER = '\r', /* answers nothing */
	KEY_INTR = 3,	 /* Ctrl-C */
	KEY_QUIT = 'q',	 /* ward approve: leave */
	KEY_OTHER = 256,
};

/*
 * The input of a real terminal while a prompt is up.  A key answers only
 * when one read holds it and nothing else: a paste, keys typed in a
 * burst, keys the terminal sends for the mouse are no answer.  What the
 * terminal sends in reply to the agent's queries (cursor position, device
 * attributes, colours, focus and mouse reports) is the agent's, and goes
 * to it.
 */
struct keyin {
	char held[256]; /* a sequence cut at the end of a read, kept for the next */
	size_t nheld;
	bool in_paste;
	bool x10_mouse; /* the agent asked for X10 mouse reports: CSI M and three bytes */
};

/*
 * Classify one read.  Returns the key, or KEY_NONE; bytes for the agent
 * are appended to to_agent.  A sequence cut at the end is held (see
 * keyin_pending()).
 */
int keyin_read(struct keyin *k, const char *buf, size_t len, struct obuf *to_agent);
/* True when a cut sequence (a lone ESC, say) waits for more. */
bool keyin_pending(const struct keyin *k);
/* Nothing more came: a lone ESC is the Esc key; anything else goes to the agent. */
int keyin_timeout(struct keyin *k, struct obuf *to_agent);

/* What a prompt shows; every string already safe for a terminal. */
struct prompt_view {
	unsigned serial;
	const char *prog;   /* the program's name ("node") */
	int pid;
	const char *chain;  /* its process and its parents, "npm install ← claude" ("" none) */
	const char *op;	    /* "WRITE", "CONNECT"... */
	const char *target; /* the target in full */
	const char *extra;  /* an address beside a host name, or "" */
	const char *rule;   /* where the question came from, "builtin:default:41" or "undecided" */
	const char *scope_name; /* the chosen rung of the scope ladder ("this file"), "" when none */
	const char *scope_rule; /* the rule it saves or grants ("allow write ..."), "" when none */
	bool can_save;	    /* s, a and d are offered (a rule can be written for the target) */
	int waiting;	    /* other questions queued behind this one */
	bool live;	    /* keys are taken now (the first half second is over) */
	bool flooded;	    /* questions came faster than a person answers: some were not asked */
	/* for the details */
	const char *exe, *argv, *cwd, *procs; /* procs: one process a line, "PID ARGV" */
	const char *via, *stack;	      /* the libc call, the caller's stack a frame a line ("" none) */
};

#define PROMPT_LINE 2048
/*
 * The two lines of ward's rows for v, each at most cols wide.  Returns
 * false when the target did not fit whole on the first (the details
 * are then shown too, so that it is seen whole).
 */
bool prompt_lines(const struct prompt_view *v, int cols, char *line1, char *line2, size_t len);
/* The SGR parameters the two lines are drawn with (a question; the idle status). */
extern const char *const prompt_sgr[2];
extern const char *const prompt_idle_sgr[2];

/*
 * The details, in at most max lines of at most cols columns, long values
 * wrapped (never cut): into lines[] (each PROMPT_LINE bytes).  Returns
 * how many.
 */
int prompt_details(const struct prompt_view *v, int cols, char lines[][PROMPT_LINE], int max);

/* Display width of UTF-8 text (no control characters in it). */
int text_width(const char *s);
/* Copy into out as much of s as fits in width columns. */
void text_fit(const char *s, int width, char *out, size_t len);

#endif
