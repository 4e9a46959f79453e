/*
 * screen.c - the agent's output kept inside its own rows of the real
 * terminal, ward's rows below them out of its reach.
 *
 * The agent's pty is SCREEN_WARD_ROWS rows shorter than the real
 * terminal; its rows are the top ones, so that its coordinates and the
 * terminal's are the same.  Its output is passed through, not rendered
 * again, so that the terminal's scrollback, hyperlinks, colours and
 * images of text stay as they were: each sequence is taken apart by a
 * bounded lexer of our own and written out again, in a canonical form,
 * only when it is on a list of what cannot reach ward's rows, changed
 * where it could (docs/prompt.md, "The agent's area", lists them):
 *
 *  - the scroll region never ends below the agent's area, so that text,
 *    line feeds and relative cursor moves stop at its bottom (the
 *    terminal scrolls the region, not the screen), absolute moves are
 *    clamped to it, and moves down made absolute;
 *  - erasing below the cursor or the whole screen becomes erasing the
 *    agent's rows one by one; a reset (RIS) becomes a soft reset and
 *    the state it implies; 80/132 columns, VT52 mode, double-width
 *    and double-height lines, rectangle operations, DECALN, sixel,
 *    kitty and iTerm2 images, tmux
 *    passthrough, DECRQSS, window resizing and anything not on the list
 *    are dropped;
 *  - when the agent sets a scroll region that ends above its area's
 *    bottom, the cursor can be below the region, where a line feed or
 *    a wrap at the last row would step into ward's rows: then each
 *    move down is made as an absolute move to where the mirror says the
 *    cursor is, and wrapping is done the same way, the terminal's own
 *    autowrap off.
 *
 * The mirror is a libvterm screen the size of the agent's pty, fed the
 * canonical form of what passed: it tells where the agent's cursor is
 * (to put it back after ward draws, and for the moves above), and holds
 * the agent's screen for repainting it (after ward drew over it, or was
 * stopped).  libvterm 0.1.4's own parser writes past its argument array
 * on a CSI of more than 16 parameters, so it never sees the agent's
 * bytes: only what the lexer here wrote, at most 16 parameters a
 * sequence.
 */
#include "screen.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vterm.h>

#define MAXP 32	       /* parameters a CSI may have; more and it is dropped */
#define MIRROR_MAXP 16 /* what libvterm 0.1.4 takes without writing past its array */
#define PARAM_MAX 65535
#define COUNT_MAX 9999
#define STR_MAX (1u << 20) /* an OSC's payload passed on at most */
#define HEAD_MAX 24	   /* an OSC's number, or a DCS's prefix */
#define DEFER_MAX (64u << 10)
#define WARD_LINE 1024

enum lex_state { L_GROUND, L_ESC, L_CSI, L_STR };
enum str_kind { STR_OSC, STR_DCS, STR_DROP };

struct lex {
	enum lex_state st;
	/* ESC and CSI */
	char inter[3];
	int ninter;
	bool bad;
	/* CSI */
	char leader;
	int np;
	unsigned p[MAXP];
	bool given[MAXP];
	char sep[MAXP]; /* ':' when p[i] is a sub-parameter of the one before */
	bool any;	/* a parameter byte was seen */
	/* strings */
	enum str_kind kind;
	char head[HEAD_MAX];
	int nhead;
	bool passing; /* the string is being written out (an OSC), or kept (a DCS) */
	char dcs[64]; /* a DCS query's text: checked whole before it is passed on */
	int ndcs;
	bool str_esc; /* an ESC came: ST if a backslash follows */
	size_t slen;
	/* UTF-8 */
	unsigned char u8[4];
	int u8have, u8need;
};

/* The modes ward keeps track of: what the agent set, what the terminal has. */
enum mode {
	M_DECCKM, M_DECOM, M_DECAWM, M_BLINK, M_DECTCEM, M_DECNKM, M_MOUSE9, M_MOUSE1000,
	M_MOUSE1002, M_MOUSE1003, M_FOCUS, M_MOUSE1005, M_MOUSE1006, M_ALTSCROLL, M_MOUSE1015,
	M_MOUSE1016, M_PASTE, M_SYNC, M_GRAPHEME, M_IRM, M_KEYPAD, M_COUNT
};
static const struct mode_def {
	int num;
	char kind; /* '?' DEC private, 'a' ANSI, 'k' the keypad's ESC = and ESC > */
	bool def;  /* a terminal's default */
} modes[M_COUNT] = {
	[M_DECCKM] = { 1, '?', false },	      [M_DECOM] = { 6, '?', false },
	[M_DECAWM] = { 7, '?', true },	      [M_BLINK] = { 12, '?', false },
	[M_DECTCEM] = { 25, '?', true },      [M_DECNKM] = { 66, '?', false },
	[M_MOUSE9] = { 9, '?', false },	      [M_MOUSE1000] = { 1000, '?', false },
	[M_MOUSE1002] = { 1002, '?', false }, [M_MOUSE1003] = { 1003, '?', false },
	[M_FOCUS] = { 1004, '?', false },     [M_MOUSE1005] = { 1005, '?', false },
	[M_MOUSE1006] = { 1006, '?', false }, [M_ALTSCROLL] = { 1007, '?', false },
	[M_MOUSE1015] = { 1015, '?', false }, [M_MOUSE1016] = { 1016, '?', false },
	[M_PASTE] = { 2004, '?', false },     [M_SYNC] = { 2026, '?', false },
	[M_GRAPHEME] = { 2027, '?', false },  [M_IRM] = { 4, 'a', false },
	[M_KEYPAD] = { 0, 'k', false },
};

/* A colour of SGR: kind 0 default, 1 one of the 16 (v[0] the SGR code), 2 of 256, 3 RGB. */
struct color {
	unsigned char kind, v[3];
};
/* The SGR state (the pen): ward's own drawing puts it back after. */
struct pen {
	uint32_t flags; /* bit n: SGR n is on (1-9, and 53 as bit 10) */
	unsigned char ul; /* underline style: 0 none, 1 single, 2 double, 3-5 curly, dotted, dashed */
	struct color fg, bg, ulc;
};
#define PEN_OVERLINE 10

/* What DECSC saves (and DECRC, the alternate screen's switch back, restore). */
struct saved {
	bool set;
	struct pen pen;
	char g[2];
	bool shifted, decom;
};

struct screen {
	int rows, cols, area;
	VTerm *vt;
	VTermState *vs;
	VTermScreen *vscr;
	struct lex lx;
	int top, bot; /* the agent's scroll region, 1-based, within its area */
	bool want[M_COUNT], real[M_COUNT];
	int want_alt, real_alt; /* 0, or the mode that switched to the alternate screen */
	struct pen pen;
	char g[2]; /* G0 and G1: 'B' ASCII, '0' DEC graphics, 'A' UK */
	bool shifted;
	struct saved saved[2]; /* the normal screen's and the alternate's */
	int kitty_depth;
	bool kitty_used, modkeys, cursor_shape;
	char last[4]; /* the last character printed (for REP) */
	int nlast;
	bool hold, ward_dirty;
	bool held_damage; /* the agent drew while its output was held */
	int over_rows;	  /* the rows ward drew over it */
	char ward_text[SCREEN_WARD_ROWS][WARD_LINE];
	char ward_sgr[SCREEN_WARD_ROWS][64];
	struct obuf canon, deferred;
	struct obuf keyseq; /* the keyboard's modes as the agent set them, for a resume */
	struct obuf *out, *reply;
};

/* ---- output: to the terminal, to the mirror ---- */

static void put(struct screen *s, const void *b, size_t n)
{
	if (!s->hold)
		ob_put(s->out, b, n);
}

static void mfeed(struct screen *s, const void *b, size_t n)
{
	vterm_input_write(s->vt, b, n);
}

/* A short formatted sequence, to the terminal or to the mirror. */
static void vemit(struct screen *s, bool mirror, const char *fmt, va_list ap)
{
	char buf[256];
	int n = vsnprintf(buf, sizeof(buf), fmt, ap);

	if (n <= 0 || (size_t)n >= sizeof(buf))
		return;
	if (mirror)
		mfeed(s, buf, (size_t)n);
	else
		put(s, buf, (size_t)n);
}

