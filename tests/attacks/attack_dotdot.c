/*
 * attack_dotdot - reach the secret through dirfds, "..", "." and "//".
 *
 * openat(dirfd of a project subdirectory, "../secret/x"), long ../ chains,
 * absolute paths with //, /./ and /../, an O_PATH dirfd of the secret's
 * directory, fchdir and chdir (neither is supervised) into the project's
 * subdirectories and into secret/ itself.  Every one must be refused:
 * ward decides on the real path of what it opened, not on the string.
 */
#include "attack.h"

#include <limits.h>

int main(void)
{
	char cwd[PATH_MAX], p[PATH_MAX * 2], chain[8192];
	int sub, deep, root, sdir;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	sub = open("sub", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	deep = open("sub/deep", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	root = open("/", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (sub < 0 || deep < 0 || root < 0)
		setup_failed("open sub, sub/deep, /");

	/* Controls: the public file is readable by the same routes. */
	int c = openat(sub, "../" PUBLIC, O_RDONLY | O_CLOEXEC);
	control_check(c >= 0, "openat(sub, ../public/x) opens");
	close(c);
	c = openat(deep, "..//..//public/./x", O_RDONLY | O_CLOEXEC);
	control_check(c >= 0, "openat(sub/deep, ..//..//public/./x) opens");
	close(c);

	try_read("openat(sub, ../secret/x)", sub, "../" SECRET, O_RDONLY);
	try_read("openat(sub/deep, ../../secret/x)", deep, "../../" SECRET, O_RDONLY);
	try_read("openat(sub, ./../secret/./x)", sub, "./.././secret/./x", O_RDONLY);
	try_read("openat(sub/deep, ..//..//secret//x)", deep, "..//..//secret//x", O_RDONLY);
	try_read("openat(cwd, secret/../secret/x)", AT_FDCWD, "secret/../" SECRET, O_RDONLY);
	try_read("openat(cwd, public/../secret/x)", AT_FDCWD, "public/../" SECRET, O_RDONLY);
	try_read("openat(cwd, ./secret/x)", AT_FDCWD, "./" SECRET, O_RDONLY);
	try_read("openat(cwd, secret//x)", AT_FDCWD, "secret//x", O_RDONLY);

	/* A long chain down and up again. */
	size_t at = 0;
	while (at + 32 < 4000) {
		memcpy(chain + at, "sub/deep/../../", 15);
		at += 15;
	}
	strcpy(chain + at, SECRET);
	try_read("long sub/deep/../../ chain", AT_FDCWD, chain, O_RDONLY);

	/* ../ far above the root, then down again to the project. */
	at = 0;
	for (int i = 0; i < 200; i++) {
		memcpy(chain + at, "../", 3);
		at += 3;
	}
	snprintf(chain + at, sizeof(chain) - at, "%s/%s", cwd + 1, SECRET);
	try_read("openat(sub, ../ x200 + absolute path)", sub, chain, O_RDONLY);

	/* Absolute paths with //, /./ and /../ */
	snprintf(p, sizeof(p), "/%s//secret//x", cwd);
	try_read("//cwd//secret//x", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof(p), "%s/./secret/./x", cwd);
	try_read("cwd/./secret/./x", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof(p), "%s/sub/../secret/x", cwd);
	try_read("cwd/sub/../secret/x", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof(p), "/../../..%s/secret/x", cwd);
	try_read("/../../../cwd/secret/x", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof(p), "%s/secret/x", cwd + 1);
	try_read("openat(fd of /, cwd/secret/x)", root, p, O_RDONLY);
	snprintf(p, sizeof(p), "%s/sub/deep/../../secret/x", cwd);
	try_read("openat(sub, absolute .. path)", sub, p, O_RDONLY);
	/* The kernel's error comes first, as natively: no word on the policy. */
	try_read_want("openat(sub, trailing slash secret/x/)", sub, "../secret/x/", O_RDONLY, ENOTDIR);

	/* An O_PATH dirfd of the secret's directory (stat is allowed). */
	sdir = open("secret", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (sdir < 0) {
		/* O_PATH is judged as a read: refused here already. */
		refused("open(secret, O_PATH|O_DIRECTORY)", errno, EACCES);
	} else {
		try_read("openat(O_PATH fd of secret/, x)", sdir, "x", O_RDONLY);
		try_read("openat(O_PATH fd of secret/, ./x)", sdir, "./x", O_RDONLY);
		try_read("openat(O_PATH fd of secret/, ../secret/x)", sdir, "../secret/x", O_RDONLY);
	}
	/* Directory listing of the secret's directory (read on secret/ itself). */
	try_read("open(secret/, O_DIRECTORY)", AT_FDCWD, "secret", O_RDONLY | O_DIRECTORY);

	/* fchdir and chdir are not supervised: the walk starts from the cwd. */
	if (fchdir(deep) < 0) {
		setup_failed("fchdir(sub/deep)");
	} else {
		try_read("fchdir(sub/deep) + open(../../secret/x)", AT_FDCWD, "../../" SECRET, O_RDONLY);
		try_read("fchdir(sub/deep) + open(../../secret/../secret/x)", AT_FDCWD,
			 "../../secret/../secret/x", O_RDONLY);
	}
	if (chdir(cwd) == 0 && chdir("secret") == 0) {
		try_read("chdir(secret) + open(x)", AT_FDCWD, "x", O_RDONLY);
		try_read("chdir(secret) + open(./x)", AT_FDCWD, "./x", O_RDONLY);
		try_read("chdir(secret) + openat(fd of cwd, x)", AT_FDCWD, "../secret/x", O_RDONLY);
		int d = open(".", O_PATH | O_CLOEXEC);
		if (d >= 0) {
			try_read("chdir(secret) + openat(O_PATH \".\", x)", d, "x", O_RDONLY);
			close(d);
		} else {
			refused("chdir(secret) + open(\".\", O_PATH)", errno, EACCES);
		}
	} else {
		setup_failed("chdir(secret), which is not supervised");
	}
	if (chdir(cwd) < 0)
		setup_failed("chdir back");
	return finish();
}
