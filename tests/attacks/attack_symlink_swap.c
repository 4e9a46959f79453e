/*
 * attack_symlink_swap - swap symlinks between the allowed file and the
 * secret while opening through them.
 *
 * A second thread keeps replacing two links atomically (symlink to a
 * temporary name, rename over the link):
 *   lnk  -> public/x | secret/x        (the final component)
 *   dir  -> public   | secret          (a directory in the middle: dir/x)
 * The main thread opens lnk and dir/x for race_seconds().  ward follows
 * symlinks itself, one hop at a time, and decides on the object it opened
 * (DESIGN.md §2 invariant 3), so the secret must never be read.
 *
 * A try is in the race's window when a link was swapped while the open was
 * in the kernel (the swapper counts its swaps); none so, or only one kind
 * of answer, is a race never run: missed.
 */
#include "attack.h"

#include <pthread.h>

static volatile int stop;
static unsigned long swaps; /* by the swapper, read by the opener */

static void swap_to(const char *target, const char *tmp, const char *name)
{
	unlink(tmp);
	if (symlink(target, tmp) == 0 && rename(tmp, name) == 0)
		__atomic_add_fetch(&swaps, 1, __ATOMIC_RELAXED);
}

static void *swapper(void *arg)
{
	(void)arg;
	while (!stop) {
		swap_to("public/x", "lnk.tmp", "lnk");
		swap_to("public", "dir.tmp", "dir");
		swap_to("secret/x", "lnk.tmp", "lnk");
		swap_to("secret", "dir.tmp", "dir");
	}
	return NULL;
}

int main(void)
{
	unsigned long opens = 0, publics = 0, denied = 0, other = 0, windows = 0;
	const char *names[] = { "lnk", "dir/x", "./lnk", "dir/../dir/x" };
	pthread_t t;

	if (symlink("public/x", "lnk") < 0 || symlink("public", "dir") < 0)
		setup_failed("symlink");
	if (pthread_create(&t, NULL, swapper, NULL) != 0)
		setup_failed("pthread_create");

	double end = now() + race_seconds();
	while (now() < end && !att_through) {
		for (int k = 0; k < 64 && !att_through; k++) {
			const char *name = names[k % 4];
			unsigned long before = __atomic_load_n(&swaps, __ATOMIC_RELAXED);
			int fd = open(name, O_RDONLY | O_CLOEXEC);
			int e = errno;
			opens++;
			if (__atomic_load_n(&swaps, __ATOMIC_RELAXED) != before)
				windows++;
			errno = e;
			if (fd < 0) {
				if (errno == EACCES)
					denied++;
				else
					other++;
				continue;
			}
			char buf[128];
			ssize_t n = read(fd, buf, sizeof(buf) - 1);
			close(fd);
			if (n > 0 && is_secret(buf, (size_t)n)) {
				char how[64];
				snprintf(how, sizeof(how), "open of swapped symlink %s", name);
				leak(how, buf, (size_t)n);
			} else {
				publics++;
			}
		}
	}
	stop = 1;
	pthread_join(t, NULL);
	say("note: %lu opens: %lu of public/x, %lu denied, %lu other errors", opens, publics,
	    denied, other);
	if (!att_through && (publics == 0 || denied == 0))
		missed("the race was one-sided: %lu of public/x, %lu refused", publics, denied);
	race_done("symlinks swapped while opening", opens, windows);
	return finish();
}
