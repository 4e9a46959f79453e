/*
 * protect.c - the protections ward adds at start: rules of its own,
 * besides the profile's, each under a location of its own (the list at the
 * end of this file).  After the profile, in a layer of the profile's (so
 * that the user's rules may still allow what they guard): git's hooks and
 * config where git finds them, the home directory's dot files, $PATH's
 * directories.  After every layer, deny! in the self layer (no rule can
 * lift them): the log, ward's own program, the policy files read.
 * `ward run` adds them all; `ward check` lists them too (the log's only
 * with a session).
 */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

/*
 * Where git finds a repository's hooks and config, as the user's own git
 * would in the project: core.hooksPath (husky's .husky/), a linked
 * worktree's common directory.  Asked of git itself, once, before the
 * session.  git starts (git_start) before the profile is read and its
 * links followed, and is waited for (git_paths) when its answer is needed,
 * so that its few milliseconds overlap ward's own start-up.
 */
static void git_start(struct git_query *q, const char *project)
{
	int p[2];

	q->pid = -1;
	q->fd = -1;
	if (pipe2(p, O_CLOEXEC) < 0)
		return;
	pid_t pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	if (pid == 0) {
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null < 0 || dup2(null, 0) < 0 || dup2(p[1], 1) < 0 || dup2(null, 2) < 0)
			_exit(127);
		/*
		 * safe.directory=*: a repository of another user (a root ward in
		 * a user's checkout) is read too; rev-parse runs nothing of its.
		 */
		execlp("git", "git", "-c", "safe.directory=*", "-C", project, "rev-parse",
		       "--path-format=absolute", "--git-path", "hooks", "--git-path", "config",
		       (char *)NULL);
		_exit(127);
	}
	close(p[1]);
	q->pid = pid;
	q->fd = p[0];
}

/* git is killed, answered or not; git_paths or git_reap then waits for it. */
static void git_cancel(struct git_query *q)
{
	if (q->pid < 0)
		return;
	close(q->fd);
	kill(q->pid, SIGKILL);
	q->fd = -1;
}

/* The query ended, unread if still open (an error before its answer was needed). */
static void git_reap(struct git_query *q)
{
	if (q->pid < 0)
		return;
	git_cancel(q);
	waitpid(q->pid, NULL, 0);
	q->pid = -1;
}

/*
 * git's answer: 0 and two absolute paths, one a line, in out, or -1 (no
 * git, no repository, no answer).  Either way the query is over.
 */
static int git_paths(struct git_query *q, char *out, size_t len)
{
	ssize_t n = 0;
	int st;

	if (q->pid < 0)
		return -1;
	/* Five seconds at most: a git that hangs (a slow network filesystem) is not waited for. */
	struct pollfd pf = { .fd = q->fd, .events = POLLIN };
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &t);
		long left = 5000 - ((t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000);
		if (left <= 0 || poll(&pf, 1, (int)left) <= 0)
			break;
		ssize_t r = read(q->fd, out + n, len - 1 - (size_t)n);
		if (r <= 0 || (size_t)(n += r) >= len - 1)
			break;
	}
	git_cancel(q);
	pid_t pid = q->pid, w = waitpid(pid, &st, 0);
	q->pid = -1;
	if (w != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0 || n <= 0)
		return -1;
	out[n] = '\0';
	return out[0] == '/' ? 0 : -1;
}

static bool is_bare(const char *dir);

/*
 * The repository the project is in (or is): the first .git on the way up
 * from it, or the first directory that is a bare repository (HEAD, objects
 * and refs in it), or $GIT_DIR.  0 and its path in out, or -1 for none.
 */