static void putf(struct screen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void putf(struct screen *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit(s, false, fmt, ap);
	va_end(ap);
}

static void mfeedf(struct screen *s, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void mfeedf(struct screen *s, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vemit(s, true, fmt, ap);
	va_end(ap);
}

/* To the terminal and the mirror alike. */
static void both(struct screen *s, const void *b, size_t n)
{
	put(s, b, n);
	mfeed(s, b, n);
}

static void put_s(struct screen *s, const char *str)
{
	put(s, str, strlen(str));
}

static void mfeed_s(struct screen *s, const char *str)
{
	mfeed(s, str, strlen(str));
}

static void both_s(struct screen *s, const char *str)
{
	both(s, str, strlen(str));
}

/*
 * What does not draw (titles, keyboard modes, cursor shape) is kept,
 * while the agent's output is held, for when it is released.
 */
static void put_later(struct screen *s, const void *b, size_t n)
{
	if (!s->hold)
		ob_put(s->out, b, n);
	else if (s->deferred.len + n <= DEFER_MAX)
		ob_put(&s->deferred, b, n);
}

/* The agent's cursor, 1-based, as the mirror has it. */
void screen_cursor(const struct screen *s, int *row, int *col)
{
	VTermPos p;

	vterm_state_get_cursorpos(s->vs, &p);
	*row = p.row + 1;
	*col = p.col + 1;
}

static bool partial(const struct screen *s)
{
	return s->bot < s->area;
}

/* Move the terminal's cursor to where the mirror has the agent's. */
static void goto_cursor(struct screen *s)
{
	int row, col;

	screen_cursor(s, &row, &col);
	if (s->real[M_DECOM])
		row = row >= s->top ? row - s->top + 1 : 1; /* origin mode: CUP counts from the region's top */
	putf(s, "\033[%d;%dH", row, col);
}

/* ---- modes ---- */

static void put_mode(struct screen *s, enum mode m, bool on)
{
	const struct mode_def *d = &modes[m];

	if (d->kind == 'k')
		put_s(s, on ? "\033=" : "\033>");
	else
		putf(s, "\033[%s%d%c", d->kind == '?' ? "?" : "", d->num, on ? 'h' : 'l');
	s->real[m] = on;
}

/* What the terminal should have for mode m: the agent's wish, but autowrap off in a partial region. */
static bool desired(const struct screen *s, enum mode m)
{
	return m == M_DECAWM && partial(s) ? false : s->want[m];
}

static void sync_modes(struct screen *s)
{
	for (int m = 0; m < M_COUNT; m++)
		if (s->real[m] != desired(s, (enum mode)m))
			put_mode(s, (enum mode)m, desired(s, (enum mode)m));
}

/* ---- the pen (SGR) ---- */

/* Parse one colour of SGR 38, 48 or 58 at p[i]; returns how many parameters it took. */
static int sgr_color(const struct lex *l, int i, struct color *c)
{
	int nsub = 0;
	while (i + 1 + nsub < l->np && l->sep[i + 1 + nsub] == ':')
		nsub++;
	if (nsub > 0) {
		const unsigned *a = &l->p[i + 1];
		if (a[0] == 5 && nsub >= 2)
			*c = (struct color){ 2, { (unsigned char)a[1] } };
		else if (a[0] == 2 && nsub >= 4)
			/* 38:2:R:G:B, or 38:2:ID:R:G:B with a colour space: the last three. */
			*c = (struct color){ 3, { (unsigned char)a[nsub - 3], (unsigned char)a[nsub - 2],
						  (unsigned char)a[nsub - 1] } };
		return 1 + nsub;
	}
	if (i + 2 < l->np && l->p[i + 1] == 5) {
		*c = (struct color){ 2, { (unsigned char)l->p[i + 2] } };
		return 3;
	}
	if (i + 4 < l->np && l->p[i + 1] == 2) {
		*c = (struct color){ 3, { (unsigned char)l->p[i + 2], (unsigned char)l->p[i + 3],
					  (unsigned char)l->p[i + 4] } };
		return 5;
	}
	return l->np - i; /* malformed: the rest is taken, as terminals do */
}

static void pen_apply(struct pen *pen, const struct lex *l)
{
	if (l->np == 0) {
		*pen = (struct pen){ 0 };
		return;
	}
	for (int i = 0; i < l->np;) {
		unsigned v = l->given[i] ? l->p[i] : 0;
		int used = 1;
		while (i + used < l->np && l->sep[i + used] == ':' && v != 38 && v != 48 && v != 58)
			used++; /* sub-parameters of this one */
		if (v == 0) {
			*pen = (struct pen){ 0 };
		} else if (v == 4) {
			pen->ul = used > 1 ? (unsigned char)(l->p[i + 1] > 5 ? 1 : l->p[i + 1]) : 1;
		} else if (v >= 1 && v <= 9) {
			pen->flags |= 1u << v;
		} else if (v == 21) {
			pen->ul = 2;
		} else if (v == 22) {
			pen->flags &= ~(1u << 1 | 1u << 2);
		} else if (v == 23 || v == 25 || v == 27 || v == 28 || v == 29) {
			pen->flags &= ~(1u << (v - 20));
			if (v == 25)
				pen->flags &= ~(1u << 6);
		} else if (v == 24) {
			pen->ul = 0;
		} else if (v == 53) {
			pen->flags |= 1u << PEN_OVERLINE;
		} else if (v == 55) {
			pen->flags &= ~(1u << PEN_OVERLINE);
		} else if ((v >= 30 && v <= 37) || (v >= 90 && v <= 97)) {
			pen->fg = (struct color){ 1, { (unsigned char)v } };
		} else if ((v >= 40 && v <= 47) || (v >= 100 && v <= 107)) {
			pen->bg = (struct color){ 1, { (unsigned char)v } };
		} else if (v == 38 || v == 48 || v == 58) {
			used = sgr_color(l, i, v == 38 ? &pen->fg : v == 48 ? &pen->bg : &pen->ulc);
		} else if (v == 39) {
			pen->fg.kind = 0;
		} else if (v == 49) {
			pen->bg.kind = 0;
		} else if (v == 59) {
			pen->ulc.kind = 0;
		}
		i += used;
	}
}

/*
 * A colour of the pen: a basic one inside the SGR being written (inside),
 * an extended one (5;N, 2;R;G;B) as an SGR of its own (!inside).  One SGR
 * with every attribute and three extended colours would take more than 16
 * parameters, which some terminals refuse or worse (libvterm 0.1 crashes:
 * the screen fuzzer's checker found it).
 */
static void color_sgr(struct obuf *b, const struct color *c, int base, bool inside)
{
	if (c->kind == 1 && inside)
		ob_printf(b, ";%u", c->v[0]);
	else if (c->kind == 2 && !inside)
		ob_printf(b, "\033[%d;5;%um", base, c->v[0]);
	else if (c->kind == 3 && !inside)
		ob_printf(b, "\033[%d;2;%u;%u;%um", base, c->v[0], c->v[1], c->v[2]);
}

/* The pen as SGR sequences (from a reset), none of more than 16 parameters. */
static void pen_sgr(const struct pen *pen, struct obuf *b)
{
	ob_puts(b, "\033[0");
	for (int v = 1; v <= 9; v++)
		if (v != 4 && (pen->flags & (1u << v)))
			ob_printf(b, ";%d", v);
	if (pen->flags & (1u << PEN_OVERLINE))
		ob_puts(b, ";53");
	if (pen->ul == 1)
		ob_puts(b, ";4");
	else if (pen->ul == 2)
		ob_puts(b, ";21");
	else if (pen->ul > 2)
		ob_printf(b, ";4:%u", pen->ul);
	color_sgr(b, &pen->fg, 38, true);
	color_sgr(b, &pen->bg, 48, true);
	color_sgr(b, &pen->ulc, 58, true);
	ob_puts(b, "m");
	color_sgr(b, &pen->fg, 38, false);
	color_sgr(b, &pen->bg, 48, false);
	color_sgr(b, &pen->ulc, 58, false);
}

static void put_pen(struct screen *s)
{
	struct obuf b = { 0 };
	pen_sgr(&s->pen, &b);
	put(s, b.p, b.len);
	ob_free(&b);
}

/* ---- saving and restoring the cursor's state ---- */

static void save_state(struct screen *s)
{
	struct saved *v = &s->saved[s->want_alt ? 1 : 0];
	*v = (struct saved){ true, s->pen, { s->g[0], s->g[1] }, s->shifted, s->want[M_DECOM] };
}

/* DECRC: what was saved, or the defaults; the terminal does the same. */
static void restore_state(struct screen *s)
{
	struct saved *v = &s->saved[s->want_alt ? 1 : 0];
	if (v->set) {
		s->pen = v->pen;
		s->g[0] = v->g[0];
		s->g[1] = v->g[1];
		s->shifted = v->shifted;
		s->want[M_DECOM] = v->decom;
	} else {
		s->pen = (struct pen){ 0 };
		s->g[0] = s->g[1] = 'B';
		s->shifted = false;
		s->want[M_DECOM] = false;
	}
}

/*
 * After the terminal restored a saved cursor (DECRC, SCORC, 1048 or 1049
 * reset): terminals differ on whether that restores origin mode too (xterm
 * and VTE do, libvterm does not), so ward says the agent's mode, to the
 * mirror and to the terminal, and keeps the cursor where the restore put it.
 */
static void restored(struct screen *s)
{
	VTermPos p;

	vterm_state_get_cursorpos(s->vs, &p);
	mfeedf(s, "\033[?6l\033[%d;%dH", p.row + 1, p.col + 1);
	if (s->want[M_DECOM]) {
		int row = p.row + 1 >= s->top ? p.row + 1 - s->top + 1 : 1;
		mfeedf(s, "\033[?6h\033[%d;%dH", row, p.col + 1);
	}
	if (s->hold)
		return;
	put_mode(s, M_DECOM, desired(s, M_DECOM));
	goto_cursor(s);
}

/* ---- drawing outside the agent's state ---- */

/*
 * A string being passed on (an OSC cut between two reads) is ended
 * first: nothing ward writes may land inside one.  The rest of it is
 * dropped.
 */
static void settle(struct screen *s)
{
	if (s->lx.st == L_STR && s->lx.passing && s->lx.kind == STR_OSC) {
		put_later(s, "\033\\", 2);
		s->lx.passing = false;
		s->lx.kind = STR_DROP;
	}
}

/* Leave the agent's state on the terminal for ward's drawing: absolute rows, no wrap or insert, ASCII. */
static void ward_state_begin(struct screen *s)
{
	settle(s);
	put_s(s, "\033[?6l"); /* always: a restore held back may have set it, whatever ward thought */
	if (s->real[M_IRM])
		put_s(s, "\033[4l");
	if (s->real[M_DECAWM])
		put_s(s, "\033[?7l");
	put_s(s, "\033(B\017");
}

/* Put the agent's state back as it was (its DECOM homes the cursor: moved after). */
static void ward_state_end(struct screen *s)
{
	put_pen(s);
	putf(s, "\033(%c\033)%c%s", s->g[0], s->g[1], s->shifted ? "\016" : "");
	if (s->real[M_IRM])
		put_s(s, "\033[4h");
	if (s->real[M_DECAWM])
		put_s(s, "\033[?7h");
	if (s->real[M_DECOM])
		put_s(s, "\033[?6h");
	goto_cursor(s);
}

/*
 * One row drawn by ward: erased in its colours, then its text (erasing
 * after would take the last column: with autowrap off the cursor stays
 * on it).
 */
static void put_row(struct screen *s, int row, const char *text, const char *sgr)
{
	putf(s, "\033[%d;1H\033[0%s%sm\033[2K", row, sgr[0] ? ";" : "", sgr);
	put(s, text, strlen(text));
	put_s(s, "\033[0m");
}

/* ---- the lexer's tokens, acted on ---- */

/* A parameter: given, or def; a count is at least 1 and at most COUNT_MAX. */
static unsigned P(const struct lex *l, int i, unsigned def)
{
	return i < l->np && l->given[i] ? l->p[i] : def;
}

static unsigned count(const struct lex *l, int i)
{
	unsigned v = P(l, i, 1);
	return v == 0 ? 1 : v > COUNT_MAX ? COUNT_MAX : v;
}

/* The CSI as it came (parameters bounded), into s->canon; first..last parameters only. */
static void canon_csi(struct screen *s, int first, int last)
{
	struct lex *l = &s->lx;
	struct obuf *b = &s->canon;

	ob_reset(b);
	ob_puts(b, "\033[");
	if (l->leader)
		ob_put(b, &l->leader, 1);
	for (int i = first; i < last; i++) {
		if (i > first)
			ob_put(b, l->sep[i] == ':' ? ":" : ";", 1);
		if (l->given[i])
			ob_printf(b, "%u", l->p[i]);
	}
	ob_put(b, l->inter, (size_t)l->ninter);
}

static void canon_final(struct screen *s, char final)
{
	ob_put(&s->canon, &final, 1);
}

/* The sequence as it came, to the terminal and the mirror. */
static void pass_csi(struct screen *s, char final, bool mirror)
{
	canon_csi(s, 0, s->lx.np);
	canon_final(s, final);
	put(s, s->canon.p, s->canon.len);
	if (mirror)
		mfeed(s, s->canon.p, s->canon.len);
}

/*
 * CUD, CNL, VPR: made absolute, to where the mirror puts the cursor.  A
 * terminal stops them at the region's bottom, which is the area's in a
 * full region, but not every terminal does (libvterm's own does not), and
 * in a partial region the cursor may be below the region.
 */
static void move_down(struct screen *s, char final)
{
	mfeedf(s, "\033[%u%c", count(&s->lx, 0), final);
	goto_cursor(s);
}

/*
 * A line feed (LF, VT, FF, IND; NEL with cr).  In a partial region the
 * cursor may be below it, where the terminal would step into ward's rows
 * at the area's last row: the move is made absolute, but for the scroll
 * at the region's bottom, which the terminal does as the mirror did.
 */
static void line_feed(struct screen *s, bool cr)
{
	int row, col;

	screen_cursor(s, &row, &col);
	mfeed_s(s, cr ? "\r\n" : "\n");
	if (!partial(s) || (row == s->bot && row >= s->top)) {
		put_s(s, cr ? "\r\n" : "\n");
		return;
	}
	goto_cursor(s);
}

/* Erase (ED, or DECSED with sel): never below the agent's area. */
static void erase_display(struct screen *s, bool sel)
{
	unsigned v = P(&s->lx, 0, 0);
	int row, col;
	const char *q = sel ? "?" : "";

	screen_cursor(s, &row, &col);
	if (v == 1 || (v == 3 && !sel)) {
		pass_csi(s, 'J', true);
		return;
	}
	if (v != 0 && v != 2)
		return;
	mfeedf(s, "\033[%s%uJ", q, v);
	if (s->real[M_DECOM])
		put_s(s, "\033[?6l");
	if (v == 0)
		putf(s, "\033[%d;%dH\033[%sK", row, col, q);
	for (int r = v == 0 ? row + 1 : 1; r <= s->area; r++)
		putf(s, "\033[%d;1H\033[%s2K", r, q);
	if (s->real[M_DECOM])
		put_s(s, "\033[?6h");
	goto_cursor(s);
}

static void set_region(struct screen *s)
{
	struct lex *l = &s->lx;
	unsigned t = P(l, 0, 1), b = P(l, 1, (unsigned)s->area);
	bool was_partial = partial(s);

	if (t == 0)
		t = 1;
	if (b == 0 || b > (unsigned)s->area)
		b = (unsigned)s->area;
	if (t >= b)
		return; /* terminals ignore it; so do both here */
	s->top = (int)t;
	s->bot = (int)b;
	putf(s, "\033[%u;%ur", t, b);
	mfeedf(s, "\033[%u;%ur", t, b);
	if (was_partial != partial(s) && s->want[M_DECAWM] && !s->hold)
		put_mode(s, M_DECAWM, !partial(s));
}

/* An alternate-screen switch (47, 1047, 1049): the terminal swaps ward's rows too. */
static void alt_switch(struct screen *s, int m, bool on)
{
	if (on && m == 1049)
		save_state(s);
	s->want_alt = on ? m : 0;
	if (!on && m == 1049)
		restore_state(s);
	mfeedf(s, "\033[?%d%c", m, on ? 'h' : 'l');
	if (s->hold)
		return;
	putf(s, "\033[?%d%c", m, on ? 'h' : 'l');
	s->real_alt = s->want_alt;
	/* Some terminals keep a region for each screen: set it again, and the cursor. */
	putf(s, "\033[%d;%dr", s->top, s->bot);
	if (!on && m == 1049)
		restored(s);
	else
		goto_cursor(s);
	s->ward_dirty = true;
}

static void dec_mode(struct screen *s, unsigned num, bool on)
{
	if (num == 47 || num == 1047 || num == 1049) {
		alt_switch(s, (int)num, on);
		return;
	}
	if (num == 1048) {
		if (on)
			save_state(s);
		else
			restore_state(s);
		mfeedf(s, "\033[?1048%c", on ? 'h' : 'l');
		putf(s, "\033[?1048%c", on ? 'h' : 'l');
		if (!on)
			restored(s);
		return;
	}
	for (int m = 0; m < M_COUNT; m++) {
		if (modes[m].kind != '?' || modes[m].num != (int)num)
			continue;
		s->want[m] = on;
		mfeedf(s, "\033[?%u%c", num, on ? 'h' : 'l');
		if (!s->hold && s->real[m] != desired(s, (enum mode)m))
			put_mode(s, (enum mode)m, desired(s, (enum mode)m));
		if (m == M_DECOM && !s->hold)
			goto_cursor(s); /* DECOM homed both; the same place, said once more */
		return;
	}
	/* Anything else (VT52 mode, 80/132 columns, margins, XTSAVE...) is dropped. */
}

/* xterm's window operations: only reports; the height asked of is the agent's. */
static void window_op(struct screen *s)
{
	unsigned v = P(&s->lx, 0, 0);

	if (v == 18 || v == 19) {
		if (s->reply != NULL)
			ob_printf(s->reply, "\033[%u;%d;%dt", v == 18 ? 8 : 9, s->area, s->cols);
		return;
	}
	if (v == 11 || v == 13 || v == 14 || v == 15 || v == 16 || v == 22 || v == 23) {
		canon_csi(s, 0, s->lx.np);
		canon_final(s, 't');
		put_later(s, s->canon.p, s->canon.len);
	}
}

/*
 * SGR: tracked; to the terminal and the mirror in pieces of at most 16
 * parameters (libvterm's bound, and more than a terminal needs), a
 * parameter kept with its sub-parameters.
 */
static void sgr(struct screen *s)
{
	struct lex *l = &s->lx;

	pen_apply(&s->pen, l);
	for (int i = 0; i < l->np || i == 0;) {
		int end = i + MIRROR_MAXP < l->np ? i + MIRROR_MAXP : l->np;
		while (end < l->np && end > i + 1 && l->sep[end] == ':')
			end--;
		canon_csi(s, i, end);
		canon_final(s, 'm');
		both(s, s->canon.p, s->canon.len);
		if (end <= i)
			break;
		i = end;
	}
}

static void reset_tabs(struct screen *s)
{
	put_s(s, "\033[3g");
	for (int c = 9; c <= s->cols; c += 8)
		putf(s, "\033[1;%dH\033H", c);
}

/*
 * The reset to the mirror.  libvterm 0.1.4 takes DECSTR for nothing: it
 * kept origin mode, autowrap and the region, so that a move the terminal
 * made from the area's top the mirror clamped to an old region's bottom,
 * and ward let a line feed through that the terminal made below it, into
 * ward's rows (the screen fuzzer's find).  What a soft reset does is said
 * to it outright, the cursor kept where it was, as a terminal keeps it.
 */
static void mirror_reset(struct screen *s, bool hard)
{
	VTermPos p;

	vterm_state_get_cursorpos(s->vs, &p);
	mfeed_s(s, hard ? "\033c" : "\033[!p");
	if (hard)
		return;
	mfeedf(s, "\033[0m\033(B\033)B\017\033[?6l\033[?7h\033[4l\033[?25h\033[?1l\033>\033[1;%dr\033[%d;%dH",
	       s->area, p.row + 1, p.col + 1);
}

/* DECSTR, or what RIS becomes: the terminal's soft reset, and the state it implies said outright. */
static void soft_reset(struct screen *s, bool hard)
{
	if (hard)
		s->nlast = 0;
	s->pen = (struct pen){ 0 };
	s->g[0] = s->g[1] = 'B';
	s->shifted = false;
	s->top = 1;
	s->bot = s->area;
	memset(s->saved, 0, sizeof(s->saved));
	for (int m = 0; m < M_COUNT; m++)
		if (hard || m == M_DECOM || m == M_DECAWM || m == M_IRM || m == M_DECTCEM ||
		    m == M_DECCKM || m == M_KEYPAD)
			s->want[m] = modes[m].def;
	if (hard && s->want_alt) {
		int m = s->want_alt;
		s->want_alt = 0;
		mfeedf(s, "\033[?%dl", m);
		if (!s->hold) {
			putf(s, "\033[?%dl", m);
			s->real_alt = 0;
		}
	}
	mirror_reset(s, hard);
	if (s->hold)
		return;
	put_s(s, "\033[!p\033(B\033)B\017");
	for (int m = 0; m < M_COUNT; m++)
		s->real[m] = !modes[m].def; /* unknown after the reset: every one said */
	sync_modes(s);
	if (hard) {
		if (s->kitty_used)
			put_s(s, "\033[<99u\033[=0;1u");
		if (s->modkeys)
			put_s(s, "\033[>4m");
		if (s->cursor_shape)
			put_s(s, "\033[0 q");
		s->kitty_depth = 0;
		s->kitty_used = s->modkeys = s->cursor_shape = false;
		ob_reset(&s->keyseq);
		reset_tabs(s);
	}
	putf(s, "\033[1;%dr", s->area);
	if (hard)
		for (int r = 1; r <= s->area; r++)
			putf(s, "\033[%d;1H\033[2K", r);
	goto_cursor(s);
	s->ward_dirty = true;
}

static void on_text(struct screen *s, const char *t, size_t n);

/*
 * The keyboard's modes (kitty's flags, modifyOtherKeys) and the cursor's
 * shape: passed on, undone at the end, and kept in order to be set again
 * after ward was stopped (up to a bound: a program that sets them
 * thousands of times gets the first ones back).
 */
static void keyboard_mode(struct screen *s, char final)
{
	canon_csi(s, 0, s->lx.np);
	canon_final(s, final);
	put_later(s, s->canon.p, s->canon.len);
	if (s->keyseq.len + s->canon.len <= 4096)
		ob_put(&s->keyseq, s->canon.p, s->canon.len);
}

static void on_csi(struct screen *s, char final)
{
	struct lex *l = &s->lx;
	char lead = l->leader, in0 = l->ninter ? l->inter[0] : 0;

	if (l->bad || l->ninter > 1)
		return;
	if (l->np > MIRROR_MAXP && !(final == 'm' && !lead && !in0))
		return; /* only SGR takes many parameters */
	if (in0) {
		if (!lead && in0 == ' ' && final == 'q') { /* DECSCUSR */
			s->cursor_shape = true;
			keyboard_mode(s, final);
		} else if (!lead && in0 == '!' && final == 'p') {
			soft_reset(s, false);
		} else if (in0 == '$' && final == 'p' && (!lead || lead == '?')) {
			pass_csi(s, final, false); /* DECRQM: a query */
		} else if (!lead && in0 == '"' && final == 'q') {
			pass_csi(s, final, true); /* DECSCA */
		} else if (!lead && in0 == '\'' && (final == '}' || final == '~')) {
			pass_csi(s, final, true); /* DECIC, DECDC: within the region */
		}
		return;
	}
	if (lead == '?') {
		if (final == 'h' || final == 'l') {
			for (int i = 0; i < l->np; i++)
				if (l->given[i])
					dec_mode(s, l->p[i], final == 'h');
		} else if (final == 'J') {
			erase_display(s, true);
		} else if (final == 'K') {
			pass_csi(s, final, true);
		} else if (final == 'n' || final == 'u') {
			pass_csi(s, final, false); /* DSR, kitty's flags query */
		}
		return;
	}
	if (lead == '>' || lead == '<' || lead == '=') {
		if (final == 'c' || (lead == '>' && final == 'q')) {
			pass_csi(s, final, false); /* DA2, DA3, XTVERSION */
		} else if (final == 'u') {
			/* The kitty keyboard protocol: push, pop, set; undone at the end. */
			if (lead == '>')
				s->kitty_depth++;
			else if (lead == '<')
				s->kitty_depth -= s->kitty_depth < (int)count(l, 0) ? s->kitty_depth : (int)count(l, 0);
			s->kitty_used = true;
			keyboard_mode(s, final);
		} else if (lead == '>' && final == 'm' && P(l, 0, 0) <= 4) {
			s->modkeys = true; /* xterm's modifyOtherKeys and friends */
			keyboard_mode(s, final);
		}
		return;
	}
	switch (final) {
	case '@': case 'A': case 'C': case 'D': case 'F': case 'G': case '`': case 'a':
	case 'I': case 'Z': case 'K': case 'P': case 'X': case 'L': case 'M': case 'S':
	case 'g':
		/* Moves up or sideways, edits within a row or the region. */
		if (l->np > 2)
			return;
		canon_csi(s, 0, l->np > 1 ? 1 : l->np);
		canon_final(s, final);
		if (final != 'g' && final != 'K' && l->given[0] && l->p[0] > COUNT_MAX) {
			ob_reset(&s->canon);
			ob_printf(&s->canon, "\033[%u%c", COUNT_MAX, final);
		}
		both(s, s->canon.p, s->canon.len);
		return;
	case 'T': /* SD, one parameter (with more, xterm's mouse highlighting) */
		if (l->np <= 1)
			pass_csi(s, final, true);
		return;
	case 'B': case 'e': case 'E':
		move_down(s, final);
		return;
	case 'd': { /* VPA */
		unsigned r = P(l, 0, 1);
		r = r == 0 ? 1 : r > (unsigned)s->area ? (unsigned)s->area : r;
		putf(s, "\033[%ud", r);
		mfeedf(s, "\033[%ud", r);
		return;
	}
	case 'H': case 'f': { /* CUP, HVP */
		unsigned r = P(l, 0, 1), c = P(l, 1, 1);
		r = r == 0 ? 1 : r > (unsigned)s->area ? (unsigned)s->area : r;
		c = c == 0 ? 1 : c > COUNT_MAX ? COUNT_MAX : c;
		putf(s, "\033[%u;%uH", r, c);
		mfeedf(s, "\033[%u;%uH", r, c);
		return;
	}
	case 'b': { /* REP */
		/*
		 * The last character printed, again, written out here: libvterm
		 * 0.1.4 loops for ever on a REP with nothing printed before it.
		 */
		char rep[4 * 2 * 1000];
		size_t n = 0;
		for (unsigned k = count(l, 0); k > 0 && s->nlast > 0 && n + 4 <= sizeof(rep) &&
						n < (size_t)(2 * s->cols * s->nlast); k--) {
			memcpy(rep + n, s->last, (size_t)s->nlast);
			n += (size_t)s->nlast;
		}
		if (n > 0)
			on_text(s, rep, n);
		return;
	}
	case 'r':
		set_region(s);
		return;
	case 'J':
		erase_display(s, false);
		return;
	case 'm':
		sgr(s);
		return;
	case 'h': case 'l':
		for (int i = 0; i < l->np; i++)
			if (l->given[i] && l->p[i] == 4) { /* IRM; KAM, SRM and LNM are dropped */
				s->want[M_IRM] = final == 'h';
				mfeedf(s, "\033[4%c", final);
				if (!s->hold)
					put_mode(s, M_IRM, final == 'h');
			}
		return;
	case 's': case 'u': /* SCOSC, SCORC (DECSLRM's margins are never on) */
		if (l->np > 0)
			return;
		if (final == 's')
			save_state(s);
		else
			restore_state(s);
		both_s(s, final == 's' ? "\033[s" : "\033[u");
		if (final == 'u')
			restored(s);
		return;
	case 'c': case 'n':
		if (P(l, 0, 0) <= 6)
			pass_csi(s, final, false); /* DA, DSR */
		return;
	case 't':
		window_op(s);
		return;
	default:
		return; /* DECFRA and the other rectangles, DECSCL, printing, LEDs... */
	}
}

static void on_esc(struct screen *s, char final)
{
	struct lex *l = &s->lx;
	char seq[3];

	if (l->ninter == 0) {
		switch (final) {
		case '7':
			save_state(s);
			both_s(s, "\0337");
			return;
		case '8':
			restore_state(s);
			both_s(s, "\0338");
			restored(s);
			return;
		case 'D':
			line_feed(s, false);
			return;
		case 'E':
			line_feed(s, true);
			return;
		case 'M': case 'H':
			seq[0] = '\033';
			seq[1] = final;
			both(s, seq, 2);
			return;
		case 'c':
			soft_reset(s, true);
			return;
		case '=': case '>':
			s->want[M_KEYPAD] = final == '=';
			mfeed_s(s, final == '=' ? "\033=" : "\033>");
			if (!s->hold)
				put_mode(s, M_KEYPAD, final == '=');
			return;
		default:
			return; /* single shifts, locking shifts, DECID, DECBI... */
		}
	}
	if (l->ninter != 1)
		return;
	if ((l->inter[0] == '(' || l->inter[0] == ')') &&
	    (final == 'B' || final == '0' || final == 'A')) {
		s->g[l->inter[0] == '(' ? 0 : 1] = final;
		seq[0] = '\033';
		seq[1] = l->inter[0];
		seq[2] = final;
		both(s, seq, 3);
	}
	/*
	 * G2, G3, 96-character sets, S7C1T/S8C1T, ESC % (the encoding): dropped.
	 * So are the line sizes (ESC # 3 to 6: double height and width) and
	 * DECALN (# 8).  A double-width line halves the columns of one row,
	 * and terminals (libvterm among them) differ from the mirror on what
	 * undoes it (an erase of the display, of the line) and on a character
	 * past its half (libvterm wraps it even with autowrap off): the screen
	 * fuzzer led a wide character so from the area's last row into ward's.
	 */
}

static void on_c0(struct screen *s, unsigned char c)
{
	char b = (char)c;

	switch (c) {
	case '\a': case '\b': case '\t': case '\r':
		both(s, &b, 1);
		return;
	case '\n': case '\v': case '\f':
		line_feed(s, false);
		return;
	case 0x0e: case 0x0f:
		s->shifted = c == 0x0e;
		both(s, &b, 1);
		return;
	default:
		return; /* ENQ (an answerback), NUL, XON/XOFF...: dropped */
	}
}

/*
 * Text, valid UTF-8 without C1 controls.  In a partial region the
 * terminal's autowrap is off and each wrap the mirror makes is made
 * here: a scroll at the region's bottom, else a move to the next row.
 */
static void on_text(struct screen *s, const char *t, size_t n)
{
	/* The last character, for REP: back from the end to its first byte. */
	size_t b = n;
	while (b > 0 && n - b < 4 && ((unsigned char)t[b - 1] & 0xc0) == 0x80)
		b--;
	if (b > 0) {
		s->nlast = (int)(n - b + 1);
		memcpy(s->last, t + b - 1, (size_t)s->nlast);
	}
	if (!partial(s)) {
		both(s, t, n);
		return;
	}
	for (size_t i = 0; i < n;) {
		size_t k = 1;
		unsigned char c = (unsigned char)t[i];
		if (c >= 0xc0)
			k = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
		if (i + k > n)
			k = n - i;
		int r0, c0, r1, c1;
		screen_cursor(s, &r0, &c0);
		mfeed(s, t + i, k);
		screen_cursor(s, &r1, &c1);
		if (r1 != r0 || c1 < c0) {
			if (r1 != r0)
				putf(s, "\033[%d;1H", r1);
			else if (r0 == s->bot && r0 >= s->top)
				put_s(s, "\r\n"); /* the wrap scrolled the region */
			else
				put_s(s, "\r"); /* stuck at the area's last row, below the region */
		}
		put(s, t + i, k);
		i += k;
	}
	goto_cursor(s);
}

/* ---- the lexer ---- */

static const char fffd[] = "\xef\xbf\xbd";

/*
 * Check one complete UTF-8 sequence: the bytes to pass on (n), or 0 for
 * a C1 control (dropped), or -1 when it is not valid UTF-8.
 */
static int u8_check(const unsigned char *u, int n)
{
	if (n == 2)
		return u[0] == 0xc2 && u[1] < 0xa0 ? 0 : 2;
	if (n == 3) {
		if ((u[0] == 0xe0 && u[1] < 0xa0) || (u[0] == 0xed && u[1] >= 0xa0))
			return -1; /* overlong, or a surrogate */
		return 3;
	}
	if ((u[0] == 0xf0 && u[1] < 0x90) || (u[0] == 0xf4 && u[1] >= 0x90))
		return -1;
	return 4;
}

/* A text byte (>= 0x20, not DEL) into the staging buffer, UTF-8 checked. */
static void text_byte(struct screen *s, struct obuf *t, unsigned char c)
{
	struct lex *l = &s->lx;

	if (l->u8need > 0) {
		if ((c & 0xc0) == 0x80) {
			l->u8[l->u8have++] = c;
			if (l->u8have == l->u8need) {
				int v = u8_check(l->u8, l->u8have);
				if (v > 0)
					ob_put(t, l->u8, (size_t)v);
				else if (v < 0)
					ob_put(t, fffd, 3);
				l->u8need = l->u8have = 0;
			}
			return;
		}
		ob_put(t, fffd, 3); /* cut short */
		l->u8need = l->u8have = 0;
	}
	if (c < 0x80) {
		ob_put(t, &c, 1);
	} else if (c >= 0xc2 && c <= 0xf4) {
		l->u8[0] = c;
		l->u8have = 1;
		l->u8need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
	} else {
		ob_put(t, fffd, 3); /* a stray continuation byte, or one never valid */
	}
}

/* A sequence cut by a control byte was not valid. */
static void text_cut(struct screen *s, struct obuf *t)
{
	if (s->lx.u8need > 0) {
		ob_put(t, fffd, 3);
		s->lx.u8need = s->lx.u8have = 0;
	}
}

static void flush_text(struct screen *s, struct obuf *t)
{
	if (t->len > 0)
		on_text(s, t->p, t->len);
	ob_reset(t);
}

/* ---- strings: OSC, DCS; APC, PM and SOS are dropped ---- */

static bool osc_allowed(const char *head, int n)
{
	static const int ok[] = { 0, 1, 2, 4, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19,
				  22, 52, 104, 110, 111, 112, 113, 114, 115, 116, 117, 118, 119,
				  133, 633, 777 };
	int v = 0;

	if (n == 0 || n > 4)
		return false;
	for (int i = 0; i < n; i++) {
		if (head[i] < '0' || head[i] > '9')
			return false;
		v = v * 10 + head[i] - '0';
	}
	for (size_t i = 0; i < sizeof(ok) / sizeof(ok[0]); i++)
		if (ok[i] == v)
			return true;
	return false;
}

static void str_start(struct screen *s, enum str_kind kind)
{
	struct lex *l = &s->lx;

	l->st = L_STR;
	l->kind = kind;
	l->nhead = 0;
	l->passing = false;
	l->str_esc = false;
	l->slen = 0;
}

/* The head is known: pass the string on from here, or drop it. */
static void str_decide(struct screen *s)
{
	struct lex *l = &s->lx;

	if (l->kind == STR_OSC && osc_allowed(l->head, l->nhead)) {
		put_later(s, "\033]", 2);
		put_later(s, l->head, (size_t)l->nhead);
		put_later(s, ";", 1);
		l->passing = true;
	} else if (l->kind == STR_DCS && l->nhead == 2 && l->head[0] == '+' && l->head[1] == 'q') {
		/* XTGETTCAP: a query, passed whole at its end if well formed. */
		l->passing = true;
		l->ndcs = 0;
	}
	l->kind = l->passing ? l->kind : STR_DROP;
}

/*
 * XTGETTCAP asks after capability names, in hex.  DECRQSS is not passed
 * on: libvterm 0.1.4's own (in terminals built on it) crashes on some
 * requests after some SGR, and it is all a program learns from it.
 */
static bool dcs_query_ok(const struct lex *l)
{
	if (l->ndcs == 0)
		return false;
	for (int i = 0; i < l->ndcs; i++) {
		char c = l->dcs[i];
		if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F') || c == ';'))
			return false;
	}
	return true;
}

static void str_end(struct screen *s, bool aborted)
{
	struct lex *l = &s->lx;

	if (l->kind != STR_DROP && !l->passing && !aborted) {
		/* Ended before its head was complete (OSC 0 with no text, say). */
		if (l->kind == STR_OSC)
			l->head[l->nhead < HEAD_MAX ? l->nhead : HEAD_MAX - 1] = '\0';
		str_decide(s);
	}
	if (l->passing && l->kind == STR_OSC)
		put_later(s, aborted ? "\030" : "\033\\", aborted ? 1 : 2);
	if (l->passing && l->kind == STR_DCS && !aborted && dcs_query_ok(l)) {
		put_later(s, "\033P", 2);
		put_later(s, l->head, 2);
		put_later(s, l->dcs, (size_t)l->ndcs);
		put_later(s, "\033\\", 2);
	}
	l->passing = false;
	l->u8need = l->u8have = 0;
	l->st = L_GROUND;
}

/* One byte of a string's content (no ESC, BEL, CAN, SUB: the caller took those). */
static void str_byte(struct screen *s, unsigned char c)
{
	struct lex *l = &s->lx;

	if (l->kind == STR_DROP)
		return;
	if (!l->passing) {
		bool done = l->kind == STR_OSC ? c == ';' : c >= 0x40 && c <= 0x7e;
		if (l->kind == STR_DCS || !done) {
			if (l->nhead == HEAD_MAX) {
				l->kind = STR_DROP;
				return;
			}
			l->head[l->nhead++] = (char)c;
		}
		if (done)
			str_decide(s);
		return;
	}
	if (c < 0x20)
		return; /* controls inside a string are not passed on */
	if (l->kind == STR_DCS) {
		if (l->ndcs < (int)sizeof(l->dcs))
			l->dcs[l->ndcs++] = (char)c;
		else
			l->kind = STR_DROP;
		return;
	}
	if (++l->slen > STR_MAX)
		return;
	/* UTF-8 checked as text is; U+009C, ST as a C1, ends the string as the terminal would. */
	if (c >= 0x80 || l->u8need > 0) {
		if (l->u8need == 0) {
			if (c < 0xc2 || c > 0xf4)
				return;
			l->u8[0] = c;
			l->u8have = 1;
			l->u8need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
			return;
		}
		if ((c & 0xc0) != 0x80) {
			l->u8need = l->u8have = 0;
			return;
		}
		l->u8[l->u8have++] = c;
		if (l->u8have < l->u8need)
			return;
		int n = l->u8have;
		l->u8need = l->u8have = 0;
		if (n == 2 && l->u8[0] == 0xc2 && l->u8[1] == 0x9c) {
			str_end(s, false);
			return;
		}
		if (u8_check(l->u8, n) > 0)
			put_later(s, l->u8, (size_t)n);
		return;
	}
	put_later(s, &c, 1);
}

/* ---- the feed ---- */

static void csi_start(struct screen *s)
{
	struct lex *l = &s->lx;

	l->st = L_CSI;
	l->leader = 0;
	l->np = 0;
	l->ninter = 0;
	l->bad = false;
	l->any = false;
	memset(l->given, 0, sizeof(l->given));
}

static void esc_start(struct screen *s)
{
	s->lx.st = L_ESC;
	s->lx.ninter = 0;
	s->lx.bad = false;
}

/* A byte of a CSI's parameters or intermediates; false when it ends the sequence. */
static void csi_byte(struct screen *s, unsigned char c)
{
	struct lex *l = &s->lx;

	if (c >= 0x40 && c <= 0x7e) {
		if (l->any || l->np > 0)
			l->np++;
		if (l->np > MAXP)
			l->bad = true;
		l->st = L_GROUND;
		on_csi(s, (char)c);
		return;
	}
	if (c >= 0x20 && c <= 0x2f) {
		if (l->ninter < (int)sizeof(l->inter))
			l->inter[l->ninter++] = (char)c;
		else
			l->bad = true;
		return;
	}
	if (l->ninter > 0) {
		l->bad = true; /* a parameter byte after an intermediate */
		return;
	}
	if (c >= 0x3c && c <= 0x3f) {
		if (l->any || l->np > 0 || l->leader)
			l->bad = true;
		else
			l->leader = (char)c;
		return;
	}
	if (l->np >= MAXP) {
		l->bad = true;
		return;
	}
	if (c >= '0' && c <= '9') {
		unsigned v = l->given[l->np] ? l->p[l->np] * 10 + (unsigned)(c - '0') : (unsigned)(c - '0');
		l->p[l->np] = v > PARAM_MAX ? PARAM_MAX : v;
		l->given[l->np] = true;
		if (!l->any && l->np == 0)
			l->sep[0] = ';';
		l->any = true;
		return;
	}
	if (c == ';' || c == ':') {
		if (!l->any && l->np == 0)
			l->sep[0] = ';';
		l->np++;
		if (l->np >= MAXP) {
			l->bad = true;
			return;
		}
		l->given[l->np] = false;
		l->sep[l->np] = (char)c;
		l->any = true;
		return;
	}
	l->bad = true;
}

void screen_feed(struct screen *s, const char *buf, size_t len, struct obuf *out,
		 struct obuf *reply)
{
	struct lex *l = &s->lx;
	struct obuf text = { 0 };

	s->out = out;
	s->reply = reply;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if (l->st == L_STR) {
			if (l->str_esc) {
				l->str_esc = false;
				if (c == '\\') {
					str_end(s, false);
					continue;
				}
				str_end(s, true); /* another sequence begins */
				esc_start(s);
			} else if (c == 0x1b) {
				l->str_esc = true;
				continue;
			} else if (c == 0x07) {
				str_end(s, false);
				continue;
			} else if (c == 0x18 || c == 0x1a) {
				str_end(s, true);
				continue;
			} else {
				str_byte(s, c);
				continue;
			}
		}
		if (l->st == L_GROUND) {
			if (c >= 0x20 && c < 0x7f && l->u8need == 0) {
				size_t j = i + 1;
				while (j < len && (unsigned char)buf[j] >= 0x20 && (unsigned char)buf[j] < 0x7f)
					j++;
				ob_put(&text, buf + i, j - i);
				i = j - 1;
				continue;
			}
			if (c >= 0x20 && c != 0x7f) {
				text_byte(s, &text, c);
				continue;
			}
			text_cut(s, &text);
			flush_text(s, &text);
			if (c == 0x1b)
				esc_start(s);
			else if (c != 0x7f)
				on_c0(s, c);
			continue;
		}
		/* In ESC or CSI: controls act at once (the sequence goes on), ESC starts again. */
		if (c == 0x1b) {
			esc_start(s);
			continue;
		}
		if (c == 0x18 || c == 0x1a) {
			l->st = L_GROUND;
			continue;
		}
		if (c < 0x20) {
			on_c0(s, c);
			continue;
		}
		if (c == 0x7f)
			continue;
		if (c >= 0x80) {
			l->st = L_GROUND; /* not part of any sequence: it is text again */
			i--;
			continue;
		}
		if (l->st == L_CSI) {
			csi_byte(s, c);
			continue;
		}
		/* L_ESC */
		if (c >= 0x20 && c <= 0x2f) {
			if (l->ninter < (int)sizeof(l->inter))
				l->inter[l->ninter++] = (char)c;
			else
				l->bad = true;
			continue;
		}
		l->st = L_GROUND;
		if (l->ninter == 0 && c == '[') {
			csi_start(s);
		} else if (l->ninter == 0 && c == ']') {
			str_start(s, STR_OSC);
		} else if (l->ninter == 0 && c == 'P') {
			str_start(s, STR_DCS);
		} else if (l->ninter == 0 && (c == '_' || c == '^' || c == 'X')) {
			str_start(s, STR_DROP);
		} else if (!l->bad) {
			on_esc(s, (char)c);
		}
	}
	flush_text(s, &text); /* a sequence cut at the end waits in l->u8 */
	ob_free(&text);
	s->reply = NULL;
}

/* ---- the screen's life ---- */

/* The mirror changed: while held, the whole area is repainted at the release. */
static int on_damage(VTermRect rect, void *user)
{
	struct screen *s = user;
	(void)rect;
	if (s->hold)
		s->held_damage = true;
	return 1;
}

static int on_moverect(VTermRect dest, VTermRect src, void *user)
{
	(void)src;
	return on_damage(dest, user);
}

static const VTermScreenCallbacks mirror_callbacks = {
	.damage = on_damage,
	.moverect = on_moverect,
};

static void discard_output(const char *s, size_t len, void *user)
{
	(void)s;
	(void)len;
	(void)user;
}

struct screen *screen_new(int rows, int cols)
{
	if (rows < SCREEN_MIN_ROWS || cols < SCREEN_MIN_COLS || rows > 1000 || cols > 1000)
		return NULL;
	struct screen *s = calloc(1, sizeof(*s));
	if (s == NULL)
		return NULL;
	s->rows = rows;
	s->cols = cols;
	s->area = rows - SCREEN_WARD_ROWS;
	s->vt = vterm_new(s->area, cols);
	if (s->vt == NULL) {
		free(s);
		return NULL;
	}
	vterm_set_utf8(s->vt, 1);
	vterm_output_set_callback(s->vt, discard_output, NULL); /* the mirror's answers to queries */
	s->vs = vterm_obtain_state(s->vt);
	s->vscr = vterm_obtain_screen(s->vt);
	vterm_screen_set_callbacks(s->vscr, &mirror_callbacks, s);
	vterm_screen_enable_altscreen(s->vscr, 1);
	vterm_screen_reset(s->vscr, 1);
	s->top = 1;
	s->bot = s->area;
	s->g[0] = s->g[1] = 'B';
	for (int m = 0; m < M_COUNT; m++)
		s->want[m] = s->real[m] = modes[m].def;
	for (int i = 0; i < SCREEN_WARD_ROWS; i++)
		s->ward_text[i][0] = s->ward_sgr[i][0] = '\0';
	return s;
}

void screen_free(struct screen *s)
{
	if (s == NULL)
		return;
	vterm_free(s->vt);
	ob_free(&s->canon);
	ob_free(&s->deferred);
	ob_free(&s->keyseq);
	free(s);
}

int screen_area(const struct screen *s)
{
	return s->area;
}

void screen_begin(struct screen *s, int row, struct obuf *out)
{
	int y = row > 0 && row < s->area ? row : s->area;

	s->out = out;
	/* Room for ward's rows: down over them (scrolling if need be), back up. */
	put_s(s, "\r");
	for (int i = 0; i < SCREEN_WARD_ROWS; i++)
		put_s(s, "\n");
	putf(s, "\033[%dA\033[1;%dr\033[%d;1H", SCREEN_WARD_ROWS, s->area, y);
	mfeedf(s, "\033[%d;1H", y);
	s->ward_dirty = true;
}

void screen_set_ward(struct screen *s, const char *const *lines, const char *const *sgr)
{
	for (int i = 0; i < SCREEN_WARD_ROWS; i++) {
		const char *t = lines[i] ? lines[i] : "", *g = sgr && sgr[i] ? sgr[i] : "";
		if (strncmp(s->ward_text[i], t, sizeof(s->ward_text[i]) - 1) == 0 &&
		    strcmp(s->ward_sgr[i], g) == 0)
			continue; /* drawn already */
		snprintf(s->ward_text[i], sizeof(s->ward_text[i]), "%s", t);
		snprintf(s->ward_sgr[i], sizeof(s->ward_sgr[i]), "%s", g);
		s->ward_dirty = true;
	}
}

bool screen_draw_ward(struct screen *s, struct obuf *out)
{
	if (s->real[M_SYNC])
		return false;
	s->out = out;
	bool held = s->hold;
	settle(s);
	s->hold = false; /* ward's own rows are drawn while the agent's output is held too */
	ward_state_begin(s);
	for (int i = 0; i < SCREEN_WARD_ROWS; i++)
		put_row(s, s->area + 1 + i, s->ward_text[i], s->ward_sgr[i]);
	if (held)
		put_s(s, "\033[0m"); /* the agent's state is put back at the release */
	else
		ward_state_end(s);
	s->hold = held;
	s->ward_dirty = false;
	return true;
}

bool screen_ward_dirty(const struct screen *s)
{
	return s->ward_dirty;
}

bool screen_sync_open(const struct screen *s)
{
	return s->real[M_SYNC];
}

void screen_sync_close(struct screen *s, struct obuf *out)
{
	s->out = out;
	settle(s);
	if (s->real[M_SYNC] && !s->hold)
		put_mode(s, M_SYNC, false);
}

/* The mirror's cell colours as SGR parameters. */
/* A cell's colour: a basic one inside the SGR being written, an extended one after it (color_sgr). */
static void cell_color(struct obuf *b, const VTermColor *c, bool fg, bool inside)
{
	if (fg ? VTERM_COLOR_IS_DEFAULT_FG(c) : VTERM_COLOR_IS_DEFAULT_BG(c))
		return;
	if (VTERM_COLOR_IS_INDEXED(c) && c->indexed.idx < 16) {
		unsigned i = c->indexed.idx;
		if (inside)
			ob_printf(b, ";%u", i < 8 ? (fg ? 30 : 40) + i : (fg ? 90 : 100) + i - 8);
	} else if (VTERM_COLOR_IS_INDEXED(c)) {
		if (!inside)
			ob_printf(b, "\033[%d;5;%um", fg ? 38 : 48, c->indexed.idx);
	} else if (!inside) {
		ob_printf(b, "\033[%d;2;%u;%u;%um", fg ? 38 : 48, c->rgb.red, c->rgb.green,
			  c->rgb.blue);
	}
}

static void cell_sgr(struct obuf *b, const VTermScreenCell *c)
{
	ob_puts(b, "\033[0");
	if (c->attrs.bold)
		ob_puts(b, ";1");
	if (c->attrs.italic)
		ob_puts(b, ";3");
	if (c->attrs.underline == VTERM_UNDERLINE_DOUBLE)
		ob_puts(b, ";21");
	else if (c->attrs.underline)
		ob_puts(b, ";4");
	if (c->attrs.blink)
		ob_puts(b, ";5");
	if (c->attrs.reverse)
		ob_puts(b, ";7");
	if (c->attrs.strike)
		ob_puts(b, ";9");
	cell_color(b, &c->fg, true, true);
	cell_color(b, &c->bg, false, true);
	ob_puts(b, "m");
	cell_color(b, &c->fg, true, false);
	cell_color(b, &c->bg, false, false);
}

static void put_codepoint(struct screen *s, uint32_t cp)
{
	char u[4];
	size_t n;

	if (cp < 0x20 || cp == 0x7f || (cp >= 0x80 && cp < 0xa0) || cp > 0x10ffff ||
	    (cp >= 0xd800 && cp < 0xe000))
		cp = ' ';
	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | cp >> 6);
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | cp >> 12);
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | cp >> 18);
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	put(s, u, n);
}

