/*
 * attack_exists - learn which names exist in secret/, where the policy
 * denies stat (and read) of its entries, from the errors of calls that
 * would make or remove a name there.
 *
 * The kernel answers some of these from what is at the name before it
 * looks at any permission: EEXIST for a name to make that is there
 * (O_CREAT|O_EXCL, mkdir), ELOOP for O_CREAT|O_NOFOLLOW of a symlink,
 * ENOENT for a name to remove that is not there, EISDIR and ENOTDIR for
 * the wrong kind.  ward may answer these before its decision only where
 * the agent may stat the name; in secret/ it must give an existing name
 * and a missing one the same answer (the policy's EACCES: a create or a
 * delete denied, or asked with no one to answer).
 *
 * Each probe is made on a name that is there (secret/x, the file;
 * secret/sub, a directory; secret/lnk, a symlink: made by attacks.sh) and
 * on one that is not (secret/nope...): different answers are a LEAK.
 * Natively the names made are removed again.
 *
 * Controls, where the policy lets the agent see (public/, where create
 * and delete are denied or asked too): the kernel's own answers must come
 * (EEXIST for public/x, ENOENT for public/nope), or ward answered what
 * the kernel would not (WRONG).
 */
#include "attack.h"

/* One call's outcome: its errno, or 0 when it succeeded. */
static int probe(const char *how, const char *path)
{
	int rc, e;

	if (strcmp(how, "O_CREAT|O_EXCL") == 0) {
		rc = open(path, O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC, 0600);
		e = errno;
		if (rc >= 0) {
			close(rc);
			unlink(path); /* natively: it was made, undo */
		}
	} else if (strcmp(how, "O_CREAT|O_NOFOLLOW") == 0) {
		rc = open(path, O_CREAT | O_NOFOLLOW | O_WRONLY | O_CLOEXEC, 0600);
		e = errno;
		if (rc >= 0) {
			close(rc);
			unlink(path);
		}
	} else if (strcmp(how, "mkdir") == 0) {
		rc = mkdir(path, 0700);
		e = errno;
		if (rc == 0)
			rmdir(path);
	} else if (strcmp(how, "unlink") == 0) {
		rc = unlink(path); /* only ever on a directory or a missing name */
		e = errno;
	} else {
		rc = rmdir(path); /* only ever on a file or a missing name */
		e = errno;
	}
	return rc == 0 ? 0 : e;
}

static const char *err_name(int e)
{
	return e == 0 ? "succeeded" : strerror(e);
}

/* The same call on a name there and on one not there: one answer, or a LEAK. */
static void pair(const char *how, const char *there, const char *missing)
{
	int a = probe(how, there), b = probe(how, missing);

	if (a != b) {
		att_through = 1;
		say("LEAK: %s tells %s (%s) from %s (%s): the name exists", how, there, err_name(a),
		    missing, err_name(b));
	} else if (a == EACCES) {
		blocked("%s: %s and %s both %s", how, there, missing, err_name(a));
	} else {
		missed("%s: %s and %s both %s, where the policy's answer is %s", how, there, missing,
		       err_name(a), strerror(EACCES));
	}
}

/* Where the agent may see: the kernel's answer, as natively. */
static void seen(const char *how, const char *path, int want)
{
	int e = probe(how, path);

	if (e != want)
		wrong("%s %s: %s, where the kernel says %s", how, path, err_name(e), strerror(want));
	else
		say("note: %s %s: %s, the kernel's answer, where stat is allowed", how, path,
		    err_name(e));
}

int main(void)
{
	struct stat st;

	/* secret/sub and secret/lnk are made by attacks.sh. */
	if (stat("public/x", &st) < 0)
		setup_failed("public/x");
	pair("O_CREAT|O_EXCL", "secret/x", "secret/nope");
	pair("O_CREAT|O_EXCL", "secret/lnk", "secret/nope");
	pair("O_CREAT|O_NOFOLLOW", "secret/lnk", "secret/nope");
	pair("mkdir", "secret/x", "secret/nope");
	pair("mkdir", "secret/sub", "secret/nope");
	pair("unlink", "secret/sub", "secret/nope");
	pair("rmdir", "secret/x", "secret/nope");

	seen("O_CREAT|O_EXCL", "public/x", EEXIST);
	seen("mkdir", "public/x", EEXIST);
	seen("unlink", "public/nope", ENOENT);
	seen("rmdir", "public/nope", ENOENT);
	return finish();
}
