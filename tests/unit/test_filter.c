/*
 * test_filter.c - the seccomp filter ward builds, as a table: a syscall and
 * its arguments -> notify, errno N, allow or kill (libseccomp's rule
 * tests, its tests/NN-*.tests tables, are the model).
 *
 * Each probe is run through the BPF program filter_export() writes (the
 * one ward loads), by a small interpreter of classic BPF over a
 * struct seccomp_data, and through libseccomp's own text of the same
 * filter (PFC), by a reader of that text: the two are produced by
 * different parts of libseccomp (gen_bpf.c, gen_pfc.c), and both must give
 * the answer the table expects.  A sweep then compares the two over every
 * syscall number with a few argument patterns, and every row of
 * syscalls.h whose calls are all notified (or all refused) is checked
 * against its family.
 */

#include "features.h"
#include "filter.h"
#include "syscalls.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <linux/sockios.h>
#include <netinet/in.h>
#include <sched.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

#include <setjmp.h>
#include <cmocka.h>

#define NOTIFY SECCOMP_RET_USER_NOTIF
#define ALLOW SECCOMP_RET_ALLOW
#define KILL SECCOMP_RET_KILL_PROCESS
#define ERR(e) (SECCOMP_RET_ERRNO | (e))

/* The two settings of what the filter depends on besides the table. */
static const struct filter_opts plain = { 0 }; /* stat allowed everywhere, an unprivileged ward */
static const struct filter_opts full = { .stat = true, .root = true, .sys_admin = true,
					 .sys_ptrace = true };

/* ---- the BPF program, and a classic BPF interpreter for seccomp ---- */

struct program {
	struct sock_filter *insn;
	size_t len;
};

static char *export_text(const struct filter_opts *o, enum filter_form form, size_t *len)
{
	int fd = memfd_create("test-filter", MFD_CLOEXEC);
	assert_true(fd >= 0);
	assert_int_equal(filter_export(o, form, fd), 0);
	off_t size = lseek(fd, 0, SEEK_END);
	assert_true(size > 0);
	char *buf = malloc((size_t)size + 1);
	assert_non_null(buf);
	assert_int_equal(pread(fd, buf, (size_t)size, 0), size);
	buf[size] = '\0';
	close(fd);
	*len = (size_t)size;
	return buf;
}

static struct program bpf_of(const struct filter_opts *o)
{
	size_t len;
	char *buf = export_text(o, FILTER_BPF, &len);
	assert_int_equal(len % sizeof(struct sock_filter), 0);
	return (struct program){ (struct sock_filter *)buf, len / sizeof(struct sock_filter) };
}

/*
 * Run p on d as the kernel's seccomp BPF does: A and X are 32 bits, loads
 * are 32-bit words of struct seccomp_data, every jump goes forward.  An
 * instruction this interpreter does not know fails the test.
 */
static uint32_t bpf_run(const struct program *p, const struct seccomp_data *d)
{
	uint32_t a = 0, x = 0, mem[BPF_MEMWORDS] = { 0 };

	for (size_t pc = 0; pc < p->len; pc++) {
		const struct sock_filter *f = &p->insn[pc];
		uint32_t k = f->k;
		switch (BPF_CLASS(f->code)) {
		case BPF_LD:
			if (BPF_MODE(f->code) == BPF_ABS && BPF_SIZE(f->code) == BPF_W) {
				assert_true(k % 4 == 0 && k + 4 <= sizeof(*d));
				memcpy(&a, (const char *)d + k, 4);
			} else if (BPF_MODE(f->code) == BPF_IMM) {
				a = k;
			} else if (BPF_MODE(f->code) == BPF_MEM) {
				assert_true(k < BPF_MEMWORDS);
				a = mem[k];
			} else {
				fail_msg("BPF_LD mode 0x%x at %zu", f->code, pc);
			}
			break;
		case BPF_LDX:
			if (BPF_MODE(f->code) == BPF_IMM)
				x = k;
			else if (BPF_MODE(f->code) == BPF_MEM && k < BPF_MEMWORDS)
				x = mem[k];
			else
				fail_msg("BPF_LDX mode 0x%x at %zu", f->code, pc);
			break;
		case BPF_ST:
			assert_true(k < BPF_MEMWORDS);
			mem[k] = a;
			break;
		case BPF_STX:
			assert_true(k < BPF_MEMWORDS);
			mem[k] = x;
			break;
		case BPF_ALU: {
			uint32_t v = BPF_SRC(f->code) == BPF_X ? x : k;
			switch (BPF_OP(f->code)) {
			case BPF_ADD: a += v; break;
			case BPF_SUB: a -= v; break;
			case BPF_MUL: a *= v; break;
			case BPF_DIV: assert_true(v != 0); a /= v; break;
			case BPF_AND: a &= v; break;
			case BPF_OR: a |= v; break;
			case BPF_XOR: a ^= v; break;
			case BPF_LSH: a = v < 32 ? a << v : 0; break;
			case BPF_RSH: a = v < 32 ? a >> v : 0; break;
			case BPF_NEG: a = -a; break;
			default: fail_msg("BPF_ALU op 0x%x at %zu", f->code, pc);
			}
			break;
		}
		case BPF_JMP: {
			uint32_t v = BPF_SRC(f->code) == BPF_X ? x : k;
			bool t;
			switch (BPF_OP(f->code)) {
			case BPF_JA: pc += k; continue;
			case BPF_JEQ: t = a == v; break;
			case BPF_JGT: t = a > v; break;
			case BPF_JGE: t = a >= v; break;
			case BPF_JSET: t = (a & v) != 0; break;
			default: fail_msg("BPF_JMP op 0x%x at %zu", f->code, pc); return 0;
			}
			pc += t ? f->jt : f->jf;
			break;
		}
		case BPF_RET:
			return BPF_RVAL(f->code) == BPF_A ? a : k;
		case BPF_MISC:
			if (BPF_MISCOP(f->code) == BPF_TAX)
				x = a;
			else
				a = x;
			break;
		default:
			fail_msg("BPF class 0x%x at %zu", f->code, pc);
		}
	}
	fail_msg("the program ran past its end");
	return 0;
}

