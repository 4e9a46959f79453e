/*
 * handlers/note.c - calls ward is told of but does not judge: what it must
 * know to act for the agent as the agent would.
 *
 * umask(2): ward creates files and directories for the agent with the
 * agent's umask (open.c, change.c), read from /proc/TID/status (about
 * 10 us, more than the rest of a create's work), and kept for a task that
 * shares its fs_struct with no other (proc.c).  A umask(2) makes the
 * caller's group forget it; the next create reads it again.
 */
#include "handlers.h"
#include "../notify.h"
#include "../proc.h"

int h_umask(struct req *r)
{
	proc_umask_changed(r->tid);
	/*
	 * CONTINUE: the call is allowed whatever its argument, a register,
	 * and reads no memory.  ward keeps nothing from it, so a call that
	 * runs late, or never (its caller killed), leaves no wrong value.
	 * Nothing is decided, so nothing is logged.
	 */
	req_quiet(r);
	return 0;
}
