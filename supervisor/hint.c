/*
 * hint.c - ward's side of the preload channel: a bounded reader of the
 * agent's hint slots and name entries, and the naming of stack frames.
 *
 * The region is the agent's memory: every field is checked here, a slot
 * that is not exactly what the library writes is no hint, and nothing a
 * hint says is used to allow anything (see hint.h).
 */
#include "hint.h"

#include <elfutils/libdwfl.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

#include "../preload/table.h"

/* ---- ward's copy of the table ---- */

static const struct wrapper {
	const char *name;
	int family;
	int match;
} wrappers[] = {
	{ NULL, 0, 0 }, /* id 0: no call in progress */
#define ROW(cname, sym, ver, vk, fam, match, ...) { #sym, WARD_HF_##fam, WARD_MATCH_##match },
	WARD_PRELOAD_TABLE(ROW)
#undef ROW
};
#define N_WRAPPERS (sizeof(wrappers) / sizeof(wrappers[0]))
_Static_assert(N_WRAPPERS - 1 < UINT16_MAX, "a wrapper id fits a slot's fn");

const char *hint_fn_name(unsigned fn)
{
	return fn >= 1 && fn < N_WRAPPERS ? wrappers[fn].name : NULL;
}

unsigned hint_fn_count(void)
{
	return (unsigned)(N_WRAPPERS - 1);
}

int hint_family_of(long nr)
{
	switch (nr) {
	case SYS_open: case SYS_openat: case SYS_openat2: case SYS_creat:
	case SYS_stat: case SYS_lstat: case SYS_newfstatat: case SYS_statx:
	case SYS_access: case SYS_faccessat: case SYS_faccessat2:
	case SYS_readlink: case SYS_readlinkat:
	case SYS_getxattr: case SYS_lgetxattr: case SYS_fgetxattr:
	case SYS_listxattr: case SYS_llistxattr: case SYS_flistxattr:
	case SYS_setxattr: case SYS_lsetxattr: case SYS_fsetxattr:
	case SYS_removexattr: case SYS_lremovexattr: case SYS_fremovexattr:
	case SYS_mkdir: case SYS_mkdirat: case SYS_mknod: case SYS_mknodat:
	case SYS_unlink: case SYS_unlinkat: case SYS_rmdir:
	case SYS_rename: case SYS_renameat: case SYS_renameat2:
	case SYS_link: case SYS_linkat: case SYS_symlink: case SYS_symlinkat:
	case SYS_chmod: case SYS_fchmod: case SYS_fchmodat:
	case SYS_chown: case SYS_fchown: case SYS_lchown: case SYS_fchownat:
	case SYS_truncate: case SYS_utime: case SYS_utimes: case SYS_futimesat: case SYS_utimensat:
		return WARD_HF_FILE;
	case SYS_execve: case SYS_execveat:
		return WARD_HF_EXEC;
	case SYS_socket: case SYS_connect: case SYS_bind: case SYS_listen:
	case SYS_sendto: case SYS_sendmsg: case SYS_sendmmsg:
		return WARD_HF_NET;
	default:
		return 0;
	}
}

/* ---- checks on what was read ---- */

bool hint_slot_matches(const struct ward_hint_slot *s, pid_t owner, long nr, const uint64_t args[6])
{
	if (s->magic != WARD_HINT_MAGIC || s->tid != owner || s->fn == 0 || s->fn >= N_WRAPPERS)
		return false;
	const struct wrapper *w = &wrappers[s->fn];
	if (w->family != hint_family_of(nr))
		return false;
	if (w->match == WARD_MATCH_ANY)
		return true;
	/* The pointer the wrapper was given must be one the syscall carries. */
	if (s->key == 0)
		return false;
	for (int i = 0; i < 6; i++)
		if (args[i] == s->key)
			return true;
	return false;
}

