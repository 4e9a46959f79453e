/*
 * attack_links MODE - give the secret a new name in the project, then
 * read it through that name.
 *
 *   hardlink   link(2), linkat(2) with AT_SYMLINK_FOLLOW through a symlink,
 *              linkat(O_PATH fd, "", AT_EMPTY_PATH) and linkat through
 *              /proc/self/fd/N: "link = read at source + create at target"
 *   symlink    symlinks (relative, absolute, in a directory of their own,
 *              a chain of them) to the secret: the text is free, the open
 *              through it is judged on the secret
 *   rename     rename(secret/x, stolen), then read stolen
 *   renamedir  rename(secret, notsecret), then read notsecret/x
 *   exchange   renameat2(secret/x, public/x, RENAME_EXCHANGE), then read public/x
 *
 * With `deny read $PROJECT/secret/...` (everything below) the secret's content must stay
 * unreadable whatever name it is given (the policy is about the file;
 * Landlock's REFER right exists for exactly this).  The policy allows
 * delete and create in the project, so a rename that moves the secret out
 * of secret/ and a read through the new name would get through.
 */
#include "attack.h"

#include <limits.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif

static void read_new_name(const char *how, const char *name)
{
	char what[256];
	snprintf(what, sizeof(what), "%s, then read %s", how, name);
	try_read(what, AT_FDCWD, name, O_RDONLY);
}

static void mode_hardlink(void)
{
	char cwd[PATH_MAX], p[PATH_MAX + 64];

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	if (link(SECRET, "hl1") == 0)
		read_new_name("link(secret/x, hl1)", "hl1");
	else
		refused("link(secret/x, hl1)", errno, EACCES);

	if (symlink(SECRET, "sl-for-link") < 0)
		setup_failed("symlink");
	if (linkat(AT_FDCWD, "sl-for-link", AT_FDCWD, "hl2", AT_SYMLINK_FOLLOW) == 0)
		read_new_name("linkat(symlink to secret, hl2, AT_SYMLINK_FOLLOW)", "hl2");
	else
		refused("linkat(symlink to secret, AT_SYMLINK_FOLLOW)", errno, EACCES);

	int o = open(SECRET, O_PATH | O_CLOEXEC);
	if (o < 0) {
		refused("open(secret/x, O_PATH)", errno, EACCES);
	} else {
		if (linkat(o, "", AT_FDCWD, "hl3", AT_EMPTY_PATH) == 0)
			read_new_name("linkat(O_PATH fd, \"\", AT_EMPTY_PATH)", "hl3");
		else
			refused("linkat(O_PATH fd of secret, AT_EMPTY_PATH)", errno, EACCES);
		snprintf(p, sizeof(p), "/proc/self/fd/%d", o);
		if (linkat(AT_FDCWD, p, AT_FDCWD, "hl4", AT_SYMLINK_FOLLOW) == 0)
			read_new_name("linkat(/proc/self/fd/N, hl4, AT_SYMLINK_FOLLOW)", "hl4");
		else
			refused("linkat(/proc/self/fd/N of secret)", errno, EACCES);
		close(o);
	}
	snprintf(p, sizeof(p), "%s/secret//./x", cwd);
	if (link(p, "sub/hl5") == 0)
		read_new_name("link(absolute secret path, sub/hl5)", "sub/hl5");
	else
		refused("link(absolute secret path, sub/hl5)", errno, EACCES);
	/* A link made inside secret/ itself (create there is allowed), read from there. */
	if (link(SECRET, "secret/y") == 0)
		read_new_name("link(secret/x, secret/y)", "secret/y");
	else
		refused("link(secret/x, secret/y)", errno, EACCES);
}

static void mode_symlink(void)
{
	char cwd[PATH_MAX], p[PATH_MAX + 64];

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	snprintf(p, sizeof(p), "%s/%s", cwd, SECRET);
	struct {
		const char *target, *name;
	} links[] = {
		{ SECRET, "s1" },
		{ p, "s2" },
		{ "../" SECRET, "sub/s3" },
		{ "s1", "s4" },
		{ "sub/s3", "s5" },
		{ "secret", "s6" },
	};
	for (size_t i = 0; i < sizeof(links) / sizeof(links[0]); i++) {
		if (symlink(links[i].target, links[i].name) < 0)
			setup_failed(links[i].name);
		char how[PATH_MAX + 64];
		snprintf(how, sizeof(how), "symlink %s -> %s", links[i].name, links[i].target);
		read_new_name(how, links[i].name);
	}
	try_read("open(s6/x) through a directory symlink", AT_FDCWD, "s6/x", O_RDONLY);
	/* A symlink in the temporary directory, outside the project. */
	const char *tmp = getenv("TMPDIR");
	char t[PATH_MAX + 64];
	snprintf(t, sizeof(t), "%s/ward-attack-link.%d", tmp ? tmp : "/tmp", getpid());
	if (symlink(p, t) == 0) {
		read_new_name("symlink in $TMPDIR to the secret", t);
		unlink(t);
	} else {
		setup_failed("symlink in $TMPDIR");
	}
}

static void mode_rename(void)
{
	if (rename(SECRET, "stolen") == 0)
		read_new_name("rename(secret/x, stolen)", "stolen");
	else
		refused("rename(secret/x, stolen)", errno, EACCES);
	if (renameat2(AT_FDCWD, SECRET, AT_FDCWD, "sub/stolen2", 0) == 0)
		read_new_name("renameat2(secret/x, sub/stolen2)", "sub/stolen2");
	else if (errno == ENOENT)
		say("note: renameat2(secret/x, sub/stolen2): the secret was moved already");
	else
		refused("renameat2(secret/x, sub/stolen2)", errno, EACCES);
}

static void mode_renamedir(void)
{
	if (rename("secret", "notsecret") == 0)
		read_new_name("rename(secret, notsecret)", "notsecret/x");
	else
		refused("rename(secret, notsecret)", errno, EACCES);
}

static void mode_exchange(void)
{
	if (renameat2(AT_FDCWD, SECRET, AT_FDCWD, PUBLIC, RENAME_EXCHANGE) == 0)
		read_new_name("renameat2(secret/x, public/x, RENAME_EXCHANGE)", PUBLIC);
	else
		refused("renameat2(RENAME_EXCHANGE secret/x <-> public/x)", errno, EACCES);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "hardlink") == 0)
		mode_hardlink();
	else if (strcmp(mode, "symlink") == 0)
		mode_symlink();
	else if (strcmp(mode, "rename") == 0)
		mode_rename();
	else if (strcmp(mode, "renamedir") == 0)
		mode_renamedir();
	else if (strcmp(mode, "exchange") == 0)
		mode_exchange();
	else {
		errno = EINVAL;
		setup_failed(mode);
	}
	return finish();
}
