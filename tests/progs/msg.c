/*
 * msg.c - System V message queues made and used inside the session:
 * msgget(IPC_PRIVATE), msgsnd, msgrcv, msgctl(IPC_STAT), a child that
 * sends on its parent's queue, msgctl(IPC_RMID) and the queue gone after;
 * a key made, then found again, and IPC_EXCL on it; a queue of mode 0200
 * (written, not read); msgget of a key no one made (ENOENT) and msgsnd on
 * an id that is no queue (EINVAL).
 */
#include "common.h"

#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/wait.h>

struct message {
	long type;
	char text[64];
};

static void show(const char *call, long rc)
{
	printf("%s = %s\n", call, rc < 0 ? strerrorname_np(errno) : rc > 0 ? "ID" : "0");
}

int main(void)
{
	struct message m = { 1, "queued" }, got;
	struct msqid_ds ds;

	long id = syscall(SYS_msgget, IPC_PRIVATE, IPC_CREAT | 0600);
	printf("msgget(IPC_PRIVATE, IPC_CREAT|0600) = %s\n", id < 0 ? strerrorname_np(errno) : "ID");
	if (id < 0)
		return 1;
	show("msgsnd(ID, \"queued\")", syscall(SYS_msgsnd, id, &m, strlen(m.text) + 1, 0));
	long n = syscall(SYS_msgrcv, id, &got, sizeof(got.text), 0, IPC_NOWAIT);
	printf("msgrcv(ID) = %ld \"%s\"\n", n, n > 0 ? got.text : "");
	pid_t pid = fork();
	if (pid == 0) {
		struct message c = { 2, "from a child" };
		_exit(syscall(SYS_msgsnd, id, &c, strlen(c.text) + 1, 0) == 0 ? 0 : 1);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("a child's msgsnd(ID): %s\n", WIFEXITED(st) && WEXITSTATUS(st) == 0 ? "sent" : "failed");
	show("msgctl(ID, IPC_STAT)", syscall(SYS_msgctl, id, IPC_STAT, &ds));
	printf("msg_qnum = %lu\n", (unsigned long)ds.msg_qnum);
	n = syscall(SYS_msgrcv, id, &got, sizeof(got.text), 2, IPC_NOWAIT);
	printf("msgrcv(ID, type 2) = %ld \"%s\"\n", n, n > 0 ? got.text : "");
	show("msgctl(ID, IPC_RMID)", syscall(SYS_msgctl, id, IPC_RMID, NULL));
	show("msgsnd(ID) after IPC_RMID", syscall(SYS_msgsnd, id, &m, 1, IPC_NOWAIT));

	/* IPC_PRIVATE makes a queue without IPC_CREAT too. */
	id = syscall(SYS_msgget, IPC_PRIVATE, 0600);
	printf("msgget(IPC_PRIVATE, 0600) = %s\n", id < 0 ? strerrorname_np(errno) : "ID");
	show("msgsnd(ID, \"queued\")", syscall(SYS_msgsnd, id, &m, strlen(m.text) + 1, 0));
	show("msgctl(ID, IPC_RMID)", syscall(SYS_msgctl, id, IPC_RMID, NULL));

	/* A key: made once, found again (not made), used both times. */
	key_t key = (key_t)(0x57b0000 | (getpid() & 0xffff));
	long a = syscall(SYS_msgget, key, IPC_CREAT | 0600);
	long b = syscall(SYS_msgget, key, IPC_CREAT | 0600);
	long c = syscall(SYS_msgget, key, 0);
	printf("msgget(KEY, IPC_CREAT|0600) twice, then msgget(KEY, 0): %s\n",
	       a >= 0 && a == b && b == c ? "same ID" : "differ");
	long e = syscall(SYS_msgget, key, IPC_CREAT | IPC_EXCL | 0600);
	printf("msgget(KEY, IPC_CREAT|IPC_EXCL|0600) = %s\n", e < 0 ? strerrorname_np(errno) : "ID");
	show("msgsnd(ID, \"queued\")", syscall(SYS_msgsnd, c, &m, strlen(m.text) + 1, 0));
	show("msgctl(ID, IPC_RMID)", syscall(SYS_msgctl, c, IPC_RMID, NULL));

	/* One its owner may write but not read: sent to, and removed. */
	id = syscall(SYS_msgget, IPC_PRIVATE, IPC_CREAT | 0200);
	printf("msgget(IPC_PRIVATE, IPC_CREAT|0200) = %s\n", id < 0 ? strerrorname_np(errno) : "ID");
	show("msgsnd(ID, \"queued\")", syscall(SYS_msgsnd, id, &m, strlen(m.text) + 1, IPC_NOWAIT));
	show("msgctl(ID, IPC_RMID)", syscall(SYS_msgctl, id, IPC_RMID, NULL));

	show("msgget(a key no one made, 0)", syscall(SYS_msgget, (key_t)0x57bfffff, 0));
	show("msgsnd(an id that is no queue)", syscall(SYS_msgsnd, 0x7ffffffe, &m, 1, IPC_NOWAIT));
	return 0;
}
