/*
 * cli/util.h - the command line's messages: die, warnx_ and term_safe.
 *
 * Only the command line prints to the user's terminal; the supervisor's
 * modules return errors and leave the words to it.
 */
#ifndef WARD_CLI_UTIL_H
#define WARD_CLI_UTIL_H

#include <stddef.h>
#include <stdnoreturn.h>

/* Start-up only: print "ward: MESSAGE" and exit with status (errno kept for %m). */
noreturn void die(int status, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Print "ward: MESSAGE" on stderr. */
void warnx_(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/*
 * s for a terminal: control characters, C1 ones in UTF-8 too (an agent's
 * file name may hold an escape sequence that rewrites what ward said) as
 * \xNN, and a backslash as two.  Returns buf.
 */
const char *term_safe(const char *s, char *buf, size_t len);
/* The length of the UTF-8 sequence at c, or 0 when it is not one. */
size_t utf8_len(const unsigned char *c);

#endif
