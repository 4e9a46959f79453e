/*
 * test_hint.c - the preload library's table, its wire, and ward's reader.
 *
 *   - the table against the issue's list of functions, against what the
 *     built library exports (nm -D) and against what glibc exports: every
 *     listed function wrapped, every version glibc has of it wrapped under
 *     that version, nothing else exported;
 *   - the slot and name-entry layout, and the checks ward makes on them;
 *   - end to end: a program under the library blocks inside fopen and
 *     open, and the hints ward reads from it name those calls, the host
 *     name a dlopened library resolved, and the program's own functions
 *     on its stack.
 *
 * Needs WARD_PRELOAD_LIB, WARD_HINT_PROBE and WARD_PROBE_LIB (set by ctest).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <arpa/inet.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "../../preload/table.h"
#include "../../supervisor/hint.h"

static const struct row {
	const char *sym, *ver;
	int dflt;
} rows[] = {
#define ROW(cname, sym, ver, vk, ...) { #sym, ver, sizeof(#vk) == 4 && #vk[0] == 'D' },
	WARD_PRELOAD_TABLE(ROW)
};
#define N_ROWS (sizeof(rows) / sizeof(rows[0]))

/* The functions issue 22 lists for glibc 2.36 (its "complete list"), spelled out. */
static const char *const required[] = {
	"open", "open64", "openat", "openat64", "creat", "creat64", "fopen", "fopen64", "freopen",
	"freopen64", "__open_2", "__open64_2", "__openat_2", "__openat64_2", "opendir",
	"stat", "stat64", "lstat", "lstat64", "fstatat", "fstatat64", "statx", "__xstat", "__xstat64",
	"__lxstat", "__lxstat64", "__fxstatat", "__fxstatat64", "access", "faccessat", "readlink",
	"readlinkat", "realpath", "mkdir", "mkdirat", "unlink", "unlinkat", "rmdir", "rename",
	"renameat", "renameat2", "link", "linkat", "symlink", "symlinkat", "chmod", "fchmodat",
	"chown", "lchown", "fchownat", "truncate", "truncate64", "utime", "utimes", "utimensat",
	"setxattr", "lsetxattr", "getxattr", "lgetxattr", "listxattr", "llistxattr", "removexattr",
	"lremovexattr", "mknod", "mknodat", "execve", "execv", "execvp", "execvpe", "execl",
	"execlp", "execle", "fexecve", "posix_spawn", "posix_spawnp", "system", "popen", "socket",
	"connect", "bind", "sendto", "sendmsg", "sendmmsg", "getaddrinfo", "gethostbyname",
	"gethostbyname2", "gethostbyname_r", "gethostbyname2_r", "res_query", "res_search",
	"res_querydomain", "res_nquery", "res_nsearch", "res_nquerydomain",
};

static const char *env_or_fail(const char *name)
{
	const char *v = getenv(name);
	if (v == NULL || v[0] == '\0')
		fail_msg("%s is not set (run this test through ctest)", name);
	return v;
}

/* ---- nm -D ---- */

struct dynsym {
	char name[128], ver[32];
	int dflt;
};

/* The defined, versioned function symbols of a library, as nm -D lists them. */
static size_t nm_functions(const char *lib, struct dynsym *out, size_t max)
{
	char cmd[4200], line[512];
	snprintf(cmd, sizeof(cmd), "nm -D --defined-only '%s'", lib);
	FILE *p = popen(cmd, "r");
	size_t n = 0;
	assert_non_null(p);
	while (fgets(line, sizeof(line), p) != NULL) {
		char type, sym[256];
		if (sscanf(line, "%*s %c %255s", &type, sym) != 2 || type == 'A')
			continue;
		char *at = strchr(sym, '@');
		if (at == NULL) {
			/* unversioned: recorded with an empty version, which no row has */
			at = sym + strlen(sym);
		}
		assert_true(n < max);
		struct dynsym *d = &out[n++];
		d->dflt = at[0] == '@' && at[1] == '@';
		snprintf(d->ver, sizeof(d->ver), "%s", at[0] == '\0' ? "" : at + (d->dflt ? 2 : 1));
		*at = '\0';
		snprintf(d->name, sizeof(d->name), "%s", sym);
	}
	assert_int_equal(pclose(p), 0);
	return n;
}

