/*
 * handlers/exec.c - execve, execveat.
 *
 * exec cannot be emulated.  The handler decides on the real path of the
 * program (and of a script's interpreter) and on argv, records what it
 * allowed as a grant for the thread, and lets the kernel run the call
 * (CONTINUE).  The tracer checks at PTRACE_EVENT_EXEC that the process
 * runs the file that was allowed with the argv that was read, and kills
 * it otherwise: a path or argv changed after the check cannot win.
 */
#include "../sup.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#define MAX_ARGS 65536
#define MAX_ARG_LEN 131072 /* the kernel's MAX_ARG_STRLEN */

uint64_t fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;
	for (size_t i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ull;
	}
	return h;
}

struct argv_info {
	uint64_t hash;	    /* over the argv strings, each with its NUL */
	uint64_t tail_hash; /* the same over argv[1..] */
	size_t len;
	int argc;
	char first[3][256]; /* argv[0..2], for the loader and the log */
};

/* Read argv from the agent: pointers in batches, then each string. */
static int read_argv(struct req *r, uint64_t addr, struct argv_info *ai, char *scratch)
{
	uint64_t ptrs[64];
	size_t got;
	int rc;

	ai->hash = FNV_INIT;
	ai->tail_hash = FNV_INIT;
	ai->len = 0;
	ai->argc = 0;
	memset(ai->first, 0, sizeof(ai->first));
	if (addr == 0)
		goto done; /* Linux treats a NULL argv as empty */
	for (;;) {
		uint64_t at = addr + 8u * (unsigned)ai->argc;
		/* The array may end just before an unmapped page: then one at a time. */
		if (mem_read(r, at, ptrs, sizeof(ptrs)) == 0)
			got = 64;
		else if ((rc = mem_read(r, at, ptrs, 8)) == 0)
			got = 1;
		else
			return rc;
		for (size_t i = 0; i < got; i++) {
			if (ptrs[i] == 0)
				goto done;
			if (ai->argc >= MAX_ARGS)
				return -E2BIG;
			rc = mem_read_str(r, ptrs[i], scratch, MAX_ARG_LEN);
			if (rc < 0)
				return rc == -ENAMETOOLONG ? -E2BIG : rc;
			ai->hash = fnv1a(ai->hash, scratch, (size_t)rc + 1);
			if (ai->argc > 0)
				ai->tail_hash = fnv1a(ai->tail_hash, scratch, (size_t)rc + 1);
			ai->len += (size_t)rc + 1;
			if (ai->argc < 3)
				snprintf(ai->first[ai->argc], sizeof(ai->first[0]), "%s", scratch);
			ai->argc++;
		}
	}
done:
	if (ai->argc == 0) {
		/* Since Linux 5.18 an empty argv is run as { "" }. */
		ai->hash = fnv1a(ai->hash, "", 1);
		ai->len = 1;
	}
	return 0;
}

/* What an ELF file is: the dynamic loader, static, or dynamic. */
enum elf_kind { ELF_NONE, ELF_STATIC, ELF_DYNAMIC, ELF_LOADER };

static enum elf_kind elf_kind_of(int opath)
{
	char link[64];
	enum elf_kind kind = ELF_NONE;
	int fd;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", opath);
	fd = open(link, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ELF_NONE;
	elf_version(EV_CURRENT);
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	if (e == NULL || elf_kind(e) != ELF_K_ELF)
		goto out;
	GElf_Ehdr eh;
	size_t nph;
	bool interp = false, dynamic = false;
	if (gelf_getehdr(e, &eh) == NULL || elf_getphdrnum(e, &nph) != 0)
		goto out;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) == NULL)
			continue;
		interp |= ph.p_type == PT_INTERP;
		dynamic |= ph.p_type == PT_DYNAMIC;
	}
	if (interp) {
		kind = ELF_DYNAMIC;
		goto out;
	}
	kind = ELF_STATIC;
	if (eh.e_type != ET_DYN || !dynamic)
		goto out;
	/* No interpreter, position independent, dynamic: a loader if its soname says so. */
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_DYNAMIC)
			continue;
		Elf_Data *data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < sh.sh_size / (sh.sh_entsize ? sh.sh_entsize : 1); i++) {
			GElf_Dyn dyn;
			if (gelf_getdyn(data, (int)i, &dyn) == NULL || dyn.d_tag != DT_SONAME)
				continue;
			const char *so = elf_strptr(e, sh.sh_link, dyn.d_un.d_val);
			if (so && (strncmp(so, "ld-linux", 8) == 0 || strncmp(so, "ld64.so", 7) == 0 ||
				   strncmp(so, "ld-musl", 7) == 0 || strncmp(so, "ld.so", 5) == 0))
				kind = ELF_LOADER;
		}
	}
out:
	if (e != NULL)
		elf_end(e);
	close(fd);
	return kind;
}

/* Options of glibc's ld.so that take a value. */
static bool loader_opt_takes_value(const char *a)
{
	static const char *const with[] = { "--library-path", "--inhibit-rpath", "--audit",
					    "--preload", "--argv0", "--glibc-hwcaps-prefix",
					    "--glibc-hwcaps-mask", NULL };
	for (int i = 0; with[i]; i++)
		if (strcmp(a, with[i]) == 0)
			return true;
	return false;
}

