/*
 * front.c - the question shown to a person, and their keys.
 */
#include "front.h"
#include "cli/util.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void front_init(struct front *f, const struct front_ops *ops, const char *session, const char *home)
{
	memset(f, 0, sizeof(*f));
	f->ops = *ops;
	snprintf(f->session, sizeof(f->session), "%s", session);
	snprintf(f->home, sizeof(f->home), "%s", home ? home : "");
	f->arm_ms = PROMPT_ARM_MS;
}

void front_free(struct front *f)
{
	free(f->v);
	f->v = NULL;
	f->n = 0;
}

const char *text_safe(const char *s, char *buf, size_t len)
{
	/* The command line's escaping (cli/util.c), which ward's messages use too. */
	return term_safe(s, buf, len);
}

bool front_refresh(struct front *f)
{
	struct ask_view *v = NULL;
	size_t n = 0;

	if (f->ops.list(f->ops.arg, &v, &n) < 0)
		return false; /* as it was: nothing answers a question not seen */
	free(f->v);
	f->v = v;
	f->n = n;
	unsigned first = n > 0 ? v[0].serial : 0;
	if (first == f->shown)
		return false;
	f->shown = first;
	f->shown_ms = 0;
	f->scope = 0;
	f->details = false;
	f->error[0] = '\0';
	return first != 0;
}

void front_shown_at(struct front *f, int64_t now_ms)
{
	if (f->shown && f->shown_ms == 0)
		f->shown_ms = now_ms;
}

int front_arming(const struct front *f, int64_t now_ms)
{
	if (!f->shown)
		return 0;
	if (f->shown_ms == 0)
		return f->arm_ms;
	int64_t left = f->shown_ms + f->arm_ms - now_ms;
	return left > 0 ? (int)left : 0;
}

static const struct ask_view *current(const struct front *f)
{
	return f->shown && f->n > 0 && f->v[0].serial == f->shown ? &f->v[0] : NULL;
}

bool front_key(struct front *f, int key, int64_t now_ms)
{
	const struct ask_view *v = current(f);
	enum ask_answer a = ANSWER_NONE;

	if (v == NULL || key == KEY_NONE || front_arming(f, now_ms) > 0)
		return false; /* typed ahead, or nothing to answer */
	switch (key) {
	case KEY_ONCE:
		a = ANSWER_ONCE;
		break;
	case KEY_DENY:
	case KEY_ESC:
	case KEY_INTR:
		a = ANSWER_DENY;
		break;
	case KEY_SESSION:
		a = v->nrungs > 0 ? ANSWER_SESSION : ANSWER_NONE;
		break;
	case KEY_ALWAYS:
		a = v->nrungs > 0 ? ANSWER_ALWAYS : ANSWER_NONE;
		break;
	case KEY_DENY_ALWAYS:
		a = v->nrungs > 0 ? ANSWER_DENY_ALWAYS : ANSWER_NONE;
		break;
	case KEY_TAB:
		if (v->nrungs > 1)
			f->scope = (f->scope + 1) % v->nrungs;
		if (f->ops.touch)
			f->ops.touch(f->ops.arg, v->serial);
		return true;
	case KEY_DETAILS:
		f->details = !f->details;
		if (f->ops.touch)
			f->ops.touch(f->ops.arg, v->serial);
		return true;
	default:
		return false; /* Enter answers nothing, nor does any other key */
	}
	if (a == ANSWER_NONE)
		return false;
	int rc = f->ops.answer(f->ops.arg, v->serial, a, f->scope);
	if (rc < 0 && rc != -ESRCH) {
		snprintf(f->error, sizeof(f->error), "ward: the answer was not taken: %s", strerror(-rc));
		return true;
	}
	f->answered++;
	return false; /* what follows comes with the change of the questions */
}

/* A path shown from ~ when it lies in the home directory. */
static void home_short(const struct front *f, const char *path, char *out, size_t len)
{
	size_t h = strlen(f->home);
	if (h > 1 && strncmp(path, f->home, h) == 0 && path[h] == '/')
		snprintf(out, len, "~%s", path + h);
	else
		snprintf(out, len, "%s", path);
}

static void upper(const char *s, char *out, size_t len)
{
	size_t i = 0;
	for (; s[i] && i + 1 < len; i++)
		out[i] = (char)toupper((unsigned char)s[i]);
	out[i] = '\0';
}

/* The prompt's view of v, its strings escaped into buf. */
struct safe {
	char prog[1024], chain[4096], target[4 * ASK_TEXT + 16], extra[1024], rule[2048];
	char exe[4 * ASK_TEXT], argv[4 * ASK_TEXT], cwd[4 * ASK_TEXT], procs[4 * ASK_TEXT];
	char via[256], stack[4 * ASK_TEXT];
	char scope_rule[4 * ASK_RULE], op[16];
};

