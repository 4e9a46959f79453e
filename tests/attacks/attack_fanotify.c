/*
 * attack_fanotify - watch the secret with fanotify, then make someone
 * else open it.  fanotify hands every listener an fd of the file that was
 * opened, created by the kernel (no open(2) of ours for ward to judge).
 * fanotify_mark() resolves its path in the kernel, unsupervised.
 *
 * Who opens the secret?  ward does, when asked to exec it: to tell an ELF
 * program from a script it reads the file (libelf, "#!") before deciding.
 * So: mark secret/x for FAN_OPEN, execve("secret/x") (the kernel refuses:
 * not executable), and read the event's fd.
 *
 * fanotify with event fds needs CAP_SYS_ADMIN: as an unprivileged user
 * fanotify_init fails (or gives FID-only events without fds) and this
 * attack is stopped by the kernel; as root it is not.  An agent running
 * as root is in the threat model ("the same user").
 */
#include "attack.h"

#include <sys/fanotify.h>

int main(void)
{
	int fan = fanotify_init(FAN_CLASS_NOTIF | FAN_CLOEXEC | FAN_NONBLOCK, O_RDONLY | O_LARGEFILE);

	if (fan < 0) {
		refused("fanotify_init(FAN_CLASS_NOTIF)", errno, EPERM); /* the filter's, and the kernel's */
		return finish();
	}
	if (fanotify_mark(fan, FAN_MARK_ADD, FAN_OPEN | FAN_ACCESS | FAN_CLOSE_NOWRITE, AT_FDCWD,
			  SECRET) < 0) {
		missed("fanotify_mark(secret/x): %s", strerror(errno));
		return finish();
	}
	say("note: fanotify watches secret/x");

	/* Ask ward to exec the secret: it looks inside before it decides. */
	pid_t kid = fork();
	if (kid == 0) {
		execl(SECRET, "x", (char *)NULL);
		_exit(errno == EACCES ? 0 : 1);
	}
	int st;
	waitpid(kid, &st, 0);
	/* And the loader and a script naming it, for good measure. */
	kid = fork();
	if (kid == 0) {
		execl("/lib64/ld-linux-x86-64.so.2", "ld.so", "--verify", SECRET, (char *)NULL);
		_exit(0);
	}
	waitpid(kid, &st, 0);
	usleep(100 * 1000);

	char buf[4096];
	ssize_t n;
	int events = 0;
	while ((n = read(fan, buf, sizeof(buf))) > 0) {
		for (struct fanotify_event_metadata *m = (void *)buf; FAN_EVENT_OK(m, n);
		     m = FAN_EVENT_NEXT(m, n)) {
			events++;
			if (m->fd >= 0) {
				char how[96];
				snprintf(how, sizeof(how), "fanotify event fd (pid %d opened the secret)",
					 m->pid);
				if (!att_through)
					check_fd(how, m->fd);
				close(m->fd);
			}
		}
	}
	say("note: %d fanotify events", events);
	if (!att_through && events == 0)
		missed("no fanotify event: nothing opened the secret");
	else if (!att_through)
		blocked("%d events, none gave the secret's content", events);
	return finish();
}
