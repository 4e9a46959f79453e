/*
 * test_screen.c - the agent's output kept in its own rows (term/screen.c).
 *
 * The real terminal is played by a libvterm screen of the full size, fed
 * what screen.c writes.  Each hostile sequence is fed through, and the
 * terminal's last rows must still show what ward drew there, its cursor
 * must be in the agent's area, and ordinary output must look as it would
 * without ward.
 */
#include "screen.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <vterm.h>

#include <cmocka.h>

#define ROWS 24
#define COLS 80
#define AREA (ROWS - SCREEN_WARD_ROWS)

struct rig {
	struct screen *s;
	VTerm *vt; /* the real terminal */
	VTermScreen *vs;
	struct obuf out, reply;
};

static void discard(const char *s, size_t len, void *user)
{
	(void)s;
	(void)len;
	(void)user;
}

static void real_feed(struct rig *g)
{
	vterm_input_write(g->vt, g->out.p ? g->out.p : "", g->out.len);
	ob_reset(&g->out);
}

static const char *const ward_lines[SCREEN_WARD_ROWS] = { "WARD-ROW-ONE", "WARD-ROW-TWO" };
static const char *const ward_sgr[SCREEN_WARD_ROWS] = { "7", "1" };

static struct rig *rig_new(int rows, int cols)
{
	struct rig *g = calloc(1, sizeof(*g));
	assert_non_null(g);
	g->s = screen_new(rows, cols);
	assert_non_null(g->s);
	g->vt = vterm_new(rows, cols);
	vterm_set_utf8(g->vt, 1);
	vterm_output_set_callback(g->vt, discard, NULL);
	g->vs = vterm_obtain_screen(g->vt);
	vterm_screen_enable_altscreen(g->vs, 1);
	vterm_screen_reset(g->vs, 1);
	screen_begin(g->s, 1, &g->out);
	screen_set_ward(g->s, ward_lines, ward_sgr);
	assert_true(screen_draw_ward(g->s, &g->out));
	real_feed(g);
	return g;
}

static void rig_free(struct rig *g)
{
	screen_free(g->s);
	vterm_free(g->vt);
	ob_free(&g->out);
	ob_free(&g->reply);
	free(g);
}

static void real_row(struct rig *g, int row, char *buf, size_t len)
{
	int rows, cols;
	vterm_get_size(g->vt, &rows, &cols);
	VTermRect r = { .start_row = row, .end_row = row + 1, .start_col = 0, .end_col = cols };
	size_t n = vterm_screen_get_text(g->vs, buf, len - 1, r);
	buf[n] = '\0';
	while (n > 0 && buf[n - 1] == ' ')
		buf[--n] = '\0';
}

static void real_cursor(struct rig *g, int *row, int *col)
{
	VTermPos p;
	vterm_state_get_cursorpos(vterm_obtain_state(g->vt), &p);
	*row = p.row;
	*col = p.col;
}

/* Ward's rows as drawn, the cursor in the agent's area. */
static void assert_intact(struct rig *g, const char *what)
{
	char buf[1024];
	int rows, cols, row, col;

	vterm_get_size(g->vt, &rows, &cols);
	for (int i = 0; i < SCREEN_WARD_ROWS; i++) {
		real_row(g, rows - SCREEN_WARD_ROWS + i, buf, sizeof(buf));
		if (strcmp(buf, ward_lines[i]) != 0)
			fail_msg("%s: ward's row %d reads '%s'", what, i, buf);
	}
	real_cursor(g, &row, &col);
	if (row >= rows - SCREEN_WARD_ROWS)
		fail_msg("%s: the cursor is on row %d, in ward's rows", what, row);
}

/*
 * What reaches the terminal holds no C1 control (as a raw byte or in
 * UTF-8: xterm acts on both), no invalid UTF-8, and none of the
 * sequences dropped whatever their parameters (libvterm, playing the
 * terminal here, ignores some of them, so they are looked for).
 */
