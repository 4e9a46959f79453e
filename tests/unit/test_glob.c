/*
 * test_glob.c - the glob matcher, as a table of (pattern, subject, match).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"

struct row {
	const char *pattern;
	enum glob_flags flags;
	const char *subject;
	bool match;
};

static const struct row rows[] = {
	{ "/a/b", GLOB_PATH, "/a/b", true },
	{ "/a/b", GLOB_PATH, "/a/bc", false },
	{ "/a/b", GLOB_PATH, "/a", false },
	{ "/a/*", GLOB_PATH, "/a/b", true },
	{ "/a/*", GLOB_PATH, "/a/", true },
	{ "/a/*", GLOB_PATH, "/a/b/c", false },
	{ "/a/*.c", GLOB_PATH, "/a/x.c", true },
	{ "/a/*.c", GLOB_PATH, "/a/.c", true },
	{ "/a/*.c", GLOB_PATH, "/a/x/y.c", false },
	{ "/a/?", GLOB_PATH, "/a/b", true },
	{ "/a/?", GLOB_PATH, "/a/bb", false },
	{ "/a?b", GLOB_PATH, "/a/b", false },
	{ "/a/[bc]", GLOB_PATH, "/a/c", true },
	{ "/a/[bc]", GLOB_PATH, "/a/d", false },
	{ "/a/[!bc]", GLOB_PATH, "/a/d", true },
	{ "/a/[^bc]", GLOB_PATH, "/a/b", false },
	{ "/a/[a-z]x", GLOB_PATH, "/a/qx", true },
	{ "/a/[a-z]x", GLOB_PATH, "/a/Qx", false },
	{ "/a[!x]b", GLOB_PATH, "/a/b", false },
	{ "/a/[]]", GLOB_PATH, "/a/]", true },
	{ "/a/**", GLOB_PATH, "/a", true },
	{ "/a/**", GLOB_PATH, "/a/", true },
	{ "/a/**", GLOB_PATH, "/a/b/c/d", true },
	{ "/a/**", GLOB_PATH, "/ab", false },
	{ "/a/**", GLOB_PATH, "/", false },
	{ "/**", GLOB_PATH, "/", true },
	{ "/**", GLOB_PATH, "/x/y", true },
	{ "/a/**/b", GLOB_PATH, "/a/b", true },
	{ "/a/**/b", GLOB_PATH, "/a/x/b", true },
	{ "/a/**/b", GLOB_PATH, "/a/x/y/b", true },
	{ "/a/**/b", GLOB_PATH, "/a/xb", false },
	{ "/a/**/b", GLOB_PATH, "/a/x/b/c", false },
	{ "/a/**/*.c", GLOB_PATH, "/a/q/r/s.c", true },
	{ "/a/**/*.c", GLOB_PATH, "/a/s.c", true },
	{ "/a/x**y", GLOB_PATH, "/a/xqy", true },
	{ "/a/x**y", GLOB_PATH, "/a/x/y", false },
	{ "/a/\\*", GLOB_PATH, "/a/*", true },
	{ "/a/\\*", GLOB_PATH, "/a/b", false },
	{ "*.github.com", GLOB_FLAT, "api.github.com", true },
	{ "*.github.com", GLOB_FLAT, "a.b.github.com", true },
	{ "*.github.com", GLOB_FLAT, "github.com", false },
	{ "*.github.com", GLOB_FLAT, "evilgithub.com", false },
	{ "foo*", GLOB_FLAT, "foo/bar", true },
	{ "f?o", GLOB_FLAT, "f/o", true },
	{ "", GLOB_PATH, "", true },
	{ "", GLOB_PATH, "/", false },
};

static void test_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const char *why;
		struct glob *g = glob_compile(rows[i].pattern, rows[i].flags, &why);
		assert_non_null(g);
		if (glob_match(g, rows[i].subject) != rows[i].match)
			fail_msg("row %zu: '%s' against '%s' should %smatch", i,
				 rows[i].pattern, rows[i].subject, rows[i].match ? "" : "not ");
		glob_free(g);
	}
}

