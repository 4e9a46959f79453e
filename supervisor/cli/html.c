/*
 * html.c - ward report --html: the summary as one self-contained page.
 *
 * Everything is in the file: the style, a small script (filters, and
 * opening every branch before printing), the timeline as inline SVG.  No
 * fonts, scripts or images are fetched, so the page opens from a local
 * file with no network and can be mailed or archived as it is.  The page
 * is made here, not by the script: without the script it still shows
 * everything, and the filters only hide rows.
 *
 * Every string the agent chose (paths, argv, host names, rule names that
 * came from the log) goes through text(): control characters and bytes
 * that are not UTF-8 shown as \xNN, then &<>"' as entities, so that a file
 * named <script> is shown as text and never parsed as markup.
 */
#include "report.h"
#include "cli.h"

#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

/* Rows a table shows, and nodes the file tree: the rest is in --json. */
#define HTML_ROWS 2000
#define TREE_NODES 5000

/* s as HTML text (or an attribute value in double quotes). */
static void text(FILE *f, const char *s)
{
	char buf[4 * PATH_MAX + 16];
	if (s == NULL)
		return;
	term_safe(s, buf, sizeof(buf));
	for (const char *c = buf; *c; c++) {
		switch (*c) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		default: fputc(*c, f);
		}
	}
}

static const char style[] =
	":root{--fg:#1d2330;--mute:#667085;--line:#e3e6ec;--bg:#fff;--card:#f6f7f9;"
	"--deny:#c62828;--change:#b45309;--exec:#6d28d9;--read:#2563eb;--net:#0f766e;--ok:#15803d}"
	"*{box-sizing:border-box}"
	"body{font:14px/1.45 system-ui,-apple-system,'Segoe UI',sans-serif;color:var(--fg);"
	"background:var(--bg);margin:0 auto;max-width:1200px;padding:24px}"
	"h1{font-size:22px;margin:0 0 4px}h2{font-size:17px;margin:28px 0 8px;"
	"border-bottom:1px solid var(--line);padding-bottom:4px}"
	"h2 .count{color:var(--mute);font-weight:normal;font-size:14px;margin-left:8px}"
	"code,.mono{font-family:ui-monospace,'DejaVu Sans Mono',Menlo,monospace;font-size:12.5px}"
	"dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 16px;margin:12px 0}"
	"dl.meta dt{color:var(--mute)}dl.meta dd{margin:0;word-break:break-all}"
	".warn{background:#fff7e6;border-left:4px solid var(--change);padding:6px 10px;margin:6px 0}"
	".cards{display:flex;flex-wrap:wrap;gap:10px;margin:16px 0}"
	".card{background:var(--card);border-radius:8px;padding:10px 14px;min-width:120px}"
	".card b{display:block;font-size:22px}.card.deny b{color:var(--deny)}"
	".card.change b{color:var(--change)}"
	"nav.filters{position:sticky;top:0;background:var(--bg);padding:8px 0;z-index:2;"
	"border-bottom:1px solid var(--line);display:flex;flex-wrap:wrap;gap:12px;align-items:center}"
	"nav.filters label{color:var(--mute)}nav.filters select,nav.filters input{font:inherit}"
	"table{border-collapse:collapse;width:100%}th,td{text-align:left;padding:3px 8px;"
	"border-bottom:1px solid var(--line);vertical-align:top}th{color:var(--mute);font-weight:600}"
	"td.path{word-break:break-all}td.n{text-align:right;white-space:nowrap}"
	"tr.denied td:first-child{border-left:3px solid var(--deny)}"
	".tag{display:inline-block;border-radius:4px;padding:0 5px;margin:0 3px 1px 0;"
	"font-size:12px;background:var(--card)}"
	".tag.denied,.tag.would-deny{background:#fde2e2;color:var(--deny)}"
	".tag.flag{background:#fff1d6;color:var(--change)}"
	".c-denied{color:var(--deny);font-weight:600}.c-change{color:var(--change)}"
	".c-exec{color:var(--exec)}.c-read{color:var(--read)}"
	"ul.tree{list-style:none;padding-left:18px;margin:0}ul.tree.top{padding-left:0}"
	"ul.tree li{margin:1px 0}summary{cursor:pointer}"
	".st{color:var(--mute);margin-left:8px}.st.bad{color:var(--change)}"
	".legend span{margin-right:14px}"
	"svg text{font:11px system-ui,sans-serif;fill:var(--mute)}"
	"[hidden]{display:none!important}"
	"p.more{color:var(--mute)}"
	"@media print{nav.filters{display:none}body{max-width:none;padding:0}"
	"h2{break-after:avoid}tr{break-inside:avoid}}";