/* ---- libseccomp's PFC text, read as a program ---- */

/*
 * gen_pfc.c writes one statement a line, two spaces an indent level:
 * "if (COND)" (its body indented below it, an "else" at its own level),
 * and "action ACTION;".  A body without an action falls through to the
 * statements after its if, as the BPF does.
 */
struct pfc_line {
	int depth;
	char text[160];
};

struct pfc {
	struct pfc_line *line;
	size_t n;
};

static struct pfc pfc_of(const struct filter_opts *o)
{
	size_t len;
	char *buf = export_text(o, FILTER_PFC, &len), *save = NULL;
	struct pfc p = { calloc(len / 4 + 1, sizeof(struct pfc_line)), 0 };

	assert_non_null(p.line);
	for (char *l = strtok_r(buf, "\n", &save); l != NULL; l = strtok_r(NULL, "\n", &save)) {
		size_t sp = strspn(l, " ");
		if (l[sp] == '#' || l[sp] == '\0')
			continue;
		assert_true(sp % 2 == 0);
		p.line[p.n].depth = (int)(sp / 2);
		snprintf(p.line[p.n].text, sizeof(p.line[p.n].text), "%s", l + sp);
		p.n++;
	}
	free(buf);
	return p;
}

/* The value of "$syscall", "$arch", "$aN.hi32" or "$aN.lo32" for d. */
static uint32_t pfc_value(const char *name, const struct seccomp_data *d)
{
	if (strcmp(name, "$syscall") == 0)
		return (uint32_t)d->nr;
	if (strcmp(name, "$arch") == 0)
		return d->arch;
	int arg;
	char half[8];
	if (sscanf(name, "$a%d.%4s", &arg, half) == 2 && arg >= 0 && arg < 6) {
		if (strcmp(half, "hi32") == 0)
			return (uint32_t)(d->args[arg] >> 32);
		if (strcmp(half, "lo32") == 0)
			return (uint32_t)d->args[arg];
	}
	fail_msg("PFC operand '%s'", name);
	return 0;
}

/* "if (LHS [& MASK] OP VALUE)" for d. */
static bool pfc_cond(const char *text, const struct seccomp_data *d)
{
	char lhs[32], op[4], rest[64];
	unsigned long long mask = 0xffffffffull, v;

	if (sscanf(text, "if (%31s %3s %63[^)])", lhs, op, rest) != 3)
		fail_msg("PFC condition '%s'", text);
	if (strcmp(op, "&") == 0) {
		if (sscanf(rest, "%lli %3s %lli", &mask, op, &v) != 3)
			fail_msg("PFC condition '%s'", text);
	} else if (sscanf(rest, "%lli", &v) != 1) {
		fail_msg("PFC condition '%s'", text);
	}
	uint32_t a = pfc_value(lhs, d) & (uint32_t)mask;
	if (strcmp(op, "==") == 0)
		return a == v;
	if (strcmp(op, ">=") == 0)
		return a >= v;
	if (strcmp(op, ">") == 0)
		return a > v;
	fail_msg("PFC operator '%s' in '%s'", op, text);
	return false;
}

