/*
 * sniff.c - a file's head, as the exec handler judges it: a script's "#!"
 * line; an ELF file's kind (static, dynamic, the loader) and interpreter.
 */
#include "sniff.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/*
 * Open the file behind opath to read its header: a regular file only, and
 * never blocking (a FIFO's open would wait for a writer and hold a worker).
 */
int sniff_open(int opath)
{
	struct stat st;

	if (fstat(opath, &st) < 0 || !S_ISREG(st.st_mode))
		return -1;
	int fd = fd_reopen(opath, O_RDONLY | O_NONBLOCK | O_NOCTTY);
	return fd < 0 ? -1 : fd;
}

int read_head(int opath, struct head *h)
{
	int fd = sniff_open(opath);
	ssize_t n = fd < 0 ? -1 : pread(fd, h->buf, sizeof(h->buf), 0);

	h->n = n > 0 ? (size_t)n : 0;
	if (fd >= 0)
		close(fd);
	return n < 0 ? -1 : 0;
}

/*
 * What libelf is let read of the agent's file here: it copies each section
 * it is asked for into memory whole, so a section claiming a gigabyte (in
 * a sparse file, cheap to make) would cost ward as much.  A loader's
 * .dynamic is a few hundred bytes, its .dynstr a few KiB.
 */
#define MAX_DYN_SECTIONS 4
#define MAX_DYN_BYTES (64 * 1024)
#define MAX_DYNSTR_BYTES (1024 * 1024)

/*
 * A position-independent ELF file without an interpreter: a loader when
 * its soname says so.  The section headers are far from the start, so
 * this one reads the whole file (rare: loaders and static-pie programs
 * only).  Read, never mapped: the agent can truncate the file meanwhile,
 * and a mapping would then kill ward with SIGBUS.
 */
static enum elf_kind soname_kind(int opath)
{
	enum elf_kind kind = ELF_STATIC;
	int fd = sniff_open(opath), ndyn = 0;

	if (fd < 0)
		return ELF_BAD;
	Elf *e = elf_begin(fd, ELF_C_READ, NULL);
	if (e == NULL || elf_kind(e) != ELF_K_ELF) {
		kind = ELF_BAD;
		goto out;
	}
	size_t dynsz = gelf_fsize(e, ELF_T_DYN, 1, EV_CURRENT);
	Elf_Scn *scn = NULL;
	while ((scn = elf_nextscn(e, scn)) != NULL) {
		GElf_Shdr sh, strsh;
		if (gelf_getshdr(scn, &sh) == NULL || sh.sh_type != SHT_DYNAMIC)
			continue;
		/* Beyond what a loader has: not read, and not run (ELF_BAD is refused). */
		Elf_Scn *str = elf_getscn(e, sh.sh_link);
		if (++ndyn > MAX_DYN_SECTIONS || dynsz == 0 || sh.sh_entsize != dynsz ||
		    sh.sh_size > MAX_DYN_BYTES || str == NULL || gelf_getshdr(str, &strsh) == NULL ||
		    strsh.sh_size > MAX_DYNSTR_BYTES) {
			kind = ELF_BAD;
			break;
		}
		Elf_Data *data = elf_getdata(scn, NULL);
		for (size_t i = 0; data && i < data->d_size / dynsz; i++) {
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

/*
 * Loader, static or dynamic, by the program headers of e, which must be
 * all the nph the ELF header names (libelf shortens the count of a table
 * that runs past the bytes it has: not judged then, ELF_BAD).
 */
static enum elf_kind classify(Elf *e, int opath, size_t want, struct interp_at *ia)
{
	GElf_Ehdr eh;
	size_t nph;
	bool interp = false, dynamic = false;

	if (e == NULL || elf_kind(e) != ELF_K_ELF || gelf_getehdr(e, &eh) == NULL ||
	    elf_getphdrnum(e, &nph) != 0 || nph != want)
		return ELF_BAD;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) == NULL)
			return ELF_BAD;
		if (ph.p_type == PT_INTERP && !interp) {
			ia->off = ph.p_offset;
			ia->len = ph.p_filesz;
			interp = true;
		}
		dynamic |= ph.p_type == PT_DYNAMIC;
	}
	if (interp)
		return ELF_DYNAMIC;
	if (eh.e_type != ET_DYN || !dynamic)
		return ELF_STATIC;
	return soname_kind(opath);
}

/*
 * What the file is, from its head: libelf reads the ELF header and the
 * program headers from the bytes read, without mapping the file (whose
 * munmap costs each CPU running a ward thread a TLB flush).  Program
 * headers past the head (the kernel takes them from anywhere in the file):
 * the whole file read.  An ELF file that cannot be read so is ELF_BAD, and
 * refused: the kernel might still run it, as a loader for all ward knows.
 */
enum elf_kind elf_kind_of(int opath, struct head *h, struct interp_at *ia)
{
	enum elf_kind kind;
	GElf_Ehdr eh;

	if (h->n < SELFMAG || memcmp(h->buf, ELFMAG, SELFMAG) != 0)
		return ELF_NONE;
	elf_version(EV_CURRENT);
	Elf *e = elf_memory(h->buf, h->n);
	if (e == NULL || gelf_getehdr(e, &eh) == NULL) {
		if (e != NULL)
			elf_end(e);
		return ELF_BAD;
	}
	/* The kernel's limit (load_elf_phdrs): one page of program headers at most. */
	if (eh.e_phnum == 0 || (uint64_t)eh.e_phnum * eh.e_phentsize > 4096) {
		elf_end(e);
		return ELF_BAD;
	}
	if (eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize > h->n) {
		elf_end(e);
		int fd = sniff_open(opath);
		if (fd < 0)
			return ELF_BAD;
		e = elf_begin(fd, ELF_C_READ, NULL); /* read, not mapped: see soname_kind */
		kind = classify(e, opath, eh.e_phnum, ia);
		if (e != NULL)
			elf_end(e);
		close(fd);
		return kind;
	}
	kind = classify(e, opath, eh.e_phnum, ia);
	elf_end(e);
	return kind;
}

/* The first line of a script: "#!INTERP [ARG]". */
int shebang(const struct head *h, char *interp, size_t len)
{
	char buf[256];
	size_t n = h->n < sizeof(buf) - 1 ? h->n : sizeof(buf) - 1;

	if (n < 2 || h->buf[0] != '#' || h->buf[1] != '!')
		return 0;
	memcpy(buf, h->buf, n);
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

/* An ELF file's interpreter, as the kernel reads it (load_elf_binary). */
int read_interp(int fd, const struct head *h, const struct interp_at *ia, char *out,
		size_t len)
{
	if (ia->len < 2 || ia->len > PATH_MAX || ia->len > len)
		return -ENOEXEC; /* the kernel refuses it too */
	if (ia->off <= h->n && ia->len <= h->n - ia->off) {
		memcpy(out, h->buf + ia->off, ia->len);
	} else {
		int rd = sniff_open(fd);
		ssize_t n = rd < 0 ? -1 : pread(rd, out, ia->len, (off_t)ia->off);
		if (rd >= 0)
			close(rd);
		if (n != (ssize_t)ia->len)
			return -EACCES; /* not read, not judged, not run */
	}
	if (out[ia->len - 1] != '\0')
		return -ENOEXEC;
	return 0;
}

size_t elf_page0_len(const struct head *h)
{
	GElf_Ehdr eh;
	size_t nph, len = 0;
	bool starts = false;

	if (h->n < SELFMAG || memcmp(h->buf, ELFMAG, SELFMAG) != 0)
		return 0;
	elf_version(EV_CURRENT);
	Elf *e = elf_memory((char *)h->buf, h->n);
	if (e == NULL || gelf_getehdr(e, &eh) == NULL || elf_getphdrnum(e, &nph) != 0 ||
	    nph != eh.e_phnum) {
		if (e != NULL)
			elf_end(e);
		return 0;
	}
	len = h->n < 4096 ? h->n : 4096;
	for (size_t i = 0; i < nph; i++) {
		GElf_Phdr ph;
		if (gelf_getphdr(e, (int)i, &ph) == NULL) {
			starts = false;
			break;
		}
		if (ph.p_type != PT_LOAD || ph.p_offset >= 4096)
			continue;
		starts = true;
		/* With bss, the kernel zeroes the page past this segment's file data. */
		if (ph.p_memsz > ph.p_filesz && ph.p_filesz < 4096 - ph.p_offset &&
		    ph.p_offset + ph.p_filesz < len)
			len = (size_t)(ph.p_offset + ph.p_filesz);
	}
	elf_end(e);
	/* At the least the ELF and program headers: else too little is compared. */
	uint64_t headers = eh.e_phoff + (uint64_t)eh.e_phnum * eh.e_phentsize;
	if (!starts || eh.e_phoff < eh.e_ehsize || headers > len)
		return 0;
	return len;
}

