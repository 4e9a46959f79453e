/*
 * jline.h - one JSON object written straight into a buffer (jline.c).
 *
 *	struct jline l;
 *	jl_init(&l, buf, sizeof(buf));
 *	jl_str(&l, "event", "exit");
 *	jl_int(&l, "status", 0);
 *	size_t n = jl_end(&l);		0: it did not fit
 */
#ifndef WARD_JLINE_H
#define WARD_JLINE_H

#include <stdbool.h>
#include <stddef.h>

struct jline {
	char *buf;
	size_t cap, len;
	bool over;  /* the buffer ran out: jl_end says 0 */
	bool comma; /* a member came before: the next one needs a comma */
	int depth;
};

void jl_init(struct jline *l, char *buf, size_t cap);
/* "key": value.  A NULL key is an array element. */
void jl_str(struct jline *l, const char *key, const char *val);
void jl_int(struct jline *l, const char *key, long long v);
void jl_bool(struct jline *l, const char *key, bool v);
/* A value that is JSON already. */
void jl_raw(struct jline *l, const char *key, const char *json, size_t n);
/* A nested object ('{' ... '}') or array ('[' ... ']'). */
void jl_open(struct jline *l, const char *key, char bracket);
void jl_close(struct jline *l, char bracket);
size_t jl_end(struct jline *l);

/* Low level: a quoted, escaped string; bytes as they are; a separator and key. */
void jl_string(struct jline *l, const char *s);
void jl_put(struct jline *l, const char *s, size_t n);
void jl_key(struct jline *l, const char *key);

#endif