static const struct dynsym *find_sym(const struct dynsym *s, size_t n, const char *name, const char *ver)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(s[i].name, name) == 0 && strcmp(s[i].ver, ver) == 0)
			return &s[i];
	return NULL;
}

static void test_table_covers_issue_list(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(required) / sizeof(required[0]); i++) {
		int found = 0;
		for (size_t j = 0; j < N_ROWS; j++)
			found |= strcmp(rows[j].sym, required[i]) == 0;
		if (!found)
			fail_msg("%s is not in preload/table.h", required[i]);
	}
	/* ...and ward's copy of the table is the same table. */
	assert_int_equal(hint_fn_count(), N_ROWS);
	for (size_t j = 0; j < N_ROWS; j++)
		assert_string_equal(hint_fn_name((unsigned)j + 1), rows[j].sym);
	assert_null(hint_fn_name(0));
	assert_null(hint_fn_name((unsigned)N_ROWS + 1));
}

static void test_library_exports_table(void **state)
{
	(void)state;
	static struct dynsym syms[1024];
	size_t n = nm_functions(env_or_fail("WARD_PRELOAD_LIB"), syms, 1024);

	for (size_t j = 0; j < N_ROWS; j++) {
		const struct dynsym *d = find_sym(syms, n, rows[j].sym, rows[j].ver);
		if (d == NULL)
			fail_msg("the library does not export %s@%s", rows[j].sym, rows[j].ver);
		if (d->dflt != rows[j].dflt)
			fail_msg("%s@%s: default version %d in the library, %d in the table", rows[j].sym,
				 rows[j].ver, d->dflt, rows[j].dflt);
	}
	/* Nothing but the interposers: no helper, no libunwind, no backtrace. */
	for (size_t i = 0; i < n; i++) {
		int found = 0;
		for (size_t j = 0; j < N_ROWS && !found; j++)
			found = strcmp(rows[j].sym, syms[i].name) == 0 && strcmp(rows[j].ver, syms[i].ver) == 0;
		if (!found)
			fail_msg("the library exports %s@%s, which the table does not list", syms[i].name,
				 syms[i].ver);
	}
	assert_int_equal(n, N_ROWS);
}

static void test_table_matches_glibc(void **state)
{
	(void)state;
	static struct dynsym syms[8192];
	Dl_info info;
	/* A function of glibc's that no sanitizer intercepts, to find glibc by. */
	assert_true(dladdr((void *)dlsym(RTLD_DEFAULT, "gnu_get_libc_version"), &info) != 0);
	size_t n = nm_functions(info.dli_fname, syms, 8192);

	for (size_t j = 0; j < N_ROWS; j++) {
		const struct dynsym *d = find_sym(syms, n, rows[j].sym, rows[j].ver);
		if (d == NULL)
			fail_msg("glibc (%s) has no %s@%s", info.dli_fname, rows[j].sym, rows[j].ver);
		if (d->dflt != rows[j].dflt)
			fail_msg("%s@%s: default version %d in glibc, %d in the table", rows[j].sym,
				 rows[j].ver, d->dflt, rows[j].dflt);
	}
	/* Every version glibc has of a wrapped function is wrapped. */
	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < N_ROWS; j++)
			if (strcmp(rows[j].sym, syms[i].name) == 0) {
				int found = 0;
				for (size_t k = 0; k < N_ROWS; k++)
					found |= strcmp(rows[k].sym, syms[i].name) == 0 &&
						 strcmp(rows[k].ver, syms[i].ver) == 0;
				if (!found)
					fail_msg("glibc has %s@%s, which the table does not wrap", syms[i].name,
						 syms[i].ver);
				break;
			}
}

/* ---- the wire ---- */

