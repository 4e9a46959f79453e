# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The signal family of ward's syscall table:
# kill, tkill, tgkill, pidfd_open, pidfd_send_signal (and the rt_*sigqueueinfo
# calls): only toward processes of the session.
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

t "kill: a child of one's own, a reaped one, oneself" kill \
	child 0 \
	child SIGTERM \
	child SIGUSR1 \
	self 0 \
	0 0 \
	dead 0 <<EOF
kill(CHILD, 0) = 0
kill(CHILD, SIGTERM) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
kill(CHILD, SIGUSR1) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == USR1}], 0, NULL) = CHILD
kill(SELF, 0) = 0
kill(0, 0) = 0
kill(DEAD, 0) = -1 ESRCH
EOF

t "kill: a child that has exited and is not reaped yet" kill \
	zombie 0 \
	zombie SIGTERM <<EOF
kill(ZOMBIE, 0) = 0
kill(ZOMBIE, SIGTERM) = 0
EOF

t "tgkill: a child that has exited and is not reaped yet" tgkill \
	zombie zombie 0 <<EOF
tgkill(ZOMBIE, ZOMBIE, 0) = 0
EOF

t -P "pidfd_open: a child that has exited and is not reaped yet" pidfd_open \
	zombie 0 <<EOF
pidfd_open(ZOMBIE, 0) = 3
EOF

t "kill: a process group of the session whose leader has exited and is not reaped" kill \
	zombiegroup 0 \
	zombiegroup SIGTERM <<EOF
kill(ZOMBIEGROUP, 0) = 0
kill(ZOMBIEGROUP, SIGTERM) = 0
EOF

t "kill: a process group of the session whose leader has exited" kill \
	lonegroup 0 \
	lonegroup SIGTERM <<EOF
kill(LONEGROUP, 0) = 0
kill(LONEGROUP, SIGTERM) = 0
EOF

t -s 143 "kill: the exit status of a program killed by a signal is 128+N" kill self SIGTERM <<EOF
EOF

chk_kill_policy() {
	logged '"event":"signal"' '"syscall":"kill"' '"signal":0' '"decision":"deny"' '"errno":"EPERM"'
}
t -w -c chk_kill_policy "kill: not ward, not pid 1, not everyone" kill \
	parent 0 \
	parent SIGTERM \
	init 0 \
	-1 0 \
	-1 SIGKILL \
	child 0 <<EOF
kill(PARENT, 0) = -1 EPERM
kill(PARENT, SIGTERM) = -1 EPERM
kill(INIT, 0) = -1 EPERM
kill(-1, 0) = -1 EPERM
kill(-1, SIGKILL) = -1 EPERM
kill(CHILD, 0) = 0
EOF

t "tkill: a child of one's own, errors" tkill \
	child 0 \
	child SIGTERM \
	self 0 \
	dead 0 \
	-1 0 \
	0 0 <<EOF
tkill(CHILD, 0) = 0
tkill(CHILD, SIGTERM) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
tkill(SELF, 0) = 0
tkill(DEAD, 0) = -1 ESRCH
tkill(-1, 0) = -1 EINVAL
tkill(0, 0) = -1 EINVAL
EOF

t -w "tkill: not ward, not pid 1" tkill parent 0 init 0 <<EOF
tkill(PARENT, 0) = -1 EPERM
tkill(INIT, 0) = -1 EPERM
EOF

t "tgkill: a child of one's own, a mismatched pair" tgkill \
	child child 0 \
	self child 0 \
	self self 0 \
	child child SIGTERM <<EOF
tgkill(CHILD, CHILD, 0) = 0
tgkill(SELF, CHILD, 0) = -1 ESRCH
tgkill(SELF, SELF, 0) = 0
tgkill(CHILD, CHILD, SIGTERM) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
EOF

t -w "tgkill: not ward, not pid 1" tgkill parent parent 0 init init 0 parent self 0 <<EOF
tgkill(PARENT, PARENT, 0) = -1 EPERM
tgkill(INIT, INIT, 0) = -1 EPERM
tgkill(PARENT, SELF, 0) = -1 EPERM
EOF

t -P "pidfd_open: a child of one's own, oneself, errors" pidfd_open \
	child 0 \
	child PIDFD_NONBLOCK \
	self 0 \
	dead 0 \
	-1 0 \
	child 0x1 <<EOF
pidfd_open(CHILD, 0) = 3
pidfd_open(CHILD, PIDFD_NONBLOCK) = 3
pidfd_open(SELF, 0) = 3
pidfd_open(DEAD, 0) = -1 ESRCH
pidfd_open(-1, 0) = -1 EINVAL
pidfd_open(CHILD, 0x1) = -1 EINVAL
EOF

chk_pidfd_policy() {
	logged '"event":"signal"' '"syscall":"pidfd_open"' '"decision":"deny"' '"errno":"EPERM"'
}

t -P -w -c chk_pidfd_policy "pidfd_open: not ward, not pid 1" pidfd_open parent 0 init 0 <<EOF
pidfd_open(PARENT, 0) = -1 EPERM
pidfd_open(INIT, 0) = -1 EPERM
EOF