static int find_git(const char *project, char *out, size_t len)
{
	char dir[PATH_MAX];
	const char *env = getenv("GIT_DIR");

	if (env != NULL && *env != '\0') {
		snprintf(out, len, "%s", env);
		return 0;
	}
	snprintf(dir, sizeof(dir), "%s", project);
	for (;;) {
		if (snprintf(out, len, "%s/.git", strcmp(dir, "/") == 0 ? "" : dir) < (int)len &&
		    access(out, F_OK) == 0)
			return 0;
		if (is_bare(dir)) {
			snprintf(out, len, "%s", dir);
			return 0;
		}
		char *slash = strrchr(dir, '/');
		if (slash == NULL || strcmp(dir, "/") == 0)
			return -1;
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

/*
 * Whether a .git git cannot read is, or was, a repository: a .git file
 * (a worktree's or submodule's link), or a directory with what git makes
 * in one.  An empty .git directory is none.
 */
static bool looks_like_repo(const char *dotgit)
{
	static const char *const parts[] = { "HEAD", "config", "objects", "refs" };
	char path[PATH_MAX];
	struct stat st;

	if (stat(dotgit, &st) < 0 || !S_ISDIR(st.st_mode))
		return true;
	for (int i = 0; i < 4; i++)
		if (snprintf(path, sizeof(path), "%s/%s", dotgit, parts[i]) < (int)sizeof(path) &&
		    access(path, F_OK) == 0)
			return true;
	return false;
}

/* A directory git takes for a bare repository: HEAD, and objects and refs directories. */
static bool is_bare(const char *dir)
{
	static const char *const parts[] = { "HEAD", "objects", "refs" };
	char path[PATH_MAX + 16];
	struct stat st;

	for (int i = 0; i < 3; i++) {
		snprintf(path, sizeof(path), "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, parts[i]);
		if (stat(path, &st) < 0 || (i > 0 && !S_ISDIR(st.st_mode)))
			return false;
	}
	return true;
}

/*
 * Where git would find a repository the agent made: when the project has
 * no .git, or one the agent spoiled (its HEAD moved away), git takes the
 * project itself for a bare repository if it holds HEAD, objects and refs,
 * and else looks in each directory above for a .git or a bare repository,
 * whose config (core.fsmonitor, core.hooksPath) then runs at the user's
 * next git command there (a shell prompt's git status).  So no HEAD is
 * made in the project or above it, nor a .git above it: rules appended to
 * out (len bytes).  A project that is a bare repository keeps its HEAD.
 */
static void protect_discovery(const char *project, char *out, size_t len)
{
	char dir[PATH_MAX], q[3 * PATH_MAX];

	snprintf(dir, sizeof(dir), "%s", project);
	for (bool top = true;; top = false) {
		char head[PATH_MAX + 8];
		snprintf(head, sizeof(head), "%s/HEAD", strcmp(dir, "/") == 0 ? "" : dir);
		bool bare = top && is_bare(dir);
		size_t l = strlen(out);
		if (!bare && policy_quote(q, sizeof(q), strcmp(dir, "/") == 0 ? "" : dir, false) == 0)
			snprintf(out + l, len - l, "deny create \"%s/HEAD\"%s%s%s\n", q,
				 top ? "" : " \"", top ? "" : q, top ? "" : "/.git\"");
		char *slash = strrchr(dir, '/');
		if (slash == NULL || strcmp(dir, "/") == 0)
			return;
		if (slash == dir)
			slash[1] = '\0';
		else
			*slash = '\0';
	}
}

/*
 * The profiles whose protections go beyond their rules: a repository's
 * hooks and config where git finds them, the home directory's dot files,
 * $PATH's directories.  (audit allows everything; a new profile that
 * keeps the agent from the user's things belongs here.)
 */
static bool guards_more(const char *profile)
{
	return strcmp(profile, "default") == 0 || strcmp(profile, "strict") == 0;
}

/*
 * The default and strict profiles write-protect $PROJECT/.git/hooks and
 * .git/config.  Where git looks elsewhere for them, there too: hooks kept
 * in the project (core.hooksPath), a repository the project is a
 * directory of, a linked worktree's common directory.  A layer of its own
 * right after the profile, so later layers may still allow them.  When
 * there is a repository and git cannot say (a HEAD the agent spoiled in
 * an earlier session, a git that hangs), ward does not start: its hooks
 * would go unguarded.
 */
static int protect_git(struct ward_policy *p, struct protect_ctx *c, const char *loc,
		       struct ward_error *err)
{
	const char *profile = c->profile, *dotgit = c->repo ? c->dotgit : NULL;
	const struct ward_vars *vars = c->vars;
	struct git_query *git = &c->git;
	static const char *const what[] = { "hooks", "config" };
	char paths[2 * PATH_MAX + 2], found[PATH_MAX], usual[PATH_MAX];
	char q[3 * PATH_MAX];
	int rc = 0;

	if (!guards_more(profile))
		return 0;
	/*
	 * A line for the project and each directory above it (two names of at
	 * most 3 bytes a byte, quoted), and two for hooks and config.
	 */
	size_t depth = 1, plen = strlen(vars->project);
	for (const char *ch = vars->project; *ch; ch++)
		depth += *ch == '/';
	size_t size = depth * (6 * plen + 64) + 2 * (6 * PATH_MAX + 64);
	char *rules = malloc(size);
	if (rules == NULL)
		return -ENOMEM;
	rules[0] = '\0';
	if (dotgit == NULL)
		goto add;
	char *line = paths, *next;
	if (git_paths(git, paths, sizeof(paths)) < 0 ||
	    (next = strchr(paths, '\n')) == NULL || next[1] != '/') {
		if (!looks_like_repo(dotgit))
			goto add; /* an empty .git: git does not take it for a repository either */
		snprintf(err->msg, sizeof(err->msg),
			 "git cannot find the hooks and config of the repository at %s (is git "
			 "installed, is the repository whole?): ward would leave them unguarded",
			 dotgit);
		free(rules);
		return -EIO;
	}
	for (int i = 0; i < 2; i++) {
		size_t ll = strcspn(line, "\n");
		snprintf(found, sizeof(found), "%.*s", (int)ll, line);
		line += ll + (line[ll] == '\n');
		char real[PATH_MAX];
		if (realpath(found, real) != NULL)
			snprintf(found, sizeof(found), "%s", real);
		snprintf(usual, sizeof(usual), "%s/.git/%s", vars->project, what[i]);
		if (realpath(usual, real) != NULL && strcmp(real, found) == 0)
			continue; /* the profile's own rules cover it */
		if (policy_quote(q, sizeof(q), found, false) < 0)
			continue;
		size_t l = strlen(rules);
		snprintf(rules + l, size - l, "deny write,create,delete \"%s\"%s%s%s\n", q,
			 i == 0 ? " \"" : "", i == 0 ? q : "", i == 0 ? "/**\"" : "");
	}
	/*
	 * A repository that is not the project's own .git (the project is a
	 * bare repository, or a directory of one above): where the profile's
	 * rules for .git/commondir and .git/config.worktree do not reach.
	 */
	char own[PATH_MAX + 8], real[PATH_MAX];
	snprintf(own, sizeof(own), "%s/.git", vars->project);
	if ((realpath(dotgit, real) == NULL || strcmp(real, own) != 0) &&
	    policy_quote(q, sizeof(q), realpath(dotgit, real) ? real : dotgit, false) == 0) {
		size_t l = strlen(rules);
		snprintf(rules + l, size - l,
			 "deny write,create,delete \"%s/commondir\" \"%s/config.worktree\"\n", q, q);
	}
add:
	protect_discovery(vars->project, rules, size);
	if (rules[0] != '\0')
		rc = ward_policy_add_text(p, WARD_LAYER_PROFILE, loc, rules, strlen(rules), err);
	free(rules);
	return rc;
}

/* path is dir or below it. */
static bool below(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	if (n == 1 && dir[0] == '/')
		return true;
	return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/*
 * A project that holds the home directory (ward run from ~) would make all
 * of ~ the agent's to write, its dot files and directories too: the
 * profile names the start-up files and configs that run code it knows of,
 * but programs read many more (bash-completion's, systemd's tmpfiles.d,
 * editors', toolchains'), and the list cannot be finished.  So there they
 * stay as they are for a project below ~: not the agent's (denied, as
 * asking without a terminal would), save $TMPDIR and $SESSION should they
 * lie there.  A layer right after the profile's; user rules may allow.
 */
static int protect_home_dots(struct ward_policy *p, struct protect_ctx *c, const char *loc,
			     struct ward_error *err)
{
	const char *profile = c->profile;
	const struct ward_vars *vars = c->vars;
	char rules[8 * PATH_MAX + 256], q[3 * PATH_MAX], home[PATH_MAX];

	/* The project is a real path: so must home be (/home a link to /var/home). */
	if (realpath(vars->home, home) == NULL)
		snprintf(home, sizeof(home), "%s", vars->home);
	if (!guards_more(profile) || strcmp(home, "/") == 0 || !below(home, vars->project))
		return 0;
	if (policy_quote(q, sizeof(q), home, false) < 0)
		return 0; /* a home of 4 KiB: no rule could name it */
	int n = snprintf(rules, sizeof(rules), "deny write,create,delete \"%s/.*\" \"%s/.*/**\"\n", q, q);
	/* $TMPDIR in a dot directory (~/.cache/tmp): as the profile has it. */
	char tmp[PATH_MAX];
	if (realpath(vars->tmpdir, tmp) == NULL)
		snprintf(tmp, sizeof(tmp), "%s", vars->tmpdir);
	size_t hl = strlen(home);
	if (below(tmp, home) && tmp[hl] == '/' && tmp[hl + 1] == '.')
		n += snprintf(rules + n, sizeof(rules) - (size_t)n,
			      "allow write,create,delete $TMPDIR/** $SESSION/**\n"
			      "deny write,create,delete $TMPDIR/ward-$UID/**\n"
			      "allow write,create,delete $SESSION/**\n"
			      "deny create $TMPDIR/.git $TMPDIR/HEAD\n");
	return ward_policy_add_text(p, WARD_LAYER_PROFILE, loc, rules, (size_t)n, err);
}

/*
 * The directories of $PATH the profile lets the agent write (a ~/bin in
 * a project that holds the home directory, a PATH entry in $TMPDIR): a
 * program planted there runs at the user's next command of that name, in
 * any shell, long after the session.  Writing there is asked (the rule's
 * target resolved as every rule's is), in a layer right after the
 * profile's, so user rules may still allow it.  Not the project's own directories when
 * the project does not hold the home directory (a node_modules/.bin on PATH:
 * the agent builds there), and not relative entries, which name a
 * different directory wherever the user stands.
 */
static int protect_bin_dirs(struct ward_policy *p, struct protect_ctx *c, const char *loc,
			    struct ward_error *err)
{
	const char *profile = c->profile;
	const struct ward_vars *vars = c->vars;
	const char *env = getenv("PATH");
	char home[PATH_MAX];
	if (realpath(vars->home, home) == NULL)
		snprintf(home, sizeof(home), "%s", vars->home);
	bool project_holds_home = below(home, vars->project);
	char entry[PATH_MAX], real[PATH_MAX], probe[PATH_MAX + 8], q[3 * PATH_MAX];
	char *rules = NULL;
	size_t len = 0, size = 0;
	int rc = 0;

	if (env == NULL || !guards_more(profile))
		return 0;
	for (const char *e = env; *e != '\0';) {
		size_t n = strcspn(e, ":");
		bool fits = n < sizeof(entry);
		if (fits)
			snprintf(entry, sizeof(entry), "%.*s", (int)n, e);
		e += n + (e[n] == ':');
		if (!fits || entry[0] != '/')
			continue;
		/* Rule targets are resolved as they are compiled; the probe needs it done. */
		struct ward_verdict v;
		const char *d = realpath(entry, real) ? real : entry;
		if (strcmp(d, "/") == 0 || (below(d, vars->project) && !project_holds_home))
			continue;
		snprintf(probe, sizeof(probe), "%s/ward-probe", d);
		if (ward_decide_path(p, WARD_OP_CREATE, probe, &v) == 0 && v.action != WARD_ALLOW)
			continue; /* denied, asked or rewritten already (undecidable: asked here too) */
		if (policy_quote(q, sizeof(q), entry, false) < 0)
			continue;
		size_t need = 2 * strlen(q) + 48;
		if (len + need > size) {
			size_t grown = 2 * (size + need);
			char *r = realloc(rules, grown);
			if (r == NULL) {
				free(rules);
				return -ENOMEM;
			}
			rules = r;
			size = grown;
		}
		len += (size_t)snprintf(rules + len, size - len,
					"ask write,create,delete \"%s\" \"%s/**\"\n", q, q);
	}
	if (len > 0)
		rc = ward_policy_add_text(p, WARD_LAYER_PROFILE, loc, rules, len, err);
	free(rules);
	return rc;
}

/*
 * A deny! rule of ward's own for one path (the log, whatever --log names;
 * ward's executable), like the built-in ones.  The path is written as a
 * quoted literal word.  A literal path is resolved when the rule is
 * loaded, symlink and all; a symlink's own name (link) is kept from that
 * by a glob on its last character, "[c]" (or "?" where a class cannot
 * hold it, which protects a few more names, never fewer).
 */
static int protect(struct ward_policy *p, const char *path, const char *ops, const char *loc,
		   bool link, struct ward_error *err)
{
	char q[3 * PATH_MAX], rule[3 * PATH_MAX + 64];
	struct ward_error e;

	if (policy_quote(q, sizeof(q), path, link) < 0) {
		snprintf(err->msg, sizeof(err->msg), "cannot protect %s: path too long", path);
		return -ENAMETOOLONG;
	}
	snprintf(rule, sizeof(rule), "deny! %s \"%s\"", ops, q);
	int rc = ward_policy_add_text(p, WARD_LAYER_SELF, loc, rule, strlen(rule), &e);
	if (rc < 0)
		snprintf(err->msg, sizeof(err->msg), "cannot protect %s: %s", path, e.msg);
	return rc;
}

/*
 * The log is the agent's to neither read nor change.  Not so a device
 * (--log /dev/null to keep none, a terminal): it is not a file of the
 * log's own, and the agent's programs need it (c->log is NULL then).
 */
static int protect_log(struct ward_policy *p, struct protect_ctx *c, const char *loc,
		       struct ward_error *err)
{
	if (c->log == NULL)
		return 0;
	return protect(p, c->log, "read,write,create,delete,exec", loc, false, err);
}

/*
 * ward's own program: the agent may run it (a nested session fails on its
 * own), but not change it for the next session to run.
 */
static int protect_exe(struct ward_policy *p, struct protect_ctx *c, const char *loc,
		       struct ward_error *err)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);

	(void)c;
	if (n <= 0) {
		snprintf(err->msg, sizeof(err->msg), "cannot find ward's own program: %s",
			 strerror(n < 0 ? errno : ENOENT));
		return -ENOENT;
	}
	exe[n] = '\0';
	return protect(p, exe, "write,create,delete", loc, false, err);
}

/*
 * A file the next session reads by this name (a policy file): the file,
 * and every symlink met on the way to it, the way the kernel meets them
 * (a symlink's target walked in turn, links within it too), which the
 * agent could otherwise turn to a file of its own.
 */
struct protect_link {
	struct ward_policy *p;
	const char *ops, *loc;
	struct ward_error *err;
	int failed; /* a rule that could not be added: -errno, err set */
};

static int protect_link(void *arg, const char *name)
{
	struct protect_link *pl = arg;

	pl->failed = protect(pl->p, name, pl->ops, pl->loc, true, pl->err);
	return pl->failed;
}

/*
 * The policy files ward read (--policy, and what they or the user's policy
 * include), by the names they were read under and where they really are:
 * the agent may not change the policy of later sessions.
 */
static int protect_policy(struct ward_policy *p, struct protect_ctx *c, const char *loc,
			  struct ward_error *err)
{
	size_t n;
	const char *const *files = ward_policy_files(p, &n);

	(void)c;
	for (size_t i = 0; i < n; i++) {
		struct protect_link pl = { p, "write,create,delete", loc, err, 0 };
		int rc = protect(p, files[i], pl.ops, loc, false, err);
		if (rc < 0)
			return rc;
		/* A loop, a name too long: nothing is loaded through it. */
		(void)ward_path_links(files[i], protect_link, &pl, NULL, 0);
		if (pl.failed < 0)
			return pl.failed;
	}
	return 0;
}

/*
 * The list, in the order the rules are added: a location (the rules'
 * "builtin:NAME"), when, and the function that adds them (0 or -errno
 * with err set).
 */
static const struct protection {
	const char *loc;
	enum protect_stage stage;
	int (*add)(struct ward_policy *p, struct protect_ctx *c, const char *loc,
		   struct ward_error *err);
} protections[] = {
	{ "builtin:git", PROTECT_AFTER_PROFILE, protect_git },
	{ "builtin:home", PROTECT_AFTER_PROFILE, protect_home_dots },
	{ "builtin:path", PROTECT_AFTER_PROFILE, protect_bin_dirs },
	{ "builtin:log", PROTECT_AFTER_POLICY, protect_log },
	{ "builtin:exe", PROTECT_AFTER_POLICY, protect_exe },
	{ "builtin:policy", PROTECT_AFTER_POLICY, protect_policy },
};

void protect_prepare(struct protect_ctx *c)
{
	c->git = (struct git_query){ .pid = -1, .fd = -1 };
	c->repo = guards_more(c->profile) && find_git(c->vars->project, c->dotgit, sizeof(c->dotgit)) == 0;
	if (c->repo)
		git_start(&c->git, c->vars->project);
}

void protect_finish(struct protect_ctx *c)
{
	git_reap(&c->git);
}

int protect_add(struct ward_policy *p, enum protect_stage stage, struct protect_ctx *c,
		struct ward_error *err)
{
	for (size_t i = 0; i < sizeof(protections) / sizeof(protections[0]); i++) {
		if (protections[i].stage != stage)
			continue;
		int rc = protections[i].add(p, c, protections[i].loc, err);
		if (rc < 0)
			return rc;
	}
	return 0;
}
