/*
 * attack_loader MODE - run a program whose exec is denied through the
 * dynamic loader: `ld.so PROG` makes the kernel exec ld.so, and ld.so
 * maps PROG itself (with open and mmap, no exec).  DESIGN.md §2 invariant
 * 4: "An exec of the dynamic loader (ld-linux*.so ./prog) is judged as an
 * exec of ./prog".
 *
 * The driver denies exec of bin/mycat (a copy of /bin/cat) with
 * `-r 'deny exec $PROJECT/bin/mycat'`.  Every attempt runs
 * "... bin/mycat public/x": the denied program ran if and only if
 * PUBLIC-CONTENT shows up in the output (the allowed stand-in, /bin/true,
 * prints nothing).
 *
 *   basic     execve(bin/mycat) itself; ld.so PROG by absolute and
 *             relative path; with ld.so options before PROG; through a
 *             copy of ld.so in the project and a symlink to it
 *   shebang   a script "#!/lib64/ld-linux-x86-64.so.2 /abs/bin/mycat":
 *             the kernel runs ld.so with PROG as the interpreter argument
 *   longpath  ld.so with a PROG path longer than 255 bytes whose first 255
 *             bytes name an allowed program
 *   far       a copy of ld.so whose program headers were moved past its
 *             first 4 KiB (the kernel reads them anywhere; ward reads the
 *             head of a file first)
 *   nosect    a copy of ld.so without section headers (no soname to see)
 *   cwdrace   ld.so ./prog while a CLONE_FS sibling flips the cwd between
 *             a directory whose prog may run and one whose prog may not
 *   interp    a program whose ELF interpreter (PT_INTERP) is bin/mycat,
 *             made a static program here: the kernel loads and starts the
 *             interpreter, with no exec of it to judge.  By absolute and
 *             relative name, through a symlink and an O_PATH fd's
 *             /proc/self/fd/N
 *   interpentry  a program whose interpreter is the real ld.so and whose
 *             entry point (AT_ENTRY) is ld.so's own, with ASLR off so that
 *             the address is known: glibc's ld.so then takes itself for
 *             run as a command and loads the program its argv names,
 *             bin/mycat or a memfd's copy of cat, with no exec of it; and a
 *             program whose interpreter is itself, by a hard link's name
 * Each doctored copy is first run with an allowed program (a control: it
 * must still work as a loader, or the attack proves nothing).
 */
#include "attack.h"

#include <elf.h>
#include <sched.h>
#include <stddef.h>
#include <stdbool.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <limits.h>

#define LDSO "/lib64/ld-linux-x86-64.so.2"

static char cwd[PATH_MAX];

struct cmd {
	const char *path;
	char *argv[8];
};

static int exec_fd = -1; /* execveat(exec_fd, "", AT_EMPTY_PATH) when set */
static int norandom;	 /* exec with ASLR off (personality ADDR_NO_RANDOMIZE) */

static void exec_cmd(void *arg)
{
	struct cmd *c = arg;
	extern char **environ;
	if (norandom)
		personality(ADDR_NO_RANDOMIZE);
	if (exec_fd >= 0)
		syscall(SYS_execveat, exec_fd, "", c->argv, environ, AT_EMPTY_PATH);
	else
		execve(c->path, c->argv, environ);
	dprintf(1, "execve(%s): %s\n", c->path ? c->path : "fd", strerror(errno));
}

