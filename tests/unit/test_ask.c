/*
 * test_ask.c - the questions put to the person (supervisor/ask.c): the
 * queue, merging, answers and the grants they leave, timeouts, withdrawn
 * questions, floods, rules saved for always.
 *
 * Callers are threads of this test, as notification workers are ward's;
 * the person is the test, answering through ask_answer() as the terminal
 * and `ward approve` do.
 */
#include "ask.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

static char base[256];
static struct ward_vars vars;
static char policy_path[512];

struct caller {
	struct ask_call c;
	struct ask_result r;
	pthread_t th;
	atomic_bool done, gone;
	char path[512];
};

static int alive(void *arg)
{
	struct caller *k = arg;
	return atomic_load(&k->gone) ? -ESRCH : 0;
}

static void *call(void *arg)
{
	struct caller *k = arg;
	ask_call(&k->c, &k->r);
	atomic_store(&k->done, true);
	return NULL;
}

/* A caller of op from exe, alive; the test fills in the rest, then launch(). */
static void prepare(struct caller *k, enum ward_op op, const char *exe)
{
	memset(k, 0, sizeof(*k));
	k->c.op = op;
	k->c.pid = k->c.tid = getpid();
	k->c.exe = exe;
	k->c.alive = alive;
	k->c.alive_arg = k;
}

static void launch(struct caller *k)
{
	assert_int_equal(pthread_create(&k->th, NULL, call, k), 0);
}

static void start(struct caller *k, enum ward_op op, const char *path)
{
	prepare(k, op, "/usr/bin/node");
	snprintf(k->path, sizeof(k->path), "%s", path);
	k->c.path = k->path;
	k->c.rule = "builtin:default:41";
	launch(k);
}

static void join(struct caller *k)
{
	pthread_join(k->th, NULL);
}

