/*
 * guard.c - files the agent may write whose content runs code later, put
 * right when the session ends (docs/git.md, docs/profiles.md).
 *
 * git's config: under the default profile the agent's git may write the
 * project's .git/config (git init, clone, remote add, branch -m, names),
 * and repositories it makes below the project.  A key that runs code at
 * a later git command (core.fsmonitor, core.hooksPath, aliases with '!',
 * drivers, helpers, include paths...) must not outlive the session.  So
 * ward keeps the project's config as it was at the start, and at the end
 * puts back every key outside a short list of keys that run nothing
 * (names, remotes, branches, formats) to its value at the start: the list
 * is of what may change, so a key git learns later is put back too.  A
 * hook the agent made is renamed NAME.ward-disabled; a config or hooks
 * directory that is not what git made (a symlink to the agent's file) is
 * moved aside.
 *
 * Claude Code's ~/.claude.json (with --profile claude-code): its MCP
 * servers, allowed tools and trust flags are put back; the rest is state
 * the program writes all the time.
 *
 * Everything happens after the session's last process is gone (the
 * tracer kills what is left), so nothing of the agent's races it.  git is
 * asked to read and write its own format (git config --file), run without
 * a repository, the user's or the system's config.
 */
#include "cli.h"
#include "log.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <jansson.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/* Bigger than any config or state file a person keeps; larger ones are not read. */
#define MAX_FILE (16 << 20)

/*
 * The keys an agent may change in a repository's config: they run no
 * program and name no file git reads code from.  section.key, or
 * section.*.key for any subsection, or section.* for every key of it.
 */
static const char *const free_keys[] = {
	"core.repositoryformatversion", "core.filemode", "core.bare", "core.logallrefupdates",
	"core.ignorecase", "core.precomposeunicode", "core.symlinks", "core.autocrlf", "core.eol",
	"core.safecrlf", "core.quotepath", "core.abbrev", "core.compression", "core.checkstat",
	"core.trustctime", "core.untrackedcache", "core.sparsecheckout", "core.sparsecheckoutcone",
	"core.commentchar", "core.commentstring", "core.warnambiguousrefs", "core.whitespace",
	"user.*", "author.*", "committer.*", "init.defaultbranch", "extensions.objectformat",
	"remote.*.url", "remote.*.pushurl", "remote.*.fetch", "remote.*.push", "remote.*.mirror",
	"remote.*.tagopt", "remote.*.prune", "remote.*.prunetags", "remote.*.skipdefaultupdate",
	"remote.*.skipfetchall", "remote.*.promisor", "remote.*.partialclonefilter",
	"branch.*.remote", "branch.*.merge", "branch.*.rebase", "branch.*.pushremote",
	"branch.*.description", "pull.rebase", "pull.ff", "push.default", "push.autosetupremote",
	"fetch.prune", "fetch.prunetags", "merge.ff", "merge.conflictstyle", "rebase.autostash",
	"rebase.autosquash", "rebase.updaterefs", "rerere.enabled", "gc.auto", "gc.autodetach",
	"color.*", "advice.*", "column.*", "status.*", "log.*", "format.pretty", "diff.renames",
	"diff.algorithm", "diff.colormoved", "diff.mnemonicprefix", "diff.noprefix",
	"commit.verbose", "tag.sort", "versionsort.*", "submodule.*.url", "submodule.*.active",
	"submodule.*.branch", "lfs.repositoryformatversion", "index.version", "feature.*",
};

/* Whether key (as git config --list prints it: section and name in lower case) may change. */
static bool key_free(const char *key)
{
	const char *dot = strchr(key, '.'), *last = strrchr(key, '.');

	if (dot == NULL)
		return false;
	for (size_t i = 0; i < sizeof(free_keys) / sizeof(free_keys[0]); i++) {
		const char *f = free_keys[i], *fdot = strchr(f, '.');
		size_t sl = (size_t)(fdot - f);
		if ((size_t)(dot - key) != sl || strncmp(key, f, sl) != 0)
			continue;
		const char *rest = fdot + 1;
		if (strcmp(rest, "*") == 0)
			return true;
		if (strncmp(rest, "*.", 2) == 0) {
			if (last != dot && strcmp(last + 1, rest + 2) == 0)
				return true;
		} else if (last == dot && strcmp(dot + 1, rest) == 0) {
			return true;
		}
	}
	return false;
}

/* ---------------------------------------------------------------- files */