/*
 * Filters: a row is shown when it has every filter's value (a row without
 * the attribute a filter reads is hidden while that filter is set).  The
 * filters are also read from and written to the address's #fragment
 * (#op=write&decision=denied&dir=/etc&prog=cat), so a filtered view can be
 * linked to.  The process tree shows a process when it or one below it
 * matches.  Before printing every branch is opened.
 */
static const char script[] =
	"(function(){"
	"var F=['op','decision','dir','prog'];"
	"function get(){var v={};F.forEach(function(k){var e=document.getElementById('f-'+k);"
	"v[k]=e?e.value:''});return v}"
	"function has(list,x){return (' '+(list||'')+' ').indexOf(' '+x+' ')>=0}"
	"function match(el,v){"
	"if(v.op&&!has(el.getAttribute('data-op'),v.op))return false;"
	"if(v.decision&&!has(el.getAttribute('data-decision'),v.decision))return false;"
	"if(v.prog&&!has(el.getAttribute('data-prog'),v.prog))return false;"
	"if(v.dir){var d=el.getAttribute('data-dir');if(d===null||d.indexOf(v.dir)!==0)return false}"
	"return true}"
	"function apply(){var v=get();"
	"document.querySelectorAll('tr[data-row]').forEach(function(r){r.hidden=!match(r,v)});"
	"var lis=Array.prototype.slice.call(document.querySelectorAll('li[data-proc]')).reverse();"
	"lis.forEach(function(li){var ok=match(li,{op:'',decision:v.decision,dir:'',prog:v.prog});"
	"if(!ok)ok=!!li.querySelector('li[data-proc]:not([hidden])');li.hidden=!ok});"
	"document.querySelectorAll('table[data-table]').forEach(function(t){"
	"var all=t.querySelectorAll('tr[data-row]').length,"
	"shown=t.querySelectorAll('tr[data-row]:not([hidden])').length;"
	"var c=document.getElementById('shown-'+t.getAttribute('data-table'));"
	"if(c){c.textContent=shown===all?'':shown+' of '+all+' shown';c.setAttribute('data-shown',shown)}});"
	"var h=F.filter(function(k){return v[k]}).map(function(k){"
	"return k+'='+encodeURIComponent(v[k])}).join('&');"
	"if(history.replaceState)history.replaceState(null,'',h?'#'+h:location.pathname)}"
	"function load(){var h=location.hash.replace(/^#/,'');"
	"h.split('&').forEach(function(p){var i=p.indexOf('=');if(i<0)return;"
	"var e=document.getElementById('f-'+p.slice(0,i));"
	"if(e)e.value=decodeURIComponent(p.slice(i+1))});apply()}"
	"F.forEach(function(k){var e=document.getElementById('f-'+k);"
	"if(e)e.addEventListener(k==='dir'?'input':'change',apply)});"
	"window.addEventListener('beforeprint',function(){"
	"document.querySelectorAll('details').forEach(function(d){d.open=true})});"
	"load()})();";

static void h2(FILE *f, const char *id, const char *title, size_t count)
{
	fprintf(f, "<h2 id=\"h-%s\">%s<span class=\"count\" data-count=\"%zu\">%zu</span>"
		   "<span class=\"count\" id=\"shown-%s\"></span></h2>\n",
		id, title, count, count, id);
}

/* Attributes the filters read: the ops done, the decision, the directory, the program. */
static void row_attrs(FILE *f, const char *ops, const char *decision, const char *dir,
		      const char *prog)
{
	fputs(" data-row", f);
	if (ops != NULL) {
		fputs(" data-op=\"", f);
		text(f, ops);
		fputc('"', f);
	}
	if (decision != NULL)
		fprintf(f, " data-decision=\"%s\"", decision);
	if (dir != NULL) {
		fputs(" data-dir=\"", f);
		text(f, dir);
		fputc('"', f);
	}
	if (prog != NULL) {
		fputs(" data-prog=\"", f);
		text(f, prog);
		fputc('"', f);
	}
}

static const char *op_names_of(uint16_t ops, char *buf, size_t len)
{
	size_t o = 0;
	buf[0] = '\0';
	for (int i = 0; i < NOPS; i++)
		if (ops & (1u << i))
			o += (size_t)snprintf(buf + o, len - o, "%s%s", o ? " " : "",
					      ward_op_name((enum ward_op)(1u << i)));
	return buf;
}

