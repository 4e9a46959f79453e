# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The ipc family of ward's syscall table:
# System V shared memory, message queues and semaphore sets: those made in
# the session are its own.
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

t "shm: System V shared memory made in the session can be attached" shm <<EOF
shmget(IPC_PRIVATE, 4096, IPC_CREAT|0600) = ID
shmat(ID, NULL, 0) = ADDR
read back: shared
shmdt(ADDR) = 0
shmctl(ID, IPC_RMID, NULL) = 0
shmget(IPC_PRIVATE, 4096, 0600) = ID
shmat(ID, NULL, SHM_RDONLY) = ADDR
shmctl(ID, IPC_RMID, NULL) = 0
shmget(KEY, 4096, IPC_CREAT|0600) twice: same ID
shmget(KEY, 4096, IPC_CREAT|IPC_EXCL|0600) = EEXIST
shmat(ID, NULL, SHM_RDONLY) = ADDR
shmctl(ID, IPC_RMID, NULL) = 0
shmget(IPC_PRIVATE, 4096, IPC_CREAT|0200) = ID
shmctl(ID, IPC_RMID, NULL) = 0
EOF

# Message queues and semaphore sets: made by ward, listed, used by the
# session (a child too); an object ward did not make is refused (attacks:
# proc ipc), one that is not there is the kernel's EINVAL.
chk_msg() {
	logged '"event":"process"' '"syscall":"msgget"' '"decision":"allow"'
	logged '"event":"process"' '"syscall":"msgsnd"' '"decision":"allow"'
	logged '"syscall":"msgsnd"' '"decision":"error"' '"errno":"EINVAL"'
}
t -c chk_msg "msg: System V message queues made in the session can be used" msg <<EOF
msgget(IPC_PRIVATE, IPC_CREAT|0600) = ID
msgsnd(ID, "queued") = 0
msgrcv(ID) = 7 "queued"
a child's msgsnd(ID): sent
msgctl(ID, IPC_STAT) = 0
msg_qnum = 1
msgrcv(ID, type 2) = 13 "from a child"
msgctl(ID, IPC_RMID) = 0
msgsnd(ID) after IPC_RMID = EINVAL
msgget(IPC_PRIVATE, 0600) = ID
msgsnd(ID, "queued") = 0
msgctl(ID, IPC_RMID) = 0
msgget(KEY, IPC_CREAT|0600) twice, then msgget(KEY, 0): same ID
msgget(KEY, IPC_CREAT|IPC_EXCL|0600) = EEXIST
msgsnd(ID, "queued") = 0
msgctl(ID, IPC_RMID) = 0
msgget(IPC_PRIVATE, IPC_CREAT|0200) = ID
msgsnd(ID, "queued") = 0
msgctl(ID, IPC_RMID) = 0
msgget(a key no one made, 0) = ENOENT
msgsnd(an id that is no queue) = EINVAL
EOF

chk_sem() {
	logged '"event":"process"' '"syscall":"semget"' '"decision":"allow"'
	logged '"event":"process"' '"syscall":"semtimedop"' '"decision":"allow"'
}
t -c chk_sem "sem: System V semaphore sets made in the session can be used" sem <<EOF
semget(IPC_PRIVATE, 2, IPC_CREAT|0600) = ID
semctl(ID, 0, SETVAL, 3) = 0
semop(ID, sem 0 down) = 0
semtimedop(ID, sem 0 down, 0 s) = 0
semop(ID, sem 1 up) = 0
a child's semop(ID, sem 0 down): taken
semctl(ID, 0, GETVAL) = 0
semctl(ID, 1, GETVAL) = 1
semop(ID, sem 0 down) at 0 = EAGAIN
semctl(ID, 0, IPC_STAT) = 0
sem_nsems = 2
semctl(ID, 0, IPC_RMID) = 0
semop(ID) after IPC_RMID = EINVAL
semget(KEY, 1, IPC_CREAT|0600) twice, then semget(KEY, 0, 0): same ID
semget(KEY, 1, IPC_CREAT|IPC_EXCL|0600) = EEXIST
semop(ID, sem 0 up) = 0
semctl(ID, 0, IPC_RMID) = 0
semop(an id that is no set) = EINVAL
EOF
