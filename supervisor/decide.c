/*
 * decide.c - one decision on the notification path: the cached policy
 * verdict, then a person (ask), shadow mode and the undecided setting
 * applied to it.  The decision becomes the request's current one, which
 * its log line tells (notify.h: struct decision).
 */
#include "ask.h"
#include "log.h"
#include "mem.h"
#include "netstate.h"
#include "notify.h"
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

static int decide_inner(struct req *r, enum ward_op op, const char *path,
			struct ward_verdict *v);
static int apply(struct req *r, struct ward_verdict *v, bool cached,
		 const struct ward_net_target *t);

/* The outcome apply()'s answer is, for the log. */
static enum outcome outcome_of(int rc)
{
	return rc < 0 ? DEC_DENY : rc == 1 ? DEC_REWRITE : DEC_ALLOW;
}

int decide_path(struct req *r, enum ward_op op, const char *path,
		struct ward_verdict *v)
{
	int rc;

	r->dec.outcome = DEC_NONE;
	rc = decide_inner(r, op, path, v);
	if (r->dec.outcome != DEC_ERROR) /* apply() found an ask moot */
		r->dec.outcome = outcome_of(rc);
	r->log = LOG_PENDING;
	/*
	 * The log line may be written after the caller's v is gone: keep what
	 * it needs (the 4 KiB rewrite buffer only when there is a rewrite).
	 */
	r->vcopy.action = v->action;
	r->vcopy.err = v->err;
	r->vcopy.undecided = v->undecided;
	r->vcopy.rule = v->rule;
	r->vcopy.rewrite[0] = '\0';
	if (v->action == WARD_REWRITE)
		snprintf(r->vcopy.rewrite, sizeof(r->vcopy.rewrite), "%s", v->rewrite);
	r->dec.verdict = &r->vcopy;
	if (r->dec.to == v->rewrite)
		r->dec.to = r->vcopy.rewrite;
	return rc;
}

bool decide_may_see(const char *path)
{
	struct ward_verdict v;

	if (!ward_policy_restricts(S->policy, WARD_OP_STAT))
		return true;
	/* An ask is no allow: the person would be asked before the agent learnt it. */
	return ward_decide_path(S->policy, WARD_OP_STAT, path, &v) == 0 && v.action == WARD_ALLOW;
}

static int decide_inner(struct req *r, enum ward_op op, const char *path,
			struct ward_verdict *v)
{
	bool cached;
	int rc;

	r->dec.op = op;
	/* The log line may be written after the handler returns: keep a copy. */
	if (path != r->logged_path) {
		size_t n = strnlen(path, sizeof(r->logged_path) - 1);
		memcpy(r->logged_path, path, n);
		r->logged_path[n] = '\0';
	}
	r->dec.path = r->logged_path;
	r->dec.verdict = v;
	rc = ward_cache_decide_path(S->cache, S->policy, op, path, v, &cached);
	if (rc < 0) {
		/* A rewrite that does not fit, or a path the engine refuses: deny. */
		r->dec.by = BY_POLICY;
		return rc == -ENAMETOOLONG ? -ENAMETOOLONG : -EACCES;
	}
	return apply(r, v, cached, NULL);
}

/*
 * The hook where a decision waits for a person (DESIGN.md §5), for a
 * verdict v that says ask.  Its contract, for whoever gives it a prompt:
 *
 *   - It runs on the worker serving r, with r's decision set for the log
 *     (op, path or the network target in r->net_*, the rule in v).
 *   - It returns 0 to allow or a negative errno to deny, and sets
 *     r->dec.by: BY_PROMPT with r->dec.answer (the key's word: "once",
 *     "session", "always", "deny", "deny always") when a person answered,
 *     BY_TIMEOUT after ask-timeout (a one-time deny, never a saved rule),
 *     BY_UNDECIDED when nobody could be asked (`set undecided` answers).
 *   - It may block this worker until the person answers, the timeout
 *     runs out, or the ask is withdrawn (the caller died: req_valid()
 *     turns false; deny then, nobody is waiting).  The wait is wrapped in
 *     notify_blocking_begin/end, so that the pool keeps workers free for
 *     the rest of the session, and must not hold a lock the other workers
 *     take.
 *   - Nothing is logged here: the line is written by the caller's commit
 *     point, before the effect, with what the hook set.  Shadow mode is
 *     applied by apply() to a denial returned here.
 *
 * The question goes to ask.c, which puts it to the person (the terminal,
 * `ward approve`); a grant an earlier answer of theirs left (this session)
 * decides without asking.  Grants are looked at only where the policy
 * asks, so an answer never widens what the policy allows or denies.
 */
static int still_waited_for(void *arg)
{
	/* The caller died, or its call was interrupted and dropped: nobody waits. */
	return req_valid(arg) ? 0 : -ESRCH;
}