static void tags_did(FILE *f, uint32_t did)
{
	for (int i = 0; i < DID_KINDS; i++)
		if (did & (1u << i))
			fprintf(f, "<span class=\"tag\">%s</span>", did_names[i]);
}

static const char *pent_decision(const struct pent *p)
{
	return (p->ops_refused | p->ops_undecided) ? "allowed denied" : "allowed";
}

static bool k_touched(const struct summary *s, const struct pent *p)
{
	(void)s;
	return p->did != 0 || p->ops_refused || p->ops_undecided;
}

static int by_weight(const void *x, const void *y)
{
	const struct pent *a = *(struct pent *const *)x, *b = *(struct pent *const *)y;
	if ((a->flag != NULL) != (b->flag != NULL))
		return a->flag ? -1 : 1;
	return pent_by_tree(x, y);
}

static void path_table(FILE *f, const struct summary *s, const char *id, const char *title,
		       bool (*keep)(const struct summary *, const struct pent *), uint32_t show,
		       int (*cmp)(const void *, const void *))
{
	size_t n;
	struct pent **a = summary_paths_sorted(s, keep, cmp, &n);
	char dir[PATH_MAX], ops[128], sh[PATH_MAX + 2];

	fprintf(f, "<section id=\"%s\">\n", id);
	h2(f, id, title, n);
	if (n == 0) {
		fputs("<p>Nothing.</p>\n</section>\n", f);
		free(a);
		return;
	}
	fprintf(f, "<table data-table=\"%s\"><thead><tr><th>Path</th><th>What</th>"
		   "<th>Program</th><th class=\"n\">Events</th></tr></thead><tbody>\n", id);
	for (size_t i = 0; i < n && i < HTML_ROWS; i++) {
		const struct pent *p = a[i];
		snprintf(dir, sizeof(dir), "%s", p->path);
		char *sl = strrchr(dir, '/');
		if (sl != NULL)
			sl[sl == dir ? 1 : 0] = '\0';
		fprintf(f, "<tr class=\"%s\"", p->flag ? "denied" : "");
		row_attrs(f, op_names_of(p->ops_done, ops, sizeof(ops)), pent_decision(p), dir,
			  p->prog);
		fputs("><td class=\"path mono\">", f);
		text(f, summary_short_path(s, p->path, sh, sizeof(sh)));
		if (p->to != NULL) {
			fputs(" → ", f);
			text(f, summary_short_path(s, p->to, sh, sizeof(sh)));
		}
		fputs("</td><td>", f);
		tags_did(f, p->did & show);
		if (p->flag != NULL) {
			fputs("<span class=\"tag flag\">", f);
			text(f, p->flag);
			fputs("</span>", f);
		}
		fputs("</td><td class=\"mono\">", f);
		text(f, p->prog);
		fprintf(f, "</td><td class=\"n\">%u</td></tr>\n", p->events);
	}
	fputs("</tbody></table>\n", f);
	if (n > HTML_ROWS)
		fprintf(f, "<p class=\"more\">… and %zu more (ward report --json has them all)</p>\n",
			n - HTML_ROWS);
	fputs("</section>\n", f);
	free(a);
}

/* ---- the file tree ---- */

struct dagg {
	UT_hash_handle hh;
	uint32_t did, files;
	bool denied;
	char dir[];
};

static struct dagg *dagg_get(struct dagg **h, const char *dir, size_t n)
{
	struct dagg *d;
	HASH_FIND(hh, *h, dir, n, d);
	if (d == NULL) {
		d = calloc(1, sizeof(*d) + n + 1);
		if (d == NULL)
			die(WARD_EXIT_FAILURE, "out of memory");
		memcpy(d->dir, dir, n);
		HASH_ADD_KEYPTR(hh, *h, d->dir, n, d);
	}
	return d;
}

static const char *cls(uint32_t did, bool denied)
{
	if (denied)
		return "c-denied";
	if (did & (DID_CHANGE | DID_REWRITTEN))
		return "c-change";
	if (did & DID_EXEC)
		return "c-exec";
	return "c-read";
}

