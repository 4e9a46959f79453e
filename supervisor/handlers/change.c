/*
 * handlers/change.c - mkdir, mknod, unlink, rmdir, rename, link, symlink,
 * chmod, chown, truncate, utime(s), xattr changes, and their *at and f*
 * forms.
 *
 * decode -> resolve -> decide -> emulate -> reply.  A name that is made
 * or removed is judged as its parent's real path plus the name, and the
 * change is made relative to the parent fd the supervisor opened.  A
 * change to an existing object is judged on the real path of the object
 * the supervisor opened (O_PATH), and made through that fd, never by
 * looking the name up again.
 */
#include "handlers.h"
#include "../log.h"
#include "../mem.h"
#include "../netstate.h"
#include "../notify.h"
#include "../repos.h"
#include "../resolve.h"
#include "../session.h"
#include "../shm.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/xattr.h>
#include <linux/limits.h>
#include <unistd.h>
#include <utime.h>

#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#define RENAME_EXCHANGE (1 << 1)
#define RENAME_WHITEOUT (1 << 2)
#endif

/* What a call does with a name, for what it would fail with natively anyway. */
enum change { CH_OTHER, CH_MAKE, CH_UNLINK, CH_RMDIR };

/* A name to create or remove: its parent fd, decided on as parent/name. */
struct target {
	int parent;
	const char *name;
	char name_buf[NAME_MAX + 1];
	enum change how;
	const char *real; /* parent/name */
};

static int read_path(struct req *r, uint64_t addr, char *buf, size_t len)
{
	int rc = mem_read_str(r, addr, buf, len);
	return rc < 0 ? rc : 0;
}

/*
 * "name/" names a directory: what is at name must be one (not a symlink to
 * one either, since the call would act on the link).
 */
