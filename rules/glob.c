/*
 * glob.c - glob patterns compiled to a Thompson NFA and run as a set of
 * states, in the manner of a Pike VM without captures.
 */
#include "glob.h"

#include <assert.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define GLOB_MAX_PATTERN 4096
/* Each pattern byte yields at most 4 instructions (a globstar component: 7 for 4 bytes). */
#define GLOB_MAX_PROG (4 * GLOB_MAX_PATTERN + 8)

enum op {
	I_CHAR,	  /* arg: the byte */
	I_ANY,	  /* any byte but '/' (GLOB_FLAT: any byte) */
	I_ANYALL, /* any byte */
	I_CLASS,  /* arg: index of a 256-bit set */
	I_SPLIT,  /* try x, then y */
	I_JMP,	  /* go to x */
	I_MATCH,
};

struct insn {
	uint8_t op;
	uint8_t c;
	uint16_t cls;
	int32_t x, y;
};

struct glob {
	int n;
	int nclass;
	uint8_t (*classes)[32];
	struct insn prog[];
};

struct builder {
	struct insn *prog;
	int n;
	uint8_t (*classes)[32];
	int nclass;
	enum glob_flags flags;
};

static int emit(struct builder *b, enum op op, int x, int y)
{
	assert(b->n < GLOB_MAX_PROG);
	b->prog[b->n] = (struct insn){ .op = (uint8_t)op, .x = x, .y = y };
	return b->n++;
}

static void emit_char(struct builder *b, unsigned char c)
{
	int i = emit(b, I_CHAR, 0, 0);
	b->prog[i].c = c;
}

/* x*: L: SPLIT body, out; body: x; JMP L; out: */
static void emit_star(struct builder *b, enum op what)
{
	int split = emit(b, I_SPLIT, 0, 0);
	b->prog[split].x = b->n;
	emit(b, what, 0, 0);
	emit(b, I_JMP, split, 0);
	b->prog[split].y = b->n;
}

/* Parse a class starting after '['; returns the index past ']' or -1. */
static int parse_class(struct builder *b, const char *p, int i)
{
	uint8_t *set = b->classes[b->nclass];
	bool negate = false;
	int start;

	memset(set, 0, 32);
	if (p[i] == '!' || p[i] == '^') {
		negate = true;
		i++;
	}
	start = i;
	while (p[i] != '\0' && (p[i] != ']' || i == start)) {
		unsigned char lo = (unsigned char)p[i], hi = lo;
		if (lo == '\\' && p[i + 1] != '\0') {
			lo = hi = (unsigned char)p[++i];
		}
		if (p[i + 1] == '-' && p[i + 2] != ']' && p[i + 2] != '\0') {
			hi = (unsigned char)p[i + 2];
			if (hi == '\\' && p[i + 3] != '\0') {
				hi = (unsigned char)p[i + 3];
				i++;
			}
			i += 2;
		}
		for (unsigned c = lo; c <= hi; c++)
			set[c >> 3] |= (uint8_t)(1u << (c & 7));
		i++;
	}
	if (p[i] != ']')
		return -1;
	if (negate)
		for (int k = 0; k < 32; k++)
			set[k] = (uint8_t)~set[k];
	if (b->flags == GLOB_PATH)
		set['/' >> 3] &= (uint8_t) ~(1u << ('/' & 7));
	int ins = emit(b, I_CLASS, 0, 0);
	b->prog[ins].cls = (uint16_t)b->nclass++;
	return i + 1;
}

/* "**" is a whole component when it starts one and ends one. */
static bool globstar_at(const char *p, int i)
{
	return p[i] == '*' && p[i + 1] == '*' && (i == 0 || p[i - 1] == '/') &&
	       (p[i + 2] == '/' || p[i + 2] == '\0');
}

struct glob *glob_compile(const char *p, enum glob_flags flags, const char **why)
{
	size_t len = strlen(p);
	struct builder b = { .flags = flags };
	struct glob *g = NULL;
	int i = 0;

	*why = "out of memory";
	if (len > GLOB_MAX_PATTERN) {
		*why = "pattern too long";
		return NULL;
	}
	b.prog = malloc(sizeof(*b.prog) * (4 * len + 8));
	b.classes = malloc(32 * (len / 2 + 1));
	if (b.prog == NULL || b.classes == NULL)
		goto out;

