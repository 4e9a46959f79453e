/*
 * gen_syscalls.c - write the syscall table (supervisor/syscalls.h) as the
 * list the tests read: one line "NAME FAMILY" per row, the family in lower
 * case without FAM_ ("openat open", "msgget ipc"), rows in table order.
 *
 *   gen_syscalls OUT
 */
#include "syscalls.h"

#include <stdio.h>

static const char *const family_names[] = {
#define NAME(id, name) [FAM_##id] = #name,
	WARD_FAMILIES(NAME)
#undef NAME
};
_Static_assert(sizeof(family_names) / sizeof(family_names[0]) == FAM_COUNT,
	       "a family without a name");

int main(int argc, char **argv)
{
	FILE *f;

	if (argc != 2 || (f = fopen(argv[1], "w")) == NULL) {
		fprintf(stderr, "usage: gen_syscalls OUT\n");
		return 2;
	}
#define ROW(name, family, handler, notify, continues) fprintf(f, "%s %s\n", #name, family_names[family]);
#define NEWROW(nr, name, family) fprintf(f, "%s %s\n", #name, family_names[family]);
	WARD_SYSCALLS(ROW)
	WARD_NEW_SYSCALLS(NEWROW)
#undef ROW
#undef NEWROW
	return fclose(f) == 0 ? 0 : 1;
}
