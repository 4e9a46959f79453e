/*
 * moves.c - whether a directory may be moved: ward_policy_moves_guarded().
 *
 * Moving a directory changes the path of everything below it, and so what
 * the policy says about each of those paths.  Two ways that matters:
 *
 *   - A rule other than allow says something different below the two
 *     places: files leave a deny rule's reach, or enter one (a prepared
 *     directory renamed to .git/hooks).  Any such rule stops the move.
 *   - Only allow rules differ, and one of them allows below the new place
 *     what nothing allowed below the old one: files no rule let the agent
 *     read (undecided, to be asked about) would become readable.  That
 *     stops the move too; a move between two places where the same is
 *     allowed (the project and $TMPDIR) does not.
 *
 * The first is a comparison of NFA states after "old/" and "new/".  The
 * second is a search over every path below both at once: the product of
 * all path rules' state sets below the old place and below the new one,
 * walked a byte at a time (one byte for each class of bytes the globs tell
 * apart), until no new product state is found.  At each product state
 * that ends a component, each operation is decided on both sides as
 * ward_decide_path would (the last matching rule wins, deny! over all).
 * The search is bounded; beyond the bound the move is refused.  It runs
 * only when allow rules differ below the two places, and follows only the
 * rules that can match below one of them: for the default profile it
 * takes some tens of microseconds.
 */
#include "policy_int.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/*
 * Product states searched, and work done (the sum of the sizes of the
 * programs stepped), at most before a move is refused unexamined.
 */
#define MAX_PRODUCTS 4096
#define MAX_WORK (1 << 24)

struct product {
	UT_hash_handle hh;
	struct product *next; /* the search queue */
	size_t len;	      /* of key, in ints */
	int key[];	      /* slash flag, then per rule: n, states, n, states */
};

struct search {
	const struct ward_policy *p;
	const struct ward_rule **rules; /* the path rules that can match below either */
	size_t nrules;
	struct product *seen, *head, *tail;
	size_t nseen;
	int *scratch; /* room for one key */
	size_t keymax;
	size_t work; /* instructions of the programs stepped */
};

/* Add the product in key (len ints) unless it was seen; -1 when over the bound. */
static int enqueue(struct search *s, const int *key, size_t len)
{
	struct product *p;

	HASH_FIND(hh, s->seen, key, len * sizeof(int), p);
	if (p != NULL)
		return 0;
	if (s->nseen >= MAX_PRODUCTS || (p = malloc(sizeof(*p) + len * sizeof(int))) == NULL)
		return -1;
	p->len = len;
	p->next = NULL;
	memcpy(p->key, key, len * sizeof(int));
	HASH_ADD(hh, s->seen, key, len * sizeof(int), p);
	s->nseen++;
	if (s->tail != NULL)
		s->tail->next = p;
	else
		s->head = p;
	s->tail = p;
	return 0;
}

/*
 * Whether op is allowed on both sides of a product: side 0 the old place,
 * 1 the new.  Sets each of allowed[0] and allowed[1].
 */
static void decide(const struct search *s, const int *key, unsigned op, bool allowed[2])
{
	for (int side = 0; side < 2; side++) {
		long soft = -1, hard = -1;
		const int *k = key + 1;
		for (size_t i = 0; i < s->nrules; i++) {
			const struct ward_rule *r = s->rules[i];
			const int *mine = k + (side == 0 ? 0 : 1 + k[0]);
			if ((r->ops & op) && glob_states_accept(r->glob, mine + 1, mine[0])) {
				if (r->action == WARD_DENY_HARD)
					hard = (long)r->index;
				else
					soft = (long)r->index;
			}
			k += 2 + k[0] + k[1 + k[0]];
		}
		if (hard >= 0)
			allowed[side] = false;
		else if (soft >= 0)
			allowed[side] = s->p->rules[soft]->action == WARD_ALLOW;
		else
			allowed[side] = s->p->undecided == WARD_UNDECIDED_ALLOW;
	}
}

