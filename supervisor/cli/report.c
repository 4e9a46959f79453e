/*
 * report.c - ward report: what a session touched, on the terminal, as
 * JSON, or as a page (html.c).
 *
 * The terminal report fits 100 columns, leads each section with what a
 * person most needs to see, and shows a bounded number of lines a section
 * (--all: every one).  The JSON document always holds everything.
 */
#include "report.h"
#include "cli.h"

#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define WIDTH 100
#define SECTION_LINES 12
#define TREE_LINES 30

static const char help[] =
	"usage: ward report [ID|LOG] [--json] [--html FILE] [--all]\n"
	"\n"
	"What a session touched: what it changed outside the project and in it,\n"
	"what it read outside the project, the programs it ran, where it connected,\n"
	"and what was refused or asked, with the rule that would allow it.\n"
	"ID is a session id or its first characters (ward sessions lists them), LOG\n"
	"a log file; without either, the newest session.\n"
	"\n"
	"  --json        the same summary as one JSON document (docs/report.md)\n"
	"  --html FILE   also write it as a self-contained page to FILE\n"
	"  --all         every entry of every section, not only the first ones\n";

/* ---- text helpers ---- */

const char *safe_q(const char *s, char *buf, size_t len)
{
	size_t o = 0;
	for (const unsigned char *c = (const unsigned char *)s; *c && o + 5 < len;) {
		size_t n = *c < 0x80 ? 1 : utf8_len(c);
		/* C0, DEL, C1 (U+0080..U+009F) and bytes outside a UTF-8 sequence. */
		if (n == 0 || (n == 1 && (*c < 0x20 || *c == 0x7f)) ||
		    (n == 2 && c[0] == 0xc2 && c[1] <= 0x9f)) {
			buf[o++] = '?';
			c += n ? n : 1;
			continue;
		}
		memcpy(buf + o, c, n);
		o += n;
		c += n;
	}
	buf[o] = '\0';
	return buf;
}

const char *argv_line(const json_t *argv, char *buf, size_t len)
{
	size_t o = 0, i;
	json_t *v;
	char arg[4 * 1024 + 8];

	buf[0] = '\0';
	json_array_foreach(argv, i, v) {
		const char *a = json_string_value(v);
		if (a == NULL || o + 4 >= len)
			break;
		safe_q(a, arg, sizeof(arg));
		bool quote = arg[0] == '\0' || strpbrk(arg, " \t'\"\\$`*?[]{}()<>|&;#~") != NULL;
		o += (size_t)snprintf(buf + o, len - o, "%s%s%s%s", i ? " " : "", quote ? "'" : "",
				      arg, quote ? "'" : "");
		if (o >= len) {
			o = len - 1;
			break;
		}
	}
	return buf;
}

const char *duration_text(double secs, char *buf, size_t len)
{
	if (secs < 0)
		snprintf(buf, len, "?");
	else if (secs < 1)
		snprintf(buf, len, "%d ms", (int)(secs * 1000 + 0.5));
	else if (secs < 10)
		snprintf(buf, len, "%.1f s", secs);
	else if (secs < 60)
		snprintf(buf, len, "%.0f s", secs);
	else if (secs < 3600)
		snprintf(buf, len, "%d min %02d s", (int)secs / 60, (int)secs % 60);
	else
		snprintf(buf, len, "%d h %02d min", (int)(secs / 3600), ((int)secs % 3600) / 60);
	return buf;
}

const char *time_text(int64_t us, char *buf, size_t len)
{
	if (us == LEV_NONE) {
		snprintf(buf, len, "?");
		return buf;
	}
	time_t t = (time_t)(us / 1000000);
	struct tm tm;
	gmtime_r(&t, &tm);
	strftime(buf, len, "%Y-%m-%d %H:%M:%S", &tm);
	return buf;
}

/* Display columns of UTF-8 text (one a character). */
static size_t cols(const char *s)
{
	size_t n = 0;
	for (const unsigned char *c = (const unsigned char *)s; *c; c++)
		if ((*c & 0xC0) != 0x80)
			n++;
	return n;
}

/* The byte offset of column col in s. */
static size_t col_offset(const char *s, size_t col)
{
	size_t n = 0, i = 0;
	for (; s[i]; i++)
		if (((unsigned char)s[i] & 0xC0) != 0x80 && n++ == col)
			return i;
	return i;
}

/* s in at most w columns: the middle left out ("…"), where a path is least telling. */
static const char *fit(const char *s, size_t w, char *buf, size_t len)
{
	size_t c = cols(s);
	if (c <= w || w < 5) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	size_t head = (w - 1) / 3, tail = w - 1 - head;
	size_t h = col_offset(s, head), t = col_offset(s, c - tail);
	snprintf(buf, len, "%.*s…%s", (int)h, s, s + t);
	return buf;
}

/* s cut at its end to w columns. */
static const char *fit_end(const char *s, size_t w, char *buf, size_t len)
{
	if (cols(s) <= w) {
		snprintf(buf, len, "%s", s);
		return buf;
	}
	snprintf(buf, len, "%.*s…", (int)col_offset(s, w - 1), s);
	return buf;
}

/* ---- the terminal ---- */

struct out {
	FILE *f;
	bool color, all;
};

static const char *on(const struct out *o, const char *code)
{
	return o->color ? code : "";
}
#define BOLD "\033[1m"
#define RED "\033[31m"
#define YELLOW "\033[33m"
#define GREEN "\033[32m"
#define DIM "\033[2m"
#define OFF "\033[0m"

