/*
 * sessions.c - ward sessions: the sessions on record, newest first; the
 * choice of a session for report and learn; the log retention.
 *
 * A session's log is $XDG_STATE_HOME/ward/sessions/ID.jsonl.  Its first
 * line is session-start and, once it has ended, its last is session-end
 * with the counts; a session that is still running holds an open file
 * description lock on its log (log.c), which is how it is told from one
 * that was killed before it could write its end.
 */
#include "report.h"
#include "cli.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

static const char help[] =
	"usage: ward sessions [--prune] [--profile NAME] [-p FILE]... [--project DIR]\n"
	"\n"
	"List the recorded sessions, newest first: id, start (UTC), duration, exit\n"
	"status (or running), decisions allowed, denied and asked, the command and\n"
	"its project.  ward report ID shows one.\n"
	"\n"
	"  --prune   remove the logs beyond the retention limit now (the policy's\n"
	"            'set log-retention', by default 30 days and 1 GiB in all), as\n"
	"            ward run does when a session starts; the policy options choose\n"
	"            the policy as for ward run\n";

const char *sessions_dir(char *buf, size_t len)
{
	const char *state = getenv("XDG_STATE_HOME"), *home = getenv("HOME");
	if (state != NULL && state[0] == '/') {
		snprintf(buf, len, "%s/ward/sessions", state);
		return buf;
	}
	if (home == NULL || home[0] != '/') {
		struct passwd *pw = getpwuid(getuid());
		home = pw != NULL && pw->pw_dir[0] == '/' ? pw->pw_dir : "/";
	}
	snprintf(buf, len, "%s/.local/state/ward/sessions", strcmp(home, "/") ? home : "");
	return buf;
}

bool session_running(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	/* Asked, not taken: a lock held a moment here could hide a session starting. */
	struct flock fl = { .l_type = F_RDLCK, .l_whence = SEEK_SET };
	bool running = fcntl(fd, F_OFD_GETLK, &fl) == 0 && fl.l_type != F_UNLCK;
	close(fd);
	return running;
}

/* A session log's name: eight hex digits and .jsonl (the ids ward run makes). */
static bool log_name(const char *name)
{
	size_t n = strlen(name);
	if (n != 14 || strcmp(name + 8, ".jsonl") != 0)
		return false;
	for (int i = 0; i < 8; i++)
		if (!((name[i] >= '0' && name[i] <= '9') || (name[i] >= 'a' && name[i] <= 'f')))
			return false;
	return true;
}

struct entry {
	char path[PATH_MAX];
	char id[16];
	struct stat st;
	int64_t start; /* from session-start; else the file's change time */
	json_t *first, *last;
	bool running;
};

/* The object on the line at buf[0..n), or NULL. */
static json_t *parse(const char *buf, size_t n)
{
	json_t *o = json_loadb(buf, n, 0, NULL);
	if (o != NULL && !json_is_object(o)) {
		json_decref(o);
		return NULL;
	}
	return o;
}

#define HEAD_BYTES (256 * 1024)

/* The first and last lines of a log, parsed (NULL when not an object). */
static void ends(struct entry *e)
{
	char *buf = malloc(HEAD_BYTES);
	int fd = open(e->path, O_RDONLY | O_CLOEXEC);
	if (buf == NULL || fd < 0)
		goto out;
	ssize_t n = pread(fd, buf, HEAD_BYTES, 0);
	if (n > 0) {
		char *nl = memchr(buf, '\n', (size_t)n);
		if (nl != NULL)
			e->first = parse(buf, (size_t)(nl - buf));
	}
	off_t size = e->st.st_size, at = size > HEAD_BYTES ? size - HEAD_BYTES : 0;
	n = pread(fd, buf, (size_t)(size - at), at);
	if (n > 1 && buf[n - 1] == '\n') {
		char *end = buf + n - 1, *p = end;
		while (p > buf && p[-1] != '\n')
			p--;
		if (p > buf || at == 0)
			e->last = parse(p, (size_t)(end - p));
	}
out:
	if (fd >= 0)
		close(fd);
	free(buf);
}

