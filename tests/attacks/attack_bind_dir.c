/*
 * attack_bind_dir - swap the directory of a unix socket's path for a
 * symlink to secret/ while binding the socket by that path.
 *
 * ward binds a unix socket by the agent's own string, so that the socket
 * keeps the name the agent gave (getsockname shows it): the kernel then
 * resolves that string itself, after ward decided on the directory it
 * walked to.  A second thread keeps exchanging (renameat2
 * RENAME_EXCHANGE) "d", a directory of the project's, with "d.alt", a
 * symlink to secret/, where the policy denies create; the main thread
 * binds "d/s.sock", by a relative and by an absolute path, for
 * race_seconds().  No socket file may ever appear in secret/.  A bind that
 * succeeds must have made its file in the directory and kept the exact
 * name given (getsockname), or the bare name where ward's walk may have
 * met the symlink (then ward binds by the name in the directory decided).
 *
 * MODE fd and cwd go through a magic link instead, which no rename
 * changes: the path is //proc/PID/fd/50/s.sock (fd) or //proc/PID/cwd/s.sock
 * (cwd), and a second thread keeps pointing fd 50 (dup2) or the cwd
 * (fchdir) at d and at secret/ in turn.  ward must not bind such a string
 * by its text (the kernel would follow the link as it is when it binds):
 * the socket is made by its name in the directory ward decided on, so
 * getsockname is not checked in these modes.  (Found by review: a bind by
 * the text left sockets in secret/ within a second.)
 *
 * A try is in the race's window when an exchange happened while the bind
 * was in the kernel; a race with no try in its window, or with one kind of
 * answer only (every bind refused, or none), was never run: missed.
 */
#include "attack.h"

#include <limits.h>
#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

static volatile int stop;
static unsigned long swaps; /* by the swapper, read by the binder */
static const char *mode = "swap";
static int dfd, sfd; /* d and secret/ */

static void *swapper(void *arg)
{
	(void)arg;
	while (!stop) {
		int ok;
		if (strcmp(mode, "fd") == 0)
			ok = dup2(dfd, 50) >= 0 && dup2(sfd, 50) >= 0;
		else if (strcmp(mode, "cwd") == 0)
			ok = fchdir(dfd) == 0 && fchdir(sfd) == 0;
		else
			ok = syscall(SYS_renameat2, AT_FDCWD, "d", AT_FDCWD, "d.alt",
				     2 /* RENAME_EXCHANGE */) == 0;
		if (ok)
			__atomic_add_fetch(&swaps, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long tries = 0, windows = 0, made = 0, denied = 0, other = 0;
	char cwd[PATH_MAX], secret_sock[PATH_MAX + 16];
	char names[2][sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct stat st;
	pthread_t t;

	if (argc > 1 && argv[1][0] != '\0')
		mode = argv[1];
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	bool magic = strcmp(mode, "fd") == 0 || strcmp(mode, "cwd") == 0;
	if (!magic && strcmp(mode, "swap") != 0) {
		errno = EINVAL;
		setup_failed(mode);
	}
	snprintf(secret_sock, sizeof(secret_sock), "%s/secret/s.sock", cwd);
	if (strcmp(mode, "fd") == 0) {
		snprintf(names[0], sizeof(names[0]), "//proc/%d/fd/50/s.sock", (int)getpid());
		snprintf(names[1], sizeof(names[1]), "/proc/%d/fd/50/s.sock", (int)getpid());
	} else if (strcmp(mode, "cwd") == 0) {
		snprintf(names[0], sizeof(names[0]), "//proc/%d/cwd/s.sock", (int)getpid());
		snprintf(names[1], sizeof(names[1]), "/proc/self/cwd/s.sock");
	} else {
		snprintf(names[0], sizeof(names[0]), "d/s.sock");
		if (snprintf(names[1], sizeof(names[1]), "%s/d/s.sock", cwd) >= (int)sizeof(names[1]))
			setup_failed("the project's path is too long for a socket's");
	}
	if (mkdir("d", 0755) < 0 || (!magic && symlink("secret", "d.alt") < 0))
		setup_failed("mkdir, symlink");
	/* The directory itself, wherever the exchanges put it. */
	dfd = open("d", O_PATH | O_DIRECTORY | O_CLOEXEC);
	sfd = open("secret", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0 || sfd < 0)
		setup_failed("open d, secret");
	/* Fd 50 and the cwd start at d: a bind before the swapper's first move names d too. */
	if (dup2(dfd, 50) < 0 || (strcmp(mode, "cwd") == 0 && fchdir(dfd) < 0))
		setup_failed("dup2, fchdir");
	if (pthread_create(&t, NULL, swapper, NULL) != 0)
		setup_failed("pthread_create");

	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		const char *name = names[tries % 2];
		struct sockaddr_un un = { .sun_family = AF_UNIX };
		snprintf(un.sun_path, sizeof(un.sun_path), "%s", name);
		int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (s < 0)
			setup_failed("socket");
		unsigned long before = __atomic_load_n(&swaps, __ATOMIC_RELAXED);
		int rc = bind(s, (struct sockaddr *)&un, sizeof(un));
		int e = errno;
		tries++;
		if (__atomic_load_n(&swaps, __ATOMIC_RELAXED) != before)
			windows++;
		if (lstat(secret_sock, &st) == 0) {
			char how[PATH_MAX + 64];
			snprintf(how, sizeof(how), "bind of %s made secret/s.sock", name);
			att_through = 1;
			say("LEAK: %s (bind %s)", how, rc == 0 ? "succeeded" : strerror(e));
		} else if (rc == 0) {
			struct sockaddr_un got;
			socklen_t gl = sizeof(got);
			/*
			 * The exact name, or the bare one: a walk of ward's that
			 * may have met the swap's symlink (the kernel's walk raced
			 * the exchange) binds by the name in the directory decided.
			 */
			if (!magic && (getsockname(s, (struct sockaddr *)&got, &gl) < 0 ||
				       gl <= offsetof(struct sockaddr_un, sun_path) ||
				       (strcmp(got.sun_path, name) != 0 &&
					strcmp(got.sun_path, "s.sock") != 0)))
				wrong("bind of %s: getsockname says \"%s\"", name,
				      gl > offsetof(struct sockaddr_un, sun_path) ? got.sun_path : "");
			if (fstatat(dfd, "s.sock", &st, AT_SYMLINK_NOFOLLOW) < 0 || !S_ISSOCK(st.st_mode))
				wrong("bind of %s succeeded, but no socket is in the directory", name);
			unlinkat(dfd, "s.sock", 0);
			made++;
		} else if (e == EACCES) {
			denied++;
		} else {
			other++;
		}
		close(s);
	}
	stop = 1;
	pthread_join(t, NULL);
	say("note: %lu binds: %lu made in the directory, %lu denied, %lu other errors", tries, made,
	    denied, other);
	if (!att_through && (made == 0 || denied == 0))
		missed("the race was one-sided: %lu made, %lu refused", made, denied);
	race_done(magic ? "a magic link pointed at secret/ and back while binding"
			: "the directory swapped for a symlink to secret/ while binding",
		  tries, windows);
	return finish();
}