/* "  left<pad>right", left given w columns. */
static void row(const struct out *o, const char *indent, const char *left, size_t w,
		const char *right, const char *color)
{
	char l[3 * WIDTH], r[6 * WIDTH];
	size_t rest = WIDTH - cols(indent) - w - 2;
	fit(left, w, l, sizeof(l));
	if (right != NULL && right[0] != '\0' && cols(l) < w + 1) {
		fit_end(right, rest, r, sizeof(r));
		fprintf(o->f, "%s%s%s%*s  %s%s\n", indent, on(o, color), l, (int)(w - cols(l)), "", r,
			on(o, color[0] ? OFF : ""));
	} else {
		fprintf(o->f, "%s%s%s%s\n", indent, on(o, color), l, on(o, color[0] ? OFF : ""));
	}
}

static void title(const struct out *o, const char *name, const char *counts)
{
	fprintf(o->f, "\n%s%s%s%s%s%s\n", on(o, BOLD), name, on(o, OFF), counts[0] ? "  " : "",
		counts, "");
}

static void more(const struct out *o, size_t n, const char *what)
{
	if (n > 0)
		fprintf(o->f, "  %s… and %zu more %s (--all shows them)%s\n", on(o, DIM), n, what,
			on(o, OFF));
}

/* ---- paths grouped by directory ---- */

struct group {
	char dir[PATH_MAX];
	size_t from, to; /* in the sorted array */
	uint32_t did;
	int weight;
	unsigned flagged;
};

static int by_dir_name(const void *x, const void *y)
{
	const struct pent *a = *(struct pent *const *)x, *b = *(struct pent *const *)y;
	const char *sa = strrchr(a->path, '/'), *sb = strrchr(b->path, '/');
	size_t da = (size_t)(sa - a->path), db = (size_t)(sb - b->path);
	int c = strncmp(a->path, b->path, da < db ? da : db);
	if (c != 0)
		return c;
	if (da != db)
		return da < db ? -1 : 1;
	return strcmp(sa, sb);
}

static int group_cmp(const void *x, const void *y)
{
	const struct group *a = x, *b = y;
	if (a->flagged != b->flagged)
		return a->flagged > b->flagged ? -1 : 1;
	if (a->weight != b->weight)
		return a->weight > b->weight ? -1 : 1;
	return strcmp(a->dir, b->dir);
}

/* The directory of p as shown: relative to base ("./" for base itself), else shortened. */
static void dir_label(const struct summary *s, const char *base, const char *dir, char *buf,
		      size_t len)
{
	size_t n = base ? strlen(base) : 0;
	if (base != NULL && strncmp(dir, base, n) == 0 && (dir[n] == '\0' || dir[n] == '/')) {
		snprintf(buf, len, "%s/", dir[n] ? dir + n + 1 : ".");
		return;
	}
	char sh[PATH_MAX + 2];
	summary_short_path(s, dir[0] ? dir : "/", sh, sizeof(sh));
	snprintf(buf, len, "%s%s", sh, strcmp(sh, "/") ? "/" : "");
}

/*
 * The length of the directory that groups path at depth d: its parent cut
 * to d components below base (the whole parent when it has fewer).
 */
static size_t group_len(const char *path, size_t baselen, int d)
{
	const char *parent_end = strrchr(path, '/');
	const char *p = path + baselen;
	for (int i = 0; i < d; i++) {
		const char *next = strchr(p + 1, '/');
		if (next == NULL || next >= parent_end)
			return (size_t)(parent_end - path);
		p = next;
	}
	return (size_t)(p - path);
}

/* A path and the length of the directory it is grouped under. */
struct keyed {
	struct pent *p;
	size_t kl;
};

/* By group, then by path: each group's paths together, in order. */
static int keyed_cmp(const void *x, const void *y)
{
	const struct keyed *a = x, *b = y;
	int c = memcmp(a->p->path, b->p->path, a->kl < b->kl ? a->kl : b->kl);
	if (c != 0)
		return c;
	if (a->kl != b->kl)
		return a->kl < b->kl ? -1 : 1;
	return pent_by_tree(&a->p, &b->p);
}

static bool same_group(const struct keyed *a, const struct keyed *b)
{
	return a->kl == b->kl && memcmp(a->p->path, b->p->path, a->kl) == 0;
}

/* k: the paths keyed for depth d, sorted by group. */
static void key_at(struct keyed *k, struct pent **a, size_t n, size_t baselen, int d)
{
	for (size_t i = 0; i < n; i++) {
		k[i].p = a[i];
		k[i].kl = group_len(a[i]->path, baselen, d);
	}
	qsort(k, n, sizeof(*k), keyed_cmp);
}

/* Lines a grouping takes: a group of few files lists them, a larger one is one line. */
static size_t lines_of(const struct keyed *k, size_t n)
{
	size_t lines = 0;
	for (size_t i = 0; i < n;) {
		size_t j = i + 1;
		while (j < n && same_group(&k[i], &k[j]))
			j++;
		lines += j - i <= 3 ? j - i : 1;
		i = j;
	}
	return lines;
}

/*
 * Print paths grouped by directory: as deep as the lines allow, a
 * directory of few files listing them, one of many saying how many and
 * what was done to them ("src/  41 files: written").  show: the did bits
 * that matter here.
 */