static void attempt(const char *how, const char *path, char *const *argv)
{
	struct cmd c = { .path = path };
	char out[8192];

	for (int i = 0; i < 7 && argv[i]; i++)
		c.argv[i] = argv[i];
	int st = run_capture(exec_cmd, &c, out, sizeof(out));
	/*
	 * A file just written may still be open for writing in ward for a
	 * moment after the agent got its fd (ETXTBSY): an attacker retries.
	 */
	for (int i = 0; i < 50 && strstr(out, "Text file busy") != NULL; i++) {
		if (i == 0)
			say("note: %s: ETXTBSY right after writing the file; retrying", how);
		usleep(2000);
		st = run_capture(exec_cmd, &c, out, sizeof(out));
	}
	if (strstr(out, PUBLIC_CONTENT) != NULL) {
		att_through = 1;
		say("LEAK: %s: the denied program ran (%s): %.120s", how, wstatus(st), out);
	} else {
		char *nl = strchr(out, '\n');
		if (nl)
			*nl = '\0';
		/* Refused with the policy's EACCES (by the exec, or the loader's open), or killed by ward. */
		if (strstr(out, strerror(EACCES)) != NULL || (WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL))
			blocked("%s: %s: %.160s", how, wstatus(st), out);
		else
			missed("%s: not refused by the policy (%s): %.160s", how, wstatus(st), out);
	}
}

