/*
 * pid CALL ARG... [, CALL ARG...]... - the calls that reach another
 * process without sending it a signal, one line a call.  TARGET is a
 * process by name (see targets.h: self, child, parent, init, ...).
 *
 *   pipe                            pipe2(2): its ends, printed
 *   socketpair                      socketpair(2), AF_UNIX stream: its ends
 *   fcntl FD F_SETOWN TARGET        fcntl(2); also F_SETOWN -TARGET (its group)
 *   fcntl FD F_GETOWN_EX            prints the owner by name
 *   fcntl FD F_SETFL O_ASYNC        turns on SIGIO
 *   ioctl FD FIOSETOWN TARGET       ioctl(2) on a socket
 *   ioctl FD FIOASYNC 0|1
 *   prlimit64 TARGET RES            read RES (RLIMIT_NOFILE, RLIMIT_CORE, ...)
 *   prlimit64 TARGET RES CUR MAX    set it (unlimited: "inf")
 *   setrlimit RES CUR MAX
 *   setpriority PRIO_PROCESS|PRIO_PGRP|PRIO_USER TARGET NICE
 *   ioprio_set IOPRIO_WHO_PROCESS|IOPRIO_WHO_PGRP TARGET   to best effort, 4
 *   sched_setaffinity TARGET        to the CPUs the caller may use now
 *   sched_setscheduler TARGET       SCHED_OTHER, priority 0
 *   sched_setparam TARGET           priority 0
 *   sched_setattr TARGET            SCHED_OTHER, nice 0
 *   migrate_pages TARGET            from node 0 to node 0
 *   move_pages TARGET               no pages
 *   kcmp TARGET TARGET KCMP_VM|KCMP_FILES|KCMP_FS   prints 0 (same) or "differ"
 *   setpgid TARGET PGID             PGID a TARGET too (its pid as a group id)
 *
 * Every call is made with raw syscall(2), so that no libc wrapper changes
 * which call is made.  Exit status 0 when every call was made.
 */
#include "targets.h"

#include <sched.h>
#include <stdint.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>

#ifndef SYS_kcmp
#define SYS_kcmp 312
#endif
#define KCMP_FILE 0
#define KCMP_VM 1
#define KCMP_FILES 2
#define KCMP_FS 3
#define IOPRIO_CLASS_BE 2
#define IOPRIO_PRIO_VALUE(class, data) (((class) << 13) | (data))
#define FIOSETOWN_ 0x8901

static const struct sym psyms[] = {
	SYM(F_SETOWN), SYM(F_GETOWN), SYM(F_SETFL), SYM(O_ASYNC), SYM(FIOASYNC),
	{ "FIOSETOWN", FIOSETOWN_ },
	SYM(RLIMIT_NOFILE), SYM(RLIMIT_CORE), SYM(RLIMIT_NICE), SYM(RLIMIT_CPU),
	SYM(PRIO_PROCESS), SYM(PRIO_PGRP), SYM(PRIO_USER),
	{ "IOPRIO_WHO_PROCESS", 1 }, { "IOPRIO_WHO_PGRP", 2 },
	{ "KCMP_VM", KCMP_VM }, { "KCMP_FILES", KCMP_FILES }, { "KCMP_FS", KCMP_FS },
	{ NULL, 0 },
};

static unsigned long pnum(const char *s)
{
	for (const struct sym *y = psyms; y->name; y++)
		if (strcmp(y->name, s) == 0)
			return y->val;
	return num(s);
}

/* A target, or minus one ("-child": the child's process group). */
static pid_t ptarget(const char *s)
{
	return s[0] == '-' && s[1] >= 'a' && s[1] <= 'z' ? -target(s + 1) : target(s);
}

static const char *pname(const char *s)
{
	static char b[4][40];
	static int next;
	char *p = b[next++ % 4];
	if (s[0] == '-' && s[1] >= 'a' && s[1] <= 'z')
		snprintf(p, 40, "-%s", target_name(s + 1));
	else
		snprintf(p, 40, "%s", target_name(s));
	return p;
}

static rlim_t lim(const char *s)
{
	return strcmp(s, "inf") == 0 ? RLIM_INFINITY : (rlim_t)num(s);
}

