/*
 * sniff.h - what the exec handler reads of a file before it is run: its
 * "#!" line, or its ELF and program headers.  The file is the agent's
 * to write, so everything here is read with care (tests/fuzz/fuzz_elf.c).
 */
#ifndef WARD_SNIFF_H
#define WARD_SNIFF_H

#include <stddef.h>
#include <stdint.h>

/* What an ELF file is: the dynamic loader, static, or dynamic. */
/* ELF_BAD: ELF, but not read whole; refused. */
enum elf_kind { ELF_NONE, ELF_STATIC, ELF_DYNAMIC, ELF_LOADER, ELF_BAD };

/* Where an ELF_DYNAMIC file names its interpreter: its first PT_INTERP, as the kernel takes it. */
struct interp_at {
	uint64_t off, len;
};

/* The start of the file behind opath: its "#!" line, or its ELF and program headers. */
struct head {
	char buf[4096];
	size_t n;
};

/*
 * Open the file behind opath (an O_PATH fd will do) for reading: a
 * regular file only, never blocking; -1 otherwise.
 */
int sniff_open(int opath);
/* The first 4 KiB of the file: 0, or -1 (an empty head) when ward cannot read it. */
int read_head(int opath, struct head *h);
/*
 * What the file is, from its head (the whole file read when its program
 * headers lie past it); an ELF_DYNAMIC file's interpreter in *ia.
 */
enum elf_kind elf_kind_of(int opath, struct head *h, struct interp_at *ia);
/* A script's interpreter, from its "#!" line: 1 and interp, or 0. */
int shebang(const struct head *h, char *interp, size_t len);
/*
 * An ELF_DYNAMIC file's interpreter as the kernel reads it, into out (at
 * least PATH_MAX bytes): 0, -ENOEXEC when the kernel refuses it too,
 * -EACCES when it cannot be read.
 */
int read_interp(int fd, const struct head *h, const struct interp_at *ia, char *out, size_t len);

/*
 * How many of an ELF file's first bytes (4 KiB at most) the page mapped
 * from its offset 0 holds as they are in the file: up to the end of the
 * file data of a PT_LOAD with bss that ends in that page (the kernel
 * zeroes the page past it).  0 when no PT_LOAD starts in that page, or
 * when that would leave out part of the ELF or program headers.
 */
size_t elf_page0_len(const struct head *h);

/* resolve.c (the fuzzer brings its own): fd reopened through /proc/self/fd. */
int fd_reopen(int fd, int flags);

#endif
