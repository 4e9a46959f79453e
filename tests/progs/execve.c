/*
 * execve PATH ARGV0 ARG... [-- PATH ARGV0 ARG...]...: execve(2) each in
 * turn until one succeeds; a failure is printed, a success prints nothing
 * (the new program speaks).  ARGV0 "-n" passes a NULL argv.
 */
#include "common.h"

extern char **environ;

int main(int argc, char **argv)
{
	int i = 1;

	if (argc < 3)
		usage("execve PATH ARGV0 ARG... [-- PATH ARGV0 ARG...]...");
	while (i < argc) {
		int end = i + 1;
		while (end < argc && strcmp(argv[end], "--") != 0)
			end++;
		const char *path = patharg(argv[i]);
		int null_argv = end > i + 1 && strcmp(argv[i + 1], "-n") == 0;
		char *args[64], list[2048] = "";
		int n = 0;
		for (int k = i + 1; k < end && n < 63; k++) {
			args[n++] = argv[k];
			snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s",
				 n > 1 ? ", " : "", q(argv[k]));
		}
		args[n] = NULL;
		long rc = syscall(SYS_execve, path, null_argv ? NULL : args, environ);
		if (null_argv)
			out(rc, errno, "execve(%s, NULL, envp)", q(path));
		else
			out(rc, errno, "execve(%s, [%s], envp)", q(path), list);
		i = end + 1;
	}
	return 0;
}
