/*
 * log.c - the audit log: JSON Lines, one object per event (DESIGN.md §6).
 *
 * Each line is built with jansson and written with one write(2) to a file
 * opened O_APPEND, before the reply to the agent is sent, so a line is in
 * the file even if ward or the agent is killed the next moment.  jansson
 * allocates from a per-thread arena that is reset after every line, so
 * logging on the notification path does not call malloc.
 */
#include "sup.h"

#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdarg.h>
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

/* Arena allocation; once spent, the ordinary heap (and free knows which). */
static void *arena_malloc(size_t size)
{
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
	return 0;
}

/* After a line is written nothing of it is alive: start the arena again. */
static void arena_reset(void)
{
	if (arena != NULL)
		arena->used = 0;
}

int log_open(const char *path)
{
	json_set_alloc_funcs(arena_malloc, arena_free);
	log_fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
	return log_fd < 0 ? -errno : 0;
}

void log_close(void)
{
	if (log_fd >= 0)
		fsync(log_fd);
	if (log_fd >= 0)
		close(log_fd);
	log_fd = -1;
}

static void timestamp(char *buf, size_t len)
{
	struct timespec ts;
	struct tm tm;

	clock_gettime(CLOCK_REALTIME, &ts);
	gmtime_r(&ts.tv_sec, &tm);
	size_t n = strftime(buf, len, "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf + n, len - n, ".%06ldZ", ts.tv_nsec / 1000);
}

/* Put the common fields first, serialise, write one line.  Consumes obj. */
static int emit(json_t *fields, const char *event, pid_t pid)
{
	char ts[40], line[LINE_MAX_BYTES];
	pid_t tgid = pid, ppid = 0;
	char exe[256] = "";
	json_t *obj = json_object();
	int rc = 0;

	if (obj == NULL) {
		json_decref(fields);
		arena_reset();
		return -ENOMEM;
	}
	timestamp(ts, sizeof(ts));
	if (pid > 0)
		proc_info(pid, &tgid, &ppid, exe, sizeof(exe));
	json_object_set_new(obj, "ts", json_string(ts));
	json_object_set_new(obj, "session", json_string(S->id));
	json_object_set_new(obj, "event", json_string(event));
	if (pid > 0) {
		json_object_set_new(obj, "pid", json_integer(tgid));
		if (tgid != pid)
			json_object_set_new(obj, "tid", json_integer(pid));
		json_object_set_new(obj, "ppid", json_integer(ppid));
		json_object_set_new(obj, "exe", json_string(exe));
	}
	json_object_update(obj, fields);
	json_decref(fields);
	size_t n = json_dumpb(obj, line, sizeof(line) - 1,
			      JSON_COMPACT | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
	json_decref(obj);
	arena_reset();
	if (n == 0 || n >= sizeof(line) - 1)
		return -EOVERFLOW;
	line[n++] = '\n';
	while (true) {
		ssize_t w = write(log_fd, line, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w != (ssize_t)n)
			rc = w < 0 ? -errno : -EIO;
		break;
	}
	return rc;
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

int log_request(struct req *r, int err)
{
	json_t *o;
	const struct ward_verdict *v = r->verdict;
	const char *decision;

	if (arena_enter() < 0)
		return -ENOMEM;
	o = json_object();
	if (o == NULL)
		return -ENOMEM;
	json_object_set_new(o, "syscall", json_string(r->sysname));
	if (strcmp(r->event, "signal") == 0 || strcmp(r->event, "process") == 0) {
		json_object_set_new(o, "target", json_integer(r->sig_target));
		json_object_set_new(o, "signal", json_integer(r->sig_num));
	}
	if (r->op != NULL)
		json_object_set_new(o, "op", json_string(r->op));
	if (r->log_path != NULL)
		json_object_set_new(o, "path", jpath(r->log_path));
	bool net = strcmp(r->event, "connect") == 0 || strcmp(r->event, "bind") == 0;
	if (net) {
		json_object_set_new(o, "addr", jpath(r->net_addr));
		if (r->net_port >= 0)
			json_object_set_new(o, "port", json_integer(r->net_port));
		if (r->net_host[0] != '\0')
			json_object_set_new(o, "host", jpath(r->net_host));
	}
	/*
	 * The decision is the policy's when one was taken.  A call that failed
	 * before any decision is an "error" when the failure is the caller's
	 * or the filesystem's (a bad pointer, a missing file), and a "deny"
	 * otherwise (ward could not do its part, so it refused).
	 * errno is what the call returned, which after an allow may still be
	 * an ordinary failure such as ENOENT.
	 */
	if (r->decided == 2)
		decision = !err ? "allow" : (err == ENOENT || err == ENOTDIR || err == EEXIST ||
					    err == ELOOP || err == EBADF || err == EINVAL ||
					    err == ENAMETOOLONG || err == EFAULT || err == E2BIG ||
					    err == EAFNOSUPPORT || err == ENOTSOCK || err == EMSGSIZE)
						   ? "error" : "deny";
	else if (r->decided < 0)
		decision = "deny";
	else
		decision = r->decided == 1 ? "rewrite" : "allow";
	json_object_set_new(o, "decision", json_string(decision));
	if (err != 0)
		json_object_set_new(o, "errno", json_string(strerrorname_np(err) ? strerrorname_np(err) : "?"));
	if (r->denied_by_shadow)
		json_object_set_new(o, "would", json_string("deny"));
	if (v != NULL)
		json_object_set_new(o, "rule", json_string(ward_rule_location(v->rule)));
	json_object_set_new(o, "by", json_string(r->by ? r->by : "policy"));
	if (r->log_to != NULL)
		json_object_set_new(o, "to", jpath(r->log_to));
	if (S->verbose > 0 && (S->verbose > 1 || strcmp(decision, "deny") == 0)) {
		/* -v: denials on stderr; -vv: every decision. */
		char where[sizeof(r->net_addr) + 16];
		if (net && r->net_port >= 0)
			snprintf(where, sizeof(where), "%s%s%s:%d", strchr(r->net_addr, ':') ? "[" : "",
				 r->net_addr, strchr(r->net_addr, ':') ? "]" : "", r->net_port);
		else
			snprintf(where, sizeof(where), "%s", net ? r->net_addr : r->log_path ? r->log_path : "-");
		fprintf(stderr, "ward: %s %s %s %s%s%s (%s, pid %d)\n", decision,
			r->op ? r->op : r->sysname, where,
			err ? strerrorname_np(err) : "", r->log_to ? " -> " : "",
			r->log_to ? r->log_to : "", v ? ward_rule_location(v->rule) : "no rule", r->tid);
	}
	return emit(o, r->event, r->tid);
}

/*
 * A free-form event: fmt is a jansson json_pack format for the event's
 * own fields ("{s:s, s:i}" ...).
 */
int log_event(const char *event, pid_t pid, const char *fmt, ...)
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
