/*
 * front.h - a front end that puts the questions to a person: which one
 * is shown, the keys that answer it, the lines that show it.  The
 * terminal ward runs on and `ward approve` each have one; they differ in
 * where the questions come from and answers go (front_ops) and in where
 * the lines are drawn.  No I/O here.
 */
#ifndef WARD_FRONT_H
#define WARD_FRONT_H

#include "ask.h"
#include "prompt.h"

#include <stdbool.h>
#include <stdint.h>

struct front_ops {
	/* The pending questions, oldest first (*v the caller's to free). */
	int (*list)(void *arg, struct ask_view **v, size_t *n);
	/* 0, or -errno (-ESRCH: answered already elsewhere, or withdrawn). */
	int (*answer)(void *arg, unsigned serial, enum ask_answer a, int scope);
	void (*touch)(void *arg, unsigned serial);
	/* A notice to show when idle ("" none). */
	void (*notice)(void *arg, char *buf, size_t len);
	void *arg;
};

struct front {
	struct front_ops ops;
	char session[32];
	char home[4096];
	struct ask_view *v; /* the questions as last listed */
	size_t n;
	unsigned shown;	     /* the serial of the question shown, 0: none */
	int64_t shown_ms;    /* when it was first drawn */
	int scope;	     /* its rung */
	bool details;	     /* the person asked for the details */
	char error[256];     /* an answer that failed (a rule not saved), shown until the next */
	unsigned answered;   /* questions answered here */
	int arm_ms;	     /* keys answer this long after a question shows: PROMPT_ARM_MS */
};

void front_init(struct front *f, const struct front_ops *ops, const char *session, const char *home);
void front_free(struct front *f);
/*
 * List the questions again.  Returns true when the one to show changed
 * to a new one: the caller then discards what was typed ahead, rings
 * the bell, and draws it with front_shown_at() now.
 */
bool front_refresh(struct front *f);
void front_shown_at(struct front *f, int64_t now_ms);
/* Milliseconds until keys answer (0: they do, or nothing is shown). */
int front_arming(const struct front *f, int64_t now_ms);
/* A key from the person; true when what is shown changed. */
bool front_key(struct front *f, int key, int64_t now_ms);

/*
 * The lines: ward's two rows (lines, sgr), and the overlay above them
 * when the details are asked for or the target did not fit its row
 * (*nover lines, at most max; 0 without).
 */
void front_lines(struct front *f, int cols, int64_t now_ms, char lines[2][PROMPT_LINE],
		 const char *sgr[2], char over[][PROMPT_LINE], int max, int *nover);

/* s made safe for a terminal: control characters and bad UTF-8 as \xNN, a backslash doubled. */
const char *text_safe(const char *s, char *buf, size_t len);

#endif