static void print_grouped(const struct out *o, const struct summary *s, struct pent **a, size_t n,
			  const char *base, uint32_t show, bool weigh, const char *what)
{
	char label[PATH_MAX + 8], safe[4 * PATH_MAX], desc[512], buf[PATH_MAX + 8];
	size_t baselen = base ? strlen(base) : 0;
	if (n == 0)
		return;
	struct keyed *k = calloc(n, sizeof(*k));
	if (k == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	/*
	 * The deepest grouping that fits (a binary search: deeper takes more
	 * lines); everything, one a line, with --all.
	 */
	int depth = 64;
	key_at(k, a, n, baselen, depth);
	if (!o->all && n > SECTION_LINES && lines_of(k, n) > SECTION_LINES) {
		int lo = 1, hi = 8;
		while (lo < hi) {
			int mid = (lo + hi + 1) / 2;
			key_at(k, a, n, baselen, mid);
			if (lines_of(k, n) <= SECTION_LINES)
				lo = mid;
			else
				hi = mid - 1;
		}
		depth = lo;
		key_at(k, a, n, baselen, depth);
	}
	struct group *g = calloc(n, sizeof(*g));
	size_t ng = 0;
	if (g == NULL)
		die(WARD_EXIT_FAILURE, "out of memory");
	for (size_t i = 0; i < n; i++) {
		if (ng == 0 || !same_group(&k[g[ng - 1].from], &k[i])) {
			snprintf(g[ng].dir, sizeof(g[ng].dir), "%.*s", (int)k[i].kl, k[i].p->path);
			g[ng].from = i;
			g[ng].weight = weigh ? path_weight(s, k[i].p->path) : 0;
			ng++;
		}
		g[ng - 1].to = i + 1;
		g[ng - 1].did |= k[i].p->did & show;
		if (k[i].p->flag != NULL)
			g[ng - 1].flagged++;
	}
	qsort(g, ng, sizeof(*g), group_cmp);
	size_t lines = 0, left_paths = 0, left_dirs = 0;
	for (size_t gi = 0; gi < ng; gi++) {
		size_t files = g[gi].to - g[gi].from;
		bool list = o->all || n <= SECTION_LINES || files <= 3 || g[gi].flagged > 0;
		if (!o->all && lines >= SECTION_LINES) {
			left_paths += files;
			left_dirs++;
			continue;
		}
		dir_label(s, base, g[gi].dir, label, sizeof(label));
		if (!list) {
			did_text(g[gi].did, desc, sizeof(desc));
			snprintf(buf, sizeof(buf), "%zu files: %s", files, desc);
			row(o, "  ", safe_q(label, safe, sizeof(safe)), 44, buf, "");
			lines++;
			continue;
		}
		for (size_t i = g[gi].from; i < g[gi].to; i++) {
			const struct pent *p = k[i].p;
			char sh[PATH_MAX + 2];
			if (base != NULL)
				snprintf(buf, sizeof(buf), "%s%s", label, p->path + k[i].kl + 1);
			else
				summary_short_path(s, p->path, buf, sizeof(buf));
			did_text(p->did & show, desc, sizeof(desc));
			const char *color = "";
			if (p->flag != NULL) {
				snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), "  ! %s",
					 p->flag);
				color = YELLOW;
			}
			if (p->to != NULL)
				snprintf(desc + strlen(desc), sizeof(desc) - strlen(desc), " → %s",
					 summary_short_path(s, p->to, sh, sizeof(sh)));
			term_safe(buf, safe, sizeof(safe));
			char d2[4 * sizeof(desc)];
			row(o, "  ", safe, 44, term_safe(desc, d2, sizeof(d2)), color);
			lines++;
			if (!o->all && lines >= SECTION_LINES && i + 1 < g[gi].to) {
				left_paths += g[gi].to - i - 1;
				left_dirs++;
				break;
			}
		}
	}
	free(g);
	free(k);
	if (left_paths > 0) {
		char w[64];
		snprintf(w, sizeof(w), "%s in %zu director%s", what, left_dirs,
			 left_dirs == 1 ? "y" : "ies");
		more(o, left_paths, w);
	}
}

static size_t count_dirs(struct pent **a, size_t n)
{
	size_t d = 0;
	qsort(a, n, sizeof(*a), by_dir_name);
	for (size_t i = 0; i < n; i++) {
		const char *s1 = strrchr(a[i]->path, '/');
		if (i == 0) {
			d++;
			continue;
		}
		const char *s0 = strrchr(a[i - 1]->path, '/');
		if (s1 - a[i]->path != s0 - a[i - 1]->path ||
		    strncmp(a[i]->path, a[i - 1]->path, (size_t)(s1 - a[i]->path)) != 0)
			d++;
	}
	return d;
}

static void section_paths(const struct out *o, const struct summary *s)
{
	char counts[128];
	size_t n;
	struct pent **a;

	a = summary_paths_sorted(s, keep_changed_out, NULL, &n);
	snprintf(counts, sizeof(counts), "%zu path%s", n, n == 1 ? "" : "s");
	title(o, "Changed outside the project", counts);
	if (n == 0)
		fprintf(o->f, "  nothing\n");
	print_grouped(o, s, a, n, NULL, DID_CHANGE | DID_REWRITTEN, true, "paths");
	free(a);

	a = summary_paths_sorted(s, keep_changed_in, NULL, &n);
	snprintf(counts, sizeof(counts), "%zu path%s", n, n == 1 ? "" : "s");
	title(o, "Changed in the project", counts);
	if (n == 0)
		fprintf(o->f, "  nothing\n");
	print_grouped(o, s, a, n, s->project, DID_CHANGE, false, "paths");
	free(a);

	a = summary_paths_sorted(s, keep_read_out, NULL, &n);
	size_t flagged = 0;
	for (size_t i = 0; i < n; i++)
		flagged += a[i]->flag != NULL;
	size_t dirs = count_dirs(a, n);
	snprintf(counts, sizeof(counts), "%zu file%s in %zu director%s%s", n, n == 1 ? "" : "s",
		 dirs, dirs == 1 ? "y" : "ies", flagged ? ", " : "");
	if (flagged)
		snprintf(counts + strlen(counts), sizeof(counts) - strlen(counts),
			 "%s%zu that other rules refuse%s", on(o, YELLOW), flagged, on(o, OFF));
	title(o, "Read outside the project", counts);
	if (n == 0)
		fprintf(o->f, "  nothing\n");
	print_grouped(o, s, a, n, NULL, DID_READ, true, "files");
	free(a);
}

