/*
 * fuzz_screen.c - libFuzzer target for the agent's output filter
 * (supervisor/term/screen.c).
 *
 * Input: bytes an agent writes to its terminal, fed in pieces cut where
 * each 0xfe byte stands.  What the filter writes is fed to a libvterm
 * screen the size of the real terminal; afterwards ward's rows must read
 * as ward drew them and the cursor must be in the agent's area.  Nothing
 * may crash (libvterm included: the filter must never hand it what makes
 * it write out of bounds), leak, or hang.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <vterm.h>

#include "screen.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define ROWS 12
#define COLS 40

static void discard(const char *s, size_t len, void *user)
{
	(void)s;
	(void)len;
	(void)user;
}

static void check(VTerm *vt, VTermScreen *vs)
{
	static const char *const want[SCREEN_WARD_ROWS] = { "WARD-ONE", "WARD-TWO" };
	char buf[256];
	VTermPos p;

	for (int i = 0; i < SCREEN_WARD_ROWS; i++) {
		VTermRect r = { ROWS - SCREEN_WARD_ROWS + i, ROWS - SCREEN_WARD_ROWS + i + 1, 0, COLS };
		size_t n = vterm_screen_get_text(vs, buf, sizeof(buf) - 1, r);
		while (n > 0 && buf[n - 1] == ' ')
			n--;
		buf[n] = '\0';
		if (strcmp(buf, want[i]) != 0)
			abort();
	}
	vterm_state_get_cursorpos(vterm_obtain_state(vt), &p);
	if (p.row >= ROWS - SCREEN_WARD_ROWS)
		abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const lines[SCREEN_WARD_ROWS] = { "WARD-ONE", "WARD-TWO" };
	struct obuf out = { 0 }, reply = { 0 };
	struct screen *s = screen_new(ROWS, COLS);
	VTerm *vt = vterm_new(ROWS, COLS);
	VTermScreen *vs;

	if (s == NULL || vt == NULL)
		abort();
	vterm_set_utf8(vt, 1);
	vterm_output_set_callback(vt, discard, NULL);
	vs = vterm_obtain_screen(vt);
	vterm_screen_enable_altscreen(vs, 1);
	vterm_screen_reset(vs, 1);
	screen_begin(s, 1, &out);
	screen_set_ward(s, lines, NULL);
	screen_draw_ward(s, &out);
	for (size_t at = 0; at <= size;) {
		const uint8_t *cut = memchr(data + at, 0xfe, size - at);
		size_t n = cut ? (size_t)(cut - (data + at)) : size - at;
		screen_feed(s, (const char *)data + at, n, &out, &reply);
		if (screen_sync_open(s))
			screen_sync_close(s, &out);
		if (screen_ward_dirty(s))
			screen_draw_ward(s, &out);
		vterm_input_write(vt, out.p ? out.p : "", out.len);
		ob_reset(&out);
		check(vt, vs);
		at += n + 1;
	}
	screen_end(s, &out);
	screen_free(s);
	vterm_free(vt);
	ob_free(&out);
	ob_free(&reply);
	return 0;
}
