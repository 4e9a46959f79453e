/*
 * test_prompt.c - the keys that answer a question, and the lines that
 * show it (term/prompt.c).
 */
#include "prompt.h"
#include "cli/util.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

static int key(const char *bytes, char *agent, size_t len)
{
	struct keyin k = { 0 };
	struct obuf to = { 0 };
	int got = keyin_read(&k, bytes, strlen(bytes), &to);
	if (agent != NULL) {
		size_t n = to.len < len - 1 ? to.len : len - 1;
		memcpy(agent, to.p ? to.p : "", n);
		agent[n] = '\0';
	}
	ob_free(&to);
	return got;
}

/* A key as a byte, as CSI-u (kitty), as modifyOtherKeys (xterm). */
static void test_keys(void **state)
{
	(void)state;
	assert_int_equal(key("y", NULL, 0), KEY_ONCE);
	assert_int_equal(key("Y", NULL, 0), KEY_ONCE);
	assert_int_equal(key("s", NULL, 0), KEY_SESSION);
	assert_int_equal(key("d", NULL, 0), KEY_DENY_ALWAYS);
	assert_int_equal(key("?", NULL, 0), KEY_DETAILS);
	assert_int_equal(key("\t", NULL, 0), KEY_TAB);
	assert_int_equal(key("\r", NULL, 0), KEY_ENTER);
	assert_int_equal(key("\003", NULL, 0), KEY_INTR);
	assert_int_equal(key("\033[121u", NULL, 0), KEY_ONCE);
	assert_int_equal(key("\033[121;1u", NULL, 0), KEY_ONCE);
	assert_int_equal(key("\033[121;1:1u", NULL, 0), KEY_ONCE);
	assert_int_equal(key("\033[110u", NULL, 0), KEY_DENY);
	assert_int_equal(key("\033[27u", NULL, 0), KEY_ESC);
	assert_int_equal(key("\033[13u", NULL, 0), KEY_ENTER);
	assert_int_equal(key("\033[9u", NULL, 0), KEY_TAB);
	assert_int_equal(key("\033[47:63;2u", NULL, 0), KEY_DETAILS); /* shift+/ with its shifted key */
	assert_int_equal(key("\033[99;5u", NULL, 0), KEY_INTR);
	assert_int_equal(key("\033[27;1;121~", NULL, 0), KEY_ONCE);
	/* Not y: Ctrl-y, Alt-y, a release, a repeat, a modifier alone. */
	assert_int_equal(key("\033[121;5u", NULL, 0), KEY_OTHER);
	assert_int_equal(key("\033y", NULL, 0), KEY_OTHER);
	assert_int_equal(key("\033[121;1:3u", NULL, 0), KEY_NONE);
	assert_int_equal(key("\033[121;1:2u", NULL, 0), KEY_NONE);
	assert_int_equal(key("\033[57441;2u", NULL, 0), KEY_NONE);
	assert_int_equal(key("\033[A", NULL, 0), KEY_OTHER);
	assert_int_equal(key("\033OA", NULL, 0), KEY_OTHER);
	assert_int_equal(key("\303\251", NULL, 0), KEY_OTHER);
}

