/*
 * attack.h - what every attack program shares.
 *
 * An attack runs under `ward run` with its current directory set to a
 * fresh project made by tests/integration/attacks.sh:
 *
 *   secret/x      the secret: "WARD-SECRET-<random>"; `deny read` covers all of secret/
 *   public/x      readable: "PUBLIC-CONTENT"
 *   sub/deep/     empty directories, for dirfd and ".." games
 *   bin/mycat     a copy of /bin/cat (some tests deny its exec)
 *
 * It prints one line an attempt:
 *   blocked: HOW: ...   stopped as it should be: refused with the errno the
 *                       policy gives (not any error), or an outcome the
 *                       program checked (ward still alive, the agent's own
 *                       object and not another's, a race run to its end)
 *   LEAK: HOW: ...      it read the secret or otherwise got through
 *   MISSED: HOW: ...    it did not test what it names: another error than
 *                       the policy's, nothing there to try, a race whose
 *                       window was never reached
 *   WRONG: ...          ward answered something the kernel would not
 *   note: ...           information
 * and it ends with one line saying what became of the attack as a whole:
 *   RESULT: through     something got through (exit 1)
 *   RESULT: wrong       nothing got through, but ward misbehaved (exit 4)
 *   RESULT: not-tried   nothing was stopped, or an attempt was missed, or
 *                       the setup failed (a SETUP line says which; exit 3)
 *   RESULT: stopped     attempts were made and every one was stopped (exit 0)
 * attacks.sh runs each attack natively, where it must get through (there is
 * no ward), and under ward, where it must be stopped: "not-tried" fails
 * both, so an attack that stopped attempting cannot pass for one that ward
 * stopped.
 */
#ifndef WARD_ATTACK_H
#define WARD_ATTACK_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <ctype.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define SECRET "secret/x"
#define PUBLIC "public/x"
#define SECRET_PREFIX "WARD-SECRET-"
#define PUBLIC_CONTENT "PUBLIC-CONTENT"

static int att_through, att_wrong;
/*
 * Attempts stopped as they should be, attempts that tested nothing, and
 * attempts at what this kernel does not have (absent below).
 */
static unsigned long att_stopped, att_missed, att_absent;

static void say(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void say(const char *fmt, ...)
{
	char buf[1024];
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, sizeof(buf) - 1, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n > sizeof(buf) - 2)
		n = (int)sizeof(buf) - 2;
	buf[n++] = '\n';
	/* One write, so lines of threads and children do not mix. */
	if (write(STDOUT_FILENO, buf, (size_t)n) < 0)
		_exit(3);
}

/* The attack got through: print what it got, its first line only. */
static void leak(const char *how, const char *data, size_t len)
{
	char line[256];
	size_t n = 0;

	while (n < len && n < sizeof(line) - 1 && data[n] != '\n' && data[n] != '\0')
		n++;
	memcpy(line, data, n);
	line[n] = '\0';
	att_through = 1;
	say("LEAK: %s: %s", how, line);
}