static int by_start_desc(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	if (a->start != b->start)
		return a->start > b->start ? -1 : 1;
	return strcmp(a->id, b->id);
}

/* Every session log in dir, newest first; with heads, their ends read. */
static struct entry *list(const char *dir, bool heads, size_t *n)
{
	DIR *d = opendir(dir);
	struct entry *a = NULL;
	size_t k = 0, cap = 0;
	struct dirent *de;

	*n = 0;
	if (d == NULL)
		return NULL;
	while ((de = readdir(d)) != NULL) {
		if (!log_name(de->d_name))
			continue;
		if (k == cap) {
			cap = cap ? 2 * cap : 32;
			struct entry *na = realloc(a, cap * sizeof(*a));
			if (na == NULL)
				die(WARD_EXIT_FAILURE, "out of memory");
			a = na;
		}
		struct entry *e = &a[k];
		memset(e, 0, sizeof(*e));
		snprintf(e->path, sizeof(e->path), "%s/%s", dir, de->d_name);
		snprintf(e->id, sizeof(e->id), "%.8s", de->d_name);
		if (lstat(e->path, &e->st) < 0 || !S_ISREG(e->st.st_mode))
			continue;
		e->start = (int64_t)e->st.st_ctime * 1000000;
		if (heads) {
			ends(e);
			const char *ts = json_string_value(json_object_get(e->first, "ts"));
			if (ts != NULL && logread_time(ts) != LEV_NONE)
				e->start = logread_time(ts);
		}
		e->running = session_running(e->path);
		k++;
	}
	closedir(d);
	if (k > 1)
		qsort(a, k, sizeof(*a), by_start_desc);
	*n = k;
	return a;
}

static void list_free(struct entry *a, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		json_decref(a[i].first);
		json_decref(a[i].last);
	}
	free(a);
}

int sessions_find(const char *arg, char *path, size_t len)
{
	char dir[PATH_MAX];
	size_t n;

	sessions_dir(dir, sizeof(dir));
	if (arg != NULL && (strchr(arg, '/') != NULL || strcmp(arg, "-") == 0)) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	struct entry *a = list(dir, arg == NULL, &n);
	if (arg == NULL) {
		if (n == 0) {
			fprintf(stderr, "ward: no sessions recorded in %s\n", dir);
			list_free(a, n);
			return -ENOENT;
		}
		snprintf(path, len, "%s", a[0].path);
		list_free(a, n);
		return 0;
	}
	size_t found = 0, which = 0, al = strlen(arg);
	for (size_t i = 0; i < n; i++)
		if (al > 0 && strncmp(a[i].id, arg, al) == 0) {
			found++;
			which = i;
		}
	if (found == 1) {
		snprintf(path, len, "%s", a[which].path);
		list_free(a, n);
		return 0;
	}
	list_free(a, n);
	if (found > 1) {
		fprintf(stderr, "ward: '%s' names %zu sessions: give more of the id\n", arg, found);
		return -EEXIST;
	}
	/* A log in the current directory, named without a slash. */
	if (access(arg, F_OK) == 0) {
		snprintf(path, len, "%s", arg);
		return 0;
	}
	fprintf(stderr, "ward: no session '%s' in %s, and no such file\n", arg, dir);
	return -ENOENT;
}

static int by_mtime(const void *x, const void *y)
{
	const struct entry *a = x, *b = y;
	if (a->st.st_mtim.tv_sec != b->st.st_mtim.tv_sec)
		return a->st.st_mtim.tv_sec < b->st.st_mtim.tv_sec ? -1 : 1;
	return strcmp(a->id, b->id);
}