/* The product after byte c, in s->scratch; its length, 0 when nothing is left. */
static size_t next_product(struct search *s, const int *key, unsigned char c)
{
	int *out = s->scratch;
	const int *k = key + 1;
	size_t len = 1;
	bool alive = false;

	out[0] = c == '/';
	for (size_t i = 0; i < s->nrules; i++) {
		const struct glob *g = s->rules[i]->glob;
		s->work += 2 * (size_t)glob_size(g);
		for (int side = 0; side < 2; side++) {
			int n = glob_step(g, k + 1, k[0], c, out + len + 1);
			out[len] = n;
			len += 1 + (size_t)n;
			alive |= n > 0;
			k += 1 + k[0];
		}
	}
	return alive ? len : 0;
}

static void search_free(struct search *s)
{
	struct product *p, *tmp;

	HASH_ITER(hh, s->seen, p, tmp) {
		HASH_DEL(s->seen, p);
		free(p);
	}
	free(s->scratch);
	free(s->rules);
}

/*
 * True when some path below `to` would be allowed an operation that the
 * same path below `from` is not (or when that cannot be shown not to be).
 */
static bool widens(const struct ward_policy *p, const char *from, const char *to, unsigned ops)
{
	struct search s = { .p = p };
	unsigned short cls[256] = { 0 };
	int ncls = 1, reps[256];
	bool widened = false;

	if ((s.rules = calloc(p->nrules + 1, sizeof(*s.rules))) == NULL)
		return true;
	/*
	 * The rules that can match something below either place (a rule with
	 * no state left after both never will).  The key: the slash flag, then
	 * for each of them its two state sets.
	 */
	s.keymax = 1;
	for (size_t i = 0; i < p->nrules; i++) {
		const struct ward_rule *r = p->rules[i];
		if (r->kind != T_PATH || !(r->ops & ops))
			continue;
		int tmp[glob_size(r->glob)];
		int a = glob_states_below(r->glob, from, tmp), b = glob_states_below(r->glob, to, tmp);
		if (a == 0 && b == 0)
			continue;
		s.rules[s.nrules++] = r;
		s.keymax += 2 + 2 * (size_t)glob_size(r->glob);
		glob_refine_bytes(r->glob, cls, &ncls);
	}
	if ((s.scratch = malloc(s.keymax * sizeof(int))) == NULL) {
		search_free(&s);
		return true;
	}
	/* One byte of each class; NUL is in no path. */
	for (int k = 0; k < ncls; k++)
		reps[k] = -1;
	for (int b = 1; b < 256; b++)
		if (reps[cls[b]] < 0)
			reps[cls[b]] = b;

	/* The start: just after "from/" and "to/" (a slash was the last byte). */
	int *key = s.scratch;
	size_t len = 1;
	key[0] = 1;
	for (size_t i = 0; i < s.nrules; i++) {
		const char *dir[2] = { from, to };
		for (int side = 0; side < 2; side++) {
			int n = glob_states_below(s.rules[i]->glob, dir[side], key + len + 1);
			if (n < 0) {
				search_free(&s);
				return true;
			}
			key[len] = n;
			len += 1 + (size_t)n;
		}
	}
	if (enqueue(&s, key, len) < 0)
		widened = true;
	while (!widened && s.head != NULL) {
		struct product *cur = s.head;
		s.head = cur->next;
		if (s.head == NULL)
			s.tail = NULL;
		/* A path ends after a byte other than '/': decide it there. */
		if (!cur->key[0]) {
			for (unsigned op = 1; op & WARD_OPS_PATH; op <<= 1) {
				bool allowed[2];
				if (!(op & ops))
					continue;
				decide(&s, cur->key, op, allowed);
				if (allowed[1] && !allowed[0]) {
					widened = true;
					break;
				}
			}
		}
		for (int k = 0; k < ncls && !widened; k++) {
			if (reps[k] < 0 || (reps[k] == '/' && cur->key[0]))
				continue; /* no empty component */
			size_t n = next_product(&s, cur->key, (unsigned char)reps[k]);
			if ((n > 0 && enqueue(&s, s.scratch, n) < 0) || s.work > MAX_WORK)
				widened = true;
		}
	}
	search_free(&s);
	return widened;
}