/* ---- programs ---- */

static void proc_desc(const struct proc *p, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	if (p->killed)
		o += (size_t)snprintf(buf + o, len - o, "killed by ward");
	else if (p->status != LEV_NONE)
		o += (size_t)snprintf(buf + o, len - o, "exit %lld", (long long)p->status);
	else
		o += (size_t)snprintf(buf + o, len - o, "no exit seen");
	if (p->is_static && o < len)
		snprintf(buf + o, len - o, ", static");
}

static const char *prog_of(const struct proc *p);

static const char *proc_name(const struct summary *s, const struct proc *p, char *buf,
			     size_t len)
{
	char safe[PATH_MAX];
	if (p->argv != NULL && json_array_size(p->argv) > 0)
		return argv_line(p->argv, buf, len);
	if (p->exe != NULL && p->exe[0])
		snprintf(buf, len, "%s", safe_q(p->exe, safe, sizeof(safe)));
	else if (p->parent >= 0)
		/* A fork that ran no program: its parent's program, in a process of its own. */
		snprintf(buf, len, "(fork of %s)",
			 safe_q(prog_of(&s->procs[p->parent]), safe, sizeof(safe)));
	else
		snprintf(buf, len, "(pid %lld)", (long long)p->pid);
	return buf;
}

struct tree_walk {
	const struct out *o;
	const struct summary *s;
	size_t lines, left;
	char prefix[256];
};

/* The basename of a process's program, to tell repeated siblings. */
static const char *prog_of(const struct proc *p)
{
	const char *a = p->argv && json_array_size(p->argv)
				? json_string_value(json_array_get(p->argv, 0))
				: p->exe;
	if (a == NULL || a[0] == '\0')
		return "?";
	const char *sl = strrchr(a, '/');
	return sl ? sl + 1 : a;
}

static size_t subtree_size(const struct summary *s, long i)
{
	size_t n = 1;
	for (long c = s->procs[i].child; c >= 0; c = s->procs[c].next)
		n += subtree_size(s, c);
	return n;
}

static void tree_print(struct tree_walk *w, long i, int depth, bool last)
{
	const struct proc *p = &w->s->procs[i];
	char name[4096], desc[128], left[4400];

	if (!w->o->all && w->lines >= TREE_LINES) {
		w->left += subtree_size(w->s, i);
		return;
	}
	size_t plen = strlen(w->prefix);
	proc_name(w->s, p, name, sizeof(name));
	proc_desc(p, desc, sizeof(desc));
	snprintf(left, sizeof(left), "%s%s%s", w->prefix, depth == 0 ? "" : last ? "└─ " : "├─ ",
		 name);
	char cut[4400];
	/* 2 + 76 + 2 + at most 20 ("no exit seen, static"): 100 columns. */
	fit_end(left, 76, cut, sizeof(cut));
	fprintf(w->o->f, "  %s%*s  %s%s%s\n", cut, (int)(76 - cols(cut)), "",
		on(w->o, p->killed || (p->status != LEV_NONE && p->status != 0) ? YELLOW : ""),
		desc, on(w->o, p->killed || (p->status != LEV_NONE && p->status != 0) ? OFF : ""));
	w->lines++;
	if (depth > 0 && plen + 8 < sizeof(w->prefix))
		strcat(w->prefix, last ? "   " : "│  ");
	/* Siblings running the same program, beyond the first three, said as a count. */
	const char *run = NULL;
	size_t same = 0, hidden = 0;
	for (long c = p->child; c >= 0; c = w->s->procs[c].next) {
		const struct proc *cp = &w->s->procs[c];
		const char *prog = prog_of(cp);
		if (run != NULL && strcmp(run, prog) == 0)
			same++;
		else
			same = 1;
		run = prog;
		bool is_last = cp->next < 0;
		if (!w->o->all && same > 3 && !is_last && strcmp(prog_of(&w->s->procs[cp->next]), prog) == 0 &&
		    cp->child < 0) {
			hidden++;
			continue;
		}
		if (hidden > 0) {
			char more_[512], cut_[1024];
			snprintf(more_, sizeof(more_), "%s├─ … %zu more %s", w->prefix, hidden, run);
			fprintf(w->o->f, "  %s%s%s\n", on(w->o, DIM),
				fit_end(more_, WIDTH - 2, cut_, sizeof(cut_)), on(w->o, OFF));
			w->lines++;
			hidden = 0;
		}
		tree_print(w, c, depth + 1, is_last);
	}
	w->prefix[plen] = '\0';
}

static void section_programs(const struct out *o, const struct summary *s)
{
	char counts[64];
	snprintf(counts, sizeof(counts), "%zu process%s", s->nprocs, s->nprocs == 1 ? "" : "es");
	title(o, "Programs run", counts);
	if (s->nprocs == 0) {
		fprintf(o->f, "  none\n");
		return;
	}
	struct tree_walk w = { .o = o, .s = s };
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].parent < 0)
			tree_print(&w, (long)i, 0, true);
	more(o, w.left, "processes");
}

/* ---- network, refusals, repositories ---- */