static int64_t ms(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (int64_t)t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

/* Wait (up to 10 s: a busy machine) until n questions are pending; their list. */
static struct ask_view *pending(size_t n)
{
	struct ask_view *v = NULL;
	size_t got = 0;
	int64_t until = ms() + 10000;

	for (;;) {
		assert_int_equal(ask_list(&v, &got), 0);
		if (got == n || ms() > until)
			break;
		free(v);
		struct timespec nap = { 0, 5 * 1000 * 1000 };
		nanosleep(&nap, NULL);
	}
	if (got != n)
		fail_msg("%zu questions pending, not %zu", got, n);
	return v;
}

/* Wait until every one of k (n of them) has its answer. */
static void wait_done(struct caller *k, int n)
{
	int64_t until = ms() + 10000;
	for (int i = 0; i < n; i++) {
		while (!atomic_load(&k[i].done) && ms() < until) {
			struct timespec nap = { 0, 5 * 1000 * 1000 };
			nanosleep(&nap, NULL);
		}
		assert_true(atomic_load(&k[i].done));
		join(&k[i]);
	}
}

static void init(unsigned timeout, bool terminal)
{
	struct ask_config c = {
		.vars = &vars,
		.session = "5f3a9c1e",
		.timeout = timeout,
		.undecided_allows = false,
		.user_policy = policy_path,
		.ward = 1,
	};
	assert_int_equal(ask_init(&c), 0);
	ask_set_terminal(terminal);
}

static int setup(void **state)
{
	(void)state;
	snprintf(base, sizeof(base), "/tmp/ward-test-ask.XXXXXX");
	assert_non_null(mkdtemp(base));
	snprintf(vars.home, sizeof(vars.home), "%s/home", base);
	snprintf(vars.project, sizeof(vars.project), "%s/proj", base);
	snprintf(vars.tmpdir, sizeof(vars.tmpdir), "%s/tmp", base);
	snprintf(vars.session, sizeof(vars.session), "%s/tmp/s", base);
	snprintf(vars.xdg_runtime_dir, sizeof(vars.xdg_runtime_dir), "%s/run", base);
	snprintf(vars.xdg_config_home, sizeof(vars.xdg_config_home), "%s/home/.config", base);
	snprintf(vars.xdg_state_home, sizeof(vars.xdg_state_home), "%s/home/.state", base);
	snprintf(vars.uid, sizeof(vars.uid), "%u", (unsigned)getuid());
	snprintf(vars.user, sizeof(vars.user), "u");
	mkdir(vars.home, 0700);
	mkdir(vars.project, 0700);
	snprintf(policy_path, sizeof(policy_path), "%s/ward/policy", vars.xdg_config_home);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char cmd[512];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", base);
	return system(cmd) == 0 ? 0 : -1;
}

/* No terminal and no approver: the undecided answer, at once. */
static void test_no_one_to_ask(void **state)
{
	(void)state;
	struct caller k;
	init(300, false);
	start(&k, WARD_OP_WRITE, "/x/alone");
	wait_done(&k, 1);
	assert_int_equal(k.r.rc, -EACCES);
	assert_int_equal(k.r.answer, ANSWER_UNDECIDED);
	assert_string_equal(k.r.by, "undecided");
}

/* One question, answered once: allowed, and nothing remembered. */
static void test_once(void **state)
{
	(void)state;
	struct caller k, again;
	char path[512];

	init(300, true);
	snprintf(path, sizeof(path), "%s/.npmrc", vars.home);
	start(&k, WARD_OP_WRITE, path);
	struct ask_view *v = pending(1);
	assert_int_equal(v[0].serial, 1);
	assert_string_equal(v[0].target, path);
	assert_string_equal(v[0].prog, "node");
	assert_string_equal(v[0].rule, "builtin:default:41");
	assert_int_equal(v[0].nrungs, 3); /* the file, its directory's files, below it */
	assert_int_equal(ask_answer(v[0].serial, ANSWER_ONCE, 0), 0);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_DENY, 0), -ESRCH); /* the first answer won */
	wait_done(&k, 1);
	assert_int_equal(k.r.rc, 0);
	assert_int_equal(k.r.answer, ANSWER_ONCE);
	assert_string_equal(k.r.by, "prompt");
	assert_string_equal(k.r.saved, "");
	struct ward_verdict verdict;
	assert_false(ask_grant_path(WARD_OP_WRITE, path, &verdict));
	/* Asked again: a new question. */
	start(&again, WARD_OP_WRITE, path);
	free(v);
	v = pending(1);
	assert_int_equal(v[0].serial, 2);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_DENY, 0), 0);
	wait_done(&again, 1);
	assert_int_equal(again.r.rc, -EACCES);
	assert_int_equal(again.r.answer, ANSWER_DENY);
	free(v);
}

/* Twenty threads opening one file: one question, one answer for all. */
static void test_merge(void **state)
{
	(void)state;
	static struct caller k[20];

	init(300, true);
	for (int i = 0; i < 20; i++)
		start(&k[i], WARD_OP_CREATE, "/x/merged");
	struct ask_view *v = pending(1);
	int64_t until = ms() + 10000;
	while (v[0].waiters < 20 && ms() < until) {
		free(v);
		v = pending(1);
	}
	assert_int_equal(v[0].waiters, 20);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_ONCE, 0), 0);
	wait_done(k, 20);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(k[i].r.rc, 0);
		assert_int_equal(k[i].r.serial, v[0].serial);
	}
	free(v);
	json_t *a = ask_answers_json();
	assert_int_equal(json_array_size(a), 1);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(a, 0), "calls")), 20);
	json_decref(a);
}