static int check_trailing(struct req *r, const struct target *t, bool removedir)
{
	struct stat st;

	if (!r->trailing_slash)
		return 0;
	if (fstatat(t->parent, t->name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return removedir ? 0 : -EISDIR;
}

static bool dir_not_empty(int dir, const char *name);

/* Is dir on a read-only mount (or filesystem)?  Its changes are EROFS. */
static bool read_only(int dir)
{
	struct statvfs sv;

	return fstatvfs(dir, &sv) == 0 && (sv.f_flag & ST_RDONLY);
}

/*
 * What a change of t would fail with natively whatever the policy says
 * (req.fails_anyway), told only where the policy lets the agent see
 * what is at the name (stat allowed there): a name to make that is there
 * already (EEXIST, which the kernel answers before it looks at
 * permissions), a name to remove that is not there (ENOENT, likewise),
 * and, in a directory the caller may write, an rmdir of what is no
 * directory (ENOTDIR) or one with entries (ENOTEMPTY), an unlink of a
 * directory (EISDIR), when it is not sticky.  The name is looked at on
 * the parent ward opened.
 * A negative errno, or 0: the call may succeed, ask.
 */
static int target_fails(struct req *r, const void *arg)
{
	const struct target *t = arg;
	struct stat st;
	(void)r;

	if (t->how == CH_OTHER || t->parent < 0 || !decide_may_see(t->real))
		return 0;
	bool there = fstatat(t->parent, t->name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (!there && errno != ENOENT)
		return 0;
	/*
	 * On a read-only mount: a make of a name that is there is EEXIST, of
	 * one that is not EROFS; a removal EROFS, there or not (the kernel
	 * asks the mount for writing before it looks the name up).
	 */
	if (t->how == CH_MAKE)
		return there ? -EEXIST : read_only(t->parent) ? -EROFS : 0;
	if (read_only(t->parent))
		return -EROFS;
	if (!there)
		return -ENOENT;
	/* The kernel checks the directory's permission and sticky bit before these. */
	struct stat pst;
	if (faccessat(t->parent, "", W_OK | X_OK, AT_EMPTY_PATH | AT_EACCESS) < 0 ||
	    fstat(t->parent, &pst) < 0 || (pst.st_mode & S_ISVTX))
		return 0;
	if (t->how == CH_UNLINK)
		return S_ISDIR(st.st_mode) ? -EISDIR : 0;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	return dir_not_empty(t->parent, t->name) ? -ENOTEMPTY : 0;
}

/*
 * Resolve path's parent and decide op on parent/name; real gets that path.
 * how says what the call does with the name: no one is asked about a call
 * that would fail anyway (target_fails).
 */
static int name_target(struct req *r, int dirfd, const char *path, enum ward_op op,
		       struct target *t, char *real, char *parent_real, enum change how)
{
	struct ward_verdict v;
	const char *name;
	int rc;

	t->parent = -1;
	t->real = NULL;
	rc = resolve(r, dirfd, path, RES_PARENT, &t->parent, parent_real, PATH_MAX, &name);
	if (rc == -E_FOREIGN_PROC) {
		/* In another process's /proc: decided lexically, and denied. */
		rc = decide_path(r, op, parent_real, &v);
		return foreign_denied(r, rc);
	}
	if (rc < 0)
		return rc;
	snprintf(t->name_buf, sizeof(t->name_buf), "%s", name);
	t->name = t->name_buf;
	if ((rc = join_path(parent_real, t->name, real, PATH_MAX)) < 0)
		return rc;
	t->how = how;
	t->real = real;
	r->fails_anyway = target_fails;
	r->fails_arg = t;
	rc = decide_path(r, op, real, &v);
	r->fails_anyway = NULL;
	if (rc == 1)
		return -EACCES; /* rewrites are for opens; a change elsewhere is refused */
	return rc;
}

/*
 * How an existing object is named: by a path (AT_EMPTY_PATH allowing ""
 * for dirfd itself), or by an fd alone (fchmod, futimens...), where the
 * fd is the object and AT_FDCWD is no fd.
 */
enum naming { BY_PATH, BY_PATH_OR_EMPTY, BY_FD };

/* An existing object: resolve, decide op on its real path. */
static int object_target(struct req *r, int dirfd, uint64_t path_addr, enum naming how,
			 bool follow, enum ward_op op, int *fd)
{
	struct ward_verdict v;
	int rc;

	*fd = -1;
	if (how == BY_FD) {
		if (dirfd < 0)
			return -EBADF;
		r->path[0] = '\0';
	} else if ((rc = read_path(r, path_addr, r->path, sizeof(r->path))) < 0) {
		return rc; /* a NULL path too: EFAULT, as the kernel says */
	}
	req_path(r, r->path);
	if (r->path[0] == '\0' && how != BY_PATH) {
		rc = agent_object(r, dirfd, fd, r->real, sizeof(r->real));
	} else {
		rc = resolve(r, dirfd, r->path, follow ? RES_FINAL : RES_FINAL_NOFOLLOW, fd,
			     r->real, sizeof(r->real), NULL);
	}
	if (rc == -E_FOREIGN_PROC) {
		rc = decide_path(r, op, r->real, &v);
		return foreign_denied(r, rc);
	}
	if (rc < 0)
		return rc;
	if ((rc = anon_check(r, *fd, r->real)) < 0) {
		req_about(r, op, r->real);
		close(*fd);
		*fd = -1;
		return rc;
	}
	struct stat st;
	bool have_st = r->real[0] == '/' && fstat(*fd, &st) == 0;
	if (r->real[0] != '/' || (have_st && unnamed_object(r->real, &st))) {
		/* A pipe, socket or memfd reached through an fd of the agent's: its own. */
		req_own(r, op, r->real);
		return 0;
	}
	rc = decide_path(r, op, r->real, &v);
	if (rc == 1)
		rc = -EACCES;
	if (rc == 0 && op == WARD_OP_WRITE && shm_path(r->real))
		rc = !have_st ? -EACCES : shm_check(r, WARD_OP_WRITE, r->real, &st);
	if (rc < 0) {
		close(*fd);
		*fd = -1;
	}
	return rc;
}

/* True when the agent's fd n is an O_PATH fd (from /proc/TID/fdinfo/N). */
static bool agent_fd_opath(struct req *r, int n)
{
	struct fdinfo fi;
	return n >= 0 && agent_fdinfo(r->tid, n, &fi) == 0 && (fi.flags & O_PATH);
}

static void magic(int fd, char *buf, size_t len)
{
	snprintf(buf, len, "/proc/self/fd/%d", fd);
}

/*
 * Make a change: its decision is logged before it is made (the line must
 * exist even if the change is the last thing that happens), then call (a
 * system call of ward's, 0 or -1 with errno) is made.  A change that fails
 * is logged once more, with its errno (req_commit: tells).  1, or -errno.
 * The call holds the namespace lock shared: a unix socket bound by the
 * agent's own string waits for it, and it for the bind (resolve.h).
 */
#define CHANGE(r, call)                                   \
	(req_commit((r), true) < 0 ? -EACCES                  \
				   : (ns_change_begin(), ns_change_end((call) < 0 ? -errno : 1)))

/*
 * A name to make, given with a trailing slash, by a call that makes no
 * directory: the kernel answers EEXIST if something is there, else
 * ENOENT ("you asked for a directory").
 */
static int slash_create(const struct target *t)
{
	struct stat st;
	return fstatat(t->parent, t->name, &st, AT_SYMLINK_NOFOLLOW) == 0 ? -EEXIST : -ENOENT;
}

/*
 * A name that may not be made, but is there already: the kernel answers
 * EEXIST before it looks at permissions (mkdir of an existing directory
 * says "File exists" wherever it is), and so does ward, where the policy
 * lets the agent see what is at that name (decide_may_see: elsewhere
 * EEXIST for a name there and EACCES for one not there would tell what
 * the policy hides).  The decision is still logged as the deny it was.
 */
static int denied_create(const struct target *t, int rc)
{
	struct stat st;

	if (rc == -EACCES && t->parent >= 0 && t->real != NULL && decide_may_see(t->real)) {
		if (fstatat(t->parent, t->name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			return -EEXIST;
		if (errno == ENOENT && read_only(t->parent))
			return -EROFS; /* not there, on a read-only mount: as target_fails */
	}
	return rc;
}

/*
 * A name that may not be removed, and is not there: the kernel answers
 * ENOENT before it looks at permissions (unlink("/nonexistent")), and so
 * does ward, where the agent may see what is there, as denied_create
 * does for EEXIST.
 */
static int denied_delete(const struct target *t, int rc)
{
	struct stat st;

	if (rc == -EACCES && t->parent >= 0 && t->real != NULL && decide_may_see(t->real) &&
	    fstatat(t->parent, t->name, &st, AT_SYMLINK_NOFOLLOW) < 0 && errno == ENOENT)
		return read_only(t->parent) ? -EROFS : -ENOENT; /* EROFS first, as target_fails */
	return rc;
}

static int do_create(struct req *r, int dirfd, uint64_t path, int kind, mode_t mode, dev_t dev)
{
	struct target t;
	mode_t um;
	int rc;

	if ((rc = read_path(r, path, r->path, sizeof(r->path))) < 0)
		return rc;
	req_path(r, r->path);
	rc = name_target(r, dirfd, r->path, WARD_OP_CREATE, &t, r->real, r->real2, CH_MAKE);
	if (rc == -EINVAL)
		rc = -EEXIST; /* "dir/.", "dir/.." or "/": it exists */
	if (rc < 0) {
		rc = denied_create(&t, rc);
		goto out;
	}
	if ((rc = agent_umask(r, &um)) < 0)
		goto out;
	if (kind != 'd' && slash_end(r->path)) {
		rc = slash_create(&t);
		goto out;
	}
	if (kind == 'n' && (S_ISBLK(mode) || S_ISCHR(mode))) {
		/* A device node would reach around every path rule. */
		rc = refuse(r, EPERM, "device nodes are not made");
		goto out;
	}
	/* agent_umask made the agent's umask this worker's: the kernel applies it. */
	if (kind == 'd')
		rc = CHANGE(r, mkdirat(t.parent, t.name, mode & 07777));
	else
		rc = CHANGE(r, mknodat(t.parent, t.name, (mode & S_IFMT) | (mode & 07777), dev));
	if (rc == 1) {
		repos_note(r->real);
		shm_made(r->real, t.parent, t.name);
	}
out:
	if (t.parent >= 0)
		close(t.parent);
	return rc;
}

/*
 * A unix socket file a program outside the session listens on, or a
 * directory or symlink on the way to one (by the name it was bound to, and
 * by that name resolved), may not be removed, replaced or moved: the agent would bind its own socket there
 * and hear that program's clients (an ssh-agent's: ssh-add hands it keys).
 * A socket file no one listens on any more is an ordinary file.  What
 * the kernel cannot tell (sock_diag) is refused.
 */
static int foreign_socket(struct req *r, const struct stat *st, const char *real)
{
	int rc;

	if (S_ISSOCK(st->st_mode))
		rc = net_unix_foreign(st->st_dev, st->st_ino, NULL);
	else if (S_ISDIR(st->st_mode) || S_ISLNK(st->st_mode))
		rc = net_unix_foreign(0, 0, real); /* real: the link's own name, not its target */
	else
		return 0;
	if (rc == 0)
		return 0;
	return refuse(r, EACCES, rc > 0 ? "a unix socket a program outside the session listens on"
				: "cannot tell whether a program outside the session listens on a unix socket there");
}

/* Whether name in dir is a directory with entries (not a symlink to one). */
static bool dir_not_empty(int dir, const char *name)
{
	int fd = openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK);
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	bool found = false;

	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return false;
	}
	for (struct dirent *e; !found && (e = readdir(d)) != NULL;)
		found = strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	closedir(d);
	return found;
}

static int do_unlink(struct req *r, int dirfd, uint64_t path, int flags)
{
	struct target t = { .parent = -1 };
	int rc;

	if (flags & ~AT_REMOVEDIR)
		return -EINVAL;
	if ((rc = read_path(r, path, r->path, sizeof(r->path))) < 0)
		return rc;
	req_path(r, r->path);
	rc = name_target(r, dirfd, r->path, WARD_OP_DELETE, &t, r->real, r->real2,
			 (flags & AT_REMOVEDIR) ? CH_RMDIR : CH_UNLINK);
	rc = denied_delete(&t, rc);
	/*
	 * A refused rmdir of a directory that is not empty would fail natively
	 * too (ENOTEMPTY): the refusal answers first, as a permission does in
	 * the kernel, but it is no refusal to tell of (-v, the session's count).
	 */
	if (rc < 0 && (flags & AT_REMOVEDIR) && t.parent >= 0 && t.name != NULL &&
	    dir_not_empty(t.parent, t.name))
		r->dec.moot = true;
	if (rc == 0)
		rc = check_trailing(r, &t, flags & AT_REMOVEDIR);
	struct stat st;
	bool there = rc == 0 && fstatat(t.parent, t.name, &st, AT_SYMLINK_NOFOLLOW) == 0;
	if (rc == 0 && !there && shm_path(r->real))
		rc = -errno; /* what is there could not be told: not removed */
	if (there && !(flags & AT_REMOVEDIR))
		rc = foreign_socket(r, &st, r->real);
	if (there && rc == 0)
		rc = shm_check(r, WARD_OP_DELETE, r->real, &st);
	if (rc == 0)
		rc = CHANGE(r, unlinkat(t.parent, t.name, flags));
	if (rc == 1)
		repos_note(r->real);
	if (rc == 1 && there)
		shm_gone(r->real, &st);
	if (t.parent >= 0)
		close(t.parent);
	if (rc == -EINVAL) {
		/* The path ended in "." or "..": answer as the kernel does. */
		size_t n = strlen(r->path);
		while (n > 1 && r->path[n - 1] == '/')
			n--;
		bool dotdot = n >= 2 && r->path[n - 1] == '.' && r->path[n - 2] == '.' &&
			      (n == 2 || r->path[n - 3] == '/');
		if (!(flags & AT_REMOVEDIR))
			rc = -EISDIR;
		else if (dotdot)
			rc = -ENOTEMPTY;
		else if (strspn(r->path, "/") == strlen(r->path))
			rc = -EBUSY; /* the root */
	}
	return rc;
}

/* The policy would let the agent remove or replace path, or a directory above it. */
static bool replaceable(const char *path)
{
	char p[PATH_MAX];
	struct ward_verdict v;

	snprintf(p, sizeof(p), "%s", path);
	for (;;) {
		if (ward_decide_path(S->policy, WARD_OP_DELETE, p, &v) < 0 || v.action == WARD_ALLOW)
			return true;
		char *slash = strrchr(p, '/');
		if (slash == NULL || slash == p)
			return false; /* "/" itself is never removed */
		*slash = '\0';
	}
}

/*
 * A symlink made at name (a real path; dir is its directory's) with the
 * text text: every path below name then leads below where it points, and
 * rules match real paths, so what rules say below name would no longer
 * hold for what is reached through it, though other programs still read
 * it by that name (~/.config made a link to a directory of the agent's:
 * ward's own user policy, git's config, autostart entries below it).  So
 * it is refused when some path below where it leads allows what the same
 * path below name does not (ward_policy_link_widens).  Where it leads is
 * walked now, as the kernel would walk it; a symlink on the way that the
 * agent may replace later could lead it elsewhere later, so such a link
 * must itself allow below it no more than name does (and a link made
 * anew is judged so in turn); a ".." after a name that does not exist yet
 * (it may become a link) is refused.  0, or a refusal.
 */
static int symlink_pivot(struct req *r, const char *name, const char *dir, const char *text)
{
	static const char why[] = "a symlink here would take what is below its name out of "
				  "the reach of the rules for that name";
	char cur[PATH_MAX], rest[2 * PATH_MAX], target[PATH_MAX], cand[PATH_MAX];
	bool exists = true;
	int hops = 0;

	if (text[0] == '\0')
		return 0; /* no link: the kernel says ENOENT */
	if (!ward_policy_keeps_below(S->policy, name))
		return 0; /* nothing below name is kept from the agent: any target will do */
	if (snprintf(rest, sizeof(rest), "%s", text) >= (int)sizeof(rest))
		return refuse(r, EACCES, why);
	snprintf(cur, sizeof(cur), "%s", text[0] == '/' ? "" : dir);
	if (strcmp(cur, "/") == 0)
		cur[0] = '\0'; /* cur is "" for the root: components are appended with '/' */
	char *c = rest;
	while (*c != '\0') {
		size_t n = strcspn(c, "/");
		char comp[NAME_MAX + 1];
		if (n > NAME_MAX)
			return refuse(r, EACCES, why);
		memcpy(comp, c, n);
		comp[n] = '\0';
		c += n + (c[n] == '/');
		if (n == 0 || strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			/*
			 * Out of a name not there yet, or of a directory the agent may
			 * move away or replace by a link (the link's own directory, moved
			 * with the link in it, too): ".." would lead elsewhere then.
			 */
			if (!exists || replaceable(cur[0] ? cur : "/"))
				return refuse(r, EACCES, why);
			char *slash = strrchr(cur, '/');
			if (slash != NULL)
				*slash = '\0';
			continue;
		}
		if (snprintf(cand, sizeof(cand), "%s/%s", cur, comp) >= (int)sizeof(cand))
			return refuse(r, EACCES, why);
		/* /proc/self and the like lead elsewhere for each process that follows them. */
		if (strcmp(cand, "/proc") == 0)
			return refuse(r, EACCES, why);
		struct stat st;
		bool there = exists && lstat(cand, &st) == 0;
		if (there && S_ISLNK(st.st_mode)) {
			ssize_t t = readlink(cand, target, sizeof(target) - 1);
			if (t <= 0 || ++hops > 40)
				return refuse(r, EACCES, why);
			target[t] = '\0';
			if (replaceable(cand) && ward_policy_link_widens(S->policy, name, cand))
				return refuse(r, EACCES, why);
			/* Go on from the link's directory (or the root) with its text, then the rest. */
			char more[2 * PATH_MAX];
			if (snprintf(more, sizeof(more), "%s/%s", target, c) >= (int)sizeof(more))
				return refuse(r, EACCES, why);
			memcpy(rest, more, strlen(more) + 1);
			c = rest;
			if (target[0] == '/')
				cur[0] = '\0';
			continue;
		}
		exists = there;
		memcpy(cur, cand, strlen(cand) + 1);
	}
	if (cur[0] == '\0')
		strcpy(cur, "/");
	if (ward_policy_link_widens(S->policy, name, cur))
		return refuse(r, EACCES, why);
	return 0;
}

/*
 * After a rename: what is at name now, if a symlink, is judged as made
 * there (its text read again: the agent may have put another link in the
 * source's place between the check and the move).  A link that fails is
 * removed again.  checked: the text judged before, or NULL.
 */
static int pivot_after(struct req *r, int dirfd, const char *name, const char *name_real,
		       const char *dir_real, const char *checked)
{
	char text[PATH_MAX];
	struct stat st;

	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISLNK(st.st_mode))
		return 0;
	ssize_t n = readlinkat(dirfd, name, text, sizeof(text) - 1);
	if (n >= 0) {
		text[n] = '\0';
		if (checked != NULL && strcmp(text, checked) == 0)
			return 0;
	}
	if (n < 0 || symlink_pivot(r, name_real, dir_real, text) < 0) {
		unlinkat(dirfd, name, 0);
		if (r->dec.reason == NULL)
			refuse(r, EACCES, "a symlink moved here could not be judged");
		return -EACCES; /* logged once more, with the refusal */
	}
	return 0;
}

/* Levels below a directory moved in read for repositories, and entries at most. */
#define REPO_DEPTH 4
#define REPO_ENTRIES 4096

/*
 * The repositories in the directory dfd (named path, plen long): a .git,
 * or a HEAD beside refs/ (repos_note tells which), and those below, not
 * through symlinks.  A bounded walk: beyond it a repository goes untold.
 */
static void walk_repos(int dfd, char *path, size_t plen, int depth, int *budget)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;

	if (d == NULL) {
		close(dfd);
		return;
	}
	while ((e = readdir(d)) != NULL && --*budget > 0) {
		const char *n = e->d_name;
		size_t nl = strlen(n);
		if (strcmp(n, ".") == 0 || strcmp(n, "..") == 0 || plen + 1 + nl + 6 >= PATH_MAX)
			continue;
		path[plen] = '/';
		memcpy(path + plen + 1, n, nl + 1);
		if (strcmp(n, ".git") == 0 || strcmp(n, "HEAD") == 0) {
			repos_note(path);
		} else if (depth < REPO_DEPTH && (e->d_type == DT_DIR || e->d_type == DT_UNKNOWN)) {
			int sub = openat(dirfd(d), n, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				walk_repos(sub, path, plen + 1 + nl, depth + 1, budget);
		}
		path[plen] = '\0';
	}
	closedir(d);
}

/*
 * A directory moved (or a link made) to name: the repositories in it, at
 * its top and a few levels below, are told at the end (repos.c).
 */
static void moved_repo(struct req *r, int dirfd, const char *name)
{
	char path[PATH_MAX];
	int budget = REPO_ENTRIES;
	/* Through a link just made: where it leads is what git finds by its name. */
	int dfd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);

	if (dfd < 0 || strlen(r->real) >= sizeof(path)) {
		if (dfd >= 0)
			close(dfd);
		return;
	}
	strcpy(path, r->real);
	walk_repos(dfd, path, strlen(path), 0, &budget);
}

/*
 * The source of a rename, r->path (from: its parent and name, from_real,
 * from_dir its directory's real path, sst its stat): deleted there, and
 * read and written (created too, exchanged), so that what cannot be read
 * or written where it is may not be moved where it could be.  0 or a
 * denial.
 */
static int rename_source(struct req *r, int olddir, unsigned flags, struct target *from,
			 char *from_real, char *from_dir, struct stat *sst)
{
	int rc = name_target(r, olddir, r->path, WARD_OP_DELETE, from, from_real, r->real2, CH_OTHER);

	if (rc == -EINVAL)
		rc = -EBUSY; /* ".", ".." or "/" */
	if (rc < 0)
		return rc;
	snprintf(from_dir, PATH_MAX, "%s", r->real2);
	if (fstatat(from->parent, from->name, sst, AT_SYMLINK_NOFOLLOW) < 0)
		return -errno;
	/* "name/" names a directory: on anything else the kernel says ENOTDIR. */
	if (!S_ISDIR(sst->st_mode) &&
	    (slash_end(r->path) || (!(flags & RENAME_EXCHANGE) && slash_end(r->path2))))
		return -ENOTDIR;
	if ((rc = decide_also(r, WARD_OP_READ, from_real)) < 0 ||
	    (rc = decide_also(r, WARD_OP_WRITE, from_real)) < 0)
		return rc;
	if ((flags & RENAME_EXCHANGE) && (rc = decide_also(r, WARD_OP_CREATE, from_real)) < 0)
		return rc;
	if ((rc = foreign_socket(r, sst, from_real)) < 0)
		return rc;
	return shm_check(r, WARD_OP_DELETE, from_real, sst);
}

/*
 * The target of a rename, r->path2 (to, its real path in r->real, tst its
 * stat when *exists): created there; what is there and is replaced (or
 * moves, exchanged) is deleted and written, and under EXCHANGE read too.
 * 0 or a denial.
 */
static int rename_target(struct req *r, int newdir, unsigned flags, struct target *to,
			 struct stat *tst, bool *exists)
{
	int rc = name_target(r, newdir, r->path2, WARD_OP_CREATE, to, r->real, r->real2, CH_OTHER);

	*exists = false;
	if (rc == -EINVAL)
		rc = -EBUSY;
	if (rc < 0)
		return rc;
	*exists = fstatat(to->parent, to->name, tst, AT_SYMLINK_NOFOLLOW) == 0;
	if ((flags & RENAME_EXCHANGE) && *exists && !S_ISDIR(tst->st_mode) && slash_end(r->path2))
		return -ENOTDIR;
	bool replaces = !(flags & RENAME_NOREPLACE) && *exists;
	if ((flags & RENAME_EXCHANGE) || replaces) {
		/* What is at the target is replaced (or moves): a delete and a write there. */
		if ((rc = decide_also(r, WARD_OP_DELETE, r->real)) < 0 ||
		    (rc = decide_also(r, WARD_OP_WRITE, r->real)) < 0)
			return rc;
	}
	/* ...and under EXCHANGE it moves to the source: it must be readable too. */
	if ((flags & RENAME_EXCHANGE) && (rc = decide_also(r, WARD_OP_READ, r->real)) < 0)
		return rc;
	if ((flags & RENAME_EXCHANGE) || replaces) {
		if ((rc = foreign_socket(r, tst, r->real)) < 0)
			return rc;
		return shm_check(r, WARD_OP_DELETE, r->real, tst);
	}
	return 0;
}

/*
 * rename = delete at the source + create at the target (both ways for
 * EXCHANGE).  A move must not widen access: what cannot be read or
 * written where it is may not be moved where it could be, so the source
 * also needs read and write, and a target that is replaced needs write
 * (DESIGN.md says delete + create; this is stricter).
 */
static int do_rename(struct req *r, int olddir, uint64_t oldp, int newdir, uint64_t newp,
		     unsigned flags)
{
	struct target from = { .parent = -1 }, to = { .parent = -1 };
	char from_real[PATH_MAX], from_dir[PATH_MAX], stext[PATH_MAX], ttext[PATH_MAX];
	bool slink = false, tlink = false, exists;
	struct stat sst, tst;
	int rc;

	if (flags & ~(RENAME_NOREPLACE | RENAME_EXCHANGE | RENAME_WHITEOUT))
		return -EINVAL;
	if ((flags & RENAME_EXCHANGE) && (flags & (RENAME_NOREPLACE | RENAME_WHITEOUT)))
		return -EINVAL;
	if ((rc = read_path(r, oldp, r->path, sizeof(r->path))) < 0 ||
	    (rc = read_path(r, newp, r->path2, sizeof(r->path2))) < 0)
		return rc;
	req_path(r, r->path);
	if (flags & RENAME_WHITEOUT) {
		/* It leaves a 0:0 character device at the source, as mknod would. */
		req_about(r, WARD_OP_CREATE, r->path);
		return refuse(r, EPERM, "device nodes are not made (a whiteout is one)");
	}
	if ((rc = rename_source(r, olddir, flags, &from, from_real, from_dir, &sst)) < 0)
		goto out;
	/* The source's decisions are logged; what follows is about the target (from it, for -v). */
	snprintf(r->other, sizeof(r->other), "%s", from_real);
	r->dec.from = r->other;
	if ((rc = decide_next_object(r, WARD_OP_CREATE, r->path2)) < 0 ||
	    (rc = rename_target(r, newdir, flags, &to, &tst, &exists)) < 0)
		goto out;
	bool replaces = !(flags & RENAME_NOREPLACE) && exists;
	/* A symlink moved is a symlink made where it lands (and, exchanged, both ways). */
	ssize_t tn;
	if (S_ISLNK(sst.st_mode) && (tn = readlinkat(from.parent, from.name, stext, sizeof(stext) - 1)) >= 0) {
		stext[tn] = '\0';
		slink = true;
		if ((rc = symlink_pivot(r, r->real, r->real2, stext)) < 0)
			goto out;
	}
	if ((flags & RENAME_EXCHANGE) && exists && S_ISLNK(tst.st_mode) &&
	    (tn = readlinkat(to.parent, to.name, ttext, sizeof(ttext) - 1)) >= 0) {
		ttext[tn] = '\0';
		tlink = true;
		if ((rc = symlink_pivot(r, from_real, from_dir, ttext)) < 0)
			goto out;
	}
	/*
	 * Nothing was at the target when it was judged: keep it so, or a file
	 * made there meanwhile would be replaced without its delete decided.
	 */
	if (!replaces && !(flags & RENAME_EXCHANGE))
		flags |= RENAME_NOREPLACE;
	/*
	 * A directory carries what is under it.  Whether the source (or the
	 * target, under EXCHANGE) is one when the kernel moves it is not known
	 * here: the agent can swap a file for a prepared directory meanwhile.
	 * So the check is made whatever they are now, both ways for EXCHANGE
	 * (what is at the target moves to the source).
	 */
	if (ward_policy_moves_guarded(S->policy, from_real, r->real) ||
	    ((flags & RENAME_EXCHANGE) && ward_policy_moves_guarded(S->policy, r->real, from_real))) {
		rc = refuse(r, EACCES, "it would carry what is below it into or out of a rule's reach");
		goto out;
	}
	rc = CHANGE(r, syscall(SYS_renameat2, from.parent, from.name, to.parent, to.name, flags));
	if (rc == 1) {
		repos_note(from_real);
		repos_note(r->real);
		/* Both sides, whatever the first says. */
		int at_to = pivot_after(r, to.parent, to.name, r->real, r->real2, slink ? stext : NULL);
		int at_from = (flags & RENAME_EXCHANGE) ?
			pivot_after(r, from.parent, from.name, from_real, from_dir, tlink ? ttext : NULL) : 0;
		if (at_to < 0 || at_from < 0)
			rc = -EACCES;
		else if (S_ISDIR(sst.st_mode))
			moved_repo(r, to.parent, to.name);
	}
out:
	if (from.parent >= 0)
		close(from.parent);
	if (to.parent >= 0)
		close(to.parent);
	return rc;
}

/*
 * link = read and write at the source + create at the target: the new
 * name reaches the same file, so what cannot be read or written where it
 * is may not be linked where it could be.
 */
static int do_link(struct req *r, int olddir, uint64_t oldp, int newdir, uint64_t newp, int flags)
{
	struct target to = { .parent = -1 };
	char link[64], src_real[PATH_MAX];
	int src = -1, rc;

	if (flags & ~(AT_SYMLINK_FOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	rc = object_target(r, olddir, oldp, (flags & AT_EMPTY_PATH) ? BY_PATH_OR_EMPTY : BY_PATH,
			   flags & AT_SYMLINK_FOLLOW, WARD_OP_READ, &src);
	if (rc < 0)
		goto out;
	struct stat sst;
	if (fstat(src, &sst) < 0) {
		rc = -EACCES;
		goto out;
	}
	if (S_ISDIR(sst.st_mode)) {
		rc = -EPERM; /* no hard links to directories */
		goto out;
	}
	/* A name of the source's, written to: its repository is noted once linked. */
	src_real[0] = '\0';
	if (r->real[0] == '/') {
		if ((rc = decide_also(r, WARD_OP_WRITE, r->real)) < 0 ||
		    (rc = shm_check(r, WARD_OP_WRITE, r->real, &sst)) < 0)
			goto out;
		snprintf(src_real, sizeof(src_real), "%s", r->real);
	}
	/* The source's decisions are logged; what follows is about the target. */
	if ((rc = decide_next_object(r, WARD_OP_CREATE, r->dec.path)) < 0)
		goto out;
	if ((rc = read_path(r, newp, r->path2, sizeof(r->path2))) < 0)
		goto out;
	req_path(r, r->path2);
	rc = name_target(r, newdir, r->path2, WARD_OP_CREATE, &to, r->real, r->real2, CH_MAKE);
	if (rc == -EINVAL)
		rc = -EEXIST; /* ".", ".." or "/": they exist */
	if (rc < 0) {
		rc = denied_create(&to, rc);
		goto out;
	}
	if (slash_end(r->path2)) {
		rc = slash_create(&to);
		goto out;
	}
	/* A new name for a symlink is a symlink made there (its text cannot change). */
	if (S_ISLNK(sst.st_mode)) {
		char text[PATH_MAX];
		ssize_t n = readlinkat(src, "", text, sizeof(text) - 1);
		if (n < 0) {
			rc = -EACCES;
			goto out;
		}
		text[n] = '\0';
		if ((rc = symlink_pivot(r, r->real, r->real2, text)) < 0)
			goto out;
	}
	/* Link the object that was decided on, through its fd. */
	magic(src, link, sizeof(link));
	rc = CHANGE(r, linkat(AT_FDCWD, link, to.parent, to.name, AT_SYMLINK_FOLLOW));
	if (rc == 1) {
		if (src_real[0] != '\0')
			repos_note(src_real);
		repos_note(r->real);
	}
out:
	if (src >= 0)
		close(src);
	if (to.parent >= 0)
		close(to.parent);
	return rc;
}

static int do_symlink(struct req *r, uint64_t target, int newdir, uint64_t linkp)
{
	struct target t = { .parent = -1 };
	int rc;

	/* The link's text is only a string; opens through it are judged on their own. */
	if ((rc = read_path(r, target, r->path2, sizeof(r->path2))) < 0 ||
	    (rc = read_path(r, linkp, r->path, sizeof(r->path))) < 0)
		return rc;
	req_path(r, r->path);
	rc = name_target(r, newdir, r->path, WARD_OP_CREATE, &t, r->real, r->real2, CH_MAKE);
	if (rc == -EINVAL)
		rc = -EEXIST; /* ".", ".." or "/": they exist */
	rc = denied_create(&t, rc);
	if (rc == 0 && slash_end(r->path))
		rc = slash_create(&t);
	else if (rc == 0 && (rc = symlink_pivot(r, r->real, r->real2, r->path2)) == 0)
		rc = CHANGE(r, symlinkat(r->path2, t.parent, t.name));
	if (rc == 1) {
		repos_note(r->real);
		shm_made(r->real, t.parent, t.name);
		moved_repo(r, t.parent, t.name); /* a link in the project to a repository elsewhere */
	}
	if (t.parent >= 0)
		close(t.parent);
	return rc;
}

/* Times for utime, utimes, futimesat, utimensat as two timespecs (NULL: now). */
static int read_times(struct req *r, int nr, uint64_t addr, struct timespec ts[2], bool *null)
{
	int rc;

	*null = addr == 0;
	if (*null)
		return 0;
	if (nr == SYS_utime) {
		struct utimbuf u;
		if ((rc = mem_read(r, addr, &u, sizeof(u))) < 0)
			return rc;
		ts[0] = (struct timespec){ u.actime, 0 };
		ts[1] = (struct timespec){ u.modtime, 0 };
	} else if (nr == SYS_utimes || nr == SYS_futimesat) {
		struct timeval tv[2];
		if ((rc = mem_read(r, addr, tv, sizeof(tv))) < 0)
			return rc;
		for (int i = 0; i < 2; i++) {
			if (tv[i].tv_usec < 0 || tv[i].tv_usec >= 1000000)
				return -EINVAL;
			ts[i] = (struct timespec){ tv[i].tv_sec, tv[i].tv_usec * 1000 };
		}
	} else if ((rc = mem_read(r, addr, ts, 2 * sizeof(ts[0]))) < 0) {
		return rc;
	}
	return 0;
}

/*
 * A change to an existing object, made (rc 1) or not through fd, ward's
 * (closed here): a repository it changed is noted.
 */
static int object_changed(struct req *r, int fd, int rc)
{
	if (rc == 1)
		repos_note(r->real);
	if (fd >= 0)
		close(fd);
	return rc;
}

/* chmod, fchmod, fchmodat. */
static int do_chmod(struct req *r, int nr, const __u64 *a)
{
	mode_t mode = (mode_t)(nr == SYS_fchmodat ? a[2] : a[1]);
	char link[64];
	int fd, rc;

	if (nr == SYS_fchmod) {
		/* An O_PATH fd cannot change anything (EBADF, as the kernel says). */
		if (agent_fd_opath(r, (int)a[0]))
			return -EBADF;
		rc = object_target(r, (int)a[0], 0, BY_FD, true, WARD_OP_WRITE, &fd);
	} else {
		int dirfd = nr == SYS_chmod ? AT_FDCWD : (int)a[0];
		rc = object_target(r, dirfd, nr == SYS_chmod ? a[0] : a[1], BY_PATH, true,
				   WARD_OP_WRITE, &fd);
	}
	if (rc < 0)
		return rc;
	/* chmod through the fd's magic link acts on the object decided on. */
	magic(fd, link, sizeof(link));
	return object_changed(r, fd, CHANGE(r, fchmodat(AT_FDCWD, link, mode & 07777, 0)));
}

/* chown, lchown, fchown, fchownat. */
static int do_chown(struct req *r, int nr, const __u64 *a)
{
	uid_t uid;
	gid_t gid;
	int fd, rc;

	if (nr == SYS_fchown) {
		if (agent_fd_opath(r, (int)a[0]))
			return -EBADF;
		uid = (uid_t)a[1];
		gid = (gid_t)a[2];
		rc = object_target(r, (int)a[0], 0, BY_FD, true, WARD_OP_WRITE, &fd);
	} else if (nr == SYS_fchownat) {
		int flags = (int)a[4];
		if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
			return -EINVAL;
		uid = (uid_t)a[2];
		gid = (gid_t)a[3];
		rc = object_target(r, (int)a[0], a[1],
				   (flags & AT_EMPTY_PATH) ? BY_PATH_OR_EMPTY : BY_PATH,
				   !(flags & AT_SYMLINK_NOFOLLOW), WARD_OP_WRITE, &fd);
	} else {
		uid = (uid_t)a[1];
		gid = (gid_t)a[2];
		rc = object_target(r, AT_FDCWD, a[0], BY_PATH, nr == SYS_chown, WARD_OP_WRITE, &fd);
	}
	if (rc < 0)
		return rc;
	return object_changed(r, fd, CHANGE(r, fchownat(fd, "", uid, gid, AT_EMPTY_PATH)));
}

/* truncate: a regular file, opened for writing through the object decided on. */
static int do_truncate(struct req *r, const __u64 *a)
{
	char link[64];
	struct stat st;
	int fd, w, rc;

	if ((rc = object_target(r, AT_FDCWD, a[0], BY_PATH, true, WARD_OP_WRITE, &fd)) < 0)
		return rc;
	if (fstat(fd, &st) < 0)
		return object_changed(r, fd, -errno);
	if (!S_ISREG(st.st_mode))
		return object_changed(r, fd, S_ISDIR(st.st_mode) ? -EISDIR : -EINVAL);
	magic(fd, link, sizeof(link));
	if ((w = open(link, O_WRONLY | O_CLOEXEC | O_NOCTTY)) < 0)
		return object_changed(r, fd, -errno);
	rc = CHANGE(r, ftruncate(w, (off_t)a[1]));
	close(w);
	return object_changed(r, fd, rc);
}

/* utime, utimes, futimesat, utimensat (and futimens, its fd form). */
static int do_utimes(struct req *r, int nr, const __u64 *a)
{
	bool at = nr == SYS_futimesat || nr == SYS_utimensat;
	int dirfd = at ? (int)a[0] : AT_FDCWD, fd, rc;
	uint64_t path = at ? a[1] : a[0], times = at ? a[2] : a[1];
	int flags = nr == SYS_utimensat ? (int)a[3] : 0;
	struct timespec ts[2];
	char link[64];
	bool now;

	if (flags & ~(AT_SYMLINK_NOFOLLOW | AT_EMPTY_PATH))
		return -EINVAL;
	if ((rc = read_times(r, nr, times, ts, &now)) < 0)
		return rc;
	/* utimensat(fd, NULL, ...) is futimens, futimesat(fd, NULL) the same: the fd itself. */
	bool fdform = at && path == 0;
	if (fdform && dirfd == AT_FDCWD)
		return -EFAULT;
	if (fdform && flags)
		return -EINVAL; /* the fd itself takes no flags */
	if (fdform && agent_fd_opath(r, dirfd))
		return -EBADF;
	rc = object_target(r, dirfd, path,
			   fdform ? BY_FD : (flags & AT_EMPTY_PATH) ? BY_PATH_OR_EMPTY : BY_PATH,
			   !(flags & AT_SYMLINK_NOFOLLOW), WARD_OP_WRITE, &fd);
	if (rc < 0)
		return rc;
	magic(fd, link, sizeof(link));
	return object_changed(r, fd, CHANGE(r, utimensat(AT_FDCWD, link, now ? NULL : ts, 0)));
}

/* setxattr, lsetxattr, fsetxattr, removexattr, lremovexattr, fremovexattr. */
static int do_xattr(struct req *r, int nr, const __u64 *a)
{
	static __thread char value[XATTR_SIZE_MAX];
	bool set = nr == SYS_setxattr || nr == SYS_lsetxattr || nr == SYS_fsetxattr;
	bool byfd = nr == SYS_fsetxattr || nr == SYS_fremovexattr;
	bool follow = nr == SYS_setxattr || nr == SYS_removexattr || byfd;
	size_t size = set ? (size_t)a[3] : 0;
	char link[64], name[XATTR_NAME_MAX + 1];
	int fd, rc;

	if (size > sizeof(value))
		return -E2BIG;
	rc = mem_read_str(r, a[1], name, sizeof(name));
	if (rc < 0)
		return rc == -ENAMETOOLONG ? -ERANGE : rc;
	if (set && size > 0 && (rc = mem_read(r, a[2], value, size)) < 0)
		return rc;
	if (byfd && agent_fd_opath(r, (int)a[0]))
		return -EBADF;
	rc = byfd ? object_target(r, (int)a[0], 0, BY_FD, true, WARD_OP_WRITE, &fd)
		  : object_target(r, AT_FDCWD, a[0], BY_PATH, follow, WARD_OP_WRITE, &fd);
	if (rc < 0)
		return rc;
	/*
	 * Through the fd's magic link, which leads to the object decided on
	 * and no further: a symlink opened O_NOFOLLOW (the l-forms) is changed
	 * itself, not what it points to.
	 */
	magic(fd, link, sizeof(link));
	rc = set ? CHANGE(r, setxattr(link, name, value, size, (int)a[4]))
		 : CHANGE(r, removexattr(link, name));
	return object_changed(r, fd, rc);
}

int h_change(struct req *r)
{
	const __u64 *a = r->n->data.args;
	int nr = r->n->data.nr;

	switch (nr) {
	case SYS_mkdir:
		return do_create(r, AT_FDCWD, a[0], 'd', (mode_t)a[1], 0);
	case SYS_mkdirat:
		return do_create(r, (int)a[0], a[1], 'd', (mode_t)a[2], 0);
	case SYS_mknod:
		return do_create(r, AT_FDCWD, a[0], 'n', (mode_t)a[1], (dev_t)a[2]);
	case SYS_mknodat:
		return do_create(r, (int)a[0], a[1], 'n', (mode_t)a[2], (dev_t)a[3]);
	case SYS_unlink:
		return do_unlink(r, AT_FDCWD, a[0], 0);
	case SYS_rmdir:
		return do_unlink(r, AT_FDCWD, a[0], AT_REMOVEDIR);
	case SYS_unlinkat:
		return do_unlink(r, (int)a[0], a[1], (int)a[2]);
	case SYS_rename:
		return do_rename(r, AT_FDCWD, a[0], AT_FDCWD, a[1], 0);
	case SYS_renameat:
		return do_rename(r, (int)a[0], a[1], (int)a[2], a[3], 0);
	case SYS_renameat2:
		return do_rename(r, (int)a[0], a[1], (int)a[2], a[3], (unsigned)a[4]);
	case SYS_link:
		return do_link(r, AT_FDCWD, a[0], AT_FDCWD, a[1], 0);
	case SYS_linkat:
		return do_link(r, (int)a[0], a[1], (int)a[2], a[3], (int)a[4]);
	case SYS_symlink:
		return do_symlink(r, a[0], AT_FDCWD, a[1]);
	case SYS_symlinkat:
		return do_symlink(r, a[0], (int)a[1], a[2]);
	case SYS_chmod:
	case SYS_fchmodat:
	case SYS_fchmod:
		return do_chmod(r, nr, a);
	case SYS_chown:
	case SYS_lchown:
	case SYS_fchown:
	case SYS_fchownat:
		return do_chown(r, nr, a);
	case SYS_truncate:
		return do_truncate(r, a);
	case SYS_utime:
	case SYS_utimes:
	case SYS_futimesat:
	case SYS_utimensat:
		return do_utimes(r, nr, a);
	case SYS_setxattr:
	case SYS_lsetxattr:
	case SYS_fsetxattr:
	case SYS_removexattr:
	case SYS_lremovexattr:
	case SYS_fremovexattr:
		return do_xattr(r, nr, a);
	}
	return -ENOSYS;
}
