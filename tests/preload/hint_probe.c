/*
 * hint_probe.c - a program for test_hint: under libward-preload.so with a
 * channel, it resolves a name from a library it dlopens, starts a program
 * with vfork and execve (whose wrapper then runs in the child, on this
 * process's memory), then blocks in fopen and in open on two FIFOs, so
 * that the test can read its hints while it is inside those calls.
 *
 *   hint_probe LIB NAME FIFO1 FIFO2
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

__attribute__((noinline)) static int probe_fopen(const char *path)
{
	FILE *f = fopen(path, "r");
	if (f == NULL)
		return -1;
	fclose(f);
	return 0;
}

__attribute__((noinline)) static int probe_open(const char *path)
{
	int fd = open(path, O_RDONLY);
	if (fd < 0)
		return -1;
	close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: hint_probe LIB NAME FIFO1 FIFO2\n");
		return 2;
	}
	void *h = dlopen(argv[1], RTLD_NOW | RTLD_LOCAL);
	int (*lookup)(const char *) = h != NULL ? (int (*)(const char *))dlsym(h, "probe_lookup") : NULL;
	if (lookup == NULL || lookup(argv[2]) != 0) {
		fprintf(stderr, "hint_probe: lookup of %s failed: %s\n", argv[2], h == NULL ? dlerror() : "");
		return 1;
	}
	char *true_argv[] = { "true", NULL }, *clean_env[] = { "PATH=/usr/bin:/bin", NULL };
	int st;
	pid_t pid = vfork();
	if (pid == 0) {
		execve("/bin/true", true_argv, clean_env);
		_exit(127);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		fprintf(stderr, "hint_probe: vfork and execve of /bin/true failed\n");
		return 1;
	}
	if (probe_fopen(argv[3]) != 0 || probe_open(argv[4]) != 0) {
		perror("hint_probe");
		return 1;
	}
	return 0;
}
