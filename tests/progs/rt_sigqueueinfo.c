/*
 * rt_sigqueueinfo TARGET SIG ...: rt_sigqueueinfo(2) on each pair (TARGET:
 * see targets.h), with a siginfo of SI_QUEUE, as sigqueue(3) sends.
 */
#include "targets.h"

int main(int argc, char **argv)
{
	if (argc < 2 || (argc - 1) % 2 != 0)
		usage("rt_sigqueueinfo TARGET SIG ...");
	signal(SIGUSR1, SIG_IGN); /* what a case sends itself */
	for (int i = 1; i < argc; i += 2) {
		pid_t t = target(argv[i]);
		int sig = (int)num(argv[i + 1]);
		siginfo_t si = { .si_signo = sig, .si_code = SI_QUEUE, .si_pid = getpid(),
				 .si_uid = getuid() };
		long rc = syscall(SYS_rt_sigqueueinfo, t, sig, &si);
		out(rc, errno, "rt_sigqueueinfo(%s, %s, {si_code=SI_QUEUE})", target_name(argv[i]),
		    argv[i + 1]);
		if (rc == 0 && sig != 0)
			reap_if_dead();
	}
	reap_all();
	return 0;
}
