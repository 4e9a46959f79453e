/*
 * gen_map.c - prints libward-preload.so's version script from table.h.
 *
 * Each wrapper is exported under the very version glibc gives the symbol,
 * so that a program's versioned reference (open@GLIBC_2.2.5) binds to it;
 * an unversioned export would not satisfy a reference to a version the
 * library does not define.  Everything else in the library is local.
 */
#include <stdio.h>
#include <string.h>

#include "table.h"

struct row {
	const char *sym, *ver;
};

static const struct row rows[] = {
#define ROW(cname, sym, ver, ...) { #sym, ver },
	WARD_PRELOAD_TABLE(ROW)
};
#define N (sizeof(rows) / sizeof(rows[0]))

int main(void)
{
	int first = 1;
	for (size_t i = 0; i < N; i++) {
		int seen = 0;
		for (size_t j = 0; j < i; j++)
			seen |= strcmp(rows[j].ver, rows[i].ver) == 0;
		if (seen)
			continue;
		printf("%s {\n  global:\n", rows[i].ver);
		for (size_t j = i; j < N; j++)
			if (strcmp(rows[j].ver, rows[i].ver) == 0)
				printf("    %s;\n", rows[j].sym);
		if (first)
			printf("  local:\n    *;\n");
		first = 0;
		printf("};\n");
	}
	return 0;
}
