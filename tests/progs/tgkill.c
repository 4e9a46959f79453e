/* tgkill TGID TID SIG ...: tgkill(2) on each group (TGID, TID: see targets.h). */
#include "targets.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("tgkill TGID TID SIG ...");
	for (int i = 1; i < argc; i += 3) {
		pid_t tg = target(argv[i]), t = target(argv[i + 1]);
		long rc = syscall(SYS_tgkill, tg, t, num(argv[i + 2]));
		out(rc, errno, "tgkill(%s, %s, %s)", target_name(argv[i]), target_name(argv[i + 1]),
		    argv[i + 2]);
		if (rc == 0 && num(argv[i + 2]) != 0)
			reap_if_dead();
	}
	reap_all();
	return 0;
}
