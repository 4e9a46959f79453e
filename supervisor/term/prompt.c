/*
 * prompt.c - a question's lines, and the keys that answer it.
 */
#include "prompt.h"

#include <locale.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

/* ---- display width ---- */

static locale_t utf8_locale;
static pthread_once_t utf8_once = PTHREAD_ONCE_INIT;

static void utf8_init(void)
{
	utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

/* The code point at s (n bytes of it), or -1. */
static long u8_decode(const unsigned char *s, int *n)
{
	if (s[0] < 0x80) {
		*n = 1;
		return s[0];
	}
	int k = s[0] >= 0xf0 ? 4 : s[0] >= 0xe0 ? 3 : s[0] >= 0xc0 ? 2 : 0;
	long cp = k == 4 ? s[0] & 7 : k == 3 ? s[0] & 15 : s[0] & 31;
	if (k == 0) {
		*n = 1;
		return -1;
	}
	for (int i = 1; i < k; i++) {
		if ((s[i] & 0xc0) != 0x80) {
			*n = i;
			return -1;
		}
		cp = cp << 6 | (s[i] & 0x3f);
	}
	*n = k;
	return cp;
}

/* Columns a code point takes: wcwidth in C.UTF-8; 2 when that cannot say (never too few). */
static int cp_width(long cp)
{
	if (cp < 0)
		return 1;
	if (cp < 0x7f)
		return cp < 0x20 ? 0 : 1;
	pthread_once(&utf8_once, utf8_init);
	if (utf8_locale == (locale_t)0)
		return 2;
	locale_t old = uselocale(utf8_locale);
	int w = wcwidth((wchar_t)cp);
	uselocale(old);
	return w < 0 ? 2 : w;
}

int text_width(const char *s)
{
	int w = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n;
		w += cp_width(u8_decode(p, &n));
		p += n;
	}
	return w;
}

void text_fit(const char *s, int width, char *out, size_t len)
{
	size_t o = 0;
	int w = 0;

	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n, cw = cp_width(u8_decode(p, &n));
		if (w + cw > width || o + (size_t)n >= len)
			break;
		memcpy(out + o, p, (size_t)n);
		o += (size_t)n;
		w += cw;
		p += n;
	}
	out[o] = '\0';
}

/* ---- keys ---- */

static int key_of_code(unsigned long code, unsigned long mods)
{
	unsigned long m = mods > 0 ? mods - 1 : 0;
	if ((m & 4) && (code == 'c' || code == 'C'))
		return KEY_INTR;
	if (m & (2 | 4 | 8 | 16 | 32))
		return KEY_OTHER; /* alt, ctrl, super, hyper, meta: not an answer */
	if (code == 13)
		return KEY_ENTER;
	if (code == 9)
		return KEY_TAB;
	if (code == 27)
		return KEY_ESC;
	if (code >= 'A' && code <= 'Z')
		code += 'a' - 'A';
	if (code > 0x20 && code < 0x7f)
		return (int)code;
	return KEY_OTHER;
}

/* Parameters of a CSI as numbers: p[i], sub[i] its first sub-parameter (0: none), count. */
struct csi_in {
	char leader, inter, final;
	int np;
	unsigned long p[8], sub[8], sub2[8];
	bool empty; /* no parameter bytes at all */
};

static void csi_parse(const char *b, size_t n, struct csi_in *c)
{
	size_t i = 0;
	int level = 0;

	memset(c, 0, sizeof(*c));
	c->empty = true;
	if (i < n && b[i] >= 0x3c && b[i] <= 0x3f)
		c->leader = b[i++];
	for (; i < n && b[i] >= 0x30 && b[i] <= 0x3f; i++) {
		c->empty = false;
		if (c->np == 0)
			c->np = 1;
		if (b[i] == ';') {
			if (c->np < 8)
				c->np++;
			level = 0;
		} else if (b[i] == ':') {
			level++;
		} else if (b[i] >= '0' && b[i] <= '9') {
			unsigned long *v = level == 0 ? &c->p[c->np - 1] : level == 1 ? &c->sub[c->np - 1]
										 : &c->sub2[c->np - 1];
			if (*v < 100000000)
				*v = *v * 10 + (unsigned long)(b[i] - '0');
		}
	}
	if (i < n && b[i] >= 0x20 && b[i] <= 0x2f)
		c->inter = b[i++];
	while (i < n && b[i] >= 0x20 && b[i] <= 0x2f)
		i++;
	c->final = i < n ? b[i] : 0;
}