	while (p[i] != '\0') {
		if (flags == GLOB_PATH && p[i] == '/' && globstar_at(p, i + 1)) {
			if (p[i + 3] == '\0') {
				/* "P/<globstar>" matches P itself, or P/ followed by anything. */
				int split = emit(&b, I_SPLIT, 0, 0);
				b.prog[split].x = b.n;
				emit_char(&b, '/');
				emit_star(&b, I_ANYALL);
				b.prog[split].y = b.n;
				i += 3;
			} else {
				/* "P/<globstar>/Q": '/' then optionally (anything, '/'). */
				emit_char(&b, '/');
				int split = emit(&b, I_SPLIT, 0, 0);
				b.prog[split].x = b.n;
				emit_star(&b, I_ANYALL);
				emit_char(&b, '/');
				b.prog[split].y = b.n;
				i += 4;
			}
			continue;
		}
		if (flags == GLOB_PATH && globstar_at(p, i)) {
			/* At the very start: a globstar alone or followed by "/rest". */
			if (p[i + 2] == '\0') {
				emit_star(&b, I_ANYALL);
				i += 2;
			} else {
				int split = emit(&b, I_SPLIT, 0, 0);
				b.prog[split].x = b.n;
				emit_star(&b, I_ANYALL);
				emit_char(&b, '/');
				b.prog[split].y = b.n;
				i += 3;
			}
			continue;
		}
		switch (p[i]) {
		case '*':
			while (p[i] == '*')
				i++;
			emit_star(&b, I_ANY);
			break;
		case '?':
			emit(&b, I_ANY, 0, 0);
			i++;
			break;
		case '[':
			i = parse_class(&b, p, i + 1);
			if (i < 0) {
				*why = "unterminated character class";
				goto out;
			}
			break;
		case '\\':
			if (p[i + 1] == '\0') {
				*why = "trailing backslash";
				goto out;
			}
			emit_char(&b, (unsigned char)p[i + 1]);
			i += 2;
			break;
		default:
			emit_char(&b, (unsigned char)p[i]);
			i++;
		}
	}
	emit(&b, I_MATCH, 0, 0);

	g = malloc(sizeof(*g) + sizeof(struct insn) * (size_t)b.n);
	if (g == NULL)
		goto out;
	g->n = b.n;
	g->nclass = b.nclass;
	memcpy(g->prog, b.prog, sizeof(struct insn) * (size_t)b.n);
	g->classes = NULL;
	if (b.nclass > 0) {
		g->classes = malloc(32 * (size_t)b.nclass);
		if (g->classes == NULL) {
			free(g);
			g = NULL;
			goto out;
		}
		memcpy(g->classes, b.classes, 32 * (size_t)b.nclass);
	}
	if (flags == GLOB_FLAT)
		for (int k = 0; k < g->n; k++)
			if (g->prog[k].op == I_ANY)
				g->prog[k].op = I_ANYALL;
	*why = NULL;
out:
	free(b.prog);
	free(b.classes);
	return g;
}

void glob_free(struct glob *g)
{
	if (g == NULL)
		return;
	free(g->classes);
	free(g);
}

/*
 * Add state pc and everything reachable from it by SPLIT/JMP to list,
 * using mark[] (stamped with gen) to add each state once.  stack has room
 * for every state, since each is pushed at most once per generation.
 */
static void add_state(const struct glob *g, int *list, int *count, int *mark,
		      int gen, int *stack, int pc)
{
	int sp = 0;

	stack[sp++] = pc;
	while (sp > 0) {
		pc = stack[--sp];
		if (mark[pc] == gen)
			continue;
		mark[pc] = gen;
		const struct insn *in = &g->prog[pc];
		if (in->op == I_JMP) {
			stack[sp++] = in->x;
		} else if (in->op == I_SPLIT) {
			stack[sp++] = in->y;
			stack[sp++] = in->x;
		} else {
			list[(*count)++] = pc;
		}
	}
}

/* One byte: the states after c from the ncur states of cur, in next (unsorted). */
static int step(const struct glob *g, const int *cur, int ncur, unsigned char c, int *next,
		int *mark, int gen, int *stack)
{
	int nnext = 0;

	for (int k = 0; k < ncur; k++) {
		const struct insn *in = &g->prog[cur[k]];
		bool ok;
		switch (in->op) {
		case I_CHAR:
			ok = in->c == c;
			break;
		case I_ANY:
			ok = c != '/';
			break;
		case I_ANYALL:
			ok = true;
			break;
		case I_CLASS:
			ok = g->classes[in->cls][c >> 3] & (1u << (c & 7));
			break;
		default:
			ok = false;
		}
		if (ok)
			add_state(g, next, &nnext, mark, gen, stack, cur[k] + 1);
	}
	return nnext;
}

