/*
 * logread.c - the audit log read back as a stream of events.
 *
 * Most lines of a log are flat objects of strings, integers and booleans
 * (every decision, spawn and exit), written by jline.c.  Those are read
 * here by a small scanner that takes exactly that subset of JSON; any line
 * with something else in it (an array, a nested object, a real number, a
 * byte outside ASCII, an escape it does not take) goes to jansson, which
 * also has the last word on a line the scanner did not accept, and so
 * names the error of a malformed one.  The scanner is there for speed:
 * jansson reads about 200,000 log lines a second on the machines ward is
 * built on, the scanner several times that, and `ward report` of a
 * million-line log must take seconds (bench/report.sh).
 */
#include "logread.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define READ_CHUNK (1 << 20)
/* A line longer than this is not one ward writes (an exec's is at most 256 KiB). */
#define LINE_LIMIT (16u << 20)

struct logread {
	int fd;
	char *buf;
	size_t cap, start, end;
	bool eof, partial, hold_partial, skipping;
	unsigned long lineno, nbad;
	char *dec; /* decoded strings of the current line */
	size_t deccap;
	json_t *obj;
	struct logread_bad bad[LOGREAD_BAD_KEPT];
	/* The last timestamp's part to the second, and its value. */
	char ts_prefix[20];
	int64_t ts_sec;
};

enum ftype { F_STR, F_INT, F_BOOL, F_REAL };

struct field {
	const char *name;
	unsigned char len;
	unsigned char type;
	unsigned short off;
};

#define S(n, f) { n, sizeof(n) - 1, F_STR, offsetof(struct lev, f) }
#define I(n, f) { n, sizeof(n) - 1, F_INT, offsetof(struct lev, f) }
#define B(n, f) { n, sizeof(n) - 1, F_BOOL, offsetof(struct lev, f) }
/* The fields of every line first: most keys are found in a few steps. */
static const struct field fields[] = {
	S("ts", ts),
	S("session", session),
	S("event", event),
	I("pid", pid),
	I("ppid", ppid),
	S("exe", exe),
	S("syscall", syscall),
	S("op", op),
	S("path", path),
	S("decision", decision),
	S("rule", rule),
	S("by", by),
	S("errno", err),
	I("tid", tid),
	S("to", to),
	S("addr", addr),
	I("port", port),
	S("host", host),
	S("would", would),
	S("answer", answer),
	S("reason", reason),
	S("via", via),
	S("hint_host", hint_host),
	I("status", status),
	I("target", target),
	I("signal", signal),
	I("lost", lost),
	B("static", is_static),
	B("preload", preload),
	{ "duration", 8, F_REAL, offsetof(struct lev, duration) },
};
#undef S
#undef I
#undef B

static const struct field *field_find(const char *key, size_t n)
{
	/* Length and first letter tell most keys apart before any memcmp. */
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++)
		if (fields[i].len == n && fields[i].name[0] == key[0] &&
		    memcmp(fields[i].name, key, n) == 0)
			return &fields[i];
	return NULL;
}

static void lev_clear(struct lev *e, unsigned long line)
{
	memset(e, 0, sizeof(*e));
	e->line = line;
	e->t_us = e->pid = e->tid = e->ppid = e->port = e->status = e->target = e->signal =
		e->lost = LEV_NONE;
	e->duration = -1;
	e->is_static = e->preload = -1;
}

struct logread *logread_open(const char *path, int *err)
{
	struct logread *r = calloc(1, sizeof(*r));

	if (r == NULL) {
		*err = -ENOMEM;
		return NULL;
	}
	r->fd = strcmp(path, "-") == 0 ? dup(0) : open(path, O_RDONLY | O_CLOEXEC);
	r->cap = READ_CHUNK;
	r->buf = malloc(r->cap);
	r->deccap = 4096;
	r->dec = malloc(r->deccap);
	if (r->fd < 0 || r->buf == NULL || r->dec == NULL) {
		*err = r->fd < 0 ? -errno : -ENOMEM;
		logread_close(r);
		return NULL;
	}
	return r;
}

void logread_close(struct logread *r)
{
	if (r == NULL)
		return;
	if (r->fd >= 0)
		close(r->fd);
	json_decref(r->obj);
	free(r->buf);
	free(r->dec);
	free(r);
}