static uint32_t pfc_action(const char *text)
{
	char word[64];
	unsigned long long v;

	if (sscanf(text, "action %63[^;];", word) != 1)
		fail_msg("PFC action '%s'", text);
	if (strcmp(word, "ALLOW") == 0)
		return ALLOW;
	if (strcmp(word, "KILL_PROCESS") == 0)
		return KILL;
	if (sscanf(word, "ERRNO(%lli)", &v) == 1)
		return ERR((uint32_t)v);
	if (sscanf(word, "%lli", &v) == 1)
		return (uint32_t)v; /* an action libseccomp 2.5 has no word for: NOTIFY */
	fail_msg("PFC action '%s'", text);
	return 0;
}

/* The first line after i that is not deeper than depth. */
static size_t pfc_skip(const struct pfc *p, size_t i, int depth)
{
	while (i < p->n && p->line[i].depth > depth)
		i++;
	return i;
}

/*
 * Run the statements from line i at depth until the depth ends: 1 with
 * *ret when an action was taken, else 0 (fall through).
 */
static int pfc_block(const struct pfc *p, size_t i, int depth, const struct seccomp_data *d,
		     uint32_t *ret)
{
	while (i < p->n && p->line[i].depth == depth) {
		const char *t = p->line[i].text;
		if (strncmp(t, "action ", 7) == 0) {
			*ret = pfc_action(t);
			return 1;
		}
		if (strncmp(t, "if (", 4) != 0)
			fail_msg("PFC statement '%s'", t);
		bool c = pfc_cond(t, d);
		size_t then = i + 1, after = pfc_skip(p, then, depth), els = 0;
		if (after < p->n && p->line[after].depth == depth &&
		    strcmp(p->line[after].text, "else") == 0) {
			els = after + 1;
			after = pfc_skip(p, els, depth);
		}
		if (c && pfc_block(p, then, depth + 1, d, ret))
			return 1;
		if (!c && els != 0 && pfc_block(p, els, depth + 1, d, ret))
			return 1;
		i = after;
	}
	return 0;
}

static uint32_t pfc_run(const struct pfc *p, const struct seccomp_data *d)
{
	uint32_t ret = 0;
	if (!pfc_block(p, 0, 0, d, &ret))
		fail_msg("the PFC program took no action");
	return ret;
}

/* ---- the table ---- */

struct probe {
	const char *what;
	int nr;
	uint64_t a[6];
	uint32_t plain, full; /* what the filter answers with each setting */
	uint32_t arch;	      /* 0: x86-64 */
	/*
	 * libseccomp's PFC does not show its x32 check (a number with bit 30
	 * set, on x86-64): such a probe is the BPF's alone.
	 */
	bool not_in_pfc;
};

#define A(...) { __VA_ARGS__ }
/* A probe of an x86-64 call. */
#define P(what, nr, args, plain, full) { what, nr, args, plain, full, 0, false }
#define X 0x1000 /* an address: its value is never looked at */
#define HI (1ull << 32)

