/*
 * handlers/cred.c - setuid and its family, under a root ward.
 *
 * ward performs the agent's opens, connects and the rest with its own
 * credentials.  When those are root's, an agent that dropped its
 * privileges (setpriv, gosu, su-exec) would get them back through every
 * call ward makes for it.  So under a root ward the agent keeps the
 * credentials it started with, which are ward's: a call that sets only
 * those ids (or leaves them, -1) goes on, anything else is refused with
 * EPERM.  The lists of setgroups and capset are in memory: refused.
 * (The filter notifies these calls only when ward runs as root; an
 * unprivileged agent can only move among its own ids, which are ward's.)
 */
#include "handlers.h"
#include "../notify.h"

#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

static bool same_ids(const __u64 *a, int n, uint32_t mine)
{
	for (int i = 0; i < n; i++)
		if ((uint32_t)a[i] != mine && (uint32_t)a[i] != UINT32_MAX)
			return false;
	return true;
}

int h_cred(struct req *r)
{
	const __u64 *a = r->n->data.args;
	uint32_t uid = (uint32_t)geteuid(), gid = (uint32_t)getegid();
	bool ok;

	switch (r->n->data.nr) {
	case SYS_setuid:
	case SYS_setfsuid:
		ok = same_ids(a, 1, uid);
		break;
	case SYS_setgid:
	case SYS_setfsgid:
		ok = same_ids(a, 1, gid);
		break;
	case SYS_setreuid:
		ok = same_ids(a, 2, uid);
		break;
	case SYS_setregid:
		ok = same_ids(a, 2, gid);
		break;
	case SYS_setresuid:
		ok = same_ids(a, 3, uid);
		break;
	case SYS_setresgid:
		ok = same_ids(a, 3, gid);
		break;
	default: /* setgroups, capset */
		ok = false;
	}
	if (!ok)
		return -EPERM;
	/*
	 * CONTINUE: the decision read only the id registers, which the kernel
	 * uses as they are; the call changes nothing.  Nothing to log.
	 */
	req_quiet(r);
	return 0;
}