static void file_tree(FILE *f, const struct summary *s)
{
	size_t n;
	struct pent **a = summary_paths_sorted(s, k_touched, pent_by_tree, &n);
	struct dagg *aggs = NULL, *d, *dt;

	fputs("<section id=\"files\">\n", f);
	h2(f, "files", "Files touched", n);
	fputs("<p class=\"legend\"><span class=\"c-change\">■ changed</span>"
	      "<span class=\"c-read\">■ read</span><span class=\"c-exec\">■ run</span>"
	      "<span class=\"c-denied\">■ refused</span></p>\n",
	      f);
	/* What each directory holds, below it: its summary is written before its entries. */
	for (size_t i = 0; i < n; i++) {
		const char *p = a[i]->path;
		bool denied = a[i]->ops_refused || a[i]->ops_undecided;
		for (const char *sl = strchr(p + 1, '/'); sl != NULL; sl = strchr(sl + 1, '/')) {
			d = dagg_get(&aggs, p, (size_t)(sl - p));
			d->did |= a[i]->did;
			d->files++;
			d->denied |= denied;
		}
		d = dagg_get(&aggs, "/", 1);
		d->did |= a[i]->did;
		d->files++;
		d->denied |= denied;
	}
	fputs("<ul class=\"tree top mono\">\n", f);
	/* The open directories, as lengths of the current path. */
	size_t stack[256], depth = 0, nodes = 0;
	const char *prev = "";
	for (size_t i = 0; i < n && nodes < TREE_NODES; i++) {
		const char *p = a[i]->path;
		/* Close the directories the path is not in. */
		while (depth > 0 && !(strncmp(p, prev, stack[depth - 1]) == 0 &&
				      p[stack[depth - 1]] == '/')) {
			fputs("</ul></details></li>\n", f);
			depth--;
		}
		/* Open the ones it is in, from the deepest open one down. */
		size_t from = depth ? stack[depth - 1] : 0;
		for (const char *sl = strchr(p + from + 1, '/'); sl != NULL && depth < 255;
		     sl = strchr(sl + 1, '/')) {
			size_t len = (size_t)(sl - p);
			d = dagg_get(&aggs, p, len);
			bool open = depth < 2 || (d->did & DID_CHANGE) || d->denied;
			fprintf(f, "<li><details%s><summary class=\"%s\">", open ? " open" : "",
				cls(d->did, d->denied));
			char name[PATH_MAX];
			snprintf(name, sizeof(name), "%.*s/", (int)(len - from - 1), p + from + 1);
			text(f, name);
			fprintf(f, " <span class=\"st\">%u</span></summary><ul class=\"tree\">\n",
				d->files);
			stack[depth++] = len;
			from = len;
			nodes++;
		}
		const struct pent *e = a[i];
		bool denied = e->ops_refused || e->ops_undecided;
		fprintf(f, "<li class=\"%s\" title=\"", cls(e->did, denied));
		char did[256];
		did_text(e->did, did, sizeof(did));
		text(f, did);
		if (denied)
			fprintf(f, "%srefused", did[0] ? ", " : "");
		fputs("\">", f);
		text(f, p + from + 1);
		fputs("</li>\n", f);
		nodes++;
		prev = p;
	}
	while (depth-- > 0)
		fputs("</ul></details></li>\n", f);
	fputs("</ul>\n", f);
	if (nodes >= TREE_NODES)
		fprintf(f, "<p class=\"more\">The tree stops at %d entries (ward report --json has "
			   "every path).</p>\n",
			TREE_NODES);
	fputs("</section>\n", f);
	HASH_ITER(hh, aggs, d, dt) {
		HASH_DEL(aggs, d);
		free(d);
	}
	free(a);
}

/* ---- programs ---- */

static void proc_li(FILE *f, const struct summary *s, long i, int depth, size_t *nodes)
{
	const struct proc *p = &s->procs[i];
	char line[8192], safe[PATH_MAX];
	const char *prog = NULL;

	if (p->argv != NULL && json_array_size(p->argv) > 0)
		prog = json_string_value(json_array_get(p->argv, 0));
	if (prog == NULL)
		prog = p->exe;
	if (prog != NULL && strrchr(prog, '/') != NULL)
		prog = strrchr(prog, '/') + 1;
	if (p->argv != NULL && json_array_size(p->argv) > 0)
		argv_line(p->argv, line, sizeof(line));
	else if (p->exe != NULL)
		snprintf(line, sizeof(line), "%s", safe_q(p->exe, safe, sizeof(safe)));
	else
		snprintf(line, sizeof(line), "(fork, pid %lld)", (long long)p->pid);
	bool bad = p->killed || (p->status != LEV_NONE && p->status != 0);
	fputs("<li data-proc", f);
	if (prog != NULL) {
		fputs(" data-prog=\"", f);
		text(f, prog);
		fputc('"', f);
	}
	fprintf(f, " data-decision=\"%s\">", p->killed ? "denied" : "allowed");
	if (p->child >= 0)
		fprintf(f, "<details%s><summary>", depth < 3 ? " open" : "");
	fputs("<span class=\"mono\">", f);
	text(f, line);
	fputs("</span>", f);
	fprintf(f, "<span class=\"st%s\">pid %lld", bad ? " bad" : "", (long long)p->pid);
	if (p->killed)
		fputs(", killed by ward", f);
	else if (p->status != LEV_NONE)
		fprintf(f, ", exit %lld", (long long)p->status);
	if (p->is_static)
		fputs(", static", f);
	fputs("</span>", f);
	(*nodes)++;
	if (p->child >= 0) {
		fputs("</summary><ul class=\"tree\">\n", f);
		for (long c = p->child; c >= 0; c = s->procs[c].next)
			if (*nodes < TREE_NODES)
				proc_li(f, s, c, depth + 1, nodes);
		fputs("</ul></details>", f);
	}
	fputs("</li>\n", f);
}

