/*
 * jline.c - one JSON object, written straight into a line buffer.
 *
 * The log's hot events (every decision, every spawn, exec and exit) are
 * written with this instead of jansson: building a jansson object and
 * dumping it cost about 3.4 us of the 9 us ward spends on an open
 * (measured, bench/calls), this about a tenth of that.  The output is
 * byte for byte what jansson writes with JSON_COMPACT | JSON_ENSURE_ASCII
 * (tests/unit/test_jline.c compares the two on random input), and bytes
 * that are not UTF-8 are escaped as jpath() does: "\xNN" for each byte
 * from 0x80, as text.
 */
#include "jline.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>

void jl_init(struct jline *l, char *buf, size_t cap)
{
	l->buf = buf;
	l->cap = cap;
	l->len = 0;
	l->over = cap < 2;
	l->comma = false;
	l->depth = 0;
	jl_put(l, "{", 1);
}

void jl_put(struct jline *l, const char *s, size_t n)
{
	if (l->over || n > l->cap - l->len) {
		l->over = true;
		return;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
}

static void put_c(struct jline *l, char c)
{
	jl_put(l, &c, 1);
}

/* Length of the UTF-8 sequence at s and its code point; 0 if invalid (as jansson judges). */
static int utf8_seq(const unsigned char *s, uint32_t *cp)
{
	unsigned char u = s[0];
	int n;
	uint32_t v;

	if (u < 0x80) {
		*cp = u;
		return 1;
	}
	if (u >= 0xC2 && u <= 0xDF) {
		n = 2;
		v = u & 0x1F;
	} else if (u >= 0xE0 && u <= 0xEF) {
		n = 3;
		v = u & 0x0F;
	} else if (u >= 0xF0 && u <= 0xF4) {
		n = 4;
		v = u & 0x07;
	} else {
		return 0; /* a continuation byte, 0xC0, 0xC1 or above 0xF4 */
	}
	for (int i = 1; i < n; i++) {
		if (s[i] < 0x80 || s[i] > 0xBF)
			return 0; /* the NUL at the end is caught here too */
		v = (v << 6) | (s[i] & 0x3F);
	}
	if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) || (n == 3 && v < 0x800) ||
	    (n == 4 && v < 0x10000))
		return 0;
	*cp = v;
	return n;
}

static bool utf8_valid(const char *s)
{
	uint32_t cp;
	for (const unsigned char *p = (const unsigned char *)s; *p;) {
		int n = utf8_seq(p, &cp);
		if (n == 0)
			return false;
		p += n;
	}
	return true;
}

static void put_escaped(struct jline *l, uint32_t cp)
{
	char seq[16];
	int n;

	switch (cp) {
	case '\\': jl_put(l, "\\\\", 2); return;
	case '"': jl_put(l, "\\\"", 2); return;
	case '\b': jl_put(l, "\\b", 2); return;
	case '\f': jl_put(l, "\\f", 2); return;
	case '\n': jl_put(l, "\\n", 2); return;
	case '\r': jl_put(l, "\\r", 2); return;
	case '\t': jl_put(l, "\\t", 2); return;
	}
	if (cp < 0x10000) {
		n = snprintf(seq, sizeof(seq), "\\u%04X", (unsigned)cp);
	} else {
		cp -= 0x10000;
		n = snprintf(seq, sizeof(seq), "\\u%04X\\u%04X", 0xD800u | (cp >> 10),
			     0xDC00u | (cp & 0x3FF));
	}
	jl_put(l, seq, (size_t)n);
}

/* Bytes JSON takes as they are: printable ASCII but for '"' and '\\'. */
static bool plain(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\';
}

void jl_string(struct jline *l, const char *s)
{
	const unsigned char *p = (const unsigned char *)s;

	/* Most strings (paths, names, keys) are plain: one scan, one copy. */
	while (plain(*p))
		p++;
	put_c(l, '"');
	jl_put(l, s, (size_t)(p - (const unsigned char *)s));
	/* Whether the rest is UTF-8 (the plain start is). */
	bool valid = *p == '\0' || utf8_valid((const char *)p);
	while (*p && !l->over) {
		/* A run of characters that need no escape, copied at once. */
		const unsigned char *run = p;
		while (plain(*p))
			p++;
		if (p > run)
			jl_put(l, (const char *)run, (size_t)(p - run));
		if (*p == '\0')
			break;
		uint32_t cp;
		int n = valid ? utf8_seq(p, &cp) : 1;
		if (!valid && *p >= 0x80) {
			/* jpath: the byte as the text \xNN, its backslash escaped. */
			char seq[8];
			snprintf(seq, sizeof(seq), "\\\\x%02x", *p);
			jl_put(l, seq, 5);
		} else {
			put_escaped(l, valid ? cp : *p);
		}
		p += n;
	}
	put_c(l, '"');
}

void jl_key(struct jline *l, const char *key)
{
	if (l->comma)
		put_c(l, ',');
	l->comma = true;
	if (key != NULL) {
		jl_string(l, key);
		put_c(l, ':');
	}
}

void jl_str(struct jline *l, const char *key, const char *val)
{
	jl_key(l, key);
	jl_string(l, val);
}

void jl_int(struct jline *l, const char *key, long long v)
{
	char num[24], *e = num + sizeof(num), *d = e;
	/* Digits by hand: snprintf's format parsing was a visible part of a log line. */
	unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;

	do
		*--d = (char)('0' + u % 10);
	while ((u /= 10) != 0);
	if (v < 0)
		*--d = '-';
	jl_key(l, key);
	jl_put(l, d, (size_t)(e - d));
}

void jl_bool(struct jline *l, const char *key, bool v)
{
	jl_key(l, key);
	jl_put(l, v ? "true" : "false", v ? 4 : 5);
}

void jl_raw(struct jline *l, const char *key, const char *json, size_t n)
{
	jl_key(l, key);
	jl_put(l, json, n);
}

void jl_open(struct jline *l, const char *key, char bracket)
{
	jl_key(l, key);
	put_c(l, bracket);
	l->comma = false;
	l->depth++;
}

void jl_close(struct jline *l, char bracket)
{
	put_c(l, bracket);
	l->comma = true;
	l->depth--;
}

size_t jl_end(struct jline *l)
{
	put_c(l, '}');
	return l->over || l->depth != 0 ? 0 : l->len;
}