/* The agent's rows from..to (0-based) from the mirror, cell by cell, in the state ward_state_begin() left. */
static void paint_rows(struct screen *s, int from, int to)
{
	struct obuf last = { 0 }, now = { 0 };

	for (int r = from < 0 ? 0 : from; r < to && r < s->area; r++) {
		putf(s, "\033[%d;1H", r + 1);
		ob_reset(&last);
		for (int c = 0; c < s->cols;) {
			VTermScreenCell cell;
			if (!vterm_screen_get_cell(s->vscr, (VTermPos){ r, c }, &cell)) {
				c++;
				continue;
			}
			ob_reset(&now);
			cell_sgr(&now, &cell);
			if (now.len != last.len || memcmp(now.p, last.p, now.len) != 0) {
				put(s, now.p, now.len);
				ob_reset(&last);
				ob_put(&last, now.p, now.len);
			}
			if (cell.chars[0] == 0) {
				put_s(s, " ");
			} else {
				for (int k = 0; k < VTERM_MAX_CHARS_PER_CELL && cell.chars[k]; k++)
					put_codepoint(s, cell.chars[k]);
			}
			c += cell.width > 0 ? cell.width : 1;
		}
	}
	put_s(s, "\033[0m");
	ob_free(&last);
	ob_free(&now);
}