static void programs(FILE *f, const struct summary *s)
{
	size_t nodes = 0;
	fputs("<section id=\"programs\">\n", f);
	h2(f, "programs", "Programs run", s->nprocs);
	if (s->nprocs == 0)
		fputs("<p>None.</p>\n", f);
	fputs("<ul class=\"tree top\">\n", f);
	for (size_t i = 0; i < s->nprocs; i++)
		if (s->procs[i].parent < 0 && nodes < TREE_NODES)
			proc_li(f, s, (long)i, 0, &nodes);
	fputs("</ul>\n", f);
	if (nodes >= TREE_NODES)
		fprintf(f, "<p class=\"more\">The tree stops at %d processes.</p>\n", TREE_NODES);
	fputs("</section>\n", f);
}

/* ---- network and refusals ---- */

static void network(FILE *f, const struct summary *s)
{
	size_t n;
	struct netent **a = summary_net_sorted(s, &n);
	char t0[32], t1[32];

	fputs("<section id=\"network\">\n", f);
	h2(f, "network", "Network", n);
	if (n == 0)
		fputs("<p>None.</p>\n", f);
	else
		fputs("<table data-table=\"network\"><thead><tr><th>Destination</th><th>Address</th>"
		      "<th>Kind</th><th class=\"n\">Allowed</th><th class=\"n\">Denied</th>"
		      "<th>First – last (UTC)</th></tr></thead><tbody>\n",
		      f);
	for (size_t i = 0; i < n && i < HTML_ROWS; i++) {
		const struct netent *e = a[i];
		fprintf(f, "<tr class=\"%s\"", e->denied ? "denied" : "");
		row_attrs(f, e->event, e->denied ? (e->allowed ? "allowed denied" : "denied")
						 : "allowed",
			  NULL, NULL);
		fputs("><td class=\"mono\">", f);
		text(f, e->target);
		fputs("</td><td class=\"mono\">", f);
		text(f, e->host ? e->addr : "");
		fputs("</td><td>", f);
		text(f, e->event);
		fprintf(f, "</td><td class=\"n\">%u</td><td class=\"n\">%u</td><td>%s – %s</td></tr>\n",
			e->allowed, e->denied, time_text(e->first, t0, sizeof(t0)) + 11,
			time_text(e->last, t1, sizeof(t1)) + 11);
	}
	if (n > 0)
		fputs("</tbody></table>\n", f);
	fputs("</section>\n", f);
	free(a);
}

