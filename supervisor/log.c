/*
 * log.c - the audit log: JSON Lines, one object per event (DESIGN.md §6).
 *
 * Each line is written with one write(2) to a file opened O_APPEND, before
 * the reply to the agent is sent, so a line is in the file even if ward or
 * the agent is killed the next moment.  The hot events (decisions, spawn,
 * exec, exit) are written straight into the line by jline.c; the rare ones
 * (session start and end) are built with jansson, which allocates from a
 * per-thread arena that is reset after every line.
 */
#include "log.h"
#include "notify.h"
#include "proc.h"
#include "session.h"
#include "jline.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#define ARENA_SIZE (256 * 1024)
#define LINE_MAX_BYTES (64 * 1024)

struct arena {
	size_t used;
	char mem[ARENA_SIZE];
};
static __thread struct arena *arena;
static int log_fd = -1;
static void (*echo)(const struct log_echo *e);
/* log_refused: refusals logged, not those with the call's native error. */
static atomic_ulong nrefused;

unsigned long log_refused(void)
{
	return atomic_load(&nrefused);
}

/*
 * Whether the calling thread is building a log line: only then does
 * jansson allocate from its arena.  Other JSON (the person's answers kept
 * for session-end, the control socket's messages) lives longer than a
 * line, and the arena is reused after each one.
 */
static __thread bool arena_on;

/* Arena allocation; once spent, the ordinary heap (and free knows which). */
static void *arena_malloc(size_t size)
{
	if (!arena_on)
		return malloc(size);
	if (arena == NULL && (arena = calloc(1, sizeof(*arena))) == NULL)
		return malloc(size);
	if (arena != NULL) {
		size_t at = (arena->used + 15) & ~(size_t)15;
		if (at + size <= sizeof(arena->mem)) {
			arena->used = at + size;
			return arena->mem + at;
		}
	}
	return malloc(size);
}

static void arena_free(void *ptr)
{
	if (arena != NULL && (char *)ptr >= arena->mem &&
	    (char *)ptr < arena->mem + sizeof(arena->mem))
		return;
	free(ptr);
}

/* Give the calling thread its arena (done once per thread, off the hot path). */
static int arena_enter(void)
{
	if (arena == NULL && (arena = calloc(1, sizeof(*arena))) == NULL)
		return -ENOMEM;
	arena_on = true;
	return 0;
}

/* After a line is written nothing of it is alive: start the arena again. */
static void arena_reset(void)
{
	if (arena != NULL)
		arena->used = 0;
	arena_on = false;
}

int log_open(const char *path)
{
	json_set_alloc_funcs(arena_malloc, arena_free);
	log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (log_fd < 0)
		return -errno;
	/*
	 * A lock on the open file, held until ward exits however it exits,
	 * tells ward sessions and ward report that the session is still
	 * running (they ask with F_OFD_GETLK, taking nothing).  Not having
	 * it (another session writing the same file) costs only that.
	 */
	struct flock fl = { .l_type = F_WRLCK, .l_whence = SEEK_SET };
	if (!log_is_device())
		(void)fcntl(log_fd, F_OFD_SETLK, &fl);
	return 0;
}

void log_set_echo(void (*fn)(const struct log_echo *e))
{
	echo = fn;
}

bool log_is_device(void)
{
	struct stat st;

	return log_fd >= 0 && fstat(log_fd, &st) == 0 && S_ISCHR(st.st_mode);
}

void log_close(void)
{
	if (log_fd >= 0)
		fsync(log_fd);
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
}

/* RFC 3339, UTC, microseconds; the part to the second made once a second per thread. */
static void timestamp(char *buf, size_t len)
{
	static __thread time_t sec = -1;
	static __thread char prefix[32];
	static __thread size_t plen;
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	if (ts.tv_sec != sec) {
		struct tm tm;
		gmtime_r(&ts.tv_sec, &tm);
		plen = strftime(prefix, sizeof(prefix), "%Y-%m-%dT%H:%M:%S", &tm);
		sec = ts.tv_sec;
	}
	if (len < plen + 9) {
		buf[0] = '\0';
		return;
	}
	memcpy(buf, prefix, plen);
	char *p = buf + plen;
	long us = ts.tv_nsec / 1000;
	p[0] = '.';
	for (int i = 6; i >= 1; i--, us /= 10)
		p[i] = (char)('0' + us % 10);
	p[7] = 'Z';
	p[8] = '\0';
}