/* The bytes of a regular file (following no symlink at its name), or NULL. */
static char *read_file(const char *path, size_t *len, bool follow)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW));
	struct stat st;
	char *buf = NULL;

	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || st.st_size > MAX_FILE)
		goto out;
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL)
		goto out;
	size_t n = 0;
	for (ssize_t r; n < (size_t)st.st_size; n += (size_t)r)
		if ((r = read(fd, buf + n, (size_t)st.st_size - n)) <= 0)
			break;
	buf[n] = '\0';
	*len = n;
out:
	close(fd);
	return buf;
}

/* Replace path with len bytes of text, by a new file renamed over it, mode kept. */
static int write_file(const char *path, const char *text, size_t len, mode_t mode)
{
	char tmp[PATH_MAX + 32];
	snprintf(tmp, sizeof(tmp), "%s.ward-%d", path, (int)getpid());
	int fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode & 07777);
	if (fd < 0)
		return -errno;
	size_t n = 0;
	for (ssize_t w; n < len; n += (size_t)w)
		if ((w = write(fd, text + n, len - n)) <= 0)
			break;
	if (n < len || fsync(fd) < 0 || close(fd) < 0 || rename(tmp, path) < 0) {
		int rc = -errno;
		unlink(tmp);
		return rc ? rc : -EIO;
	}
	return 0;
}

/* Move what is at path aside, to PATH.ward-moved[-N]; 0 or a negative errno. */
static int move_aside(const char *path, const char *suffix, char *to, size_t tolen)
{
	for (int i = 0; i < 100; i++) {
		if (i == 0)
			snprintf(to, tolen, "%s.%s", path, suffix);
		else
			snprintf(to, tolen, "%s.%s-%d", path, suffix, i);
		if (renameat2(AT_FDCWD, path, AT_FDCWD, to, RENAME_NOREPLACE) == 0)
			return 0;
		if (errno != EEXIST)
			return -errno;
	}
	return -EEXIST;
}

/* ---------------------------------------------------------------- git config */

/*
 * Run git config --file FILE ARGS (FILE "-": in, of inlen bytes, on its
 * standard input), its output in *out (NULL: not read).  The exit status,
 * or -1 when git could not be run.
 */
static int git_config(const char *file, const char *in, size_t inlen, char **out, size_t *outlen,
		      const char *const *args)
{
	int inp[2] = { -1, -1 }, outp[2] = { -1, -1 };
	const char *argv[16] = { "git", "config", "--file", file };
	int n = 4, st;

	for (const char *const *a = args; *a && n < 15; a++)
		argv[n++] = *a;
	argv[n] = NULL;
	if ((in != NULL && pipe2(inp, O_CLOEXEC) < 0) || (out != NULL && pipe2(outp, O_CLOEXEC) < 0))
		return -1;
	pid_t pid = fork();
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null < 0 || dup2(in ? inp[0] : null, 0) < 0 || dup2(out ? outp[1] : null, 1) < 0 ||
		    dup2(null, 2) < 0 || chdir("/") < 0)
			_exit(127);
		/* No repository, no user or system config: the file alone. */
		setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
		setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
		setenv("GIT_CEILING_DIRECTORIES", "/", 1);
		unsetenv("GIT_DIR");
		unsetenv("GIT_CONFIG");
		unsetenv("GIT_CONFIG_PARAMETERS");
		unsetenv("GIT_CONFIG_COUNT");
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	if (in != NULL)
		close(inp[0]);
	if (out != NULL)
		close(outp[1]);
	if (pid < 0) {
		if (in != NULL)
			close(inp[1]);
		if (out != NULL)
			close(outp[0]);
		return -1;
	}
	if (in != NULL) {
		/* A config is small; git reads all of it before it writes. */
		size_t o = 0;
		for (ssize_t w; o < inlen; o += (size_t)w)
			if ((w = write(inp[1], in + o, inlen - o)) <= 0)
				break;
		close(inp[1]);
	}
	if (out != NULL) {
		size_t cap = 4096, len = 0;
		char *buf = malloc(cap);
		for (ssize_t r; buf != NULL; len += (size_t)r) {
			if (len + 1 >= cap) {
				char *b = cap < MAX_FILE ? realloc(buf, cap *= 2) : NULL;
				if (b == NULL) {
					free(buf);
					buf = NULL;
					break;
				}
				buf = b;
			}
			if ((r = read(outp[0], buf + len, cap - len - 1)) <= 0)
				break;
		}
		close(outp[0]);
		if (buf != NULL)
			buf[len] = '\0';
		*out = buf;
		*outlen = len;
	}
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	if (out != NULL && *out == NULL)
		return -1;
	return WEXITSTATUS(st);
}