/* Different targets queue, oldest first; a session answer at a wide rung releases those it covers. */
static void test_queue_and_session(void **state)
{
	(void)state;
	struct caller k[3];
	char a[512], b[512], c[512];

	init(300, true);
	snprintf(a, sizeof(a), "%s/cache/x/one", vars.home);
	snprintf(b, sizeof(b), "%s/cache/x/two", vars.home);
	snprintf(c, sizeof(c), "%s/elsewhere", vars.home);
	start(&k[0], WARD_OP_WRITE, a);
	free(pending(1));
	start(&k[1], WARD_OP_WRITE, b);
	free(pending(2));
	start(&k[2], WARD_OP_WRITE, c);
	struct ask_view *v = pending(3);
	assert_string_equal(v[0].target, a);
	assert_string_equal(v[1].target, b);
	assert_true(v[0].serial < v[1].serial && v[1].serial < v[2].serial);
	/* Rung 2: the directory and below. */
	char rule[ASK_RULE];
	ask_rule_text(&v[0], ANSWER_SESSION, 2, rule, sizeof(rule));
	char want[ASK_RULE];
	snprintf(want, sizeof(want), "allow write \"~/cache/x/**\""); /* the home directory as ~ */
	assert_string_equal(rule, want);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_SESSION, 7), -EINVAL);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_SESSION, 2), 0);
	wait_done(k, 2);
	assert_int_equal(k[0].r.rc, 0);
	assert_int_equal(k[1].r.rc, 0); /* released by the grant */
	assert_int_equal(k[1].r.answer, ANSWER_SESSION);
	assert_string_equal(k[1].r.saved, want);
	free(v);
	v = pending(1);
	assert_string_equal(v[0].target, c); /* not covered: still asked */
	struct ward_verdict verdict;
	snprintf(a, sizeof(a), "%s/cache/x/deeper/three", vars.home);
	assert_true(ask_grant_path(WARD_OP_WRITE, a, &verdict));
	assert_int_equal(verdict.action, WARD_ALLOW);
	assert_false(ask_grant_path(WARD_OP_READ, a, &verdict)); /* that op only */
	assert_int_equal(ask_answer(v[0].serial, ANSWER_DENY, 0), 0);
	wait_done(&k[2], 1);
	assert_int_equal(k[2].r.rc, -EACCES);
	free(v);
}

/* No answer in time: a deny this once, no grant. */
static void test_timeout(void **state)
{
	(void)state;
	struct caller k;

	init(1, true);
	int64_t t0 = ms();
	start(&k, WARD_OP_WRITE, "/x/slow");
	wait_done(&k, 1);
	assert_true(ms() - t0 >= 1000);
	assert_int_equal(k.r.rc, -EACCES);
	assert_int_equal(k.r.answer, ANSWER_TIMEOUT);
	assert_string_equal(k.r.by, "timeout");
	struct ward_verdict verdict;
	assert_false(ask_grant_path(WARD_OP_WRITE, "/x/slow", &verdict));
	free(pending(0));
}

/* The caller went away: the question is withdrawn, soon gone from the list. */
static void test_withdrawn(void **state)
{
	(void)state;
	struct caller k;

	init(300, true);
	start(&k, WARD_OP_DELETE, "/x/gone");
	struct ask_view *v = pending(1);
	unsigned serial = v[0].serial;
	free(v);
	atomic_store(&k.gone, true);
	wait_done(&k, 1);
	assert_int_equal(k.r.rc, -ESRCH);
	assert_int_equal(k.r.answer, ANSWER_WITHDRAWN);
	free(pending(0)); /* after its second's grace */
	assert_int_equal(ask_answer(serial, ANSWER_ONCE, 0), -ESRCH);
	json_t *a = ask_answers_json();
	assert_string_equal(json_string_value(json_object_get(json_array_get(a, 0), "answer")), "withdrawn");
	json_decref(a);
}

/* A call restarted (interrupted by a signal) within the grace finds its question still up. */
static void test_restarted(void **state)
{
	(void)state;
	struct caller k, again;

	init(300, true);
	start(&k, WARD_OP_DELETE, "/x/restart");
	struct ask_view *v = pending(1);
	unsigned serial = v[0].serial;
	free(v);
	atomic_store(&k.gone, true);
	wait_done(&k, 1);
	start(&again, WARD_OP_DELETE, "/x/restart");
	v = pending(1);
	int64_t until = ms() + 10000;
	while (v[0].waiters == 0 && ms() < until) {
		free(v);
		v = pending(1);
	}
	assert_int_equal(v[0].serial, serial);
	assert_int_equal(ask_answer(serial, ANSWER_ONCE, 0), 0);
	wait_done(&again, 1);
	assert_int_equal(again.r.rc, 0);
	free(v);
	/* Answered while no call waited on it: the call back within the second takes the answer. */
	start(&k, WARD_OP_DELETE, "/x/restart2");
	v = pending(1);
	serial = v[0].serial;
	free(v);
	atomic_store(&k.gone, true);
	wait_done(&k, 1);
	assert_int_equal(ask_answer(serial, ANSWER_ONCE, 0), 0);
	start(&again, WARD_OP_DELETE, "/x/restart2");
	wait_done(&again, 1);
	assert_int_equal(again.r.rc, 0);
	assert_int_equal(again.r.serial, serial);
	free(pending(0));
}

