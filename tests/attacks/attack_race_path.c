/*
 * attack_race_path MODE - flip the path buffer of an open between an
 * allowed file and the secret while another flow of control opens it.
 *
 *   thread   a second thread (pthread) flips the buffer
 *   clonevm  a CLONE_VM sibling process (clone(2) without CLONE_THREAD)
 *
 * "public/x" and "secret/x" have the same length, so the flip is one
 * aligned 8-byte store: the buffer always names one or the other.  The
 * main thread opens and reads it for race_seconds(); reading the secret
 * even once is a LEAK.  ward must read the path once and decide on what
 * it opens itself (DESIGN.md §2 invariant 2).
 *
 * A try is in the race's window when the buffer changed while the open was
 * in the kernel (the flipper counts its flips): those are the tries that
 * test something.  None in the window, or only one kind of answer (every
 * open of public/x, or every one refused), is a race never run: missed.
 * So are other errors in more than one try in a hundred (a setup gone
 * wrong); a stray one among tens of thousands of tries does not undo the
 * race, and is said with its errno (once in a CI run under ASan, one open
 * of about 40,000 failed otherwise, the errno then unrecorded).
 */
#include "attack.h"

#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>

static union {
	char s[16];
	uint64_t w[2];
} path __attribute__((aligned(16)));
static volatile int stop;
static uint64_t word_public, word_secret;
static unsigned long flips; /* by the flipper, read by the opener */

static void *flipper(void *arg)
{
	volatile uint64_t *w = &path.w[0];
	unsigned long n = 0;

	(void)arg;
	while (!stop) {
		__atomic_store_n(w, word_public, __ATOMIC_RELAXED);
		for (volatile int i = 0; i < (int)(n & 63); i++)
			;
		__atomic_store_n(w, word_secret, __ATOMIC_RELAXED);
		__atomic_add_fetch(&flips, 1, __ATOMIC_RELAXED);
		for (volatile int i = 0; i < (int)((n >> 6) & 63); i++)
			;
		n = n * 6364136223846793005ul + 1442695040888963407ul;
	}
	__atomic_store_n(w, word_public, __ATOMIC_RELAXED);
	return NULL;
}

static int flipper_clone(void *arg)
{
	flipper(arg);
	return 0;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "thread";
	unsigned long opens = 0, publics = 0, denied = 0, other = 0, windows = 0;
	int other_errno = 0;
	pthread_t t;
	pid_t sib = -1;

	memcpy(&word_public, PUBLIC, 8);
	memcpy(&word_secret, SECRET, 8);
	memset(&path, 0, sizeof(path));
	path.w[0] = word_public;

	if (strcmp(mode, "thread") == 0) {
		if (pthread_create(&t, NULL, flipper, NULL) != 0)
			setup_failed("pthread_create");
	} else if (strcmp(mode, "clonevm") == 0) {
		size_t sz = 256 * 1024;
		char *stack = mmap(NULL, sz, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (stack == MAP_FAILED)
			setup_failed("mmap");
		sib = clone(flipper_clone, stack + sz, CLONE_VM | SIGCHLD, NULL);
		if (sib < 0)
			setup_failed("clone(CLONE_VM)");
	} else {
		errno = EINVAL;
		setup_failed(mode);
	}

	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		for (int k = 0; k < 64; k++) {
			unsigned long before = __atomic_load_n(&flips, __ATOMIC_RELAXED);
			int fd = open(path.s, O_RDONLY | O_CLOEXEC);
			int e = errno;
			opens++;
			if (__atomic_load_n(&flips, __ATOMIC_RELAXED) != before)
				windows++;
			errno = e;
			if (fd < 0) {
				if (errno == EACCES) {
					denied++;
				} else {
					other++;
					other_errno = errno;
				}
				continue;
			}
			char buf[128];
			ssize_t n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n > 0 && is_secret(buf, (size_t)n)) {
				leak("open of a flipping path buffer", buf, (size_t)n);
				break;
			}
			publics++;
		}
	}
	stop = 1;
	if (sib > 0)
		waitpid(sib, NULL, 0);
	else
		pthread_join(t, NULL);
	say("note: %lu opens: %lu of public/x, %lu denied, %lu other errors (last: %s)", opens,
	    publics, denied, other, other ? strerror(other_errno) : "none");
	if (!att_through && (publics == 0 || denied == 0 || other * 100 > opens))
		missed("the race was one-sided or went wrong: %lu of public/x, %lu refused, %lu other errors (last: %s)",
		       publics, denied, other, other ? strerror(other_errno) : "none");
	race_done(strcmp(mode, "thread") == 0 ? "a thread flipping the path"
					       : "a CLONE_VM sibling flipping the path", opens, windows);
	return finish();
}