/* No answer from a burst, a paste, or what the terminal sends for the agent. */
static void test_not_answers(void **state)
{
	(void)state;
	char agent[256];

	assert_int_equal(key("yy", NULL, 0), KEY_NONE);
	assert_int_equal(key("y\r", NULL, 0), KEY_NONE);
	assert_int_equal(key("ls -l\r", NULL, 0), KEY_NONE);
	assert_int_equal(key("\033[200~y\033[201~", NULL, 0), KEY_NONE);
	assert_int_equal(key("\033[121u\033[121u", NULL, 0), KEY_NONE);
	/* Replies: to the agent, and no key. */
	assert_int_equal(key("\033[12;40R", agent, sizeof(agent)), KEY_NONE);
	assert_string_equal(agent, "\033[12;40R");
	assert_int_equal(key("\033[?64;1;2c\033]11;rgb:0000/0000/0000\033\\", agent, sizeof(agent)), KEY_NONE);
	assert_string_equal(agent, "\033[?64;1;2c\033]11;rgb:0000/0000/0000\033\\");
	assert_int_equal(key("\033[I\033[<0;10;5M\033[M !!", agent, sizeof(agent)), KEY_NONE);
	assert_string_equal(agent, "\033[I\033[<0;10;5M\033[M !!");
	/* A reply and a key in one read: the key still counts, the reply still goes. */
	assert_int_equal(key("\033[?1u" "n", agent, sizeof(agent)), KEY_DENY);
	assert_string_equal(agent, "\033[?1u");
}

/* A sequence cut between reads; a lone ESC is Esc only when nothing follows. */
static void test_cut(void **state)
{
	(void)state;
	struct keyin k = { 0 };
	struct obuf to = { 0 };

	assert_int_equal(keyin_read(&k, "\033", 1, &to), KEY_NONE);
	assert_true(keyin_pending(&k));
	assert_int_equal(keyin_read(&k, "[121u", 5, &to), KEY_ONCE);
	assert_false(keyin_pending(&k));
	assert_int_equal(keyin_read(&k, "\033", 1, &to), KEY_NONE);
	assert_int_equal(keyin_timeout(&k, &to), KEY_ESC);
	assert_int_equal(keyin_read(&k, "\033[12;", 5, &to), KEY_NONE);
	assert_int_equal(keyin_timeout(&k, &to), KEY_NONE);
	assert_int_equal(to.len, 5); /* the cut reply went to the agent */
	/* A paste whose end comes in the next read: nothing of it answers. */
	assert_int_equal(keyin_read(&k, "\033[200~yes", 9, &to), KEY_NONE);
	assert_int_equal(keyin_read(&k, "y\033[20", 5, &to), KEY_NONE);
	assert_int_equal(keyin_read(&k, "1~", 2, &to), KEY_NONE);
	assert_int_equal(keyin_read(&k, "n", 1, &to), KEY_DENY);
	ob_free(&to);
}

static const struct prompt_view view = {
	.serial = 3,
	.prog = "node",
	.pid = 4242,
	.chain = "npm install \u2190 claude",
	.op = "WRITE",
	.target = "~/.npmrc",
	.extra = "",
	.rule = "builtin:default:41 (ask)",
	.scope_name = "this file",
	.scope_rule = "allow write ~/.npmrc",
	.can_save = true,
	.waiting = 2,
	.live = true,
	.exe = "/usr/bin/node",
	.argv = "node /usr/bin/npm install",
	.cwd = "/home/u/proj",
	.procs = "4242 node /usr/bin/npm install\n4100 claude",
};

