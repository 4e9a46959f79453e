/*
 * features.c - which seccomp and process features this kernel has, and
 * WARD_KERNEL_FEATURES, which masks them so that every path ward takes on
 * an older kernel runs on this one too.
 *
 * Each is probed, not inferred from the version: a child installs a
 * notifier filter with the flags ward needs and tries the ioctls.
 */
#include "features.h"
#include "mem.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/stat.h>
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

/* What the probe child's exit status says. */
enum {
	P_WAIT_KILLABLE = 1,
	P_SYNC_WAKE_UP = 2,
	P_ADDFD_SEND = 4,
	P_ADDFD = 8,
	P_NONE = 0x80,	/* no user notification at all */
	P_TAKEN = 0x40, /* with P_NONE: a listener supervises this process already */
};

/*
 * In a child (a filter cannot be removed): install the filter with
 * WAIT_KILLABLE_RECV and try SET_FLAGS and ADDFD.  Exit status bits say
 * what worked.
 */
static int probe_child(void)
{
	int st = 0, fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return P_NONE;
	fd = probe_filter(SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV);
	if (fd >= 0)
		st |= P_WAIT_KILLABLE;
	else
		fd = probe_filter(0);
	/*
	 * EBUSY: a filter of this process has a listener already (ward inside
	 * ward, a container runtime's); EPERM: a filter refuses a new one, as
	 * ward's own does.
	 */
	if (fd < 0)
		return P_NONE | (errno == EBUSY || errno == EPERM ? P_TAKEN : 0);
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) == 0)
		st |= P_SYNC_WAKE_UP;
	/*
	 * ADDFD on a notification id that does not exist fails with ENOENT
	 * when the kernel knows the ioctl and its flags, EINVAL when it does
	 * not: first without a flag (5.9), then with FLAG_SEND (5.14).  The
	 * fd to pass is the listener itself: fd 0 may be closed.
	 */
	struct seccomp_notif_addfd a = { .id = 1, .flags = 0, .srcfd = (uint32_t)fd };
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_ADDFD, &a) < 0 && errno == ENOENT)
		st |= P_ADDFD;
	a.flags = SECCOMP_ADDFD_FLAG_SEND;
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_ADDFD, &a) < 0 && errno == ENOENT)
		st |= P_ADDFD_SEND;
	return st;
}

/* Does /proc/self/fdinfo/N have an "ino:" line (5.14)? */
static bool fdinfo_has_ino(void)
{
	char path[64], line[128];
	bool found = false;
	int fd = open("/", O_PATH | O_CLOEXEC);

	if (fd < 0)
		return false;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "re");
	while (f != NULL && !found && fgets(line, sizeof(line), f) != NULL)
		found = strncmp(line, "ino:", 4) == 0;
	if (f != NULL)
		fclose(f);
	close(fd);
	return found;
}

/* The features WARD_KERNEL_FEATURES may mask, by the names it uses. */
static const struct maskable {
	const char *name;
	size_t flag; /* a bool of struct features */
} maskable[] = {
	{ "user_notif", offsetof(struct features, user_notif) },
	{ "addfd", offsetof(struct features, addfd) },
	{ "addfd_send", offsetof(struct features, addfd_send) },
	{ "wait_killable_recv", offsetof(struct features, wait_killable) },
	{ "sync_wake_up", offsetof(struct features, sync_wake_up) },
	{ "pidfd_thread", offsetof(struct features, pidfd_thread) },
	{ "openat2", offsetof(struct features, openat2) },
	{ "pidfd_getfd", offsetof(struct features, pidfd_getfd) },
	{ "ptrace_syscall_info", offsetof(struct features, syscall_info) },
	{ "statx_mnt_id", offsetof(struct features, statx_mnt_id) },
	{ "fdinfo_ino", offsetof(struct features, fdinfo_ino) },
};
#define NMASKABLE (sizeof(maskable) / sizeof(maskable[0]))

const char *features_maskable(void)
{
	static char names[160];
	if (names[0] == '\0')
		for (size_t i = 0, o = 0; i < NMASKABLE && o < sizeof(names); i++)
			o += (size_t)snprintf(names + o, sizeof(names) - o, "%s%s", i ? ", " : "",
					      maskable[i].name);
	return names;
}

/*
 * WARD_KERNEL_FEATURES=-NAME,...: ward behaves as on a kernel without
 * each NAME.  Every flag it masks is one ward asks the kernel for (the
 * kernel's behaviour without it is the old kernel's), so the masked run
 * meets what an older kernel does.  Features can only be taken away.
 */
static int apply_mask(struct features *f, const char *spec, char *why, size_t len)
{
	char word[64];
	size_t o = 0;

	f->masked[0] = '\0';
	while (*spec != '\0') {
		size_t n = strcspn(spec, ", \t");
		if (n == 0) {
			spec++;
			continue;
		}
		if (n >= sizeof(word)) {
			snprintf(why, len, "WARD_KERNEL_FEATURES: '%.40s...' is too long", spec);
			return -EINVAL;
		}
		memcpy(word, spec, n);
		word[n] = '\0';
		spec += n;
		if (word[0] != '-') {
			snprintf(why, len, "WARD_KERNEL_FEATURES: '%s': features can only be masked "
					   "(-%s)", word, word);
			return -EINVAL;
		}
		size_t i;
		for (i = 0; i < NMASKABLE && strcmp(word + 1, maskable[i].name) != 0; i++)
			;
		if (i == NMASKABLE) {
			snprintf(why, len, "WARD_KERNEL_FEATURES: '%s' is no feature ward can mask "
					   "(%s)", word + 1, features_maskable());
			return -EINVAL;
		}
		*(bool *)((char *)f + maskable[i].flag) = false;
		if (strstr(f->masked, word + 1) == NULL && o < sizeof(f->masked))
			o += (size_t)snprintf(f->masked + o, sizeof(f->masked) - o, "%s%s",
					      o ? "," : "", word + 1);
	}
	return 0;
}