static void paint_area(struct screen *s)
{
	paint_rows(s, 0, s->area);
}

void screen_repaint(struct screen *s, struct obuf *out)
{
	s->out = out;
	if (s->hold)
		return;
	ward_state_begin(s);
	paint_area(s);
	ward_state_end(s);
	s->ward_dirty = true;
}

void screen_hold(struct screen *s, const char *const *lines, const char *const *sgr, int nlines,
		 struct obuf *out)
{
	s->out = out;
	if (!s->hold) {
		s->held_damage = false;
		s->over_rows = 0;
		ward_state_begin(s);
		put_mode(s, M_DECTCEM, false);
		if (s->real[M_SYNC])
			put_mode(s, M_SYNC, false); /* what ward draws is seen now */
		s->hold = true;
	}
	s->hold = false;
	if (nlines > s->area)
		nlines = s->area;
	if (nlines > s->over_rows)
		s->over_rows = nlines;
	for (int i = 0; i < nlines; i++)
		put_row(s, s->area - nlines + 1 + i, lines[i], sgr && sgr[i] ? sgr[i] : "");
	s->hold = true;
}

void screen_release(struct screen *s, struct obuf *out)
{
	s->out = out;
	if (!s->hold)
		return;
	settle(s);
	s->hold = false;
	bool switched = s->real_alt != s->want_alt;
	if (switched) {
		if (s->want_alt)
			putf(s, "\033[?%dh", s->want_alt);
		else
			putf(s, "\033[?%dl", s->real_alt);
		s->real_alt = s->want_alt;
	}
	/* The modes the agent changed meanwhile, but the three ward's drawing has off. */
	for (int m = 0; m < M_COUNT; m++)
		if (m != M_DECOM && m != M_IRM && m != M_DECAWM &&
		    s->real[m] != desired(s, (enum mode)m))
			put_mode(s, (enum mode)m, desired(s, (enum mode)m));
	put(s, s->deferred.p, s->deferred.len);
	ob_reset(&s->deferred);
	ward_state_begin(s);
	putf(s, "\033[%d;%dr", s->top, s->bot);
	/*
	 * Nothing of the agent's drawn meanwhile: only the rows ward covered
	 * (the rows above may hold what was on the terminal before ward, which
	 * the mirror never saw).
	 */
	if (s->held_damage || switched)
		paint_area(s);
	else
		paint_rows(s, s->area - s->over_rows, s->area);
	s->real[M_DECOM] = desired(s, M_DECOM);
	s->real[M_IRM] = desired(s, M_IRM);
	s->real[M_DECAWM] = desired(s, M_DECAWM);
	ward_state_end(s);
	s->ward_dirty = true;
}