static void test_lines(void **state)
{
	(void)state;
	char l1[PROMPT_LINE], l2[PROMPT_LINE];

	assert_true(prompt_lines(&view, 160, l1, l2, sizeof(l1)));
	assert_non_null(strstr(l1, "ward \u25b8 node (pid 4242, npm install \u2190 claude) wants to WRITE ~/.npmrc"));
	assert_non_null(strstr(l1, "rule: builtin:default:41 (ask)"));
	assert_int_equal(text_width(l1), 160);
	assert_non_null(strstr(l2, "[y] once  [s] this session  [a] always  [n] deny  [d] deny always"));
	assert_non_null(strstr(l2, "(+2 waiting)"));
	/* A flood answered without the person is said beside the question, short where narrow. */
	struct prompt_view fl = view;
	fl.flooded = true;
	prompt_lines(&fl, 160, l1, l2, sizeof(l1));
	assert_non_null(strstr(l2, "(+2 waiting, a flood answered undecided)"));
	fl.waiting = 0;
	prompt_lines(&fl, 160, l1, l2, sizeof(l1));
	assert_non_null(strstr(l2, "(a flood answered undecided)"));
	fl.waiting = 2;
	prompt_lines(&fl, 40, l1, l2, sizeof(l1));
	assert_true(text_width(l2) <= 40);
	assert_non_null(strstr(l2, "+2 flood"));
	/* 60 columns: the chain and the rule give way, the target stays whole. */
	assert_true(prompt_lines(&view, 60, l1, l2, sizeof(l1)));
	assert_true(text_width(l1) <= 60);
	assert_true(text_width(l2) <= 60);
	assert_non_null(strstr(l1, "wants to WRITE ~/.npmrc"));
	/* A target too long for the row: cut here, and said so. */
	struct prompt_view v = view;
	char longt[400];
	memset(longt, 'x', sizeof(longt) - 1);
	longt[sizeof(longt) - 1] = '\0';
	v.target = longt;
	assert_false(prompt_lines(&v, 80, l1, l2, sizeof(l1)));
	assert_true(text_width(l1) <= 80);
	/* The details hold it whole, wrapped. */
	char lines[40][PROMPT_LINE];
	int n = prompt_details(&v, 80, lines, 40);
	size_t xs = 0;
	for (int i = 0; i < n; i++) {
		assert_true(text_width(lines[i]) <= 80);
		for (const char *p = lines[i]; *p; p++)
			xs += *p == 'x';
	}
	assert_int_equal(xs, sizeof(longt) - 1);
	/* The libc call and the stack: a frame a line, the label on the first. */
	struct prompt_view b = view;
	b.via = "fopen";
	b.stack = "open_the_secret+0x1c (byname.c:72)\nmain+0x2f (byname.c:202)";
	n = prompt_details(&b, 80, lines, 40);
	int via = -1, st = -1;
	for (int i = 0; i < n; i++) {
		if (strcmp(lines[i], "  libc call fopen") == 0)
			via = i;
		if (strcmp(lines[i], "  stack     open_the_secret+0x1c (byname.c:72)") == 0)
			st = i;
	}
	assert_true(via > 0);
	assert_true(st > 0 && st + 1 < n);
	assert_string_equal(lines[st + 1], "            main+0x2f (byname.c:202)");
	/* More than the rows hold: the rule and scope first, and the cut said on the last row. */
	n = prompt_details(&view, 80, lines, 8);
	assert_int_equal(n, 8);
	assert_non_null(strstr(lines[3], "rule      builtin:default:41 (ask)"));
	assert_non_null(strstr(lines[4], "scope     allow write ~/.npmrc"));
	assert_non_null(strstr(lines[7], "more than these rows hold"));
	/* Wide characters count twice. */
	assert_int_equal(text_width("\u4e2d\u6587"), 4);
	char fit[16];
	text_fit("\u4e2d\u6587\u4e2d", 5, fit, sizeof(fit));
	assert_string_equal(fit, "\u4e2d\u6587");
}

/* What the agent chose reaches the terminal escaped: controls, and what shows as nothing or reorders. */
static void test_safe(void **state)
{
	(void)state;
	char buf[256];

	assert_string_equal(term_safe("a\033[2Jb\\", buf, sizeof(buf)), "a\\x1b[2Jb\\\\");
	assert_string_equal(term_safe("two\u00a0words", buf, sizeof(buf)), "two\\u{00a0}words");
	assert_string_equal(term_safe("evil\u202etxt.exe", buf, sizeof(buf)), "evil\\u{202e}txt.exe");
	assert_string_equal(term_safe("zero\u200bwidth\ufeff", buf, sizeof(buf)), "zero\\u{200b}width\\u{feff}");
	assert_string_equal(term_safe("caf\u00e9 \u4e2d", buf, sizeof(buf)), "caf\u00e9 \u4e2d");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_keys),
		cmocka_unit_test(test_not_answers),
		cmocka_unit_test(test_cut),
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_safe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
