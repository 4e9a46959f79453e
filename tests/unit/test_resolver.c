/*
 * test_resolver.c - ward's own resolver (supervisor/resolver.c): which
 * names it will look up, what a hosts file names an address, and
 * verification of a name against an address by ward's own lookup.
 *
 * The lookups use "localhost", which every host's /etc/hosts maps to
 * 127.0.0.1; the hosts-file reader runs on files the test writes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../supervisor/resolver.h"

static const uint8_t lo4[16] = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 1 };
static const uint8_t lo4b[16] = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 2 };
static const uint8_t lo6[16] = { [15] = 1 };

static void test_name_ok(void **state)
{
	(void)state;
	const char *good[] = { "localhost", "api.github.com", "a-b.c_d.example", "example.org.", "x" };
	const char *bad[] = { "", ".a", "-a", "a..b", "a b", "a/b", "a\nb", "a;b", "a\033b", "*.github.com" };
	char longname[300];
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		if (!resolver_name_ok(good[i]))
			fail_msg("refused \"%s\"", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (resolver_name_ok(bad[i]))
			fail_msg("accepted \"%s\"", bad[i]);
	memset(longname, 'a', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	assert_false(resolver_name_ok(longname));
	longname[253] = '\0';
	assert_true(resolver_name_ok(longname));
	/* A name ward will not look up is never verified. */
	assert_int_equal(resolver_verify("a b", lo4), -EINVAL);
}

static void test_hosts_file(void **state)
{
	(void)state;
	char path[] = "/tmp/test_resolver.XXXXXX";
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	FILE *f = fdopen(fd, "w");
	fputs("# a comment 127.0.0.1 not-a-name\n"
	      "127.0.0.1\tlocalhost  Web.Test.Example # trailing comment\n"
	      "127.0.0.2 other.test\n"
	      "127.0.0.1 localhost api.test.example bad/name\n"
	      "::1 ip6-localhost\n"
	      "not-an-address name.example\n"
	      "\n",
	      f);
	fclose(f);
	char names[8][256];
	int n = resolver_hosts_names(path, lo4, names, 8);
	assert_int_equal(n, 3);
	assert_string_equal(names[0], "localhost");
	assert_string_equal(names[1], "web.test.example");
	assert_string_equal(names[2], "api.test.example");
	assert_int_equal(resolver_hosts_names(path, lo4, names, 2), 2);
	assert_int_equal(resolver_hosts_names(path, lo4b, names, 8), 1);
	assert_string_equal(names[0], "other.test");
	assert_int_equal(resolver_hosts_names(path, lo6, names, 8), 1);
	assert_string_equal(names[0], "ip6-localhost");
	static const uint8_t none[16] = { [10] = 0xff, [11] = 0xff, [12] = 10 };
	assert_int_equal(resolver_hosts_names(path, none, names, 8), 0);
	unlink(path);
	assert_int_equal(resolver_hosts_names(path, lo4, names, 8), -ENOENT);
}

static void test_verify(void **state)
{
	(void)state;
	uint8_t addrs[32][16];
	resolver_flush();
	int n = resolver_lookup("localhost", addrs, 32, NULL);
	assert_true(n >= 1);
	int has_lo = 0;
	for (int i = 0; i < n; i++)
		has_lo |= memcmp(addrs[i], lo4, 16) == 0;
	assert_true(has_lo);
	assert_int_equal(resolver_verify("localhost", lo4), 1);
	assert_int_equal(resolver_verify("LocalHost", lo4), 1); /* names are case-blind */
	assert_int_equal(resolver_verify("localhost", lo4b), 0);
	/* From the cache, the same answers. */
	assert_int_equal(resolver_verify("localhost", lo4), 1);
	assert_int_equal(resolver_verify("localhost", lo4b), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_name_ok),
		cmocka_unit_test(test_hosts_file),
		cmocka_unit_test(test_verify),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