static const struct probe probes[] = {
	/* open: every open but O_PATH ones while stat is allowed everywhere */
	P("openat for reading", SYS_openat, A(AT_FDCWD, X, O_RDONLY), NOTIFY, NOTIFY),
	P("openat O_PATH", SYS_openat, A(AT_FDCWD, X, O_PATH), ALLOW, NOTIFY),
	P("openat O_PATH|O_DIRECTORY", SYS_openat, A(AT_FDCWD, X, O_PATH | O_DIRECTORY), ALLOW,
	  NOTIFY),
	P("openat O_PATH|O_CREAT (the kernel ignores O_CREAT)", SYS_openat,
	  A(AT_FDCWD, X, O_PATH | O_CREAT), ALLOW, NOTIFY),
	P("open O_WRONLY|O_CREAT", SYS_open, A(X, O_WRONLY | O_CREAT, 0644), NOTIFY, NOTIFY),
	P("open O_PATH", SYS_open, A(X, O_PATH), ALLOW, NOTIFY),
	P("openat2 (its flags are in memory)", SYS_openat2, A(AT_FDCWD, X, X, 24), NOTIFY, NOTIFY),
	P("creat", SYS_creat, A(X, 0644), NOTIFY, NOTIFY),
	P("inotify_add_watch", SYS_inotify_add_watch, A(3, X, 0), NOTIFY, NOTIFY),
	/* stat: only when the policy restricts it */
	P("stat", SYS_stat, A(X, X), ALLOW, NOTIFY),
	P("newfstatat", SYS_newfstatat, A(AT_FDCWD, X, X, 0), ALLOW, NOTIFY),
	P("readlink", SYS_readlink, A(X, X, 64), ALLOW, NOTIFY),
	P("fstat (an fd: nothing to decide)", SYS_fstat, A(3, X), ALLOW, ALLOW),
	/* change, exec, network */
	P("unlinkat", SYS_unlinkat, A(AT_FDCWD, X, 0), NOTIFY, NOTIFY),
	P("renameat2", SYS_renameat2, A(AT_FDCWD, X, AT_FDCWD, X, 0), NOTIFY, NOTIFY),
	P("execve", SYS_execve, A(X, X, X), NOTIFY, NOTIFY),
	P("connect", SYS_connect, A(3, X, 16), NOTIFY, NOTIFY),
	P("sendto without an address", SYS_sendto, A(3, X, 10, 0, 0, 0), ALLOW, ALLOW),
	P("sendto with an address", SYS_sendto, A(3, X, 10, 0, X, 16), NOTIFY, NOTIFY),
	P("sendto, an address in the high bits only", SYS_sendto, A(3, X, 10, 0, HI, 16), NOTIFY,
	  NOTIFY),
	P("read", SYS_read, A(3, X, 10), ALLOW, ALLOW),
	P("getpid", SYS_getpid, A(0), ALLOW, ALLOW),
	/* socket: the kinds judged by address are made without a round trip */
	P("socket inet stream", SYS_socket, A(AF_INET, SOCK_STREAM, 0), ALLOW, ALLOW),
	P("socket inet6 datagram, cloexec", SYS_socket, A(AF_INET6, SOCK_DGRAM | SOCK_CLOEXEC, 0),
	  ALLOW, ALLOW),
	P("socket unix", SYS_socket, A(AF_UNIX, SOCK_STREAM, 0), ALLOW, ALLOW),
	P("socket netlink", SYS_socket, A(AF_NETLINK, SOCK_RAW, 0), ALLOW, ALLOW),
	P("socket inet, domain's high bits set (the kernel reads an int)", SYS_socket,
	  A(HI | AF_INET, SOCK_STREAM, 0), ALLOW, ALLOW),
	P("socket inet raw", SYS_socket, A(AF_INET, SOCK_RAW, IPPROTO_ICMP), NOTIFY, NOTIFY),
	P("socket inet stream, protocol TCP", SYS_socket, A(AF_INET, SOCK_STREAM, IPPROTO_TCP),
	  NOTIFY, NOTIFY),
	P("socket inet seqpacket (SCTP)", SYS_socket, A(AF_INET, SOCK_SEQPACKET, 0), NOTIFY,
	  NOTIFY),
	P("socket packet", SYS_socket, A(AF_PACKET, SOCK_RAW, 0), NOTIFY, NOTIFY),
	P("socket vsock", SYS_socket, A(40, SOCK_STREAM, 0), NOTIFY, NOTIFY),
	/* ioctl and fcntl: what aims signals, btrfs's type, and the refused ones */
	P("ioctl TCGETS", SYS_ioctl, A(0, TCGETS, X), ALLOW, ALLOW),
	P("ioctl TIOCSTI", SYS_ioctl, A(0, TIOCSTI, X), ERR(EPERM), ERR(EPERM)),
	P("ioctl TIOCSTI with high bits (the kernel reads 32)", SYS_ioctl, A(0, HI | TIOCSTI, X),
	  ERR(EPERM), ERR(EPERM)),
	P("ioctl TIOCLINUX", SYS_ioctl, A(0, TIOCLINUX, X), ERR(EPERM), ERR(EPERM)),
	P("ioctl FIOSETOWN", SYS_ioctl, A(3, FIOSETOWN, X), NOTIFY, NOTIFY),
	P("ioctl SIOCSPGRP", SYS_ioctl, A(3, SIOCSPGRP, X), NOTIFY, NOTIFY),
	P("ioctl FIOASYNC", SYS_ioctl, A(3, FIOASYNC, X), NOTIFY, NOTIFY),
	P("ioctl TIOCSPGRP", SYS_ioctl, A(0, TIOCSPGRP, X), NOTIFY, NOTIFY),
	P("ioctl btrfs snapshot (type 0x94)", SYS_ioctl, A(3, 0x50009401, X), NOTIFY, NOTIFY),
	P("ioctl SG_IO", SYS_ioctl, A(3, 0x2285, X), ERR(EPERM), ERR(EPERM)),
	P("ioctl FS_IOC_SETFLAGS (any size)", SYS_ioctl, A(3, 0x40086602, X), ERR(EPERM),
	  ERR(EPERM)),
	P("ioctl FIFREEZE", SYS_ioctl, A(3, 0xc0045877, X), ERR(EPERM), ERR(EPERM)),
	P("ioctl TIOCVHANGUP", SYS_ioctl, A(0, 0x5437, 0), ERR(EPERM), ERR(EPERM)),
	P("ioctl TIOCSCTTY 1 (steal): refused with CAP_SYS_ADMIN", SYS_ioctl, A(0, TIOCSCTTY, 1),
	  ALLOW, ERR(EPERM)),
	P("ioctl TIOCSCTTY 0", SYS_ioctl, A(0, TIOCSCTTY, 0), ALLOW, ALLOW),
	P("fcntl F_GETFL", SYS_fcntl, A(3, F_GETFL, 0), ALLOW, ALLOW),
	P("fcntl F_SETOWN", SYS_fcntl, A(3, F_SETOWN, 1), NOTIFY, NOTIFY),
	P("fcntl F_SETOWN_EX", SYS_fcntl, A(3, F_SETOWN_EX, X), NOTIFY, NOTIFY),
	P("fcntl F_SETFL O_ASYNC", SYS_fcntl, A(3, F_SETFL, O_ASYNC | O_NONBLOCK), NOTIFY, NOTIFY),
	P("fcntl F_SETFL O_NONBLOCK", SYS_fcntl, A(3, F_SETFL, O_NONBLOCK), ALLOW, ALLOW),
	/* processes: only a target other than the caller, and the core dump limit */
	P("kill", SYS_kill, A(1, SIGTERM), NOTIFY, NOTIFY),
	P("tgkill", SYS_tgkill, A(1, 1, SIGTERM), NOTIFY, NOTIFY),
	P("pidfd_send_signal", SYS_pidfd_send_signal, A(3, SIGTERM, 0, 0), NOTIFY, NOTIFY),
	P("prlimit64 of itself, NOFILE", SYS_prlimit64, A(0, RLIMIT_NOFILE, 0, X), ALLOW, ALLOW),
	P("prlimit64 of itself, a new CORE", SYS_prlimit64, A(0, RLIMIT_CORE, X, 0), NOTIFY,
	  NOTIFY),
	P("prlimit64 of itself, CORE read only", SYS_prlimit64, A(0, RLIMIT_CORE, 0, X), ALLOW,
	  ALLOW),
	P("prlimit64 of another", SYS_prlimit64, A(1234, RLIMIT_NOFILE, 0, X), NOTIFY, NOTIFY),
	P("setrlimit CORE", SYS_setrlimit, A(RLIMIT_CORE, X), NOTIFY, NOTIFY),
	P("setrlimit NOFILE", SYS_setrlimit, A(RLIMIT_NOFILE, X), ALLOW, ALLOW),
	P("sched_setaffinity of itself", SYS_sched_setaffinity, A(0, 8, X), ALLOW, ALLOW),
	P("sched_setaffinity of another", SYS_sched_setaffinity, A(1234, 8, X), NOTIFY, NOTIFY),
	P("sched_setaffinity, a pid in the high bits only", SYS_sched_setaffinity, A(HI, 8, X),
	  NOTIFY, NOTIFY),
	P("setpriority", SYS_setpriority, A(PRIO_PROCESS, 0, 5), NOTIFY, NOTIFY),
	/* System V IPC: a get that may make an object */
	P("shmget IPC_PRIVATE", SYS_shmget, A(IPC_PRIVATE, 4096, 0600), NOTIFY, NOTIFY),
	P("shmget a key, no IPC_CREAT", SYS_shmget, A(5, 4096, 0600), ALLOW, ALLOW),
	P("shmget a key, IPC_CREAT", SYS_shmget, A(5, 4096, IPC_CREAT | 0600), NOTIFY, NOTIFY),
	P("msgget a key, IPC_CREAT (its second argument)", SYS_msgget, A(5, IPC_CREAT | 0600),
	  NOTIFY, NOTIFY),
	P("msgget a key", SYS_msgget, A(5, 0600), ALLOW, ALLOW),
	P("semget a key, IPC_CREAT", SYS_semget, A(5, 1, IPC_CREAT | 0600), NOTIFY, NOTIFY),
	P("msgsnd", SYS_msgsnd, A(3, X, 8, 0), NOTIFY, NOTIFY),
	/* credentials: under a root ward only */
	P("setuid", SYS_setuid, A(0), ALLOW, NOTIFY),
	P("capset", SYS_capset, A(X, X), ALLOW, NOTIFY),
	P("umask", SYS_umask, A(022), NOTIFY, NOTIFY),
	/* forbidden */
	P("io_uring_setup", SYS_io_uring_setup, A(8, X), ERR(ENOSYS), ERR(ENOSYS)),
	P("clone3", SYS_clone3, A(X, 88), ERR(ENOSYS), ERR(ENOSYS)),
	P("fchmodat2 (452)", 452, A(AT_FDCWD, X, 0600, 0), ERR(ENOSYS), ERR(ENOSYS)),
	P("quotactl_fd (443)", 443, A(3, 0, 0, X), ERR(EPERM), ERR(EPERM)),
	P("ptrace", SYS_ptrace, A(16 /* PTRACE_ATTACH */, 1), ERR(EPERM), ERR(EPERM)),
	P("process_vm_readv", SYS_process_vm_readv, A(1, X, 1, X, 1, 0), ERR(EPERM), ERR(EPERM)),
	P("mount", SYS_mount, A(X, X, X, 0, 0), ERR(EPERM), ERR(EPERM)),
	P("unshare", SYS_unshare, A(CLONE_NEWUSER), ERR(EPERM), ERR(EPERM)),
	P("bpf", SYS_bpf, A(0, X, 64), ERR(EPERM), ERR(EPERM)),
	P("clone a child", SYS_clone, A(SIGCHLD, 0, 0, 0, 0), ALLOW, ALLOW),
	P("clone a thread", SYS_clone,
	  A(CLONE_VM | CLONE_FS | CLONE_FILES | CLONE_SIGHAND | CLONE_THREAD, X, X, X, X), ALLOW,
	  ALLOW),
	P("clone CLONE_UNTRACED", SYS_clone, A(CLONE_UNTRACED | SIGCHLD, 0, 0, 0, 0), ERR(EPERM),
	  ERR(EPERM)),
	P("clone CLONE_NEWUSER", SYS_clone, A(CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0), ERR(EPERM),
	  ERR(EPERM)),
	P("seccomp a filter with a listener", SYS_seccomp,
	  A(SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, X), ERR(EPERM), ERR(EPERM)),
	P("seccomp a filter", SYS_seccomp, A(SECCOMP_SET_MODE_FILTER, 0, X), ALLOW, ALLOW),
	P("setsockopt IP_OPTIONS", SYS_setsockopt, A(3, IPPROTO_IP, IP_OPTIONS, X, 8), ERR(EPERM),
	  ERR(EPERM)),
	P("setsockopt IPV6_RTHDR", SYS_setsockopt, A(3, IPPROTO_IPV6, IPV6_RTHDR, X, 8),
	  ERR(EPERM), ERR(EPERM)),
	P("setsockopt SO_REUSEADDR", SYS_setsockopt, A(3, SOL_SOCKET, SO_REUSEADDR, X, 4), ALLOW,
	  ALLOW),
	P("prctl PR_SET_DUMPABLE 0: refused without CAP_SYS_PTRACE", SYS_prctl,
	  A(PR_SET_DUMPABLE, 0), ERR(EPERM), ALLOW),
	P("prctl PR_SET_DUMPABLE 1", SYS_prctl, A(PR_SET_DUMPABLE, 1), ALLOW, ALLOW),
	P("prctl PR_CAPBSET_DROP: refused under a root ward", SYS_prctl, A(PR_CAPBSET_DROP, 21),
	  ALLOW, ERR(EPERM)),
	P("prctl PR_SET_NAME", SYS_prctl, A(PR_SET_NAME, X), ALLOW, ALLOW),
	/* other ABIs */
	{ "i386 int 0x80", 5, A(X, 0), KILL, KILL, AUDIT_ARCH_I386, false },
	{ "x32 (openat)", 0x40000000 | 257, A(AT_FDCWD, X, 0), KILL, KILL, 0, true },
};

