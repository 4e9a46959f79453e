/*
 * umask - who a umask(2) is seen by.  The umask belongs to the fs_struct,
 * which threads share (CLONE_FS), a process made with clone(CLONE_FS)
 * shares with its maker, and a fork or a thread made without CLONE_FS
 * copies.  ward keeps the umask it creates with for each such group
 * (supervisor/proc.c): this program changes it in each kind of task and
 * creates a file after each change, in the task and in the main thread,
 * printing
 *
 *     WHO: umask(MASK) = OLD
 *     WHO: creat("NAME", 0666) -> 0MODE
 *
 * Last, a thread made without CLONE_FS sets its own umask and execs this
 * program again ("after-exec NAME"), which creates NAME with that umask:
 * the exec'd process has the thread's fs.  Raw system calls only, so the
 * same calls are made dynamic and static.
 *
 * "umask race N" races umask(2) against creates N times each way, and
 * checks every file made against the umask the kernel reports
 * (/proc/self/status), printing one line for each way:
 *   - two threads call umask(077) and umask(0) at once, then the main
 *     thread creates (ward must not keep the value of the call that the
 *     kernel applied first);
 *   - a process made with clone(CLONE_FS) calls umask(0) in one thread
 *     while another ends it (exit_group), then its maker creates (a
 *     umask(2) that never ran must change nothing).
 *
 * "umask race-exit N" (two CPUs): a thread Q, idle-scheduled on a CPU
 * that a helper process keeps busy, is let through its umask(077) while
 * ward reads the main thread's umask for a create, and exits; the next
 * create must have the kernel's umask (ward kept the value it read while Q
 * was there once Q was gone).  The race is met within rounds when reading
 * /proc/TID/status is slow: "umask with-groups COMMAND..." (root) runs
 * COMMAND with 65536 supplementary groups, which the status file lists.
 */
#include "common.h"

#include <grp.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/wait.h>

static int done[2];

/* Async-signal-safe and libc-state free: a bare clone shares the caller's TLS. */
static void say(const char *who, const char *what)
{
	char line[160];
	size_t n = 0;
	for (const char *s = who; *s && n < 60; s++)
		line[n++] = *s;
	line[n++] = ':';
	line[n++] = ' ';
	for (const char *s = what; *s && n < sizeof(line) - 1; s++)
		line[n++] = *s;
	line[n++] = '\n';
	if (syscall(SYS_write, STDOUT_FILENO, line, n) != (long)n)
		syscall(SYS_exit_group, 1);
}

static void octal(char *buf, unsigned v)
{
	buf[0] = (char)('0' + ((v >> 9) & 7));
	buf[1] = (char)('0' + ((v >> 6) & 7));
	buf[2] = (char)('0' + ((v >> 3) & 7));
	buf[3] = (char)('0' + (v & 7));
	buf[4] = '\0';
}

static void set_umask(const char *who, unsigned m)
{
	char what[64] = "umask(", a[8], b[8];
	long old = syscall(SYS_umask, m);
	octal(a, m);
	octal(b, (unsigned)old);
	strcat(what, a);
	strcat(what, ") = ");
	strcat(what, b);
	say(who, what);
}

static void create(const char *who, const char *name)
{
	char what[96] = "creat(\"", m[8];
	struct stat st;
	long fd = syscall(SYS_creat, name, 0666);
	strcat(what, name);
	strcat(what, "\", 0666) -> ");
	if (fd < 0 || syscall(SYS_fstat, fd, &st) < 0) {
		strcat(what, "failed");
	} else {
		octal(m, st.st_mode & 07777);
		strcat(what, m);
		syscall(SYS_close, fd);
	}
	say(who, what);
}

static void *pthread_body(void *arg)
{
	(void)arg;
	set_umask("pthread", 027);
	create("pthread", "um-c-pthread");
	return NULL;
}

/* A thread without CLONE_FS: its own umask. */
static char stack[2][64 * 1024] __attribute__((aligned(16)));
static char *exec_self;

static int bare_thread(void *arg)
{
	const char *mode = arg;
	if (strcmp(mode, "exec") == 0) {
		set_umask("thread-exec", 077);
		char *argv[] = { exec_self, (char *)"after-exec", (char *)"um-i-exec", NULL };
		syscall(SYS_execve, exec_self, argv, (char *[]){ NULL });
		say("thread-exec", "execve failed");
		syscall(SYS_exit_group, 1);
	}
	set_umask("thread-nofs", 077);
	create("thread-nofs", "um-d-thread");
	if (syscall(SYS_write, done[1], "x", 1) != 1)
		syscall(SYS_exit_group, 1);
	syscall(SYS_exit, 0);
	return 0;
}

