/*
 * obuf.c - a growable byte buffer.
 */
#include "obuf.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool grow(struct obuf *b, size_t need)
{
	if (b->failed)
		return false;
	if (b->len + need <= b->cap)
		return true;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + need)
		cap *= 2;
	char *p = realloc(b->p, cap);
	if (p == NULL) {
		b->failed = true;
		return false;
	}
	b->p = p;
	b->cap = cap;
	return true;
}

void ob_put(struct obuf *b, const void *s, size_t n)
{
	if (n == 0 || !grow(b, n))
		return;
	memcpy(b->p + b->len, s, n);
	b->len += n;
}

void ob_puts(struct obuf *b, const char *s)
{
	ob_put(b, s, strlen(s));
}

void ob_printf(struct obuf *b, const char *fmt, ...)
{
	char small[256];
	va_list ap;

	va_start(ap, fmt);
	int n = vsnprintf(small, sizeof(small), fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof(small)) {
		ob_put(b, small, (size_t)n);
		return;
	}
	if (!grow(b, (size_t)n + 1))
		return;
	va_start(ap, fmt);
	vsnprintf(b->p + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

void ob_consume(struct obuf *b, size_t n)
{
	if (n >= b->len) {
		b->len = 0;
		return;
	}
	memmove(b->p, b->p + n, b->len - n);
	b->len -= n;
}

void ob_reset(struct obuf *b)
{
	b->len = 0;
	b->failed = false;
}

void ob_free(struct obuf *b)
{
	free(b->p);
	*b = (struct obuf){ 0 };
}