static void refused(FILE *f, const struct summary *s)
{
	size_t n;
	struct refusal **a = summary_refusals_sorted(s, &n);
	char rule[4 * PATH_MAX], t[32], sh[PATH_MAX + 2];

	fputs("<section id=\"refused\">\n", f);
	h2(f, "refused", "Refused and asked", n);
	if (n == 0)
		fputs("<p>Nothing.</p>\n", f);
	else
		fputs("<table data-table=\"refused\"><thead><tr><th>Op</th><th>Target</th>"
		      "<th>Outcome</th><th>Rule</th><th>Program</th><th class=\"n\">Times</th>"
		      "<th>To allow it</th></tr></thead><tbody>\n",
		      f);
	for (size_t i = 0; i < n && i < HTML_ROWS; i++) {
		const struct refusal *r = a[i];
		const char *dec = r->would ? "would-deny" : r->asked && !r->denied ? "asked allowed"
							     : r->asked ? "asked denied" : "denied";
		const char *prog = r->exe ? strrchr(r->exe, '/') : NULL;
		prog = prog ? prog + 1 : r->exe;
		char dir[PATH_MAX];
		const char *dirp = NULL;
		if (r->target != NULL && r->target[0] == '/') {
			snprintf(dir, sizeof(dir), "%s", r->target);
			char *sl = strrchr(dir, '/');
			sl[sl == dir ? 1 : 0] = '\0';
			dirp = dir;
		}
		fprintf(f, "<tr class=\"%s\"", r->denied ? "denied" : "");
		row_attrs(f, r->op, dec, dirp, prog);
		fputs("><td>", f);
		text(f, r->op ? r->op : r->event);
		fputs("</td><td class=\"path mono\">", f);
		const char *target = r->target ? r->target : "";
		if (target[0] == '/')
			target = summary_short_path(s, target, sh, sizeof(sh));
		text(f, target);
		fprintf(f, "</td><td><span class=\"tag %s\">%s</span>",
			r->denied || r->would ? "denied" : "", r->would ? "would be denied"
								: r->asked ? (r->denied ? "asked: denied"
											: "asked: allowed")
								: strcmp(r->event, "exec") == 0 ? "killed"
								: "denied");
		if (r->err != NULL && r->denied) {
			fputc(' ', f);
			text(f, r->err);
		}
		if (r->answer != NULL) {
			fputs(" answer: ", f);
			text(f, r->answer);
		}
		fputs("</td><td class=\"mono\">", f);
		text(f, r->rule ? r->rule : r->by);
		fputs("</td><td class=\"mono\">", f);
		text(f, prog);
		if (r->pid != LEV_NONE)
			fprintf(f, " <span class=\"st\">pid %lld</span>", (long long)r->pid);
		fprintf(f, "</td><td class=\"n\" title=\"first at %s UTC\">%u</td><td class=\"mono\">",
			time_text(r->first, t, sizeof(t)), r->count);
		const char *why = NULL;
		if (r->denied || r->would) {
			if (refusal_allow_rule(r, rule, sizeof(rule), &why) != NULL)
				text(f, rule);
			else if (why != NULL)
				text(f, why);
		}
		fputs("</td></tr>\n", f);
	}
	if (n > 0)
		fputs("</tbody></table>\n", f);
	fputs("</section>\n", f);
	free(a);
}

/* ---- the timeline ---- */

static void timeline(FILE *f, const struct summary *s)
{
	static const char *const colors[TL_KINDS] = { "#2563eb", "#b45309", "#6d28d9",
						      "#0f766e", "#c62828", "#98a2b3" };
	const struct timeline *tl = &s->tl;
	const int W = 1100, H = 170, top = 10, bottom = 24, left = 40;
	uint32_t max = 1;
	char t0[32], t1[32];

	fputs("<section id=\"timeline\">\n", f);
	h2(f, "timeline", "Timeline", s->events);
	if (tl->used == 0) {
		fputs("<p>No events with a time.</p>\n</section>\n", f);
		return;
	}
	for (size_t i = 0; i < tl->used; i++) {
		uint32_t sum = 0;
		for (int k = 0; k < TL_KINDS; k++)
			sum += tl->n[i][k];
		if (sum > max)
			max = sum;
	}
	double bw = (double)(W - left) / (double)tl->used, ph = H - top - bottom;
	double secs = (double)tl->width / 1e6;
	fprintf(f, "<p class=\"legend\">Events per %g s, by kind; refusals marked below the axis.  ",
		secs);
	for (int k = 0; k < TL_KINDS; k++)
		fprintf(f, "<span style=\"color:%s\">■ %s</span>", colors[k], tl_names[k]);
	fprintf(f, "</p>\n<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
		   "width=\"100%%\" role=\"img\" aria-label=\"events over time\">\n",
		W, H);
	fprintf(f, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\" stroke=\"#ccc\"/>\n", left,
		H - bottom, W, H - bottom);
	fprintf(f, "<text x=\"0\" y=\"%d\">%u</text><text x=\"0\" y=\"%d\">0</text>\n", top + 10,
		max, H - bottom);
	for (size_t i = 0; i < tl->used; i++) {
		double y = H - bottom, x = left + (double)i * bw;
		uint32_t sum = 0;
		for (int k = 0; k < TL_KINDS; k++)
			sum += tl->n[i][k];
		if (sum == 0)
			continue;
		fprintf(f, "<g><title>+%g s: %u events", (double)i * secs, sum);
		for (int k = 0; k < TL_KINDS; k++)
			if (tl->n[i][k])
				fprintf(f, ", %u %s", tl->n[i][k], tl_names[k]);
		fputs("</title>", f);
		for (int k = 0; k < TL_KINDS; k++) {
			if (tl->n[i][k] == 0)
				continue;
			double h = ph * tl->n[i][k] / max;
			y -= h;
			fprintf(f, "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" "
				   "fill=\"%s\"/>",
				x, y, bw > 2 ? bw - 1 : bw, h, colors[k]);
		}
		fputs("</g>\n", f);
	}
	for (size_t i = 0; i < tl->nmarks; i++) {
		double x = left + (double)tl->marks[i] / (double)tl->width * bw;
		fprintf(f, "<path class=\"mark\" d=\"M%.1f %d l-4 8 h8 z\" fill=\"#c62828\"/>\n", x,
			H - bottom + 2);
	}
	int64_t end = tl->t0 + (int64_t)tl->used * tl->width;
	fprintf(f, "<text x=\"%d\" y=\"%d\">%s</text>", left, H - 2,
		time_text(tl->t0, t0, sizeof(t0)) + 11);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"end\">%s UTC</text>\n</svg>\n", W, H - 2,
		time_text(end, t1, sizeof(t1)) + 11);
	fputs("</section>\n", f);
}

