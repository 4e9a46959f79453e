/*
 * fuzz_elf.c - libFuzzer target for what the exec handler reads of a
 * file before it is run (supervisor/sniff.c): the agent writes that file,
 * so any bytes at all must be judged without a crash, a read out of
 * bounds or a hang.
 *
 * Input: the file's bytes, written to a memfd that stands for the agent's
 * file.  Its head is read, its kind told (libelf reads the whole file when
 * the program headers lie past the head), an ELF_DYNAMIC file's
 * interpreter read as the kernel would, a "#!" line parsed, and the part
 * of its first page an interpreter's mapping holds as in the file.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "sniff.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* ward's is in resolve.c, with the rest of the supervisor: the same through /proc/self/fd. */
int fd_reopen(int fd, int flags)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	fd = open(path, flags | O_CLOEXEC);
	return fd < 0 ? -1 : fd;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct head *hp = malloc(sizeof(*hp)); /* on the heap: ASan sees reads on either side */
	struct interp_at ia = { 0 };
	char interp[PATH_MAX + 1];
	int fd = memfd_create("fuzz-elf", MFD_CLOEXEC);

	if (hp == NULL || fd < 0 || (size > 0 && write(fd, data, size) != (ssize_t)size))
		abort();
	read_head(fd, hp);
	if (hp->n != (size < sizeof(hp->buf) ? size : sizeof(hp->buf)))
		abort(); /* the head is the file's first bytes */
	enum elf_kind kind = elf_kind_of(fd, hp, &ia);
	if (kind == ELF_DYNAMIC && read_interp(fd, hp, &ia, interp, sizeof(interp)) == 0 &&
	    (ia.len < 2 || ia.len > PATH_MAX || interp[ia.len - 1] != '\0'))
		abort(); /* an interpreter is only ever a terminated string the kernel would take */
	if (kind == ELF_NONE && shebang(hp, interp, sizeof(interp)) == 1 && strlen(interp) == 0)
		abort();
	if (elf_page0_len(hp) > hp->n)
		abort(); /* what is hashed of an interpreter lies in its head */
	free(hp);
	close(fd);
	return 0;
}
