/*
 * degraded_fdswap SECRET SECONDS: an object without a name (a pipe) is
 * opened again and again through /proc/self/fd/100 while a sibling thread
 * puts an O_PATH fd of SECRET at 100 and the pipe back, without pause; a
 * signal handler and a scanning thread look for an fd of SECRET open for
 * reading.  Under ward --degraded, reopening by /proc/TID/fd/N in the
 * agent would reach whatever is at N by then: ward duplicates the agent's
 * own fd instead (supervisor/degraded.c), which gives only what the agent
 * holds already, with its access (an O_PATH fd reads nothing).  Found by
 * the review of --degraded; tests/integration/degraded.sh runs it.
 *
 * Prints whether SECRET opens directly, the counts, and whether the
 * sibling thread or the handler ever read SECRET.
 */
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <errno.h>

static int opath, pr;
static ino_t sino;
static atomic_int stop, got_sig, got_thr;
static char thrbuf[128];
static pid_t main_tid;

static int is_secret(int fd)
{
	struct stat st;
	int fl = fcntl(fd, F_GETFL);
	if (fd == opath || fl < 0 || (fl & O_PATH))
		return 0;
	return fstat(fd, &st) == 0 && st.st_ino == sino && S_ISREG(st.st_mode);
}

static void on_usr1(int sig)
{
	(void)sig;
	if (atomic_load(&got_sig))
		return;
	for (int fd = 3; fd < 64; fd++)
		if (is_secret(fd) && dup2(fd, 300) == 300) {
			atomic_store(&got_sig, 1);
			return;
		}
}

static void *swapper(void *a)
{
	(void)a;
	while (!atomic_load(&stop)) {
		dup2(opath, 100);
		dup2(pr, 100);
	}
	return NULL;
}

static void *signaller(void *a)
{
	(void)a;
	while (!atomic_load(&stop)) {
		syscall(SYS_tgkill, getpid(), main_tid, SIGUSR1);
		struct timespec ts = { 0, 200000 };
		nanosleep(&ts, NULL);
	}
	return NULL;
}

static void *reader(void *a)
{
	(void)a;
	while (!atomic_load(&stop) && !atomic_load(&got_thr))
		for (int fd = 3; fd < 40; fd++) {
			if (fd == opath || fd == 100)
				continue;
			char b[128] = "";
			ssize_t n = pread(fd, b, sizeof(b) - 1, 0);
			if (n > 0 && strncmp(b, "TOPSECRET", 9) == 0) {
				memcpy(thrbuf, b, (size_t)n);
				atomic_store(&got_thr, 1);
				break;
			}
		}
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc != 3)
		return 2;
	int p[2];
	struct stat st;
	main_tid = (pid_t)syscall(SYS_gettid);
	if ((opath = open(argv[1], O_PATH | O_CLOEXEC)) < 0 || fstat(opath, &st) < 0) {
		perror("O_PATH");
		return 2;
	}
	sino = st.st_ino;
	int direct = open(argv[1], O_RDONLY);
	printf("direct open of the secret: %s\n", direct >= 0 ? "OPENED" : strerror(errno));
	if (direct >= 0) close(direct);
	if (pipe(p) < 0)
		return 2;
	pr = p[0];
	struct sigaction sa = { .sa_handler = on_usr1, .sa_flags = SA_RESTART };
	sigaction(SIGUSR1, &sa, NULL);
	pthread_t t1, t2, t3;
	pthread_create(&t1, NULL, swapper, NULL);
	pthread_create(&t2, NULL, signaller, NULL);
	pthread_create(&t3, NULL, reader, NULL);
	long opens = 0, ok = 0, eacces = 0, other = 0, okbad = 0;
	time_t end = time(NULL) + atoi(argv[2]);
	while (time(NULL) < end && !(atomic_load(&got_sig) && atomic_load(&got_thr))) {
		int fd = open("/proc/self/fd/100", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		opens++;
		if (fd >= 0) {
			ok++;
			if (is_secret(fd))
				okbad++;
			close(fd);
		} else if (errno == EACCES)
			eacces++;
		else
			other++;
	}
	atomic_store(&stop, 1);
	pthread_join(t1, NULL);
	pthread_join(t2, NULL);
	pthread_join(t3, NULL);
	printf("opens %ld ok %ld (secret among them %ld) eacces %ld other %ld\n", opens, ok, okbad,
	       eacces, other);
	printf("sibling thread read the secret: %s", atomic_load(&got_thr) ? thrbuf : "no\n");
	if (atomic_load(&got_sig)) {
		char b[128] = "";
		ssize_t n = pread(300, b, sizeof(b) - 1, 0);
		printf("signal handler kept fd 300 after ward's close: %s", n > 0 ? b : "read failed\n");
	} else
		printf("signal handler kept an fd: no\n");
	return 0;
}