/*
 * A CSI from the terminal: a key (*key), or the agent's (a reply, a
 * report: fwd), or a paste beginning.
 */
static void csi_class(const char *b, size_t n, int *key, bool *fwd, bool *paste)
{
	struct csi_in c;

	csi_parse(b, n, &c);
	*key = KEY_NONE;
	*fwd = false;
	*paste = false;
	if (c.final == '~' && !c.leader && c.p[0] == 200) {
		*paste = true;
	} else if (c.final == '~' && !c.leader && c.p[0] == 27 && c.np >= 3) {
		*key = key_of_code(c.p[2], c.p[1]); /* xterm's modifyOtherKeys */
	} else if (c.final == 'u' && !c.leader) {
		/* The kitty keyboard protocol: code[:shifted];mods[:event];text */
		unsigned long code = c.p[0], mods = c.np > 1 ? c.p[1] : 1, event = c.sub[1];
		if (event == 3 || event == 2 || (code >= 57358 && code <= 57454))
			return; /* a release, a repeat, a modifier or lock key alone */
		if (c.sub[0] != 0 && mods > 0 && ((mods - 1) & 1))
			code = c.sub[0];
		if (mods > 0 && ((mods - 1) & 1) && code >= 'a' && code <= 'z')
			code -= 'a' - 'A';
		*key = key_of_code(code, mods > 0 ? ((mods - 1) & ~1UL & ~(64UL | 128UL)) + 1 : 1);
	} else if ((c.leader == '<' && (c.final == 'M' || c.final == 'm')) ||
		   ((c.final == 'I' || c.final == 'O') && c.empty) || c.final == 'R' ||
		   (c.leader && c.final == 'c') || (c.inter == '$' && c.final == 'y') ||
		   c.final == 't' || c.final == 'n' || (c.leader == '?' && c.final == 'u')) {
		*fwd = true; /* mouse, focus, cursor position, attributes, modes, sizes */
	} else {
		*key = KEY_OTHER; /* arrows, function keys... */
	}
}

static size_t utf8_len(unsigned char c)
{
	return c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 1;
}

int keyin_read(struct keyin *k, const char *buf, size_t len, struct obuf *to_agent)
{
	struct obuf all = { 0 };
	int key = KEY_NONE, nkeys = 0;
	bool pasted = false;

	ob_put(&all, k->held, k->nheld);
	ob_put(&all, buf, len);
	k->nheld = 0;
	const char *d = all.p;
	size_t n = all.len, i = 0;

	while (i < n) {
		if (k->in_paste) {
			const char *end = memmem(d + i, n - i, "\033[201~", 6);
			pasted = true;
			if (end == NULL) {
				/* Its end may be cut: the last bytes are kept. */
				size_t keep = n - i < 5 ? n - i : 5;
				memcpy(k->held, d + n - keep, keep);
				k->nheld = keep;
				i = n;
				break;
			}
			k->in_paste = false;
			i = (size_t)(end - d) + 6;
			continue;
		}
		unsigned char c = (unsigned char)d[i];
		if (c != 0x1b) {
			int this = c == '\r' || c == '\n' ? KEY_ENTER : c == '\t' ? KEY_TAB : c == 3 ? KEY_INTR
				 : c < 0x20 || c == 0x7f || c >= 0x80 ? KEY_OTHER
				 : c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
			key = this;
			nkeys++;
			i += c >= 0xc0 ? utf8_len(c) : 1;
			continue;
		}
		if (i + 1 >= n)
			goto cut;
		unsigned char c1 = (unsigned char)d[i + 1];
		if (c1 == '[') {
			size_t j = i + 2;
			while (j < n && (unsigned char)d[j] >= 0x20 && (unsigned char)d[j] <= 0x3f)
				j++;
			if (j >= n)
				goto cut;
			int kk;
			bool fwd, paste;
			csi_class(d + i + 2, j - i - 1, &kk, &fwd, &paste);
			size_t end = j + 1;
			if (d[j] == 'M' && j == i + 2) {
				/* An X10 mouse report: three bytes follow. */
				if (j + 3 >= n)
					goto cut;
				fwd = true;
				kk = KEY_NONE;
				end = j + 4;
			}
			if (paste) {
				k->in_paste = true;
			} else if (fwd) {
				ob_put(to_agent, d + i, end - i);
			} else if (kk != KEY_NONE) {
				key = kk;
				nkeys++;
			}
			i = end;
			continue;
		}
		if (c1 == ']' || c1 == 'P' || c1 == '_' || c1 == '^') {
			/* A string the terminal sends: a reply (colours, capabilities). */
			size_t j = i + 2;
			while (j < n && d[j] != '\a' && !(d[j] == 0x1b && j + 1 < n && d[j + 1] == '\\'))
				j++;
			if (j >= n || (d[j] == 0x1b && j + 1 >= n))
				goto cut;
			size_t end = d[j] == '\a' ? j + 1 : j + 2;
			ob_put(to_agent, d + i, end - i);
			i = end;
			continue;
		}
		if (c1 == 'O') {
			if (i + 2 >= n)
				goto cut;
			key = KEY_OTHER; /* SS3: cursor and function keys */
			nkeys++;
			i += 3;
			continue;
		}
		/* ESC and a key: Alt with it. */
		key = KEY_OTHER;
		nkeys++;
		i += c1 == 0x1b ? 1 : 1 + utf8_len(c1);
	}
	ob_free(&all);
	return nkeys == 1 && !pasted ? key : KEY_NONE;
cut:
	if (n - i <= sizeof(k->held)) {
		memcpy(k->held, d + i, n - i);
		k->nheld = n - i;
	} else {
		ob_put(to_agent, d + i, n - i); /* too long to be a key: the agent's */
	}
	ob_free(&all);
	/* What came before the cut is judged now; the cut part with what follows. */
	return nkeys == 1 && !pasted ? key : KEY_NONE;
}

