/*
 * sem.c - System V semaphore sets made and used inside the session:
 * semget(IPC_PRIVATE), semctl SETVAL and GETVAL, semop, semtimedop, a
 * child that takes one, semctl(IPC_STAT), semctl(IPC_RMID) and the set
 * gone after; a key made, then found again, and IPC_EXCL on it; semop on
 * an id that is no set (EINVAL).
 */
#include "common.h"

#include <sys/ipc.h>
#include <sys/sem.h>
#include <sys/wait.h>

union semun {
	int val;
	struct semid_ds *buf;
	unsigned short *array;
};

static void show(const char *call, long rc)
{
	if (rc < 0)
		printf("%s = %s\n", call, strerrorname_np(errno));
	else
		printf("%s = %ld\n", call, rc);
}

int main(void)
{
	struct sembuf down = { 0, -1, IPC_NOWAIT }, up = { 1, 1, 0 };
	struct timespec zero = { 0, 0 };
	struct semid_ds ds;

	long id = syscall(SYS_semget, IPC_PRIVATE, 2, IPC_CREAT | 0600);
	printf("semget(IPC_PRIVATE, 2, IPC_CREAT|0600) = %s\n", id < 0 ? strerrorname_np(errno) : "ID");
	if (id < 0)
		return 1;
	show("semctl(ID, 0, SETVAL, 3)", syscall(SYS_semctl, id, 0, SETVAL, (union semun){ .val = 3 }));
	show("semop(ID, sem 0 down)", syscall(SYS_semop, id, &down, 1));
	show("semtimedop(ID, sem 0 down, 0 s)", syscall(SYS_semtimedop, id, &down, 1, &zero));
	show("semop(ID, sem 1 up)", syscall(SYS_semop, id, &up, 1));
	pid_t pid = fork();
	if (pid == 0)
		_exit(syscall(SYS_semop, id, &down, 1) == 0 ? 0 : 1);
	int st;
	waitpid(pid, &st, 0);
	printf("a child's semop(ID, sem 0 down): %s\n",
	       WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "taken" : "failed");
	show("semctl(ID, 0, GETVAL)", syscall(SYS_semctl, id, 0, GETVAL));
	show("semctl(ID, 1, GETVAL)", syscall(SYS_semctl, id, 1, GETVAL));
	show("semop(ID, sem 0 down) at 0", syscall(SYS_semop, id, &down, 1));
	show("semctl(ID, 0, IPC_STAT)", syscall(SYS_semctl, id, 0, IPC_STAT, (union semun){ .buf = &ds }));
	printf("sem_nsems = %lu\n", (unsigned long)ds.sem_nsems);
	show("semctl(ID, 0, IPC_RMID)", syscall(SYS_semctl, id, 0, IPC_RMID));
	show("semop(ID) after IPC_RMID", syscall(SYS_semop, id, &up, 1));

	/* A key: made once, found again (not made), used both times. */
	key_t key = (key_t)(0x57c0000 | (getpid() & 0xffff));
	long a = syscall(SYS_semget, key, 1, IPC_CREAT | 0600);
	long b = syscall(SYS_semget, key, 1, IPC_CREAT | 0600);
	long c = syscall(SYS_semget, key, 0, 0);
	printf("semget(KEY, 1, IPC_CREAT|0600) twice, then semget(KEY, 0, 0): %s\n",
	       a >= 0 && a == b && b == c ? "same ID" : "differ");
	long e = syscall(SYS_semget, key, 1, IPC_CREAT | IPC_EXCL | 0600);
	printf("semget(KEY, 1, IPC_CREAT|IPC_EXCL|0600) = %s\n", e < 0 ? strerrorname_np(errno) : "ID");
	up.sem_num = 0;
	show("semop(ID, sem 0 up)", syscall(SYS_semop, c, &up, 1));
	show("semctl(ID, 0, IPC_RMID)", syscall(SYS_semctl, c, 0, IPC_RMID));

	show("semop(an id that is no set)", syscall(SYS_semop, 0x7ffffffe, &up, 1));
	return 0;
}
