/*
 * shm.c - System V shared memory made and used inside the session:
 * shmget(IPC_PRIVATE), shmat, write, shmdt, shmctl(IPC_RMID).
 */
#include "common.h"

#include <sys/ipc.h>
#include <sys/shm.h>

int main(void)
{
	long id = syscall(SYS_shmget, IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	printf("shmget(IPC_PRIVATE, 4096, IPC_CREAT|0600) = %s\n", id < 0 ? "-1" : "ID");
	if (id < 0)
		return 1;
	char *p = (char *)syscall(SYS_shmat, id, NULL, 0);
	printf("shmat(ID, NULL, 0) = %s\n", p == (char *)-1 ? strerrorname_np(errno) : "ADDR");
	if (p != (char *)-1) {
		strcpy(p, "shared");
		printf("read back: %s\n", p);
		printf("shmdt(ADDR) = %ld\n", syscall(SYS_shmdt, p));
	}
	printf("shmctl(ID, IPC_RMID, NULL) = %ld\n", syscall(SYS_shmctl, id, IPC_RMID, NULL));
	return 0;
}