/* A thread's line, for a decision or an event built with jansson. */
static __thread char line_buf[LINE_MAX_BYTES];
static __thread char *emit_tail; /* jansson's dump of an event's own fields */

/*
 * One line to the file, with one write(2).  A write cut short (the disk
 * full) leaves part of a line, which the next line would be glued to:
 * the file is cut back to where the line began, so every line in it is
 * whole.  Lines are written one at a time for that (the kernel writes
 * them one at a time anyway).  A line not written is counted.
 */
static pthread_mutex_t write_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned long lost;

static int write_line(char *line, size_t n)
{
	ssize_t w;
	int rc;

	line[n++] = '\n';
	pthread_mutex_lock(&write_lock);
	do
		w = write(log_fd, line, n);
	while (w < 0 && errno == EINTR);
	rc = w == (ssize_t)n ? 0 : w < 0 ? -errno : -EIO;
	if (rc < 0) {
		/* O_APPEND leaves the offset after what was written: the line began w before. */
		off_t end = w > 0 ? lseek(log_fd, 0, SEEK_CUR) : -1;
		if (w > 0 && (end < w || ftruncate(log_fd, end - w) < 0))
			(void)!write(log_fd, "\n", 1); /* at least the next line starts clean */
		lost++;
	}
	pthread_mutex_unlock(&write_lock);
	return rc;
}

/* Decisions allowed, denied and asked, for session-end (ward sessions reads them there). */
static unsigned long counted[3];

void log_counts(unsigned long c[3])
{
	for (int i = 0; i < 3; i++)
		c[i] = __atomic_load_n(&counted[i], __ATOMIC_RELAXED);
}

unsigned long log_lost(void)
{
	pthread_mutex_lock(&write_lock);
	unsigned long n = lost;
	pthread_mutex_unlock(&write_lock);
	return n;
}

static const char *const event_names[] = {
	[EV_ACCESS] = "access",
	[EV_CONNECT] = "connect",
	[EV_BIND] = "bind",
	[EV_SIGNAL] = "signal",
	[EV_PROCESS] = "process",
	[EV_SPAWN] = "spawn",
	[EV_EXEC] = "exec",
	[EV_EXIT] = "exit",
	[EV_SESSION_START] = "session-start",
	[EV_SESSION_END] = "session-end",
};
_Static_assert(sizeof(event_names) / sizeof(event_names[0]) == EV_COUNT, "an event without a name");

static const char *const by_names[] = {
	[BY_POLICY] = "policy",	    [BY_CACHE] = "cache",     [BY_UNDECIDED] = "undecided",
	[BY_PROMPT] = "prompt",	    [BY_TIMEOUT] = "timeout",
};
_Static_assert(sizeof(by_names) / sizeof(by_names[0]) == BY_COUNT, "a \"by\" without a name");

/* The fields every event starts with: ts, session, event, and who (r: already known). */
static void common_as(struct jline *l, char *buf, size_t cap, enum log_event event, pid_t pid,
		      const struct req *r)
{
	char ts[40], exe[256] = "";
	pid_t tgid = pid, ppid = 0;

	jl_init(l, buf, cap);
	timestamp(ts, sizeof(ts));
	jl_str(l, "ts", ts);
	jl_str(l, "session", S->id);
	jl_str(l, "event", event_names[event]);
	if (pid > 0) {
		if (r != NULL) {
			tgid = r->tgid;
			ppid = r->ppid;
		} else {
			proc_info(pid, &tgid, &ppid, exe, sizeof(exe));
		}
		jl_int(l, "pid", tgid);
		if (tgid != pid)
			jl_int(l, "tid", pid);
		jl_int(l, "ppid", ppid);
		jl_str(l, "exe", r != NULL ? r->exe : exe);
	}
}

