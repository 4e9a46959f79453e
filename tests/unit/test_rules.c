/*
 * test_rules.c - the policy engine as a table: each row is a policy text,
 * a question (op, target) and the expected answer in ward explain's
 * format, "DECISION OP TARGET RULE-LOCATION"; or a policy text and the
 * exact error it must be refused with.
 *
 * The variables are fixed (below) and point into a scratch directory
 * made at start, so canonicalisation has real directories to resolve.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "ward_rules.h"

static char root[PATH_MAX]; /* scratch directory, real path */
static struct ward_vars vars;

/* Replace "@R" in s with the scratch root. */
static void subst(const char *s, char *out, size_t len)
{
	size_t o = 0;
	for (; *s && o + 1 < len; s++) {
		if (s[0] == '@' && s[1] == 'R') {
			o += (size_t)snprintf(out + o, len - o, "%s", root);
			s++;
		} else {
			out[o++] = *s;
		}
	}
	out[o] = '\0';
}

struct decide_row {
	const char *policy; /* "--rule" lines are not used here: one text, origin "t" */
	const char *op;
	const char *target;
	const char *expect; /* explain's line; @R stands for the scratch root */
};

struct error_row {
	const char *policy;
	const char *expect; /* the whole error message */
};

static const struct decide_row decide_rows[] = {
	{ "allow read @R/home/**", "read", "@R/home/x", "allow read @R/home/x t:1" },
	{ "allow read @R/home/**\ndeny read @R/home/x", "read", "@R/home/x",
	  "deny read @R/home/x t:2" },
	{ "", "read", "@R/home/x", "ask read @R/home/x undecided" },
};

static const struct error_row error_rows[] = {
	{ "allow raed /x", "t:1:7: unknown op 'raed'" },
};

static struct ward_policy *load(const char *text, struct ward_error *err)
{
	char buf[8192];
	struct ward_policy *p = ward_policy_new(&vars);
	assert_non_null(p);
	subst(text, buf, sizeof(buf));
	if (ward_policy_add_text(p, WARD_LAYER_FILE, "t", buf, strlen(buf), err) < 0) {
		ward_policy_free(p);
		return NULL;
	}
	return p;
}

static void test_decide_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(decide_rows) / sizeof(decide_rows[0]); i++) {
		const struct decide_row *r = &decide_rows[i];
		struct ward_error err;
		struct ward_verdict v;
		char target[PATH_MAX], expect[2 * PATH_MAX], got[2 * PATH_MAX];
		enum ward_op op = ward_op_parse(r->op);
		struct ward_policy *p = load(r->policy, &err);
		if (p == NULL)
			fail_msg("row %zu: policy refused: %s", i, err.msg);
		subst(r->target, target, sizeof(target));
		subst(r->expect, expect, sizeof(expect));
		if (op & (WARD_OP_CONNECT | WARD_OP_BIND)) {
			struct ward_net_target t;
			char buf[PATH_MAX];
			assert_int_equal(ward_net_target_parse(target, &t, buf, sizeof(buf)), 0);
			assert_int_equal(ward_decide_net(p, op, &t, &v), 0);
		} else {
			assert_int_equal(ward_decide_path(p, op, target, &v), 0);
		}
		assert_true(ward_verdict_format(&v, op, target, got, sizeof(got)) > 0);
		if (strcmp(got, expect) != 0)
			fail_msg("row %zu: expected '%s', got '%s'", i, expect, got);
		ward_policy_free(p);
	}
}

static void test_error_rows(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(error_rows) / sizeof(error_rows[0]); i++) {
		struct ward_error err;
		char expect[PATH_MAX];
		struct ward_policy *p = load(error_rows[i].policy, &err);
		if (p != NULL)
			fail_msg("row %zu: policy accepted, expected '%s'", i, error_rows[i].expect);
		subst(error_rows[i].expect, expect, sizeof(expect));
		if (strcmp(err.msg, expect) != 0)
			fail_msg("row %zu: expected error '%s', got '%s'", i, expect, err.msg);
	}
}

static int setup(void **state)
{
	char tmpl[] = "/tmp/ward-test-XXXXXX";
	(void)state;
	if (mkdtemp(tmpl) == NULL || realpath(tmpl, root) == NULL)
		return -1;
	char path[PATH_MAX];
	const char *dirs[] = { "home", "home/.ssh", "proj", "tmp", "real", NULL };
	for (int i = 0; dirs[i]; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		if (mkdir(path, 0700) < 0)
			return -1;
	}
	snprintf(path, sizeof(path), "%s/link", root);
	char target[PATH_MAX];
	snprintf(target, sizeof(target), "%s/real", root);
	if (symlink(target, path) < 0)
		return -1;
	memset(&vars, 0, sizeof(vars));
	snprintf(vars.home, sizeof(vars.home), "%s/home", root);
	snprintf(vars.project, sizeof(vars.project), "%s/proj", root);
	snprintf(vars.tmpdir, sizeof(vars.tmpdir), "%s/tmp", root);
	snprintf(vars.session, sizeof(vars.session), "%s/tmp/ward-1000/s1", root);
	snprintf(vars.xdg_runtime_dir, sizeof(vars.xdg_runtime_dir), "%s/run", root);
	snprintf(vars.xdg_config_home, sizeof(vars.xdg_config_home), "%s/home/.config", root);
	snprintf(vars.xdg_state_home, sizeof(vars.xdg_state_home), "%s/home/.local/state", root);
	snprintf(vars.uid, sizeof(vars.uid), "1000");
	snprintf(vars.user, sizeof(vars.user), "agent");
	return 0;
}

static int teardown(void **state)
{
	char cmd[PATH_MAX + 16];
	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) == 0 ? 0 : -1;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_decide_rows),
		cmocka_unit_test(test_error_rows),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