bool screen_held(const struct screen *s)
{
	return s->hold;
}

void screen_resize(struct screen *s, int rows, int cols, struct obuf *out)
{
	int area = rows - SCREEN_WARD_ROWS;

	s->out = out;
	if (area < 1)
		area = 1;
	if (cols < 1)
		cols = 1;
	s->rows = rows;
	s->cols = cols;
	bool full = !partial(s);
	s->area = area;
	vterm_set_size(s->vt, area, cols);
	if (full || s->bot > area || s->top >= (s->bot > area ? area : s->bot)) {
		int row, col;
		screen_cursor(s, &row, &col);
		s->top = 1;
		s->bot = area;
		mfeedf(s, "\033[r\033[%d;%dH", row, col);
		if (s->want[M_DECOM])
			mfeedf(s, "\033[?6l\033[?6h\033[%d;%dH", row, col);
	}
	if (s->hold)
		return;
	settle(s);
	/* Terminals reset the region when they are resized: set it, and the modes that follow it. */
	if (s->real[M_DECOM])
		put_s(s, "\033[?6l");
	putf(s, "\033[%d;%dr", s->top, s->bot);
	for (int r = area + 1; r <= rows; r++)
		putf(s, "\033[%d;1H\033[0m\033[2K", r);
	put_pen(s);
	if (s->real[M_DECOM])
		put_s(s, "\033[?6h");
	sync_modes(s);
	goto_cursor(s);
	s->ward_dirty = true;
}