static int ask_person(struct req *r, const struct ward_verdict *v,
		      const struct ward_net_target *t)
{
	struct ward_verdict grant;
	struct ask_result res;
	struct ward_net_target named;
	enum ward_op op = (enum ward_op)r->dec.op;

	if (t != NULL && t->host == NULL && r->ask_host != NULL) {
		/*
		 * A name ward verified for the address (its own lookup found the
		 * address among the name's) though no rule named it: the person
		 * sees host:port (addr), and a grant by that name decides.
		 * Grants are consulted only where the policy asks, so the name
		 * widens nothing the policy says.
		 */
		named = *t;
		named.host = r->ask_host;
		t = &named;
	}

	if (t != NULL ? ask_grant_net(op, t, &grant) : ask_grant_path(op, r->dec.path, &grant)) {
		r->dec.by = BY_PROMPT;
		r->dec.answer = grant.action == WARD_ALLOW ? "session" : "deny-always";
		return grant.action == WARD_ALLOW ? 0 : -EACCES;
	}
	/* The preload's word on the call, for the details: the libc function, the stack. */
	static __thread char stack[ASK_TEXT];
	log_stack_text(r, stack, sizeof(stack));
	struct ask_call c = {
		.op = op,
		.path = t != NULL ? NULL : r->dec.path,
		.net = t,
		.argv = op == WARD_OP_EXEC ? r->exec_argv : NULL,
		.argv_len = r->exec_argv_len,
		.argv_total = r->exec_argv_total,
		.argv_id = r->exec_argv_id,
		.rule = v->rule != NULL ? ward_rule_location(v->rule) : NULL,
		.tid = r->tid,
		.pid = r->tgid,
		.exe = r->exe,
		.via = req_hint(r, NULL) ? r->hint.via : NULL,
		.stack = stack,
		.alive = still_waited_for,
		.alive_arg = r,
	};
	notify_blocking_begin();
	int rc = ask_call(&c, &res);
	notify_blocking_end();
	/*
	 * A name granted for the session (or always, or denied always) is
	 * taught to the resolver before the call goes on: the name's other
	 * addresses are then named too, and the grant decides them.
	 */
	if (t != NULL && t->host != NULL &&
	    (res.answer == ANSWER_SESSION || res.answer == ANSWER_ALWAYS ||
	     res.answer == ANSWER_DENY_ALWAYS))
		net_learn_name(t->host);
	r->dec.answer = res.answer == ANSWER_UNDECIDED ? NULL : ask_answer_name(res.answer);
	r->dec.by = res.answer == ANSWER_UNDECIDED ? BY_UNDECIDED
		    : res.answer == ANSWER_TIMEOUT ? BY_TIMEOUT : BY_PROMPT;
	/* Fail closed: only an allow the person gave (or `set undecided allow`) allows. */
	return rc == 0 ? 0 : -EACCES;
}

/* What a verdict means for the call: ask, undecided and shadow mode applied. */
static int apply(struct req *r, struct ward_verdict *v, bool cached,
		 const struct ward_net_target *t)
{
	int rc;

	r->dec.by = v->undecided ? BY_UNDECIDED : cached ? BY_CACHE : BY_POLICY;
	switch (v->action) {
	case WARD_ALLOW:
		return 0;
	case WARD_REWRITE:
		r->dec.to = v->rewrite;
		return 1;
	case WARD_ASK:
		/*
		 * A call that would fail natively anyway (mkdir of a directory
		 * that is there) is answered with its error, not put to a
		 * person: nothing is done, so nothing the policy keeps is
		 * given, and the handler checked it on what ward opened.
		 */
		if (r->fails_anyway != NULL && (rc = r->fails_anyway(r, r->fails_arg)) < 0) {
			r->dec.outcome = DEC_ERROR;
			return rc;
		}
		if ((rc = ask_person(r, v, t)) == 0)
			return 0;
		break;
	default:
		rc = -v->err;
	}
	if (S->shadow) {
		r->dec.would_deny = true;
		return 0;
	}
	return rc;
}

int decide_next(struct req *r)
{
	if (log_request(r, 0) < 0)
		return -EACCES;
	r->dec.outcome = DEC_NONE;
	r->dec.verdict = NULL;
	r->dec.reason = NULL;
	r->dec.by = BY_POLICY;
	r->dec.answer = NULL;
	r->dec.would_deny = false; /* shadow mode: each decision says its own */
	return 0;
}

int decide_also(struct req *r, enum ward_op op, const char *path)
{
	struct ward_verdict v;
	int rc;

	if (decide_next(r) < 0)
		return -EACCES;
	rc = decide_path(r, op, path, &v);
	return rc == 1 ? -EACCES : rc;
}

int decide_next_object(struct req *r, unsigned op, const char *path)
{
	if (log_request(r, 0) < 0)
		return -EACCES;
	r->dec.outcome = DEC_NONE;
	r->dec.verdict = NULL;
	r->dec.would_deny = false;
	req_about(r, op, path);
	return 0;
}

void decide_restart(struct req *r)
{
	r->dec = (struct decision){ .outcome = DEC_NONE };
	r->log = LOG_PENDING;
}

int decide_net(struct req *r, enum ward_op op, const struct ward_net_target *t)
{
	struct ward_verdict *v = &r->vcopy;
	int rc;

	r->dec.op = op;
	r->dec.verdict = v;
	if (ward_decide_net(S->policy, op, t, v) < 0) {
		r->dec.by = BY_POLICY;
		r->dec.verdict = NULL;
		rc = -EACCES;
	} else {
		rc = apply(r, v, false, t);
		if (rc == 1)
			rc = -EACCES; /* rewrites are for paths */
	}
	r->dec.outcome = outcome_of(rc);
	r->log = LOG_PENDING;
	return rc;
}

int refuse(struct req *r, int err, const char *why)
{
	r->dec.outcome = DEC_DENY;
	r->dec.verdict = NULL;
	r->dec.by = BY_POLICY;
	r->dec.reason = why;
	r->log = LOG_PENDING;
	return -err;
}
