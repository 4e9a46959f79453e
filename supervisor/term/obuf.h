/*
 * obuf.h - a growable byte buffer: what the terminal code writes, before
 * it is written.  Not for the notification path (it allocates).
 */
#ifndef WARD_OBUF_H
#define WARD_OBUF_H

#include <stdbool.h>
#include <stddef.h>

struct obuf {
	char *p;
	size_t len, cap;
	bool failed; /* an allocation failed: what was put since is lost */
};

void ob_put(struct obuf *b, const void *s, size_t n);
void ob_puts(struct obuf *b, const char *s);
void ob_printf(struct obuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Drop the first n bytes (written already). */
void ob_consume(struct obuf *b, size_t n);
void ob_reset(struct obuf *b);
void ob_free(struct obuf *b);

#endif
