/*
 * handlers/note.c - calls ward is told of but does not judge: what it must
 * know to act for the agent as the agent would.
 *
 * umask(2): ward creates files and directories for the agent with the
 * agent's umask (open.c, change.c), which it would otherwise read from
 * /proc/TID/status for every one of them (about 10 us each, more than the
 * rest of a create's work).  The new mask is noted for the caller's
 * fs_struct group (proc.c) and the call runs.
 */
#include "../sup.h"

int h_umask(struct req *r)
{
	proc_umask_changed(r->tid, (mode_t)r->n->data.args[0]);
	/*
	 * CONTINUE: the call is allowed whatever its argument, a register,
	 * and reads no memory; ward notes the value before the kernel sets
	 * it, so a create another thread makes meanwhile may get the new
	 * mask a moment early, which is one of the orders the two calls
	 * could have had.  Nothing is decided, so nothing is logged.
	 */
	r->logged = true;
	return 0;
}
