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

/* Kernel features, detected at start. */
struct features {
	bool addfd_send;      /* 5.14, required */
	bool wait_killable;   /* 5.19, required */
	bool sync_wake_up;    /* 6.6, used when present */
	bool openat2;	      /* 5.6, required */
	bool pidfd_getfd;     /* 5.6 */
	char kernel[128];
};
/* Probe the kernel; -errno with the reason in why when a required feature is missing. */
int features_detect(struct features *f, char *why, size_t len);
/* Whether ward's own effective capabilities hold capability cap (read once). */
bool ward_capable(int cap);

#endif