/* One entry of git config --list --null: key, and value (NULL: a key with no '='). */
struct entry {
	const char *key, *val;
};

/* Split a --list --null listing (modified in place) into entries; their count, or -1. */
static int split_list(char *list, size_t len, struct entry **out)
{
	size_t cap = 16, n = 0;
	struct entry *e = malloc(cap * sizeof(*e));

	for (char *p = list; e != NULL && p < list + len;) {
		char *end = memchr(p, '\0', (size_t)(list + len - p));
		if (end == NULL)
			break;
		if (n == cap) {
			struct entry *g = realloc(e, (cap *= 2) * sizeof(*e));
			if (g == NULL) {
				free(e);
				return -1;
			}
			e = g;
		}
		char *nl = strchr(p, '\n');
		if (nl != NULL)
			*nl = '\0';
		e[n].key = p;
		e[n].val = nl ? nl + 1 : NULL;
		n++;
		p = end + 1;
	}
	*out = e;
	return e == NULL ? -1 : (int)n;
}

/* Whether two listings hold the same values, in order, for key. */
static bool same_values(const struct entry *a, int na, const struct entry *b, int nb,
			const char *key)
{
	int i = 0, j = 0;
	for (;;) {
		while (i < na && strcmp(a[i].key, key) != 0)
			i++;
		while (j < nb && strcmp(b[j].key, key) != 0)
			j++;
		if (i == na || j == nb)
			return i == na && j == nb;
		if ((a[i].val == NULL) != (b[j].val == NULL) ||
		    (a[i].val != NULL && strcmp(a[i].val, b[j].val) != 0))
			return false;
		i++;
		j++;
	}
}

/* What the check did, for the terminal and the log. */
struct report {
	json_t *log;	/* array of {file, what} */
	char line[2048]; /* the keys of one file, for the terminal */
};

static void note(struct report *rep, const char *file, const char *what)
{
	char f[2 * PATH_MAX], w[2048];
	warnx_("%s: %s", term_safe(file, f, sizeof(f)), term_safe(what, w, sizeof(w)));
	json_array_append_new(rep->log, json_pack("{s:o, s:s}", "file", jpath(file), "put_back", what));
}

/*
 * Put config (a repository's, or none yet: before NULL) back in every key
 * that is not free to change.  before: the file's bytes at the start.
 */
static void check_config(const char *config, const char *before, size_t blen, struct report *rep)
{
	struct stat st;
	char moved[PATH_MAX + 64], *now = NULL, *was = NULL;
	size_t nlen = 0, wlen = 0;
	struct entry *a = NULL, *b = NULL;
	int na = 0, nb = 0;

	if (lstat(config, &st) < 0) {
		if (errno == ENOENT && before != NULL && write_file(config, before, blen, 0644) == 0)
			note(rep, config, "made again as it was: the session removed it");
		return;
	}
	if (!S_ISREG(st.st_mode)) {
		/* A symlink to the agent's file (or anything but a file): the start's, or none. */
		if (move_aside(config, "ward-moved", moved, sizeof(moved)) < 0) {
			note(rep, config, "is no file and could not be moved aside: look at it");
			return;
		}
		if (before != NULL)
			write_file(config, before, blen, 0644);
		char what[PATH_MAX + 128];
		snprintf(what, sizeof(what), "was no file (moved to %s)%s", moved,
			 before ? "; made again as it was" : "");
		note(rep, config, what);
		return;
	}
	static const char *const list[] = { "--list", "--null", NULL };
	if (git_config(config, NULL, 0, &now, &nlen, list) != 0 ||
	    (na = split_list(now, nlen, &a)) < 0) {
		/* git cannot read it: the start's content, or moved aside. */
		if (before != NULL && write_file(config, before, blen, st.st_mode) == 0)
			note(rep, config, "git could not read it: put back as it was");
		else if (move_aside(config, "ward-moved", moved, sizeof(moved)) == 0)
			note(rep, config, "git could not read it: moved aside");
		goto out;
	}
	if (before != NULL && (git_config("-", before, blen, &was, &wlen, list) != 0 ||
			       (nb = split_list(was, wlen, &b)) < 0)) {
		nb = 0; /* unreadable at the start too: nothing there ran */
	}
	rep->line[0] = '\0';
	for (int pass = 0; pass < 2; pass++) {
		const struct entry *e = pass == 0 ? a : b;
		int ne = pass == 0 ? na : nb;
		for (int i = 0; i < ne; i++) {
			const char *key = e[i].key;
			bool first = true; /* each key once, wherever it stands */
			for (int k = 0; k < i && first; k++)
				first = strcmp(e[k].key, key) != 0;
			for (int k = 0; pass == 1 && k < na && first; k++)
				first = strcmp(a[k].key, key) != 0;
			if (!first || key_free(key) || same_values(a, na, b, nb, key))
				continue;
			const char *unset[] = { "--unset-all", key, NULL };
			int rc = git_config(config, NULL, 0, NULL, NULL, unset);
			for (int k = 0; rc >= 0 && rc != 1 && rc != 3 && k < nb; k++) {
				if (strcmp(b[k].key, key) != 0)
					continue;
				const char *add[] = { "--add", key, b[k].val ? b[k].val : "true", NULL };
				rc = git_config(config, NULL, 0, NULL, NULL, add);
			}
			size_t l = strlen(rep->line);
			snprintf(rep->line + l, sizeof(rep->line) - l, "%s%s%s", l ? ", " : "", key,
				 rc == 0 || rc == 5 ? "" : " (FAILED: look at it)");
		}
	}
	if (rep->line[0] != '\0') {
		char what[sizeof(rep->line) + 64];
		snprintf(what, sizeof(what), "put back what runs code: %s", rep->line);
		note(rep, config, what);
	}
out:
	free(a);
	free(b);
	free(now);
	free(was);
}

