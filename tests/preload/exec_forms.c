/*
 * exec_forms.c - every way a program starts another, for preload.sh.
 *
 *   exec_forms FORM
 *
 * Runs a shell that prints whether libward-preload.so is mapped in it and
 * what WARD_HINT it got, after taking both variables away: the forms that
 * take an environment get one with only PATH in it, the others run after
 * the program dropped the variables from its own environment.  Under
 * ward's channel the library must be back in the shell either way.
 *
 * FORM errors prints what a few calls return and set errno to, so that
 * the driver can compare a run with the library to one without.
 * FORM backtrace says whose backtrace() the program gets.
 * FORM threads runs more threads than the channel has slots in a window,
 * each making wrapped calls while a signal handler makes more, and says
 * whether every call gave the right result.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <execinfo.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#define SCRIPT \
	"if grep -q libward-preload /proc/$$/maps; then echo mapped; else echo not-mapped; fi; " \
	"echo \"hint=$WARD_HINT\""

static char *sh_argv[] = { "sh", "-c", SCRIPT, NULL };
static char *clean_env[] = { "PATH=/usr/bin:/bin", NULL };

static int wait_child(pid_t pid)
{
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 1;
}

static void drop_vars(void)
{
	unsetenv("LD_PRELOAD");
	unsetenv("WARD_HINT");
}

static void *stat_loop(void *arg)
{
	struct stat st;
	for (;;) {
		stat("/", &st);
		if (arg != NULL)
			break;
	}
	return NULL;
}

static atomic_int wrong;

/* A wrapped call inside a signal handler, in the middle of another wrapped call. */
static void on_signal(int sig)
{
	struct stat st;
	int e = errno;
	(void)sig;
	if (stat("/", &st) != 0 || !S_ISDIR(st.st_mode))
		wrong++;
	errno = e;
}

static void *threads_worker(void *arg)
{
	struct stat st;
	(void)arg;
	for (int i = 0; i < 2000; i++) {
		if (stat("/", &st) != 0 || !S_ISDIR(st.st_mode))
			wrong++;
		errno = 0;
		if (access("/nonexistent-ward-test", F_OK) != -1 || errno != ENOENT)
			wrong++;
		if (i % 200 == 0)
			pthread_kill(pthread_self(), SIGUSR1);
	}
	return NULL;
}

/* Three waves of 40 threads: slots are claimed, given back at exit and claimed again. */
static int threads(void)
{
	signal(SIGUSR1, on_signal);
	for (int wave = 0; wave < 3; wave++) {
		pthread_t t[40];
		for (int i = 0; i < 40; i++)
			if (pthread_create(&t[i], NULL, threads_worker, NULL) != 0)
				return 1;
		for (int i = 0; i < 40; i++)
			pthread_join(t[i], NULL);
	}
	printf("threads: %d wrong results\n", (int)wrong);
	return 0;
}

static void say(const char *what, long r)
{
	printf("%s = %ld errno %s\n", what, r, r < 0 ? strerrorname_np(errno) : "-");
	errno = 0;
}

static int errors(void)
{
	struct stat st;
	char buf[64];
	errno = 0;
	say("open(/nonexistent/x)", open("/nonexistent/x", O_RDONLY));
	say("openat(-1, rel)", openat(-1, "rel", O_RDONLY));
	say("stat(/nonexistent)", stat("/nonexistent", &st));
	say("lstat(\"\")", lstat("", &st));
	say("readlink(/)", readlink("/", buf, sizeof(buf)));
	say("mkdir(/)", mkdir("/", 0755));
	say("unlink(/nonexistent)", unlink("/nonexistent"));
	say("access(/nonexistent)", access("/nonexistent", F_OK));
	say("connect(-1)", connect(-1, NULL, 0));
	say("sendto(-1)", sendto(-1, "x", 1, 0, NULL, 0));
	say("socket(-1)", socket(-1, SOCK_STREAM, 0));
	say("execve(/nonexistent)", execve("/nonexistent", sh_argv, clean_env));
	say("execvp(nonexistent-prog)", execvp("nonexistent-prog-ward", sh_argv));
	say("fopen(/nonexistent) != NULL", fopen("/nonexistent", "r") != NULL ? 0 : -1);
	say("realpath(/nonexistent) != NULL", realpath("/nonexistent", NULL) != NULL ? 0 : -1);
	pid_t pid;
	printf("posix_spawn(/nonexistent) = %d\n", posix_spawn(&pid, "/nonexistent", NULL, NULL, sh_argv, clean_env));
	errno = 1234;
	(void)getpid();
	printf("errno kept across a call that does not fail: %d\n", errno);
	return 0;
}