static void common(struct jline *l, char *buf, size_t cap, enum log_event event, pid_t pid)
{
	common_as(l, buf, cap, event, pid, NULL);
}

/* The common fields, then fields' members; one line.  Consumes fields. */
static int emit(json_t *fields, enum log_event event, pid_t pid)
{
	char *tail = emit_tail;
	struct jline l;

	if (tail == NULL && (tail = emit_tail = malloc(LINE_MAX_BYTES)) == NULL) {
		json_decref(fields);
		arena_reset();
		return -ENOMEM;
	}
	common(&l, line_buf, sizeof(line_buf) - 1, event, pid);
	/* Reals (a duration in seconds) to 12 significant digits, not 17: no 0.00152314000000000001. */
	size_t t = json_dumpb(fields, tail, LINE_MAX_BYTES,
			      JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII |
				      JSON_REAL_PRECISION(12));
	json_decref(fields);
	arena_reset();
	if (t < 2 || t > LINE_MAX_BYTES)
		return -EOVERFLOW;
	/* fields' members without its braces, after the common ones. */
	if (t > 2) {
		jl_key(&l, NULL);
		jl_put(&l, tail + 1, t - 2);
	}
	size_t n = jl_end(&l);
	return n == 0 ? -EOVERFLOW : write_line(line_buf, n);
}

/* jansson refuses invalid UTF-8; paths are bytes.  Escape what is not UTF-8. */
json_t *jpath(const char *s)
{
	json_t *j = json_string(s);
	if (j != NULL)
		return j;
	char buf[4096 * 4 + 1];
	size_t o = 0;
	for (const unsigned char *p = (const unsigned char *)s; *p && o + 5 < sizeof(buf); p++) {
		if (*p < 0x80)
			buf[o++] = (char)*p;
		else
			o += (size_t)snprintf(buf + o, sizeof(buf) - o, "\\x%02x", *p);
	}
	buf[o] = '\0';
	return json_string(buf);
}

/*
 * "stack": the frames the preload library took in the caller (with
 * --backtrace), named by ward from the files mapped in the process
 * (hint_symbolise), innermost first.
 */
/* The caller's stack as the preload took it (--backtrace), symbolised: how many frames. */
static int stack_of(struct req *r, struct hint_frame **out)
{
	static __thread struct hint_frame *frames;

	if (!S->preload.backtrace || !req_hint(r, NULL) || r->hint.nframes <= 0)
		return 0;
	if (frames == NULL && (frames = malloc(WARD_HINT_FRAMES * sizeof(*frames))) == NULL)
		return 0;
	*out = frames;
	return hint_symbolise(r->tgid, r->hint.frames, r->hint.nframes, frames, WARD_HINT_FRAMES);
}

static void log_stack(struct jline *l, struct req *r)
{
	struct hint_frame *frames;
	char one[1024];
	int n = stack_of(r, &frames);

	if (n <= 0)
		return;
	jl_open(l, "stack", '[');
	for (int i = 0; i < n; i++) {
		hint_frame_format(&frames[i], one, sizeof(one));
		jl_str(l, NULL, one);
	}
	jl_close(l, ']');
}

void log_stack_text(struct req *r, char *out, size_t len)
{
	struct hint_frame *frames;
	int n = stack_of(r, &frames);
	size_t o = 0;

	out[0] = '\0';
	for (int i = 0; i < n && o + 1 < len; i++) {
		char one[1024];
		hint_frame_format(&frames[i], one, sizeof(one));
		int w = snprintf(out + o, len - o, "%s%s", o ? "\n" : "", one);
		if (w < 0 || (size_t)w >= len - o)
			break; /* the frames that fit, whole */
		o += (size_t)w;
	}
	out[o] = '\0';
}