/* The names in a hooks directory, as one string of NUL-terminated names ("" ends it). */
static char *list_dir(const char *dir)
{
	DIR *d = opendir(dir);
	size_t len = 0, cap = 256;
	char *names = malloc(cap);

	if (names == NULL || d == NULL) {
		if (d != NULL)
			closedir(d);
		free(names);
		return NULL;
	}
	for (struct dirent *e; (e = readdir(d)) != NULL;) {
		size_t n = strlen(e->d_name) + 1;
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (len + n + 1 > cap) {
			char *g = realloc(names, cap = 2 * (len + n + 1));
			if (g == NULL)
				break;
			names = g;
		}
		memcpy(names + len, e->d_name, n);
		len += n;
	}
	names[len] = '\0';
	closedir(d);
	return names;
}

static bool listed(const char *names, const char *name)
{
	for (const char *n = names; n != NULL && *n; n += strlen(n) + 1)
		if (strcmp(n, name) == 0)
			return true;
	return false;
}

/* Hooks made in the session (not samples, not there at the start): disabled. */
static void check_hooks(const char *gitdir, const char *before, bool had_dir, struct report *rep)
{
	char hooks[PATH_MAX], moved[PATH_MAX + 64];
	struct stat st;

	snprintf(hooks, sizeof(hooks), "%s/hooks", gitdir);
	if (lstat(hooks, &st) < 0)
		return;
	if (!S_ISDIR(st.st_mode)) {
		if (had_dir || move_aside(hooks, "ward-moved", moved, sizeof(moved)) < 0) {
			note(rep, hooks, "is no directory: look at it");
			return;
		}
		char what[PATH_MAX + 64];
		snprintf(what, sizeof(what), "was no directory: moved to %s", moved);
		note(rep, hooks, what);
		return;
	}
	char *now = list_dir(hooks), line[2048] = "";
	for (const char *n = now; n != NULL && *n; n += strlen(n) + 1) {
		size_t l = strlen(n);
		if ((l > 7 && strcmp(n + l - 7, ".sample") == 0) || listed(before, n) ||
		    strstr(n, ".ward-disabled") != NULL)
			continue;
		char path[PATH_MAX + NAME_MAX + 2];
		snprintf(path, sizeof(path), "%s/%s", hooks, n);
		int rc = move_aside(path, "ward-disabled", moved, sizeof(moved));
		size_t o = strlen(line);
		snprintf(line + o, sizeof(line) - o, "%s%s%s", o ? ", " : "", n,
			 rc < 0 ? " (FAILED: look at it)" : "");
	}
	free(now);
	if (line[0] != '\0') {
		char what[sizeof(line) + 64];
		snprintf(what, sizeof(what), "disabled the hooks the session made (NAME.ward-disabled): %s",
			 line);
		note(rep, hooks, what);
	}
}