int main(int argc, char **argv)
{
	const char *form = argc > 1 ? argv[1] : "";
	pid_t pid;

	fflush(stdout);
	if (strcmp(form, "errors") == 0)
		return errors();
	if (strcmp(form, "threads") == 0)
		return threads();
	if (strcmp(form, "backtrace") == 0) {
		Dl_info info;
		void *pcs[8];
		void *fn = dlsym(RTLD_DEFAULT, "backtrace");
		if (fn == NULL || dladdr(fn, &info) == 0 || info.dli_fname == NULL)
			return 1;
		printf("backtrace from %s, %s\n", strstr(info.dli_fname, "libc.so") ? "libc" : info.dli_fname,
		       backtrace(pcs, 8) > 0 ? "frames" : "no frames");
		return 0;
	}
	if (strcmp(form, "execve") == 0)
		return execve("/bin/sh", sh_argv, clean_env), 127;
	if (strcmp(form, "execvpe") == 0)
		return execvpe("sh", sh_argv, clean_env), 127;
	if (strcmp(form, "execle") == 0)
		return execle("/bin/sh", "sh", "-c", SCRIPT, (char *)NULL, clean_env), 127;
	if (strcmp(form, "fexecve") == 0) {
		int fd = open("/bin/sh", O_RDONLY | O_CLOEXEC);
		return fexecve(fd, sh_argv, clean_env), 127;
	}
	if (strcmp(form, "execveat") == 0)
		return execveat(AT_FDCWD, "/bin/sh", sh_argv, clean_env, 0), 127;
	if (strcmp(form, "posix_spawn") == 0)
		return posix_spawn(&pid, "/bin/sh", NULL, NULL, sh_argv, clean_env) == 0 ? wait_child(pid) : 1;
	if (strcmp(form, "posix_spawnp") == 0)
		return posix_spawnp(&pid, "sh", NULL, NULL, sh_argv, clean_env) == 0 ? wait_child(pid) : 1;
	if (strcmp(form, "vfork") == 0) {
		pid = vfork();
		if (pid == 0) {
			execve("/bin/sh", sh_argv, clean_env);
			_exit(127);
		}
		return wait_child(pid);
	}
	if (strcmp(form, "fork-threads") == 0) {
		/* Threads in wrapped calls while another forks and execs. */
		pthread_t t[3];
		for (int i = 0; i < 3; i++)
			pthread_create(&t[i], NULL, stat_loop, NULL);
		pid = fork();
		if (pid == 0) {
			stat_loop((void *)1); /* the child's own first hint: a slot of its own */
			execve("/bin/sh", sh_argv, clean_env);
			_exit(127);
		}
		return wait_child(pid);
	}
	/* The rest take the program's own environment. */
	drop_vars();
	if (strcmp(form, "execv") == 0)
		return execv("/bin/sh", sh_argv), 127;
	if (strcmp(form, "execvp") == 0)
		return execvp("sh", sh_argv), 127;
	if (strcmp(form, "execl") == 0)
		return execl("/bin/sh", "sh", "-c", SCRIPT, (char *)NULL), 127;
	if (strcmp(form, "execlp") == 0)
		return execlp("sh", "sh", "-c", SCRIPT, (char *)NULL), 127;
	if (strcmp(form, "system") == 0)
		return system(SCRIPT) == 0 ? 0 : 1;
	if (strcmp(form, "popen") == 0) {
		char line[256];
		FILE *f = popen(SCRIPT, "r");
		if (f == NULL)
			return 1;
		while (fgets(line, sizeof(line), f) != NULL)
			fputs(line, stdout);
		return pclose(f) == 0 ? 0 : 1;
	}
	if (strcmp(form, "posix_spawn-environ") == 0)
		return posix_spawn(&pid, "/bin/sh", NULL, NULL, sh_argv, environ) == 0 ? wait_child(pid) : 1;
	fprintf(stderr, "exec_forms: unknown form %s\n", form);
	return 2;
}
