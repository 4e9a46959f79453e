/*
 * preload.c - libward-preload.so: tells ward what the kernel cannot see.
 *
 * Loaded into every dynamic program of a ward session through LD_PRELOAD.
 * It is not a security boundary (a static binary, a raw syscall or an
 * unset variable bypass it, and the agent can write whatever it likes
 * into its memory): ward never lets what it says allow anything.  What it
 * adds is context for decisions ward makes on its own: which libc
 * function a syscall came from, which host name an address came from,
 * and on request the caller's stack.  The wire is described in
 * ward_hint.h, the wrapped functions in table.h.
 *
 * Every wrapper is built the same way: resolve-once bootstrap, then
 * begin() (stores into the thread's slot), the real call, end() (one
 * store).  No lock, no malloc, no syscall on that path once the thread
 * has its slot, and errno is the real function's.  The library never
 * prints and never exits.
 */
#define _GNU_SOURCE
#ifdef _FILE_OFFSET_BITS
#error "preload.c wraps the 32- and 64-bit offset functions separately; build it without _FILE_OFFSET_BITS"
#endif

#include <arpa/inet.h>
#include <arpa/nameser.h>
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <pthread.h>
#include <resolv.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/types.h>
#include <unistd.h>
#include <utime.h>

#include "table.h"
#include "ward_hint.h"

#define EXPORT __attribute__((visibility("default")))
/*
 * initial-exec: a thread's first access to a dynamic TLS variable may
 * allocate (through __tls_get_addr), which a wrapper must never do.  The
 * library is preloaded, so it is in the static TLS block.
 */
#define TLS __thread __attribute__((tls_model("initial-exec")))

extern char **environ;

/* ---- the real functions, resolved once ---- */