/* Lines, each escaped on its own (the newlines between them kept). */
static const char *lines_safe(const char *in, char *out, size_t len)
{
	size_t o = 0;

	out[0] = '\0';
	for (const char *q = in; *q && o + 1 < len;) {
		const char *nl = strchr(q, '\n');
		size_t l = nl ? (size_t)(nl - q) : strlen(q);
		char one[ASK_TEXT];
		snprintf(one, sizeof(one), "%.*s", (int)l, q);
		text_safe(one, out + o, len - o);
		o += strlen(out + o);
		if (nl && o + 1 < len)
			out[o++] = '\n';
		out[o] = '\0';
		q += l + (nl ? 1 : 0);
	}
	return out;
}

static void view_of(const struct front *f, const struct ask_view *v, int waiting, bool live,
		    struct safe *s, struct prompt_view *p)
{
	char t[ASK_TEXT * 2], rule[ASK_RULE];

	memset(p, 0, sizeof(*p));
	p->serial = v->serial;
	p->pid = v->pid;
	p->prog = text_safe(v->prog, s->prog, sizeof(s->prog));
	p->chain = text_safe(v->chain, s->chain, sizeof(s->chain));
	upper(ward_op_name(v->op), s->op, sizeof(s->op));
	p->op = s->op;
	if (v->kind == 'x') {
		/* A program: its path, then the arguments it is given (shortened: ? shows them whole). */
		snprintf(t, sizeof(t), "%s%s%s", v->target, v->args[0] ? " " : "", v->args);
	} else if (v->kind == 'p') {
		home_short(f, v->target, t, sizeof(t));
	} else {
		snprintf(t, sizeof(t), "%s", v->target);
	}
	p->target = text_safe(t, s->target, sizeof(s->target));
	p->extra = text_safe(v->extra, s->extra, sizeof(s->extra));
	snprintf(t, sizeof(t), "%s (ask)", v->rule);
	p->rule = text_safe(t, s->rule, sizeof(s->rule));
	p->can_save = v->nrungs > 0;
	p->scope_name = p->can_save ? v->rung_name[f->scope] : "";
	ask_rule_text(v, ANSWER_SESSION, f->scope, rule, sizeof(rule));
	p->scope_rule = text_safe(rule, s->scope_rule, sizeof(s->scope_rule));
	p->waiting = waiting;
	p->live = live;
	p->exe = text_safe(v->exe, s->exe, sizeof(s->exe));
	p->argv = text_safe(v->argv, s->argv, sizeof(s->argv));
	p->cwd = text_safe(v->cwd, s->cwd, sizeof(s->cwd));
	p->via = text_safe(v->via, s->via, sizeof(s->via));
	p->procs = lines_safe(v->procs, s->procs, sizeof(s->procs));
	p->stack = lines_safe(v->stack, s->stack, sizeof(s->stack));
}

void front_lines(struct front *f, int cols, int64_t now_ms, char lines[2][PROMPT_LINE],
		 const char *sgr[2], char over[][PROMPT_LINE], int max, int *nover)
{
	const struct ask_view *v = current(f);

	*nover = 0;
	if (v == NULL) {
		char notice[512] = "", idle[PROMPT_LINE];
		if (f->ops.notice)
			f->ops.notice(f->ops.arg, notice, sizeof(notice));
		snprintf(idle, sizeof(idle), "ward \u25b8 session %s \u00b7 no question waiting \u00b7 "
					     "`ward approve %s` answers from another window",
			 f->session, f->session);
		text_fit(idle, cols, lines[0], PROMPT_LINE);
		text_fit(f->error[0] ? f->error : notice, cols, lines[1], PROMPT_LINE);
		sgr[0] = prompt_idle_sgr[0];
		sgr[1] = notice[0] || f->error[0] ? "1;33" : prompt_idle_sgr[1];
		return;
	}
	struct safe *s = malloc(sizeof(*s));
	struct prompt_view p;
	if (s == NULL) {
		snprintf(lines[0], PROMPT_LINE, "ward \u25b8 out of memory: a question waits");
		lines[1][0] = '\0';
		sgr[0] = sgr[1] = prompt_sgr[0];
		return;
	}
	bool live = front_arming(f, now_ms) == 0;
	view_of(f, v, (int)f->n - 1, live, s, &p);
	/* A flood answered without the person: said beside the question, not only after the queue. */
	char notice[512] = "";
	if (f->ops.notice)
		f->ops.notice(f->ops.arg, notice, sizeof(notice));
	p.flooded = notice[0] != '\0';
	bool whole = prompt_lines(&p, cols, lines[0], lines[1], PROMPT_LINE);
	if (f->error[0])
		text_fit(f->error, cols, lines[1], PROMPT_LINE);
	sgr[0] = prompt_sgr[0];
	/* The keys dim until they answer (type-ahead is not an answer). */
	sgr[1] = live ? prompt_sgr[1] : "2;37;44";
	if ((f->details || !whole) && max > 0)
		*nover = prompt_details(&p, cols, over, max);
	free(s);
}