static void check_output(const struct obuf *o, const char *what)
{
	static const char *const never[] = {
		"\033#8", "\033#3", "\033#4", "\033#5", "\033#6", "\033%", "\033_", "\033^",
		"\033X",  "\033Ptmux", "\033]1337", "\033Y", "\033 F", "\033 G", "\005",
	};
	static const char *const never_csi[] = { "$x", "$z", "$v", "${", "$r", "$t", "$|", "*x", "*|", "\"p" };
	const unsigned char *b = (const unsigned char *)o->p;

	for (size_t i = 0; i < o->len;) {
		size_t n = b[i] < 0x80 ? 1 : b[i] >= 0xc2 && b[i] <= 0xdf ? 2
					    : b[i] >= 0xe0 && b[i] <= 0xef ? 3
					    : b[i] >= 0xf0 && b[i] <= 0xf4 ? 4 : 0;
		if (n == 0 || i + n > o->len)
			fail_msg("%s: byte 0x%02x in the output is not UTF-8", what, b[i]);
		for (size_t k = 1; k < n; k++)
			if ((b[i + k] & 0xc0) != 0x80)
				fail_msg("%s: a UTF-8 sequence cut short in the output", what);
		if (n == 2 && b[i] == 0xc2 && b[i + 1] < 0xa0)
			fail_msg("%s: a C1 control in UTF-8 in the output", what);
		i += n;
	}
	for (size_t k = 0; k < sizeof(never) / sizeof(never[0]); k++)
		if (o->len && memmem(o->p, o->len, never[k], strlen(never[k])) != NULL)
			fail_msg("%s: '%s' in the output", what, never[k] + (never[k][0] == 27));
	/*
	 * Rectangle operations, DECSCL and the like: CSI, parameters, then
	 * these.  DEC modes: only the ones a terminal's area can take (not
	 * VT52 mode, 132 columns, left and right margins...).
	 */
	static const unsigned dec_ok[] = { 1,	 6,    7,    9,	   12,	 25,   47,   66,   1000, 1002, 1003,
					   1004, 1005, 1006, 1007, 1015, 1016, 1047, 1048, 1049, 2004, 2026, 2027 };
	for (size_t i = 0; i + 1 < o->len; i++) {
		if (b[i] != 033 || b[i + 1] != '[')
			continue;
		size_t j = i + 2;
		if (j < o->len && b[j] == '?') {
			unsigned v = 0;
			bool any = false;
			for (j++; j < o->len && ((b[j] >= '0' && b[j] <= '9') || b[j] == ';'); j++) {
				if (b[j] == ';') {
					fail_msg("%s: DEC modes set together", what);
				}
				v = v * 10 + (unsigned)(b[j] - '0');
				any = true;
			}
			bool ok = false;
			for (size_t k = 0; k < sizeof(dec_ok) / sizeof(dec_ok[0]); k++)
				ok = ok || dec_ok[k] == v;
			if (any && j < o->len && (b[j] == 'h' || b[j] == 'l') && !ok)
				fail_msg("%s: DEC mode %u in the output", what, v);
			j = i + 2;
		}
		while (j < o->len && b[j] >= 0x30 && b[j] <= 0x3f)
			j++;
		for (size_t k = 0; k < sizeof(never_csi) / sizeof(never_csi[0]); k++)
			if (j + 1 < o->len && b[j] == (unsigned char)never_csi[k][0] &&
			    b[j + 1] == (unsigned char)never_csi[k][1])
				fail_msg("%s: CSI ...%s in the output", what, never_csi[k]);
	}
}

static void feed(struct rig *g, const char *bytes, size_t n)
{
	screen_feed(g->s, bytes, n, &g->out, &g->reply);
	check_output(&g->out, "feed");
	real_feed(g);
	if (screen_ward_dirty(g->s) && screen_draw_ward(g->s, &g->out))
		real_feed(g);
}

static void feeds(struct rig *g, const char *bytes)
{
	feed(g, bytes, strlen(bytes));
}

/* Ward's rows are drawn; ordinary text lands where it would. */
static void test_plain(void **state)
{
	(void)state;
	struct rig *g = rig_new(ROWS, COLS);
	char buf[256];

	assert_intact(g, "start");
	feeds(g, "hello\r\nworld");
	real_row(g, 0, buf, sizeof(buf));
	assert_string_equal(buf, "hello");
	real_row(g, 1, buf, sizeof(buf));
	assert_string_equal(buf, "world");
	/* The bottom of the area scrolls; ward's rows stay. */
	for (int i = 0; i < 100; i++) {
		snprintf(buf, sizeof(buf), "line %d\r\n", i);
		feeds(g, buf);
	}
	assert_intact(g, "100 lines");
	real_row(g, AREA - 2, buf, sizeof(buf));
	assert_string_equal(buf, "line 99");
	rig_free(g);
}