static void test_wire_layout(void **state)
{
	(void)state;
	/* The offsets ward and the library agree on; a change here is a new WARD_HINT_VERSION. */
	assert_int_equal(offsetof(struct ward_hint_slot, magic), 0);
	assert_int_equal(offsetof(struct ward_hint_slot, tid), 4);
	assert_int_equal(offsetof(struct ward_hint_slot, seq), 8);
	assert_int_equal(offsetof(struct ward_hint_slot, fn), 12);
	assert_int_equal(offsetof(struct ward_hint_slot, nframes), 14);
	assert_int_equal(offsetof(struct ward_hint_slot, key), 16);
	assert_int_equal(offsetof(struct ward_hint_slot, frames), WARD_HINT_SLOT_HEAD);
	assert_int_equal(offsetof(struct ward_hint_name, addr), 8);
	assert_int_equal(offsetof(struct ward_hint_name, name), 24);
	assert_int_equal(WARD_HINT_SIZE % 4096, 0);
	/* The last slot of the last window and the last name entry are inside the region. */
	assert_true(ward_hint_slot_at(0, WARD_HINT_SLOTS + WARD_HINT_WINDOW - 2) + sizeof(struct ward_hint_slot) <=
		    ward_hint_name_at(0, 0));
	assert_true(ward_hint_name_at(0, WARD_HINT_NAMES - 1) + sizeof(struct ward_hint_name) <= WARD_HINT_SIZE);
	assert_int_equal(ward_hint_slot_index(WARD_HINT_SLOTS + 7), 7);
	/* The name index spreads 127.0.0.1 .. 127.0.0.255 over many entries. */
	int used[WARD_HINT_NAMES] = { 0 }, distinct = 0;
	for (int i = 1; i < 256; i++) {
		uint8_t a[16] = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = (uint8_t)i };
		unsigned k = ward_hint_name_index(a);
		assert_true(k < WARD_HINT_NAMES);
		distinct += used[k]++ == 0;
	}
	assert_true(distinct > 128);
}

static unsigned id_of(const char *sym)
{
	for (unsigned i = 1; i <= hint_fn_count(); i++)
		if (strcmp(hint_fn_name(i), sym) == 0)
			return i;
	fail_msg("no wrapper %s", sym);
	return 0;
}

static void test_slot_checks(void **state)
{
	(void)state;
	struct ward_hint_slot s = { .magic = WARD_HINT_MAGIC, .tid = 42, .fn = (uint16_t)id_of("fopen"),
				    .key = 0x1000 };
	uint64_t args[6] = { (uint64_t)-100, 0x1000, 0, 0, 0, 0 };

	assert_true(hint_slot_matches(&s, 42, SYS_openat, args));
	assert_false(hint_slot_matches(&s, 43, SYS_openat, args));   /* another thread's slot */
	assert_false(hint_slot_matches(&s, 42, SYS_connect, args));  /* a syscall fopen does not make */
	args[1] = 0x1008;
	assert_false(hint_slot_matches(&s, 42, SYS_openat, args));   /* not the pointer fopen got */
	args[1] = 0x1000;
	s.magic ^= 1;
	assert_false(hint_slot_matches(&s, 42, SYS_openat, args));
	s.magic = WARD_HINT_MAGIC;
	s.fn = 0;
	assert_false(hint_slot_matches(&s, 42, SYS_openat, args));   /* no call in progress */
	s.fn = (uint16_t)(hint_fn_count() + 1);
	assert_false(hint_slot_matches(&s, 42, SYS_openat, args));   /* no such wrapper */
	s.fn = 0xffff;
	assert_false(hint_slot_matches(&s, 42, SYS_openat, args));
	/* A key of 0 never matches (a NULL the wrapper was given). */
	s.fn = (uint16_t)id_of("fopen");
	s.key = 0;
	args[1] = 0;
	assert_false(hint_slot_matches(&s, 42, SYS_openat, args));
	/* The wrappers that build their own buffers match any syscall of their family. */
	s.fn = (uint16_t)id_of("execvp");
	assert_true(hint_slot_matches(&s, 42, SYS_execve, args));
	assert_false(hint_slot_matches(&s, 42, SYS_openat, args));
	s.fn = (uint16_t)id_of("connect");
	s.key = 0x2000;
	uint64_t cargs[6] = { 3, 0x2000, 16, 0, 0, 0 };
	assert_true(hint_slot_matches(&s, 42, SYS_connect, cargs));
	assert_false(hint_slot_matches(&s, 42, SYS_sendto, args));
}

