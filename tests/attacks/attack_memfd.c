/*
 * attack_memfd MODE - exec an anonymous file.  DESIGN.md §2 invariant 4:
 * "Exec of an anonymous file (memfd, deleted file) is its own target,
 * memfd:NAME, denied by default" (default profile: `deny exec memfd:*`).
 *
 * The payload is a copy of /bin/echo, run as "echo PAYLOAD-RAN": the
 * anonymous file ran if and only if PAYLOAD-RAN is printed.
 *
 *   basic    memfd: execveat(fd, "", AT_EMPTY_PATH), fexecve, execve of
 *            /proc/self/fd/N and /dev/fd/N; a deleted file and an
 *            O_TMPFILE file in the project, the same ways
 *   loader   ld.so /proc/self/fd/N (the loader trick on a memfd)
 *   shebang  a script in the project whose interpreter is
 *            "#!/proc/self/fd/N" (N: the memfd, inherited across exec)
 *   interp   a program in the project whose ELF interpreter (PT_INTERP)
 *            is /proc/self/fd/N or /dev/fd/N: a memfd, or a deleted file,
 *            holding a static program that prints PAYLOAD-RAN
 */
#include "attack.h"

#include <sys/mman.h>

#define LDSO "/lib64/ld-linux-x86-64.so.2"
#define MARK "PAYLOAD-RAN"

static int fill(int fd)
{
	char buf[1 << 16];
	int in = open("/bin/echo", O_RDONLY | O_CLOEXEC);
	ssize_t n;

	if (in < 0)
		return -1;
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(fd, buf, (size_t)n) != n)
			return -1;
	close(in);
	return 0;
}

struct how {
	int kind; /* 0 execveat(fd,""), 1 fexecve, 2 execve(path), 3 ld.so path */
	int fd;
	const char *path;
};

static void run_it(void *arg)
{
	struct how *h = arg;
	extern char **environ;
	char *args[] = { "echo", MARK, NULL };

	switch (h->kind) {
	case 0:
		syscall(SYS_execveat, h->fd, "", args, environ, AT_EMPTY_PATH);
		break;
	case 1:
		fexecve(h->fd, args, environ);
		break;
	case 2:
		execve(h->path, args, environ);
		break;
	case 3:
		execve(LDSO, (char *[]){ LDSO, (char *)h->path, MARK, NULL }, environ);
		break;
	}
	dprintf(1, "exec: %s\n", strerror(errno));
}

static void attempt(const char *what, int kind, int fd, const char *path)
{
	struct how h = { kind, fd, path };
	char out[4096];
	int st = run_capture(run_it, &h, out, sizeof(out));
	/*
	 * A file just written may still be open for writing in ward for a
	 * moment after the agent got its fd (ETXTBSY): an attacker retries.
	 */
	for (int i = 0; i < 50 && strstr(out, "Text file busy") != NULL; i++) {
		if (i == 0)
			say("note: %s: ETXTBSY right after writing the file; retrying", what);
		usleep(2000);
		st = run_capture(run_it, &h, out, sizeof(out));
	}

	char *nl = strchr(out, '\n');
	if (strstr(out, MARK) && !strstr(out, "exec: ")) {
		if (nl)
			*nl = '\0';
		att_through = 1;
		say("LEAK: %s: the anonymous file ran (%s): %s", what, wstatus(st), out);
		return;
	}
	if (nl)
		*nl = '\0';
	/* Refused with the policy's EACCES, or killed by ward at the exec. */
	if (strstr(out, strerror(EACCES)) != NULL || (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL))
		blocked("%s: %s: %s", what, wstatus(st), out);
	else
		missed("%s: not refused by the policy (%s): %s", what, wstatus(st), out);
}

static int make_memfd(void)
{
	int m = memfd_create("payload", 0); /* not CLOEXEC: /proc/self/fd/N must survive exec */
	if (m < 0 || fill(m) < 0)
		setup_failed("memfd_create + copy /bin/echo");
	return m;
}

static void all_ways(const char *what, int fd)
{
	char p[64], how[128];

	snprintf(how, sizeof(how), "%s: execveat(fd, \"\", AT_EMPTY_PATH)", what);
	attempt(how, 0, fd, NULL);
	snprintf(how, sizeof(how), "%s: fexecve(fd)", what);
	attempt(how, 1, fd, NULL);
	snprintf(p, sizeof(p), "/proc/self/fd/%d", fd);
	snprintf(how, sizeof(how), "%s: execve(/proc/self/fd/N)", what);
	attempt(how, 2, fd, p);
	snprintf(p, sizeof(p), "/dev/fd/%d", fd);
	snprintf(how, sizeof(how), "%s: execve(/dev/fd/N)", what);
	attempt(how, 2, fd, p);
}