static void section_network(const struct out *o, const struct summary *s)
{
	size_t n;
	struct netent **a = summary_net_sorted(s, &n);
	char counts[64], desc[256], t0[32], t1[32], safe[4 * PATH_MAX];

	snprintf(counts, sizeof(counts), "%zu destination%s", n, n == 1 ? "" : "s");
	title(o, "Network", counts);
	if (n == 0)
		fprintf(o->f, "  none\n");
	for (size_t i = 0; i < n; i++) {
		if (!o->all && i >= SECTION_LINES) {
			more(o, n - i, "destinations");
			break;
		}
		const struct netent *e = a[i];
		size_t k = 0;
		k += (size_t)snprintf(desc + k, sizeof(desc) - k, "%s", e->event);
		if (e->allowed)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, ", %u allowed", e->allowed);
		if (e->denied)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, ", %u denied", e->denied);
		if (e->failed)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, ", %u failed", e->failed);
		time_text(e->first, t0, sizeof(t0));
		time_text(e->last, t1, sizeof(t1));
		if (e->first == e->last)
			snprintf(desc + k, sizeof(desc) - k, "  at %s", t0 + 11);
		else
			snprintf(desc + k, sizeof(desc) - k, "  %s – %s", t0 + 11, t1 + 11);
		if (e->host != NULL && e->addr != NULL) {
			char t[PATH_MAX];
			snprintf(t, sizeof(t), "%s (%s)", e->target, e->addr);
			row(o, "  ", term_safe(t, safe, sizeof(safe)), 44, desc, e->denied ? RED : "");
		} else {
			row(o, "  ", term_safe(e->target, safe, sizeof(safe)), 44, desc,
			    e->denied ? RED : "");
		}
	}
	free(a);
}

static void section_refused(const struct out *o, const struct summary *s)
{
	size_t n;
	struct refusal **a = summary_refusals_sorted(s, &n);
	char counts[64], left[PATH_MAX + 64], desc[1024], rule[4 * PATH_MAX], safe[4 * PATH_MAX];
	char tsafe[4 * PATH_MAX], line[4 * PATH_MAX], t[32];

	snprintf(counts, sizeof(counts), "%zu", n);
	title(o, "Refused and asked", counts);
	if (n == 0)
		fprintf(o->f, "  nothing\n");
	for (size_t i = 0; i < n; i++) {
		if (!o->all && i >= SECTION_LINES) {
			more(o, n - i, "refusals");
			break;
		}
		const struct refusal *r = a[i];
		char sh[PATH_MAX + 2];
		const char *target = r->target ? r->target : "?";
		if (target[0] == '/')
			target = summary_short_path(s, target, sh, sizeof(sh));
		snprintf(left, sizeof(left), "%-7s %s", r->op ? r->op : r->event,
			 term_safe(target, tsafe, sizeof(tsafe)));
		size_t k = 0;
		if (r->would)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, "would be denied");
		else if (r->asked)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, "asked, %s",
					      r->answer ? r->answer : r->denied ? "denied" : "allowed");
		else if (strcmp(r->event, "exec") == 0)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, "killed");
		else
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, "denied");
		if (r->asked && r->by && strcmp(r->by, "timeout") == 0)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, " (no answer in time)");
		if (r->err != NULL && r->denied)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, " %s", r->err);
		if (r->rule != NULL && strcmp(r->rule, "undecided") != 0)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, " · %s", r->rule);
		else if (r->by != NULL && strcmp(r->by, "undecided") == 0)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, " · no rule decided");
		if (r->count > 1)
			snprintf(desc + k, sizeof(desc) - k, " · %u times", r->count);
		char d2[4 * sizeof(desc)];
		row(o, "  ", left, 44, term_safe(desc, d2, sizeof(d2)), r->denied ? RED : "");

		/* Who, and when. */
		k = 0;
		if (r->exe != NULL && r->exe[0]) {
			const char *b = strrchr(r->exe, '/');
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, "%s ", b ? b + 1 : r->exe);
		}
		if (r->pid != LEV_NONE)
			k += (size_t)snprintf(desc + k, sizeof(desc) - k, "(pid %lld) ",
					      (long long)r->pid);
		time_text(r->first, t, sizeof(t));
		snprintf(desc + k, sizeof(desc) - k, "at %s", t + 11);
		fprintf(o->f, "          %s%s%s\n", on(o, DIM),
			fit_end(term_safe(desc, safe, sizeof(safe)), WIDTH - 10, line, sizeof(line)),
			on(o, OFF));
		if (r->reason != NULL)
			fprintf(o->f, "          %s%s%s\n", on(o, DIM),
				fit_end(term_safe(r->reason, safe, sizeof(safe)), WIDTH - 10, line,
					sizeof(line)),
				on(o, OFF));
		const char *why = NULL;
		if (!r->denied && !r->would)
			continue; /* allowed when asked: nothing to add */
		if (refusal_allow_rule(r, rule, sizeof(rule), &why) != NULL)
			fprintf(o->f, "          allow with: %s\n",
				fit_end(rule, WIDTH - 22, line, sizeof(line)));
		else if (why != NULL)
			fprintf(o->f, "          %s(%s)%s\n", on(o, DIM), why, on(o, OFF));
	}
	free(a);
}