/*
 * The terminal as the agent found it: its modes, the normal screen, the
 * whole screen the region, ward's rows cleared, the cursor on a fresh
 * line below the agent's output.  The agent's wishes are kept (want),
 * for screen_resume().
 */
static void give_back(struct screen *s)
{
	int row, col;

	s->hold = false;
	settle(s);
	if (s->real[M_DECOM])
		put_mode(s, M_DECOM, false);
	if (s->real_alt)
		putf(s, "\033[?%dl", s->real_alt);
	s->real_alt = 0;
	for (int m = 0; m < M_COUNT; m++)
		if (s->real[m] != modes[m].def)
			put_mode(s, (enum mode)m, modes[m].def);
	if (s->kitty_used)
		put_s(s, "\033[<99u\033[=0;1u");
	if (s->modkeys)
		put_s(s, "\033[>4m");
	if (s->cursor_shape)
		put_s(s, "\033[0 q");
	putf(s, "\033[0m\033(B\033)B\017\033[r\033[%d;1H\033[J", s->area + 1);
	if (s->want_alt)
		return; /* the terminal put the normal screen's cursor back */
	screen_cursor(s, &row, &col);
	putf(s, "\033[%d;%dH", row, col);
	if (col > 1)
		put_s(s, "\r\n");
}

