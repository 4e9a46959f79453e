/*
 * logread.h - the audit log read back, one event at a time (logread.c).
 *
 *	struct logread *r = logread_open(path, &err);
 *	struct lev e;
 *	while ((rc = logread_next(r, &e)) > 0)
 *		... e.event, e.path, e.pid ...
 *	logread_close(r);
 *
 * Memory does not grow with the log: one line is held at a time.  A line
 * that is not a JSON object with an "event" is counted, its number kept
 * (the first LOGREAD_BAD_KEPT of them), and skipped.
 */
#ifndef WARD_LOGREAD_H
#define WARD_LOGREAD_H

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define LEV_NONE INT64_MIN /* an integer field the line does not have */
#define LOGREAD_BAD_KEPT 20

/*
 * One event.  Strings point into the reader and live until the next call;
 * a field the line does not have is NULL (strings), LEV_NONE (integers)
 * or -1 (booleans).  Fields of an unexpected type count as absent.
 */
struct lev {
	unsigned long line; /* 1-based */
	int64_t t_us;	    /* ts as microseconds since the epoch, or LEV_NONE */
	const char *event, *ts, *session, *exe, *syscall, *op, *path, *to, *decision, *err,
		*rule, *by, *answer, *addr, *host, *would, *reason, *via, *hint_host;
	int64_t pid, tid, ppid, port, status, target, signal, lost;
	double duration; /* session-end's; < 0 when absent */
	int is_static, preload;
	/*
	 * The whole line as jansson read it, when it holds more than strings,
	 * integers and booleans (an exec's argv, session-start, session-end's
	 * repos); else NULL.  Owned by the reader.
	 */
	json_t *obj;
};

struct logread_bad {
	unsigned long line;
	char why[80];
};

struct logread;

/* path "-" is standard input.  NULL with *err a negative errno. */
struct logread *logread_open(const char *path, int *err);
/* 1 with e filled, 0 at the end, a negative errno when reading fails. */
int logread_next(struct logread *r, struct lev *e);
void logread_close(struct logread *r);
/* Malformed lines skipped so far, and the first of them. */
unsigned long logread_bad(const struct logread *r, const struct logread_bad **first,
			  size_t *nfirst);
/*
 * The last line had no newline.  Said apart from malformed lines: in the
 * log of a running session it is a line still being written (logread_next
 * leaves it out when hold_partial was set), elsewhere a cut log.
 */
bool logread_partial(const struct logread *r);
void logread_hold_partial(struct logread *r, bool hold);
/* Lines read so far. */
unsigned long logread_lines(const struct logread *r);

/* "2026-11-29T14:02:29.123456Z" as microseconds since the epoch; LEV_NONE if not that. */
int64_t logread_time(const char *ts);

#endif