static void section_repos(const struct out *o, const struct summary *s)
{
	size_t n = json_array_size(s->repos), i;
	json_t *v;
	char counts[32], safe[4 * PATH_MAX], sh[PATH_MAX + 2];

	if (n == 0 && s->lost == 0)
		return;
	snprintf(counts, sizeof(counts), "%zu", n);
	title(o, "Git repositories made or changed", counts);
	json_array_foreach(s->repos, i, v) {
		const char *r = json_string_value(v);
		if (r == NULL)
			continue;
		fprintf(o->f, "  %s%s%s\n", on(o, YELLOW),
			term_safe(summary_short_path(s, r, sh, sizeof(sh)), safe, sizeof(safe)),
			on(o, OFF));
	}
	if (n > 0)
		fprintf(o->f, "  Their .git/config and .git/hooks run at your next git command there:"
			      " look at them first.\n");
	if (s->lost > 0)
		fprintf(o->f, "  %s%lld events could not be written to the log (a full disk?): this "
			      "report lacks them.%s\n",
			on(o, RED), (long long)s->lost, on(o, OFF));
}

static void header(const struct out *o, const struct summary *s)
{
	char buf[4 * 4096], safe[4 * 4096], t[32], d[32];
	const char *state = s->state == ST_ENDED ? "ended" : s->state == ST_RUNNING ? "running"
										 : "no end recorded";

	/* The log is ward's, but may have been edited: nothing in it reaches the terminal raw. */
	char f1[256], f2[256];
	fprintf(o->f, "%sward report: session %s%s (%s", on(o, BOLD),
		safe_q(s->id ? s->id : "?", f1, sizeof(f1)),
		on(o, OFF), state);
	if (s->state == ST_ENDED && s->status != LEV_NONE)
		fprintf(o->f, ", exit status %lld", (long long)s->status);
	fprintf(o->f, ")\n");
	if (s->argv != NULL) {
		char line[WIDTH * 4];
		argv_line(s->argv, buf, sizeof(buf));
		fprintf(o->f, "  command    %s\n", fit_end(buf, WIDTH - 13, line, sizeof(line)));
	}
	if (s->project != NULL) {
		char line[WIDTH * 4];
		fprintf(o->f, "  project    %s\n",
			fit(safe_q(s->project, safe, sizeof(safe)), WIDTH - 13, line, sizeof(line)));
	}
	fprintf(o->f, "  policy     profile %s, mode %s\n",
		safe_q(s->profile ? s->profile : "?", f1, sizeof(f1)),
		safe_q(s->mode ? s->mode : "?", f2, sizeof(f2)));
	double secs = s->duration >= 0 ? s->duration
		      : s->start != LEV_NONE && s->last_ts != LEV_NONE
			      ? (double)(s->last_ts - s->start) / 1e6
			      : -1;
	fprintf(o->f, "  started    %s UTC, %s %s\n", time_text(s->start, t, sizeof(t)),
		s->state == ST_ENDED ? "ran" : "last event after", duration_text(secs, d, sizeof(d)));
	fprintf(o->f, "  ward       %s%s%s\n", safe_q(s->version ? s->version : "?", f1, sizeof(f1)),
		s->kernel ? ", kernel " : "", safe_q(s->kernel ? s->kernel : "", f2, sizeof(f2)));
	{
		char line[WIDTH * 4];
		snprintf(buf, sizeof(buf), "%s (%lu events)", s->log, s->events);
		fprintf(o->f, "  log        %s\n",
			fit(safe_q(buf, safe, sizeof(safe)), WIDTH - 13, line, sizeof(line)));
	}
	size_t k = (size_t)snprintf(buf, sizeof(buf), "%lu allowed, %s%lu denied%s, %lu asked",
				    s->allowed, on(o, s->denied ? RED : ""), s->denied,
				    on(o, s->denied ? OFF : ""), s->asked);
	if (s->would_deny)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, ", %lu would be denied",
				      s->would_deny);
	if (s->rewritten)
		k += (size_t)snprintf(buf + k, sizeof(buf) - k, ", %lu rewritten", s->rewritten);
	fprintf(o->f, "  decisions  %s\n", buf);
	if (s->failed > 0)
		fprintf(o->f, "             %lu failed on their own, as they would without ward\n",
			s->failed);

	if (s->state == ST_RUNNING)
		fprintf(o->f, "  %s! still running: this is what it did until now%s\n", on(o, YELLOW),
			on(o, OFF));
	else if (s->state == ST_KILLED)
		fprintf(o->f,
			"  %s! no session-end: ward was killed or the machine stopped; "
			"the log ends at %s UTC%s\n",
			on(o, YELLOW), time_text(s->last_ts, t, sizeof(t)), on(o, OFF));
	if (!s->seen_start)
		fprintf(o->f, "  %s! the log has no session-start: its beginning is missing%s\n",
			on(o, YELLOW), on(o, OFF));
	if (s->bad > 0) {
		fprintf(o->f, "  %s! %lu malformed line%s skipped:", on(o, YELLOW), s->bad,
			s->bad == 1 ? "" : "s");
		for (size_t i = 0; i < s->nbadlines && i < 3; i++)
			fprintf(o->f, "%s line %lu", i ? "," : "", s->badlines[i].line);
		fprintf(o->f, "%s%s\n", s->bad > 3 ? ", ..." : "", on(o, OFF));
		for (size_t i = 0; i < s->nbadlines && i < 3; i++) {
			char why[256], cut[1024];
			snprintf(why, sizeof(why), "line %lu: %s", s->badlines[i].line,
				 term_safe(s->badlines[i].why, safe, sizeof(safe)));
			fprintf(o->f, "      %s\n", fit_end(why, WIDTH - 6, cut, sizeof(cut)));
		}
	}
	if (s->unknown_events > 0)
		fprintf(o->f, "  %lu events of kinds this ward does not know (counted, not shown)\n",
			s->unknown_events);
}

static void report_text(const struct out *o, struct summary *s)
{
	header(o, s);
	section_paths(o, s);
	section_programs(o, s);
	section_network(o, s);
	section_refused(o, s);
	section_repos(o, s);
}

