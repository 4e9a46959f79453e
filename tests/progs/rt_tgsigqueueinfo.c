/*
 * rt_tgsigqueueinfo TGID TID SIG ...: rt_tgsigqueueinfo(2) on each group
 * (TGID, TID: see targets.h), with a siginfo of SI_QUEUE.
 */
#include "targets.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 3 != 0)
		usage("rt_tgsigqueueinfo TGID TID SIG ...");
	signal(SIGUSR1, SIG_IGN); /* what a case sends itself */
	for (int i = 1; i < argc; i += 3) {
		pid_t tg = target(argv[i]), t = target(argv[i + 1]);
		int sig = (int)num(argv[i + 2]);
		siginfo_t si = { .si_signo = sig, .si_code = SI_QUEUE, .si_pid = getpid(),
				 .si_uid = getuid() };
		long rc = syscall(SYS_rt_tgsigqueueinfo, tg, t, sig, &si);
		out(rc, errno, "rt_tgsigqueueinfo(%s, %s, %s, {si_code=SI_QUEUE})",
		    target_name(argv[i]), target_name(argv[i + 1]), argv[i + 2]);
		if (rc == 0 && sig != 0)
			reap_if_dead();
	}
	reap_all();
	return 0;
}
