/*
 * shm.c - System V shared memory made and used inside the session:
 * shmget(IPC_PRIVATE), shmat, write, shmdt, shmctl(IPC_RMID); IPC_PRIVATE
 * without IPC_CREAT; a key made, then found again, and IPC_EXCL on it; a
 * segment of mode 0200 (its owner may not read it) removed.
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

	/* IPC_PRIVATE makes a segment without IPC_CREAT too. */
	id = syscall(SYS_shmget, IPC_PRIVATE, 4096, 0600);
	printf("shmget(IPC_PRIVATE, 4096, 0600) = %s\n", id < 0 ? "-1" : "ID");
	if (id < 0)
		return 1;
	p = (char *)syscall(SYS_shmat, id, NULL, SHM_RDONLY);
	printf("shmat(ID, NULL, SHM_RDONLY) = %s\n", p == (char *)-1 ? strerrorname_np(errno) : "ADDR");
	printf("shmctl(ID, IPC_RMID, NULL) = %ld\n", syscall(SYS_shmctl, id, IPC_RMID, NULL));
	/* A key: made once, found again (not made), attached both times. */
	key_t key = (key_t)(0x57a0000 | (getpid() & 0xffff));
	long a = syscall(SYS_shmget, key, 4096, IPC_CREAT | 0600);
	long b = syscall(SYS_shmget, key, 4096, IPC_CREAT | 0600);
	printf("shmget(KEY, 4096, IPC_CREAT|0600) twice: %s\n", a >= 0 && a == b ? "same ID" : "differ");
	long e = syscall(SYS_shmget, key, 4096, IPC_CREAT | IPC_EXCL | 0600);
	printf("shmget(KEY, 4096, IPC_CREAT|IPC_EXCL|0600) = %s\n", e < 0 ? strerrorname_np(errno) : "ID");
	p = (char *)syscall(SYS_shmat, b, NULL, SHM_RDONLY);
	printf("shmat(ID, NULL, SHM_RDONLY) = %s\n", p == (char *)-1 ? strerrorname_np(errno) : "ADDR");
	printf("shmctl(ID, IPC_RMID, NULL) = %ld\n", syscall(SYS_shmctl, b, IPC_RMID, NULL));
	/* One its owner may not read: still the session's to control. */
	id = syscall(SYS_shmget, IPC_PRIVATE, 4096, IPC_CREAT | 0200);
	printf("shmget(IPC_PRIVATE, 4096, IPC_CREAT|0200) = %s\n", id < 0 ? "-1" : "ID");
	printf("shmctl(ID, IPC_RMID, NULL) = %ld\n", syscall(SYS_shmctl, id, IPC_RMID, NULL));
	return 0;
}
