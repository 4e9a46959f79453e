/*
 * byname.c - what `ward run` with the preload library is tested with
 * (tests/integration/preload_run.sh): a program that connects to a host
 * by name, opens a file from a function of its own, forges its own hint,
 * and starts programs every way a program can.  Built dynamic and static.
 * Each mode prints one line saying what came of it, and exits 0 when the
 * call it tried succeeded, 1 when it failed, 2 on a usage error.
 *
 *   byname connect NAME PORT         getaddrinfo, then connect to each address
 *   byname open PATH                 fopen, from open_the_secret()
 *   byname forge NAME ADDR PORT      claim NAME for ADDR in the channel, then connect
 *   byname res NAME ADDR PORT        res_query NAME's A record, then connect to ADDR
 *   byname dlopen LIB NAME PORT      LIB's byname_lib_connect(NAME, PORT)
 *   byname spawn PROG ARG...         posix_spawn
 *   byname vfork PROG ARG...         vfork, then execv
 *   byname vfork-connect NAME PORT   vfork and execv /bin/true first, then connect by name
 *   byname threads PROG ARG...       fork from a program with busy threads, then execv
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <netdb.h>
#include <pthread.h>
#include <resolv.h>
#include <spawn.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "../../preload/ward_hint.h"

extern char **environ;

/* Connect to name:port by getaddrinfo, as most programs do: the first address that takes it. */
static int connect_name(const char *name, const char *port)
{
	struct addrinfo hints = { .ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM }, *res, *ai;
	int rc = getaddrinfo(name, port, &hints, &res), err = 0;

	if (rc != 0) {
		printf("resolve %s: %s\n", name, gai_strerror(rc));
		return 1;
	}
	for (ai = res; ai != NULL; ai = ai->ai_next) {
		int fd = socket(ai->ai_family, ai->ai_socktype, ai->ai_protocol);
		if (fd < 0)
			continue;
		if (connect(fd, ai->ai_addr, ai->ai_addrlen) == 0) {
			close(fd);
			freeaddrinfo(res);
			printf("connected %s\n", name);
			return 0;
		}
		err = errno;
		close(fd);
	}
	freeaddrinfo(res);
	printf("connect %s: %s\n", name, strerror(err));
	return 1;
}

/* The frame --backtrace must name. */
__attribute__((noinline)) static int open_the_secret(const char *path)
{
	FILE *f = fopen(path, "r");
	if (f == NULL) {
		printf("open %s: %s\n", path, strerror(errno));
		return 1;
	}
	fclose(f);
	printf("opened %s\n", path);
	return 0;
}

/* Connect to an IPv4 address addr:port; prints what came of it. */
static int connect_addr(const char *addr, const char *port)
{
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port)) };
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1)
		return 2;
	int fd = socket(AF_INET, SOCK_STREAM, 0);
	if (fd < 0 || connect(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0) {
		printf("connect %s: %s\n", addr, strerror(errno));
		return 1;
	}
	close(fd);
	printf("connected %s\n", addr);
	return 0;
}

/*
 * A program with DNS code of its own on glibc's resolver: it asks for
 * name's A record with res_query and connects to addr, the address the
 * answer holds (given, so that this program needs no parser of its own:
 * it does not link libresolv, whose parser the preload library loads
 * itself when it reads the answer).
 */
static int res_then_connect(const char *name, const char *addr, const char *port)
{
	unsigned char answer[512];
	int n = res_query(name, C_IN, T_A, answer, sizeof(answer));
	if (n <= 0) {
		printf("res_query %s: failed\n", name);
		return 1;
	}
	return connect_addr(addr, port);
}

/*
 * The agent lies: it writes into its own channel that addr is name's
 * (the entry the library's resolver wrappers would have written), then
 * connects to addr.  Whatever it writes, ward must decide as on the
 * address alone.
 */