/*
 * Run g over the n bytes of s: the states left, in cur (room for g->n),
 * and their count; 0 once no state is left (nothing that starts with s
 * can match).  Every state of a program leads on to MATCH.
 */
static int run(const struct glob *g, const char *s, size_t len, int *cur)
{
	int n = g->n;
	/*
	 * Scratch space on the stack: the decision path must not allocate.
	 * n is bounded by GLOB_MAX_PROG, so this is at most ~200 KiB.
	 */
	int next[n], mark[n], stack[2 * n + 1];
	int ncur = 0, nnext, gen = 1;

	memset(mark, 0, sizeof(mark));
	add_state(g, cur, &ncur, mark, gen, stack, 0);
	for (size_t i = 0; i < len; i++) {
		nnext = step(g, cur, ncur, (unsigned char)s[i], next, mark, ++gen, stack);
		if (nnext == 0)
			return 0;
		memcpy(cur, next, sizeof(int) * (size_t)nnext);
		ncur = nnext;
	}
	return ncur;
}

bool glob_match(const struct glob *g, const char *s)
{
	int cur[g->n];
	int ncur = run(g, s, strlen(s), cur);

	for (int k = 0; k < ncur; k++)
		if (g->prog[cur[k]].op == I_MATCH)
			return true;
	return false;
}

static int cmp_int(const void *a, const void *b)
{
	int x = *(const int *)a, y = *(const int *)b;
	return (x > y) - (x < y);
}

/* The states after "dir/" ("/" for the root), sorted; -1 for a dir too long. */
static int below(const struct glob *g, const char *dir, int *cur)
{
	char buf[4096 + 2];
	size_t n = strlen(dir);

	if (n == 1 && dir[0] == '/')
		n = 0;
	if (n + 1 >= sizeof(buf))
		return -1;
	memcpy(buf, dir, n);
	buf[n++] = '/';
	int k = run(g, buf, n, cur);
	qsort(cur, (size_t)k, sizeof(int), cmp_int);
	return k;
}

int glob_size(const struct glob *g)
{
	return g->n;
}

int glob_states_below(const struct glob *g, const char *dir, int *out)
{
	return below(g, dir, out);
}

int glob_step(const struct glob *g, const int *cur, int n, unsigned char c, int *next)
{
	int mark[g->n], stack[2 * g->n + 1];

	memset(mark, 0, sizeof(mark));
	int k = step(g, cur, n, c, next, mark, 1, stack);
	qsort(next, (size_t)k, sizeof(int), cmp_int);
	return k;
}

bool glob_states_accept(const struct glob *g, const int *cur, int n)
{
	for (int k = 0; k < n; k++)
		if (g->prog[cur[k]].op == I_MATCH)
			return true;
	return false;
}

/* Split every class of cls by membership of its bytes in set. */
static void split(unsigned short cls[256], int *ncls, const uint8_t set[32])
{
	int in_id[256], out_id[256];

	for (int k = 0; k < *ncls; k++)
		in_id[k] = out_id[k] = -1;
	*ncls = 0;
	/* Renumber: (old class, in set) pairs in order of first byte. */
	unsigned short fresh[256];
	for (int b = 0; b < 256; b++) {
		int *id = (set[b >> 3] & (1u << (b & 7))) ? in_id : out_id;
		if (id[cls[b]] < 0)
			id[cls[b]] = (*ncls)++;
		fresh[b] = (unsigned short)id[cls[b]];
	}
	memcpy(cls, fresh, sizeof(fresh));
}

void glob_refine_bytes(const struct glob *g, unsigned short cls[256], int *ncls)
{
	uint8_t set[32];

	for (int i = 0; i < g->n; i++) {
		const struct insn *in = &g->prog[i];
		memset(set, 0, sizeof(set));
		switch (in->op) {
		case I_CHAR:
			set[in->c >> 3] |= (uint8_t)(1u << (in->c & 7));
			break;
		case I_ANY:
			set['/' >> 3] |= (uint8_t)(1u << ('/' & 7));
			break;
		case I_CLASS:
			memcpy(set, g->classes[in->cls], sizeof(set));
			break;
		default:
			continue;
		}
		split(cls, ncls, set);
	}
}

bool glob_same_below(const struct glob *g, const char *a, const char *b)
{
	int sa[g->n], sb[g->n];
	int na = below(g, a, sa), nb = below(g, b, sb);

	return na >= 0 && na == nb && memcmp(sa, sb, sizeof(int) * (size_t)na) == 0;
}

size_t glob_literal_len(const char *p)
{
	return strcspn(p, "*?[\\");
}

bool glob_has_magic(const char *p)
{
	return p[glob_literal_len(p)] != '\0';
}