static struct seccomp_data data_of(const struct probe *p)
{
	struct seccomp_data d = { .nr = p->nr, .arch = p->arch ? p->arch : AUDIT_ARCH_X86_64 };
	memcpy(d.args, p->a, sizeof(d.args));
	return d;
}

static const char *answer(uint32_t v, char *buf, size_t len)
{
	if (v == NOTIFY)
		return "notify";
	if (v == ALLOW)
		return "allow";
	if (v == KILL)
		return "kill";
	if ((v & SECCOMP_RET_ACTION_FULL) == SECCOMP_RET_ERRNO)
		snprintf(buf, len, "errno %u", v & SECCOMP_RET_DATA);
	else
		snprintf(buf, len, "0x%08x", v);
	return buf;
}

/* Every probe, through both readings of the filter, with one setting. */
static void check_probes(const struct filter_opts *o, bool with_full)
{
	struct program bpf = bpf_of(o);
	struct pfc pfc = pfc_of(o);
	int bad = 0;

	for (size_t i = 0; i < sizeof(probes) / sizeof(probes[0]); i++) {
		const struct probe *p = &probes[i];
		struct seccomp_data d = data_of(p);
		uint32_t want = with_full ? p->full : p->plain, b = bpf_run(&bpf, &d),
			 t = p->not_in_pfc ? want : pfc_run(&pfc, &d);
		char w1[32], w2[32], w3[32];
		if (b != want || t != want) {
			print_message("%s (%s): want %s, BPF %s, PFC %s\n", p->what,
				      with_full ? "full" : "plain", answer(want, w1, sizeof(w1)),
				      answer(b, w2, sizeof(w2)), answer(t, w3, sizeof(w3)));
			bad++;
		}
	}
	free(bpf.insn);
	free(pfc.line);
	assert_int_equal(bad, 0);
}