/* Always and deny always: appended to the user's policy, which loads and decides so. */
static void test_always(void **state)
{
	(void)state;
	struct caller k[2];
	char a[512], b[512], text[8192];
	struct ward_error err;
	struct ward_verdict verdict;

	init(300, true);
	/* ~/.config/ward made as it is needed (a first saved rule). */
	struct caller first;
	start(&first, WARD_OP_WRITE, "/x/first-saved");
	struct ask_view *v = pending(1);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_ALWAYS, 0), 0);
	wait_done(&first, 1);
	assert_int_equal(first.r.rc, 0);
	free(v);
	struct stat st;
	assert_int_equal(stat(vars.xdg_config_home, &st), 0);
	assert_int_equal(st.st_mode & 0777, 0700);
	FILE *f = fopen(policy_path, "w");
	fputs("# mine\nallow read /opt/**", f); /* no newline at its end */
	fclose(f);
	snprintf(a, sizeof(a), "%s/.local/bin/tool", vars.home);
	snprintf(b, sizeof(b), "%s/.ssh/config", vars.home);
	start(&k[0], WARD_OP_CREATE, a);
	free(pending(1));
	start(&k[1], WARD_OP_WRITE, b);
	v = pending(2);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_ALWAYS, 0), 0);
	assert_int_equal(ask_answer(v[1].serial, ANSWER_DENY_ALWAYS, 1), 0);
	wait_done(k, 2);
	assert_int_equal(k[0].r.rc, 0);
	assert_string_equal(k[0].r.file, policy_path);
	assert_int_equal(k[1].r.rc, -EACCES);
	f = fopen(policy_path, "r");
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	assert_memory_equal(text, "# mine\nallow read /opt/**\n# allowed always by the person at ", 58);
	assert_non_null(strstr(text, "ward session 5f3a9c1e (node, pid "));
	char want[1024];
	assert_non_null(strstr(text, "\nallow create \"~/.local/bin/tool\"\n"));
	snprintf(want, sizeof(want), "\ndeny write \"~/.ssh/*\"\n");
	assert_non_null(strstr(text, want));
	/* The next session's policy: it decides without asking. */
	struct ward_policy *p = ward_policy_new(&vars);
	assert_int_equal(ward_policy_add_file(p, WARD_LAYER_USER, policy_path, &err), 0);
	assert_int_equal(ward_decide_path(p, WARD_OP_CREATE, a, &verdict), 0);
	assert_int_equal(verdict.action, WARD_ALLOW);
	snprintf(a, sizeof(a), "%s/.ssh/known_hosts", vars.home);
	assert_int_equal(ward_decide_path(p, WARD_OP_WRITE, a, &verdict), 0);
	assert_int_equal(verdict.action, WARD_DENY);
	ward_policy_free(p);
	/* ...and this session's grants already do. */
	assert_true(ask_grant_path(WARD_OP_WRITE, a, &verdict));
	assert_int_equal(verdict.action, WARD_DENY);
	free(v);
}

/* A path no rule can name (a newline in it): once and deny only. */
static void test_unnameable(void **state)
{
	(void)state;
	struct caller k;

	init(300, true);
	start(&k, WARD_OP_WRITE, "/x/new\nline");
	struct ask_view *v = pending(1);
	assert_int_equal(v[0].nrungs, 0);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_SESSION, 0), -EINVAL);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_ONCE, 0), 0);
	wait_done(&k, 1);
	assert_int_equal(k.r.rc, 0);
	free(v);
}

