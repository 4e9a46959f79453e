/*
 * test_preload_env.c - how ward puts the preload library into the agent
 * (supervisor/preload_env.c): finding it, the agent's environment, and
 * telling from an exec'd program's environment whether it will load it.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../supervisor/preload_env.h"

static void touch(const char *path)
{
	int fd = open(path, O_CREAT | O_WRONLY | O_CLOEXEC, 0644);
	assert_true(fd >= 0);
	close(fd);
}

static void test_find(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_preload_env.XXXXXX", p[PATH_MAX], exe[PATH_MAX], out[PATH_MAX];
	assert_non_null(mkdtemp(dir));
	/* An installed ward: bin/ward and lib/ward/libward-preload.so. */
	snprintf(p, sizeof(p), "%s/bin", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(exe, sizeof(exe), "%s/bin/ward", dir);
	touch(exe);
	assert_int_equal(preload_find(exe, out, sizeof(out)), -ENOENT);
	snprintf(p, sizeof(p), "%s/lib", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/lib/ward", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	snprintf(p, sizeof(p), "%s/lib/ward/" PRELOAD_LIB_NAME, dir);
	touch(p);
	assert_int_equal(preload_find(exe, out, sizeof(out)), 0);
	assert_string_equal(out, p); /* and without the "..": realpath */
	/* A build directory: the library beside ward comes first. */
	char beside[PATH_MAX];
	snprintf(beside, sizeof(beside), "%s/bin/" PRELOAD_LIB_NAME, dir);
	touch(beside);
	assert_int_equal(preload_find(exe, out, sizeof(out)), 0);
	assert_string_equal(out, beside);
	assert_int_equal(preload_find(exe, out, 8), -ENAMETOOLONG);
	assert_int_equal(preload_find("ward", out, sizeof(out)), -ENOENT);
	unlink(beside);
	unlink(p);
	unlink(exe);
	snprintf(p, sizeof(p), "rm -r '%s'", dir);
	assert_int_equal(system(p), 0);
}

static void test_setup(void **state)
{
	(void)state;
	struct preload_setup s;
	assert_int_equal(preload_setup(&s, "/usr/lib/ward/" PRELOAD_LIB_NAME, false), 0);
	assert_string_equal(s.hint, "1:3a5e00000000:0");
	assert_int_equal(preload_setup(&s, "/usr/lib/ward/" PRELOAD_LIB_NAME, true), 0);
	assert_string_equal(s.hint, "1:3a5e00000000:1");
	/* Names LD_PRELOAD cannot carry, and relative names. */
	assert_int_equal(preload_setup(&s, "/a b/" PRELOAD_LIB_NAME, false), -EINVAL);
	assert_int_equal(preload_setup(&s, "/a:b/" PRELOAD_LIB_NAME, false), -EINVAL);
	assert_int_equal(preload_setup(&s, PRELOAD_LIB_NAME, false), -EINVAL);
}

static void test_envp(void **state)
{
	(void)state;
	struct preload_setup s;
	assert_int_equal(preload_setup(&s, "/L/" PRELOAD_LIB_NAME, false), 0);
	char *plain[] = { "HOME=/h", "PATH=/bin", NULL };
	char **e = preload_envp(&s, plain);
	assert_non_null(e);
	assert_string_equal(e[0], "LD_PRELOAD=/L/" PRELOAD_LIB_NAME);
	assert_string_equal(e[1], "WARD_HINT=1:3a5e00000000:0");
	assert_string_equal(e[2], "HOME=/h");
	assert_string_equal(e[3], "PATH=/bin");
	assert_null(e[4]);
	free(e);
	/* The user's own LD_PRELOAD goes on after the library; stale WARD_HINTs go. */
	char *theirs[] = { "LD_PRELOAD=/x/libfoo.so", "WARD_HINT=forged", "A=1", "WARD_HINT=again", NULL };
	e = preload_envp(&s, theirs);
	assert_non_null(e);
	assert_string_equal(e[0], "LD_PRELOAD=/L/" PRELOAD_LIB_NAME ":/x/libfoo.so");
	assert_string_equal(e[1], "WARD_HINT=1:3a5e00000000:0");
	assert_string_equal(e[2], "A=1");
	assert_null(e[3]);
	free(e);
}

static void test_in_environ(void **state)
{
	(void)state;
	struct preload_setup s;
	assert_int_equal(preload_setup(&s, "/L/" PRELOAD_LIB_NAME, false), 0);
#define ENV(lit) lit, sizeof(lit) - 1
	assert_true(preload_in_environ(&s, ENV("A=1\0LD_PRELOAD=/L/" PRELOAD_LIB_NAME "\0WARD_HINT=1:3a5e00000000:0\0")));
	assert_true(preload_in_environ(&s, ENV("LD_PRELOAD=/x/a.so /L/" PRELOAD_LIB_NAME ":/y\0WARD_HINT=1:3a5e00000000:0\0")));
	assert_false(preload_in_environ(&s, ENV("WARD_HINT=1:3a5e00000000:0\0")));
	assert_false(preload_in_environ(&s, ENV("LD_PRELOAD=/L/" PRELOAD_LIB_NAME "\0")));
	assert_false(preload_in_environ(&s, ENV("LD_PRELOAD=/L/" PRELOAD_LIB_NAME "x\0WARD_HINT=1:3a5e00000000:0\0")));
	assert_false(preload_in_environ(&s, ENV("LD_PRELOAD=/L/" PRELOAD_LIB_NAME "\0WARD_HINT=1:3a5e00000000:1\0")));
	/* The first of each is the one that counts. */
	assert_false(preload_in_environ(&s, ENV("LD_PRELOAD=\0LD_PRELOAD=/L/" PRELOAD_LIB_NAME "\0WARD_HINT=1:3a5e00000000:0\0")));
	assert_false(preload_in_environ(&s, ENV("LD_PRELOAD=/L/" PRELOAD_LIB_NAME "\0WARD_HINT=0\0WARD_HINT=1:3a5e00000000:0\0")));
	/* A block cut in the middle of the last string. */
	assert_false(preload_in_environ(&s, "LD_PRELOAD=/L/" PRELOAD_LIB_NAME "\0WARD_HINT=1:3a5e", 40));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_setup),
		cmocka_unit_test(test_envp),
		cmocka_unit_test(test_in_environ),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
