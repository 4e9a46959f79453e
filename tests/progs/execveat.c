/*
 * execveat DIRFD PATH FLAGS ARGV0 ARG... [-- DIRFD PATH FLAGS ARGV0 ARG...]...:
 * execveat(2) each in turn until one succeeds; a failure is printed, a
 * success prints nothing (the new program speaks).
 */
#include "common.h"

extern char **environ;

int main(int argc, char **argv)
{
	int i = 1;

	if (argc < 5)
		usage("execveat DIRFD PATH FLAGS ARGV0 ARG... [-- ...]...");
	while (i + 3 < argc) {
		int end = i + 3;
		while (end < argc && strcmp(argv[end], "--") != 0)
			end++;
		int dirfd = fdarg(argv[i]);
		const char *path = patharg(argv[i + 1]);
		char *args[64], list[2048] = "";
		int n = 0;
		for (int k = i + 3; k < end && n < 63; k++) {
			args[n++] = argv[k];
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 n > 1 ? ", " : "", q(argv[k]));
		}
		args[n] = NULL;
		long rc = syscall(SYS_execveat, dirfd, path, args, environ, num(argv[i + 2]));
		out(rc, errno, "execveat(%s, %s, [%s], envp, %s)", fdname(dirfd), q(path), list,
		    argv[i + 2]);
		i = end + 1;
	}
	return 0;
}
