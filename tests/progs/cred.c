/*
 * cred CALL ARG... [, CALL ARG...]... - the calls that set credentials,
 * one line a call.  An id is OWN (the caller's real one, as it was at the
 * start), -1, or a number.
 *
 *   setuid ID    setgid ID    setfsuid ID    setfsgid ID
 *   setreuid ID ID    setregid ID ID
 *   setresuid ID ID ID    setresgid ID ID ID
 *   setgroups OWN|ID...   the caller's own list (OWN), or these ids
 *   capset                the caller's own capabilities, as capget gives them
 *
 * setfsuid and setfsgid return the old id, printed by name (OWN) when it
 * is the caller's.  Every call is made with raw syscall(2).
 */
#include "common.h"

#include <grp.h>
#include <linux/capability.h>

static uid_t own_uid;
static gid_t own_gid;

static unsigned long id(const char *s, int group)
{
	if (strcmp(s, "OWN") == 0)
		return group ? (unsigned long)own_gid : (unsigned long)own_uid;
	return strcmp(s, "-1") == 0 ? (unsigned long)-1 : num(s);
}

/* One call; w[0] its name.  0, or 2 on a usage error. */
static int call(char **w, int n)
{
	const char *op = w[0];
	int group = strstr(op, "gid") != NULL;
	long rc;

	if ((strcmp(op, "setuid") == 0 || strcmp(op, "setgid") == 0) && n == 2) {
		rc = syscall(group ? SYS_setgid : SYS_setuid, id(w[1], group));
		out(rc, errno, "%s(%s)", op, w[1]);
	} else if ((strcmp(op, "setfsuid") == 0 || strcmp(op, "setfsgid") == 0) && n == 2) {
		errno = 0;
		rc = syscall(group ? SYS_setfsgid : SYS_setfsuid, id(w[1], group));
		if (rc >= 0 && (unsigned long)rc == id("OWN", group))
			printf("%s(%s) = OWN\n", op, w[1]);
		else
			out(rc, errno, "%s(%s)", op, w[1]);
	} else if ((strcmp(op, "setreuid") == 0 || strcmp(op, "setregid") == 0) && n == 3) {
		rc = syscall(group ? SYS_setregid : SYS_setreuid, id(w[1], group), id(w[2], group));
		out(rc, errno, "%s(%s, %s)", op, w[1], w[2]);
	} else if ((strcmp(op, "setresuid") == 0 || strcmp(op, "setresgid") == 0) && n == 4) {
		rc = syscall(group ? SYS_setresgid : SYS_setresuid, id(w[1], group), id(w[2], group),
			     id(w[3], group));
		out(rc, errno, "%s(%s, %s, %s)", op, w[1], w[2], w[3]);
	} else if (strcmp(op, "setgroups") == 0 && n >= 2) {
		gid_t list[64];
		int k = 0;
		if (n == 2 && strcmp(w[1], "OWN") == 0)
			k = getgroups(64, list);
		else
			for (int i = 1; i < n && k < 64; i++)
				list[k++] = (gid_t)num(w[i]);
		if (k < 0)
			return 2;
		rc = syscall(SYS_setgroups, k, list);
		printf("setgroups(%s", n == 2 && strcmp(w[1], "OWN") == 0 ? "[the caller's]" : "[");
		for (int i = 1; i < n && strcmp(w[1], "OWN") != 0; i++)
			printf("%s%s", i > 1 ? ", " : "", w[i]);
		out(rc, errno, "%s)", n == 2 && strcmp(w[1], "OWN") == 0 ? "" : "]");
	} else if (strcmp(op, "capset") == 0 && n == 1) {
		struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
		struct __user_cap_data_struct d[2];
		if (syscall(SYS_capget, &h, d) < 0)
			return 2;
		rc = syscall(SYS_capset, &h, d);
		out(rc, errno, "capset({_LINUX_CAPABILITY_VERSION_3, 0}, [the caller's])");
	} else {
		return 2;
	}
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	own_uid = getuid();
	own_gid = getgid();
	each_call(argc, argv, call, "cred CALL ARG... [, CALL ARG...]... (see cred.c)");
	return 0;
}
