/*
 * attack_exec_race MODE - change what execve runs after ward has decided.
 * DESIGN.md §2 invariant 4: exec is decided at the notification and
 * verified at PTRACE_EVENT_EXEC (/proc/PID/exe and cmdline); a mismatch
 * kills the process.  So every exec must run the allowed program, fail,
 * or be killed: never run the denied one.
 *
 * The driver denies exec of bin/mycat (a copy of /bin/cat); bin/okcat is
 * made here as a symlink to /bin/true.  Every exec passes public/x as an
 * argument: PUBLIC-CONTENT in the output means bin/mycat ran.
 *
 *   path        a thread flips the execve path buffer between bin/okcat
 *               and bin/mycat (one 8-byte store) while the main thread
 *               calls execve in a loop
 *   argv        the same with argv[1] of `ld.so PROG public/x` (the loader
 *               is judged on PROG, read from argv)
 *   loaderlink  a thread swaps the symlink bin/lnk between /bin/true and
 *               mycat while children exec `ld.so bin/lnk public/x`: ward
 *               judges the link when it decides, ld.so opens it later
 */
#include "attack.h"

#include <pthread.h>

#define LDSO "/lib64/ld-linux-x86-64.so.2"

static union {
	char s[16];
	uint64_t w[2];
} buf __attribute__((aligned(16)));
static uint64_t w_ok, w_bad;
static volatile int stop;

static void *flipper(void *arg)
{
	(void)arg;
	for (unsigned long n = 0;; n++) {
		__atomic_store_n(&buf.w[0], (n & 1) ? w_bad : w_ok, __ATOMIC_RELAXED);
		for (volatile unsigned i = 0; i < ((n * 2654435761u) >> 26); i++)
			;
	}
	return NULL;
}

static const char *mode;

/* In a child: flip (path, argv modes) and exec until an exec happens. */
static void child_exec(void *arg)
{
	extern char **environ;
	pthread_t t;
	(void)arg;

	if (strcmp(mode, "loaderlink") != 0 && pthread_create(&t, NULL, flipper, NULL) != 0)
		_exit(90);
	for (int i = 0; i < 200; i++) {
		if (strcmp(mode, "path") == 0)
			execve(buf.s, (char *[]){ "x", PUBLIC, NULL }, environ);
		else if (strcmp(mode, "argv") == 0)
			execve(LDSO, (char *[]){ LDSO, buf.s, PUBLIC, NULL }, environ);
		else
			execve(LDSO, (char *[]){ LDSO, "bin/lnk", PUBLIC, NULL }, environ);
	}
	_exit(91); /* never got to exec */
}

static void *swapper(void *arg)
{
	(void)arg;
	while (!stop) {
		unlink("bin/lnk.tmp");
		if (symlink("/bin/true", "bin/lnk.tmp") == 0)
			rename("bin/lnk.tmp", "bin/lnk");
		unlink("bin/lnk.tmp");
		if (symlink("mycat", "bin/lnk.tmp") == 0)
			rename("bin/lnk.tmp", "bin/lnk");
	}
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long tries = 0, ok = 0, killed = 0, failed = 0, other = 0;
	pthread_t sw;

	mode = argc > 1 ? argv[1] : "path";
	if (strcmp(mode, "path") != 0 && strcmp(mode, "argv") != 0 && strcmp(mode, "loaderlink") != 0) {
		errno = EINVAL;
		setup_failed(mode);
	}
	if (symlink("/bin/true", "bin/okcat") < 0)
		setup_failed("symlink bin/okcat");
	memcpy(&w_ok, "bin/okcat", 8);
	memcpy(&w_bad, "bin/mycat", 8);
	memset(&buf, 0, sizeof(buf));
	memcpy(buf.s, "bin/okcat", 10);
	if (strcmp(mode, "loaderlink") == 0) {
		if (symlink("/bin/true", "bin/lnk") < 0)
			setup_failed("symlink bin/lnk");
		if (pthread_create(&sw, NULL, swapper, NULL) != 0)
			setup_failed("pthread_create");
	}

	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		char out[4096];
		int st = run_capture(child_exec, NULL, out, sizeof(out));
		tries++;
		if (strstr(out, PUBLIC_CONTENT) != NULL) {
			att_through = 1;
			say("LEAK: %s race: the denied bin/mycat ran (%s, after %lu tries)", mode,
			    wstatus(st), tries);
		} else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) {
			killed++;
		} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			ok++;
		} else if (WIFEXITED(st) && WEXITSTATUS(st) == 91) {
			failed++;
		} else {
			other++;
			if (other < 4)
				say("note: %s: %.200s", wstatus(st), out);
		}
	}
	stop = 1;
	if (strcmp(mode, "loaderlink") == 0)
		pthread_join(sw, NULL);
	say("note: %lu children: %lu ran the allowed program, %lu killed by ward, %lu never "
	    "exec'd, %lu other",
	    tries, ok, killed, failed, other);
	if (!att_through)
		say("blocked: %s race: bin/mycat never ran", mode);
	return finish();
}