/* ---- the page ---- */

static void card(FILE *f, const char *id, const char *cl, unsigned long n, const char *what)
{
	fprintf(f, "<div class=\"card %s\" id=\"card-%s\"><b data-count=\"%lu\">%lu</b> %s</div>\n",
		cl, id, n, n, what);
}

static size_t count_paths(const struct summary *s,
			  bool (*keep)(const struct summary *, const struct pent *))
{
	size_t n;
	free(summary_paths_sorted(s, keep, NULL, &n));
	return n;
}

static void options_progs(FILE *f, const struct summary *s)
{
	/* Each program once, in the order first seen. */
	struct istr *seen = NULL, *e, *t;
	for (size_t i = 0; i < s->nprocs; i++) {
		const struct proc *p = &s->procs[i];
		const char *prog = p->argv && json_array_size(p->argv)
					   ? json_string_value(json_array_get(p->argv, 0))
					   : NULL;
		if (prog == NULL)
			continue;
		if (strrchr(prog, '/') != NULL)
			prog = strrchr(prog, '/') + 1;
		size_t n = strlen(prog);
		HASH_FIND(hh, seen, prog, n, e);
		if (e != NULL)
			continue;
		e = calloc(1, sizeof(*e) + n + 1);
		if (e == NULL)
			die(WARD_EXIT_FAILURE, "out of memory");
		memcpy(e->s, prog, n + 1);
		HASH_ADD_KEYPTR(hh, seen, e->s, n, e);
		fputs("<option value=\"", f);
		text(f, prog);
		fputs("\">", f);
		text(f, prog);
		fputs("</option>", f);
	}
	HASH_ITER(hh, seen, e, t) {
		HASH_DEL(seen, e);
		free(e);
	}
}

