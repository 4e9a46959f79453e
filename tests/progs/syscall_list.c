/*
 * syscall_list FILE - write the table of supervisor/syscalls.h to FILE as
 * the progs suites read it: one line "NAME FAMILY" a row, FAMILY in lower
 * case (openat open, msgget ipc, ptrace eperm).  The build writes
 * $BUILD/syscalls.list so; tests/integration/progs.sh takes from it which
 * calls each family's suite must cover.
 *
 * Until the table carries a family of its own for System V IPC (issue 18),
 * the rows served by h_ipc are printed as "ipc": they are a family in all
 * but name.
 */
#include <stdio.h>
#include <string.h>

#include "syscalls.h"

static FILE *out;

static void row(const char *name, const char *family, const char *handler)
{
	char fam[32];
	size_t i;

	/* FAM_OPEN -> open */
	if (strncmp(family, "FAM_", 4) == 0)
		family += 4;
	if (strcmp(handler, "h_ipc") == 0)
		family = "IPC";
	for (i = 0; family[i] && i < sizeof(fam) - 1; i++)
		fam[i] = (char)(family[i] >= 'A' && family[i] <= 'Z' ? family[i] - 'A' + 'a' : family[i]);
	fam[i] = '\0';
	fprintf(out, "%s %s\n", name, fam);
}

int main(int argc, char **argv)
{
	if (argc != 2 || (out = fopen(argv[1], "w")) == NULL) {
		perror(argc == 2 ? argv[1] : "usage: syscall_list FILE");
		return 1;
	}
#define ROW(name, family, handler) row(#name, #family, #handler);
	WARD_SYSCALLS(ROW)
#undef ROW
	return fclose(out) == 0 ? 0 : 1;
}