static void mode_basic(void)
{
	int m = make_memfd();
	all_ways("memfd", m);

	/* A deleted file: written, made executable, opened read-only, unlinked. */
	int w = open("deleted-payload", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (w < 0 || fill(w) < 0)
		setup_failed("write deleted-payload");
	close(w);
	int d = open("deleted-payload", O_RDONLY);
	if (d < 0 || unlink("deleted-payload") < 0)
		setup_failed("open + unlink deleted-payload");
	all_ways("deleted file", d);

	/* An O_TMPFILE file in the project (never had a name). */
	int t = open(".", O_TMPFILE | O_RDWR | O_CLOEXEC, 0755);
	if (t < 0 && errno == EOPNOTSUPP && no_tmpfile_here()) {
		say("blocked: O_TMPFILE file: none to be had (EOPNOTSUPP: --degraded without openat2)");
		return;
	}
	if (t < 0)
		setup_failed("open(., O_TMPFILE)");
	if (fill(t) < 0)
		setup_failed("write O_TMPFILE");
	char p[64];
	snprintf(p, sizeof(p), "/proc/self/fd/%d", t);
	int ro = open(p, O_RDONLY);
	close(t);
	if (ro < 0)
		setup_failed("reopen of the O_TMPFILE read-only");
	all_ways("O_TMPFILE file", ro);
}

static void mode_loader(void)
{
	int m = make_memfd();
	char p[64];

	snprintf(p, sizeof(p), "/proc/self/fd/%d", m);
	attempt("ld.so /proc/self/fd/N (memfd)", 3, m, p);
	snprintf(p, sizeof(p), "/dev/fd/%d", m);
	attempt("ld.so /dev/fd/N (memfd)", 3, m, p);
}

static void mode_shebang(void)
{
	int m = make_memfd();
	char line[64];
	int fd = open("memscript", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	int n = snprintf(line, sizeof(line), "#!/proc/self/fd/%d\n", m);

	if (fd < 0 || write(fd, line, (size_t)n) != n)
		setup_failed("write memscript");
	close(fd);
	attempt("script #!/proc/self/fd/N (memfd interpreter)", 2, m, "./memscript");
	fd = open("memscript2", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	n = snprintf(line, sizeof(line), "#!/dev/fd/%d\n", m);
	if (fd < 0 || write(fd, line, (size_t)n) != n)
		setup_failed("write memscript2");
	close(fd);
	attempt("script #!/dev/fd/N (memfd interpreter)", 2, m, "./memscript2");
}

static void mode_interp(void)
{
	char name[64];
	int m = memfd_create("payload", 0); /* not CLOEXEC: the interpreter is looked up after the exec */

	if (m < 0 || write_tiny_elf(m, 0x20000000, NULL, MARK "\n", 0) < 0)
		setup_failed("memfd with a static program");
	/* Control: the same program as a file in the project runs as an interpreter. */
	tiny_file("okint", 0x20000000, NULL, "CONTROL-RAN\n");
	tiny_file("main-ok", 0x10000000, "./okint", "MAIN-RAN\n");
	struct how h = { 2, -1, "./main-ok" };
	control(run_it, &h, "CONTROL-RAN", "a program whose interpreter is ./okint runs it");

	snprintf(name, sizeof(name), "/proc/self/fd/%d", m);
	tiny_file("main-proc", 0x10000000, name, "MAIN-RAN\n");
	attempt("PT_INTERP /proc/self/fd/N (memfd)", 2, m, "./main-proc");
	snprintf(name, sizeof(name), "/dev/fd/%d", m);
	tiny_file("main-dev", 0x10000000, name, "MAIN-RAN\n");
	attempt("PT_INTERP /dev/fd/N (memfd)", 2, m, "./main-dev");

	tiny_file("deleted-int", 0x20000000, NULL, MARK "\n");
	int d = open("deleted-int", O_RDONLY);
	if (d < 0 || unlink("deleted-int") < 0)
		setup_failed("open + unlink deleted-int");
	snprintf(name, sizeof(name), "/proc/self/fd/%d", d);
	tiny_file("main-del", 0x10000000, name, "MAIN-RAN\n");
	attempt("PT_INTERP /proc/self/fd/N (a deleted file)", 2, d, "./main-del");
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";

	if (strcmp(mode, "basic") == 0)
		mode_basic();
	else if (strcmp(mode, "loader") == 0)
		mode_loader();
	else if (strcmp(mode, "shebang") == 0)
		mode_shebang();
	else if (strcmp(mode, "interp") == 0)
		mode_interp();
	else {
		errno = EINVAL;
		setup_failed(mode);
	}
	return finish();
}
