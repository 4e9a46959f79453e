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
#include "handlers.h"
#include "../compat.h"
#include "../execcheck.h"
#include "../features.h"
#include "../mem.h"
#include "../notify.h"
#include "../proc.h"
#include "../procfs.h"
#include "../resolve.h"
#include "../session.h"
#include "../sniff.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/capability.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/openat2.h>
#include <nettle/hmac.h>
#include <nettle/sha2.h>

#define MAX_ARGS 65536
#define MAX_ARG_LEN 131072 /* the kernel's MAX_ARG_STRLEN */
#define ARGV_KEPT 4096	   /* bytes of argv a question shows (ask.h: ASK_TEXT) */

struct argv_info {
	struct hmac_sha256_ctx mac;	 /* over the argv strings, each with its NUL */
	struct hmac_sha256_ctx tail_mac; /* the same over argv[1..] */
	size_t len;
	int argc;
	char first[3][PATH_MAX]; /* argv[0..2], for the loader; longer ones are refused there */
	bool first_cut[3];
	char kept[ARGV_KEPT]; /* its start, NUL after each, for a question to the person */
	size_t kept_len;
	uint8_t id[32]; /* the MAC of all of it, naming it in a question */
};

/* Read argv from the agent: pointers in batches, then each string. */
static int read_argv(struct req *r, uint64_t addr, struct argv_info *ai, char *scratch)
{
	uint64_t ptrs[64];
	size_t got;
	int rc;

	hmac_sha256_set_key(&ai->mac, sizeof(S->exec_key), S->exec_key);
	hmac_sha256_set_key(&ai->tail_mac, sizeof(S->exec_key), S->exec_key);
	ai->len = 0;
	ai->kept_len = 0;
	ai->argc = 0;
	memset(ai->first, 0, sizeof(ai->first));
	memset(ai->first_cut, 0, sizeof(ai->first_cut));
	if (addr == 0)
		goto done; /* Linux treats a NULL argv as empty */
	/* Many reads, one check that the request is still alive, after them all. */
	r->batch_reads = true;
	for (;;) {
		uint64_t at = addr + 8u * (unsigned)ai->argc;
		/* The array may end just before an unmapped page: then one at a time. */
		if (mem_read(r, at, ptrs, sizeof(ptrs)) == 0)
			got = 64;
		else if ((rc = mem_read(r, at, ptrs, 8)) == 0)
			got = 1;
		else
			goto fail;
		for (size_t i = 0; i < got; i++) {
			if (ptrs[i] == 0)
				goto done;
			if (ai->argc >= MAX_ARGS) {
				rc = -E2BIG;
				goto fail;
			}
			rc = mem_read_str(r, ptrs[i], scratch, MAX_ARG_LEN);
			if (rc < 0) {
				rc = rc == -ENAMETOOLONG ? -E2BIG : rc;
				goto fail;
			}
			hmac_sha256_update(&ai->mac, (size_t)rc + 1, (const uint8_t *)scratch);
			if (ai->argc > 0)
				hmac_sha256_update(&ai->tail_mac, (size_t)rc + 1,
						   (const uint8_t *)scratch);
			ai->len += (size_t)rc + 1;
			size_t k = (size_t)rc + 1 < ARGV_KEPT - ai->kept_len ? (size_t)rc + 1
									   : ARGV_KEPT - ai->kept_len;
			memcpy(ai->kept + ai->kept_len, scratch, k);
			ai->kept_len += k;
			if (ai->argc < 3) {
				snprintf(ai->first[ai->argc], sizeof(ai->first[0]), "%s", scratch);
				ai->first_cut[ai->argc] = (size_t)rc >= sizeof(ai->first[0]);
			}
			ai->argc++;
		}
	}
done:
	if (ai->argc == 0) {
		/* Since Linux 5.18 an empty argv is run as { "" }. */
		hmac_sha256_update(&ai->mac, 1, (const uint8_t *)"");
		ai->len = 1;
		ai->kept[0] = '\0';
		ai->kept_len = 1;
	}
	/* A copy of the MAC's state: the grant's is finished later (seal_grant). */
	struct hmac_sha256_ctx id = ai->mac;
	hmac_sha256_digest(&id, sizeof(ai->id), ai->id);
	r->batch_reads = false;
	return req_valid(r) ? 0 : -ESRCH;
fail:
	r->batch_reads = false;
	return rc;
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

/* The target an anonymous file (a memfd, a deleted file) is judged as: memfd:NAME. */
static void anon_target(char *real, size_t len, const struct stat *st)
{
	if (st->st_nlink != 0 || real[0] != '/')
		return;
	char name[PATH_MAX];
	const char *p = strncmp(real, "/memfd:", 7) == 0 ? real + 7 : real;
	snprintf(name, sizeof(name), "%s", p);
	char *del = strstr(name, " (deleted)");
	if (del != NULL && del[10] == '\0')
		*del = '\0';
	snprintf(real, len, "memfd:%s", name);
}

/*
 * The kernel makes a process that runs a file it may not read (mode
 * --x) non-dumpable, and a ward without CAP_SYS_PTRACE cannot read the
 * memory of such a process: every call it makes would fail.  So such a
 * file (a program, a script's interpreter, an ELF interpreter) is not run.
 */
static int servable(struct req *r, int fd)
{
	if (ward_capable(CAP_SYS_PTRACE) ||
	    faccessat(fd, "", R_OK, AT_EMPTY_PATH | AT_EACCESS) == 0)
		return 0;
	return refuse(r, EACCES,
		      "ward could not read the memory of a process running a file it may not read");
}

/*
 * A file's head, which says what it runs (its "#!" line, its ELF
 * interpreter).  One ward cannot read is not run: what it would run is
 * unknown.  (The kernel may still read it: a root ward on an NFS export
 * with root_squash, a ward given CAP_SYS_PTRACE alone, a FUSE mount.)
 */
static int judged_head(struct req *r, int fd, struct head *h)
{
	if (read_head(fd, h) == 0)
		return 0;
	return refuse(r, EACCES, "ward cannot read this file, so cannot tell what it would run");
}

/* The head of the script interpreter judged last. */
static __thread struct head ihead;

/*
 * A script's interpreters, "#!" after "#!" as the kernel follows them (at
 * most 4 deep): each must be allowed to exec, none may be the dynamic
 * loader (whose program would then escape judgement), and the last one,
 * an ELF file, is what the process will run: *last (-1 for none; its head
 * in ihead), with its kind and where it names its own interpreter.
 */
static int interpreters(struct req *r, const struct head *head, struct exec_grant *g, int *last,
			enum elf_kind *kind, struct interp_at *ia)
{
	char interp[PATH_MAX], ireal[PATH_MAX];
	int cur = -1, rc = 0;
	struct head *h = &ihead;

	for (int depth = 0; depth < 4; depth++) {
		/* The script's head, then each interpreter's, read when it was judged. */
		if (!shebang(depth > 0 ? h : head, interp, sizeof(interp)))
			break;
		struct ward_verdict iv;
		struct stat st;
		int ifd;
		/* Log the decision taken so far, then judge this interpreter. */
		if (decide_next(r) < 0) {
			rc = -EACCES;
			break;
		}
		rc = resolve(r, AT_FDCWD, interp, RES_FINAL, &ifd, ireal, sizeof(ireal), NULL);
		if (rc < 0)
			break;
		if (fstat(ifd, &st) < 0) {
			rc = -errno;
			close(ifd);
			break;
		}
		anon_target(ireal, sizeof(ireal), &st);
		req_path(r, interp);
		rc = decide_path(r, WARD_OP_EXEC, ireal, &iv);
		if (rc == 0)
			rc = servable(r, ifd);
		if (rc == 0)
			rc = judged_head(r, ifd, h);
		if (rc == 0) {
			*kind = elf_kind_of(ifd, h, ia);
			if (*kind == ELF_LOADER || *kind == ELF_BAD)
				rc = -EACCES;
		}
		if (rc != 0) {
			rc = rc < 0 ? rc : -EACCES;
			close(ifd);
			break;
		}
		g->dev = st.st_dev;
		g->ino = st.st_ino;
		g->ctime = st.st_ctim;
		g->size = st.st_size;
		g->script = true; /* argv is rewritten by the kernel: check the tail only */
		if (cur >= 0)
			close(cur);
		cur = ifd;
	}
	if (rc < 0 && cur >= 0) {
		close(cur);
		cur = -1;
	}
	*last = cur;
	return rc;
}

/*
 * The interpreter's first bytes, for a filesystem whose maps ids are not
 * its own (see run_hashed): the tracer compares its mapping with them,
 * as far as the page mapped from its offset 0 holds them (elf_page0_len).
 */
static int hash_head(struct req *r, int fd, struct exec_grant *g)
{
	static __thread struct head h;
	struct sha256_ctx ctx;

	if (judged_head(r, fd, &h) < 0)
		return -EACCES;
	size_t len = elf_page0_len(&h);
	if (len == 0)
		return refuse(r, EACCES, "the program's ELF interpreter maps no file data at its start, "
					 "which ward checks on this filesystem");
	sha256_init(&ctx);
	sha256_update(&ctx, len, (const uint8_t *)h.buf);
	sha256_digest(&ctx, sizeof(g->run_head_sha), g->run_head_sha);
	g->run_head_len = len;
	g->run_hashed = true;
	return 0;
}

/*
 * What runs first: run (the program, or a script's last interpreter), or
 * the ELF interpreter it names, which the kernel loads and starts in its
 * place.  That interpreter is judged as an exec too: a memfd, or a program
 * whose exec is denied, named as one would otherwise run unjudged.  The
 * name can be turned elsewhere after the decision, so the tracer checks at
 * PTRACE_EVENT_EXEC that the process's first instruction is in this file.
 */
static int judge_run(struct req *r, int run, enum elf_kind kind, const struct head *h,
		     const struct interp_at *ia, struct exec_grant *g)
{
	static __thread char path[PATH_MAX + 1], real[PATH_MAX];
	struct stat st;
	int ifd, rc;

	if (kind != ELF_DYNAMIC)
		return exec_run_ids(run, g);
	if ((rc = read_interp(run, h, ia, path, sizeof(path))) == -EACCES)
		return refuse(r, EACCES, "the program's ELF interpreter could not be read");
	if (rc < 0)
		return rc;
	if (decide_next(r) < 0)
		return -EACCES; /* the program's decision, logged before the interpreter's */
	req_path(r, path);
	rc = resolve(r, AT_FDCWD, path, RES_FINAL, &ifd, real, sizeof(real), NULL);
	if (rc == -E_FOREIGN_PROC) {
		struct ward_verdict v;
		rc = decide_path(r, WARD_OP_EXEC, real, &v);
		return foreign_denied(r, rc);
	}
	if (rc < 0)
		return rc;
	if (fstat(ifd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(ifd);
		return -EACCES; /* the kernel loads regular files only */
	}
	anon_target(real, sizeof(real), &st);
	struct ward_verdict v;
	rc = decide_path(r, WARD_OP_EXEC, real, &v);
	if (rc == 0)
		rc = servable(r, ifd);
	if (rc == 0)
		rc = exec_run_ids(ifd, g);
	g->interp = true;
	if (rc == 0 && g->run_map_dev != g->run_dev)
		rc = hash_head(r, ifd, g);
	close(ifd);
	return rc == 1 ? -EACCES : rc;
}

/*
 * ld.so PROG ARGS: the loader runs PROG, so PROG is what is judged: its
 * real path in *target (r->real2), and the file the loader must find in g.
 * The loader opens PROG by its path later, so that path must lead to the
 * file judged with no symlink on the way (a symlink could be turned
 * elsewhere meanwhile).  Only the first three arguments are kept: a
 * program after more options than that is refused.  0 or a denial.
 */
static int loader_prog(struct req *r, const struct argv_info *ai, struct exec_grant *g,
		       const char **target)
{
	int i = 1, prog, cwd, rc;

	while (i < ai->argc && i < 3 && strncmp(ai->first[i], "--", 2) == 0)
		i += loader_opt_takes_value(ai->first[i]) ? 2 : 1;
	if (i >= 3 || i >= ai->argc || ai->first_cut[i])
		return -EACCES;
	/*
	 * PROG must be absolute: a relative one is looked up by the loader
	 * after the exec, in a cwd that another process sharing it (clone
	 * with CLONE_FS) can change meanwhile, and one without a slash is
	 * looked up in the library path, not the cwd at all.
	 */
	if (ai->first[i][0] != '/')
		return refuse(r, EACCES, "ld.so PROG: PROG must be an absolute path");
	struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS };
	if ((rc = agent_fd(r, AT_FDCWD, &cwd)) < 0)
		return rc;
	prog = ward_openat2(cwd, ai->first[i], &how);
	rc = prog < 0 ? (errno == ELOOP ? -EACCES : -errno) : 0;
	close(cwd);
	if (rc < 0)
		return rc;
	struct stat pst;
	rc = fd_real_path(prog, r->real2, sizeof(r->real2));
	if (rc == 0 && fstat(prog, &pst) < 0)
		rc = -errno;
	close(prog);
	if (rc < 0)
		return rc;
	anon_target(r->real2, sizeof(r->real2), &pst);
	/* The loader opens PROG by this name after the exec: it must find this file. */
	g->loader = true;
	g->prog_dev = pst.st_dev;
	g->prog_ino = pst.st_ino;
	argv_mac(ai->first[i], strlen(ai->first[i]) + 1, g->prog_mac);
	*target = r->real2;
	req_path(r, ai->first[i]);
	return 0;
}

/*
 * The program an exec names, as ward's own O_PATH fd (*opath) and its
 * stat: a regular file, reached by ward's walk (or the agent's fd, with
 * AT_EMPTY_PATH), with a name to judge or the agent's own.  0 or a denial.
 */
static int find_program(struct req *r, bool at, int dirfd, int flags, uint64_t path, int *opath,
			struct stat *st)
{
	struct ward_verdict v;
	int rc;

	if ((rc = mem_read_str(r, path, r->path, sizeof(r->path))) < 0)
		return rc;
	req_about(r, WARD_OP_EXEC, r->path);
	if (at && r->path[0] == '\0' && (flags & AT_EMPTY_PATH)) {
		rc = agent_object(r, dirfd, opath, r->real, sizeof(r->real));
	} else {
		rc = resolve(r, dirfd, r->path,
			     (flags & AT_SYMLINK_NOFOLLOW) ? RES_FINAL_NOFOLLOW : RES_FINAL, opath,
			     r->real, sizeof(r->real), NULL);
	}
	if (rc == -E_FOREIGN_PROC) {
		rc = decide_path(r, WARD_OP_EXEC, r->real, &v);
		return foreign_denied(r, rc);
	}
	if (rc < 0)
		return rc;
	if (fstat(*opath, st) < 0)
		return -errno;
	if (S_ISLNK(st->st_mode))
		return -ELOOP;
	if (!S_ISREG(st->st_mode))
		return -EACCES; /* the kernel runs regular files only */
	return anon_check(r, *opath, r->real);
}

/*
 * What the tracer checks at PTRACE_EVENT_EXEC, into g: argv's MACs and
 * size, whether the program is static, and for a script the file name the
 * kernel hands its interpreter (the name as given to execve, dirfd's
 * /dev/fd/N before a relative one: AT_FDCWD for none), so that a path
 * flipped after the decision to another script with the same interpreter
 * is caught.
 */
static void seal_grant(struct req *r, struct exec_grant *g, struct argv_info *ai, int dirfd,
		       enum elf_kind kind)
{
	if (g->script) {
		char fname[PATH_MAX + 32];
		if (dirfd == AT_FDCWD || r->path[0] == '/')
			snprintf(fname, sizeof(fname), "%s", r->path);
		else if (r->path[0] == '\0')
			snprintf(fname, sizeof(fname), "/dev/fd/%d", dirfd);
		else
			snprintf(fname, sizeof(fname), "/dev/fd/%d/%s", dirfd, r->path);
		argv_mac(fname, strlen(fname) + 1, g->name_mac);
	}
	g->set = true;
	hmac_sha256_digest(&ai->mac, 32, g->argv_mac);
	hmac_sha256_digest(&ai->tail_mac, 32, g->tail_mac);
	g->argv_len = ai->len;
	g->argc = ai->argc;
	g->is_static = kind == ELF_STATIC;
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
	proc_set_grant(r->tid, &g); /* no grant left from an earlier, failed exec */
	if ((rc = find_program(r, at, dirfd, flags, at ? arg[1] : arg[0], &opath, &st)) < 0)
		goto out;
	/*
	 * What the exec must find: this file, unchanged (its ctime and size as
	 * now, before its head is read and judged).  Rewritten in place after
	 * the decision, say from a static program into a loader, it no longer
	 * is what was judged; the tracer compares at PTRACE_EVENT_EXEC, when
	 * the kernel has made the file unwritable (ETXTBSY).
	 */
	g.dev = st.st_dev;
	g.ino = st.st_ino;
	g.ctime = st.st_ctim;
	g.size = st.st_size;
	anon_target(r->real, sizeof(r->real), &st);
	/* argv only once the program is found: most failed execs are a PATH search. */
	if ((rc = read_argv(r, argv, &ai, scratch)) < 0)
		goto out;
	r->exec_argv = ai.kept;
	r->exec_argv_len = ai.kept_len;
	r->exec_argv_total = ai.len;
	r->exec_argv_id = ai.id;

	static __thread struct head head;
	struct interp_at ia = { 0 };
	if (read_head(opath, &head) < 0) {
		/* The policy's answer first: a denied program is logged as such. */
		if ((rc = decide_path(r, WARD_OP_EXEC, r->real, &v)) >= 0 &&
		    (rc = servable(r, opath)) == 0)
			rc = judged_head(r, opath, &head);
		goto out;
	}
	enum elf_kind kind = elf_kind_of(opath, &head, &ia);
	if (kind == ELF_BAD) {
		rc = -EACCES; /* an ELF file ward could not read through is not run */
		goto out;
	}
	const char *target = r->real;
	if (kind == ELF_LOADER && ai.argc > 1 && (rc = loader_prog(r, &ai, &g, &target)) < 0)
		goto out;
	rc = decide_path(r, WARD_OP_EXEC, target, &v);
	if (rc < 0)
		goto out;
	if (rc == 1) {
		rc = -EACCES; /* rewrites never apply to exec */
		goto out;
	}
	if ((rc = servable(r, opath)) < 0)
		goto out;
	/* What runs first: the program, or the last of a script's interpreters, or their ELF interpreter. */
	enum elf_kind rkind = kind;
	int last = -1;
	if (kind == ELF_NONE && (rc = interpreters(r, &head, &g, &last, &rkind, &ia)) < 0)
		goto out;
	rc = judge_run(r, last >= 0 ? last : opath, rkind, last >= 0 ? &ihead : &head, &ia, &g);
	if (last >= 0)
		close(last);
	if (rc < 0)
		goto out;
	seal_grant(r, &g, &ai, at ? dirfd : AT_FDCWD, kind);
	if (!proc_set_grant(r->tid, &g)) {
		rc = -EPERM; /* not traced: nothing would verify this exec */
		goto out;
	}
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