static void set_name(struct ward_hint_name *e, const char *name, const uint8_t addr[16])
{
	memset(e, 0, sizeof(*e));
	e->seq = 2;
	e->len = (uint16_t)strlen(name);
	memcpy(e->addr, addr, 16);
	memcpy(e->name, name, strlen(name));
}

static void test_name_checks(void **state)
{
	(void)state;
	static const uint8_t a[16] = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 1 };
	static const uint8_t b[16] = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 2 };
	struct ward_hint_name e;
	char out[WARD_HINT_NAME_MAX];

	set_name(&e, "Api.GitHub.com", a);
	assert_true(hint_name_valid(&e, a, out, sizeof(out)));
	assert_string_equal(out, "api.github.com");
	assert_false(hint_name_valid(&e, b, out, sizeof(out))); /* recorded for another address */
	e.seq = 3;
	assert_false(hint_name_valid(&e, a, out, sizeof(out))); /* being written */
	e.seq = 0;
	assert_false(hint_name_valid(&e, a, out, sizeof(out))); /* never written */
	const char *bad[] = { "a b", "a/b", "a..b", ".a", "-a", "a\nb", "a\033[2Jb", "a\"b", "" };
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		set_name(&e, bad[i], a);
		if (hint_name_valid(&e, a, out, sizeof(out)))
			fail_msg("accepted the name \"%s\"", bad[i]);
	}
	set_name(&e, "example.org", a);
	e.len = 5; /* len says "examp", but no NUL there */
	assert_false(hint_name_valid(&e, a, out, sizeof(out)));
	set_name(&e, "example.org", a);
	e.len = WARD_HINT_NAME_MAX;
	assert_false(hint_name_valid(&e, a, out, sizeof(out)));
	set_name(&e, "example.org", a);
	assert_false(hint_name_valid(&e, a, out, 5)); /* does not fit the caller's buffer */
}

/* A region in this process, read back through process_vm_readv. */
static void test_read_region(void **state)
{
	(void)state;
	uint64_t base = 0x3a5f00000000ULL;
	void *p = mmap((void *)(uintptr_t)base, WARD_HINT_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE, -1, 0);
	assert_ptr_equal(p, (void *)(uintptr_t)base);
	pid_t tid = (pid_t)syscall(SYS_gettid);
	struct ward_hint_slot *s =
		(struct ward_hint_slot *)(uintptr_t)ward_hint_slot_at(base, ward_hint_slot_index(tid) + 2);
	*s = (struct ward_hint_slot){ .magic = WARD_HINT_MAGIC, .tid = tid, .fn = (uint16_t)id_of("connect"),
				      .key = 0x5000, .nframes = 2, .frames = { 0x1234, 0x5678 } };
	static const uint8_t a[16] = { [10] = 0xff, [11] = 0xff, [12] = 10, [15] = 9 };
	set_name((struct ward_hint_name *)(uintptr_t)ward_hint_name_at(base, ward_hint_name_index(a)), "db.example", a);
	uint64_t args[6] = { 3, 0x5000, 16 };
	struct hint h;

	assert_int_equal(hint_read(getpid(), tid, base, SYS_connect, args, a, true, &h), 1);
	assert_string_equal(h.via, "connect");
	assert_string_equal(h.host, "db.example");
	assert_int_equal(h.nframes, 2);
	assert_int_equal(h.frames[1], 0x5678);
	/* Without frames only the heads are read. */
	assert_int_equal(hint_read(getpid(), tid, base, SYS_connect, args, NULL, false, &h), 1);
	assert_int_equal(h.nframes, 0);
	assert_string_equal(h.host, "");
	/* A count of frames beyond the slot: the stack is dropped, the rest stays. */
	s->nframes = WARD_HINT_FRAMES + 1;
	assert_int_equal(hint_read(getpid(), tid, base, SYS_connect, args, NULL, true, &h), 1);
	assert_int_equal(h.nframes, 0);
	assert_string_equal(h.via, "connect");
	/* The call ended: no via, but the name is still the process's. */
	s->fn = 0;
	assert_int_equal(hint_read(getpid(), tid, base, SYS_connect, args, a, false, &h), 1);
	assert_null(h.via);
	assert_string_equal(h.host, "db.example");
	assert_int_equal(hint_read(getpid(), tid, base, SYS_connect, args, NULL, false, &h), 0);
	/* A slot beyond the thread's window is not its slot. */
	struct ward_hint_slot *far =
		(struct ward_hint_slot *)(uintptr_t)ward_hint_slot_at(base, ward_hint_slot_index(tid) + WARD_HINT_WINDOW);
	*far = (struct ward_hint_slot){ .magic = WARD_HINT_MAGIC, .tid = tid, .fn = (uint16_t)id_of("connect"), .key = 0x5000 };
	assert_int_equal(hint_read(getpid(), tid, base, SYS_connect, args, NULL, false, &h), 0);
	assert_int_equal(munmap(p, WARD_HINT_SIZE), 0);
	/* No region there: an error, never a hint. */
	assert_true(hint_read(getpid(), tid, base, SYS_connect, args, a, false, &h) < 0);
	assert_null(h.via);
	assert_string_equal(h.host, "");
	assert_int_equal(hint_read(getpid(), tid, 0, SYS_connect, args, a, false, &h), 0);
}

