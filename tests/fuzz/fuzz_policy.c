/*
 * fuzz_policy.c - libFuzzer target for the policy parser and matcher.
 *
 * Input: policy text, optionally followed by a line "\x01QUERY".  The
 * text is loaded as one layer; then a fixed set of paths and network
 * targets, and QUERY itself (as a path, a network target and a glob), are
 * decided.  Nothing may crash, leak, read out of bounds or hang.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "glob.h"
#include "ward_rules.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const paths[] = {
	"/", "/tmp/ward-fuzz/home/.ssh/id_rsa", "/tmp/ward-fuzz/proj/src/a.c",
	"/usr/bin/sudo", "/proc/1/environ", "/etc/passwd", "memfd:x",
	"/tmp/ward-fuzz/home/.cache/a/b",
};
static const char *const nets[] = {
	"127.0.0.1:80", "[::1]:443", "169.254.169.254:80", "example.com:443",
	"a.b.github.com:22", "[::ffff:10.1.2.3]:5432", "unix:/run/user/1/bus",
	"unix-abstract:x/y",
};

static void decide_all(const struct ward_policy *p, const char *query)
{
	struct ward_verdict v;
	struct ward_net_target t;
	char buf[4096], line[8192];

	for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
		for (unsigned op = WARD_OP_READ; op <= WARD_OP_STAT; op <<= 1)
			if (ward_decide_path(p, op, paths[i], &v) == 0)
				ward_verdict_format(&v, op, paths[i], line, sizeof(line));
	for (size_t i = 0; i < sizeof(nets) / sizeof(nets[0]); i++)
		if (ward_net_target_parse(nets[i], &t, buf, sizeof(buf)) == 0)
			ward_decide_net(p, WARD_OP_CONNECT, &t, &v);
	ward_policy_moves_guarded(p, "/tmp/ward-fuzz/home/.cache/a", "/tmp/ward-fuzz/proj/a");
	ward_policy_moves_guarded(p, "/tmp/ward-fuzz/proj/src", "/");
	if (query == NULL)
		return;
	if (ward_path_normalize("/tmp", query, buf, sizeof(buf)) == 0) {
		ward_decide_path(p, WARD_OP_READ, buf, &v);
		ward_policy_moves_guarded(p, buf, "/tmp/ward-fuzz/proj/q");
	}
	if (ward_net_target_parse(query, &t, buf, sizeof(buf)) == 0) {
		t.session = query[0] & 1;
		ward_decide_net(p, WARD_OP_BIND, &t, &v);
	}
	const char *why;
	struct glob *g = glob_compile(query, GLOB_PATH, &why);
	if (g != NULL) {
		for (size_t i = 0; i < sizeof(paths) / sizeof(paths[0]); i++)
			glob_match(g, paths[i]);
		glob_match(g, query);
		glob_free(g);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct ward_vars vars = {
		.home = "/tmp/ward-fuzz/home",
		.project = "/tmp/ward-fuzz/proj",
		.tmpdir = "/tmp/ward-fuzz/tmp",
		.session = "/tmp/ward-fuzz/tmp/s",
		.xdg_runtime_dir = "/tmp/ward-fuzz/run",
		.xdg_config_home = "/tmp/ward-fuzz/home/.config",
		.xdg_state_home = "/tmp/ward-fuzz/home/.local/state",
		.uid = "1000",
		.user = "fuzz",
	};
	struct ward_error err;
	char *query = NULL;
	size_t textlen = size;

	const uint8_t *mark = memchr(data, '\x01', size);
	if (mark != NULL) {
		textlen = (size_t)(mark - data);
		size_t qlen = size - textlen - 1;
		query = malloc(qlen + 1);
		if (query == NULL)
			return 0;
		memcpy(query, mark + 1, qlen);
		query[qlen] = '\0';
	}
	struct ward_policy *p = ward_policy_new(&vars);
	if (p == NULL) {
		free(query);
		return 0;
	}
	if (ward_policy_add_text(p, WARD_LAYER_FILE, "fuzz", (const char *)data, textlen,
				 &err) == 0) {
		decide_all(p, query);
		char *dump = ward_policy_dump(p);
		free(dump);
	}
	ward_policy_add_rule(p, query ? query : "allow read /x", &err);
	decide_all(p, query);
	ward_policy_free(p);
	free(query);
	return 0;
}
