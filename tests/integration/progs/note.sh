# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The note family of ward's syscall table:
# umask: noted, not judged, so that ward creates files with the umask of
# the caller.
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

# ward creates with the umask it keeps for each fs_struct group, told by
# umask(2): a thread shares it, a thread without CLONE_FS and a fork have
# their own, clone(CLONE_FS) shares its maker's, an exec keeps the thread's.
chk_umask_groups() {
	mode_is um-a 644
	mode_is um-d-thread 600
	mode_is um-e 640
	mode_is um-f 606
	mode_is um-g-fork 666
	mode_is um-i-exec 600
}
t -c chk_umask_groups "umask: who shares it, as ward creates" umask <<EOF
main: umask(0022) = 0022
main: creat("um-a", 0666) -> 0644
main: umask(0077) = 0022
main: creat("um-b", 0666) -> 0600
pthread: umask(0027) = 0077
pthread: creat("um-c-pthread", 0666) -> 0640
main: creat("um-c", 0666) -> 0640
thread-nofs: umask(0077) = 0027
thread-nofs: creat("um-d-thread", 0666) -> 0600
main: creat("um-e", 0666) -> 0640
clone-fs: umask(0070) = 0027
main: creat("um-f", 0666) -> 0606
fork: umask(0000) = 0070
fork: creat("um-g-fork", 0666) -> 0666
main: creat("um-h", 0666) -> 0606
thread-exec: umask(0077) = 0070
after-exec: creat("um-i-exec", 0666) -> 0600
EOF

# umask(2) raced against creates: ward keeps a umask only for a task that
# shares its fs_struct with no other (two threads calling umask at once, or
# a umask(2) whose caller is killed before it runs, made it keep a wrong one).
t "umask: raced against creates, two ways" umask race 1000 <<EOF
two threads: no mismatch in 1000 rounds
clone-fs exit: no mismatch in 1000 rounds
EOF
