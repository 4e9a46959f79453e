/*
 * test_jline.c - the log's line writer against jansson.
 *
 * jline.c replaces jansson on the log's hot path; what it writes must be
 * what jansson writes (JSON_COMPACT | JSON_ENSURE_ASCII), and for bytes
 * that are not UTF-8, what jpath() made of them: each byte from 0x80 as
 * the text "\xNN".  Checked on fixed cases and on random strings biased
 * towards the awkward bytes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "../../supervisor/jline.h"

/* jpath's rule, as log.c had it: jansson's string if UTF-8, else \xNN text. */
static json_t *ref_path(const char *s)
{
	json_t *j = json_string(s);
	if (j != NULL)
		return j;
	size_t n = strlen(s);
	char *buf = malloc(n * 4 + 1), *o = buf;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p < 0x80)
			*o++ = (char)*p;
		else
			o += sprintf(o, "\\x%02x", *p);
	}
	*o = '\0';
	j = json_string(buf);
	free(buf);
	return j;
}

/* The line l wrote into mine must be {"k": val} as jansson writes it. */
static void same_line(struct jline *l, char *mine, json_t *val)
{
	char ref[1 << 16];
	size_t n = jl_end(l);
	assert_true(n > 0);
	mine[n] = '\0';

	json_t *o = json_object();
	json_object_set_new(o, "k", val);
	size_t m = json_dumpb(o, ref, sizeof(ref) - 1, JSON_COMPACT | JSON_ENSURE_ASCII);
	json_decref(o);
	assert_true(m > 0);
	ref[m] = '\0';
	if (strcmp(mine, ref) != 0)
		fail_msg("jline %s\njansson %s", mine, ref);
}

/* {"k": s} by jansson and by jline must be the same bytes. */
static void same(const char *s)
{
	char mine[1 << 16];
	struct jline l;

	jl_init(&l, mine, sizeof(mine) - 1);
	jl_str(&l, "k", s);
	same_line(&l, mine, ref_path(s));
}

static void fixed_strings(void **state)
{
	(void)state;
	static const char *const cases[] = {
		"", "plain", "/usr/lib/x86_64-linux-gnu/libc.so.6", "a\"b\\c", "tab\there",
		"nl\ncr\rbs\bff\f", "\x01\x1f\x7f", "h\xc3\xa9llo",	   /* é */
		"\xe2\x82\xac", "\xf0\x9f\x98\x80",			   /* € and an emoji (surrogates) */
		"\xef\xbf\xbf", "\xf4\x8f\xbf\xbf",			   /* U+FFFF, U+10FFFF */
		"\x81", "a\377b", "\xc0\x80", "\xc1\xbf",		   /* invalid bytes, overlongs */
		"\xe0\x80\x80", "\xf0\x80\x80\x80", "\xed\xa0\x80",	   /* overlong, a surrogate */
		"\xf4\x90\x80\x80", "\xf5\x80\x80\x80", "\xc3", "\xe2\x82", /* too high, truncated */
		"\xc3\xa9\x81", "/x/\"\\\n\xc3\xa9",
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++)
		same(cases[i]);
}

static void random_strings(void **state)
{
	(void)state;
	static const unsigned char pick[] = { 'a', '/', '"', '\\', '\n', 0x01, 0x1f, 0x7f,
					      0x80, 0xbf, 0xc2, 0xc3, 0xa9, 0xe2, 0x82, 0xac,
					      0xed, 0xa0, 0xf0, 0x9f, 0xf4, 0x90, 0xff, 0xc0 };
	char s[64];
	srand(12345);
	for (int t = 0; t < 200000; t++) {
		int n = rand() % 12;
		for (int i = 0; i < n; i++)
			s[i] = (char)(rand() % 3 == 0 ? 1 + rand() % 255 : pick[rand() % sizeof(pick)]);
		s[n] = '\0';
		same(s);
	}
}

static void members_and_nesting(void **state)
{
	(void)state;
	char buf[256];
	struct jline l;

	jl_init(&l, buf, sizeof(buf));
	jl_str(&l, "a", "x");
	jl_int(&l, "n", -42);
	jl_bool(&l, "t", true);
	jl_open(&l, "argv", '[');
	jl_str(&l, NULL, "one");
	jl_str(&l, NULL, "two");
	jl_close(&l, ']');
	jl_open(&l, "o", '{');
	jl_bool(&l, "f", false);
	jl_close(&l, '}');
	jl_raw(&l, "r", "[1,2]", 5);
	size_t n = jl_end(&l);
	buf[n] = '\0';
	assert_string_equal(buf, "{\"a\":\"x\",\"n\":-42,\"t\":true,\"argv\":[\"one\",\"two\"],"
				 "\"o\":{\"f\":false},\"r\":[1,2]}");
}

/* Integers as jansson writes them, the extremes included. */
static void integers(void **state)
{
	(void)state;
	const long long vals[] = { 0, 1, -1, 9, 10, -10, 4194304, -2147483648LL, 2147483647,
				   LLONG_MAX, LLONG_MIN, LLONG_MIN + 1 };
	char mine[64];

	for (size_t i = 0; i < sizeof(vals) / sizeof(vals[0]) + 1000; i++) {
		long long v = i < sizeof(vals) / sizeof(vals[0]) ? vals[i]
			      : (long long)(((unsigned long long)rand() << 33) ^
					    ((unsigned long long)rand() << 2) ^ (unsigned long long)rand());
		struct jline l;
		jl_init(&l, mine, sizeof(mine) - 1);
		jl_int(&l, "k", v);
		same_line(&l, mine, json_integer(v));
	}
}

static void overflow_is_reported(void **state)
{
	(void)state;
	char buf[16];
	struct jline l;

	jl_init(&l, buf, sizeof(buf));
	jl_str(&l, "key", "a value too long for it");
	assert_int_equal(jl_end(&l), 0);
	/* Exactly full fits: {"k":"abcdefg"} is 15 bytes. */
	jl_init(&l, buf, 15);
	jl_str(&l, "k", "abcdefg");
	assert_int_equal(jl_end(&l), 15);
	jl_init(&l, buf, 14);
	jl_str(&l, "k", "abcdefg");
	assert_int_equal(jl_end(&l), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(fixed_strings),
		cmocka_unit_test(random_strings),
		cmocka_unit_test(members_and_nesting),
		cmocka_unit_test(integers),
		cmocka_unit_test(overflow_is_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
