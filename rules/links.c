/*
 * links.c - the symlinks a restricting rule names, and where they lead.
 *
 * Rules match real paths (DESIGN.md §3): what an access opened is judged,
 * not the name it was asked by, and the literal prefix of a pattern is
 * resolved when it is loaded.  A symlink below that prefix is not.  With
 * ~/.config/git/config a link to ~/dotfiles/git/config (stow, a dotfiles
 * repository), a rule denying writes below ~/.config/git said nothing of
 * the file git reads, and one denying reads below ~/.kube nothing of the
 * kubeconfig ~/.kube/config leads to: the access was judged where it
 * landed, where nothing denied it.
 *
 * So, when the policy is told to (WARD_POLICY_FOLLOW_LINKS), every rule
 * that can refuse (deny, deny!, ask) on a path pattern is followed at load:
 *
 *   - The directories its pattern reaches are read, a few levels below its
 *     literal prefix, for symlinks at names the pattern matches or reaches
 *     below.  Each gives a rule of the same action, ops, errno and
 *     location on the place the link leads, with the rest of the pattern
 *     below it (a rule on all below ~/.vim, with ~/.vim/pack a link, gives
 *     one on all below where pack leads), followed in turn.  A link within
 *     the rule's own reach gives none, but what is below it is read as if
 *     it were below the link.
 *   - When the rule keeps names from being made or removed (create,
 *     delete), the names of the symlinks met on the way to where a name
 *     leads keep those ops too, each by its own name (replacing a link is
 *     removing and making it): with ~/.bashrc -> ~/dotfiles/bashrc ->
 *     shell/bashrc, the agent may not replace ~/dotfiles/bashrc by a file
 *     of its own, which ~/.bashrc would then lead to.
 *
 * The rules added sit right after the rule they come from (parse.c), and
 * an ask among them makes no earlier deny or rewrite weaker (match.c).  A
 * link the agent left where it could make one adds rules too, which fail
 * closed; one that reaches home, the project or a directory above them
 * is said (ward_policy_wide_links), so that the user can remove it.
 *
 * The reading is bounded, for each rule with what its links add: SCAN_DEPTH
 * levels, LINK_ENTRIES directory entries (cheap: read many to a call),
 * LINK_STEPS path components looked up (a lookup costs the kernel each
 * component of the path), LINK_RULES rules added, SCAN_HOPS links from one
 * rule to the next (struct link_budget); where a bound cuts it short, the
 * policy says for which rule (ward_policy_link_scan_cut) and ward run says
 * so. One rule's reading cannot use up another's: an agent that filled a
 * place it may write with links and trees slows only the rules over that
 * place. Session scratch directories ($TMPDIR/ward-UID) are not read: links
 * the agent left there in earlier sessions are no names other programs
 * read, and followed they would deny it its own project. Links made during
 * a session are the supervisor's business (a symlink it makes may not widen
 * what a name allows: ward_policy_link_widens).
 */
#define _GNU_SOURCE
#include "policy_int.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Levels read below a pattern's literal prefix: stow folds trees, links sit high. */
#define SCAN_DEPTH 4
/* Links followed from one rule to a rule on where they lead, and on. */
#define SCAN_HOPS 8
/* Components after the literal prefix a followed pattern may have. */
#define MAX_COMPS 62
/* Symlinks met walking one name, as the kernel's own limit. */
#define MAX_LINKS 40

/* The components of a path: what a lookup of it costs the kernel. */
static size_t components(const char *path)
{
	size_t n = 1;
	for (; *path != '\0'; path++)
		n += *path == '/';
	return n;
}

/* Take n from *steps (NULL: not counted); false when they are not there. */
static bool charge(size_t *steps, size_t n)
{
	if (steps == NULL)
		return true;
	if (*steps < n) {
		*steps = 0;
		return false;
	}
	*steps -= n;
	return true;
}

/*
 * ward_path_links, each lstat charged to *steps by the components it
 * looks up (NULL: not counted); -E2BIG when they run out.
 */