bool keyin_pending(const struct keyin *k)
{
	return k->nheld > 0 && !k->in_paste;
}

int keyin_timeout(struct keyin *k, struct obuf *to_agent)
{
	int key = KEY_NONE;

	if (k->in_paste)
		return KEY_NONE;
	if (k->nheld == 1 && k->held[0] == 0x1b)
		key = KEY_ESC;
	else
		ob_put(to_agent, k->held, k->nheld);
	k->nheld = 0;
	return key;
}

/* ---- the lines ---- */

const char *const prompt_sgr[2] = { "1;37;44", "37;44" };
const char *const prompt_idle_sgr[2] = { "2", "2" };

static void cat(char *out, size_t len, const char *s)
{
	size_t o = strlen(out);
	snprintf(out + o, len - o, "%s", s);
}

/* a, padded to put b at the right end of cols columns; a alone when both do not fit. */
static void left_right(char *out, size_t len, const char *a, const char *b, int cols)
{
	int wa = text_width(a), wb = text_width(b);

	snprintf(out, len, "%s", a);
	if (b[0] == '\0' || wa + 2 + wb > cols)
		return;
	for (int i = wa; i < cols - wb; i++)
		cat(out, len, " ");
	cat(out, len, b);
}

bool prompt_lines(const struct prompt_view *v, int cols, char *line1, char *line2, size_t len)
{
	char who[PROMPT_LINE], head[PROMPT_LINE], rule[512], full[PROMPT_LINE * 2];
	bool whole = true;

	snprintf(rule, sizeof(rule), "rule: %s", v->rule);
	/* What gives way when room is short: the chain first, then the rule; the target never. */
	for (int tries = 0;; tries++) {
		bool chain = tries == 0 && v->chain[0], with_rule = tries <= 1;
		if (chain)
			snprintf(who, sizeof(who), "%s (pid %d, %s)", v->prog, v->pid, v->chain);
		else
			snprintf(who, sizeof(who), "%s (pid %d)", v->prog, v->pid);
		snprintf(full, sizeof(full), "ward \u25b8 %s wants to %s %s%s%s%s", who, v->op, v->target,
			 v->extra[0] ? " (" : "", v->extra, v->extra[0] ? ")" : "");
		int w = text_width(full) + (with_rule ? 2 + text_width(rule) : 0);
		if (w <= cols) {
			left_right(line1, len, full, with_rule ? rule : "", cols);
			break;
		}
		if (tries == 2) {
			/* Too long even so: as much as fits, and the details show it whole. */
			text_fit(full, cols - 1, head, sizeof(head));
			snprintf(line1, len, "%s\u2026", head);
			whole = false;
			break;
		}
	}

	char waiting[96] = "";
	const char *flood = v->flooded ? "a flood answered undecided" : "";
	if (v->waiting > 0)
		snprintf(waiting, sizeof(waiting), "(+%d waiting%s%s)", v->waiting, flood[0] ? ", " : "", flood);
	else if (flood[0])
		snprintf(waiting, sizeof(waiting), "(%s)", flood);
	int room = cols - (waiting[0] ? text_width(waiting) + 2 : 0);
	/*
	 * The keys, and the scope as the rule it makes: in full, then the
	 * keys shorter, then the scope by its name (the details show the rule).
	 */
	for (int tries = 0; tries < 4; tries++) {
		const char *scope = tries < 2 ? v->scope_rule : v->scope_name;
		if (!v->can_save)
			snprintf(full, sizeof(full), "%s", tries == 0 ? "  [y] once  [n] deny  [?] details   (no rule can name this target)"
								      : " [y]once [n]deny [?]details");
		else if (tries == 0 || tries == 2)
			snprintf(full, sizeof(full),
				 "  [y] once  [s] this session  [a] always  [n] deny  [d] deny always  [tab] %s  [?] details",
				 scope);
		else
			snprintf(full, sizeof(full), " [y]once [s]session [a]always [n]deny [d]deny-always [tab] %s [?]",
				 scope);
		if (text_width(full) <= room)
			break;
		if (tries == 3 && waiting[0]) {
			if (v->waiting > 0)
				snprintf(waiting, sizeof(waiting), "+%d%s", v->waiting, flood[0] ? " flood" : "");
			else
				snprintf(waiting, sizeof(waiting), "flood");
			room = cols - text_width(waiting) - 2; /* left_right keeps two spaces between */
		}
	}
	text_fit(full, room, head, sizeof(head));
	left_right(line2, len, head, waiting, cols);
	return whole;
}