__attribute__((noinline)) static int marker_function(int x)
{
	return x * 3 + 1;
}

static void test_symbolise_self(void **state)
{
	(void)state;
	/* A function of this program, and one of glibc's (that no sanitizer intercepts). */
	uint64_t pcs[2] = { (uint64_t)(uintptr_t)marker_function + 4,
			    (uint64_t)(uintptr_t)dlsym(RTLD_DEFAULT, "gnu_get_libc_version") + 1 };
	struct hint_frame f[2];
	char line[512];

	assert_int_equal(marker_function(1), 4);
	assert_int_equal(hint_symbolise(getpid(), pcs, 2, f, 2), 2);
	assert_string_equal(f[0].function, "marker_function");
	assert_int_equal(f[0].offset, 4);
	assert_non_null(strstr(f[0].file, "test_hint.c"));
	assert_true(f[0].line > 0);
	assert_non_null(strstr(f[0].module, "test_hint"));
	assert_int_equal(strlen(f[0].build_id), 40);
	hint_frame_format(&f[0], line, sizeof(line));
	assert_non_null(strstr(line, "marker_function+0x4 ("));
	assert_string_equal(f[1].function, "gnu_get_libc_version");
	assert_int_equal(f[1].offset, 1);
	assert_non_null(strstr(f[1].module, "libc.so"));
}

/* ---- end to end ---- */

/*
 * Wait (up to 20 s) until pid is blocked in openat of path (a FIFO); the
 * syscall's arguments into args.
 */
static int wait_in_open(pid_t pid, const char *path, uint64_t args[6])
{
	long nr = SYS_openat;
	char proc[64], buf[512];
	snprintf(proc, sizeof(proc), "/proc/%d/syscall", (int)pid);
	for (int i = 0; i < 20000; i++) {
		FILE *f = fopen(proc, "re");
		if (f == NULL)
			return -1;
		long n = -1;
		int got = fgets(buf, sizeof(buf), f) != NULL
				  ? sscanf(buf, "%ld %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64 " %" SCNx64,
					   &n, &args[0], &args[1], &args[2], &args[3], &args[4], &args[5])
				  : 0;
		fclose(f);
		char seen[256] = "";
		struct iovec l = { seen, sizeof(seen) - 1 }, r = { (void *)(uintptr_t)args[1], sizeof(seen) - 1 };
		if (got == 7 && n == nr && process_vm_readv(pid, &l, 1, &r, 1, 0) > 0 && strcmp(seen, path) == 0)
			return 0;
		int st;
		if (waitpid(pid, &st, WNOHANG) == pid)
			return -1; /* it ended instead */
		struct timespec ms = { 0, 1000000 };
		nanosleep(&ms, NULL);
	}
	return -1;
}

static void release_fifo(const char *path)
{
	int fd = open(path, O_WRONLY);
	assert_true(fd >= 0);
	close(fd);
}

static pid_t probe_pid = -1;

/* A failed assertion leaves the probe blocked on its FIFO: it goes with the test. */
static int kill_probe(void **state)
{
	(void)state;
	if (probe_pid > 0) {
		kill(probe_pid, SIGKILL);
		waitpid(probe_pid, NULL, 0);
	}
	probe_pid = -1;
	return 0;
}