unsigned long logread_bad(const struct logread *r, const struct logread_bad **first,
			  size_t *nfirst)
{
	*first = r->bad;
	*nfirst = r->nbad < LOGREAD_BAD_KEPT ? r->nbad : LOGREAD_BAD_KEPT;
	return r->nbad;
}

bool logread_partial(const struct logread *r)
{
	return r->partial;
}

void logread_hold_partial(struct logread *r, bool hold)
{
	r->hold_partial = hold;
}

unsigned long logread_lines(const struct logread *r)
{
	return r->lineno;
}

static void note_bad(struct logread *r, const char *fmt, const char *what)
{
	if (r->nbad < LOGREAD_BAD_KEPT) {
		struct logread_bad *b = &r->bad[r->nbad];
		char why[sizeof(b->why)];
		b->line = r->lineno;
		snprintf(why, sizeof(why), fmt, what);
		/* Only the last line can lack its newline. */
		snprintf(b->why, sizeof(b->why), "%s%s", r->partial ? "cut short: " : "", why);
	}
	r->nbad++;
}

/* Days from 1970-01-01 to a civil date (proleptic Gregorian). */
static int64_t days_from_civil(int64_t y, unsigned m, unsigned d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	unsigned yoe = (unsigned)(y - era * 400);
	unsigned doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	unsigned doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + (int64_t)doe - 719468;
}

static int digits(const char *s, int n)
{
	int v = 0;
	for (int i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (s[i] - '0');
	}
	return v;
}

static int64_t parse_time(struct logread *r, const char *ts)
{
	/* 0123456789012345678901234567 */
	/* 2026-11-29T14:02:29.123456Z  */
	if (strlen(ts) != 27 || ts[4] != '-' || ts[7] != '-' || ts[10] != 'T' || ts[13] != ':' ||
	    ts[16] != ':' || ts[19] != '.' || ts[26] != 'Z')
		return LEV_NONE;
	int us = digits(ts + 20, 6);
	if (us < 0)
		return LEV_NONE;
	if (r == NULL || memcmp(ts, r->ts_prefix, 19) != 0) {
		int y = digits(ts, 4), mo = digits(ts + 5, 2), d = digits(ts + 8, 2);
		int h = digits(ts + 11, 2), mi = digits(ts + 14, 2), s = digits(ts + 17, 2);
		if (y < 0 || mo < 1 || mo > 12 || d < 1 || d > 31 || h < 0 || h > 23 || mi < 0 ||
		    mi > 59 || s < 0 || s > 60)
			return LEV_NONE;
		int64_t sec = days_from_civil(y, (unsigned)mo, (unsigned)d) * 86400 + h * 3600 +
			      mi * 60 + s;
		if (r == NULL)
			return sec * 1000000 + us;
		memcpy(r->ts_prefix, ts, 19);
		r->ts_sec = sec;
	}
	return r->ts_sec * 1000000 + us;
}

int64_t logread_time(const char *ts)
{
	return parse_time(NULL, ts);
}