static void test_errors(void **state)
{
	const char *why;
	(void)state;
	assert_null(glob_compile("/a/[bc", GLOB_PATH, &why));
	assert_string_equal(why, "unterminated character class");
	assert_null(glob_compile("/a/\\", GLOB_PATH, &why));
	assert_string_equal(why, "trailing backslash");
	char *big = malloc(5000);
	memset(big, 'a', 4999);
	big[4999] = '\0';
	assert_null(glob_compile(big, GLOB_PATH, &why));
	assert_string_equal(why, "pattern too long");
	free(big);
}

/* A pattern that makes backtracking matchers explode must stay linear. */
static void test_no_blowup(void **state)
{
	char pat[200] = "/", subj[4000];
	const char *why;
	(void)state;
	for (int i = 0; i < 30; i++)
		strcat(pat, "*a");
	strcat(pat, "b");
	memset(subj, 'a', sizeof(subj) - 1);
	subj[0] = '/';
	subj[sizeof(subj) - 1] = '\0';
	struct glob *g = glob_compile(pat, GLOB_PATH, &why);
	assert_non_null(g);
	assert_false(glob_match(g, subj));
	glob_free(g);
}

/*
 * glob_refine_bytes: bytes of one class step alike from every state the
 * program can be in; bytes the program tells apart are in two classes.
 */
static void test_refine(void **state)
{
	static const char *const pats[] = { "/a/[b-d]*/x?", "/**/.git/[!h]ook*", "/e\\[1\\]/**" };
	unsigned short cls[256] = { 0 };
	int ncls = 1;
	const char *why;
	(void)state;

	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		struct glob *g = glob_compile(pats[i], GLOB_PATH, &why);
		assert_non_null(g);
		glob_refine_bytes(g, cls, &ncls);
		glob_free(g);
	}
	/* a, b..d, x, '/', '.', g, i, t, h, o, k, e, [, 1, ] and the rest: 16 classes */
	assert_int_equal(ncls, 16);
	assert_int_equal(cls['b'], cls['d']);
	assert_int_not_equal(cls['a'], cls['b']);
	assert_int_not_equal(cls['/'], cls['z']);
	assert_int_equal(cls['z'], cls['Q']);
	for (size_t i = 0; i < sizeof(pats) / sizeof(pats[0]); i++) {
		struct glob *g = glob_compile(pats[i], GLOB_PATH, &why);
		int n = glob_size(g), cur[n], a[n], b[n];
		/* From the states after each prefix of a path the pattern matches... */
		const char *path = i == 0 ? "/a/cc/xy" : i == 1 ? "/s/.git/took" : "/e[1]/q/r";
		for (size_t len = 0; path[len] != '\0'; len++) {
			char prefix[64];
			memcpy(prefix, path, len);
			prefix[len] = '\0';
			int k = glob_states_below(g, len == 0 ? "/" : prefix, cur);
			if (k <= 0)
				continue;
			/* ...every two bytes of one class lead to the same states. */
			for (int x = 1; x < 256; x++)
				for (int y = x + 1; y < 256; y++) {
					if (cls[x] != cls[y])
						continue;
					int na = glob_step(g, cur, k, (unsigned char)x, a);
					int nb = glob_step(g, cur, k, (unsigned char)y, b);
					assert_int_equal(na, nb);
					assert_memory_equal(a, b, sizeof(int) * (size_t)na);
				}
		}
		/* Stepped a byte at a time from "/", the path is matched at its end. */
		int k = glob_states_below(g, "/", cur);
		for (const char *c = path + 1; *c != '\0'; c++) {
			k = glob_step(g, cur, k, (unsigned char)*c, a);
			memcpy(cur, a, sizeof(int) * (size_t)k);
		}
		assert_true(glob_states_accept(g, cur, k));
		/* "x?" wants one byte more than "x", and not a '/'. */
		if (i == 0) {
			k = glob_states_below(g, "/a/cc", cur);
			assert_int_equal(glob_step(g, cur, k, 'x', a), 1);
			assert_false(glob_states_accept(g, a, 1));
			assert_int_equal(glob_step(g, a, 1, '/', cur), 0);
		}
		glob_free(g);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_no_blowup),
		cmocka_unit_test(test_refine),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