static const char *fmt_lim(rlim_t v)
{
	static char b[2][24];
	static int next;
	char *p = b[next++ % 2];
	if (v == RLIM_INFINITY)
		return "inf";
	snprintf(p, 24, "%llu", (unsigned long long)v);
	return p;
}

struct sched_attr_ {
	uint32_t size, policy;
	uint64_t flags;
	int32_t nice;
	uint32_t priority;
	uint64_t runtime, deadline, period;
};

/* One call; w[0] its name.  0, or 2 on a usage error. */
static int call(char **w, int n)
{
	const char *op = w[0];
	long rc;

	if (strcmp(op, "pipe") == 0 && n == 1) {
		int p[2];
		rc = syscall(SYS_pipe2, p, 0);
		out(rc, errno, rc == 0 ? "pipe2([%d, %d], 0)" : "pipe2(...)", p[0], p[1]);
	} else if (strcmp(op, "socketpair") == 0 && n == 1) {
		int p[2];
		rc = syscall(SYS_socketpair, AF_UNIX, SOCK_STREAM, 0, p);
		out(rc, errno, rc == 0 ? "socketpair(AF_UNIX, SOCK_STREAM, 0, [%d, %d])" : "socketpair(...)",
		    p[0], p[1]);
	} else if (strcmp(op, "fcntl") == 0 && n == 3 && strcmp(w[2], "F_GETOWN_EX") == 0) {
		/* F_GETOWN_EX, not F_GETOWN: a small process group's -id reads as an errno. */
		int fd = (int)num(w[1]);
		struct f_owner_ex ex = { 0, 0 };
		rc = syscall(SYS_fcntl, fd, F_GETOWN_EX, &ex);
		const char *who = ex.pid == 0 ? "0" : ex.pid == getpid() ? "SELF"
			: ex.pid == child_pid ? "CHILD" : "OTHER";
		if (rc == -1)
			out(rc, errno, "fcntl(%d, F_GETOWN_EX, ...)", fd);
		else
			printf("fcntl(%d, F_GETOWN_EX, {%s, %s}) = %ld\n", fd,
			       ex.type == F_OWNER_PGRP ? "F_OWNER_PGRP" : ex.type == F_OWNER_PID ? "F_OWNER_PID"
			       : "F_OWNER_TID", who, rc);
	} else if (strcmp(op, "fcntl") == 0 && n == 4) {
		int fd = (int)num(w[1]), cmd = (int)pnum(w[2]);
		long arg = cmd == F_SETOWN ? (long)ptarget(w[3]) : (long)pnum(w[3]);
		rc = syscall(SYS_fcntl, fd, cmd, arg);
		out(rc, errno, "fcntl(%d, %s, %s)", fd, w[2], cmd == F_SETOWN ? pname(w[3]) : w[3]);
	} else if (strcmp(op, "ioctl") == 0 && n == 4) {
		int fd = (int)num(w[1]);
		unsigned long cmd = pnum(w[2]);
		int arg = cmd == FIOSETOWN_ ? (int)ptarget(w[3]) : (int)num(w[3]);
		rc = syscall(SYS_ioctl, fd, cmd, &arg);
		out(rc, errno, "ioctl(%d, %s, [%s])", fd, w[2], cmd == FIOSETOWN_ ? pname(w[3]) : w[3]);
	} else if (strcmp(op, "prlimit64") == 0 && n == 3) {
		struct rlimit old;
		rc = syscall(SYS_prlimit64, target(w[1]), (int)pnum(w[2]), NULL, &old);
		if (rc == 0)
			out(rc, 0, "prlimit64(%s, %s, NULL, {%s, %s})", target_name(w[1]), w[2],
			    fmt_lim(old.rlim_cur), fmt_lim(old.rlim_max));
		else
			out(rc, errno, "prlimit64(%s, %s, NULL, ...)", target_name(w[1]), w[2]);
	} else if (strcmp(op, "prlimit64") == 0 && n == 5) {
		struct rlimit new = { lim(w[3]), lim(w[4]) };
		rc = syscall(SYS_prlimit64, target(w[1]), (int)pnum(w[2]), &new, NULL);
		out(rc, errno, "prlimit64(%s, %s, {%s, %s}, NULL)", target_name(w[1]), w[2], w[3], w[4]);
	} else if (strcmp(op, "setrlimit") == 0 && n == 4) {
		struct rlimit new = { lim(w[2]), lim(w[3]) };
		rc = syscall(SYS_setrlimit, (int)pnum(w[1]), &new);
		out(rc, errno, "setrlimit(%s, {%s, %s})", w[1], w[2], w[3]);
	} else if (strcmp(op, "setpriority") == 0 && n == 4) {
		int which = (int)pnum(w[1]);
		pid_t who = which == PRIO_USER ? (pid_t)num(w[2]) : target(w[2]);
		rc = syscall(SYS_setpriority, which, who, (int)num(w[3]));
		out(rc, errno, "setpriority(%s, %s, %s)", w[1], target_name(w[2]), w[3]);
	} else if (strcmp(op, "ioprio_set") == 0 && n == 3) {
		rc = syscall(SYS_ioprio_set, (int)pnum(w[1]), target(w[2]),
			     IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4));
		out(rc, errno, "ioprio_set(%s, %s, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4))", w[1],
		    target_name(w[2]));
	} else if (strcmp(op, "sched_setaffinity") == 0 && n == 2) {
		cpu_set_t set;
		if (sched_getaffinity(0, sizeof(set), &set) < 0)
			return 2;
		rc = syscall(SYS_sched_setaffinity, target(w[1]), sizeof(set), &set);
		out(rc, errno, "sched_setaffinity(%s, %zu, [the caller's])", target_name(w[1]), sizeof(set));
	} else if (strcmp(op, "sched_setscheduler") == 0 && n == 2) {
		struct sched_param sp = { .sched_priority = 0 };
		rc = syscall(SYS_sched_setscheduler, target(w[1]), SCHED_OTHER, &sp);
		out(rc, errno, "sched_setscheduler(%s, SCHED_OTHER, [0])", target_name(w[1]));
	} else if (strcmp(op, "sched_setparam") == 0 && n == 2) {
		struct sched_param sp = { .sched_priority = 0 };
		rc = syscall(SYS_sched_setparam, target(w[1]), &sp);
		out(rc, errno, "sched_setparam(%s, [0])", target_name(w[1]));
	} else if (strcmp(op, "sched_setattr") == 0 && n == 2) {
		struct sched_attr_ a = { .size = sizeof(a), .policy = SCHED_OTHER, .nice = 0 };
		rc = syscall(SYS_sched_setattr, target(w[1]), &a, 0);
		out(rc, errno, "sched_setattr(%s, {SCHED_OTHER, nice 0}, 0)", target_name(w[1]));
	} else if (strcmp(op, "migrate_pages") == 0 && n == 2) {
		unsigned long node0 = 1;
		rc = syscall(SYS_migrate_pages, target(w[1]), 8 * sizeof(node0), &node0, &node0);
		out(rc, errno, "migrate_pages(%s, %zu, [0], [0])", target_name(w[1]), 8 * sizeof(node0));
	} else if (strcmp(op, "move_pages") == 0 && n == 2) {
		rc = syscall(SYS_move_pages, target(w[1]), 0UL, NULL, NULL, NULL, 0);
		out(rc, errno, "move_pages(%s, 0, NULL, NULL, NULL, 0)", target_name(w[1]));
	} else if (strcmp(op, "kcmp") == 0 && n == 4) {
		rc = syscall(SYS_kcmp, target(w[1]), target(w[2]), (int)pnum(w[3]), 0UL, 0UL);
		if (rc > 0)
			printf("kcmp(%s, %s, %s) = differ\n", target_name(w[1]), target_name(w[2]), w[3]);
		else
			out(rc, errno, "kcmp(%s, %s, %s)", target_name(w[1]), target_name(w[2]), w[3]);
	} else if (strcmp(op, "setpgid") == 0 && n == 3) {
		rc = syscall(SYS_setpgid, target(w[1]), target(w[2]));
		out(rc, errno, "setpgid(%s, %s)", target_name(w[1]), target_name(w[2]));
	} else {
		return 2;
	}
	fflush(stdout);
	return 0;
}

int main(int argc, char **argv)
{
	each_call(argc, argv, call, "pid CALL ARG... [, CALL ARG...]... (see pid.c)");
	reap_all();
	return 0;
}