static void copy_file(const char *from, const char *to)
{
	char buf[1 << 16];
	int in = open(from, O_RDONLY | O_CLOEXEC), out = open(to, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	ssize_t n;
	if (in < 0 || out < 0)
		setup_failed(to);
	while ((n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			setup_failed(to);
	close(in);
	close(out);
}

static void mode_basic(void)
{
	char abs[PATH_MAX + 32];
	snprintf(abs, sizeof(abs), "%s/bin/mycat", cwd);

	attempt("execve(bin/mycat) (control: denied by the policy)", "bin/mycat",
		(char *[]){ "mycat", PUBLIC, NULL });
	/* The denied program through an O_PATH fd: /proc/self/fd/N and execveat. */
	int o = open("bin/mycat", O_PATH);
	if (o >= 0) {
		char p[64];
		snprintf(p, sizeof(p), "/proc/self/fd/%d", o);
		attempt("execve(/proc/self/fd/N of an O_PATH fd of bin/mycat)", p,
			(char *[]){ "mycat", PUBLIC, NULL });
		snprintf(p, sizeof(p), "/dev/fd/%d", o);
		attempt("ld.so /dev/fd/N of an O_PATH fd of bin/mycat", LDSO,
			(char *[]){ LDSO, p, PUBLIC, NULL });
		exec_fd = o;
		attempt("execveat(O_PATH fd of bin/mycat, \"\", AT_EMPTY_PATH)", NULL,
			(char *[]){ "mycat", PUBLIC, NULL });
		exec_fd = -1;
	} else {
		setup_failed("open(bin/mycat, O_PATH)");
	}
	attempt("ld.so /abs/bin/mycat", LDSO, (char *[]){ LDSO, abs, PUBLIC, NULL });
	attempt("ld.so bin/mycat", LDSO, (char *[]){ LDSO, "bin/mycat", PUBLIC, NULL });
	attempt("ld.so ./bin/../bin/mycat", LDSO, (char *[]){ LDSO, "./bin/../bin/mycat", PUBLIC, NULL });
	attempt("ld.so --inhibit-cache bin/mycat", LDSO,
		(char *[]){ LDSO, "--inhibit-cache", "bin/mycat", PUBLIC, NULL });
	attempt("ld.so --argv0 cat bin/mycat", LDSO,
		(char *[]){ LDSO, "--argv0", "cat", "bin/mycat", PUBLIC, NULL });
	attempt("ld.so --library-path /lib bin/mycat", LDSO,
		(char *[]){ LDSO, "--library-path", "/lib", "bin/mycat", PUBLIC, NULL });
	attempt("ld.so --inhibit-cache --inhibit-cache --inhibit-cache bin/mycat", LDSO,
		(char *[]){ LDSO, "--inhibit-cache", "--inhibit-cache", "--inhibit-cache", "bin/mycat",
			    PUBLIC, NULL });
	/* A copy of the loader in the project, and a symlink to it. */
	copy_file(LDSO, "myld");
	attempt("./myld (a copy of ld.so) bin/mycat", "./myld",
		(char *[]){ "./myld", "bin/mycat", PUBLIC, NULL });
	if (symlink(LDSO, "ldlink") == 0)
		attempt("./ldlink (a symlink to ld.so) bin/mycat", "./ldlink",
			(char *[]){ "./ldlink", "bin/mycat", PUBLIC, NULL });
}

static void mode_shebang(void)
{
	char line[PATH_MAX + 64];
	int fd = open("ldscript", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);

	if (fd < 0)
		setup_failed("create ldscript");
	/* The kernel runs: ld.so /abs/bin/mycat ./ldscript public/x */
	int n = snprintf(line, sizeof(line), "#!%s %s/bin/mycat\n", LDSO, cwd);
	if (write(fd, line, (size_t)n) != n)
		setup_failed("write ldscript");
	close(fd);
	attempt("script #!ld.so /abs/bin/mycat", "./ldscript", (char *[]){ "ldscript", PUBLIC, NULL });
	/* The same with a relative program path (relative to the cwd of the exec). */
	fd = open("ldscript2", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	n = snprintf(line, sizeof(line), "#!%s bin/mycat\n", LDSO);
	if (fd < 0 || write(fd, line, (size_t)n) != n)
		setup_failed("write ldscript2");
	close(fd);
	attempt("script #!ld.so bin/mycat", "./ldscript2", (char *[]){ "ldscript2", PUBLIC, NULL });
}

static void mode_longpath(void)
{
	/* "./" + 245 slashes + "bin/myca" is 255 bytes; "t" makes it bin/mycat. */
	char prog[512];
	size_t at = 0;

	if (symlink("/bin/true", "bin/myca") < 0 && errno != EEXIST)
		setup_failed("symlink bin/myca -> /bin/true");
	prog[at++] = '.';
	prog[at++] = '/';
	while (at < 2 + 245)
		prog[at++] = '/';
	memcpy(prog + at, "bin/mycat", 10);
	say("note: PROG is %zu bytes; its first 255 name bin/myca (-> /bin/true)", strlen(prog));
	attempt("ld.so .//////...//bin/mycat (256 bytes)", LDSO, (char *[]){ LDSO, prog, PUBLIC, NULL });
	/* And as the first argument after an option. */
	attempt("ld.so --inhibit-cache .//////...//bin/mycat", LDSO,
		(char *[]){ LDSO, "--inhibit-cache", prog, PUBLIC, NULL });
}

enum doctoring { FAR, NOSECT };

/* Write name: a copy of ld.so, changed as how says. */
static void doctor(const char *name, enum doctoring how)
{
	int in = open(LDSO, O_RDONLY | O_CLOEXEC);
	struct stat st;
	if (in < 0 || fstat(in, &st) < 0)
		setup_failed("open ld.so");
	size_t size = (size_t)st.st_size, cap = size + (1 << 20);
	unsigned char *b = calloc(1, cap);
	if (b == NULL || read(in, b, size) != (ssize_t)size)
		setup_failed("read ld.so");
	close(in);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)b;
	if (how == FAR) {
		/*
		 * The table again at X, past everything else, in the file and in
		 * memory; the PT_NOTE entry becomes a PT_LOAD that maps it (ld.so
		 * finds its headers in memory).  e_phoff points there.
		 */
		Elf64_Phdr *ph = (Elf64_Phdr *)(b + eh->e_phoff);
		uint64_t end = size;
		for (int i = 0; i < eh->e_phnum; i++)
			if (ph[i].p_type == PT_LOAD && ph[i].p_vaddr + ph[i].p_memsz > end)
				end = ph[i].p_vaddr + ph[i].p_memsz;
		uint64_t x = (end + 4095) & ~(uint64_t)4095, len = (uint64_t)eh->e_phnum * sizeof(*ph);
		if (x + len > cap)
			setup_failed("ld.so is larger than expected");
		memcpy(b + x, ph, len);
		Elf64_Phdr *nph = (Elf64_Phdr *)(b + x);
		bool moved = false;
		for (int i = 0; i < eh->e_phnum && !moved; i++) {
			if (nph[i].p_type != PT_NOTE)
				continue;
			nph[i] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = PF_R, .p_offset = x,
					       .p_vaddr = x, .p_paddr = x, .p_filesz = len,
					       .p_memsz = len, .p_align = 4096 };
			moved = true;
		}
		if (!moved)
			setup_failed("no PT_NOTE in ld.so");
		eh->e_phoff = x;
		size = x + len;
	} else {
		eh->e_shoff = 0;
		eh->e_shnum = 0;
		eh->e_shstrndx = 0;
	}
	int out = open(name, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (out < 0 || write(out, b, size) != (ssize_t)size)
		setup_failed("write the doctored ld.so");
	close(out);
	free(b);
}

static void mode_doctored(const char *name, enum doctoring how, const char *what)
{
	char how_s[256], out[8192], path[64];
	snprintf(path, sizeof(path), "./%s", name);
	doctor(name, how);
	/*
	 * The control: it loads an allowed program (the real cat, by a path
	 * without symlinks, as ward wants a loader's program) and that runs.
	 */
	struct cmd c = { .path = path, .argv = { path, "/usr/bin/cat", PUBLIC, NULL } };
	int st = run_capture(exec_cmd, &c, out, sizeof(out));
	for (int i = 0; i < 50 && strstr(out, "Text file busy") != NULL; i++) {
		usleep(2000);
		st = run_capture(exec_cmd, &c, out, sizeof(out));
	}
	if (strstr(out, PUBLIC_CONTENT) == NULL) {
		say("note: control %s /usr/bin/cat public/x: %s: %.160s", path, wstatus(st), out);
		setup_failed("the doctored ld.so does not work as a loader");
	}
	say("note: control: %s (%s) loads /usr/bin/cat", path, what);
	snprintf(how_s, sizeof(how_s), "%s (%s) bin/mycat", path, what);
	attempt(how_s, path, (char *[]){ path, "bin/mycat", PUBLIC, NULL });
}

/*
 * ld.so ./prog, while another process sharing the cwd (clone with
 * CLONE_FS: exec does not unshare it) flips it between a/ (prog: /bin/true)
 * and d/ (prog: a copy of cat, exec denied by the driver): the loader opens
 * ./prog after ward's decision, in whichever cwd is current then.
 */
static int dir_a = -1, dir_d = -1;

static void flip_and_exec(void *arg)
{
	char *const *argv = arg;
	extern char **environ;
	pid_t parent = getpid();
	long pid = syscall(SYS_clone, CLONE_FS | SIGCHLD, 0, NULL, NULL, 0);
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		if (getppid() != parent)
			_exit(0); /* the parent is gone already: no signal will come */
		for (;;) {
			fchdir(dir_a);
			fchdir(dir_d);
		}
	}
	fchdir(dir_a);
	execve(LDSO, argv, environ);
	dprintf(1, "execve(%s): %s\n", LDSO, strerror(errno));
}

static void mode_cwdrace(void)
{
	char pub[PATH_MAX + 32], out[4096];
	if (mkdir("a", 0755) < 0 || mkdir("d", 0755) < 0)
		setup_failed("mkdir a d");
	copy_file("/bin/true", "a/prog");
	copy_file("/bin/cat", "d/prog");
	dir_a = open("a", O_PATH | O_DIRECTORY | O_CLOEXEC);
	dir_d = open("d", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir_a < 0 || dir_d < 0)
		setup_failed("open a d");
	snprintf(pub, sizeof(pub), "%s/%s", cwd, PUBLIC);
	attempt("d/prog itself (control: denied by the policy)", "d/prog",
		(char *[]){ "prog", pub, NULL });
	char *argv[] = { LDSO, "./prog", pub, NULL };
	unsigned long ran = 0, refusals = 0, tries = 40;
	for (unsigned long i = 0; i < tries && !att_through; i++) {
		int st = run_capture(flip_and_exec, argv, out, sizeof(out));
		if (strstr(out, PUBLIC_CONTENT) != NULL) {
			att_through = 1;
			say("LEAK: ld.so ./prog with the cwd flipped by a CLONE_FS sibling: d/prog ran "
			    "(try %lu, %s)", i + 1, wstatus(st));
		} else if (WIFEXITED(st) && WEXITSTATUS(st) == 0 && out[0] == '\0') {
			ran++; /* a/prog (true) ran */
		} else if (strstr(out, strerror(EACCES)) != NULL) {
			refusals++;
		}
	}
	say("note: %lu tries: a/prog ran %lu times, refused %lu times", tries, ran, refusals);
	/*
	 * Refused every time (a relative program path is no judgement of what
	 * the loader will open): stopped before any race.  Otherwise every
	 * loader that ran did so while the sibling flipped the cwd: the window.
	 */
	if (!att_through && refusals == tries)
		blocked("ld.so ./prog is refused (EACCES) each of %lu times", tries);
	else
		race_done("ld.so ./prog with the cwd flipped by a CLONE_FS sibling", tries, ran);
}

static void mode_interp(void)
{
	char abs[PATH_MAX + 32], name[PATH_MAX + 64];

	/* bin/mycat becomes a static program that prints PUBLIC-CONTENT. */
	tiny_file("bin/mycat", 0x20000000, NULL, PUBLIC_CONTENT "\n");
	attempt("execve(bin/mycat) (control: denied by the policy)", "bin/mycat",
		(char *[]){ "mycat", NULL });
	/* Control: the same kind of program with an allowed interpreter runs it. */
	snprintf(name, sizeof(name), "%s/bin/okint", cwd);
	tiny_file("bin/okint", 0x20000000, NULL, "CONTROL-RAN\n");
	tiny_file("bin/main-ok", 0x10000000, name, "MAIN-RAN\n");
	struct cmd c = { .path = "bin/main-ok", .argv = { "main-ok", NULL } };
	control(exec_cmd, &c, "CONTROL-RAN", "a program whose interpreter is bin/okint runs it");

	snprintf(abs, sizeof(abs), "%s/bin/mycat", cwd);
	tiny_file("bin/main-abs", 0x10000000, abs, "MAIN-RAN\n");
	attempt("PT_INTERP /abs/bin/mycat", "bin/main-abs", (char *[]){ "main-abs", NULL });
	tiny_file("bin/main-rel", 0x10000000, "bin/mycat", "MAIN-RAN\n");
	attempt("PT_INTERP bin/mycat (relative: the cwd)", "bin/main-rel",
		(char *[]){ "main-rel", NULL });
	if (symlink("mycat", "bin/ilink") < 0)
		setup_failed("symlink bin/ilink");
	snprintf(name, sizeof(name), "%s/bin/ilink", cwd);
	tiny_file("bin/main-link", 0x10000000, name, "MAIN-RAN\n");
	attempt("PT_INTERP a symlink to bin/mycat", "bin/main-link", (char *[]){ "main-link", NULL });
	int o = open("bin/mycat", O_PATH); /* not CLOEXEC: the exec's interpreter is looked up after it */
	if (o < 0)
		setup_failed("O_PATH bin/mycat");
	snprintf(name, sizeof(name), "/proc/self/fd/%d", o);
	tiny_file("bin/main-fd", 0x10000000, name, "MAIN-RAN\n");
	attempt("PT_INTERP /proc/self/fd/N (an O_PATH fd of bin/mycat)", "bin/main-fd",
		(char *[]){ "main-fd", NULL });
	close(o);
}

static void mode_interpentry(void)
{
	char self[PATH_MAX], dyn[PATH_MAX], out[256], abs[PATH_MAX + 32], fdp[64];
	Elf64_Ehdr eh;

	/* Where ld.so lands with ASLR off: the dynamic build of this program says. */
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	if (n <= 0)
		setup_failed("readlink /proc/self/exe");
	self[n] = '\0';
	snprintf(dyn, sizeof(dyn), "%s", self);
	size_t l = strlen(dyn);
	if (l > 7 && strcmp(dyn + l - 7, "-static") == 0)
		dyn[l - 7] = '\0';
	norandom = 1;
	struct cmd c = { .path = dyn, .argv = { "attack_loader", "printbase", NULL } };
	run_capture(exec_cmd, &c, out, sizeof(out));
	unsigned long base = strtoul(out, NULL, 16);
	int fd = open(LDSO, O_RDONLY | O_CLOEXEC);
	if (base == 0 || fd < 0 || read(fd, &eh, sizeof(eh)) != (ssize_t)sizeof(eh))
		setup_failed("ld.so's base with ASLR off, and its entry");
	close(fd);
	say("note: ld.so at %#lx with ASLR off, its entry at %#lx", base,
	    base + (unsigned long)eh.e_entry);

	fd = open("bin/x", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0 || write_tiny_elf(fd, 0x10000000, LDSO, "MAIN-RAN\n", base + eh.e_entry) < 0 ||
	    close(fd) < 0)
		setup_failed("bin/x");
	snprintf(abs, sizeof(abs), "%s/bin/mycat", cwd);
	attempt("a program whose entry is ld.so's: x /abs/bin/mycat", "bin/x",
		(char *[]){ "x", abs, PUBLIC, NULL });
	int m = memfd_create("cat", 0); /* not CLOEXEC: ld.so opens /proc/self/fd/N */
	if (m < 0)
		setup_failed("memfd_create");
	snprintf(fdp, sizeof(fdp), "/proc/self/fd/%d", m);
	copy_file("/bin/cat", fdp);
	attempt("a program whose entry is ld.so's: x /proc/self/fd/N (a memfd's cat)", "bin/x",
		(char *[]){ "x", fdp, PUBLIC, NULL });
	norandom = 0;

	/*
	 * One file as the program and its interpreter, under two names (a
	 * hard link): its entry lies in the interpreter's file, whatever maps
	 * calls it.  A doctored copy of ld.so would take itself for run as a
	 * command so; this one only prints.
	 */
	char self2[PATH_MAX + 32];
	snprintf(self2, sizeof(self2), "%s/bin/self2", cwd);
	fd = open("bin/self", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
	static const uint16_t et_dyn = ET_DYN; /* position-independent: loaded twice, at two places */
	if (fd < 0 || write_tiny_elf(fd, 0, self2, PUBLIC_CONTENT "\n", 0) < 0 ||
	    pwrite(fd, &et_dyn, sizeof(et_dyn), offsetof(Elf64_Ehdr, e_type)) != sizeof(et_dyn) ||
	    close(fd) < 0 || link("bin/self", "bin/self2") < 0)
		setup_failed("bin/self, its hard link bin/self2");
	attempt("a program whose interpreter is itself under another name (a hard link)", "bin/self",
		(char *[]){ "self", NULL });
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "basic";

	if (strcmp(mode, "printbase") == 0) {
		printf("%lx\n", getauxval(AT_BASE));
		return 0;
	}

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	if (access(LDSO, X_OK) < 0)
		setup_failed(LDSO);
	if (strcmp(mode, "basic") == 0)
		mode_basic();
	else if (strcmp(mode, "shebang") == 0)
		mode_shebang();
	else if (strcmp(mode, "longpath") == 0)
		mode_longpath();
	else if (strcmp(mode, "far") == 0 && kernel_lacks("at_phdr_anywhere"))
		/* Before 5.18 AT_PHDR is the load address plus e_phoff, wherever they lie. */
		absent("a loader whose program headers lie past its first page: the kernel before "
		       "5.18 tells it a wrong AT_PHDR, and it crashes without ward too");
	else if (strcmp(mode, "far") == 0)
		mode_doctored("ldfar", FAR, "program headers past 4 KiB");
	else if (strcmp(mode, "nosect") == 0)
		mode_doctored("ldnosect", NOSECT, "no section headers");
	else if (strcmp(mode, "cwdrace") == 0)
		mode_cwdrace();
	else if (strcmp(mode, "interp") == 0)
		mode_interp();
	else if (strcmp(mode, "interpentry") == 0)
		mode_interpentry();

	else {
		errno = EINVAL;
		setup_failed(mode);
	}
	return finish();
}