void screen_end(struct screen *s, struct obuf *out)
{
	s->out = out;
	ob_reset(&s->deferred);
	if (s->want_alt)
		mfeedf(s, "\033[?%dl", s->want_alt);
	s->want_alt = 0;
	give_back(s);
}

void screen_suspend(struct screen *s, struct obuf *out)
{
	s->out = out;
	give_back(s);
}

void screen_resume(struct screen *s, struct obuf *out)
{
	s->out = out;
	s->hold = false;
	/* Room for ward's rows again (the shell may have written to the last ones). */
	put_s(s, "\r");
	for (int i = 0; i < SCREEN_WARD_ROWS; i++)
		put_s(s, "\n");
	if (s->want_alt) {
		putf(s, "\033[?%dh", s->want_alt);
		s->real_alt = s->want_alt;
	}
	for (int m = 0; m < M_COUNT; m++)
		if (m != M_DECOM && m != M_IRM && m != M_DECAWM && s->real[m] != desired(s, (enum mode)m))
			put_mode(s, (enum mode)m, desired(s, (enum mode)m));
	/* The keyboard's modes, as the agent set them, in its order. */
	put(s, s->keyseq.p, s->keyseq.len);
	put(s, s->deferred.p, s->deferred.len);
	ob_reset(&s->deferred);
	ward_state_begin(s);
	putf(s, "\033[%d;%dr", s->top, s->bot);
	paint_area(s);
	s->real[M_DECOM] = desired(s, M_DECOM);
	s->real[M_IRM] = desired(s, M_IRM);
	s->real[M_DECAWM] = desired(s, M_DECAWM);
	ward_state_end(s);
	s->ward_dirty = true;
}

void screen_crash_reset(int rows, char *buf, size_t len)
{
	int area = rows - SCREEN_WARD_ROWS;
	snprintf(buf, len,
		 "\033[?2026l\033[?1000l\033[?1002l\033[?1003l\033[?1004l\033[?1005l\033[?1006l"
		 "\033[?1015l\033[?1016l\033[?1007l\033[?9l\033[?2004l\033[?1l\033[?66l\033>\033[?7h"
		 "\033[?6l\033[4l\033[?25h\033[<99u\033[>4m\033[0 q\033[0m\033(B\033)B\017"
		 "\033[?1049l\033[r\033[%d;1H\033[J",
		 area > 0 ? area + 1 : 1);
}

size_t screen_row_text(const struct screen *s, int row, char *buf, size_t len)
{
	VTermRect r = { .start_row = row, .end_row = row + 1, .start_col = 0, .end_col = s->cols };
	size_t n = vterm_screen_get_text(s->vscr, buf, len > 0 ? len - 1 : 0, r);
	if (len > 0)
		buf[n < len ? n : len - 1] = '\0';
	return n;
}