static int walk_links(const char *path, int (*on_link)(void *arg, const char *name), void *arg,
		      char *final, size_t finallen, size_t *steps)
{
	char rest[2 * PATH_MAX], done[PATH_MAX] = "", cand[PATH_MAX], target[PATH_MAX];
	struct stat st;
	int hops = 0, rc;
	bool missing = false; /* a component not there: the kernel goes no further up */

	if (path[0] != '/')
		return -EINVAL;
	if (strlen(path) >= sizeof(rest))
		return -ENAMETOOLONG;
	strcpy(rest, path);
	char *r = rest;
	while (*r != '\0') {
		if (*r == '/') {
			if (r == rest)
				done[0] = '\0'; /* absolute: from the root */
			r++;
			continue;
		}
		size_t n = strcspn(r, "/");
		char comp[NAME_MAX + 1];
		if (n > NAME_MAX)
			return -ENAMETOOLONG;
		memcpy(comp, r, n);
		comp[n] = '\0';
		r += n;
		if (strcmp(comp, ".") == 0)
			continue;
		if (strcmp(comp, "..") == 0) {
			if (missing)
				return -ENOENT;
			/* done holds no link (each was replaced by its target): lexical is right. */
			char *slash = strrchr(done, '/');
			if (slash != NULL)
				*slash = '\0';
			continue;
		}
		if (snprintf(cand, sizeof(cand), "%s/%s", done, comp) >= (int)sizeof(cand))
			return -ENAMETOOLONG;
		if (!missing && !charge(steps, components(cand)))
			return -E2BIG;
		if (missing || lstat(cand, &st) < 0) {
			missing = true;
		} else if (S_ISLNK(st.st_mode)) {
			ssize_t t = readlink(cand, target, sizeof(target) - 1);
			if (++hops > MAX_LINKS)
				return -ELOOP;
			if (t <= 0)
				return t < 0 ? -errno : -ENOENT;
			target[t] = '\0';
			if (on_link != NULL && (rc = on_link(arg, cand)) < 0)
				return rc;
			/* Walk the target in place of the link, then what followed it. */
			char next[sizeof(rest)];
			if (snprintf(next, sizeof(next), "%s%s%s", target, *r ? "/" : "", r) >=
			    (int)sizeof(next))
				return -ENAMETOOLONG;
			strcpy(rest, next);
			r = rest;
			if (rest[0] == '/') {
				done[0] = '\0';
				r++;
			}
			continue;
		}
		strcpy(done, cand);
	}
	if (final != NULL) {
		if (snprintf(final, finallen, "%s", done[0] ? done : "/") >= (int)finallen)
			return -ENAMETOOLONG;
	}
	return 0;
}

int ward_path_links(const char *path, int (*on_link)(void *arg, const char *name), void *arg,
		    char *final, size_t finallen)
{
	return walk_links(path, on_link, arg, final, finallen, NULL);
}

/*
 * A pattern for exactly the name path, itself and not where it leads: its
 * last character as a class ("[\c]"), so the literal prefix ends before
 * it and only the directory is resolved at load.
 */
static int name_pattern(const char *path, char *out, size_t outlen)
{
	size_t n = strlen(path);
	char head[PATH_MAX];

	if (n < 2 || n >= sizeof(head) || path[n - 1] == '/')
		return -EINVAL;
	memcpy(head, path, n - 1);
	head[n - 1] = '\0';
	if (pattern_escape(head, out, outlen) < 0)
		return -ENAMETOOLONG;
	size_t o = strlen(out);
	if (o + 5 >= outlen)
		return -ENAMETOOLONG;
	snprintf(out + o, outlen - o, "[\\%c]", path[n - 1]);
	return 0;
}

/* The pattern's components after its literal prefix, each its own glob. */
struct comps {
	int n;
	bool star2[MAX_COMPS];
	struct glob *g[MAX_COMPS];
	const char *text[MAX_COMPS]; /* into the pattern: where the rest of it starts */
};

static void comps_free(struct comps *c)
{
	for (int i = 0; i < c->n; i++)
		glob_free(c->g[i]);
	c->n = 0;
}

static int comps_split(struct comps *c, const char *rest)
{
	const char *why;
	char one[PATH_MAX];

	c->n = 0;
	for (const char *s = rest; *s != '\0';) {
		while (*s == '/')
			s++;
		if (*s == '\0')
			break;
		size_t len = 0;
		while (s[len] != '\0' && s[len] != '/')
			len += s[len] == '\\' && s[len + 1] != '\0' ? 2 : 1;
		if (c->n == MAX_COMPS || len >= sizeof(one)) {
			comps_free(c);
			return -E2BIG;
		}
		memcpy(one, s, len);
		one[len] = '\0';
		c->text[c->n] = s;
		c->star2[c->n] = strcmp(one, "**") == 0;
		c->g[c->n] = c->star2[c->n] ? NULL : glob_compile(one, GLOB_PATH, &why);
		if (!c->star2[c->n] && c->g[c->n] == NULL) {
			comps_free(c);
			return -EINVAL;
		}
		c->n++;
		s += len;
	}
	return 0;
}

/* A set of positions in the components: bit i, the next to match is i (n: all matched). */
typedef uint64_t posset;