/* The op of a line: a policy op's name, or the log's own. */
static const char *op_name(unsigned op)
{
	return op == OP_RLIMIT ? "rlimit" : ward_op_name((enum ward_op)op);
}

int log_request(struct req *r, int err)
{
	const struct decision *d = &r->dec;
	const struct ward_verdict *v = d->verdict;
	const char *decision;
	struct jline l;

	/* Who asked is known already: serve() looked it up. */
	common_as(&l, line_buf, sizeof(line_buf) - 1, r->event, r->tid, r);
	jl_str(&l, "syscall", r->sysname);
	if (r->event == EV_SIGNAL || r->event == EV_PROCESS) {
		jl_int(&l, "target", r->sig_target);
		jl_int(&l, "signal", r->sig_num);
	}
	if (d->op != 0)
		jl_str(&l, "op", op_name(d->op));
	if (d->path != NULL)
		jl_str(&l, "path", d->path);
	bool net = r->event == EV_CONNECT || r->event == EV_BIND;
	if (net) {
		jl_str(&l, "addr", r->net_addr);
		if (r->net_port >= 0)
			jl_int(&l, "port", r->net_port);
		if (r->net_host[0] != '\0')
			jl_str(&l, "host", r->net_host);
		if (r->hint_host[0] != '\0')
			jl_str(&l, "hint_host", r->hint_host);
	}

	/*
	 * The decision is the policy's when one was taken.  A call that failed
	 * before any decision is an "error" when the failure is the caller's
	 * or the filesystem's (a bad pointer, a missing file), and a "deny"
	 * otherwise (ward could not do its part, so it refused).
	 * errno is what the call returned, which after an allow may still be
	 * an ordinary failure such as ENOENT.
	 */
	if (d->outcome == DEC_NONE)
		decision = !err ? "allow" : (err == ENOENT || err == ENOTDIR || err == EEXIST ||
					    err == ELOOP || err == EBADF || err == EINVAL ||
					    err == ENAMETOOLONG || err == EFAULT || err == E2BIG ||
					    err == EAFNOSUPPORT || err == ENOTSOCK || err == EMSGSIZE)
						   ? "error" : "deny";
	else
		decision = d->outcome == DEC_DENY      ? "deny"
			   : d->outcome == DEC_ERROR   ? "error"
			   : d->outcome == DEC_REWRITE ? "rewrite"
						       : "allow";
	jl_str(&l, "decision", decision);
	if (decision[0] == 'a' || decision[0] == 'r')
		__atomic_fetch_add(&counted[0], 1, __ATOMIC_RELAXED);
	else if (decision[0] == 'd')
		__atomic_fetch_add(&counted[1], 1, __ATOMIC_RELAXED);
	if (d->by == BY_PROMPT || d->by == BY_TIMEOUT)
		__atomic_fetch_add(&counted[2], 1, __ATOMIC_RELAXED);
	if (err != 0)
		jl_str(&l, "errno", strerrorname_np(err) ? strerrorname_np(err) : "?");
	if (d->would_deny)
		jl_str(&l, "would", "deny");
	if (v != NULL)
		jl_str(&l, "rule", ward_rule_location(v->rule));
	jl_str(&l, "by", by_names[d->by]);
	if (d->answer != NULL)
		jl_str(&l, "answer", d->answer);
	if (d->reason != NULL)
		jl_str(&l, "reason", d->reason);
	if (d->to != NULL)
		jl_str(&l, "to", d->to);
	/* The preload's word on the call: the libc function (a label from ward's own table). */
	bool hinted = (r->event == EV_ACCESS || net) && req_hint(r, NULL) && r->hint.via != NULL;
	if (hinted)
		jl_str(&l, "via", r->hint.via);
	/* --backtrace: the caller's stack, for a denial (naming frames reads files: not for every call). */
	if ((decision[0] == 'd' || d->would_deny) && (r->event == EV_ACCESS || net))
		log_stack(&l, r);
	/*
	 * An ask answered without a person (set undecided), or a refusal
	 * whose error is not the refusing rule's but the call's own (mkdir of
	 * a directory that is there: EEXIST, as natively): told apart on the
	 * terminal and in the session's counts.
	 */
	bool asked = v != NULL && v->action == WARD_ASK && d->by == BY_UNDECIDED;
	int rule_err = v == NULL ? 0 : v->action == WARD_ASK || v->undecided ? EACCES : v->err;
	bool native = (d->outcome == DEC_DENY &&
		       (d->moot || (err != 0 && rule_err != 0 && err != rule_err))) ||
		      /*
		       * No decision and no reason of ward's: the call failed as the
		       * kernel fails it (a directory on the way ward, with the same
		       * credentials, may not search).
		       */
		      (d->outcome == DEC_NONE && d->reason == NULL && (err == EACCES || err == EPERM));
	if (!native && strcmp(decision, "deny") == 0)
		atomic_fetch_add(&nrefused, 1);
	if (echo != NULL) {
		char where[sizeof(r->net_addr) + 16];
		if (net && r->net_port >= 0)
			snprintf(where, sizeof(where), "%s%s%s:%d", strchr(r->net_addr, ':') ? "[" : "",
				 r->net_addr, strchr(r->net_addr, ':') ? "]" : "", r->net_port);
		else
			snprintf(where, sizeof(where), "%s", net ? r->net_addr : d->path ? d->path : "-");
		struct log_echo e = {
			.via = hinted ? r->hint.via : NULL,
			.hint_host = net && r->hint_host[0] != '\0' ? r->hint_host : NULL,
			.decision = decision,
			.op = d->op != 0 ? op_name(d->op) : r->sysname,
			.where = where,
			.err = err ? strerrorname_np(err) : "",
			.to = d->to,
			.rule = v ? ward_rule_location(v->rule) : NULL,
			.from = d->from,
			.exe = r->exe,
			.tid = r->tid,
			.would_deny = d->would_deny,
			.errnum = err,
			.rule_errnum = rule_err,
			.asked = asked,
			.hard = v != NULL && ward_rule_hard(v->rule),
			.native = native,
			.net = net,
			/* -v names what a rule could match: not a label from /etc/hosts. */
			.host = net && r->net_host[0] != '\0' && !r->net_host_label ? r->net_host : NULL,
			.port = net ? r->net_port : -1,
			.reason = v == NULL ? d->reason : NULL,
			.mkdir = strncmp(r->sysname, "mkdir", 5) == 0,
		};
		echo(&e);
	}
	size_t n = jl_end(&l);
	return n == 0 ? -EOVERFLOW : write_line(line_buf, n);
}

