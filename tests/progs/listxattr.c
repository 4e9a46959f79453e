/* listxattr PATH SIZE ...: listxattr(2) on each pair; the names are printed sorted. */
#include "common.h"

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("listxattr PATH SIZE ...");
	for (int i = 1; i < argc; i += 2) {
		const char *path = patharg(argv[i]);
		char buf[4096], list[4096] = "";
		char *names[256];
		size_t size = num(argv[i + 1]), n = 0;
		long rc = syscall(SYS_listxattr, path, buf, size > sizeof(buf) ? sizeof(buf) : size);
		if (rc < 0 || size == 0) {
			out(rc, errno, "listxattr(%s, ..., %s)", q(path), argv[i + 1]);
			continue;
		}
		for (char *p = buf; p < buf + rc && n < 256; p += strlen(p) + 1)
			names[n++] = p;
		qsort(names, n, sizeof(names[0]), cmp);
		for (size_t k = 0; k < n; k++)
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 k ? ", " : "", q(names[k]));
		out(rc, 0, "listxattr(%s, [%s], %s)", q(path), list, argv[i + 1]);
	}
	return 0;
}