static void test_probes_plain(void **state)
{
	(void)state;
	check_probes(&plain, false);
}

static void test_probes_full(void **state)
{
	(void)state;
	check_probes(&full, true);
}

/*
 * The two readings agree on every syscall number, with arguments that
 * are all zero, all ones, and a few that the rules single out.
 */
static void check_sweep(const struct filter_opts *o)
{
	static const uint64_t patterns[][6] = {
		{ 0 },
		{ ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull },
		{ 1, 1, 1, 1, 1, 1 },
		{ AF_INET, SOCK_RAW, 0, 0, 0, 0 },
		{ 0, F_SETFL, O_ASYNC, 0, 0, 0 },
		{ 0, 0x9400, 0, 0, 0, 0 },
		{ HI, HI, HI, HI, HI, HI },
		{ 0, 0, O_PATH, 0, 0, 0 },
	};
	struct program bpf = bpf_of(o);
	struct pfc pfc = pfc_of(o);
	int bad = 0;

	for (int nr = 0; nr < 512; nr++)
		for (size_t k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++) {
			struct seccomp_data d = { .nr = nr, .arch = AUDIT_ARCH_X86_64 };
			memcpy(d.args, patterns[k], sizeof(d.args));
			uint32_t b = bpf_run(&bpf, &d), t = pfc_run(&pfc, &d);
			if (b != t && bad++ < 10)
				print_message("syscall %d, pattern %zu: BPF 0x%08x, PFC 0x%08x\n", nr, k, b,
					      t);
		}
	free(bpf.insn);
	free(pfc.line);
	assert_int_equal(bad, 0);
}

