/*
 * attack_env - drop the environment (and with it LD_PRELOAD and anything
 * ward might have put there) before exec, then read the secret.
 *
 * Three ways: execve of this program with an empty environment; `env -i
 * /bin/cat secret/x`; unsetenv("LD_PRELOAD") and exec.  The preload
 * library is not a boundary: the seccomp filter is inherited across every
 * exec whatever the environment says.
 */
#include "attack.h"

#include <limits.h>

static char self[PATH_MAX];

static void exec_self_clean(void *arg)
{
	char *args[] = { self, "child", NULL };
	char *env[] = { NULL };
	(void)arg;
	execve(self, args, env);
}

static void exec_env_i(void *arg)
{
	char *args[] = { "env", "-i", "/bin/cat", SECRET, NULL };
	(void)arg;
	execvp("env", args);
}

static void exec_unset(void *arg)
{
	char *args[] = { self, "child", NULL };
	(void)arg;
	unsetenv("LD_PRELOAD");
	unsetenv("LD_LIBRARY_PATH");
	setenv("LD_PRELOAD", "", 1);
	execv(self, args);
}

static void run(const char *how, void (*fn)(void *))
{
	char out[4096];
	int st = run_capture(fn, NULL, out, sizeof(out));

	if (is_secret(out, strlen(out)))
		leak(how, strstr(out, SECRET_PREFIX), strlen(strstr(out, SECRET_PREFIX)));
	else if (strstr(out, strerror(EACCES)) != NULL)
		blocked("%s (%s): %.200s", how, wstatus(st), out);
	else
		missed("%s (%s): not refused by the policy: %.200s", how, wstatus(st), out);
}

int main(int argc, char **argv)
{
	if (argc > 1 && strcmp(argv[1], "child") == 0) {
		/* With no environment at all: read the secret. */
		int fd = open(SECRET, O_RDONLY);
		if (fd < 0) {
			printf("child: open(secret/x): %s (LD_PRELOAD=%s)\n", strerror(errno),
			       getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "(unset)");
			return 0;
		}
		char buf[256];
		ssize_t n = read(fd, buf, sizeof(buf) - 1);
		buf[n > 0 ? n : 0] = '\0';
		printf("child read: %s\n", buf);
		return 1;
	}
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0) {
		/* /proc/self is refused by some versions of ward: fall back to argv[0]. */
		if (realpath(argv[0], self) == NULL)
			setup_failed("find my own path");
	} else {
		self[n] = '\0';
	}
	say("note: LD_PRELOAD=%s", getenv("LD_PRELOAD") ? getenv("LD_PRELOAD") : "(unset)");
	run("execve(self, empty environment) then open(secret/x)", exec_self_clean);
	run("env -i /bin/cat secret/x", exec_env_i);
	run("unsetenv(LD_PRELOAD), exec, open(secret/x)", exec_unset);
	return finish();
}
