/*
 * screen.h - the real terminal shared between the agent and ward.
 *
 * The agent's output reaches the real terminal through screen_feed(),
 * which keeps it inside the agent's area: the rows above the ones ward
 * reserves at the bottom (docs/prompt.md says how, and why this way).
 * Nothing here does I/O: bytes go into an obuf for the caller to write.
 */
#ifndef WARD_SCREEN_H
#define WARD_SCREEN_H

#include "obuf.h"

#include <stdbool.h>
#include <stddef.h>

/* The rows ward keeps for itself at the bottom of the real terminal. */
#define SCREEN_WARD_ROWS 2
/* The smallest real terminal ward shares: one row left for the agent. */
#define SCREEN_MIN_ROWS (SCREEN_WARD_ROWS + 1)
#define SCREEN_MIN_COLS 20

struct screen;

/* A real terminal of rows x cols; NULL when it is too small or memory is short. */
struct screen *screen_new(int rows, int cols);
void screen_free(struct screen *s);
/* The agent's rows (its pty's height). */
int screen_area(const struct screen *s);

/*
 * Take the terminal over: room made for ward's rows (the content above
 * scrolled up if the cursor was in them), the scroll region set.  row is
 * where the real cursor is (1-based), 0 when that is not known.
 */
void screen_begin(struct screen *s, int row, struct obuf *out);

/*
 * The agent's output.  What the real terminal is to see goes to out;
 * what ward answers the agent itself (its size, asked with CSI 18 t: the
 * real terminal would tell the whole height) goes to reply, to be written
 * to the agent's input.
 */
void screen_feed(struct screen *s, const char *buf, size_t len, struct obuf *out,
		 struct obuf *reply);

/* The real terminal is now rows x cols (its content as the terminal left it). */
void screen_resize(struct screen *s, int rows, int cols, struct obuf *out);

/*
 * What ward's rows show: SCREEN_WARD_ROWS lines, each its text (made safe
 * by the caller, display width at most the terminal's) and, apart, the
 * SGR parameters it is drawn with ("7", "1;33", "" for none).  Drawn by
 * screen_draw_ward().
 */
void screen_set_ward(struct screen *s, const char *const *lines, const char *const *sgr);
/*
 * Draw ward's rows now, the agent's cursor, pen, charset and modes as
 * they were after.  False when the agent has a synchronized update open
 * (?2026): ward does not draw inside one; see screen_sync_close().
 */
bool screen_draw_ward(struct screen *s, struct obuf *out);
/* True when ward's rows need drawing (an alternate-screen switch, a reset, a resize). */
bool screen_ward_dirty(const struct screen *s);
/* True when the agent has a synchronized update (?2026) open on the terminal. */
bool screen_sync_open(const struct screen *s);
/* End the agent's synchronized update on the terminal (it kept one open too long). */
void screen_sync_close(struct screen *s, struct obuf *out);

/*
 * Hold the agent's output back from the terminal (it still goes into the
 * mirror, and the agent is not slowed): ward draws over the agent's area
 * meanwhile, nlines lines at its bottom.  screen_release() repaints the
 * agent's area from the mirror and puts its modes back.
 */
void screen_hold(struct screen *s, const char *const *lines, const char *const *sgr, int nlines,
		 struct obuf *out);
void screen_release(struct screen *s, struct obuf *out);
bool screen_held(const struct screen *s);

/* The agent's area drawn again from the mirror (after ward was stopped, say). */
void screen_repaint(struct screen *s, struct obuf *out);

/*
 * Give the terminal back: the agent's modes undone, the scroll region
 * the whole screen, ward's rows cleared, the cursor on a fresh line
 * below the agent's output.
 */
void screen_end(struct screen *s, struct obuf *out);
/*
 * ward is stopped with the agent (job control): the terminal given back
 * as by screen_end(), the agent's state kept; screen_resume() takes it
 * again and repaints the agent's area.
 */
void screen_suspend(struct screen *s, struct obuf *out);
void screen_resume(struct screen *s, struct obuf *out);
/*
 * Bytes that give a terminal of this many rows back whatever state ward
 * and the agent left it in, for a signal handler (no mirror to ask):
 * written into buf, NUL-terminated.
 */
void screen_crash_reset(int rows, char *buf, size_t len);

/* The mirror's text on one of the agent's rows (0-based), for tests. */
size_t screen_row_text(const struct screen *s, int row, char *buf, size_t len);
/* The agent's cursor as the mirror has it (1-based). */
void screen_cursor(const struct screen *s, int *row, int *col);

#endif