/*
 * An event written field by field:
 *	struct jline *l = log_begin(EV_EXIT, pid);
 *	jl_int(l, "status", 0);
 *	rc = log_finish(l);
 */
#define EVENT_LINE_BYTES (256 * 1024) /* an exec's argv may take six bytes a byte, escaped */
static __thread char *event_line;
static __thread struct jline event_jl;

struct jline *log_begin(enum log_event event, pid_t pid)
{
	if (event_line == NULL)
		event_line = malloc(EVENT_LINE_BYTES);
	/* Without a buffer the line is over at once, and log_finish fails. */
	common(&event_jl, event_line, event_line ? EVENT_LINE_BYTES - 1 : 0, event, pid);
	return &event_jl;
}

int log_finish(struct jline *l)
{
	size_t n = jl_end(l);
	return n == 0 ? -EOVERFLOW : write_line(l->buf, n);
}

/*
 * A free-form event: fmt is a jansson json_pack format for the event's
 * own fields ("{s:s, s:i}" ...).
 */
int log_event(enum log_event event, pid_t pid, const char *fmt, ...)
{
	json_error_t jerr;
	va_list ap;
	json_t *o;

	if (arena_enter() < 0)
		return -ENOMEM;
	va_start(ap, fmt);
	o = json_vpack_ex(&jerr, 0, fmt, ap);
	va_end(ap);
	if (o == NULL) {
		arena_reset();
		return -EINVAL;
	}
	return emit(o, event, pid);
}