int report_html(struct summary *s, FILE *f)
{
	char buf[8192], t[32], d[32];
	const char *state = s->state == ST_ENDED ? "ended" : s->state == ST_RUNNING ? "running"
										 : "no end recorded";

	fputs("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n"
	      "<title>ward report: session ",
	      f);
	text(f, s->id ? s->id : "?");
	fprintf(f, "</title>\n<style>%s</style>\n</head><body>\n<header>\n", style);
	fputs("<h1>ward report: session <code>", f);
	text(f, s->id ? s->id : "?");
	fprintf(f, "</code></h1>\n<p id=\"state\" data-state=\"%s\">%s", state, state);
	if (s->state == ST_ENDED && s->status != LEV_NONE)
		fprintf(f, ", exit status %lld", (long long)s->status);
	fputs("</p>\n<dl class=\"meta\">\n", f);
	if (s->argv != NULL) {
		fputs("<dt>command</dt><dd class=\"mono\">", f);
		text(f, argv_line(s->argv, buf, sizeof(buf)));
		fputs("</dd>\n", f);
	}
	fputs("<dt>project</dt><dd class=\"mono\">", f);
	text(f, s->project ? s->project : "?");
	fputs("</dd>\n<dt>policy</dt><dd>profile ", f);
	text(f, s->profile ? s->profile : "?");
	fputs(", mode ", f);
	text(f, s->mode ? s->mode : "?");
	double secs = s->duration >= 0 ? s->duration
		      : s->start != LEV_NONE && s->last_ts != LEV_NONE
			      ? (double)(s->last_ts - s->start) / 1e6
			      : -1;
	fprintf(f, "</dd>\n<dt>started</dt><dd>%s UTC, %s %s</dd>\n",
		time_text(s->start, t, sizeof(t)), s->state == ST_ENDED ? "ran" : "last event after",
		duration_text(secs, d, sizeof(d)));
	fputs("<dt>ward</dt><dd>", f);
	text(f, s->version ? s->version : "?");
	if (s->kernel) {
		fputs(", kernel ", f);
		text(f, s->kernel);
	}
	fputs("</dd>\n<dt>log</dt><dd class=\"mono\">", f);
	text(f, s->log);
	fprintf(f, " (%lu events)</dd>\n</dl>\n", s->events);
	if (s->state == ST_RUNNING)
		fputs("<p class=\"warn\">Still running: this is what it did until now.</p>\n", f);
	else if (s->state == ST_KILLED)
		fputs("<p class=\"warn\">The log has no session-end: ward was killed or the machine "
		      "stopped.</p>\n",
		      f);
	if (s->bad > 0) {
		fprintf(f, "<p class=\"warn\" id=\"malformed\" data-count=\"%lu\">%lu malformed "
			   "line%s skipped:",
			s->bad, s->bad, s->bad == 1 ? "" : "s");
		for (size_t i = 0; i < s->nbadlines; i++) {
			fprintf(f, "%s line %lu (", i ? "," : "", s->badlines[i].line);
			text(f, s->badlines[i].why);
			fputc(')', f);
		}
		fputs("</p>\n", f);
	}
	if (s->lost > 0)
		fprintf(f, "<p class=\"warn\">%lld events could not be written to the log.</p>\n",
			(long long)s->lost);
	fputs("</header>\n<section class=\"cards\">\n", f);
	card(f, "allowed", "", s->allowed, "allowed");
	card(f, "denied", s->denied ? "deny" : "", s->denied, "denied");
	card(f, "asked", "", s->asked, "asked");
	if (s->would_deny)
		card(f, "would-deny", "deny", s->would_deny, "would be denied");
	card(f, "changed-outside", "change", count_paths(s, keep_changed_out),
	     "changed outside the project");
	card(f, "changed-in-project", "", count_paths(s, keep_changed_in), "changed in the project");
	card(f, "read-outside", "", count_paths(s, keep_read_out), "read outside the project");
	card(f, "processes", "", s->nprocs, "processes");
	card(f, "destinations", "", HASH_COUNT(s->net), "network destinations");
	fputs("</section>\n", f);

	fputs("<nav class=\"filters\"><label>op <select id=\"f-op\"><option value=\"\">any"
	      "</option>",
	      f);
	for (int i = 0; i < NOPS; i++) {
		const char *op = ward_op_name((enum ward_op)(1u << i));
		fprintf(f, "<option>%s</option>", op);
	}
	fputs("</select></label>\n<label>decision <select id=\"f-decision\"><option value=\"\">"
	      "any</option><option>allowed</option><option>denied</option>"
	      "<option value=\"would-deny\">would be denied</option><option>asked</option>"
	      "</select></label>\n<label>directory <input id=\"f-dir\" size=\"28\" "
	      "placeholder=\"/etc\"></label>\n<label>program <select id=\"f-prog\">"
	      "<option value=\"\">any</option>",
	      f);
	options_progs(f, s);
	fputs("</select></label></nav>\n", f);

	timeline(f, s);
	path_table(f, s, "changed-outside", "Changed outside the project", keep_changed_out,
		   DID_CHANGE | DID_REWRITTEN, by_weight);
	path_table(f, s, "changed-in-project", "Changed in the project", keep_changed_in, DID_CHANGE,
		   pent_by_tree);
	path_table(f, s, "read-outside", "Read outside the project", keep_read_out, DID_READ,
		   by_weight);
	programs(f, s);
	network(f, s);
	refused(f, s);
	fputs("<section id=\"repos\">\n", f);
	h2(f, "repos", "Git repositories made or changed", json_array_size(s->repos));
	if (json_array_size(s->repos) > 0) {
		size_t i;
		json_t *v;
		fputs("<p>Their <code>.git/config</code> and <code>.git/hooks</code> run at your next "
		      "git command there: look at them first.</p><ul>\n",
		      f);
		json_array_foreach(s->repos, i, v) {
			fputs("<li class=\"mono\">", f);
			text(f, json_string_value(v));
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	} else {
		fputs("<p>None.</p>\n", f);
	}
	fputs("</section>\n", f);
	file_tree(f, s);
	fprintf(f, "<script>%s</script>\n</body></html>\n", script);
	return ferror(f) ? -EIO : 0;
}