static int forge(const char *name, const char *addr, const char *port)
{
	const char *h = getenv(WARD_HINT_ENV);
	unsigned long long base = 0;
	struct sockaddr_in sin = { .sin_family = AF_INET, .sin_port = htons((uint16_t)atoi(port)) };

	if (h == NULL || sscanf(h, "%*x:%llx", &base) != 1 || base == 0) {
		printf("forge: no channel\n");
		return 2;
	}
	if (inet_pton(AF_INET, addr, &sin.sin_addr) != 1 || strlen(name) >= WARD_HINT_NAME_MAX)
		return 2;
	struct ward_hint_name e = { .seq = 2, .len = (uint16_t)strlen(name) };
	e.addr[10] = e.addr[11] = 0xff;
	memcpy(e.addr + 12, &sin.sin_addr, 4);
	memcpy(e.name, name, e.len);
	/* The region is the library's, mapped in this process: plain stores reach it. */
	memcpy((void *)(uintptr_t)ward_hint_name_at(base, ward_hint_name_index(e.addr)), &e, sizeof(e));
	return connect_addr(addr, port);
}

static int via_dlopen(const char *lib, const char *name, const char *port)
{
	void *h = dlopen(lib, RTLD_NOW | RTLD_LOCAL);
	int (*fn)(const char *, const char *) =
		h != NULL ? (int (*)(const char *, const char *))dlsym(h, "byname_lib_connect") : NULL;
	if (fn == NULL) {
		printf("dlopen %s: %s\n", lib, dlerror());
		return 2;
	}
	int rc = fn(name, port);
	printf("%s %s from %s\n", rc == 0 ? "connected" : "failed", name, lib);
	return rc == 0 ? 0 : 1;
}

static int waited(pid_t pid)
{
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		return 1;
	printf("child exit %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st));
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 1;
}

static atomic_int stop;

static void *busy(void *arg)
{
	struct stat st;
	while (!atomic_load(&stop))
		stat((const char *)arg, &st);
	return NULL;
}

/* fork in a program whose other threads are inside wrapped calls, then exec. */
static int fork_threads(char **argv)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, busy, (void *)"/") != 0)
			return 2;
	usleep(10000);
	pid_t pid = fork();
	if (pid == 0) {
		execv(argv[0], argv);
		_exit(127);
	}
	int rc = waited(pid);
	atomic_store(&stop, 1);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return rc;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc >= 4 && strcmp(argv[1], "connect") == 0)
		return connect_name(argv[2], argv[3]);
	if (argc >= 3 && strcmp(argv[1], "open") == 0)
		return open_the_secret(argv[2]);
	if (argc >= 5 && strcmp(argv[1], "forge") == 0)
		return forge(argv[2], argv[3], argv[4]);
	if (argc >= 5 && strcmp(argv[1], "res") == 0)
		return res_then_connect(argv[2], argv[3], argv[4]);
	if (argc >= 5 && strcmp(argv[1], "dlopen") == 0)
		return via_dlopen(argv[2], argv[3], argv[4]);
	if (argc >= 3 && strcmp(argv[1], "spawn") == 0) {
		pid_t pid;
		int rc = posix_spawn(&pid, argv[2], NULL, NULL, argv + 2, environ);
		if (rc != 0) {
			printf("posix_spawn %s: %s\n", argv[2], strerror(rc));
			return 1;
		}
		return waited(pid);
	}
	if (argc >= 3 && strcmp(argv[1], "vfork") == 0) {
		pid_t pid = vfork();
		if (pid == 0) {
			execv(argv[2], argv + 2);
			_exit(127);
		}
		return waited(pid);
	}
	if (argc >= 4 && strcmp(argv[1], "vfork-connect") == 0) {
		/* Its first wrapped call comes after a vfork child made one in its stead. */
		pid_t pid = vfork();
		if (pid == 0) {
			execv("/bin/true", (char *[]){ "true", NULL });
			_exit(127);
		}
		if (waited(pid) != 0)
			return 1;
		return connect_name(argv[2], argv[3]);
	}
	if (argc >= 3 && strcmp(argv[1], "threads") == 0)
		return fork_threads(argv + 2);
	fprintf(stderr, "usage: byname connect|open|forge|res|dlopen|spawn|vfork|vfork-connect|threads ...\n");
	return 2;
}