static void test_probe_end_to_end(void **state)
{
	(void)state;
	char dir[] = "/tmp/test_hint.XXXXXX", f1[64], f2[64], hint_env[64], pre_env[4200];
	assert_non_null(mkdtemp(dir));
	snprintf(f1, sizeof(f1), "%s/fifo1", dir);
	snprintf(f2, sizeof(f2), "%s/fifo2", dir);
	assert_int_equal(mkfifo(f1, 0600), 0);
	assert_int_equal(mkfifo(f2, 0600), 0);
	uint64_t base = WARD_HINT_BASE;
	snprintf(hint_env, sizeof(hint_env), "%s=%x:%llx:%x", WARD_HINT_ENV, WARD_HINT_VERSION,
		 (unsigned long long)base, WARD_HINT_F_BACKTRACE);
	snprintf(pre_env, sizeof(pre_env), "LD_PRELOAD=%s", env_or_fail("WARD_PRELOAD_LIB"));
	const char *probe = env_or_fail("WARD_HINT_PROBE"), *lib = env_or_fail("WARD_PROBE_LIB");

	pid_t pid = probe_pid = fork();
	assert_true(pid >= 0);
	if (pid == 0) {
		char *argv[] = { (char *)probe, (char *)lib, "localhost", f1, f2, NULL };
		char *envp[] = { pre_env, hint_env, "PATH=/usr/bin:/bin", NULL };
		execve(probe, argv, envp);
		_exit(127);
	}
	uint64_t args[6];
	struct hint h;
	static const uint8_t lo[16] = { [10] = 0xff, [11] = 0xff, [12] = 127, [15] = 1 };

	/* Inside fopen: via fopen, the name the dlopened library resolved, and the stack. */
	assert_int_equal(wait_in_open(pid, f1, args), 0);
	assert_int_equal(hint_read(pid, pid, base, SYS_openat, args, lo, true, &h), 1);
	assert_non_null(h.via);
	assert_string_equal(h.via, "fopen");
	assert_string_equal(h.host, "localhost");
	assert_true(h.nframes >= 2);
	struct hint_frame frames[WARD_HINT_FRAMES];
	int n = hint_symbolise(pid, h.frames, h.nframes, frames, WARD_HINT_FRAMES);
	assert_true(n >= 2);
	int seen_probe = 0, seen_main = 0;
	for (int i = 0; i < n; i++) {
		assert_null(strstr(frames[i].module, "libward-preload"));
		if (strcmp(frames[i].function, "probe_fopen") == 0) {
			seen_probe = 1;
			assert_non_null(strstr(frames[i].file, "hint_probe.c"));
			assert_true(frames[i].line > 0);
		}
		seen_main |= strcmp(frames[i].function, "main") == 0;
	}
	assert_true(seen_probe);
	assert_true(seen_main);
	/* The same syscall seen as another family's is not described by the hint. */
	assert_int_equal(hint_read(pid, pid, base, SYS_connect, args, NULL, false, &h), 0);
	/* Another thread's view of the same slot: no hint. */
	assert_int_equal(hint_read(pid, pid + 1, base, SYS_openat, args, NULL, false, &h), 0);
	release_fifo(f1);

	/* Inside open: the hint moved on with the call. */
	assert_int_equal(wait_in_open(pid, f2, args), 0);
	assert_int_equal(hint_read(pid, pid, base, SYS_openat, args, NULL, false, &h), 1);
	assert_string_equal(h.via, "open");
	release_fifo(f2);

	int st;
	assert_int_equal(waitpid(pid, &st, 0), pid);
	probe_pid = -1;
	assert_true(WIFEXITED(st));
	assert_int_equal(WEXITSTATUS(st), 0);
	unlink(f1);
	unlink(f2);
	rmdir(dir);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_table_covers_issue_list),
		cmocka_unit_test(test_library_exports_table),
		cmocka_unit_test(test_table_matches_glibc),
		cmocka_unit_test(test_wire_layout),
		cmocka_unit_test(test_slot_checks),
		cmocka_unit_test(test_name_checks),
		cmocka_unit_test(test_read_region),
		cmocka_unit_test(test_symbolise_self),
		cmocka_unit_test_teardown(test_probe_end_to_end, kill_probe),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
