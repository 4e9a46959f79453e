/* kill TARGET SIG ...: kill(2) on each pair (TARGET: see targets.h). */
#include "targets.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("kill TARGET SIG ...");
	for (int i = 1; i < argc; i += 2) {
		pid_t t = target(argv[i]);
		long rc = syscall(SYS_kill, t, num(argv[i + 1]));
		out(rc, errno, "kill(%s, %s)", target_name(argv[i]), argv[i + 1]);
		if (rc == 0 && num(argv[i + 1]) != 0)
			reap_if_dead();
	}
	reap_all();
	return 0;
}
