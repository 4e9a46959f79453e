/*
 * clones - a helper, not a syscall test: makes a task each way a process
 * can (fork, vfork, clone with CLONE_PARENT, clone with no exit signal, a
 * thread), and an orphan (a child whose parent exits before it logs), and
 * each one opens "/nonexistent-ward-TAG" and prints
 *
 *     TAG PID TID PPID
 *
 * as the kernel tells it (getpid, gettid, getppid), so that
 * tests/integration/run.sh can check the ids in the log's event for that
 * open against them: ward works them out from the creator's registers.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static int done[2];

/* Async-signal-safe: a vfork child shares the parent's memory and stdio. */
static void mark(const char *tag)
{
	char p[64], line[128];
	snprintf(p, sizeof(p), "/nonexistent-ward-%s", tag);
	syscall(SYS_openat, AT_FDCWD, p, O_RDONLY);
	int n = snprintf(line, sizeof(line), "%s %d %d %d\n", tag, (int)getpid(),
			 (int)syscall(SYS_gettid), (int)getppid());
	if (write(STDOUT_FILENO, line, (size_t)n) != n)
		_exit(1);
}

static void *thread(void *arg)
{
	(void)arg;
	mark("thread");
	return NULL;
}

/* A raw clone that returns twice, as fork does (no CLONE_VM, no new stack). */
static void clone_child(const char *tag, unsigned long flags)
{
	long pid = syscall(SYS_clone, flags, 0, NULL, NULL, 0);
	if (pid == 0) {
		mark(tag);
		if (write(done[1], "x", 1) != 1)
			_exit(1);
		_exit(0);
	}
	/* Not necessarily ours to wait for (CLONE_PARENT): wait for its word. */
	char c;
	if (pid < 0 || read(done[0], &c, 1) != 1)
		_exit(1);
	if (waitpid((pid_t)pid, NULL, __WALL) < 0) {
		/* CLONE_PARENT: our parent's child, reaped there. */
	}
}

int main(void)
{
	pthread_t t;
	pid_t pid;

	if (pipe(done) < 0)
		return 2;
	mark("main");
	if ((pid = fork()) == 0) {
		mark("fork");
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	if ((pid = vfork()) == 0) {
		mark("vfork");
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	clone_child("parent", CLONE_PARENT | SIGCHLD);
	clone_child("nosignal", 0);
	if (pthread_create(&t, NULL, thread, NULL) != 0)
		return 2;
	pthread_join(t, NULL);
	/* An orphan: its parent exits first; it speaks once the kernel has reparented it. */
	if ((pid = fork()) == 0) {
		pid_t mid = getpid();
		if (fork() == 0) {
			for (int i = 0; i < 2000 && getppid() == mid; i++)
				usleep(1000);
			/*
			 * The kernel reparents at the parent's exit; ward learns of
			 * it when its tracer has reaped the parent, a moment later.
			 */
			usleep(200000);
			mark("orphan");
			if (write(done[1], "x", 1) != 1)
				_exit(1);
			_exit(0);
		}
		_exit(0);
	}
	waitpid(pid, NULL, 0);
	char c;
	if (read(done[0], &c, 1) != 1)
		return 2;
	return 0;
}