/*
 * filter_notifies (which degraded.c asks at every call's entry, and
 * sighold.c of a restarted call) says of each call what the BPF does:
 * every syscall number with the sweep's arguments, and socket() with
 * every family, type and protocol the rules tell apart.
 */
static void check_notifies(const struct filter_opts *o)
{
	static const uint64_t patterns[][6] = {
		{ 0 }, { ~0ull, ~0ull, ~0ull, ~0ull, ~0ull, ~0ull }, { 1, 1, 1, 1, 1, 1 },
		{ 0, F_SETFL, O_ASYNC, 0, 0, 0 }, { HI, HI, HI, HI, HI, HI }, { 0, 0, O_PATH, 0, 0, 0 },
	};
	struct program bpf = bpf_of(o);
	int bad = 0, notified = 0;

	for (int nr = 0; nr < 512; nr++)
		for (size_t k = 0; k < sizeof(patterns) / sizeof(patterns[0]); k++) {
			struct seccomp_data d = { .nr = nr, .arch = AUDIT_ARCH_X86_64 };
			memcpy(d.args, patterns[k], sizeof(d.args));
			bool b = bpf_run(&bpf, &d) == NOTIFY;
			notified += b;
			if (b != filter_notifies_with(o, nr, patterns[k]) && bad++ < 10)
				print_message("syscall %d, pattern %zu: BPF says %d\n", nr, k, b);
		}
	for (uint64_t dom = 0; dom < 70; dom++)
		for (uint64_t type = 0; type < 17; type++)
			for (uint64_t proto = 0; proto < 3; proto++) {
				uint64_t args[6] = { dom, type | SOCK_CLOEXEC, proto ? 131 + proto : 0 };
				struct seccomp_data d = { .nr = SYS_socket, .arch = AUDIT_ARCH_X86_64 };
				memcpy(d.args, args, sizeof(d.args));
				bool b = bpf_run(&bpf, &d) == NOTIFY;
				if (b != filter_notifies_with(o, SYS_socket, args) && bad++ < 10)
					print_message("socket(%d, %d, %d): BPF says %d\n", (int)dom,
						      (int)type, (int)args[2], b);
			}
	free(bpf.insn);
	assert_int_equal(bad, 0);
	assert_true(notified > 100); /* the sweep reached the table */
}

static void test_notifies_plain(void **state)
{
	(void)state;
	check_notifies(&plain);
}