/* ---------------------------------------------------------------- the session */

static struct {
	char gitdir[PATH_MAX]; /* the project's own .git */
	mode_t git_type;       /* its type at the start, 0: none */
	char *config;	       /* its config's bytes at the start, NULL: none */
	size_t config_len;
	char *hooks; /* the names in its hooks/ at the start */
	bool hooks_dir;
	struct timespec start; /* CLOCK_REALTIME_COARSE: which repositories are the session's */
	char claude[PATH_MAX];	/* ~/.claude.json, when guarded */
	char *claude_was;	/* its bytes at the start, NULL: none */
	size_t claude_len;
} G;

void guard_start(const struct ward_vars *v, const char *profiles)
{
	struct stat st;

	/*
	 * The coarse clock, which the kernel stamps files with: by the fine
	 * one, a .git made a few milliseconds after the start could be stamped
	 * before it, and not be the session's (git-nobody failed so in CI).
	 */
	clock_gettime(CLOCK_REALTIME_COARSE, &G.start);
	snprintf(G.gitdir, sizeof(G.gitdir), "%s/.git", strcmp(v->project, "/") ? v->project : "");
	if (lstat(G.gitdir, &st) == 0) {
		G.git_type = st.st_mode & S_IFMT;
		if (S_ISDIR(st.st_mode)) {
			char path[PATH_MAX + 16];
			snprintf(path, sizeof(path), "%s/config", G.gitdir);
			G.config = read_file(path, &G.config_len, false);
			snprintf(path, sizeof(path), "%s/hooks", G.gitdir);
			G.hooks_dir = lstat(path, &st) == 0 && S_ISDIR(st.st_mode);
			G.hooks = G.hooks_dir ? list_dir(path) : NULL;
		}
	}
	/* With Claude Code's profile, its MCP servers and permissions (claude_check). */
	for (const char *p = profiles; p != NULL && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] != 0))
		if (strncmp(p, "claude-code", 11) == 0 && (p[11] == ',' || p[11] == '\0')) {
			snprintf(G.claude, sizeof(G.claude), "%s/.claude.json", v->home);
			G.claude_was = read_file(G.claude, &G.claude_len, false);
		}
}

/* A repository below the project: made in the session (born after it started). */
static bool made_in_session(const char *path)
{
	struct statx stx;
	if (statx(AT_FDCWD, path, AT_SYMLINK_NOFOLLOW, STATX_BTIME, &stx) < 0 ||
	    !(stx.stx_mask & STATX_BTIME))
		return false;
	return stx.stx_btime.tv_sec > G.start.tv_sec ||
	       (stx.stx_btime.tv_sec == G.start.tv_sec &&
		(long)stx.stx_btime.tv_nsec >= G.start.tv_nsec);
}

/*
 * ~/.claude.json: the keys that start programs or widen what Claude Code
 * does unasked, put back to their values at the start.
 */
static const char *const claude_keys[] = {
	"mcpServers", "allowedTools", "enabledMcpjsonServers", "disabledMcpjsonServers",
	"enableAllProjectMcpServers", "hasTrustDialogAccepted", "hasTrustDialogHooksAccepted",
	"mcpContextUris",
};

/* Put obj's key back to was's (NULL: absent); the path for the report in line. */
static bool put_back(json_t *obj, const json_t *was, const char *key, const char *where,
		     char *line, size_t len)
{
	json_t *now = json_object_get(obj, key);
	const json_t *old = was ? json_object_get(was, key) : NULL;
	if (json_equal(now, (json_t *)old) || (now == NULL && old == NULL))
		return false;
	if (old != NULL)
		json_object_set_new(obj, key, json_deep_copy(old));
	else
		json_object_del(obj, key);
	size_t o = strlen(line);
	snprintf(line + o, len - o, "%s%s%s", o ? ", " : "", where, key);
	return true;
}