/* Read the first line of a script: "#!INTERP [ARG]". */
static int shebang(int opath, char *interp, size_t len)
{
	char link[64], buf[256];
	int fd;
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", opath);
	fd = open(link, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = pread(fd, buf, sizeof(buf) - 1, 0);
	close(fd);
	if (n < 2 || buf[0] != '#' || buf[1] != '!')
		return 0;
	buf[n] = '\0';
	char *p = buf + 2;
	p += strspn(p, " \t");
	size_t l = strcspn(p, " \t\n");
	if (l == 0 || l >= len)
		return 0;
	memcpy(interp, p, l);
	interp[l] = '\0';
	return 1;
}

int h_exec(struct req *r)
{
	const __u64 *arg = r->n->data.args;
	bool at = r->n->data.nr == SYS_execveat;
	int dirfd = at ? (int)arg[0] : AT_FDCWD, flags = at ? (int)arg[4] : 0;
	uint64_t argv = at ? arg[2] : arg[1];
	static __thread struct argv_info ai;
	static __thread char scratch[MAX_ARG_LEN];
	struct ward_verdict v;
	struct exec_grant g = { 0 };
	int opath = -1, rc;
	struct stat st;

	if (flags & ~(AT_EMPTY_PATH | AT_SYMLINK_NOFOLLOW))
		return -EINVAL;
	if ((rc = mem_read_str(r, at ? arg[1] : arg[0], r->path, sizeof(r->path))) < 0)
		return rc;
	r->op = "exec";
	r->log_path = r->path;
	if ((rc = read_argv(r, argv, &ai, scratch)) < 0)
		return rc;

	if (at && r->path[0] == '\0' && (flags & AT_EMPTY_PATH)) {
		rc = agent_fd(r, dirfd, &opath);
		if (rc == 0)
			rc = fd_real_path(opath, r->real, sizeof(r->real));
	} else {
		rc = resolve(r, dirfd, r->path,
			     (flags & AT_SYMLINK_NOFOLLOW) ? RES_FINAL_NOFOLLOW : RES_FINAL, &opath,
			     r->real, sizeof(r->real), NULL);
	}
	if (rc == -EXDEV) {
		rc = decide_path(r, WARD_OP_EXEC, r->real, &v);
		return rc < 0 ? rc : -EACCES;
	}
	if (rc < 0)
		return rc;
	if (fstat(opath, &st) < 0 || S_ISLNK(st.st_mode)) {
		rc = S_ISLNK(st.st_mode) ? -ELOOP : -errno;
		goto out;
	}
	if (S_ISDIR(st.st_mode)) {
		rc = -EACCES;
		goto out;
	}
	g.dev = st.st_dev;
	g.ino = st.st_ino;

	/* An anonymous file (memfd, deleted file) is its own target. */
	if (st.st_nlink == 0) {
		char *name = r->real;
		if (strncmp(name, "/memfd:", 7) == 0)
			name += 7;
		char *del = strstr(name, " (deleted)");
		if (del != NULL && del[10] == '\0')
			*del = '\0';
		memmove(r->real + 6, name, strlen(name) + 1);
		memcpy(r->real, "memfd:", 6);
	}

	enum elf_kind kind = elf_kind_of(opath);
	const char *target = r->real;
	if (kind == ELF_LOADER && ai.argc > 1) {
		/*
		 * ld.so PROG ARGS: the loader runs PROG, so PROG is what is judged.
		 * Only the first three arguments are kept, so a program named after
		 * more options than that is judged as the loader itself: deny.
		 */
		int i = 1;
		while (i < ai.argc && i < 3 && strncmp(ai.first[i], "--", 2) == 0)
			i += loader_opt_takes_value(ai.first[i]) ? 2 : 1;
		if (i >= 3 || i >= ai.argc) {
			rc = -EACCES;
			goto out;
		}
		int prog;
		rc = resolve(r, AT_FDCWD, ai.first[i], RES_FINAL, &prog, r->real2,
			     sizeof(r->real2), NULL);
		if (rc < 0)
			goto out;
		close(prog);
		target = r->real2;
		r->log_path = ai.first[i];
	}
	rc = decide_path(r, WARD_OP_EXEC, target, &v);
	if (rc < 0)
		goto out;
	if (rc == 1) {
		rc = -EACCES; /* rewrites never apply to exec */
		goto out;
	}

	/* A script: the process will run its interpreter; that must be allowed too. */
	char interp[PATH_MAX];
	if (kind == ELF_NONE && shebang(opath, interp, sizeof(interp))) {
		int ifd;
		char ireal[PATH_MAX];
		struct ward_verdict iv;
		rc = resolve(r, AT_FDCWD, interp, RES_FINAL, &ifd, ireal, sizeof(ireal), NULL);
		if (rc < 0)
			goto out;
		if (fstat(ifd, &st) < 0) {
			rc = -errno;
			close(ifd);
			goto out;
		}
		close(ifd);
		/* Log the script's decision, then judge the interpreter. */
		if (log_request(r, 0) < 0) {
			rc = -EACCES;
			goto out;
		}
		r->log_path = interp;
		rc = decide_path(r, WARD_OP_EXEC, ireal, &iv);
		if (rc != 0) {
			rc = rc < 0 ? rc : -EACCES;
			goto out;
		}
		g.dev = st.st_dev;
		g.ino = st.st_ino;
		g.script = true; /* argv is rewritten by the kernel: check the tail only */
	}
	g.set = true;
	g.argv_hash = ai.hash;
	g.argv_len = ai.len;
	g.tail_hash = ai.tail_hash;
	g.argc = ai.argc;
	g.is_static = kind == ELF_STATIC;
	proc_set_grant(r->tid, &g);
	/*
	 * CONTINUE: exec cannot be performed by the supervisor.  The decision
	 * read the agent's memory, so it is not trusted alone: the tracer
	 * verifies the executable and argv at PTRACE_EVENT_EXEC and kills the
	 * process on any difference (DESIGN.md invariant 4).
	 */
	rc = 0;
out:
	if (opath >= 0)
		close(opath);
	return rc;
}
