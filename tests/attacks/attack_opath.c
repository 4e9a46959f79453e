/*
 * attack_opath - an O_PATH fd of the secret (allowed: O_PATH only looks,
 * it is judged as `stat`), then every way to turn it into a readable fd:
 * reopen through /proc/self/fd/N and /dev/fd/N, openat(fd, ""),
 * openat2(fd, "") with and without flags, openat(fd, "."), read, pread,
 * mmap, sendfile and copy_file_range from it, fcntl(F_SETFL), dup3, and
 * execveat(fd, "", AT_EMPTY_PATH) of the secret.
 *
 * An argument, if any, is only a label: the driver runs this once with the
 * default profile (stat allowed everywhere: O_PATH opens are left to the
 * kernel) and once with a policy that restricts stat somewhere (then ward
 * handles O_PATH opens itself).
 */
#include "attack.h"

#include <linux/openat2.h>
#include <sys/mman.h>
#include <sys/sendfile.h>

int main(void)
{
	char p[64], buf[256];
	int o = open(SECRET, O_PATH | O_CLOEXEC);

	int pub = open(PUBLIC, O_PATH | O_CLOEXEC);
	control_check(pub >= 0, "open(public/x, O_PATH) gives an fd");
	close(pub);
	if (o < 0) {
		/*
		 * ward judges O_PATH as a read (what it opens is reopened
		 * through /proc): refused with the policy's errno, the attack
		 * has nothing to start from.
		 */
		refused("open(secret/x, O_PATH)", errno, EACCES);
		return finish();
	}
	say("note: open(secret/x, O_PATH) gave fd %d", o);

	snprintf(p, sizeof(p), "/proc/self/fd/%d", o);
	try_read("reopen /proc/self/fd/N O_RDONLY", AT_FDCWD, p, O_RDONLY);
	/* The kernel's own errors (the same natively) come before the policy's. */
	try_read_want("reopen /proc/self/fd/N O_RDONLY|O_NOFOLLOW", AT_FDCWD, p, O_RDONLY | O_NOFOLLOW,
		      ELOOP);
	snprintf(p, sizeof(p), "/dev/fd/%d", o);
	try_read("reopen /dev/fd/N", AT_FDCWD, p, O_RDONLY);
	try_read_want("openat(opath, \"\")", o, "", O_RDONLY, ENOENT);
	try_read_want("openat(opath, \".\")", o, ".", O_RDONLY, ENOTDIR);

	struct open_how how = { .flags = O_RDONLY | O_CLOEXEC };
	int fd = (int)syscall(SYS_openat2, o, "", &how, sizeof(how));
	if (fd >= 0) {
		if (!check_fd("openat2(opath, \"\")", fd))
			missed("openat2(opath, \"\"): opened something else");
		close(fd);
	} else {
		refused("openat2(opath, \"\")", errno, openat2_err(ENOENT));
	}

	/* The O_PATH fd itself must not give the content. */
	ssize_t n = read(o, buf, sizeof(buf));
	if (n > 0 && is_secret(buf, (size_t)n))
		leak("read(O_PATH fd)", buf, (size_t)n);
	else
		blocked("read(O_PATH fd): %s", n < 0 ? strerror(errno) : "no data");
	n = pread(o, buf, sizeof(buf), 0);
	if (n > 0 && is_secret(buf, (size_t)n))
		leak("pread(O_PATH fd)", buf, (size_t)n);
	else
		blocked("pread(O_PATH fd): %s", n < 0 ? strerror(errno) : "no data");
	void *m = mmap(NULL, 4096, PROT_READ, MAP_PRIVATE, o, 0);
	if (m != MAP_FAILED && is_secret(m, 64))
		leak("mmap(O_PATH fd)", m, 64);
	else
		blocked("mmap(O_PATH fd): %s", m == MAP_FAILED ? strerror(errno) : "no data");
	int pipefd[2];
	if (pipe(pipefd) == 0) {
		n = sendfile(pipefd[1], o, NULL, 256);
		if (n > 0 && (n = read(pipefd[0], buf, sizeof(buf))) > 0 && is_secret(buf, (size_t)n))
			leak("sendfile(O_PATH fd)", buf, (size_t)n);
		else
			blocked("sendfile(O_PATH fd): %s", n < 0 ? strerror(errno) : "no data");
		close(pipefd[0]);
		close(pipefd[1]);
	}
	int out = open("copy-out", O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (out >= 0) {
		n = copy_file_range(o, NULL, out, NULL, 256, 0);
		if (n > 0 && check_fd("copy_file_range(O_PATH fd)", out))
			;
		else
			blocked("copy_file_range(O_PATH fd): %s", n < 0 ? strerror(errno) : "no data");
		close(out);
	}
	if (fcntl(o, F_SETFL, O_RDONLY | O_NONBLOCK) == 0 && (n = read(o, buf, sizeof(buf))) > 0 &&
	    is_secret(buf, (size_t)n))
		leak("fcntl(F_SETFL) then read", buf, (size_t)n);
	else
		blocked("fcntl(F_SETFL) + read: %s", strerror(errno));
	int d = dup3(o, 100, 0);
	if (d < 0) {
		setup_failed("dup3");
	} else {
		snprintf(p, sizeof(p), "/proc/self/fd/%d", d);
		try_read("dup3 then /proc/self/fd/N", AT_FDCWD, p, O_RDONLY);
		close(d);
	}
	/* Exec of the secret (a data file, not executable): never runs, never leaks. */
	pid_t kid = fork();
	if (kid == 0) {
		char *args[] = { "secret", NULL };
		syscall(SYS_execveat, o, "", args, (char *[]){ NULL }, AT_EMPTY_PATH);
		_exit(errno == EACCES || errno == ENOEXEC ? 0 : 9);
	}
	int st;
	waitpid(kid, &st, 0);
	say("note: execveat(O_PATH fd of secret, AT_EMPTY_PATH): %s", wstatus(st));
	return finish();
}