static posset closure(const struct comps *c, posset s)
{
	for (int i = 0; i < c->n; i++)
		if ((s >> i & 1) && c->star2[i])
			s |= (posset)1 << (i + 1); /* '**' matches no component too */
	return s;
}

static posset step(const struct comps *c, posset s, const char *name)
{
	posset t = 0;

	for (int i = 0; i < c->n; i++) {
		if (!(s >> i & 1))
			continue;
		if (c->star2[i])
			t |= (posset)1 << i;
		else if (glob_match(c->g[i], name))
			t |= (posset)1 << (i + 1);
	}
	return closure(c, t);
}

struct follow {
	struct ward_policy *p;
	const struct ward_rule *r;
	int (*add)(void *arg, const char *pattern, unsigned ops, int hops, const char *via);
	void *arg;
	int hops;
	int through;	   /* links within the rule's reach read through, on this walk */
	struct link_budget *b;
	unsigned name_ops; /* the rule's create and delete */
	const char *skip;  /* a link whose own name needs no rule */
};

static int scan_dir(struct follow *f, const struct comps *c, int dfd, char *path, size_t plen,
		    posset s, int depth);

/* At or below every session's scratch directory: not read. */
static bool in_scratch(const struct follow *f, const char *dir)
{
	const char *scratch = f->p->link_scratch;
	size_t n = strlen(scratch);
	return n > 0 && strncmp(dir, scratch, n) == 0 && (dir[n] == '\0' || dir[n] == '/');
}

/* The budget ran out: the reading stops here, said once for the rule. */
static int cut(struct follow *f)
{
	f->b->steps = f->b->entries = 0;
	f->b->cut = true;
	return -E2BIG;
}

/* The rule says of b and below it what it says of a and below it. */
static bool same_reach(const struct follow *f, const char *a, const char *b)
{
	return glob_match(f->r->glob, a) == glob_match(f->r->glob, b) &&
	       glob_same_below(f->r->glob, a, b);
}

/* A rule on the name of a link met on the way, unless the rule says it already. */
static int on_link(void *arg, const char *name)
{
	struct follow *f = arg;
	char pat[3 * PATH_MAX];

	if (f->name_ops == 0 || (f->skip != NULL && strcmp(name, f->skip) == 0) ||
	    glob_match(f->r->glob, name))
		return 0;
	if (name_pattern(name, pat, sizeof(pat)) < 0)
		return 0; /* too long to write down: nothing resolves through it either */
	return f->add(f->arg, pat, f->name_ops, -1, NULL);
}

/*
 * A link within the rule's own reach, to a directory: what is below it is
 * read as if it were below the link (which the depth counts from), since
 * names through the link reach it sooner than the walk from the prefix.
 */
