/*
 * glob.h - compiled glob patterns for paths, domains and socket names.
 *
 * A pattern compiles to a small program for a Thompson NFA, so that a
 * match costs O(pattern length × subject length) whatever the pattern:
 * no backtracking, no blow-up on hostile input.
 */
#ifndef WARD_GLOB_H
#define WARD_GLOB_H

#include <stdbool.h>
#include <stddef.h>

enum glob_flags {
	GLOB_PATH = 0, /* '*' '?' '[..]' stop at '/', '**' spans components */
	GLOB_FLAT = 1, /* '*' and '?' match any character, '**' is '*' */
};

struct glob;

/*
 * Compile pattern.  Returns NULL with *why set to a static message when
 * the pattern is malformed (an unterminated class, a trailing '\') or
 * too long, or on allocation failure.
 */
struct glob *glob_compile(const char *pattern, enum glob_flags flags,
			  const char **why);
void glob_free(struct glob *g);
bool glob_match(const struct glob *g, const char *subject);
/*
 * True when, for every x, g matches a/x exactly when it matches b/x (the
 * program is in the same states after "a/" as after "b/"): moving a
 * directory from a to b changes nothing g says about what is below it.
 * False when that cannot be shown (a path too long counts so).
 */
bool glob_same_below(const struct glob *g, const char *a, const char *b);

/*
 * Running a program a byte at a time, for questions about every path
 * below a directory (ward_policy_moves_guarded).  A state set is a sorted
 * array of at most glob_size(g) states.
 */
int glob_size(const struct glob *g);
/* The states after "dir/" ("/" for the root); -1 for a dir too long. */
int glob_states_below(const struct glob *g, const char *dir, int *out);
/* The states after byte c from the n states of cur: their count, in next. */
int glob_step(const struct glob *g, const int *cur, int n, unsigned char c, int *next);
/* True when a state of the set is the match. */
bool glob_states_accept(const struct glob *g, const int *cur, int n);
/*
 * Refine a partition of the bytes (cls[b] is b's class, the classes
 * numbered from 0; *ncls of them) so that bytes of one class are alike to
 * every instruction of g: stepping any state on either gives the same.
 */
void glob_refine_bytes(const struct glob *g, unsigned short cls[256], int *ncls);

/* Length of the literal prefix of pattern (before the first glob char). */
size_t glob_literal_len(const char *pattern);
/* True when pattern holds a glob character. */
bool glob_has_magic(const char *pattern);

#endif