/* ---- JSON ---- */

static json_t *jtime(int64_t us)
{
	if (us == LEV_NONE)
		return json_null();
	char buf[40];
	time_t t = (time_t)(us / 1000000);
	struct tm tm;
	gmtime_r(&t, &tm);
	size_t n = strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, sizeof(buf) - n, ".%06lldZ", (long long)(us % 1000000));
	return json_string(buf);
}

static json_t *jstr(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *jint(int64_t v)
{
	return v == LEV_NONE ? json_null() : json_integer(v);
}

static json_t *jdid(uint32_t did)
{
	json_t *a = json_array();
	for (int i = 0; i < DID_KINDS; i++)
		if (did & (1u << i))
			json_array_append_new(a, json_string(did_names[i]));
	return a;
}

static void add(json_t *o, const char *key, json_t *v)
{
	/* A string that is not UTF-8 cannot be in the document: null instead of nothing. */
	json_object_set_new(o, key, v ? v : json_null());
}

static json_t *jpaths(const struct summary *s, bool (*keep)(const struct summary *,
							    const struct pent *),
		      uint32_t show)
{
	size_t n;
	struct pent **a = summary_paths_sorted(s, keep, NULL, &n);
	json_t *arr = json_array();
	qsort(a, n, sizeof(*a), by_dir_name);
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_object();
		add(e, "path", json_string(a[i]->path));
		add(e, "did", jdid(a[i]->did & show));
		add(e, "events", json_integer(a[i]->events));
		add(e, "first", jtime(a[i]->first));
		add(e, "last", jtime(a[i]->last));
		if (a[i]->to)
			add(e, "to", json_string(a[i]->to));
		if (a[i]->flag)
			add(e, "flag", json_string(a[i]->flag));
		json_array_append_new(arr, e);
	}
	free(a);
	return arr;
}

static json_t *report_json(struct summary *s)
{
	json_t *doc = json_object(), *j;

	add(doc, "report", json_integer(1));
	j = json_object();
	add(j, "id", jstr(s->id));
	add(j, "log", jstr(s->log));
	add(j, "state", json_string(s->state == ST_ENDED ? "ended" : s->state == ST_RUNNING
								 ? "running" : "killed"));
	add(j, "argv", s->argv ? json_deep_copy(s->argv) : json_null());
	add(j, "cwd", jstr(s->cwd));
	add(j, "project", jstr(s->project));
	add(j, "profile", jstr(s->profile));
	add(j, "mode", jstr(s->mode));
	add(j, "version", jstr(s->version));
	add(j, "kernel", jstr(s->kernel));
	add(j, "start", jtime(s->start));
	add(j, "end", jtime(s->seen_end ? s->end : LEV_NONE));
	add(j, "last_event", jtime(s->last_ts));
	add(j, "duration", s->duration >= 0 ? json_real(s->duration) : json_null());
	add(j, "status", jint(s->seen_end ? s->status : LEV_NONE));
	add(j, "lost", json_integer(s->lost));
	add(doc, "session", j);

	j = json_object();
	add(j, "lines", json_integer((json_int_t)s->lines));
	add(j, "events", json_integer((json_int_t)s->events));
	add(j, "allowed", json_integer((json_int_t)s->allowed));
	add(j, "denied", json_integer((json_int_t)s->denied));
	add(j, "asked", json_integer((json_int_t)s->asked));
	add(j, "would_deny", json_integer((json_int_t)s->would_deny));
	add(j, "rewritten", json_integer((json_int_t)s->rewritten));
	add(j, "failed", json_integer((json_int_t)s->failed));
	add(j, "killed", json_integer((json_int_t)s->killed));
	add(j, "processes", json_integer((json_int_t)s->nprocs));
	add(j, "unknown_events", json_integer((json_int_t)s->unknown_events));
	add(j, "malformed", json_integer((json_int_t)s->bad));
	add(doc, "counts", j);

	j = json_array();
	for (size_t i = 0; i < s->nbadlines; i++) {
		json_t *b = json_object();
		add(b, "line", json_integer((json_int_t)s->badlines[i].line));
		add(b, "error", json_string(s->badlines[i].why));
		json_array_append_new(j, b);
	}
	add(doc, "malformed", j);
	add(doc, "cut_short", json_boolean(s->partial && !s->running));

	add(doc, "changed_outside", jpaths(s, keep_changed_out, DID_CHANGE | DID_REWRITTEN));
	add(doc, "changed_in_project", jpaths(s, keep_changed_in, DID_CHANGE));
	add(doc, "read_outside", jpaths(s, keep_read_out, DID_READ));

	j = json_array();
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc *p = &s->procs[i];
		json_t *e = json_object();
		add(e, "pid", json_integer(p->pid));
		add(e, "ppid", jint(p->ppid));
		add(e, "parent", p->parent >= 0 ? json_integer(p->parent) : json_null());
		add(e, "argv", p->argv ? json_deep_copy(p->argv) : json_null());
		if (p->argv_cut)
			add(e, "argv_cut", json_true());
		add(e, "exe", jstr(p->exe));
		add(e, "execs", json_integer(p->execs));
		add(e, "static", json_boolean(p->is_static));
		add(e, "killed", json_boolean(p->killed));
		add(e, "start", jtime(p->start));
		add(e, "end", jtime(p->end));
		add(e, "status", jint(p->status));
		json_array_append_new(j, e);
	}
	add(doc, "processes", j);

	size_t n;
	struct netent **na = summary_net_sorted(s, &n);
	j = json_array();
	for (size_t i = 0; i < n; i++) {
		json_t *e = json_object();
		add(e, "event", json_string(na[i]->event));
		add(e, "target", json_string(na[i]->target));
		add(e, "host", jstr(na[i]->host));
		add(e, "addr", jstr(na[i]->addr));
		add(e, "port", jint(na[i]->port));
		add(e, "allowed", json_integer(na[i]->allowed));
		add(e, "denied", json_integer(na[i]->denied));
		add(e, "failed", json_integer(na[i]->failed));
		add(e, "first", jtime(na[i]->first));
		add(e, "last", jtime(na[i]->last));
		json_array_append_new(j, e);
	}
	free(na);
	add(doc, "network", j);

	struct refusal **ra = summary_refusals_sorted(s, &n);
	j = json_array();
	for (size_t i = 0; i < n; i++) {
		const struct refusal *r = ra[i];
		char rule[4 * PATH_MAX];
		const char *why = NULL;
		json_t *e = json_object();
		add(e, "event", json_string(r->event));
		add(e, "op", jstr(r->op));
		add(e, "target", jstr(r->target));
		add(e, "denied", json_boolean(r->denied));
		add(e, "would_deny", json_boolean(r->would));
		add(e, "asked", json_boolean(r->asked));
		add(e, "errno", jstr(r->err));
		add(e, "rule", jstr(r->rule));
		add(e, "by", jstr(r->by));
		add(e, "answer", jstr(r->answer));
		add(e, "reason", jstr(r->reason));
		add(e, "exe", jstr(r->exe));
		add(e, "pid", jint(r->pid));
		add(e, "count", json_integer(r->count));
		add(e, "first", jtime(r->first));
		add(e, "last", jtime(r->last));
		const char *allow = (r->denied || r->would)
					    ? refusal_allow_rule(r, rule, sizeof(rule), &why)
					    : NULL;
		add(e, "allow_rule", jstr(allow));
		add(e, "why_no_rule", jstr(why));
		json_array_append_new(j, e);
	}
	free(ra);
	add(doc, "refused", j);

	add(doc, "repos", s->repos ? json_deep_copy(s->repos) : json_array());

	j = json_object();
	add(j, "start", jtime(s->tl.t0));
	add(j, "bucket_seconds", json_real((double)s->tl.width / 1e6));
	json_t *kinds = json_array();
	for (int k = 0; k < TL_KINDS; k++)
		json_array_append_new(kinds, json_string(tl_names[k]));
	add(j, "kinds", kinds);
	json_t *b = json_array();
	for (size_t i = 0; i < s->tl.used; i++) {
		json_t *row_ = json_array();
		for (int k = 0; k < TL_KINDS; k++)
			json_array_append_new(row_, json_integer(s->tl.n[i][k]));
		json_array_append_new(b, row_);
	}
	add(j, "buckets", b);
	json_t *marks = json_array();
	for (size_t i = 0; i < s->tl.nmarks; i++)
		json_array_append_new(marks, json_real((double)s->tl.marks[i] / 1e6));
	add(j, "denials", marks);
	add(doc, "timeline", j);
	return doc;
}

