/*
 * attack_opentree - clone the secret's directory into a detached mount,
 * then open the secret inside it.  ward decides on the real path of what
 * it opened ("/proc/self/fd/N"), and in a detached mount that path starts
 * at the mount's own root: secret/x inside a clone of secret/ reads as
 * "/x".  DESIGN.md §2 invariant 5 refuses the mount calls (open_tree,
 * fsopen, move_mount, ...) - open_tree_attr (Linux 6.15) is the same call
 * with mount attributes.
 *
 * OPEN_TREE_CLONE needs CAP_SYS_ADMIN: unprivileged, the kernel refuses
 * it anyway; as root (in the threat model: "the same user") it works
 * unless ward refuses it.
 */
#include "attack.h"

#ifndef SYS_open_tree
#define SYS_open_tree 428
#endif
#ifndef SYS_open_tree_attr
#define SYS_open_tree_attr 467
#endif
#define OPEN_TREE_CLONE_ 1

static void attempt(const char *how, long tree)
{
	if (tree < 0) {
		refused(how, errno, EPERM); /* the filter's answer to the mount calls */
		return;
	}
	char what[160];
	snprintf(what, sizeof(what), "%s, then openat(tree, \"x\")", how);
	try_read(what, (int)tree, "x", O_RDONLY);
	close((int)tree);
}

int main(void)
{
	attempt("open_tree(secret, OPEN_TREE_CLONE)",
		syscall(SYS_open_tree, AT_FDCWD, "secret", OPEN_TREE_CLONE_ | O_CLOEXEC));
	attempt("open_tree_attr(secret, OPEN_TREE_CLONE)",
		syscall(SYS_open_tree_attr, AT_FDCWD, "secret", OPEN_TREE_CLONE_ | O_CLOEXEC, NULL, 0));
	return finish();
}
