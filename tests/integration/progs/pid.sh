# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The pid family of ward's syscall table:
# the calls that reach another process without a signal call (SIGIO
# owners, resource limits, priorities, scheduling, page migration, kcmp,
# setpgid): only toward processes of the session.
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

t "pid: SIGIO owners, limits, priorities and scheduling of the session's own processes" pid \
	pipe , socketpair , setpgid child child , \
	fcntl 3 F_SETOWN child , fcntl 3 F_GETOWN_EX , fcntl 3 F_SETOWN -child , fcntl 3 F_GETOWN_EX , \
	fcntl 3 F_SETOWN self , fcntl 3 F_SETFL O_ASYNC , ioctl 5 FIOSETOWN child , ioctl 5 FIOASYNC 1 , \
	prlimit64 child RLIMIT_NOFILE 512 1024 , prlimit64 child RLIMIT_NOFILE , \
	sched_setattr child , sched_setscheduler child , sched_setparam child , sched_setaffinity child , \
	setpriority PRIO_PROCESS child 5 , setpriority PRIO_PGRP child 6 , \
	ioprio_set IOPRIO_WHO_PROCESS child , ioprio_set IOPRIO_WHO_PGRP child , \
	migrate_pages child , move_pages child , kcmp self child KCMP_VM , kcmp self self KCMP_FILES , \
	setpgid 0 0 <<EOF
pipe2([3, 4], 0) = 0
socketpair(AF_UNIX, SOCK_STREAM, 0, [5, 6]) = 0
setpgid(CHILD, CHILD) = 0
fcntl(3, F_SETOWN, CHILD) = 0
fcntl(3, F_GETOWN_EX, {F_OWNER_PID, CHILD}) = 0
fcntl(3, F_SETOWN, -CHILD) = 0
fcntl(3, F_GETOWN_EX, {F_OWNER_PGRP, CHILD}) = 0
fcntl(3, F_SETOWN, SELF) = 0
fcntl(3, F_SETFL, O_ASYNC) = 0
ioctl(5, FIOSETOWN, [CHILD]) = 0
ioctl(5, FIOASYNC, [1]) = 0
prlimit64(CHILD, RLIMIT_NOFILE, {512, 1024}, NULL) = 0
prlimit64(CHILD, RLIMIT_NOFILE, NULL, {512, 1024}) = 0
sched_setattr(CHILD, {SCHED_OTHER, nice 0}, 0) = 0
sched_setscheduler(CHILD, SCHED_OTHER, [0]) = 0
sched_setparam(CHILD, [0]) = 0
sched_setaffinity(CHILD, 128, [the caller's]) = 0
setpriority(PRIO_PROCESS, CHILD, 5) = 0
setpriority(PRIO_PGRP, CHILD, 6) = 0
ioprio_set(IOPRIO_WHO_PROCESS, CHILD, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4)) = 0
ioprio_set(IOPRIO_WHO_PGRP, CHILD, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4)) = 0
migrate_pages(CHILD, 64, [0], [0]) = 0
move_pages(CHILD, 0, NULL, NULL, NULL, 0) = 0
kcmp(SELF, CHILD, KCMP_VM) = differ
kcmp(SELF, SELF, KCMP_FILES) = 0
setpgid(0, 0) = 0
EOF

# Aimed at ward (the parent) or pid 1: refused, so the agent can neither
# make ward a SIGIO target nor lower its limits, priority or CPUs.
chk_pid_policy() {
	logged '"event":"signal"' '"syscall":"fcntl"' '"decision":"deny"' '"errno":"EPERM"'
	logged '"event":"process"' '"syscall":"prlimit64"' '"decision":"deny"' '"errno":"EPERM"'
	logged '"event":"process"' '"syscall":"setpgid"' '"decision":"deny"' '"errno":"EPERM"'
}
t -w -c chk_pid_policy "pid: aimed at ward or pid 1: EPERM" pid \
	pipe , socketpair , fcntl 3 F_SETOWN parent , ioctl 5 FIOSETOWN parent , \
	prlimit64 parent RLIMIT_NOFILE 64 64 , prlimit64 init RLIMIT_CPU , \
	setpriority PRIO_PROCESS parent 19 , ioprio_set IOPRIO_WHO_PROCESS parent , \
	sched_setaffinity parent , sched_setscheduler init , sched_setparam parent , sched_setattr parent , \
	migrate_pages parent , move_pages init , kcmp self parent KCMP_VM , setpgid 0 parent <<EOF
pipe2([3, 4], 0) = 0
socketpair(AF_UNIX, SOCK_STREAM, 0, [5, 6]) = 0
fcntl(3, F_SETOWN, PARENT) = -1 EPERM
ioctl(5, FIOSETOWN, [PARENT]) = -1 EPERM
prlimit64(PARENT, RLIMIT_NOFILE, {64, 64}, NULL) = -1 EPERM
prlimit64(INIT, RLIMIT_CPU, NULL, ...) = -1 EPERM
setpriority(PRIO_PROCESS, PARENT, 19) = -1 EPERM
ioprio_set(IOPRIO_WHO_PROCESS, PARENT, IOPRIO_PRIO_VALUE(IOPRIO_CLASS_BE, 4)) = -1 EPERM
sched_setaffinity(PARENT, 128, [the caller's]) = -1 EPERM
sched_setscheduler(INIT, SCHED_OTHER, [0]) = -1 EPERM
sched_setparam(PARENT, [0]) = -1 EPERM
sched_setattr(PARENT, {SCHED_OTHER, nice 0}, 0) = -1 EPERM
migrate_pages(PARENT, 64, [0], [0]) = -1 EPERM
move_pages(INIT, 0, NULL, NULL, NULL, 0) = -1 EPERM
kcmp(SELF, PARENT, KCMP_VM) = -1 EPERM
setpgid(0, PARENT) = -1 EPERM
EOF

# Core dumps stay off in a session (the kernel writes them where no rule
# looks): the limits are 0, 0 from the start, 0 may be set again, more not.
chk_core_policy() {
	logged '"op":"rlimit"' '"decision":"deny"' '"errno":"EPERM"'
}
t -w -c chk_core_policy "pid: core dump limits stay 0" pid \
	prlimit64 self RLIMIT_CORE , setrlimit RLIMIT_CORE 0 0 , setrlimit RLIMIT_CORE 0 inf , \
	prlimit64 self RLIMIT_CORE 4096 4096 , prlimit64 self RLIMIT_CORE <<EOF
prlimit64(SELF, RLIMIT_CORE, NULL, {0, 0}) = 0
setrlimit(RLIMIT_CORE, {0, 0}) = 0
setrlimit(RLIMIT_CORE, {0, inf}) = -1 EPERM
prlimit64(SELF, RLIMIT_CORE, {4096, 4096}, NULL) = -1 EPERM
prlimit64(SELF, RLIMIT_CORE, NULL, {0, 0}) = 0
EOF
