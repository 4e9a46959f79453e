/*
 * util.c - the command line's messages (util.h).
 */
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

noreturn void die(int status, const char *fmt, ...)
{
	int saved = errno;
	va_list ap;

	fputs("ward: ", stderr);
	va_start(ap, fmt);
	errno = saved;
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
	exit(status);
}

void warnx_(const char *fmt, ...)
{
	va_list ap;

	fputs("ward: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

/* The length of the UTF-8 sequence at c, or 0 when it is not one. */
size_t utf8_len(const unsigned char *c)
{
	size_t n = *c >= 0xc2 && *c <= 0xdf ? 2 : *c >= 0xe0 && *c <= 0xef ? 3
						: *c >= 0xf0 && *c <= 0xf4 ? 4 : 0;
	for (size_t i = 1; i < n; i++)
		if (c[i] < 0x80 || c[i] > 0xbf)
			return 0;
	return n;
}

/*
 * A character that shows as nothing, as a space, or that reorders what
 * follows (bidi controls): one argument could pass for two, or a name for
 * another.  Its code point, or 0.
 */
static unsigned invisible(const unsigned char *c, size_t n)
{
	unsigned cp;

	if (n == 2)
		cp = (c[0] & 0x1fu) << 6 | (c[1] & 0x3fu);
	else if (n == 3)
		cp = (c[0] & 0x0fu) << 12 | (c[1] & 0x3fu) << 6 | (c[2] & 0x3fu);
	else
		return 0;
	if (cp == 0xa0 || cp == 0xad || (cp >= 0x2000 && cp <= 0x200f) || (cp >= 0x2028 && cp <= 0x202f) ||
	    (cp >= 0x205f && cp <= 0x206f) || cp == 0x3000 || cp == 0xfeff)
		return cp;
	return 0;
}

const char *term_safe(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (const unsigned char *c = (const unsigned char *)s; *c != '\0' && o + 9 < len;) {
		size_t n = *c < 0x80 ? 1 : utf8_len(c);
		/*
		 * C0 and DEL; C1 as UTF-8 (U+0080..U+009F: CSI is one) or as a raw
		 * byte (a terminal in 8-bit mode reads it), and any byte not in a
		 * UTF-8 sequence: as \xNN.  A backslash doubled.
		 */
		if (n == 0 || (n == 1 && (*c < 0x20 || *c == 0x7f)) ||
		    (n == 2 && c[0] == 0xc2 && c[1] <= 0x9f)) {
			size_t k = n == 0 ? 1 : n;
			for (size_t i = 0; i < k; i++)
				o += (size_t)snprintf(buf + o, len - o, "\\x%02x", c[i]);
			c += k;
		} else if (invisible(c, n)) {
			o += (size_t)snprintf(buf + o, len - o, "\\u{%04x}", invisible(c, n));
			c += n;
		} else if (*c == '\\') {
			o += (size_t)snprintf(buf + o, len - o, "\\\\");
			c++;
		} else {
			if (o + n >= len)
				break;
			memcpy(buf + o, c, n);
			o += n;
			c += n;
		}
	}
	buf[o] = '\0';
	return buf;
}

bool path_below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return true;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}