t -P "pidfd_send_signal: a child of one's own, a reaped one, not a pidfd" pidfd_send_signal \
	child 0 \
	child SIGTERM \
	self 0 \
	dead 0 \
	%f 0 \
	99 0 \
	@/proc/self 0 \
	@/proc/thread-self 0 <<EOF
pidfd_open(CHILD, 0) = 3
pidfd_send_signal(3, 0, NULL, 0) = 0
pidfd_open(CHILD, 0) = 3
pidfd_send_signal(3, SIGTERM, NULL, 0) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
pidfd_open(SELF, 0) = 3
pidfd_send_signal(3, 0, NULL, 0) = 0
pidfd_open(DEAD, 0) = 3
pidfd_send_signal(3, 0, NULL, 0) = -1 ESRCH
openat(AT_FDCWD, "f", O_RDONLY) = 3
pidfd_send_signal(3, 0, NULL, 0) = -1 EBADF
pidfd_send_signal(99, 0, NULL, 0) = -1 EBADF
openat(AT_FDCWD, "/proc/self", O_RDONLY|O_DIRECTORY) = 3
pidfd_send_signal(3, 0, NULL, 0) = 0
openat(AT_FDCWD, "/proc/thread-self", O_RDONLY|O_DIRECTORY) = 3
pidfd_send_signal(3, 0, NULL, 0) = -1 EBADF
EOF

t -P -w "pidfd_send_signal: no pidfd for ward or pid 1" pidfd_send_signal \
	parent SIGTERM \
	init 0 \
	'@/proc/1' 0 <<EOF
pidfd_open(PARENT, 0) = -1 EPERM
pidfd_send_signal(-1, SIGTERM, NULL, 0) = -1 EBADF
pidfd_open(INIT, 0) = -1 EPERM
pidfd_send_signal(-1, 0, NULL, 0) = -1 EBADF
openat(AT_FDCWD, "/proc/1", O_RDONLY|O_DIRECTORY) = -1 EACCES
pidfd_send_signal(-1, 0, NULL, 0) = -1 EBADF
EOF

# rt_sigqueueinfo and rt_tgsigqueueinfo (sigqueue(3), pthread_sigqueue(3))
# send a signal with data: the same rule as kill.
t "rt_sigqueueinfo: a child of one's own, oneself, a reaped child" rt_sigqueueinfo \
	child 0 \
	child SIGTERM \
	self SIGUSR1 \
	dead 0 <<EOF
rt_sigqueueinfo(CHILD, 0, {si_code=SI_QUEUE}) = 0
rt_sigqueueinfo(CHILD, SIGTERM, {si_code=SI_QUEUE}) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
rt_sigqueueinfo(SELF, SIGUSR1, {si_code=SI_QUEUE}) = 0
rt_sigqueueinfo(DEAD, 0, {si_code=SI_QUEUE}) = -1 ESRCH
EOF

chk_sigqueue_policy() { # the log holds the refusal of a call of $1
	logged '"event":"signal"' "\"syscall\":\"$1\"" '"decision":"deny"' '"errno":"EPERM"'
}
chk_rt_sigqueueinfo() { chk_sigqueue_policy rt_sigqueueinfo; }
chk_rt_tgsigqueueinfo() { chk_sigqueue_policy rt_tgsigqueueinfo; }
t -w -c chk_rt_sigqueueinfo "rt_sigqueueinfo: not ward, not pid 1" rt_sigqueueinfo \
	parent SIGCONT \
	init 0 \
	self 0 <<EOF
rt_sigqueueinfo(PARENT, SIGCONT, {si_code=SI_QUEUE}) = -1 EPERM
rt_sigqueueinfo(INIT, 0, {si_code=SI_QUEUE}) = -1 EPERM
rt_sigqueueinfo(SELF, 0, {si_code=SI_QUEUE}) = 0
EOF

t "rt_tgsigqueueinfo: a child of one's own, oneself, a thread not of the group" rt_tgsigqueueinfo \
	child child 0 \
	child child SIGTERM \
	self self SIGUSR1 \
	self child 0 <<EOF
rt_tgsigqueueinfo(CHILD, CHILD, 0, {si_code=SI_QUEUE}) = 0
rt_tgsigqueueinfo(CHILD, CHILD, SIGTERM, {si_code=SI_QUEUE}) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
rt_tgsigqueueinfo(SELF, SELF, SIGUSR1, {si_code=SI_QUEUE}) = 0
rt_tgsigqueueinfo(SELF, CHILD, 0, {si_code=SI_QUEUE}) = -1 ESRCH
EOF

t -w -c chk_rt_tgsigqueueinfo "rt_tgsigqueueinfo: not ward, not pid 1" rt_tgsigqueueinfo \
	parent parent SIGCONT \
	init init 0 <<EOF
rt_tgsigqueueinfo(PARENT, PARENT, SIGCONT, {si_code=SI_QUEUE}) = -1 EPERM
rt_tgsigqueueinfo(INIT, INIT, 0, {si_code=SI_QUEUE}) = -1 EPERM
EOF