/* Network targets: the ladder of host, port and domain. */
static void test_net(void **state)
{
	(void)state;
	struct caller k;
	struct ward_net_target t = { .kind = WARD_NET_INET, .port = 443, .host = "registry.example.org" };
	memcpy(t.addr, "\0\0\0\0\0\0\0\0\0\0\377\377\150\020\003\042", 16);

	init(300, true);
	prepare(&k, WARD_OP_CONNECT, "/usr/bin/curl");
	k.c.net = &t;
	launch(&k);
	struct ask_view *v = pending(1);
	assert_string_equal(v[0].target, "registry.example.org:443");
	assert_string_equal(v[0].extra, "104.16.3.34");
	assert_int_equal(v[0].nrungs, 3);
	assert_string_equal(v[0].rung[0], "registry.example.org:443");
	assert_string_equal(v[0].rung[1], "registry.example.org:*");
	assert_string_equal(v[0].rung[2], "*.example.org:443");
	assert_int_equal(ask_answer(v[0].serial, ANSWER_SESSION, 1), 0);
	wait_done(&k, 1);
	assert_int_equal(k.r.rc, 0);
	struct ward_verdict verdict;
	t.port = 8443;
	assert_true(ask_grant_net(WARD_OP_CONNECT, &t, &verdict));
	assert_int_equal(verdict.action, WARD_ALLOW);
	free(v);

	/* One name, two addresses: two questions, each answer for the address it showed. */
	struct caller two[2];
	struct ward_net_target ta[2] = { t, t };
	ta[0].host = ta[1].host = "cdn.example.net";
	ta[1].addr[15] = 0x43;
	init(300, true);
	for (int i = 0; i < 2; i++) {
		prepare(&two[i], WARD_OP_CONNECT, "/usr/bin/curl");
		two[i].c.net = &ta[i];
		launch(&two[i]);
		free(pending((size_t)i + 1));
	}
	v = pending(2);
	assert_string_not_equal(v[0].extra, v[1].extra);
	for (int i = 0; i < 2; i++)
		assert_int_equal(ask_answer(v[i].serial, ANSWER_DENY, 0), 0);
	wait_done(two, 2);
	free(v);
}

/*
 * An exec's argv: shown whole, each argument quoted where a shell would
 * need it (a quote inside with no backslash), the line's copy of each cut
 * at 32 bytes, what was not kept counted; two argvs alike in what was kept
 * but not in all of it (their MACs differ) are two questions, not one.
 */
static void test_exec_argv(void **state)
{
	(void)state;
	static const char argv[] = "/usr/bin/git\0commit\0-m\0two words\0it's\0\0"
				   "0123456789012345678901234567890123456789";
	static const unsigned char id[2][32] = { { 1 }, { 2 } };
	struct caller k[2];

	init(300, true);
	for (int i = 0; i < 2; i++) {
		prepare(&k[i], WARD_OP_EXEC, "/usr/bin/bash");
		k[i].c.path = "/usr/bin/git";
		k[i].c.argv = argv;
		k[i].c.argv_len = sizeof(argv);
		k[i].c.argv_total = sizeof(argv) + 100;
		k[i].c.argv_id = id[i];
		launch(&k[i]);
		free(pending((size_t)i + 1));
	}
	struct ask_view *v = pending(2);
	for (int i = 0; i < 2; i++) {
		assert_int_equal(v[i].kind, 'x');
		assert_string_equal(v[i].target, "/usr/bin/git");
		assert_string_equal(v[i].argv, "/usr/bin/git commit -m 'two words' 'it'\"'\"'s' '' "
					       "0123456789012345678901234567890123456789 [100 more bytes]");
		assert_string_equal(v[i].args, "commit -m 'two words' 'it'\"'\"'s' '' "
					       "01234567890123456789012345678901\u2026");
		assert_int_equal(ask_answer(v[i].serial, ANSWER_DENY, 0), 0);
	}
	wait_done(k, 2);
	assert_int_equal(k[0].r.rc, -EACCES);
	assert_int_equal(k[1].r.rc, -EACCES);
	free(v);
}

/*
 * An argv whose quoting grows past the view (quotes are five bytes each):
 * whole arguments only, and what is not shown counted, never cut silently.
 */