/* ---- the command ---- */

int cmd_report(int argc, char **argv)
{
	enum { OPT_JSON = 0x300, OPT_HTML, OPT_ALL };
	static const struct option longopts[] = {
		{ "json", no_argument, 0, OPT_JSON },
		{ "html", required_argument, 0, OPT_HTML },
		{ "all", no_argument, 0, OPT_ALL },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	bool json = false, all = false;
	const char *html = NULL;
	char path[PATH_MAX];
	int opt, rc;

	argv[0] = "ward";
	while ((opt = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
		switch (opt) {
		case 'h':
			fputs(help, stdout);
			return 0;
		case OPT_JSON:
			json = true;
			break;
		case OPT_HTML:
			html = optarg;
			break;
		case OPT_ALL:
			all = true;
			break;
		default:
			fputs(help, stderr);
			return WARD_EXIT_USAGE;
		}
	}
	if (argc - optind > 1) {
		fprintf(stderr, "ward: report takes one session\n%s", help);
		return WARD_EXIT_USAGE;
	}
	if (sessions_find(optind < argc ? argv[optind] : NULL, path, sizeof(path)) < 0)
		return 1;

	struct summary s;
	rc = summary_read(&s, path, session_running(path));
	if (rc < 0) {
		fprintf(stderr, "ward: cannot read %s: %s\n", path, strerror(-rc));
		summary_free(&s);
		return 1;
	}
	summary_flag_reads(&s);

	if (html != NULL) {
		FILE *f = strcmp(html, "-") == 0 ? stdout : fopen(html, "we");
		if (f == NULL)
			die(1, "cannot write %s: %m", html);
		rc = report_html(&s, f);
		if ((f != stdout && fclose(f) != 0) || rc < 0)
			die(1, "cannot write %s: %s", html, strerror(rc < 0 ? -rc : errno));
		if (f != stdout)
			fprintf(stderr, "ward: the HTML report is in %s\n", html);
	}
	if (json) {
		json_t *doc = report_json(&s);
		rc = json_dumpf(doc, stdout, JSON_INDENT(1) | JSON_PRESERVE_ORDER |
						     JSON_REAL_PRECISION(9));
		fputc('\n', stdout);
		json_decref(doc);
	} else if (html == NULL || strcmp(html, "-") != 0) {
		const char *nc = getenv("NO_COLOR");
		struct out o = { stdout, isatty(1) && (nc == NULL || nc[0] == '\0'), all };
		report_text(&o, &s);
	}
	summary_free(&s);
	if (fflush(stdout) != 0 || ferror(stdout))
		return 1;
	return 0;
}
