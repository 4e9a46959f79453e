/*
 * attack_rewrite MODE - a rewrite's replacement lies under $SESSION, where
 * the agent may make anything.  attacks.sh runs each mode with
 * `rewrite write,create P/cache/<any> -> $SESSION/cache/<any>` and
 * `deny write,create,delete P/guarded/<any>`.
 *
 *   mkdir   ward makes the missing parents of a replacement: open
 *           cache/d1/d2/f with O_CREAT in a loop while a thread turns
 *           $SESSION/cache/d1 between nothing and a symlink to guarded/,
 *           so that a parent made by its path would be guarded/d2
 *   fifo    FIFOs at $SESSION/cache/fifoN, opened for writing through the
 *           rewrite by more threads than ward has workers: an open that
 *           waits for a reader would hold them all, and the session with
 *           them (the main thread's own open must still be answered)
 */
#include "attack.h"

#include <pthread.h>
#include <sys/stat.h>

static char session_cache[4096]; /* $SESSION/cache, learnt from a rewritten open */
static volatile int stop;
static unsigned long flips; /* symlinks planted by flip_d1 */

/* Where the rewrite lands: open cache/probe and read its real path. */
static void learn_session(void)
{
	char link[64], real[4096];
	int fd = open("cache/probe", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0)
		setup_failed("open cache/probe (rewritten)");
	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	ssize_t n = readlink(link, real, sizeof(real) - 1);
	close(fd);
	if (n <= 0)
		setup_failed("readlink of the rewritten fd");
	real[n] = '\0';
	char *slash = strrchr(real, '/');
	if (slash == NULL || strstr(real, "/cache/probe") == NULL)
		setup_failed("the open was not rewritten");
	*slash = '\0';
	snprintf(session_cache, sizeof(session_cache), "%s", real);
	say("rewrites land in %s", session_cache);
}

static void *flip_d1(void *arg)
{
	char d1[4200], d2[4300], f[4400], target[4200];
	(void)arg;
	snprintf(d1, sizeof(d1), "%s/d1", session_cache);
	snprintf(d2, sizeof(d2), "%s/d2", d1);
	snprintf(f, sizeof(f), "%s/f", d2);
	if (getcwd(target, sizeof(target) - 16) == NULL)
		return NULL;
	strcat(target, "/guarded");
	while (!stop) {
		/* What ward made meanwhile goes, so that d1 can be a symlink again. */
		unlink(f);
		rmdir(d2);
		rmdir(d1);
		if (symlink(target, d1) == 0) {
			__atomic_add_fetch(&flips, 1, __ATOMIC_RELAXED);
			for (volatile int i = 0; i < 2000; i++)
				;
			unlink(d1);
		}
	}
	return NULL;
}

static void mode_mkdir(void)
{
	pthread_t t;
	learn_session();
	int c = mkdir("guarded/d2", 0755);
	control_check(c < 0 && errno == EACCES, "mkdir(guarded/d2) is refused: the rule is in force");
	if (pthread_create(&t, NULL, flip_d1, NULL) != 0)
		setup_failed("pthread_create");
	double end = now() + race_seconds();
	unsigned long tries = 0, windows = 0;
	while (now() < end && access("guarded/d2", F_OK) < 0) {
		unsigned long before = __atomic_load_n(&flips, __ATOMIC_RELAXED);
		int fd = open("cache/d1/d2/f", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
		if (__atomic_load_n(&flips, __ATOMIC_RELAXED) != before)
			windows++;
		if (fd >= 0)
			close(fd);
		tries++;
	}
	stop = 1;
	pthread_join(t, NULL);
	if (access("guarded/d2", F_OK) == 0)
		leak("ward made guarded/d2 through a symlink planted at a rewrite's parent", "made", 4);
	else
		race_done("a symlink planted at the rewrite's missing parent directory", tries, windows);
}

static int returned, refused_at_once[256]; /* FIFO opens that returned; their errnos */

static void *open_fifo(void *arg)
{
	char path[64];
	snprintf(path, sizeof(path), "cache/fifo%ld", (long)(intptr_t)arg);
	int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd < 0 && errno > 0 && errno < 256)
		__atomic_add_fetch(&refused_at_once[errno], 1, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&returned, 1, __ATOMIC_SEQ_CST);
	if (fd >= 0) {
		say("note: open(%s) returned a fd", path);
		close(fd);
	}
	return NULL;
}

static void mode_fifo(void)
{
	enum { N = 64 };
	pthread_t t[N];
	char fifo[4200];

	learn_session();
	for (long i = 0; i < N; i++) {
		snprintf(fifo, sizeof(fifo), "%s/fifo%ld", session_cache, i);
		if (mkfifo(fifo, 0644) < 0)
			setup_failed("mkfifo in $SESSION/cache");
	}
	for (long i = 0; i < N; i++)
		if (pthread_create(&t[i], NULL, open_fifo, (void *)(intptr_t)i) != 0)
			setup_failed("pthread_create");
	usleep(300 * 1000);
	/* The session must still be served: the threads' opens hold no worker. */
	int waiting = N - __atomic_load_n(&returned, __ATOMIC_SEQ_CST);
	char buf[64];
	if (slurp(PUBLIC, buf, sizeof(buf)) < 0)
		wrong("open(public/x) failed: %s", strerror(errno));
	else if (waiting > 0)
		blocked("the session is still served while %d rewritten FIFO opens wait", waiting);
	else if (refused_at_once[ENXIO] == N)
		/* The open of a FIFO with no reader does not wait in ward: the worker stays free. */
		blocked("all %d rewritten FIFO opens were answered at once (ENXIO: no reader)", N);
	else
		missed("no rewritten FIFO open was waiting when ward was probed, and not all were "
		       "refused with ENXIO (%d)", refused_at_once[ENXIO]);
	for (long i = 0; i < N; i++)
		pthread_join(t[i], NULL);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "mkdir") == 0)
		mode_mkdir();
	else if (strcmp(mode, "fifo") == 0)
		mode_fifo();
	else
		setup_failed("unknown mode");
	return finish();
}
