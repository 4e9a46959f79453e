/*
 * targets.h - the processes the signal programs aim at, by name:
 *     child   a child of this program (forked on first use; paused)
 *     dead    a child that has exited and been reaped
 *     zombie  a child that has exited and is not reaped yet
 *     self    this program
 *     parent  its parent (under ward run: ward itself)
 *     init    pid 1
 *     lonegroup  minus a process group whose leader (a child) has exited, with
 *             a paused grandchild left in it
 *     zombiegroup  the same, the leader not reaped yet
 *     N       that number (0, -1, ... as they are)
 * and printed by name, so the output does not depend on pid numbers.
 */
#ifndef PROGS_TARGETS_H
#define PROGS_TARGETS_H

#include "common.h"

#include <sys/wait.h>

static pid_t child_pid, dead_pid, zombie_pid, lone_pgrp;
static int lone_zombie;

static inline pid_t child(void)
{
	if (child_pid > 0)
		return child_pid;
	fflush(stdout);
	child_pid = fork();
	if (child_pid == 0) {
		for (;;)
			pause();
	}
	return child_pid;
}

static inline pid_t dead(void)
{
	if (dead_pid > 0)
		return dead_pid;
	fflush(stdout);
	dead_pid = fork();
	if (dead_pid == 0)
		_exit(0);
	waitpid(dead_pid, NULL, 0);
	return dead_pid;
}

static inline pid_t zombie(void)
{
	siginfo_t si;

	if (zombie_pid > 0)
		return zombie_pid;
	fflush(stdout);
	zombie_pid = fork();
	if (zombie_pid == 0)
		_exit(0);
	waitid(P_PID, (id_t)zombie_pid, &si, WEXITED | WNOWAIT); /* exited, not reaped */
	return zombie_pid;
}

static inline pid_t lonegroup(void)
{
	int p[2];
	char c;

	if (lone_pgrp > 0)
		return -lone_pgrp;
	fflush(stdout);
	if (pipe(p) < 0)
		return 0;
	lone_pgrp = fork();
	if (lone_pgrp == 0) {
		setpgid(0, 0);
		if (fork() == 0) {
			close(p[0]);
			close(p[1]); /* the leader may go: its member is in the group */
			for (;;)
				pause();
		}
		_exit(0);
	}
	close(p[1]);
	if (read(p[0], &c, 1) < 0) /* EOF: the member is in the group */
		c = 0;
	close(p[0]);
	if (lone_zombie) {
		siginfo_t si;
		waitid(P_PID, (id_t)lone_pgrp, &si, WEXITED | WNOWAIT);
	} else {
		waitpid(lone_pgrp, NULL, 0);
	}
	return -lone_pgrp;
}

static inline pid_t target(const char *s)
{
	if (strcmp(s, "child") == 0)
		return child();
	if (strcmp(s, "dead") == 0)
		return dead();
	if (strcmp(s, "zombie") == 0)
		return zombie();
	if (strcmp(s, "self") == 0)
		return getpid();
	if (strcmp(s, "parent") == 0)
		return getppid();
	if (strcmp(s, "init") == 0)
		return 1;
	if (strcmp(s, "lonegroup") == 0)
		return lonegroup();
	if (strcmp(s, "zombiegroup") == 0) {
		lone_zombie = 1;
		return lonegroup();
	}
	return (pid_t)strtol(s, NULL, 0);
}

static inline const char *target_name(const char *s)
{
	static char b[4][32];
	static int next;
	char *p = b[next++ % 4];
	if (strspn(s, "-0123456789") == strlen(s))
		return s;
	snprintf(p, 32, "%s", s);
	for (char *c = p; *c; c++)
		*c = (char)(*c - 'a' + 'A');
	return p;
}

/* After a signal was sent to the child: if it died of it, reap it and say how. */
static inline void reap_if_dead(void)
{
	int status;

	if (child_pid <= 0)
		return;
	/* The signals the tests send are fatal to the paused child: give it 2 s to die. */
	pid_t w = 0;
	for (int i = 0; i < 200 && w == 0; i++) {
		w = waitpid(child_pid, &status, WNOHANG);
		if (w == 0)
			usleep(10000);
	}
	if (w != child_pid)
		return;
	if (WIFSIGNALED(status))
		printf("wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == %s}], 0, NULL) = CHILD\n",
		       sigabbrev_np(WTERMSIG(status)) ? sigabbrev_np(WTERMSIG(status)) : "?");
	else
		printf("wait4(CHILD, [{WIFEXITED(s) && WEXITSTATUS(s) == %d}], 0, NULL) = CHILD\n",
		       WEXITSTATUS(status));
	fflush(stdout);
	child_pid = 0; /* a later "child" is a new one */
}

static inline void reap_all(void)
{
	if (lone_pgrp > 0)
		kill(-lone_pgrp, SIGKILL);
	if (lone_pgrp > 0 && lone_zombie)
		waitpid(lone_pgrp, NULL, 0);
	if (zombie_pid > 0)
		waitpid(zombie_pid, NULL, 0);
	if (child_pid > 0) {
		kill(child_pid, SIGKILL);
		waitpid(child_pid, NULL, 0);
	}
}

#endif