/* "label" then value, the value wrapped over as many lines as it takes. */
static int detail(char lines[][PROMPT_LINE], int n, int max, int cols, const char *label,
		  const char *value)
{
	char pre[64], chunk[PROMPT_LINE];
	const char *p = value;
	int w = cols - 12;

	if (w < 10)
		w = 10;
	do {
		if (n >= max) {
			/* More than the rows hold: said on the last one, never cut silently. */
			snprintf(lines[max - 1], PROMPT_LINE,
				 "  \u2026 more than these rows hold (ward approve --list --json shows it all)");
			return n;
		}
		snprintf(pre, sizeof(pre), "  %-9s ", p == value ? label : "");
		text_fit(p, w, chunk, sizeof(chunk));
		if (chunk[0] == '\0' && *p)
			snprintf(chunk, sizeof(chunk), "?"); /* a character wider than the room */
		snprintf(lines[n++], PROMPT_LINE, "%s%s", pre, chunk);
		p += strlen(chunk) > 0 && strcmp(chunk, "?") != 0 ? strlen(chunk) : (*p ? 1 : 0);
	} while (*p);
	return n;
}

/* A value of several lines: the label on the first. */
static int details_lines(char lines[][PROMPT_LINE], int n, int max, int cols, const char *label,
			 const char *text)
{
	char buf[PROMPT_LINE];
	bool first = true;

	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t l = nl ? (size_t)(nl - p) : strlen(p);
		snprintf(buf, sizeof(buf), "%.*s", (int)l, p);
		n = detail(lines, n, max, cols, first ? label : "", buf);
		first = false;
		p += l + (nl ? 1 : 0);
	}
	return n;
}

int prompt_details(const struct prompt_view *v, int cols, char lines[][PROMPT_LINE], int max)
{
	int n = 0;
	char buf[PROMPT_LINE];

	if (max <= 0)
		return 0;
	snprintf(lines[n++], PROMPT_LINE, "ward \u25b8 question %u in full  ([?] to go back; the keys still answer)",
		 v->serial);
	snprintf(buf, sizeof(buf), "%s %s%s%s%s", v->op, v->target, v->extra[0] ? " (" : "", v->extra,
		 v->extra[0] ? ")" : "");
	n = detail(lines, n, max, cols, "wants", buf);
	snprintf(buf, sizeof(buf), "%s (pid %d)", v->exe, v->pid);
	n = detail(lines, n, max, cols, "program", buf);
	/* What answers make before what may be long. */
	n = detail(lines, n, max, cols, "rule", v->rule);
	if (v->can_save)
		n = detail(lines, n, max, cols, "scope", v->scope_rule);
	if (v->argv[0])
		n = detail(lines, n, max, cols, "argv", v->argv);
	if (v->cwd[0])
		n = detail(lines, n, max, cols, "cwd", v->cwd);
	if (v->via != NULL && v->via[0])
		n = detail(lines, n, max, cols, "libc call", v->via);
	/* One process a line, this one first. */
	n = details_lines(lines, n, max, cols, "processes", v->procs);
	/* The caller's stack (--backtrace), innermost first. */
	if (v->stack != NULL)
		n = details_lines(lines, n, max, cols, "stack", v->stack);
	return n;
}