/* What the agent writes to reach ward's rows, each after the last. */
static const char *const attacks[] = {
	"\033[999;1HCUP-FAR",
	"\033[24;1HCUP-ROW24\033[23;1HCUP-ROW23",
	"\033[999BCUD-FAR\n\n\n\nLF-AFTER",
	"\033[999d\033[999eVPA-VPR",
	"\033[999ECNL",
	"\033[2J",
	"\033[J",
	"\033[0J\033[?2J\033[?J",
	"\033c",
	"\033c\033[9999b\033[5;10r\033[22;80HQ\033[200b", /* libvterm loops for ever on a REP after nothing */
	"\033[1;999rREGION\n\n\n\n",
	"\033[1;999r\033[22;1H\n\n\nBIG-REGION\n\n",
	"\033[0;0r\033[22;1H\n\n\nZERO-REGION\n\n",
	"\033[5;10r\033[22;1H\n\n\n\n\nBELOW-REGION",
	"\033[5;10r\033[20;1HAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	"\033[5;10r\033[22;80HW\033[3bXYZ\033[99b",
	"\033[5;10r\033[22;1H\033D\033D\033E\033E\v\f",
	"\033[5;10r\033[22;1H\033[9B\033[9E\033[9e",
	"\033[r",
	"\033[?1049hALT\033[999;1HALT-FAR\033[2J\n\n\033[?1049l",
	"\033[?47h\033[J\033[?47l\033[?1047h\033[999B\033[?1047l",
	"\033#8",
	"\033[?3h\033[?3l",
	"\033[?2l\033Y\177\177VT52",
	"\033[?6h\033[999;1HORIGIN\033[?6l",
	"\033[3;9r\033[?6h\033[99B\033[99;1HORIGIN-REGION\n\n\n\033[?6l\033[r",
	"\033[?69h\033[1;10s\033[?69l",
	"\033P0;0;0q#0;2;0;0;0#0!100~-!100~-!100~-!100~\033\\",
	"\033]1337;File=inline=1:AAAA\a",
	"\033_Gf=100,a=T;AAAA\033\\",
	"\033Ptmux;\033\033[999;1HFORGED\033\\",
	"\302\233999;1HC1-CSI\302\2332J",
	"\005\033 G\033%G\033%@",
	"\233999;1HRAW-C1",
	"\033[8;100;200t\033[3;0;0t",
	"\033[50L\033[50M\033[50S\033[50T",
	"\033[4h\033[22;1HINSERT\033[4l",
	"\033[3;1H\033[?1048h\033[999;1H\033[?1048l",
	"\0337\033[999;1H\0338",
	"\033[5;10r\033[!pSOFT\n\n",
	"\033[;8r\033[23H\t\033#4\033[2J\t\t\t\t\tl\3469\344\270\255\344\270\255",
	"\033#3DOUBLE\n\033#4DOUBLE\033#6WIDE\033#5",
	"\033[5;10r\033[22;1H\033[?7lAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA\033[?7h\n",
	"\033[?1;1000;1002;1006;2004;1004h",
	"\033[1;2;3;4;5;6;7;8;9;10;11;12;13;14;15;16;17;18;19;20;21;22;23;24;25;26;27;28;29;30;31;32;33;34;35m",
	"\033[38:2::1:2:3:4:5:6:7:8:9:10:11:12:13:14:15:16:17:18:19:20m",
	"\033[1$x\033[1;1;99;99$z\033[1;1;99;99;1;1;1$v\033[1;1;99;99$r",
	"\033[24;1H\033[s\033[1;1H\033[u",
	"\033[?1049h\033[5;10r\033[?1049l\033[22;1H\n\n\n\n",
	"\033]0;title\033\\\033]2;t\a\033]8;;http://x\033\\link\033]8;;\033\\",
	"\016\033)0lqqk\017",
	"\033[99999999999;99999999999H\033[99999999999B",
	"\033[?2026h\033[999;1H",
	"\033[?2026l",
};

static void test_attacks(void **state)
{
	(void)state;
	struct rig *g = rig_new(ROWS, COLS);
	char what[64];

	for (size_t i = 0; i < sizeof(attacks) / sizeof(attacks[0]); i++) {
		snprintf(what, sizeof(what), "attack %zu", i);
		feeds(g, attacks[i]);
		assert_intact(g, what);
		/* ...and each again from the area's last row. */
		feeds(g, "\033[r\033[22;1H");
		feeds(g, attacks[i]);
		assert_intact(g, what);
		feeds(g, "\033[r");
	}
	rig_free(g);
}

/*
 * A soft reset (DECSTR) and what follows it, each piece fed alone so
 * that ward's rows are not drawn again in between: the mirror must
 * follow the terminal (libvterm 0.1.4's own DECSTR does nothing, so the
 * mirror kept origin mode, autowrap and the region, clamped a move to
 * the area's bottom to the old region's, and ward let a line feed
 * through that took the terminal's cursor into its rows).
 */
static void test_soft_reset(void **state)
{
	(void)state;
	static const char *const after[][4] = {
		{ "\033[?6h", "\033[!p", "\033[;8r\033[23H\n", "FORGED" },
		{ "\033[5;10r", "\033[!p", "\033[5;1H\n\033[22;1H\n", "FORGED" },
		{ "\033[?7l\033[5;10r", "\033[!p", "\033[22;75H", "WRAPPING-PAST-THE-LAST-COLUMN\nFORGED" },
	};
	char what[64];
	int row, col, mrow, mcol;

	for (size_t i = 0; i < sizeof(after) / sizeof(after[0]); i++) {
		struct rig *g = rig_new(ROWS, COLS);
		for (int k = 0; k < 4; k++) {
			snprintf(what, sizeof(what), "soft reset %zu, piece %d", i, k);
			feeds(g, after[i][k]);
			assert_intact(g, what);
			real_cursor(g, &row, &col);
			screen_cursor(g->s, &mrow, &mcol);
			if (row + 1 != mrow || col + 1 != mcol)
				fail_msg("%s: the terminal's cursor is at %d,%d, the mirror's at %d,%d",
					 what, row + 1, col + 1, mrow, mcol);
		}
		rig_free(g);
	}
}

/*
 * libvterm 0.1.4 writes past its parameter array on a CSI of more than 16
 * parameters (this test crashes if screen.c passes one on), and its
 * string buffer is 64 bytes.
 */
static void test_long_sequences(void **state)
{
	(void)state;
	struct rig *g = rig_new(ROWS, COLS);
	static char buf[70000];

	strcpy(buf, "\033[");
	for (int i = 0; i < 2000; i++)
		strcat(buf, "1;");
	strcat(buf, "H");
	feeds(g, buf);
	assert_intact(g, "2000 parameters");
	for (int i = 0; i < 2000; i++)
		buf[2 + i] = ':';
	feeds(g, buf);
	assert_intact(g, "2000 sub-parameters");
	memset(buf, 'x', sizeof(buf) - 1);
	buf[sizeof(buf) - 1] = '\0';
	memcpy(buf, "\033]0;", 4);
	feeds(g, buf);
	feeds(g, "\a");
	assert_intact(g, "a long title");
	memcpy(buf, "\033]99999999999999999;", 20);
	feeds(g, buf);
	feeds(g, "\033\\");
	assert_intact(g, "a long OSC number");
	rig_free(g);
}

/* Random bytes from the sequences that matter, many times over. */
static void test_random(void **state)
{
	(void)state;
	static const char *const bits[] = {
		"\033[", "\033]", "\033P", "\033_", "\033", "\033\\", "\a", "\n", "\r", "\v", "\f",
		"\b", "\t", "\016", "\017", "\030", "\032", "\177", "\302\233", "\233", "\302\234",
		"\342\200\224", "\360\237\230\200", "\344\270\255", "\xe0\x80", "\xff", ";", ":", "?",
		">", "<", "=", "$", "!", " ", "'", "\"", "#", "(", ")", "0", "1", "2", "3", "5", "6",
		"7", "8", "9", "12", "22", "23", "24", "25", "99", "999", "47", "1047", "1049", "2026",
		"H", "f", "A", "B", "C", "D", "E", "F", "G", "J", "K", "L", "M", "S", "T", "X", "@",
		"P", "b", "d", "e", "h", "l", "m", "r", "s", "u", "t", "c", "n", "q", "x", "z", "M",
		"D", "E", "7", "8", "c", "x", "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
	};
	const size_t nbits = sizeof(bits) / sizeof(bits[0]);
	unsigned seed = 12345;
	char buf[4096], what[64];

	for (int round = 0; round < 3000; round++) {
		struct rig *g = round % 100 == 0 || round == 0 ? rig_new(ROWS, COLS) : NULL;
		static struct rig *keep;
		if (g != NULL) {
			if (keep != NULL)
				rig_free(keep);
			keep = g;
		}
		g = keep;
		size_t n = 0;
		int pieces = 1 + (int)(rand_r(&seed) % 40);
		for (int k = 0; k < pieces; k++) {
			const char *b = bits[rand_r(&seed) % nbits];
			size_t l = strlen(b);
			if (n + l >= sizeof(buf))
				break;
			memcpy(buf + n, b, l);
			n += l;
		}
		feed(g, buf, n);
		snprintf(what, sizeof(what), "random round %d", round);
		if (screen_sync_open(g->s)) {
			screen_sync_close(g->s, &g->out);
			real_feed(g);
			assert_true(screen_draw_ward(g->s, &g->out));
			real_feed(g);
		}
		assert_intact(g, what);
		if (round == 2999) {
			rig_free(keep);
			keep = NULL;
		}
	}
}

/* In a region ending above the area's bottom, text still wraps as the agent expects. */
static void test_partial_wrap(void **state)
{
	(void)state;
	struct rig *g = rig_new(ROWS, COLS);
	char buf[256], want[256];

	feeds(g, "\033[5;10r\033[20;1H");
	memset(want, 'A', 100);
	want[100] = '\0';
	feeds(g, want);
	want[80] = '\0';
	real_row(g, 19, buf, sizeof(buf));
	assert_string_equal(buf, want);
	real_row(g, 20, buf, sizeof(buf));
	assert_string_equal(buf, "AAAAAAAAAAAAAAAAAAAA");
	/* At the area's last row, below the region, the wrap stays on that row. */
	feeds(g, "\033[22;75HBBBBBBBBBB");
	real_row(g, 21, buf, sizeof(buf));
	assert_string_equal(buf, "BBBB" "                                                                      " "BBBBBB");
	/* A line feed at the region's bottom scrolls the region only. */
	feeds(g, "\033[10;1Hbottom\n");
	real_row(g, 8, buf, sizeof(buf));
	assert_string_equal(buf, "bottom");
	assert_intact(g, "partial region");
	rig_free(g);
}

/* After ward draws, the agent's cursor and colours are where they were. */
static void test_state_restored(void **state)
{
	(void)state;
	struct rig *g = rig_new(ROWS, COLS);
	int r0, c0, r1, c1;
	VTermScreenCell cell;

	feeds(g, "\033[5;7H\033[31;1mred");
	real_cursor(g, &r0, &c0);
	screen_set_ward(g->s, ward_lines, ward_sgr);
	assert_true(screen_draw_ward(g->s, &g->out));
	real_feed(g);
	real_cursor(g, &r1, &c1);
	assert_int_equal(r0, r1);
	assert_int_equal(c0, c1);
	feeds(g, "X");
	assert_true(vterm_screen_get_cell(g->vs, (VTermPos){ 4, 9 }, &cell));
	assert_int_equal(cell.chars[0], 'X');
	assert_true(cell.attrs.bold);
	assert_true(VTERM_COLOR_IS_INDEXED(&cell.fg));
	assert_int_equal(cell.fg.indexed.idx, 1);
	/* DEC graphics in G0: ward's text is still plain ASCII. */
	feeds(g, "\033(0");
	assert_true(screen_draw_ward(g->s, &g->out));
	real_feed(g);
	assert_intact(g, "G0 is DEC graphics");
	feeds(g, "q");
	assert_true(vterm_screen_get_cell(g->vs, (VTermPos){ 4, 10 }, &cell));
	assert_int_equal(cell.chars[0], 0x2500); /* still a line for the agent */
	rig_free(g);
}

/* Not inside an open synchronized update; the agent's size answered as its own. */
static void test_sync_and_size(void **state)
{
	(void)state;
	struct rig *g = rig_new(ROWS, COLS);

	feeds(g, "\033[?2026h");
	assert_true(screen_sync_open(g->s));
	assert_false(screen_draw_ward(g->s, &g->out));
	assert_int_equal(g->out.len, 0);
	feeds(g, "\033[?2026l");
	assert_false(screen_sync_open(g->s));
	assert_true(screen_draw_ward(g->s, &g->out));
	ob_reset(&g->out);
	feeds(g, "\033[18t");
	assert_int_equal(g->reply.len, strlen("\033[8;22;80t"));
	assert_memory_equal(g->reply.p, "\033[8;22;80t", g->reply.len);
	rig_free(g);
}

/* Held while ward draws over the area: the agent's output, released, is all there. */
static void test_hold(void **state)
{
	(void)state;
	struct rig *g = rig_new(ROWS, COLS);
	const char *over[3] = { "DETAILS ONE", "DETAILS TWO", "DETAILS THREE" };
	char buf[256], mine[256];

	feeds(g, "before\r\n");
	screen_hold(g->s, over, NULL, 3, &g->out);
	real_feed(g);
	real_row(g, AREA - 3, buf, sizeof(buf));
	assert_string_equal(buf, "DETAILS ONE");
	for (int i = 0; i < 30; i++) {
		snprintf(buf, sizeof(buf), "held %d\r\n", i);
		feeds(g, buf);
	}
	feeds(g, "\033[?2004h\033[1;31mcolour");
	real_row(g, AREA - 1, buf, sizeof(buf));
	assert_string_equal(buf, "DETAILS THREE"); /* nothing of the agent's drawn meanwhile */
	screen_release(g->s, &g->out);
	real_feed(g);
	for (int r = 0; r < AREA; r++) {
		real_row(g, r, buf, sizeof(buf));
		screen_row_text(g->s, r, mine, sizeof(mine));
		size_t n = strlen(mine);
		while (n > 0 && mine[n - 1] == ' ')
			mine[--n] = '\0';
		assert_string_equal(buf, mine);
	}
	real_row(g, AREA - 1, buf, sizeof(buf));
	assert_string_equal(buf, "colour");
	assert_intact(g, "released");
	rig_free(g);
}

/* A smaller terminal: the region, ward's rows and the cursor follow. */
static void test_resize(void **state)
{
	(void)state;
	struct rig *g = rig_new(ROWS, COLS);

	feeds(g, "\033[20;1Hdown here");
	vterm_set_size(g->vt, 12, 60);
	screen_resize(g->s, 12, 60, &g->out);
	real_feed(g);
	assert_int_equal(screen_area(g->s), 10);
	assert_true(screen_draw_ward(g->s, &g->out));
	real_feed(g);
	assert_intact(g, "resized");
	feeds(g, "\033[999;1H\n\n\n\033[5;8r\033[10;1H\n\n\nAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA");
	assert_intact(g, "resized, then attacked");
	rig_free(g);
}

/* The end: modes the agent left undone, ward's rows cleared, the cursor below the output. */
static void test_end(void **state)
{
	(void)state;
	struct rig *g = rig_new(ROWS, COLS);
	char buf[256];

	feeds(g, "\033[?2004h\033[?1000h\033[>1u\033[?1049hfull screen");
	screen_end(g->s, &g->out);
	buf[0] = '\0';
	size_t n = g->out.len < sizeof(buf) - 1 ? g->out.len : sizeof(buf) - 1;
	memcpy(buf, g->out.p, n);
	buf[n] = '\0';
	assert_non_null(strstr(buf, "\033[?2004l"));
	assert_non_null(strstr(buf, "\033[?1000l"));
	assert_non_null(strstr(buf, "\033[<99u"));
	assert_non_null(strstr(buf, "\033[?1049l"));
	real_feed(g);
	real_row(g, ROWS - 1, buf, sizeof(buf));
	assert_string_equal(buf, "");
	rig_free(g);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_attacks),
		cmocka_unit_test(test_soft_reset),
		cmocka_unit_test(test_long_sequences),
		cmocka_unit_test(test_random),
		cmocka_unit_test(test_partial_wrap),
		cmocka_unit_test(test_state_restored),
		cmocka_unit_test(test_sync_and_size),
		cmocka_unit_test(test_hold),
		cmocka_unit_test(test_resize),
		cmocka_unit_test(test_end),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