/* A host name as DNS and /etc/hosts spell them: letters, digits, '-', '_', dots between labels. */
static bool host_chars(const char *name, size_t len)
{
	if (len == 0 || name[0] == '.' || name[0] == '-')
		return false;
	for (size_t i = 0; i < len; i++) {
		char c = name[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
			  c == '-' || c == '_' || (c == '.' && name[i - 1] != '.');
		if (!ok)
			return false;
	}
	return true;
}

bool hint_name_valid(const struct ward_hint_name *e, const uint8_t addr[16], char *out, size_t len)
{
	if ((e->seq & 1) != 0 || e->seq == 0 || e->len == 0 || e->len >= WARD_HINT_NAME_MAX ||
	    e->len >= len || e->name[e->len] != '\0' || memcmp(e->addr, addr, 16) != 0 ||
	    memchr(e->name, '\0', e->len) != NULL || !host_chars(e->name, e->len))
		return false;
	for (size_t i = 0; i < e->len; i++)
		out[i] = (char)(e->name[i] >= 'A' && e->name[i] <= 'Z' ? e->name[i] - 'A' + 'a' : e->name[i]);
	out[e->len] = '\0';
	return true;
}

/* ---- the read ---- */

int hint_read(pid_t tid, pid_t owner, uint64_t base, long nr, const uint64_t args[6],
	      const uint8_t addr[16], bool frames, struct hint *out)
{
	struct ward_hint_slot slots[WARD_HINT_WINDOW];
	struct ward_hint_name name;
	struct iovec local[WARD_HINT_WINDOW + 1], remote[WARD_HINT_WINDOW + 1];
	size_t n = 0, want = 0;
	unsigned first = ward_hint_slot_index(owner);

	out->via = NULL;
	out->nframes = 0;
	out->host[0] = '\0';
	if (base == 0 || owner <= 0)
		return 0;
	/* Heads only (64 bytes each) unless the stack is wanted. */
	size_t each = frames ? sizeof(struct ward_hint_slot) : WARD_HINT_SLOT_HEAD;
	for (unsigned k = 0; k < WARD_HINT_WINDOW; k++, n++) {
		local[n] = (struct iovec){ &slots[k], each };
		remote[n] = (struct iovec){ (void *)(uintptr_t)ward_hint_slot_at(base, first + k), each };
		want += each;
	}
	if (addr != NULL) {
		local[n] = (struct iovec){ &name, sizeof(name) };
		remote[n] = (struct iovec){ (void *)(uintptr_t)ward_hint_name_at(base, ward_hint_name_index(addr)),
					    sizeof(name) };
		want += sizeof(name);
		n++;
	}
	ssize_t got = process_vm_readv(tid, local, n, remote, n, 0);
	if (got < 0)
		return -errno;
	if ((size_t)got != want)
		return -EFAULT; /* the region is the library's, whole, or it is not there */

	int found = 0;
	for (unsigned k = 0; k < WARD_HINT_WINDOW; k++) {
		const struct ward_hint_slot *s = &slots[k];
		if (!hint_slot_matches(s, owner, nr, args))
			continue;
		out->via = wrappers[s->fn].name;
		if (frames && s->nframes <= WARD_HINT_FRAMES) {
			out->nframes = s->nframes;
			memcpy(out->frames, s->frames, (size_t)s->nframes * sizeof(s->frames[0]));
		}
		found = 1;
		break;
	}
	if (addr != NULL && hint_name_valid(&name, addr, out->host, sizeof(out->host)))
		found = 1;
	return found;
}

/* ---- naming frames ---- */

/*
 * Separate debug information is looked for by build-id under
 * /usr/lib/debug only: dwfl_standard_find_debuginfo would also ask a
 * debuginfod server named in the environment, and ward talks to no
 * server on the agent's behalf.
 */
static const Dwfl_Callbacks dwfl_cb = {
	.find_elf = dwfl_linux_proc_find_elf,
	.find_debuginfo = dwfl_build_id_find_debuginfo,
};

static void copy(char *out, size_t len, const char *s)
{
	snprintf(out, len, "%s", s != NULL ? s : "");
}

/*
 * The source line of a (an address of module m) into f.  libdw finds the
 * compilation unit through .debug_aranges, which clang does not write by
 * default: without it, each unit is asked whether it covers a.
 */
static void source_line(Dwfl_Module *m, Dwarf_Addr a, struct hint_frame *f)
{
	Dwfl_Line *l = dwfl_module_getsrc(m, a);
	int line = 0;
	const char *src = l != NULL ? dwfl_lineinfo(l, NULL, &line, NULL, NULL, NULL) : NULL;
	if (src == NULL) {
		Dwarf_Addr bias;
		Dwarf_Die *cu = NULL;
		while ((cu = dwfl_module_nextcu(m, cu, &bias)) != NULL)
			if (dwarf_haspc(cu, a - bias) == 1) {
				Dwarf_Line *dl = dwarf_getsrc_die(cu, a - bias);
				src = dl != NULL ? dwarf_linesrc(dl, NULL, NULL) : NULL;
				if (src == NULL || dwarf_lineno(dl, &line) != 0)
					src = NULL;
				break;
			}
	}
	if (src != NULL) {
		copy(f->file, sizeof(f->file), src);
		f->line = line;
	}
}

int hint_symbolise(pid_t pid, const uint64_t *pcs, int n, struct hint_frame *out, int max)
{
	Dwfl *d = dwfl_begin(&dwfl_cb);
	int k = 0;

	if (d == NULL)
		return -ENOMEM;
	dwfl_report_begin(d);
	int rc = dwfl_linux_proc_report(d, pid);
	dwfl_report_end(d, NULL, NULL);
	if (rc != 0) {
		dwfl_end(d);
		return rc > 0 ? -rc : -ESRCH;
	}
	for (int i = 0; i < n && k < max; i++) {
		struct hint_frame *f = &out[k];
		memset(f, 0, sizeof(*f));
		f->pc = pcs[i];
		/* A return address is just past its call: look up the call itself. */
		Dwarf_Addr a = pcs[i] > 0 ? pcs[i] - 1 : 0;
		Dwfl_Module *m = dwfl_addrmodule(d, a);
		if (m != NULL) {
			const char *mainfile = NULL;
			Dwarf_Addr start;
			const char *modname = dwfl_module_info(m, NULL, &start, NULL, NULL, NULL, &mainfile, NULL);
			copy(f->module, sizeof(f->module), mainfile != NULL ? mainfile : modname);
			if (strstr(f->module, "libward-preload.so") != NULL)
				continue; /* the library's own frames say nothing about the program */
			GElf_Off off = 0;
			GElf_Sym sym;
			const char *fn = dwfl_module_addrinfo(m, a, &off, &sym, NULL, NULL, NULL);
			copy(f->function, sizeof(f->function), fn);
			f->offset = fn != NULL ? off + 1 : pcs[i] - start;
			const unsigned char *bits;
			GElf_Addr vaddr;
			int nb = dwfl_module_build_id(m, &bits, &vaddr);
			for (int b = 0; b < nb && b < 20; b++)
				snprintf(f->build_id + 2 * b, 3, "%02x", bits[b]);
			source_line(m, a, f);
		}
		k++;
	}
	dwfl_end(d);
	return k;
}

void hint_frame_format(const struct hint_frame *f, char *out, size_t len)
{
	const char *base = strrchr(f->module, '/');
	base = base != NULL ? base + 1 : f->module;
	if (f->function[0] != '\0' && f->file[0] != '\0')
		snprintf(out, len, "%s+0x%" PRIx64 " (%s:%d)", f->function, f->offset, f->file, f->line);
	else if (f->function[0] != '\0')
		snprintf(out, len, "%s+0x%" PRIx64 " (%s)", f->function, f->offset, base);
	else if (f->module[0] != '\0')
		snprintf(out, len, "%s+0x%" PRIx64, base, f->offset);
	else
		snprintf(out, len, "0x%" PRIx64, f->pc);
}