static void claude_check(struct report *rep)
{
	struct stat st;
	char moved[PATH_MAX + 64], line[4096] = "";
	json_error_t jerr;

	if (G.claude[0] == '\0' || lstat(G.claude, &st) < 0)
		return;
	if (!S_ISREG(st.st_mode)) {
		if (move_aside(G.claude, "ward-moved", moved, sizeof(moved)) < 0) {
			note(rep, G.claude, "is no file and could not be moved aside: look at it");
			return;
		}
		if (G.claude_was != NULL)
			write_file(G.claude, G.claude_was, G.claude_len, 0600);
		note(rep, G.claude, "was no file: moved aside, and made again as it was");
		return;
	}
	json_t *was = G.claude_was ? json_loadb(G.claude_was, G.claude_len, 0, &jerr) : NULL;
	json_t *now = json_load_file(G.claude, JSON_PRESERVE_ORDER, &jerr);
	if (!json_is_object(now)) {
		if (G.claude_was != NULL && write_file(G.claude, G.claude_was, G.claude_len, st.st_mode) == 0)
			note(rep, G.claude, "could not be read: put back as it was");
		goto out;
	}
	bool changed = false;
	for (size_t k = 0; k < sizeof(claude_keys) / sizeof(claude_keys[0]); k++)
		changed |= put_back(now, was, claude_keys[k], "", line, sizeof(line));
	/* And in each project's entry, the projects of the start and of now. */
	json_t *projects = json_object_get(now, "projects");
	const json_t *wprojects = was ? json_object_get(was, "projects") : NULL;
	const char *pkey;
	json_t *proj;
	json_object_foreach(projects, pkey, proj) {
		if (!json_is_object(proj))
			continue;
		const json_t *wp = wprojects ? json_object_get(wprojects, pkey) : NULL;
		char where[PATH_MAX + 8];
		snprintf(where, sizeof(where), "projects[%s].", pkey);
		for (size_t k = 0; k < sizeof(claude_keys) / sizeof(claude_keys[0]); k++)
			changed |= put_back(proj, json_is_object(wp) ? wp : NULL, claude_keys[k], where,
					    line, sizeof(line));
	}
	if (changed) {
		/* Into a buffer of ward's own: jansson's memory is the log's arena. */
		size_t need = json_dumpb(now, NULL, 0, JSON_PRESERVE_ORDER | JSON_INDENT(2));
		char *text = need > 0 ? malloc(need) : NULL;
		int rc = text && json_dumpb(now, text, need, JSON_PRESERVE_ORDER | JSON_INDENT(2)) == need
				 ? write_file(G.claude, text, need, st.st_mode)
				 : -ENOMEM;
		free(text);
		char what[sizeof(line) + 64];
		snprintf(what, sizeof(what), "%s what starts programs or widens permissions: %s",
			 rc == 0 ? "put back" : "COULD NOT put back", line);
		note(rep, G.claude, what);
	}
out:
	json_decref(was);
	json_decref(now);
}

json_t *guard_end(json_t *repos)
{
	struct report rep = { .log = json_array() };
	struct stat st;
	char moved[PATH_MAX + 64];

	/* The project's own repository. */
	if (lstat(G.gitdir, &st) == 0) {
		if (G.git_type == 0 && !S_ISDIR(st.st_mode)) {
			/* A .git file or link the session made names another repository: aside. */
			if (move_aside(G.gitdir, "ward-moved", moved, sizeof(moved)) == 0) {
				char what[PATH_MAX + 96];
				snprintf(what, sizeof(what),
					 "the session made it, not a directory: moved to %s", moved);
				note(&rep, G.gitdir, what);
			}
		} else if (S_ISDIR(st.st_mode)) {
			char config[PATH_MAX + 16];
			snprintf(config, sizeof(config), "%s/config", G.gitdir);
			check_config(config, G.config, G.config_len, &rep);
			check_hooks(G.gitdir, G.hooks, G.hooks_dir, &rep);
		}
	}
	/* Repositories below the project the session made: nothing of theirs ran before. */
	size_t i;
	json_t *r;
	json_array_foreach(repos, i, r) {
		const char *top = json_string_value(r);
		char gitdir[PATH_MAX], config[PATH_MAX + 16];
		if (top == NULL)
			continue;
		snprintf(gitdir, sizeof(gitdir), "%s/.git", top);
		if (lstat(gitdir, &st) < 0)
			snprintf(gitdir, sizeof(gitdir), "%s", top); /* a bare repository */
		else if (!S_ISDIR(st.st_mode))
			continue; /* a worktree's link: repos_tell names it */
		if (!made_in_session(gitdir))
			continue;
		snprintf(config, sizeof(config), "%s/config", gitdir);
		check_config(config, NULL, 0, &rep);
		check_hooks(gitdir, NULL, false, &rep);
	}
	claude_check(&rep);
	free(G.config);
	free(G.hooks);
	free(G.claude_was);
	if (json_array_size(rep.log) == 0) {
		json_decref(rep.log);
		return NULL;
	}
	return rep.log;
}
