/*
 * features.c - which seccomp and process features this kernel has.
 *
 * Each is probed, not inferred from the version: a child installs a
 * notifier filter with the flags ward needs and tries the ioctls.
 */
#include "features.h"
#include "mem.h"

#include <errno.h>
#include <linux/filter.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif

/* A filter that notifies on getppid and allows everything else. */
static int probe_filter(unsigned long flags)
{
	struct sock_filter insns[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_getppid, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = { .len = 4, .filter = insns };

	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER | flags, &prog);
}

/*
 * In a child (a filter cannot be removed): install the filter with
 * WAIT_KILLABLE_RECV and try SET_FLAGS.  Exit status bits say what worked.
 */
static int probe_child(void)
{
	int st = 0, fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return 0x80;
	fd = probe_filter(SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV);
	if (fd >= 0)
		st |= 1;
	else
		fd = probe_filter(0);
	if (fd < 0)
		return 0x80;
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) == 0)
		st |= 2;
	/*
	 * ADDFD with FLAG_SEND on a notification id that does not exist
	 * fails with ENOENT when the flag is known, EINVAL when it is not.
	 */
	struct seccomp_notif_addfd a = { .id = 1, .flags = SECCOMP_ADDFD_FLAG_SEND, .srcfd = 0 };
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_ADDFD, &a) < 0 && errno == ENOENT)
		st |= 4;
	return st;
}

int features_detect(struct features *f, char *why, size_t len)
{
	struct utsname u;
	int status;
	pid_t pid;

	memset(f, 0, sizeof(*f));
	if (uname(&u) == 0)
		snprintf(f->kernel, sizeof(f->kernel), "%s", u.release);
	f->openat2 = syscall(SYS_openat2, -1, "", NULL, 0) < 0 && errno != ENOSYS;
	f->pidfd_getfd = syscall(SYS_pidfd_getfd, -1, 0, 0) < 0 && errno != ENOSYS;

	pid = fork();
	if (pid < 0) {
		snprintf(why, len, "cannot fork to probe seccomp: %s", strerror(errno));
		return -errno;
	}
	if (pid == 0)
		_exit(probe_child());
	if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || (WEXITSTATUS(status) & 0x80)) {
		snprintf(why, len,
			 "seccomp user notification is not available (Linux 5.0 or later, "
			 "with CONFIG_SECCOMP_FILTER)");
		return -ENOSYS;
	}
	f->wait_killable = WEXITSTATUS(status) & 1;
	f->sync_wake_up = WEXITSTATUS(status) & 2;
	f->addfd_send = WEXITSTATUS(status) & 4;

	if (!f->addfd_send) {
		snprintf(why, len, "the kernel lacks SECCOMP_ADDFD_FLAG_SEND (Linux 5.14)");
		return -ENOSYS;
	}
	if (!f->wait_killable) {
		snprintf(why, len,
			 "the kernel lacks SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (Linux 5.19)");
		return -ENOSYS;
	}
	if (!f->openat2) {
		snprintf(why, len, "the kernel lacks openat2 (Linux 5.6)");
		return -ENOSYS;
	}
	if (!f->pidfd_getfd) {
		snprintf(why, len, "the kernel lacks pidfd_getfd (Linux 5.6)");
		return -ENOSYS;
	}
	return 0;
}

bool ward_capable(int cap)
{
	static int caps_read;
	static uint64_t eff;
	if (!__atomic_load_n(&caps_read, __ATOMIC_ACQUIRE)) {
		char line[256];
		uint64_t v = 0;
		FILE *f = fopen("/proc/self/status", "re");
		while (f != NULL && fgets(line, sizeof(line), f) != NULL)
			if (strncmp(line, "CapEff:", 7) == 0)
				v = strtoull(line + 7, NULL, 16);
		if (f != NULL)
			fclose(f);
		eff = v;
		__atomic_store_n(&caps_read, 1, __ATOMIC_RELEASE);
	}
	return (eff >> cap) & 1;
}