static int hex4(const char *p, const char *end)
{
	int v = 0;
	if (end - p < 4)
		return -1;
	for (int i = 0; i < 4; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
						: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

/*
 * The string at *pp (its opening quote), decoded to *out and NUL-ended;
 * *pp after its closing quote.  NULL for anything the scanner leaves to
 * jansson.
 */
static const char *scan_string(const char **pp, const char *end, char **out)
{
	const char *p = *pp + 1;
	char *o = *out, *start = o;

	while (p < end) {
		unsigned char c = (unsigned char)*p;
		if (c == '"') {
			*o++ = '\0';
			*pp = p + 1;
			*out = o;
			return start;
		}
		if (c < 0x20 || c >= 0x80)
			return NULL;
		if (c != '\\') {
			*o++ = (char)c;
			p++;
			continue;
		}
		if (++p >= end)
			return NULL;
		switch (*p++) {
		case '"': *o++ = '"'; break;
		case '\\': *o++ = '\\'; break;
		case '/': *o++ = '/'; break;
		case 'b': *o++ = '\b'; break;
		case 'f': *o++ = '\f'; break;
		case 'n': *o++ = '\n'; break;
		case 'r': *o++ = '\r'; break;
		case 't': *o++ = '\t'; break;
		case 'u': {
			int u = hex4(p, end);
			if (u <= 0)
				return NULL; /* not hex, or NUL inside a string */
			p += 4;
			unsigned cp = (unsigned)u;
			if (cp >= 0xDC00 && cp <= 0xDFFF)
				return NULL;
			if (cp >= 0xD800 && cp <= 0xDBFF) {
				int lo = end - p >= 6 && p[0] == '\\' && p[1] == 'u' ? hex4(p + 2, end) : -1;
				if (lo < 0xDC00 || lo > 0xDFFF)
					return NULL;
				p += 6;
				cp = 0x10000 + ((cp - 0xD800) << 10) + ((unsigned)lo - 0xDC00);
			}
			/* Never longer than its escape: \uXXXX is six bytes. */
			if (cp < 0x80) {
				*o++ = (char)cp;
			} else if (cp < 0x800) {
				*o++ = (char)(0xC0 | (cp >> 6));
				*o++ = (char)(0x80 | (cp & 0x3F));
			} else if (cp < 0x10000) {
				*o++ = (char)(0xE0 | (cp >> 12));
				*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
				*o++ = (char)(0x80 | (cp & 0x3F));
			} else {
				*o++ = (char)(0xF0 | (cp >> 18));
				*o++ = (char)(0x80 | ((cp >> 12) & 0x3F));
				*o++ = (char)(0x80 | ((cp >> 6) & 0x3F));
				*o++ = (char)(0x80 | (cp & 0x3F));
			}
			break;
		}
		default:
			return NULL;
		}
	}
	return NULL;
}

static const char *skip_ws(const char *p, const char *end)
{
	while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n'))
		p++;
	return p;
}

static void set_str(struct lev *e, const struct field *f, const char *v)
{
	if (f != NULL && f->type == F_STR)
		*(const char **)((char *)e + f->off) = v;
}

static void set_int(struct lev *e, const struct field *f, int64_t v)
{
	if (f != NULL && f->type == F_INT)
		*(int64_t *)((char *)e + f->off) = v;
	else if (f != NULL && f->type == F_REAL)
		*(double *)((char *)e + f->off) = (double)v;
}

static void set_bool(struct lev *e, const struct field *f, bool v)
{
	if (f != NULL && f->type == F_BOOL)
		*(int *)((char *)e + f->off) = v;
}

/* 1: the line read; 0: not a flat object the scanner takes (jansson's turn). */
static int scan_flat(struct logread *r, const char *s, size_t n, struct lev *e)
{
	const char *p = s, *end = s + n;
	char *out = r->dec;

	p = skip_ws(p, end);
	if (p >= end || *p++ != '{')
		return 0;
	p = skip_ws(p, end);
	if (p < end && *p == '}') {
		p++;
		goto done;
	}
	for (;;) {
		if (p >= end || *p != '"')
			return 0;
		char *kstart = out;
		if (scan_string(&p, end, &out) == NULL)
			return 0;
		const struct field *f = field_find(kstart, (size_t)(out - kstart - 1));
		p = skip_ws(p, end);
		if (p >= end || *p++ != ':')
			return 0;
		p = skip_ws(p, end);
		if (p >= end)
			return 0;
		if (*p == '"') {
			const char *v = scan_string(&p, end, &out);
			if (v == NULL)
				return 0;
			set_str(e, f, v);
		} else if (*p == '-' || (*p >= '0' && *p <= '9')) {
			bool neg = *p == '-';
			uint64_t v = 0;
			const char *d0 = p += neg;
			while (p < end && *p >= '0' && *p <= '9') {
				if (v > (UINT64_MAX - 9) / 10)
					return 0;
				v = v * 10 + (uint64_t)(*p++ - '0');
			}
			/* No digits, a leading zero, a fraction or an exponent: jansson's. */
			if (p == d0 || (*d0 == '0' && p - d0 > 1) || v > INT64_MAX ||
			    (p < end && (*p == '.' || *p == 'e' || *p == 'E')))
				return 0;
			set_int(e, f, neg ? -(int64_t)v : (int64_t)v);
		} else if (end - p >= 4 && memcmp(p, "true", 4) == 0) {
			set_bool(e, f, true);
			p += 4;
		} else if (end - p >= 5 && memcmp(p, "false", 5) == 0) {
			set_bool(e, f, false);
			p += 5;
		} else if (end - p >= 4 && memcmp(p, "null", 4) == 0) {
			p += 4;
		} else {
			return 0;
		}
		p = skip_ws(p, end);
		if (p < end && *p == ',') {
			p = skip_ws(p + 1, end);
			continue;
		}
		if (p < end && *p == '}') {
			p++;
			break;
		}
		return 0;
	}
done:
	return skip_ws(p, end) == end;
}

/* The line by jansson: 1, or 0 when it is not JSON or not an object (noted). */
static int parse_json(struct logread *r, const char *s, size_t n, struct lev *e)
{
	json_error_t jerr;
	const char *key;
	json_t *v;

	/* The line before, when it was malformed, is dropped here. */
	json_decref(r->obj);
	r->obj = json_loadb(s, n, 0, &jerr);
	if (r->obj == NULL) {
		note_bad(r, "%s", jerr.text);
		return 0;
	}
	if (!json_is_object(r->obj)) {
		note_bad(r, "%s", "not a JSON object");
		json_decref(r->obj);
		r->obj = NULL;
		return 0;
	}
	json_object_foreach(r->obj, key, v) {
		const struct field *f = field_find(key, strlen(key));
		if (f == NULL)
			continue;
		if (json_is_string(v))
			set_str(e, f, json_string_value(v));
		else if (json_is_integer(v))
			set_int(e, f, json_integer_value(v));
		else if (json_is_real(v) && f->type == F_REAL)
			*(double *)((char *)e + f->off) = json_real_value(v);
		else if (json_is_boolean(v))
			set_bool(e, f, json_is_true(v));
	}
	return 1;
}

/* One line into e: 1, or 0 when it is not an event (noted). */
static int parse_line(struct logread *r, const char *s, size_t n, struct lev *e)
{
	if (n + 1 > r->deccap) {
		size_t cap = r->deccap;
		while (cap < n + 1)
			cap *= 2;
		char *d = realloc(r->dec, cap);
		if (d == NULL) {
			note_bad(r, "%s", "out of memory");
			return 0;
		}
		r->dec = d;
		r->deccap = cap;
	}
	lev_clear(e, r->lineno);
	if (scan_flat(r, s, n, e) == 0) {
		lev_clear(e, r->lineno);
		if (parse_json(r, s, n, e) == 0)
			return 0;
		e->obj = r->obj;
	}
	if (e->event == NULL) {
		note_bad(r, "%s", "no \"event\"");
		return 0;
	}
	if (e->ts != NULL)
		e->t_us = parse_time(r, e->ts);
	return 1;
}

/* Read more of the file into the buffer: 1, 0 at its end, or -errno. */
static int fill(struct logread *r)
{
	if (r->start > 0) {
		memmove(r->buf, r->buf + r->start, r->end - r->start);
		r->end -= r->start;
		r->start = 0;
	}
	if (r->end == r->cap) {
		if (r->cap >= LINE_LIMIT) {
			/* A line longer than any ward writes: skipped to its end. */
			if (!r->skipping) {
				r->lineno++;
				note_bad(r, "%s", "a line longer than 16 MiB");
			}
			r->skipping = true;
			r->end = 0;
		} else {
			char *b = realloc(r->buf, r->cap * 2);
			if (b == NULL)
				return -ENOMEM;
			r->buf = b;
			r->cap *= 2;
		}
	}
	ssize_t got;
	do
		got = read(r->fd, r->buf + r->end, r->cap - r->end);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		return -errno;
	r->end += (size_t)got;
	return got > 0;
}

int logread_next(struct logread *r, struct lev *e)
{
	json_decref(r->obj);
	r->obj = NULL;
	for (;;) {
		char *line = r->buf + r->start;
		size_t avail = r->end - r->start;
		char *nl = avail ? memchr(line, '\n', avail) : NULL;
		size_t n;
		if (nl == NULL && !r->eof) {
			int rc = fill(r);
			if (rc < 0)
				return rc;
			if (rc == 0)
				r->eof = true;
			continue;
		}
		if (nl != NULL) {
			n = (size_t)(nl - line);
			r->start += n + 1;
			if (r->skipping) {
				r->skipping = false;
				continue;
			}
		} else {
			if (avail == 0 || r->skipping)
				return 0;
			/* The end of the file without a newline: a line cut short. */
			n = avail;
			r->start = r->end;
			r->partial = true;
			if (r->hold_partial)
				return 0;
		}
		r->lineno++;
		if (skip_ws(line, line + n) == line + n)
			continue; /* a blank line says nothing */
		if (parse_line(r, line, n, e))
			return 1;
	}
}