int sessions_prune(const char *dir, uint64_t max_age, uint64_t max_bytes, unsigned long *removed,
		   uint64_t *freed)
{
	size_t n;
	struct entry *a = list(dir, false, &n);
	uint64_t total = 0;
	time_t now = time(NULL);

	*removed = 0;
	*freed = 0;
	if (a == NULL)
		return errno == ENOENT ? 0 : -errno;
	qsort(a, n, sizeof(*a), by_mtime);
	for (size_t i = 0; i < n; i++)
		total += (uint64_t)a[i].st.st_size;
	for (size_t i = 0; i < n; i++) {
		struct entry *e = &a[i];
		bool old = max_age > 0 && now > e->st.st_mtime &&
			   (uint64_t)(now - e->st.st_mtime) > max_age;
		bool over = max_bytes > 0 && total > max_bytes;
		if ((!old && !over) || e->running)
			continue;
		if (unlink(e->path) < 0) {
			if (errno == ENOENT) /* another ward pruned it first */
				total -= (uint64_t)e->st.st_size;
			continue;
		}
		total -= (uint64_t)e->st.st_size;
		*freed += (uint64_t)e->st.st_size;
		(*removed)++;
	}
	list_free(a, n);
	return 0;
}

/* Counts of decisions: from session-end, or read from the whole log when it has none. */
static void counts(const struct entry *e, unsigned long c[3])
{
	json_t *k = json_object_get(e->last, "counts");
	const char *ev = json_string_value(json_object_get(e->last, "event"));
	c[0] = c[1] = c[2] = 0;
	if (ev != NULL && strcmp(ev, "session-end") == 0 && json_is_object(k)) {
		c[0] = (unsigned long)json_integer_value(json_object_get(k, "allowed"));
		c[1] = (unsigned long)json_integer_value(json_object_get(k, "denied"));
		c[2] = (unsigned long)json_integer_value(json_object_get(k, "asked"));
		return;
	}
	int rc;
	struct logread *r = logread_open(e->path, &rc);
	struct lev l;
	if (r == NULL)
		return;
	logread_hold_partial(r, true);
	while (logread_next(r, &l) > 0) {
		if (l.decision == NULL)
			continue;
		if (strcmp(l.decision, "allow") == 0 || strcmp(l.decision, "rewrite") == 0)
			c[0]++;
		else if (strcmp(l.decision, "deny") == 0)
			c[1]++;
		if (l.by != NULL && (strcmp(l.by, "prompt") == 0 || strcmp(l.by, "timeout") == 0))
			c[2]++;
	}
	logread_close(r);
}

static int prune_now(struct policy_opts *o, const char *dir)
{
	struct ward_error err;
	struct ward_vars vars;
	uint64_t age, bytes, freed;
	unsigned long removed;

	struct ward_policy *p = policy_load(o, NULL, &vars, &err);
	if (p == NULL)
		die(WARD_EXIT_FAILURE, "%s", err.msg);
	ward_policy_log_retention(p, &age, &bytes);
	ward_policy_free(p);
	int rc = sessions_prune(dir, age, bytes, &removed, &freed);
	if (rc < 0)
		die(1, "cannot prune %s: %s", dir, strerror(-rc));
	printf("removed %lu session log%s (%.1f MiB) from %s\n", removed, removed == 1 ? "" : "s",
	       (double)freed / (1024.0 * 1024.0), dir);
	return 0;
}