static void test_exec_argv_quotes(void **state)
{
	(void)state;
	static char argv[4000];
	struct caller k;
	size_t n = 0;

	n += (size_t)snprintf(argv, sizeof(argv), "/usr/bin/python3") + 1;
	n += (size_t)snprintf(argv + n, sizeof(argv) - n, "-c") + 1;
	memset(argv + n, '\'', 1500); /* 7,500 bytes quoted */
	n += 1500 + 1;
	n += (size_t)snprintf(argv + n, sizeof(argv) - n, "payload") + 1;
	init(300, true);
	prepare(&k, WARD_OP_EXEC, "/usr/bin/bash");
	k.c.path = "/usr/bin/python3";
	k.c.argv = argv;
	k.c.argv_len = n;
	k.c.argv_total = n;
	launch(&k);
	struct ask_view *v = pending(1);
	char want[64];
	snprintf(want, sizeof(want), "/usr/bin/python3 -c [%zu more bytes]", n - 20);
	assert_string_equal(v[0].argv, want);
	assert_int_equal(ask_answer(v[0].serial, ANSWER_DENY, 0), 0);
	wait_done(&k, 1);
	free(v);
}

/* More new questions than a person could answer: the undecided answer, and a notice. */
static void test_flood(void **state)
{
	(void)state;
	static struct caller k[80];
	char path[64], notice[256];
	int undecided = 0;

	init(300, true);
	for (int i = 0; i < 80; i++) {
		snprintf(path, sizeof(path), "/x/flood/%d", i);
		start(&k[i], WARD_OP_WRITE, path);
	}
	/* The ones let through wait as questions; deny them all. */
	int64_t until = ms() + 10000;
	for (;;) {
		struct ask_view *v;
		size_t n;
		assert_int_equal(ask_list(&v, &n), 0);
		for (size_t i = 0; i < n; i++)
			ask_answer(v[i].serial, ANSWER_DENY, 0);
		free(v);
		int done = 0;
		for (int i = 0; i < 80; i++)
			done += atomic_load(&k[i].done);
		if (done == 80 || ms() > until)
			break;
	}
	wait_done(k, 80);
	for (int i = 0; i < 80; i++) {
		assert_int_equal(k[i].r.rc, -EACCES);
		undecided += k[i].r.answer == ANSWER_UNDECIDED;
	}
	assert_true(undecided >= 80 - 31 - 2); /* a burst of 30, and a few more a second */
	ask_notice(notice, sizeof(notice));
	assert_non_null(strstr(notice, "answered as `set undecided` (deny)"));
}

/* Appending keeps a symlinked policy a symlink, and the file's text. */
static void test_append_symlink(void **state)
{
	(void)state;
	char real[512], link[512], text[1024];

	snprintf(real, sizeof(real), "%s/dotfiles-policy", base);
	snprintf(link, sizeof(link), "%s/linked-policy", base);
	FILE *f = fopen(real, "w");
	fputs("allow read /srv/**\n", f);
	fclose(f);
	assert_int_equal(symlink(real, link), 0);
	assert_int_equal(policy_append(link, "# c", "allow write \"/w\""), 0);
	struct stat st;
	assert_int_equal(lstat(link, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	f = fopen(real, "r");
	size_t n = fread(text, 1, sizeof(text) - 1, f);
	fclose(f);
	text[n] = '\0';
	assert_string_equal(text, "allow read /srv/**\n# c\nallow write \"/w\"\n");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_no_one_to_ask),
		cmocka_unit_test(test_once),
		cmocka_unit_test(test_merge),
		cmocka_unit_test(test_queue_and_session),
		cmocka_unit_test(test_timeout),
		cmocka_unit_test(test_withdrawn),
		cmocka_unit_test(test_restarted),
		cmocka_unit_test(test_always),
		cmocka_unit_test(test_unnameable),
		cmocka_unit_test(test_net),
		cmocka_unit_test(test_exec_argv),
		cmocka_unit_test(test_exec_argv_quotes),
		cmocka_unit_test(test_flood),
		cmocka_unit_test(test_append_symlink),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