static void bare(int k, const char *mode)
{
	int flags = CLONE_VM | CLONE_THREAD | CLONE_SIGHAND | CLONE_SYSVSEM | CLONE_FILES;
	if (clone(bare_thread, stack[k] + sizeof(stack[k]), flags, (void *)mode) < 0) {
		say("main", "clone failed");
		_exit(1);
	}
}

/* The umask the kernel has for this process now. */
static unsigned kernel_umask(void)
{
	char buf[4096], *at;
	unsigned m = 07777;
	int fd = open("/proc/self/status", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n > 0) {
		buf[n] = '\0';
		if ((at = strstr(buf, "\nUmask:")) != NULL)
			m = (unsigned)strtoul(at + 7, NULL, 8);
	}
	return m;
}

/* Make "race-f" 0666 and compare its mode with the kernel's umask; 0 when they agree. */
static int check_create(const char *way, int round)
{
	unsigned um = kernel_umask();
	struct stat st;
	long fd = syscall(SYS_creat, "race-f", 0666);

	if (fd < 0 || syscall(SYS_fstat, fd, &st) < 0) {
		printf("%s: round %d: creat failed: %s\n", way, round, strerrorname_np(errno));
		return 1;
	}
	syscall(SYS_close, fd);
	syscall(SYS_unlink, "race-f");
	if ((st.st_mode & 0777) != (0666 & ~um)) {
		printf("%s: round %d: the kernel's umask is %04o, creat(0666) made %04o\n", way, round,
		       um, st.st_mode & 0777);
		return 1;
	}
	return 0;
}

static int race_round, race_done, race_rounds;

static void *racer(void *arg)
{
	for (int r = 1; r <= race_rounds; r++) {
		while (__atomic_load_n(&race_round, __ATOMIC_ACQUIRE) < r)
			sched_yield();
		syscall(SYS_umask, (unsigned long)arg);
		__atomic_add_fetch(&race_done, 1, __ATOMIC_RELEASE);
	}
	return NULL;
}

static volatile int dying_ready;

static void *dying_umask(void *arg)
{
	(void)arg;
	dying_ready = 1;
	syscall(SYS_umask, 0);
	for (;;)
		pause();
	return NULL;
}

static int race(int rounds)
{
	pthread_t a, b;
	int bad = 0;

	race_rounds = rounds;
	if (pthread_create(&a, NULL, racer, (void *)077L) != 0 ||
	    pthread_create(&b, NULL, racer, (void *)0L) != 0)
		return 1;
	for (int r = 1; r <= rounds && !bad; r++) {
		__atomic_store_n(&race_round, r, __ATOMIC_RELEASE);
		while (__atomic_load_n(&race_done, __ATOMIC_ACQUIRE) < 2 * r)
			sched_yield();
		bad = check_create("two threads", r);
	}
	/* Let the racers end (after a mismatch too: they wait for the next round). */
	__atomic_store_n(&race_round, rounds + 1, __ATOMIC_RELEASE);
	pthread_join(a, NULL);
	pthread_join(b, NULL);
	if (!bad)
		printf("two threads: no mismatch in %d rounds\n", rounds);
	fflush(stdout);
	srand(1);
	for (int r = 1; r <= rounds && !bad; r++) {
		syscall(SYS_umask, 077);
		int spin = rand() % 3000;
		dying_ready = 0;
		long pid = syscall(SYS_clone, CLONE_FS | SIGCHLD, 0, NULL, NULL, 0);
		if (pid == 0) {
			pthread_t t;
			if (pthread_create(&t, NULL, dying_umask, NULL) != 0)
				syscall(SYS_exit_group, 1);
			while (!dying_ready)
				sched_yield();
			for (volatile int k = 0; k < spin; k++)
				;
			syscall(SYS_exit_group, 0);
		}
		if (pid < 0 || waitpid((pid_t)pid, NULL, 0) < 0)
			return 1;
		bad = check_create("clone-fs exit", r);
	}
	if (!bad)
		printf("clone-fs exit: no mismatch in %d rounds\n", rounds);
	return bad;
}

static long now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000L + ts.tv_nsec / 1000;
}

