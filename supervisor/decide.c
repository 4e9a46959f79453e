/*
 * decide.c - one decision on the notification path: the cached policy
 * verdict, then shadow mode and the undecided setting applied to it.
 */
#include "log.h"
#include "notify.h"
#include "session.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/*
 * Decide op on path (a real path, or "memfd:NAME").  Returns 0 to allow,
 * 1 to rewrite (to v->rewrite), or a negative errno to deny.  Sets the
 * request's log fields.
 */
static int decide_inner(struct req *r, enum ward_op op, const char *path,
			struct ward_verdict *v);
static int apply(struct req *r, struct ward_verdict *v, bool cached);

int decide_path(struct req *r, enum ward_op op, const char *path,
		struct ward_verdict *v)
{
	int rc;

	rc = decide_inner(r, op, path, v);
	r->decided = rc;
	/*
	 * The log line is written after the handler returns: keep what it
	 * needs (the 4 KiB rewrite buffer only when there is a rewrite).
	 */
	r->vcopy.action = v->action;
	r->vcopy.err = v->err;
	r->vcopy.undecided = v->undecided;
	r->vcopy.rule = v->rule;
	r->vcopy.rewrite[0] = '\0';
	if (v->action == WARD_REWRITE)
		snprintf(r->vcopy.rewrite, sizeof(r->vcopy.rewrite), "%s", v->rewrite);
	r->verdict = &r->vcopy;
	if (r->log_to == v->rewrite)
		r->log_to = r->vcopy.rewrite;
	return rc;
}

static int decide_inner(struct req *r, enum ward_op op, const char *path,
			struct ward_verdict *v)
{
	bool cached;
	int rc;

	r->op = ward_op_name(op);
	/* The log line is written after the handler returns: keep a copy. */
	if (path != r->logged_path) {
		size_t n = strnlen(path, sizeof(r->logged_path) - 1);
		memcpy(r->logged_path, path, n);
		r->logged_path[n] = '\0';
	}
	r->log_path = r->logged_path;
	r->verdict = v;
	rc = ward_cache_decide_path(S->cache, S->policy, op, path, v, &cached);
	if (rc < 0) {
		/* A rewrite that does not fit, or a path the engine refuses: deny. */
		r->by = "policy";
		return rc == -ENAMETOOLONG ? -ENAMETOOLONG : -EACCES;
	}
	return apply(r, v, cached);
}

/* What a verdict means for the call: ask, undecided and shadow mode applied. */
static int apply(struct req *r, struct ward_verdict *v, bool cached)
{
	int rc;

	r->by = v->undecided ? "undecided" : cached ? "cache" : "policy";
	switch (v->action) {
	case WARD_ALLOW:
		return 0;
	case WARD_REWRITE:
		r->log_to = v->rewrite;
		return 1;
	case WARD_ASK:
		/*
		 * Until prompting exists, a question is answered as `set undecided`
		 * would be without a terminal: allow only if that says allow.
		 */
		r->by = "undecided";
		if (ward_policy_undecided(S->policy) == WARD_UNDECIDED_ALLOW)
			return 0;
		rc = -EACCES;
		break;
	default:
		rc = -v->err;
	}
	if (S->shadow) {
		r->denied_by_shadow = true;
		return 0;
	}
	return rc;
}

int decide_next(struct req *r)
{
	if (log_request(r, 0) < 0)
		return -EACCES;
	r->decided = 2;
	r->verdict = NULL;
	r->reason = NULL;
	r->by = NULL;
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

int decide_net(struct req *r, enum ward_op op, const struct ward_net_target *t)
{
	struct ward_verdict *v = &r->vcopy;
	int rc;

	r->op = ward_op_name(op);
	r->verdict = v;
	if (ward_decide_net(S->policy, op, t, v) < 0) {
		r->by = "policy";
		r->verdict = NULL;
		rc = -EACCES;
	} else {
		rc = apply(r, v, false);
		if (rc == 1)
			rc = -EACCES; /* rewrites are for paths */
	}
	r->decided = rc;
	return rc;
}

int refuse(struct req *r, int err, const char *why)
{
	r->decided = -err;
	r->verdict = NULL;
	r->by = "policy";
	r->reason = why;
	return -err;
}