int features_detect(struct features *f, char *why, size_t len)
{
	struct utsname u;
	int status = 0, pfd;
	pid_t pid;

	memset(f, 0, sizeof(*f));
	if (uname(&u) == 0)
		snprintf(f->kernel, sizeof(f->kernel), "%s", u.release);
	f->openat2 = syscall(SYS_openat2, -1, "", NULL, 0) < 0 && errno != ENOSYS;
	f->pidfd_getfd = syscall(SYS_pidfd_getfd, -1, 0, 0) < 0 && errno != ENOSYS;
	struct statx stx;
	f->statx_mnt_id = statx(AT_FDCWD, "/", 0, STATX_MNT_ID, &stx) == 0 &&
			  (stx.stx_mask & STATX_MNT_ID) && (stx.stx_attributes_mask & STATX_ATTR_MOUNT_ROOT);
	f->fdinfo_ino = fdinfo_has_ino();
	/* Only a tracee can tell (ESRCH comes before EIO): --degraded learns it at its first use. */
	f->syscall_info = true;
	/* This thread is its process's leader: PIDFD_THREAD is known or EINVAL. */
	pfd = (int)syscall(SYS_pidfd_open, (pid_t)syscall(SYS_gettid), PIDFD_THREAD);
	f->pidfd_thread = pfd >= 0;
	if (pfd >= 0)
		close(pfd);

	pid = fork();
	if (pid < 0) {
		snprintf(why, len, "cannot fork to probe seccomp: %s", strerror(errno));
		return -errno;
	}
	if (pid == 0)
		_exit(probe_child());
	bool taken = false;
	if (waitpid(pid, &status, 0) == pid && WIFEXITED(status) && !(WEXITSTATUS(status) & P_NONE)) {
		f->user_notif = true;
		f->wait_killable = WEXITSTATUS(status) & P_WAIT_KILLABLE;
		f->sync_wake_up = WEXITSTATUS(status) & P_SYNC_WAKE_UP;
		f->addfd_send = WEXITSTATUS(status) & P_ADDFD_SEND;
		f->addfd = WEXITSTATUS(status) & P_ADDFD;
	} else {
		taken = WIFEXITED(status) && (WEXITSTATUS(status) & P_TAKEN);
	}

	f->taken = taken; /* (a mask not understood must not hide it: run.c dies on -EINVAL) */
	const char *spec = getenv("WARD_KERNEL_FEATURES");
	int rc = spec != NULL ? apply_mask(f, spec, why, len) : 0;
	if (rc < 0)
		return rc;
	/*
	 * Where user notification is missing or taken, or has no ADDFD, ward
	 * needs --degraded (enforcement through ptrace: DESIGN.md 2), which
	 * run.c takes where it is asked to; the reason is said either way.
	 */
	if (!f->user_notif && taken) {
		snprintf(why, len,
			 "seccomp user notification is taken: another listener already supervises "
			 "this process (a container runtime's, or another ward's, under which ward "
			 "cannot run); --degraded enforces by ptrace at every call's entry "
			 "(docs/degraded.md)");
		return -EBUSY;
	}
	if (!f->user_notif) {
		snprintf(why, len,
			 "seccomp user notification is not available (Linux 5.0 or later, with "
			 "CONFIG_SECCOMP_FILTER); --degraded runs with enforcement by ptrace "
			 "(docs/degraded.md)");
		return -ENOSYS;
	}
	if (!f->addfd) {
		snprintf(why, len, "the kernel lacks SECCOMP_IOCTL_NOTIF_ADDFD (Linux 5.9); --degraded "
				   "runs with enforcement by ptrace (docs/degraded.md)");
		return -ENOSYS;
	}
	if (!f->openat2) {
		snprintf(why, len, "the kernel lacks openat2 (Linux 5.6); --degraded runs with "
				   "enforcement by ptrace (docs/degraded.md)");
		return -ENOSYS;
	}
	if (!f->pidfd_getfd) {
		snprintf(why, len, "the kernel lacks pidfd_getfd (Linux 5.6); --degraded runs with "
				   "enforcement by ptrace (docs/degraded.md)");
		return -ENOSYS;
	}
	return 0;
}

bool kernel_lacks(int nr)
{
	if (nr < FIRST_NEWER_CALL)
		return false;
	/*
	 * Every such call fails at once on a -1 fd or number and NULL
	 * pointers (EBADF, EFAULT, EINVAL, EPERM), and does nothing; where the
	 * kernel lacks it, ENOSYS.  (Only the rows the filter does not answer
	 * ENOSYS already are asked: filter.c.)
	 */
	errno = 0;
	long rc = syscall(nr, -1L, 0L, 0L, 0L, 0L, 0L);
	return rc < 0 && errno == ENOSYS;
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