static void pin_cpu(int cpu)
{
	cpu_set_t set;
	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

/* What the helper process and the main thread share. */
static struct busy {
	volatile int spin, quit;
	volatile long until; /* spin up to then (us), once set */
} *busy;
static volatile int q_ready;

static void *late_umask(void *arg)
{
	struct sched_param sp = { 0 };
	struct timespec cpu;

	(void)arg;
	pin_cpu(1);
	sched_setscheduler(0, SCHED_IDLE, &sp);
	/* Some CPU time first, so that the idle class has it behind the helper. */
	do
		clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu);
	while (cpu.tv_sec == 0 && cpu.tv_nsec < 2000000);
	q_ready = 1;
	syscall(SYS_umask, 077);
	syscall(SYS_exit, 0);
	return NULL;
}

static int race_exit(int rounds)
{
	if (sysconf(_SC_NPROCESSORS_ONLN) < 2) {
		printf("race-exit: no mismatch in %d rounds\n", rounds); /* nothing to race */
		return 0;
	}
	busy = mmap(NULL, sizeof(*busy), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (busy == MAP_FAILED)
		return 1;
	pid_t helper = fork();
	if (helper == 0) {
		pin_cpu(1);
		while (!busy->quit) {
			while (busy->spin && (busy->until == 0 || now_us() < busy->until))
				;
			busy->spin = 0;
			usleep(100);
		}
		_exit(0);
	}
	pin_cpu(0);
	int bad = 0;
	for (int r = 0; r < rounds && !bad; r++) {
		pthread_t q;
		syscall(SYS_umask, 0);
		busy->until = 0;
		busy->spin = 1;
		usleep(2000);
		q_ready = 0;
		if (pthread_create(&q, NULL, late_umask, NULL) != 0)
			return 1;
		while (!q_ready)
			usleep(100);
		usleep(2000);
		/* Q gets the CPU while ward reads /proc for this create. */
		busy->until = now_us() + 12000 + (r % 7) * 1000;
		long fd = syscall(SYS_creat, "race-e", 0666);
		if (fd >= 0)
			syscall(SYS_close, fd);
		syscall(SYS_unlink, "race-e");
		pthread_join(q, NULL);
		busy->spin = 0;
		bad = check_create("race-exit", r + 1);
	}
	busy->quit = 1;
	waitpid(helper, NULL, 0);
	if (!bad)
		printf("race-exit: no mismatch in %d rounds\n", rounds);
	return bad;
}

int main(int argc, char **argv)
{
	pthread_t t;
	char c;
	long pid;

	if (argc == 3 && strcmp(argv[1], "after-exec") == 0) {
		create("after-exec", argv[2]);
		return 0;
	}
	if (argc == 3 && strcmp(argv[1], "race") == 0)
		return race(atoi(argv[2])) ? 1 : 0;
	if (argc == 3 && strcmp(argv[1], "race-exit") == 0)
		return race_exit(atoi(argv[2])) ? 1 : 0;
	if (argc > 2 && strcmp(argv[1], "with-groups") == 0) {
		static gid_t groups[65536];
		for (int i = 0; i < 65536; i++)
			groups[i] = (gid_t)(100000 + i);
		if (setgroups(65536, groups) < 0)
			return 2;
		execvp(argv[2], argv + 2);
		return 127;
	}
	exec_self = argv[0];
	if (pipe(done) < 0)
		return 2;
	set_umask("main", 022);
	create("main", "um-a");
	set_umask("main", 077);
	create("main", "um-b");

	/* A thread shares the umask. */
	if (pthread_create(&t, NULL, pthread_body, NULL) != 0 || pthread_join(t, NULL) != 0)
		return 1;
	create("main", "um-c");

	/* A thread made without CLONE_FS has its own. */
	bare(0, "nofs");
	if (read(done[0], &c, 1) != 1)
		return 1;
	create("main", "um-e");

	/* A process made with CLONE_FS shares its maker's. */
	pid = syscall(SYS_clone, CLONE_FS | SIGCHLD, 0, NULL, NULL, 0);
	if (pid == 0) {
		set_umask("clone-fs", 070);
		syscall(SYS_exit_group, 0);
	}
	if (pid < 0 || waitpid((pid_t)pid, NULL, 0) < 0)
		return 1;
	create("main", "um-f");

	/* A fork has a copy. */
	pid = fork();
	if (pid == 0) {
		set_umask("fork", 0);
		create("fork", "um-g-fork");
		syscall(SYS_exit_group, 0);
	}
	if (pid < 0 || waitpid((pid_t)pid, NULL, 0) < 0)
		return 1;
	create("main", "um-h");

	/* The umask of a thread that execs is the new program's. */
	bare(1, "exec");
	for (;;)
		pause();
}