static int read_through(struct follow *f, const struct comps *c, const char *real, posset s,
			int depth)
{
	char path[PATH_MAX];

	if (depth >= SCAN_DEPTH || !(s & ~((posset)1 << c->n)) || f->through >= SCAN_HOPS ||
	    in_scratch(f, real))
		return 0;
	if (!charge(&f->b->steps, components(real)))
		return cut(f);
	int dfd = open(real, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	snprintf(path, sizeof(path), "%s", strcmp(real, "/") ? real : "");
	f->through++;
	int rc = scan_dir(f, c, dfd, path, strlen(path), s, depth + 1);
	f->through--;
	return rc;
}

/* A link found at path, depth levels down, with the components from each position of s to match. */
static int follow_link(struct follow *f, const struct comps *c, const char *path, posset s,
		       int depth)
{
	char real[PATH_MAX], pat[3 * PATH_MAX + 32];
	int rc;

	/*
	 * A link to a name beside it (python3 -> python3.11, most links in an
	 * installed tree): the rule says the same of both, and that name is
	 * read in this directory too, a link or not.  One readlink instead of
	 * a walk of the whole path.
	 */
	const char *slash = strrchr(path, '/');
	if (!charge(&f->b->steps, components(path)))
		return cut(f);
	ssize_t t = readlink(path, real, sizeof(real) - 1);
	if (t > 0 && slash != NULL) {
		real[t] = '\0';
		size_t dl = (size_t)(slash - path);
		if (memchr(real, '/', (size_t)t) == NULL && strcmp(real, ".") != 0 &&
		    strcmp(real, "..") != 0 && dl + 1 + (size_t)t < sizeof(pat)) {
			memcpy(pat, path, dl + 1);
			memcpy(pat + dl + 1, real, (size_t)t + 1);
			if (same_reach(f, path, pat))
				return 0;
		}
	}
	f->skip = path;
	rc = walk_links(path, on_link, f, real, sizeof(real), &f->b->steps);
	f->skip = NULL;
	if (rc == -E2BIG)
		return cut(f);
	if (rc < 0)
		return rc == -ENOMEM ? rc : 0; /* a loop, too long: nothing is reached through it */
	/* The rule says below where it leads what it says below the link: nothing to add. */
	if (same_reach(f, path, real))
		return read_through(f, c, real, s, depth);
	if (f->hops >= SCAN_HOPS) {
		f->b->cut = true;
		return 0;
	}
	if (pattern_escape(real, pat, sizeof(pat) - 1) < 0)
		return 0;
	size_t o = strlen(pat);
	for (int i = 0; i <= c->n; i++) {
		if (!(s >> i & 1))
			continue;
		pat[o] = '\0';
		if (i < c->n) {
			if (o + 1 + strlen(c->text[i]) >= sizeof(pat))
				return 0;
			snprintf(pat + o, sizeof(pat) - o, "%s%s", strcmp(real, "/") ? "/" : "",
				 c->text[i]);
		}
		if ((rc = f->add(f->arg, pat, f->r->ops, f->hops + 1, path)) < 0)
			return rc;
	}
	return 0;
}

static int scan_dir(struct follow *f, const struct comps *c, int dfd, char *path, size_t plen,
		    posset s, int depth)
{
	DIR *d = fdopendir(dfd);
	struct dirent *e;
	int rc = 0;

	if (d == NULL) {
		close(dfd);
		return 0;
	}
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (f->b->entries == 0) {
			rc = cut(f);
			break;
		}
		f->b->entries--;
		posset t = step(c, s, e->d_name);
		if (t == 0)
			continue;
		size_t nlen = strlen(e->d_name);
		if (plen + 1 + nlen >= PATH_MAX)
			continue;
		path[plen] = '/';
		memcpy(path + plen + 1, e->d_name, nlen + 1);
		unsigned char type = e->d_type;
		if (type == DT_UNKNOWN) {
			struct stat st;
			if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0)
				type = DT_UNKNOWN;
			else if (S_ISLNK(st.st_mode))
				type = DT_LNK;
			else if (S_ISDIR(st.st_mode))
				type = DT_DIR;
		}
		if (type == DT_LNK) {
			rc = follow_link(f, c, path, t, depth);
		} else if (type == DT_DIR && depth < SCAN_DEPTH && (t & ~((posset)1 << c->n)) &&
			   !in_scratch(f, path)) {
			int sub = openat(dirfd(d), e->d_name,
					 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (sub >= 0)
				rc = scan_dir(f, c, sub, path, plen + 1 + nlen, t, depth + 1);
		}
		path[plen] = '\0';
		if (rc < 0)
			break;
	}
	closedir(d);
	return rc;
}

int links_follow(struct ward_policy *p, const struct ward_rule *r, const char *expanded,
		 int hops,
		 int (*add)(void *arg, const char *pattern, unsigned ops, int hops, const char *via),
		 void *arg, struct link_budget *b)
{
	struct follow f = { .p = p, .r = r, .add = add, .arg = arg, .hops = hops, .b = b,
			    .name_ops = r->ops & (WARD_OP_CREATE | WARD_OP_DELETE) };
	char dir[PATH_MAX], path[PATH_MAX];
	size_t rest;
	int rc;

	if (r->kind != T_PATH || r->action == WARD_ALLOW || r->action == WARD_REWRITE)
		return 0;
	/* The links on the way to the literal prefix as written (resolved at compile). */
	if (expanded != NULL && pattern_literal_dir(expanded, dir, sizeof(dir), &rest)) {
		rc = walk_links(dir, on_link, &f, NULL, 0, &b->steps);
		if (rc == -E2BIG)
			b->cut = true;
		if (rc == -ENOMEM)
			return rc;
	}
	/* What is below the compiled prefix, which is a real path. */
	if (!pattern_literal_dir(r->target, dir, sizeof(dir), &rest) || r->target[rest] == '\0')
		return 0; /* a literal path: resolved whole at compile */
	if (in_scratch(&f, dir))
		return 0;
	struct comps c;
	if ((rc = comps_split(&c, r->target + rest)) < 0) {
		/* Too many components, a '/' in a class: not followed, and said. */
		b->cut = rc != -ENOMEM;
		return rc == -ENOMEM ? rc : 0;
	}
	int dfd = -1;
	if (!charge(&b->steps, components(dir)))
		b->cut = true;
	else
		dfd = open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dfd >= 0) {
		snprintf(path, sizeof(path), "%s", strcmp(dir, "/") ? dir : "");
		rc = scan_dir(&f, &c, dfd, path, strlen(path), closure(&c, 1), 1);
	}
	comps_free(&c);
	return rc < 0 && rc != -E2BIG ? rc : 0;
}