#define REAL(cname, sym, ver, vk, fam, match, kind, ret, fail, params, args, key) \
	static ret(*r_##cname) params;
WARD_PRELOAD_TABLE(REAL)

enum {
	ID_NONE,
#define ID(cname, ...) ID_##cname,
	WARD_PRELOAD_TABLE(ID)
	ID_END
};

#define OLD_DFL false
#define OLD_OLD true
static const struct real {
	const char *sym, *ver;
	bool old; /* an older version than the default: only dlvsym reaches it */
	void **ptr;
} reals[] = {
#define RES(cname, sym, ver, vk, ...) { #sym, ver, OLD_##vk, (void **)&r_##cname },
	WARD_PRELOAD_TABLE(RES)
};

static bool booted;
static TLS bool in_boot;

/*
 * Resolve every real function: the next definition of the symbol, as the
 * program itself would have bound it.  A default version is looked up with
 * dlsym: an interposer of the program's own after this library in
 * LD_PRELOAD (fakeroot, libfaketime), whose symbols carry no version, is
 * then still called; dlvsym would skip it and reach glibc's directly
 * (dlvsym takes no unversioned definition).  An older version (realpath@
 * GLIBC_2.2.5) only dlvsym can name.  Any thread may do it,
 * more than once: the results are the same.  A wrapper called from inside
 * dlvsym (a malloc that opens a file, say) finds in_boot set and goes on
 * with what is resolved so far; the open wrappers then make the syscall
 * themselves, the others fail with ENOSYS.
 */
static void boot(void)
{
	if (in_boot)
		return;
	int e = errno;
	in_boot = true;
	for (size_t i = 0; i < sizeof(reals) / sizeof(reals[0]); i++)
		if (__atomic_load_n(reals[i].ptr, __ATOMIC_RELAXED) == NULL)
			__atomic_store_n(reals[i].ptr,
					 reals[i].old ? dlvsym(RTLD_NEXT, reals[i].sym, reals[i].ver)
						      : dlsym(RTLD_NEXT, reals[i].sym),
					 __ATOMIC_RELAXED);
	in_boot = false;
	__atomic_store_n(&booted, true, __ATOMIC_RELEASE);
	errno = e;
}

#define READY(cname) \
	((__builtin_expect(!__atomic_load_n(&booted, __ATOMIC_ACQUIRE), 0) ? boot() : (void)0), \
	 r_##cname != NULL)

/* ---- the channel ---- */

static uint8_t *chan;                /* the region; NULL: no channel in this process */
static bool want_backtrace;
static char hint_var[64];            /* "WARD_HINT=..." as this process got it */
static char self_path[4096];         /* this library, as the loader was given it */
static pthread_key_t slot_key;
static bool have_slot_key;
static int (*unw_bt)(void **, int);  /* libunwind's unw_backtrace, with --backtrace */

struct thread_state {
	struct ward_hint_slot *slot;
	int32_t tid;
	int depth;        /* wrappers in progress on this thread: only the outermost writes */
	bool no_slot;     /* the window was full: this thread writes no hints */
};
static TLS struct thread_state self;

static struct ward_hint_slot *slot_at(unsigned i)
{
	return (struct ward_hint_slot *)(chan + (ward_hint_slot_at(0, i)));
}

static bool thread_alive(int32_t tid)
{
	int e = errno;
	bool alive = syscall(SYS_tgkill, getpid(), tid, 0) == 0 || errno != ESRCH;
	errno = e;
	return alive;
}

/*
 * The thread's first hint claims a slot in its window: a free one, or one
 * whose thread is gone (a thread that did not exit through pthread, or a
 * parent's thread in a forked child).  One compare-and-swap each, no lock.
 */
static struct ward_hint_slot *claim(void)
{
	if (self.no_slot)
		return NULL;
	if (self.tid == 0)
		self.tid = (int32_t)syscall(SYS_gettid);
	unsigned first = ward_hint_slot_index(self.tid);
	struct ward_hint_slot *got = NULL;
	for (int pass = 0; pass < 2 && got == NULL; pass++)
		for (unsigned k = 0; k < WARD_HINT_WINDOW && got == NULL; k++) {
			struct ward_hint_slot *s = slot_at(first + k);
			int32_t owner = __atomic_load_n(&s->tid, __ATOMIC_RELAXED);
			if (owner == self.tid)
				got = s;
			else if ((owner == 0 || (pass == 1 && !thread_alive(owner))) &&
				 __atomic_compare_exchange_n(&s->tid, &owner, self.tid, false,
							     __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
				got = s;
		}
	if (got == NULL) {
		self.no_slot = true;
		return NULL;
	}
	got->fn = 0;
	got->magic = WARD_HINT_MAGIC;
	self.slot = got;
	if (have_slot_key)
		pthread_setspecific(slot_key, got);
	return got;
}

/* A thread that exits through pthread gives its slot back. */
static void release(void *p)
{
	struct ward_hint_slot *s = p;
	__atomic_store_n(&s->fn, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&s->tid, 0, __ATOMIC_RELEASE);
	self.slot = NULL;
}

/*
 * The child of fork is a new thread: it claims its own slot when it needs
 * one.  It takes no more stacks: libunwind's locks may have been held by
 * threads of the parent that the child does not have (a program the child
 * execs takes stacks again).
 */
static void fork_child(void)
{
	want_backtrace = false;
	self.slot = NULL;
	self.tid = 0;
	self.no_slot = false;
	if (have_slot_key)
		pthread_setspecific(slot_key, NULL);
}

__attribute__((noinline)) static void capture(struct ward_hint_slot *s)
{
	void *pcs[WARD_HINT_FRAMES + 1];
	int e = errno;
	int n = unw_bt(pcs, WARD_HINT_FRAMES + 1);
	errno = e;
	/* pcs[0] is this function; the wrapper and its callers follow. */
	int k = 0;
	for (int i = 1; i < n && k < WARD_HINT_FRAMES; i++)
		s->frames[k++] = (uint64_t)(uintptr_t)pcs[i];
	s->nframes = (uint16_t)k;
}

struct call {
	struct ward_hint_slot *slot; /* the slot this call wrote, or NULL */
	bool counted;
};

static inline void begin(struct call *c, unsigned id, uint64_t key)
{
	c->slot = NULL;
	c->counted = false;
	if (chan == NULL)
		return;
	c->counted = true;
	if (self.depth++ != 0)
		return; /* a call made by a wrapped call, or by a signal handler during one */
	struct ward_hint_slot *s = self.slot;
	if (s == NULL && (s = claim()) == NULL)
		return;
	s->key = key;
	s->nframes = 0;
	if (want_backtrace && unw_bt != NULL)
		capture(s);
	s->seq++;
	/* fn last: a slot with fn set is complete as far as this thread is concerned. */
	__atomic_store_n(&s->fn, (uint16_t)id, __ATOMIC_RELEASE);
	c->slot = s;
}

static inline void end(struct call *c)
{
	if (c->slot != NULL)
		__atomic_store_n(&c->slot->fn, 0, __ATOMIC_RELEASE);
	if (c->counted)
		self.depth--;
}

#define KEY(x) ((uint64_t)(uintptr_t)(x))

/* ---- the generated wrappers ---- */

#define VK_DFL "@@"
#define VK_OLD "@"
#define SYMVER(cname, sym, ver, vk, ...) __asm__(".symver w_" #cname "," #sym VK_##vk ver);
WARD_PRELOAD_TABLE(SYMVER)

#define DEF_GEN(cname, fam, match, ret, fail, params, args, key) \
	EXPORT ret w_##cname params; \
	EXPORT ret w_##cname params \
	{ \
		struct call c; \
		if (!READY(cname)) { \
			errno = ENOSYS; \
			return fail; \
		} \
		begin(&c, ID_##cname, KEY(key)); \
		ret r = r_##cname args; \
		end(&c); \
		return r; \
	}
#define DEF_OWN(...)
#define DEF(cname, sym, ver, vk, fam, match, kind, ...) DEF_##kind(cname, fam, match, __VA_ARGS__)
WARD_PRELOAD_TABLE(DEF)

#define DECL_OWN(cname, sym, ver, vk, fam, match, kind, ret, fail, params, ...) EXPORT ret w_##cname params;
WARD_PRELOAD_TABLE(DECL_OWN)

/* ---- open: variadic, and needed while the loader bootstraps ---- */

/*
 * The mode argument is there only when the flags need it; before the real
 * function is resolved (a call from inside dlvsym) the wrapper makes the
 * syscall itself.
 */
#define OPEN_WRAPPER(cname, dirparam, dirarg, dirfd) \
	int w_##cname(dirparam const char *path, int flags, ...) \
	{ \
		struct call c; \
		mode_t mode = 0; \
		if (__OPEN_NEEDS_MODE(flags)) { \
			va_list ap; \
			va_start(ap, flags); \
			mode = va_arg(ap, mode_t); \
			va_end(ap); \
		} \
		bool ready = READY(cname); \
		begin(&c, ID_##cname, KEY(path)); \
		int r = ready ? r_##cname(dirarg path, flags, mode) \
			      : (int)syscall(SYS_openat, dirfd, path, flags, mode); \
		end(&c); \
		return r; \
	}
#define NO_DIR
#define COMMA ,
OPEN_WRAPPER(open, NO_DIR, NO_DIR, AT_FDCWD)
OPEN_WRAPPER(open64, NO_DIR, NO_DIR, AT_FDCWD)
OPEN_WRAPPER(openat, int dirfd COMMA, dirfd COMMA, dirfd)
OPEN_WRAPPER(openat64, int dirfd COMMA, dirfd COMMA, dirfd)

/* ---- exec and spawn: the library goes on into the new program ---- */

/* Is word one of the ':'- or ' '-separated words of list? */
static bool has_word(const char *list, const char *word)
{
	size_t n = strlen(word);
	for (const char *p = list; *p != '\0';) {
		size_t k = strcspn(p, ": ");
		if (k == n && memcmp(p, word, n) == 0)
			return true;
		p += k;
		p += *p != '\0';
	}
	return false;
}

static const char *env_get(char *const envp[], const char *name, size_t len)
{
	for (size_t i = 0; envp != NULL && envp[i] != NULL; i++)
		if (strncmp(envp[i], name, len) == 0 && envp[i][len] == '=')
			return envp[i] + len + 1;
	return NULL;
}

/* Does envp already carry the library and the channel? */
static bool env_ok(char *const envp[])
{
	if (chan == NULL || self_path[0] == '\0')
		return true; /* not under ward: pass everything on as it is */
	const char *pre = env_get(envp, "LD_PRELOAD", 10);
	const char *hint = env_get(envp, WARD_HINT_ENV, sizeof(WARD_HINT_ENV) - 1);
	return pre != NULL && has_word(pre, self_path) && hint != NULL &&
	       strcmp(hint, hint_var + sizeof(WARD_HINT_ENV)) == 0;
}

/*
 * Where a fixed environment is built: on the caller's stack when it fits
 * (nothing to give back, even from a vfork child whose exec succeeded,
 * which shares its parent's memory), else in pages of its own.
 */
#define ENV_STACK 8192
struct env_block {
	void *map;
	size_t len;
	_Alignas(char *) char stack[ENV_STACK];
};

/*
 * envp with LD_PRELOAD naming this library (before whatever else it named)
 * and WARD_HINT as this process got it.  Not built with malloc: exec is
 * called in vfork children and after fork in multithreaded programs, where
 * malloc is not safe.  On any failure the program's own envp goes on
 * unchanged.
 */
static char *const *env_fix(char *const envp[], struct env_block *b)
{
	b->map = NULL;
	if (env_ok(envp))
		return envp;
	size_t n = 0;
	while (envp != NULL && envp[n] != NULL)
		n++;
	const char *old = env_get(envp, "LD_PRELOAD", 10);
	size_t plen = sizeof("LD_PRELOAD=") + strlen(self_path) + (old != NULL ? strlen(old) + 1 : 0);
	b->len = (n + 3) * sizeof(char *) + plen;
	void *m = b->stack;
	if (b->len > sizeof(b->stack)) {
		int e = errno;
		m = mmap(NULL, b->len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		errno = e;
		if (m == MAP_FAILED)
			return envp;
		b->map = m;
	}
	char **out = m, *pre = (char *)m + (n + 3) * sizeof(char *);
	if (old != NULL && old[0] != '\0')
		snprintf(pre, plen, "LD_PRELOAD=%s:%s", self_path, old);
	else
		snprintf(pre, plen, "LD_PRELOAD=%s", self_path);
	size_t k = 0;
	out[k++] = pre;
	out[k++] = hint_var;
	for (size_t i = 0; i < n; i++)
		if (strncmp(envp[i], "LD_PRELOAD=", 11) != 0 &&
		    strncmp(envp[i], WARD_HINT_ENV "=", sizeof(WARD_HINT_ENV)) != 0)
			out[k++] = envp[i];
	out[k] = NULL;
	return out;
}

static void env_done(struct env_block *b)
{
	if (b->map != NULL) {
		int e = errno;
		munmap(b->map, b->len);
		errno = e;
	}
}

enum exec_how { BY_PATH, BY_SEARCH, BY_FD, BY_AT };

static int exec_common(unsigned id, uint64_t key, enum exec_how how, int fd, const char *path,
		       char *const argv[], char *const envp[], int flags)
{
	struct env_block b;
	struct call c;
	int r;

	(void)READY(execve);
	char *const *env = env_fix(envp, &b);
	begin(&c, id, key);
	/*
	 * A successful exec does not come back to end().  In a vfork child,
	 * which runs on its parent's memory and thread-local state, a depth
	 * left counted would stop the parent's hints for good: the count goes
	 * back now (nothing can nest in an exec but a signal handler, and a
	 * handler's hint only replaces this one).
	 */
	if (c.counted) {
		self.depth--;
		c.counted = false;
	}
	switch (how) {
	case BY_PATH:
		r = r_execve != NULL ? r_execve(path, argv, env) : (errno = ENOSYS, -1);
		break;
	case BY_SEARCH:
		r = r_execvpe != NULL ? r_execvpe(path, argv, env) : (errno = ENOSYS, -1);
		break;
	case BY_FD:
		r = r_fexecve != NULL ? r_fexecve(fd, argv, env) : (errno = ENOSYS, -1);
		break;
	default:
		r = r_execveat != NULL ? r_execveat(fd, path, argv, env, flags) : (errno = ENOSYS, -1);
		break;
	}
	end(&c);
	env_done(&b);
	return r;
}

int w_execve(const char *path, char *const argv[], char *const envp[])
{
	return exec_common(ID_execve, KEY(path), BY_PATH, -1, path, argv, envp, 0);
}

int w_execv(const char *path, char *const argv[])
{
	return exec_common(ID_execv, KEY(path), BY_PATH, -1, path, argv, environ, 0);
}

int w_execvp(const char *file, char *const argv[])
{
	return exec_common(ID_execvp, 0, BY_SEARCH, -1, file, argv, environ, 0);
}

int w_execvpe(const char *file, char *const argv[], char *const envp[])
{
	return exec_common(ID_execvpe, 0, BY_SEARCH, -1, file, argv, envp, 0);
}

int w_fexecve(int fd, char *const argv[], char *const envp[])
{
	return exec_common(ID_fexecve, 0, BY_FD, fd, NULL, argv, envp, 0);
}

int w_execveat(int dirfd, const char *path, char *const argv[], char *const envp[], int flags)
{
	return exec_common(ID_execveat, KEY(path), BY_AT, dirfd, path, argv, envp, flags);
}

/* The execl forms: argv (and envp for execle) from the arguments, as glibc does. */
#define EXECL_ARGV(arg, argv, envp_out) \
	size_t argc = 1; \
	va_list ap; \
	va_start(ap, arg); \
	while (va_arg(ap, const char *) != NULL) \
		argc++; \
	va_end(ap); \
	const char *argv[argc + 1]; \
	argv[0] = arg; \
	va_start(ap, arg); \
	for (size_t i = 1; i <= argc; i++) \
		argv[i] = va_arg(ap, const char *); \
	envp_out; \
	va_end(ap)

int w_execl(const char *path, const char *arg, ...)
{
	EXECL_ARGV(arg, argv, (void)0);
	return exec_common(ID_execl, KEY(path), BY_PATH, -1, path, (char *const *)argv, environ, 0);
}

int w_execlp(const char *file, const char *arg, ...)
{
	EXECL_ARGV(arg, argv, (void)0);
	return exec_common(ID_execlp, 0, BY_SEARCH, -1, file, (char *const *)argv, environ, 0);
}

int w_execle(const char *path, const char *arg, ...)
{
	char *const *envp;
	EXECL_ARGV(arg, argv, envp = va_arg(ap, char *const *));
	return exec_common(ID_execle, KEY(path), BY_PATH, -1, path, (char *const *)argv, envp, 0);
}

typedef int spawn_fn(pid_t *, const char *, const posix_spawn_file_actions_t *,
		     const posix_spawnattr_t *, char *const[], char *const[]);

/* posix_spawn returns an error number and leaves errno alone. */
static int spawn_common(unsigned id, spawn_fn *real, pid_t *pid, const char *path,
			const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr,
			char *const argv[], char *const envp[])
{
	struct env_block b;
	struct call c;
	if (real == NULL)
		return ENOSYS;
	char *const *env = env_fix(envp, &b);
	begin(&c, id, 0);
	int r = real(pid, path, fa, attr, argv, env);
	end(&c);
	env_done(&b);
	return r;
}

#define SPAWN(cname) \
	int w_##cname(pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa, \
		      const posix_spawnattr_t *attr, char *const argv[], char *const envp[]) \
	{ \
		(void)READY(cname); \
		return spawn_common(ID_##cname, r_##cname, pid, path, fa, attr, argv, envp); \
	}
SPAWN(posix_spawn)
SPAWN(posix_spawn_old)
SPAWN(posix_spawnp)
SPAWN(posix_spawnp_old)

/*
 * system and popen pass the process's own environment on and take no
 * other: when the program dropped the library's variables from it, they
 * are put back there (setenv, as a program would; system and popen are
 * not async-signal-safe either).
 */
static void environ_fix(void)
{
	if (env_ok(environ))
		return;
	int e = errno;
	char buf[sizeof(self_path) + 4096];
	const char *old = getenv("LD_PRELOAD");
	if (old == NULL || old[0] == '\0')
		snprintf(buf, sizeof(buf), "%s", self_path);
	else if (has_word(old, self_path))
		snprintf(buf, sizeof(buf), "%s", old);
	else
		snprintf(buf, sizeof(buf), "%s:%s", self_path, old);
	setenv("LD_PRELOAD", buf, 1);
	setenv(WARD_HINT_ENV, hint_var + sizeof(WARD_HINT_ENV), 1);
	errno = e;
}

int w_system(const char *cmd)
{
	struct call c;
	if (!READY(system)) {
		errno = ENOSYS;
		return -1;
	}
	if (cmd != NULL)
		environ_fix();
	begin(&c, ID_system, 0);
	int r = r_system(cmd);
	end(&c);
	return r;
}

FILE *w_popen(const char *cmd, const char *mode)
{
	struct call c;
	if (!READY(popen)) {
		errno = ENOSYS;
		return NULL;
	}
	environ_fix();
	begin(&c, ID_popen, 0);
	FILE *r = r_popen(cmd, mode);
	end(&c);
	return r;
}

/* ---- the resolver: which name gave which address ---- */

static void name_put(const char *name, const uint8_t addr[16])
{
	size_t len = strnlen(name, WARD_HINT_NAME_MAX);
	if (chan == NULL || len == 0 || len >= WARD_HINT_NAME_MAX)
		return;
	struct ward_hint_name *e = (struct ward_hint_name *)(chan + ward_hint_name_at(0, ward_hint_name_index(addr)));
	/* A seqlock for ward's sake: odd while written.  Two writers at once leave a torn entry, which ward's check refuses. */
	__atomic_add_fetch(&e->seq, 1, __ATOMIC_ACQ_REL);
	memcpy(e->addr, addr, 16);
	memcpy(e->name, name, len);
	e->name[len] = '\0';
	e->len = (uint16_t)len;
	__atomic_add_fetch(&e->seq, 1, __ATOMIC_ACQ_REL);
}

static void v4_mapped(const void *in4, uint8_t out[16])
{
	memset(out, 0, 10);
	out[10] = out[11] = 0xff;
	memcpy(out + 12, in4, 4);
}

static bool numeric(const char *name)
{
	uint8_t buf[16];
	return inet_pton(AF_INET, name, buf) == 1 || inet_pton(AF_INET6, name, buf) == 1;
}

static void name_put_raw(const char *name, int af, const void *a)
{
	uint8_t addr[16];
	if (af == AF_INET)
		v4_mapped(a, addr);
	else if (af == AF_INET6)
		memcpy(addr, a, 16);
	else
		return;
	name_put(name, addr);
}

static void names_from_ai(const char *node, const struct addrinfo *ai)
{
	if (chan == NULL || node == NULL || numeric(node))
		return;
	for (; ai != NULL; ai = ai->ai_next) {
		if (ai->ai_family == AF_INET && ai->ai_addrlen >= sizeof(struct sockaddr_in))
			name_put_raw(node, AF_INET, &((const struct sockaddr_in *)ai->ai_addr)->sin_addr);
		else if (ai->ai_family == AF_INET6 && ai->ai_addrlen >= sizeof(struct sockaddr_in6))
			name_put_raw(node, AF_INET6, &((const struct sockaddr_in6 *)ai->ai_addr)->sin6_addr);
	}
}

static void names_from_hostent(const char *name, const struct hostent *h)
{
	if (chan == NULL || name == NULL || h == NULL || numeric(name))
		return;
	if ((h->h_addrtype != AF_INET || h->h_length != 4) && (h->h_addrtype != AF_INET6 || h->h_length != 16))
		return;
	for (char **a = h->h_addr_list; a != NULL && *a != NULL; a++)
		name_put_raw(name, h->h_addrtype, *a);
}

/*
 * libresolv's parser of DNS answers, opened at the first answer there is
 * to read.  Since glibc 2.34 the res_* functions are libc's, but the
 * parser (ns_initparse, ns_parserr) is still libresolv's alone: linking it
 * would make the loader map it into every program of the session at every
 * exec, for the few that ask a name server themselves.  RTLD_LOCAL: the
 * program's own symbols stay as they were.  Threads that race here each
 * open it (dlopen counts) and store the same addresses.
 */
static __typeof__(ns_initparse) *p_initparse;
static __typeof__(ns_parserr) *p_parserr;
static int resolv_state; /* 0: not tried yet, 1: ready, -1: not there */

static bool resolv_ready(void)
{
	int st = __atomic_load_n(&resolv_state, __ATOMIC_ACQUIRE);
	if (st != 0)
		return st > 0;
	void *h = dlopen("libresolv.so.2", RTLD_NOW | RTLD_LOCAL);
	void *ip = h != NULL ? dlsym(h, "ns_initparse") : NULL;
	void *pp = h != NULL ? dlsym(h, "ns_parserr") : NULL;
	if (ip == NULL || pp == NULL) {
		(void)dlerror(); /* the program's next dlerror() is about its own calls */
		__atomic_store_n(&resolv_state, -1, __ATOMIC_RELEASE);
		return false;
	}
	__atomic_store_n(&p_initparse, (__typeof__(ns_initparse) *)ip, __ATOMIC_RELAXED);
	__atomic_store_n(&p_parserr, (__typeof__(ns_parserr) *)pp, __ATOMIC_RELAXED);
	__atomic_store_n(&resolv_state, 1, __ATOMIC_RELEASE);
	return true;
}

/* The A and AAAA records of a DNS answer, parsed by libresolv. */
static void names_from_answer(const char *name, int type, const unsigned char *ans, int n)
{
	ns_msg msg;
	if (chan == NULL || name == NULL || n <= 0 || (type != ns_t_a && type != ns_t_aaaa && type != ns_t_any))
		return;
	int e = errno;
	if (resolv_ready() && p_initparse(ans, n, &msg) == 0)
		for (int i = 0; i < ns_msg_count(msg, ns_s_an); i++) {
			ns_rr rr;
			if (p_parserr(&msg, ns_s_an, i, &rr) != 0)
				break;
			if (ns_rr_type(rr) == ns_t_a && ns_rr_rdlen(rr) == 4)
				name_put_raw(name, AF_INET, ns_rr_rdata(rr));
			else if (ns_rr_type(rr) == ns_t_aaaa && ns_rr_rdlen(rr) == 16)
				name_put_raw(name, AF_INET6, ns_rr_rdata(rr));
		}
	errno = e;
}

int w_getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		  struct addrinfo **res)
{
	struct call c;
	if (!READY(getaddrinfo))
		return EAI_SYSTEM;
	begin(&c, ID_getaddrinfo, 0);
	int r = r_getaddrinfo(node, service, hints, res);
	end(&c);
	if (r == 0)
		names_from_ai(node, *res);
	return r;
}

#define HOSTENT(cname, params, args) \
	struct hostent *w_##cname params \
	{ \
		struct call c; \
		if (!READY(cname)) \
			return NULL; \
		begin(&c, ID_##cname, 0); \
		struct hostent *h = r_##cname args; \
		end(&c); \
		names_from_hostent(name, h); \
		return h; \
	}
HOSTENT(gethostbyname, (const char *name), (name))
HOSTENT(gethostbyname2, (const char *name, int af), (name, af))

#define HOSTENT_R(cname, params, args) \
	int w_##cname params \
	{ \
		struct call c; \
		if (!READY(cname)) \
			return ENOSYS; \
		begin(&c, ID_##cname, 0); \
		int r = r_##cname args; \
		end(&c); \
		if (r == 0 && result != NULL) \
			names_from_hostent(name, *result); \
		return r; \
	}
HOSTENT_R(gethostbyname_r,
	  (const char *name, struct hostent *ret, char *buf, size_t len, struct hostent **result, int *h_errnop),
	  (name, ret, buf, len, result, h_errnop))
HOSTENT_R(gethostbyname2_r,
	  (const char *name, int af, struct hostent *ret, char *buf, size_t len, struct hostent **result,
	   int *h_errnop),
	  (name, af, ret, buf, len, result, h_errnop))

#define RESQ(cname, params, args, qname) \
	int w_##cname params \
	{ \
		struct call c; \
		if (!READY(cname)) { \
			errno = ENOSYS; \
			return -1; \
		} \
		begin(&c, ID_##cname, 0); \
		int n = r_##cname args; \
		end(&c); \
		if (n > 0) { \
			qname; \
		} \
		return n; \
	}
#define RES_ONE(cname) \
	RESQ(cname, (const char *dname, int cls, int type, unsigned char *answer, int anslen), \
	     (dname, cls, type, answer, anslen), names_from_answer(dname, type, answer, n))
#define RES_N(cname) \
	RESQ(cname, (res_state st, const char *dname, int cls, int type, unsigned char *answer, int anslen), \
	     (st, dname, cls, type, answer, anslen), names_from_answer(dname, type, answer, n))
/* res_querydomain asks for NAME.DOMAIN: that is the name the answer is for. */
#define DOMAIN_NAME \
	char full[2 * NS_MAXDNAME]; \
	if (domain != NULL) \
		snprintf(full, sizeof(full), "%s.%s", name, domain); \
	else \
		snprintf(full, sizeof(full), "%s", name); \
	names_from_answer(full, type, answer, n)
#define RES_DOMAIN(cname) \
	RESQ(cname, (const char *name, const char *domain, int cls, int type, unsigned char *answer, int anslen), \
	     (name, domain, cls, type, answer, anslen), DOMAIN_NAME)
#define RES_NDOMAIN(cname) \
	RESQ(cname, \
	     (res_state st, const char *name, const char *domain, int cls, int type, unsigned char *answer, \
	      int anslen), \
	     (st, name, domain, cls, type, answer, anslen), DOMAIN_NAME)
RES_ONE(res_query)
RES_ONE(res_search)
RES_ONE(__res_query)
RES_ONE(__res_search)
RES_N(res_nquery)
RES_N(res_nsearch)
RES_N(__res_nquery)
RES_N(__res_nsearch)
RES_DOMAIN(res_querydomain)
RES_DOMAIN(__res_querydomain)
RES_NDOMAIN(res_nquerydomain)
RES_NDOMAIN(__res_nquerydomain)

/* ---- start-up ---- */

/* WARD_HINT=VERSION:BASE:FLAGS, numbers in hexadecimal. */
static bool parse_hint(const char *v, uint64_t *base, unsigned *flags)
{
	char *end;
	if (v == NULL || strlen(v) + sizeof(WARD_HINT_ENV) + 1 > sizeof(hint_var))
		return false;
	errno = 0;
	unsigned long ver = strtoul(v, &end, 16);
	if (errno != 0 || ver != WARD_HINT_VERSION || *end != ':')
		return false;
	unsigned long long b = strtoull(end + 1, &end, 16);
	if (errno != 0 || *end != ':' || b == 0 || (b & 4095) != 0)
		return false;
	unsigned long f = strtoul(end + 1, &end, 16);
	if (errno != 0 || *end != '\0')
		return false;
	*base = b;
	*flags = (unsigned)f;
	return true;
}

static void chan_init(void)
{
	uint64_t base;
	unsigned flags;
	const char *v = getenv(WARD_HINT_ENV);

	if (!parse_hint(v, &base, &flags))
		return;
	void *p = mmap((void *)(uintptr_t)base, WARD_HINT_SIZE, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED_NOREPLACE | MAP_NORESERVE, -1, 0);
	if (p == MAP_FAILED)
		return;
	if ((uintptr_t)p != base) { /* a kernel that took MAP_FIXED_NOREPLACE as a hint */
		munmap(p, WARD_HINT_SIZE);
		return;
	}
	snprintf(hint_var, sizeof(hint_var), "%s=%s", WARD_HINT_ENV, v);

	Dl_info info;
	if (dladdr((void *)chan_init, &info) != 0 && info.dli_fname != NULL &&
	    strlen(info.dli_fname) < sizeof(self_path))
		snprintf(self_path, sizeof(self_path), "%s", info.dli_fname);

	/*
	 * libunwind is opened only when ward asked for stacks, and with
	 * RTLD_LOCAL: its own weak backtrace() never joins the global scope,
	 * so the program keeps glibc's.
	 */
	if (flags & WARD_HINT_F_BACKTRACE) {
		void *h = dlopen("libunwind.so.8", RTLD_NOW | RTLD_LOCAL);
		if (h != NULL)
			unw_bt = (int (*)(void **, int))dlsym(h, "unw_backtrace");
		want_backtrace = unw_bt != NULL;
	}
	have_slot_key = pthread_key_create(&slot_key, release) == 0;
	pthread_atfork(NULL, NULL, fork_child);
	__atomic_store_n(&chan, p, __ATOMIC_RELEASE);
	/*
	 * The thread that loads the library claims its slot now, not at its
	 * first wrapped call: a vfork child runs on its parent's thread-local
	 * state, and one that claimed first would leave its own thread id
	 * there, in whose name the parent would write every later hint (ward,
	 * reading the parent's slot, would find none).
	 */
	claim();
}

__attribute__((constructor)) static void init(void)
{
	int e = errno;
	boot();
	chan_init();
	errno = e;
}
