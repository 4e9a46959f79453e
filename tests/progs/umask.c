/*
 * umask - who a umask(2) is seen by.  The umask belongs to the fs_struct,
 * which threads share (CLONE_FS), a process made with clone(CLONE_FS)
 * shares with its maker, and a fork or a thread made without CLONE_FS
 * copies.  ward keeps the umask it creates with for each such group
 * (supervisor/proc.c): this program changes it in each kind of task and
 * creates a file after each change, in the task and in the main thread,
 * printing
 *
 *     WHO: umask(MASK) = OLD
 *     WHO: creat("NAME", 0666) -> 0MODE
 *
 * Last, a thread made without CLONE_FS sets its own umask and execs this
 * program again ("after-exec NAME"), which creates NAME with that umask:
 * the exec'd process has the thread's fs.  Raw system calls only, so the
 * same calls are made dynamic and static.
 */
#include "common.h"

#include <pthread.h>
#include <sched.h>
#include <sys/wait.h>

static int done[2];

/* Async-signal-safe and libc-state free: a bare clone shares the caller's TLS. */
static void say(const char *who, const char *what)
{
	char line[160];
	size_t n = 0;
	for (const char *s = who; *s && n < 60; s++)
		line[n++] = *s;
	line[n++] = ':';
	line[n++] = ' ';
	for (const char *s = what; *s && n < sizeof(line) - 1; s++)
		line[n++] = *s;
	line[n++] = '\n';
	if (syscall(SYS_write, STDOUT_FILENO, line, n) != (long)n)
		syscall(SYS_exit_group, 1);
}

static void octal(char *buf, unsigned v)
{
	buf[0] = (char)('0' + ((v >> 9) & 7));
	buf[1] = (char)('0' + ((v >> 6) & 7));
	buf[2] = (char)('0' + ((v >> 3) & 7));
	buf[3] = (char)('0' + (v & 7));
	buf[4] = '\0';
}

static void set_umask(const char *who, unsigned m)
{
	char what[64] = "umask(", a[8], b[8];
	long old = syscall(SYS_umask, m);
	octal(a, m);
	octal(b, (unsigned)old);
	strcat(what, a);
	strcat(what, ") = ");
	strcat(what, b);
	say(who, what);
}

static void create(const char *who, const char *name)
{
	char what[96] = "creat(\"", m[8];
	struct stat st;
	long fd = syscall(SYS_creat, name, 0666);
	strcat(what, name);
	strcat(what, "\", 0666) -> ");
	if (fd < 0 || syscall(SYS_fstat, fd, &st) < 0) {
		strcat(what, "failed");
	} else {
		octal(m, st.st_mode & 07777);
		strcat(what, m);
		syscall(SYS_close, fd);
	}
	say(who, what);
}

static void *pthread_body(void *arg)
{
	(void)arg;
	set_umask("pthread", 027);
	create("pthread", "um-c-pthread");
	return NULL;
}

/* A thread without CLONE_FS: its own umask. */
static char stack[2][64 * 1024] __attribute__((aligned(16)));
static char *exec_self;

static int bare_thread(void *arg)
{
	const char *mode = arg;
	if (strcmp(mode, "exec") == 0) {
		set_umask("thread-exec", 077);
		char *argv[] = { exec_self, (char *)"after-exec", (char *)"um-i-exec", NULL };
		syscall(SYS_execve, exec_self, argv, (char *[]){ NULL });
		say("thread-exec", "execve failed");
		syscall(SYS_exit_group, 1);
	}
	set_umask("thread-nofs", 077);
	create("thread-nofs", "um-d-thread");
	if (syscall(SYS_write, done[1], "x", 1) != 1)
		syscall(SYS_exit_group, 1);
	syscall(SYS_exit, 0);
	return 0;
}

static void bare(int k, const char *mode)
{
	int flags = CLONE_VM | CLONE_THREAD | CLONE_SIGHAND | CLONE_SYSVSEM | CLONE_FILES;
	if (clone(bare_thread, stack[k] + sizeof(stack[k]), flags, (void *)mode) < 0) {
		say("main", "clone failed");
		_exit(1);
	}
}

int main(int argc, char **argv)
{
	pthread_t t;
	char c;
	long pid;

	if (argc == 3 && strcmp(argv[1], "after-exec") == 0) {
		create("after-exec", argv[2]);
		return 0;
	}
	exec_self = argv[0];
	if (pipe(done) < 0)
		return 2;
	set_umask("main", 022);
	create("main", "um-a");
	set_umask("main", 077);
	create("main", "um-b");

	/* A thread shares the umask. */
	if (pthread_create(&t, NULL, pthread_body, NULL) != 0 || pthread_join(t, NULL) != 0)
		return 1;
	create("main", "um-c");

	/* A thread made without CLONE_FS has its own. */
	bare(0, "nofs");
	if (read(done[0], &c, 1) != 1)
		return 1;
	create("main", "um-e");

	/* A process made with CLONE_FS shares its maker's. */
	pid = syscall(SYS_clone, CLONE_FS | SIGCHLD, 0, NULL, NULL, 0);
	if (pid == 0) {
		set_umask("clone-fs", 070);
		syscall(SYS_exit_group, 0);
	}
	if (pid < 0 || waitpid((pid_t)pid, NULL, 0) < 0)
		return 1;
	create("main", "um-f");

	/* A fork has a copy. */
	pid = fork();
	if (pid == 0) {
		set_umask("fork", 0);
		create("fork", "um-g-fork");
		syscall(SYS_exit_group, 0);
	}
	if (pid < 0 || waitpid((pid_t)pid, NULL, 0) < 0)
		return 1;
	create("main", "um-h");

	/* The umask of a thread that execs is the new program's. */
	bare(1, "exec");
	for (;;)
		pause();
}