bool ward_policy_moves_guarded(const struct ward_policy *p, const char *from, const char *to)
{
	bool allows_differ = false;

	for (size_t i = 0; i < p->nrules; i++) {
		const struct ward_rule *r = p->rules[i];
		if (r->kind == T_FOREIGN_TTY && r->action != WARD_ALLOW) {
			/*
			 * Terminals: only /, /dev and /dev/pts hold them (devtmpfs,
			 * devpts).  A move within /dev/shm stays there (one tmpfs),
			 * and under /dev, where the group still reaches it.
			 */
			const char *d[] = { from, to };
			if (strncmp(from, "/dev/shm/", 9) == 0 && strncmp(to, "/dev/shm/", 9) == 0)
				continue;
			for (int k = 0; k < 2; k++)
				if (strcmp(d[k], "/") == 0 || strcmp(d[k], "/dev") == 0 ||
				    strncmp(d[k], "/dev/", 5) == 0)
					return true;
			continue;
		}
		if (r->kind == T_FOREIGN_PROC && r->action != WARD_ALLOW) {
			/* Other processes' /proc entries: only / and /proc hold them. */
			const char *d[] = { from, to };
			for (int k = 0; k < 2; k++)
				if (strcmp(d[k], "/") == 0 || strcmp(d[k], "/proc") == 0 ||
				    strncmp(d[k], "/proc/", 6) == 0)
					return true;
			continue;
		}
		if (r->kind != T_PATH || glob_same_below(r->glob, from, to))
			continue;
		if (r->action != WARD_ALLOW)
			return true;
		allows_differ = true;
	}
	return allows_differ && widens(p, from, to, WARD_OPS_PATH);
}

/*
 * True when every op of ops is allowed on every path below dir: no rule
 * other than allow for them can match below it, and for each op an allow
 * rule holds whose target is a literal PREFIX, then slash-star-star, with
 * dir at or below PREFIX.
 */
static bool all_allowed_below(const struct ward_policy *p, const char *dir, unsigned ops)
{
	unsigned covered = 0;
	size_t dl = strlen(dir);

	if (p->undecided == WARD_UNDECIDED_ALLOW)
		covered = ops;
	for (size_t i = 0; i < p->nrules; i++) {
		const struct ward_rule *r = p->rules[i];
		if (r->kind != T_PATH || !(r->ops & ops))
			continue;
		int tmp[glob_size(r->glob)];
		int n = glob_states_below(r->glob, dir, tmp);
		if (n < 0)
			return false;
		if (n == 0)
			continue; /* it matches nothing below dir */
		if (r->action != WARD_ALLOW)
			return false;
		size_t tl = strlen(r->target);
		if (tl < 3 || strcmp(r->target + tl - 3, "/**") != 0)
			continue;
		size_t pl = tl - 3;
		char prefix[pl + 1];
		memcpy(prefix, r->target, pl);
		prefix[pl] = '\0';
		if (glob_has_magic(prefix) || strchr(prefix, '\\') != NULL)
			continue;
		if (pl == 0 || (strncmp(dir, prefix, pl) == 0 && (dl == pl || dir[pl] == '/')))
			covered |= r->ops & ops;
	}
	return covered == ops;
}

bool ward_policy_keeps_below(const struct ward_policy *p, const char *dir)
{
	return !all_allowed_below(p, dir, WARD_OP_WRITE | WARD_OP_CREATE | WARD_OP_DELETE);
}

bool ward_policy_link_widens(const struct ward_policy *p, const char *name, const char *target)
{
	/*
	 * What a name keeps from the agent is what it may not write there: a
	 * later reader takes what it finds by that name.  Reading through a
	 * link is judged where it leads, as every open is.
	 */
	const unsigned ops = WARD_OP_WRITE | WARD_OP_CREATE | WARD_OP_DELETE;
	if (all_allowed_below(p, name, ops))
		return false; /* nothing below name is kept from the agent */
	return widens(p, name, target, ops);
}