/* One line of an attempt's outcome, "TAG: ...", counted in *count. */
static void tell(const char *tag, unsigned long *count, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
static void tell(const char *tag, unsigned long *count, const char *fmt, va_list ap)
{
	char buf[768];

	vsnprintf(buf, sizeof(buf), fmt, ap);
	__atomic_add_fetch(count, 1, __ATOMIC_RELAXED);
	say("%s: %s", tag, buf);
}

static unsigned long att_wrongs;

/* ward answered what the kernel would not. */
static void wrong(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void wrong(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tell("WRONG", &att_wrongs, fmt, ap);
	va_end(ap);
	att_wrong = 1;
}

/* An attempt stopped as it should be. */
static void blocked(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void blocked(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tell("blocked", &att_stopped, fmt, ap);
	va_end(ap);
}

/* An attempt that tested nothing. */
static void missed(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void missed(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tell("MISSED", &att_missed, fmt, ap);
	va_end(ap);
}

/*
 * An attempt at what this kernel does not have (a call it answers ENOSYS,
 * a device it has no node for): nothing to attack.  An attack whose every
 * attempt is absent is skipped, with the reason (RESULT: absent).
 */
static void absent(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void absent(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	tell("absent", &att_absent, fmt, ap);
	va_end(ap);
}

/*
 * Whether this kernel lacks NAME: the driver asks the kernel itself, outside
 * ward, and lists what it lacks in ATTACK_KERNEL_LACKS ("openat2,pidfd_open"):
 * under ward, an ENOSYS could be ward's own answer.
 */
static int kernel_lacks(const char *name)
{
	const char *p = getenv("ATTACK_KERNEL_LACKS");
	size_t n = strlen(name);

	while (p != NULL && *p != '\0') {
		if (strncmp(p, name, n) == 0 && (p[n] == ',' || p[n] == '\0'))
			return 1;
		p = strchr(p, ',');
		if (p != NULL)
			p++;
	}
	return 0;
}

/* The call an attempt names: "openat2" of "openat2(secret/x, ...)" or "raw openat2(...)". */
static int names_lacking_call(const char *how)
{
	char call[64];
	size_t n = 0;

	if (strncmp(how, "raw ", 4) == 0)
		how += 4;
	while (n < sizeof(call) - 1 && (isalnum((unsigned char)how[n]) || how[n] == '_'))
		call[n] = how[n], n++;
	call[n] = '\0';
	return n > 0 && how[n] == '(' && kernel_lacks(call);
}

/*
 * A call that should have been refused failed with errno err: blocked when
 * err is want (the policy's errno), absent when it is ENOSYS for a call
 * this kernel lacks, missed otherwise (the attempt never reached the
 * decision it is about).
 */
static void refused(const char *how, int err, int want)
{
	if (err == want)
		blocked("%s: %s", how, strerror(err));
	else if (err == ENOSYS && names_lacking_call(how))
		absent("%s: ENOSYS: this kernel lacks the call", how);
	else
		missed("%s: %s, where the policy's answer is %s", how, strerror(err), strerror(want));
}

/* A call that must fail with want: a LEAK when it succeeded (rc >= 0). */
static void should_fail(const char *how, long rc, int want)
{
	int e = errno;

	if (rc >= 0) {
		att_through = 1;
		say("LEAK: %s: succeeded (returned %ld)", how, rc);
	} else {
		refused(how, e, want);
	}
}

/*
 * A race: tries made, windows hit (the tries during which the raced thing
 * changed).  One never reached is no test of the race: missed.
 */
static void race_done(const char *what, unsigned long tries, unsigned long windows)
{
	if (att_through)
		return;
	if (windows == 0)
		missed("%s: the race never reached its window (%lu tries)", what, tries);
	else
		blocked("%s: %lu tries, %lu in the window, none got through", what, tries, windows);
}

static void setup_failed(const char *what) __attribute__((noreturn));
static void setup_failed(const char *what)
{
	say("SETUP: %s: %s", what, strerror(errno));
	say("RESULT: not-tried");
	exit(3);
}

static int finish(void)
{
	if (att_through) {
		say("RESULT: through");
		return 1;
	}
	if (att_wrong) {
		say("RESULT: wrong");
		return 4;
	}
	if (att_missed == 0 && att_stopped == 0 && att_absent > 0) {
		say("RESULT: absent");
		return 5;
	}
	if (att_missed > 0 || att_stopped == 0) {
		say("note: %lu attempts stopped, %lu missed", att_stopped, att_missed);
		say("RESULT: not-tried");
		return 3;
	}
	say("RESULT: stopped");
	return 0;
}

/*
 * The driver's native run (no ward: a stand-in waits as the parent) sets
 * ATTACK_NATIVE.  The attempts are the same; only the controls that say a
 * rule of ward's is in force look at it.
 */
static int native_run(void)
{
	return getenv("ATTACK_NATIVE") != NULL;
}

/*
 * The errno of an openat2 of want here: on a kernel without openat2
 * (before 5.6), which ward's run with WARD_KERNEL_FEATURES=-openat2 is,
 * every openat2 is ENOSYS, before its arguments are looked at.
 */
static int openat2_err(int want)
{
	const char *m = getenv("WARD_KERNEL_FEATURES");
	if (kernel_lacks("openat2"))
		return ENOSYS;
	return m != NULL && strstr(m, "-openat2") != NULL ? ENOSYS : want;
}

/*
 * ward --degraded on a kernel without openat2 (masked here) refuses
 * O_TMPFILE with EOPNOTSUPP, as a filesystem without it does: the
 * agent's kernel could make the file in a directory swapped in since
 * ward's decision (docs/degraded.md).
 */
static int no_tmpfile_here(void)
{
	const char *d = getenv("WARD_DEGRADED");
	return d != NULL && *d != '\0' && openat2_err(0) == ENOSYS;
}

/* True when buf holds the secret. */
static int is_secret(const char *buf, size_t len)
{
	return memmem(buf, len, SECRET_PREFIX, strlen(SECRET_PREFIX)) != NULL;
}

/* Read what fd gives (from its current offset); 1 and a LEAK line if it is the secret. */
static int check_fd(const char *how, int fd)
{
	char buf[512];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

	if (n < 0)
		n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (is_secret(buf, (size_t)n)) {
		leak(how, buf, (size_t)n);
		return 1;
	}
	return 0;
}

/*
 * Try to read the secret through openat(dirfd, path, flags): a LEAK when
 * the secret is read, blocked when refused with the policy's EACCES (or
 * want: the kernel's own error, which comes first), missed otherwise.  A directory is listed: its entries are what a read
 * of it gives.  Returns the errno of a refusal (0 when it opened).
 */
static int try_read_want(const char *how, int dirfd, const char *path, int flags, int want)
{
	int fd = openat(dirfd, path, flags | O_CLOEXEC);
	int e = errno;
	struct stat st;

	if (fd < 0) {
		refused(how, e, want);
		return e;
	}
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode)) {
		char buf[4096];
		long n = syscall(SYS_getdents64, fd, buf, sizeof(buf));
		if (n > 0 && memmem(buf, (size_t)n, "x", 2) != NULL)
			leak(how, "listed the secret's directory (x in it)", 39);
		else
			missed("%s: opened a directory, but listed nothing of the secret's", how);
	} else if (!check_fd(how, fd)) {
		missed("%s: opened, but it is not the secret", how);
	}
	close(fd);
	return 0;
}

static int try_read(const char *how, int dirfd, const char *path, int flags)
{
	return try_read_want(how, dirfd, path, flags, EACCES);
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* How long a race runs: $ATTACK_SECONDS, 3 by default. */
static double race_seconds(void)
{
	const char *s = getenv("ATTACK_SECONDS");
	double d = s ? atof(s) : 3.0;
	return d > 0 ? d : 3.0;
}

/* Read a whole small file into buf (NUL-terminated); -1 on error. */
static ssize_t slurp(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n, got = 0;

	if (fd < 0)
		return -1;
	while ((size_t)got < len - 1 && (n = read(fd, buf + got, len - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}

/*
 * Run argv (execve'd by fn in a child) with stdout and stderr to a pipe;
 * collect up to len-1 bytes of output.  Returns the wait status.
 */
static int run_capture(void (*fn)(void *), void *arg, char *out, size_t len)
{
	int p[2], st = 0;
	pid_t pid;
	size_t got = 0;
	ssize_t n;

	out[0] = '\0';
	if (pipe2(p, O_CLOEXEC) < 0)
		return -1;
	pid = fork();
	if (pid < 0)
		return -1;
	if (pid == 0) {
		dup2(p[1], 1);
		dup2(p[1], 2);
		fn(arg);
		_exit(77);
	}
	close(p[1]);
	while (got < len - 1 && (n = read(p[0], out + got, len - 1 - got)) > 0)
		got += (size_t)n;
	out[got] = '\0';
	close(p[0]);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	return st;
}

static const char *wstatus(int st)
{
	static char buf[64];
	if (WIFEXITED(st))
		snprintf(buf, sizeof(buf), "exit %d", WEXITSTATUS(st));
	else if (WIFSIGNALED(st))
		snprintf(buf, sizeof(buf), "killed by %s", strsignal(WTERMSIG(st)));
	else
		snprintf(buf, sizeof(buf), "status %#x", st);
	return buf;
}


/*
 * A minimal x86-64 ELF program, made here (no toolchain needed): an
 * ET_EXEC at base that writes msg to stdout and exits 0.  interp: the
 * interpreter it names (PT_INTERP), or NULL for a static program.  Two
 * of them at different bases make a program and its interpreter: the
 * kernel then runs the interpreter's code, never the program's.  entry:
 * the entry point it declares, 0 for its own code.
 */
static int write_tiny_elf_as(int fd, unsigned long base, const char *interp, const char *msg,
			     unsigned long entry, int linger);

static int write_tiny_elf(int fd, unsigned long base, const char *interp, const char *msg,
			  unsigned long entry)
{
	return write_tiny_elf_as(fd, base, interp, msg, entry, 0);
}

/* The same; with linger, the program waits in pause(2) after its write, until killed. */
static int write_tiny_elf_as(int fd, unsigned long base, const char *interp, const char *msg,
			     unsigned long entry, int linger)
{
	unsigned char buf[4096];
	size_t ilen = interp ? strlen(interp) + 1 : 0, mlen = strlen(msg);
	int nph = interp ? 2 : 1;
	size_t at = sizeof(Elf64_Ehdr) + (size_t)nph * sizeof(Elf64_Phdr);
	size_t ioff = at, code = at + ilen;
	unsigned char text[] = {
		0xb8, 1, 0, 0, 0,		/* mov eax, 1 (write) */
		0xbf, 1, 0, 0, 0,		/* mov edi, 1 */
		0x48, 0x8d, 0x35, 16, 0, 0, 0,	/* lea rsi, [rip + 16]: msg */
		0xba, 0, 0, 0, 0,		/* mov edx, len */
		0x0f, 0x05,			/* syscall */
		0xb8, 60, 0, 0, 0,		/* mov eax, 60 (exit); linger: 34 (pause) */
		0x31, 0xff,			/* xor edi, edi */
		0x0f, 0x05,			/* syscall */
	};
	size_t total = code + sizeof(text) + mlen;
	if (total > sizeof(buf) || mlen > 255)
		return -1;
	text[18] = (unsigned char)mlen;
	if (linger) {
		/* mov eax, 34 (pause); syscall; jmp back to the mov (-9: from byte 33 to 24). */
		text[25] = 34;
		text[29] = 0x0f, text[30] = 0x05;
		text[31] = 0xeb, text[32] = (unsigned char)-9;
	}
	memset(buf, 0, sizeof(buf));
	Elf64_Ehdr *eh = (Elf64_Ehdr *)buf;
	memcpy(eh->e_ident, ELFMAG, SELFMAG);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_ident[EI_DATA] = ELFDATA2LSB;
	eh->e_ident[EI_VERSION] = EV_CURRENT;
	eh->e_type = ET_EXEC;
	eh->e_machine = EM_X86_64;
	eh->e_version = EV_CURRENT;
	eh->e_entry = entry ? entry : base + code;
	eh->e_phoff = sizeof(Elf64_Ehdr);
	eh->e_ehsize = sizeof(Elf64_Ehdr);
	eh->e_phentsize = sizeof(Elf64_Phdr);
	eh->e_phnum = (Elf64_Half)nph;
	Elf64_Phdr *ph = (Elf64_Phdr *)(buf + sizeof(Elf64_Ehdr));
	if (interp) {
		ph->p_type = PT_INTERP;
		ph->p_flags = PF_R;
		ph->p_offset = ioff;
		ph->p_vaddr = ph->p_paddr = base + ioff;
		ph->p_filesz = ph->p_memsz = ilen;
		ph->p_align = 1;
		memcpy(buf + ioff, interp, ilen);
		ph++;
	}
	/*
	 * The segment is the whole page: before 6.7 the kernel zeroes the rest
	 * of an interpreter's last page past its file data, and fails the exec
	 * (SIGSEGV) where that page is not writable (padzero in load_elf_interp).
	 */
	total = sizeof(buf);
	ph->p_type = PT_LOAD;
	ph->p_flags = PF_R | PF_X;
	ph->p_offset = 0;
	ph->p_vaddr = ph->p_paddr = base;
	ph->p_filesz = ph->p_memsz = total;
	ph->p_align = 0x1000;
	memcpy(buf + code, text, sizeof(text));
	memcpy(buf + code + sizeof(text), msg, mlen);
	return write(fd, buf, total) == (ssize_t)total ? 0 : -1;
}

/*
 * A control: what the attack relies on works here (an allowed file opens
 * by the same route, say).  If not, the attack proves nothing: a ward
 * that refused everything would "stop" it.  Not tried, then.
 */
static void control_check(int ok, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void control_check(int ok, const char *fmt, ...)
{
	char buf[512];
	va_list ap;
	int e = errno;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (ok) {
		say("note: control: %s", buf);
		return;
	}
	errno = e;
	setup_failed(buf);
}

/* A control: what fn runs must print want, or the attack proves nothing. */
static void control(void (*fn)(void *), void *arg, const char *want, const char *what)
{
	char out[4096];
	int st = run_capture(fn, arg, out, sizeof(out));

	if (strstr(out, want) == NULL) {
		say("note: control: %s: %.120s", wstatus(st), out);
		setup_failed(what);
	}
	say("note: control: %s", what);
}

/* write_tiny_elf() into a new file at path, mode 0755. */
static void tiny_file(const char *path, unsigned long base, const char *interp, const char *msg)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write_tiny_elf(fd, base, interp, msg, 0) < 0 || close(fd) < 0)
		setup_failed(path);
}

#endif