static void test_notifies_full(void **state)
{
	(void)state;
	check_notifies(&full);
}

static void test_sweep_plain(void **state)
{
	(void)state;
	check_sweep(&plain);
}

static void test_sweep_full(void **state)
{
	(void)state;
	check_sweep(&full);
}

/*
 * Every row of the table whose notify column is ALWAYS is answered as its
 * family says, whatever its arguments; an UNLESS_OPATH row notifies a call
 * without O_PATH.  (The rows of ANY_OF and BY are the probes' to check.)
 */
#undef ALWAYS
#undef UNLESS_OPATH
#undef ANY_OF
#undef BY
#define ALWAYS 0
#define UNLESS_OPATH(a) 1
#define ANY_OF(w) 2
#define BY(fn) 3

struct row {
	const char *name;
	int nr, family, notify;
};

static const struct row rows[] = {
#define ROW(name, family, handler, notify, continues) { #name, SYS_##name, family, notify },
#define NEWROW(nr, name, family) { #name, nr, family, ALWAYS },
	WARD_SYSCALLS(ROW) WARD_NEW_SYSCALLS(NEWROW)
#undef ROW
#undef NEWROW
};

static uint32_t family_answer(int nr, int family, const struct filter_opts *o)
{
	if (filter_lacks(o, nr))
		return ERR(ENOSYS);
	switch (family) {
	case FAM_STAT:
		return o->stat ? NOTIFY : ALLOW;
	case FAM_CRED:
		return o->root ? NOTIFY : ALLOW;
	case FAM_ENOSYS:
		return ERR(ENOSYS);
	case FAM_EPERM:
		return ERR(EPERM);
	default:
		return NOTIFY;
	}
}

static void check_rows(const struct filter_opts *o)
{
	struct program bpf = bpf_of(o);
	int bad = 0, checked = 0;

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		if (rows[i].notify > 1)
			continue;
		uint32_t want = family_answer(rows[i].nr, rows[i].family, o);
		for (int k = 0; k < 3; k++) {
			/* zero, ones and another pattern of arguments; O_PATH left out for UNLESS_OPATH */
			uint64_t v = k == 0 ? 0 : k == 1 ? 0x7fffffffull : 0x12345678ull;
			if (rows[i].notify == 1)
				v &= ~(uint64_t)O_PATH;
			struct seccomp_data d = { .nr = rows[i].nr, .arch = AUDIT_ARCH_X86_64,
						  .args = { v, v, v, v, v, v } };
			uint32_t b = bpf_run(&bpf, &d);
			char w1[32], w2[32];
			checked++;
			if (b != want && bad++ < 10)
				print_message("%s: want %s, BPF %s\n", rows[i].name,
					      answer(want, w1, sizeof(w1)), answer(b, w2, sizeof(w2)));
		}
	}
	free(bpf.insn);
	assert_int_equal(bad, 0);
	assert_true(checked > 100);
}

static void test_rows_plain(void **state)
{
	(void)state;
	check_rows(&plain);
}

static void test_rows_full(void **state)
{
	(void)state;
	check_rows(&full);
}

/*
 * A kernel that lacks the newer calls (RHEL 8's 4.18 lacks every one from
 * FIRST_NEWER_CALL on): each is ENOSYS, as natively, not notified nor
 * refused by ward first.
 */
static void test_rows_old_kernel(void **state)
{
	struct filter_opts old = full;
	uint64_t args[6] = { 0 };

	(void)state;
	old.lacking = ~0ull;
	check_rows(&old);
	assert_false(filter_notifies_with(&old, SYS_pidfd_open, args));
	assert_false(filter_notifies_with(&old, SYS_faccessat2, args));
	assert_true(filter_notifies_with(&old, SYS_openat, args));
}

/* kernel_lacks asks the kernel: this one has pidfd_open; no kernel has call 510 (yet). */
static void test_kernel_lacks(void **state)
{
	(void)state;
	assert_false(kernel_lacks(SYS_pidfd_open));
	assert_false(kernel_lacks(SYS_faccessat2));
	assert_false(kernel_lacks(SYS_getpid)); /* older than any it asks about */
	assert_true(kernel_lacks(510));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rows_old_kernel), cmocka_unit_test(test_kernel_lacks),
		cmocka_unit_test(test_probes_plain), cmocka_unit_test(test_probes_full),
		cmocka_unit_test(test_sweep_plain),  cmocka_unit_test(test_sweep_full),
		cmocka_unit_test(test_notifies_plain), cmocka_unit_test(test_notifies_full),
		cmocka_unit_test(test_rows_plain),   cmocka_unit_test(test_rows_full),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
