/*
 * features.h - what this kernel and ward's own credentials give ward,
 * found at start (features.c).
 */
#ifndef WARD_FEATURES_H
#define WARD_FEATURES_H

#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>

#ifndef SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV
#define SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (1UL << 5)
#endif
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/*
 * Kernel features, detected at start.  From 5.9 on (ADDFD) ward keeps
 * every guarantee; the newer ones make it faster or simpler, and each
 * has its replacement, named where it is used:
 *   addfd_send     ADDFD, then SEND with the new fd's number (notify.c)
 *   wait_killable  a call the kernel restarts is answered once (restart.c)
 *   sync_wake_up   the ordinary wake-up: a slower round trip (tracer.c)
 *   pidfd_thread   the process's pidfd, and kcmp to check that the fd
 *                  taken is the calling thread's (mem.c, agent_getfd)
 */
struct features {
	bool user_notif;    /* 5.0: seccomp user notification at all, required */
	bool addfd;	    /* 5.9: SECCOMP_IOCTL_NOTIF_ADDFD, required */
	bool addfd_send;    /* 5.14: SECCOMP_ADDFD_FLAG_SEND */
	bool wait_killable; /* 5.19: SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV */
	bool sync_wake_up;  /* 6.6: SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP */
	bool pidfd_thread;  /* 6.9: pidfd_open(tid, PIDFD_THREAD) */
	bool openat2;	    /* 5.6, required */
	bool pidfd_getfd;   /* 5.6, required */
	bool syscall_info;  /* 5.3: PTRACE_GET_SYSCALL_INFO (--degraded; assumed, known at use) */
	bool statx_mnt_id;  /* 5.8: statx's mount id and mount root (else /proc: procfs.c) */
	bool fdinfo_ino;    /* 5.14: /proc/PID/fdinfo/N names the inode (else its link: mem.c) */
	bool taken;	    /* another listener supervises this process (EBUSY) */
	char masked[128];   /* what WARD_KERNEL_FEATURES masked, "a,b" ("" none) */
	char kernel[128];
};

/*
 * Probe the kernel, then mask what WARD_KERNEL_FEATURES names
 * ("-addfd_send,-wait_killable_recv,..."): -errno with the reason in why
 * when a required feature is missing or the variable is not understood.
 */
int features_detect(struct features *f, char *why, size_t len);
/* The names WARD_KERNEL_FEATURES takes, in one line ("addfd_send, ..."). */
const char *features_maskable(void);
/*
 * The first call number of the kernels ward supports that some of them
 * lack (pidfd_send_signal, 5.1); kernel_lacks(nr) says whether this one
 * lacks call nr (from FIRST_NEWER_CALL on; older ones every kernel has):
 * the call, made with arguments that fail at once (-1 and NULLs), says
 * ENOSYS.
 */
#define FIRST_NEWER_CALL 424
bool kernel_lacks(int nr);
/* Whether ward's own effective capabilities hold capability cap (read once). */
bool ward_capable(int cap);

#endif
