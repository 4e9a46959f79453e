/*
 * bench_rules.c - decisions per second of the rule engine on a 2,000-rule
 * policy, uncached and cached.  Targets (DESIGN.md §7, issue 2): uncached
 * at most 2 us a decision, cached at most 0.2 us, on a 2-core machine.
 *
 * The policy is shaped like a large real one: literal files, directory
 * trees, extension globs and "**" patterns spread over many directories.
 * Each measurement is repeated; the median is printed.
 */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "timing.h"
#include "ward_rules.h"

#define NRULES 2000
#define NQUERIES 20000
#define REPEATS 7

static const char *const tops[] = { "usr", "home/u", "srv", "opt", "var/lib", "etc", "data", "work" };
static const char *const exts[] = { "c", "h", "py", "js", "json", "toml", "so", "txt" };
static const char *const acts[] = { "allow", "deny", "allow", "ask", "allow", "deny(EROFS)" };
static const char *const ops[] = { "read", "write,create", "read,stat", "exec", "delete", "*" };

static void machine(void)
{
	struct utsname u;
	char line[256], model[256] = "unknown";
	FILE *f = fopen("/proc/cpuinfo", "r");

	if (f != NULL) {
		while (fgets(line, sizeof(line), f))
			if (strncmp(line, "model name", 10) == 0) {
				snprintf(model, sizeof(model), "%s", strchr(line, ':') + 2);
				model[strcspn(model, "\n")] = '\0';
				break;
			}
		fclose(f);
	}
	uname(&u);
	printf("machine: %s, %ld CPUs, %s %s\n", model, sysconf(_SC_NPROCESSORS_ONLN),
	       u.sysname, u.release);
}

int main(void)
{
	struct ward_vars vars = {
		.home = "/home/u", .project = "/work/p", .tmpdir = "/tmp",
		.session = "/tmp/ward-1000/s", .xdg_runtime_dir = "/run/user/1000",
		.xdg_config_home = "/home/u/.config", .xdg_state_home = "/home/u/.local/state",
		.uid = "1000", .user = "u",
	};
	struct ward_error err;
	size_t cap = 1 << 20, len = 0;
	char *text = malloc(cap);
	char **queries = malloc(sizeof(char *) * NQUERIES);
	struct ward_verdict v;
	double t0, samples[REPEATS];
	unsigned seed = 42;

	if (text == NULL || queries == NULL)
		return 1;
	for (int i = 0; i < NRULES; i++) {
		const char *top = tops[i % 8];
		int d = i / 8 % 40, kind = i % 5;
		switch (kind) {
		case 0:
			len += (size_t)snprintf(text + len, cap - len, "%s %s /%s/d%d/f%d.%s\n",
						acts[i % 6], ops[i % 6], top, d, i, exts[i % 8]);
			break;
		case 1:
			len += (size_t)snprintf(text + len, cap - len, "%s %s /%s/d%d/sub%d/**\n",
						acts[i % 6], ops[i % 6], top, d, i % 13);
			break;
		case 2:
			len += (size_t)snprintf(text + len, cap - len, "%s %s /%s/d%d/*.%s\n",
						acts[i % 6], ops[i % 6], top, d, exts[i % 8]);
			break;
		case 3:
			len += (size_t)snprintf(text + len, cap - len, "%s %s /%s/d%d/**/n%d[0-9]\n",
						acts[i % 6], ops[i % 6], top, d, i % 17);
			break;
		default:
			len += (size_t)snprintf(text + len, cap - len, "%s %s /%s/d%d/x?%d/*/y\n",
						acts[i % 6], ops[i % 6], top, d, i % 7);
		}
	}
	/* A few rules that every path meets, as real policies have. */
	len += (size_t)snprintf(text + len, cap - len,
				"allow read,stat /**\ndeny read ~/.ssh/**\nallow write $PROJECT/**\n");

	machine();
	struct ward_policy *p = ward_policy_new(&vars);
	t0 = now();
	if (p == NULL || ward_policy_add_text(p, WARD_LAYER_FILE, "bench", text, len, &err) < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		return 1;
	}
	printf("policy: %zu rules compiled in %.1f ms\n", ward_policy_rule_count(p),
	       (now() - t0) / 1e6);

	for (int i = 0; i < NQUERIES; i++) {
		char q[512];
		int r = (int)(rand_r(&seed) % NRULES);
		snprintf(q, sizeof(q), "/%s/d%d/sub%d/n%d%d/f%d.%s", tops[r % 8], r / 8 % 40,
			 rand_r(&seed) % 16, r % 17, rand_r(&seed) % 10, r, exts[rand_r(&seed) % 8]);
		/* Half the queries are shorter: cut at a random '/'. */
		if (i % 2) {
			char *cut = strrchr(q, '/');
			if (cut != q)
				*cut = '\0';
		}
		queries[i] = strdup(q);
	}

	/* Uncached. */
	for (int rep = 0; rep < REPEATS; rep++) {
		t0 = now();
		for (int i = 0; i < NQUERIES; i++)
			ward_decide_path(p, (enum ward_op)(1u << (i % 6)), queries[i], &v);
		samples[rep] = (now() - t0) / NQUERIES;
	}
	double uncached = median(samples, REPEATS) / 1e9; /* seconds */

	/* Cached: warm the cache, then the same queries again. */
	struct ward_cache *c = ward_cache_new(NQUERIES * 2);
	bool hit;
	for (int i = 0; i < NQUERIES; i++)
		ward_cache_decide_path(c, p, (enum ward_op)(1u << (i % 6)), queries[i], &v, &hit);
	for (int rep = 0; rep < REPEATS; rep++) {
		t0 = now();
		for (int i = 0; i < NQUERIES; i++)
			ward_cache_decide_path(c, p, (enum ward_op)(1u << (i % 6)), queries[i], &v,
					       &hit);
		samples[rep] = (now() - t0) / NQUERIES;
	}
	double cached = median(samples, REPEATS) / 1e9;

	printf("%-10s %12s %14s %10s  %s\n", "decision", "us/decision", "decisions/s", "target", "");
	printf("%-10s %12.3f %14.0f %10s  %s\n", "uncached", uncached * 1e6, 1 / uncached,
	       "<= 2 us", uncached <= 2e-6 ? "met" : "MISSED");
	printf("%-10s %12.3f %14.0f %10s  %s\n", "cached", cached * 1e6, 1 / cached,
	       "<= 0.2 us", cached <= 0.2e-6 ? "met" : "MISSED");
	printf("(median of %d runs of %d decisions each)\n", REPEATS, NQUERIES);

	ward_cache_free(c);
	ward_policy_free(p);
	for (int i = 0; i < NQUERIES; i++)
		free(queries[i]);
	free(queries);
	free(text);
	return 0;
}
