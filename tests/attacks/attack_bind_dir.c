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
 * name given (getsockname).
 *
 * A try is in the race's window when an exchange happened while the bind
 * was in the kernel; a race with no try in its window, or with one kind of
 * answer only (every bind refused, or none), was never run: missed.
 */
#include "attack.h"

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/un.h>

static volatile int stop;
static unsigned long swaps; /* by the swapper, read by the binder */

static void *swapper(void *arg)
{
	(void)arg;
	while (!stop)
		if (syscall(SYS_renameat2, AT_FDCWD, "d", AT_FDCWD, "d.alt", 2 /* RENAME_EXCHANGE */) == 0)
			__atomic_add_fetch(&swaps, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	unsigned long tries = 0, windows = 0, made = 0, denied = 0, other = 0;
	char cwd[PATH_MAX], names[2][sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct stat st;
	pthread_t t;

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	snprintf(names[0], sizeof(names[0]), "d/s.sock");
	if (snprintf(names[1], sizeof(names[1]), "%s/d/s.sock", cwd) >= (int)sizeof(names[1]))
		setup_failed("the project's path is too long for a socket's");
	if (mkdir("d", 0755) < 0 || symlink("secret", "d.alt") < 0)
		setup_failed("mkdir, symlink");
	/* The directory itself, wherever the exchanges put it. */
	int dfd = open("d", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		setup_failed("open d");
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
		if (lstat("secret/s.sock", &st) == 0) {
			char how[PATH_MAX + 64];
			snprintf(how, sizeof(how), "bind of %s made secret/s.sock", name);
			att_through = 1;
			say("LEAK: %s (bind %s)", how, rc == 0 ? "succeeded" : strerror(e));
		} else if (rc == 0) {
			struct sockaddr_un got;
			socklen_t gl = sizeof(got);
			if (getsockname(s, (struct sockaddr *)&got, &gl) < 0 ||
			    gl <= offsetof(struct sockaddr_un, sun_path) || strcmp(got.sun_path, name) != 0)
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
	race_done("the directory swapped for a symlink to secret/ while binding", tries, windows);
	return finish();
}