int cmd_sessions(int argc, char **argv)
{
	enum { OPT_PRUNE = 0x300 };
	static const struct option longopts[] = {
		POLICY_LONGOPTS,
		{ "prune", no_argument, 0, OPT_PRUNE },
		{ "help", no_argument, 0, 'h' },
		{ 0, 0, 0, 0 },
	};
	struct policy_opts o = { .undecided = -1, .quiet = true };
	bool prune = false;
	char dir[PATH_MAX];
	int opt;

	argv[0] = "ward";
	while ((opt = getopt_long(argc, argv, "p:r:h", longopts, NULL)) != -1) {
		if (policy_opt(&o, opt, optarg))
			continue;
		if (opt == 'h') {
			fputs(help, stdout);
			return 0;
		}
		if (opt == OPT_PRUNE) {
			prune = true;
			continue;
		}
		fputs(help, stderr);
		return WARD_EXIT_USAGE;
	}
	if (optind < argc) {
		fprintf(stderr, "ward: sessions takes no arguments\n%s", help);
		return WARD_EXIT_USAGE;
	}
	sessions_dir(dir, sizeof(dir));
	if (prune) {
		int rc = prune_now(&o, dir);
		free(o.files);
		free(o.rules);
		return rc;
	}
	free(o.files);
	free(o.rules);

	size_t n;
	struct entry *a = list(dir, true, &n);
	if (n == 0) {
		printf("no sessions recorded in %s\n", dir);
		list_free(a, n);
		return 0;
	}
	printf("%-8s  %-16s  %9s  %-8s  %7s %6s %5s  %s\n", "ID", "STARTED (UTC)", "TIME",
	       "STATUS", "ALLOWED", "DENIED", "ASKED", "COMMAND IN PROJECT");
	for (size_t i = 0; i < n; i++) {
		struct entry *e = &a[i];
		char t[32], d[32], st[16], cmd[4096], line[512], proj[PATH_MAX], sp[4 * PATH_MAX];
		unsigned long c[3];
		json_t *argv_ = json_object_get(e->first, "argv");
		const char *project = json_string_value(json_object_get(e->first, "project"));
		const char *ev = json_string_value(json_object_get(e->last, "event"));
		bool ended = ev != NULL && strcmp(ev, "session-end") == 0;
		int64_t start = e->start;
		double secs = -1;
		if (ended) {
			json_t *du = json_object_get(e->last, "duration");
			secs = json_is_number(du) ? json_number_value(du) : -1;
			snprintf(st, sizeof(st), "%lld",
				 (long long)json_integer_value(json_object_get(e->last, "status")));
		} else {
			snprintf(st, sizeof(st), "%s", e->running ? "running" : "no end");
			/* Until its last line, which was written when the file last changed. */
			int64_t mt = (int64_t)e->st.st_mtim.tv_sec * 1000000 + e->st.st_mtim.tv_nsec / 1000;
			if (mt >= start)
				secs = (double)(mt - start) / 1e6;
		}
		counts(e, c);
		time_text(start, t, sizeof(t));
		t[16] = '\0';
		argv_line(argv_, cmd, sizeof(cmd));
		if (project != NULL) {
			const char *home = getenv("HOME");
			size_t hl = home ? strlen(home) : 0;
			if (hl > 1 && strncmp(project, home, hl) == 0 &&
			    (project[hl] == '/' || project[hl] == '\0'))
				snprintf(proj, sizeof(proj), "~%s", project + hl);
			else
				snprintf(proj, sizeof(proj), "%s", project);
			safe_q(proj, sp, sizeof(sp));
			size_t k = strlen(cmd);
			snprintf(cmd + k, sizeof(cmd) - k, "  in %s", sp);
		}
		/* 71 columns before the command: the line stays within 100. */
		size_t w = 29, cut = 0, cl = 0;
		for (const char *c2 = cmd; *c2; c2++)
			if (((unsigned char)*c2 & 0xC0) != 0x80 && ++cl == w)
				cut = (size_t)(c2 - cmd);
		if (cl > w)
			snprintf(line, sizeof(line), "%.*s…", (int)cut, cmd);
		else
			snprintf(line, sizeof(line), "%s", cmd);
		printf("%-8s  %-16s  %9s  %-8s  %7lu %6lu %5lu  %s\n", e->id, t,
		       duration_text(secs, d, sizeof(d)), st, c[0], c[1], c[2], line);
	}
	list_free(a, n);
	return 0;
}
