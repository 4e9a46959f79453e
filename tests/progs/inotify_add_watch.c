/*
 * inotify_add_watch PATH MASK ... [, write FILE]: inotify_init1(2), then
 * inotify_add_watch(2) of each PATH with MASK (IN_MODIFY, IN_ALL_EVENTS,
 * IN_DONT_FOLLOW, ... or a number); then, with "write FILE", append to
 * FILE and print the first event read (5 s at most): which watch it came
 * from (its index among the PATHs) and its mask.  ward adds the watches
 * itself, on its copy of the agent's inotify fd: the event shows that the
 * watch it added is the agent's.
 */
#include "common.h"

#include <poll.h>
#include <sys/inotify.h>

static const struct sym isyms[] = {
	SYM(IN_MODIFY), SYM(IN_ACCESS), SYM(IN_OPEN), SYM(IN_CLOSE_WRITE), SYM(IN_CREATE),
	SYM(IN_DELETE), SYM(IN_ALL_EVENTS), SYM(IN_DONT_FOLLOW), SYM(IN_ONLYDIR),
	{ NULL, 0 },
};

static uint32_t imask(const char *s)
{
	uint32_t v = 0;
	char buf[256], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *w = strtok_r(buf, "|", &save); w; w = strtok_r(NULL, "|", &save)) {
		const struct sym *y;
		for (y = isyms; y->name && strcmp(y->name, w) != 0; y++)
			;
		v |= y->name ? (uint32_t)y->val : (uint32_t)num(w);
	}
	return v;
}

int main(int argc, char **argv)
{
	int wds[64], n = 0, i;

	if (argc < 3)
		usage("inotify_add_watch PATH MASK ... [, write FILE]");
	int fd = inotify_init1(IN_CLOEXEC);
	out(fd, errno, "inotify_init1(IN_CLOEXEC)");
	if (fd < 0)
		return 1;
	for (i = 1; i + 1 < argc && strcmp(argv[i], ",") != 0 && n < 64; i += 2) {
		long wd = syscall(SYS_inotify_add_watch, fd, patharg(argv[i]), imask(argv[i + 1]));
		out(wd, errno, "inotify_add_watch(%d, %s, %s)", fd, q(argv[i]), argv[i + 1]);
		wds[n++] = (int)wd;
	}
	if (i + 2 < argc && strcmp(argv[i], ",") == 0 && strcmp(argv[i + 1], "write") == 0) {
		int w = open(argv[i + 2], O_WRONLY | O_APPEND | O_CLOEXEC);
		if (w < 0 || write(w, "x", 1) != 1) {
			out(-1, errno, "write(%s)", q(argv[i + 2]));
			return 1;
		}
		close(w);
		struct pollfd p = { .fd = fd, .events = POLLIN };
		char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
		if (poll(&p, 1, 5000) != 1) {
			printf("no event\n");
			return 0;
		}
		ssize_t got = read(fd, buf, sizeof(buf));
		if (got < (ssize_t)sizeof(struct inotify_event)) {
			out(-1, errno, "read(%d)", fd);
			return 1;
		}
		const struct inotify_event *e = (const struct inotify_event *)buf;
		int which = -1;
		for (int k = 0; k < n; k++)
			if (wds[k] == e->wd && wds[k] >= 0)
				which = k;
		const char *m = (e->mask & IN_MODIFY) ? "IN_MODIFY" : (e->mask & IN_OPEN) ? "IN_OPEN" : "other";
		printf("event: watch %d (%s), %s\n", which, which >= 0 ? argv[1 + 2 * which] : "?", m);
	}
	return 0;
}
