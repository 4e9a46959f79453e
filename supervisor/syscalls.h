/*
 * syscalls.h - the one table of supervised and forbidden system calls.
 *
 * Everything about a syscall is derived from its row here: the filter
 * (filter.c), the names in the log, and the handler dispatch (notify.c).
 *
 *   SYSCALL(name, family, handler)
 *
 * family is one of the enum family values; handler names the function in
 * handlers/ that serves the notification (NONE for families the filter
 * answers by itself).  x86-64 only: other ABIs are killed in the filter.
 */
#ifndef WARD_SYSCALLS_H
#define WARD_SYSCALLS_H

#define WARD_SYSCALLS(SYSCALL)                                                 \
	/* open: emulated, the fd injected with ADDFD */                       \
	SYSCALL(open, FAM_OPEN, h_open)                                        \
	SYSCALL(openat, FAM_OPEN, h_open)                                      \
	SYSCALL(openat2, FAM_OPEN, h_open)                                     \
	SYSCALL(creat, FAM_OPEN, h_open)                                       \
	/* a watch: judged as reading what it watches, added by ward */        \
	SYSCALL(inotify_add_watch, FAM_OPEN, h_watch)                          \
	/* metadata: notified only when the policy restricts stat */           \
	SYSCALL(stat, FAM_STAT, h_stat)                                        \
	SYSCALL(lstat, FAM_STAT, h_stat)                                       \
	SYSCALL(newfstatat, FAM_STAT, h_stat)                                  \
	SYSCALL(statx, FAM_STAT, h_stat)                                       \
	SYSCALL(access, FAM_STAT, h_stat)                                      \
	SYSCALL(faccessat, FAM_STAT, h_stat)                                   \
	SYSCALL(faccessat2, FAM_STAT, h_stat)                                  \
	SYSCALL(readlink, FAM_STAT, h_stat)                                    \
	SYSCALL(readlinkat, FAM_STAT, h_stat)                                  \
	SYSCALL(getxattr, FAM_STAT, h_stat)                                    \
	SYSCALL(lgetxattr, FAM_STAT, h_stat)                                   \
	SYSCALL(listxattr, FAM_STAT, h_stat)                                   \
	SYSCALL(llistxattr, FAM_STAT, h_stat)                                  \
	/* change: emulated against directory fds the supervisor opened */     \
	SYSCALL(mkdir, FAM_CHANGE, h_change)                                   \
	SYSCALL(mkdirat, FAM_CHANGE, h_change)                                 \
	SYSCALL(mknod, FAM_CHANGE, h_change)                                   \
	SYSCALL(mknodat, FAM_CHANGE, h_change)                                 \
	SYSCALL(unlink, FAM_CHANGE, h_change)                                  \
	SYSCALL(unlinkat, FAM_CHANGE, h_change)                                \
	SYSCALL(rmdir, FAM_CHANGE, h_change)                                   \
	SYSCALL(rename, FAM_CHANGE, h_change)                                  \
	SYSCALL(renameat, FAM_CHANGE, h_change)                                \
	SYSCALL(renameat2, FAM_CHANGE, h_change)                               \
	SYSCALL(link, FAM_CHANGE, h_change)                                    \
	SYSCALL(linkat, FAM_CHANGE, h_change)                                  \
	SYSCALL(symlink, FAM_CHANGE, h_change)                                 \
	SYSCALL(symlinkat, FAM_CHANGE, h_change)                               \
	SYSCALL(chmod, FAM_CHANGE, h_change)                                   \
	SYSCALL(fchmod, FAM_CHANGE, h_change)                                  \
	SYSCALL(fchmodat, FAM_CHANGE, h_change)                                \
	SYSCALL(chown, FAM_CHANGE, h_change)                                   \
	SYSCALL(lchown, FAM_CHANGE, h_change)                                  \
	SYSCALL(fchown, FAM_CHANGE, h_change)                                  \
	SYSCALL(fchownat, FAM_CHANGE, h_change)                                \
	SYSCALL(truncate, FAM_CHANGE, h_change)                                \
	SYSCALL(utime, FAM_CHANGE, h_change)                                   \
	SYSCALL(utimes, FAM_CHANGE, h_change)                                  \
	SYSCALL(futimesat, FAM_CHANGE, h_change)                               \
	SYSCALL(utimensat, FAM_CHANGE, h_change)                               \
	SYSCALL(setxattr, FAM_CHANGE, h_change)                                \
	SYSCALL(lsetxattr, FAM_CHANGE, h_change)                               \
	SYSCALL(fsetxattr, FAM_CHANGE, h_change)                               \
	SYSCALL(removexattr, FAM_CHANGE, h_change)                             \
	SYSCALL(lremovexattr, FAM_CHANGE, h_change)                            \
	SYSCALL(fremovexattr, FAM_CHANGE, h_change)                            \
	/* exec: decided, continued, verified at PTRACE_EVENT_EXEC */          \
	SYSCALL(execve, FAM_EXEC, h_exec)                                      \
	SYSCALL(execveat, FAM_EXEC, h_exec)                                    \
	/* network: decided on the address, performed on the agent's socket */ \
	SYSCALL(connect, FAM_NET, h_net)                                       \
	SYSCALL(bind, FAM_NET, h_net)                                          \
	SYSCALL(listen, FAM_NET, h_net)                                        \
	SYSCALL(sendto, FAM_NET, h_net) /* only with an address */             \
	SYSCALL(sendmsg, FAM_NET, h_net)                                       \
	SYSCALL(sendmmsg, FAM_NET, h_net)                                      \
	SYSCALL(socket, FAM_SOCKET, h_socket) /* only unusual kinds */        \
	/* signals: only toward processes of the session */                   \
	SYSCALL(kill, FAM_SIGNAL, h_signal)                                    \
	SYSCALL(tkill, FAM_SIGNAL, h_signal)                                   \
	SYSCALL(tgkill, FAM_SIGNAL, h_signal)                                  \
	SYSCALL(rt_sigqueueinfo, FAM_SIGNAL, h_signal)                         \
	SYSCALL(rt_tgsigqueueinfo, FAM_SIGNAL, h_signal)                       \
	SYSCALL(pidfd_open, FAM_SIGNAL, h_signal)                              \
	SYSCALL(pidfd_send_signal, FAM_SIGNAL, h_signal)                       \
	/* other calls aimed at a process: only at processes of the session */ \
	SYSCALL(fcntl, FAM_PID, h_pid)     /* F_SETOWN(_EX), F_SETFL|O_ASYNC */ \
	SYSCALL(ioctl, FAM_PID, h_pid)     /* *SETOWN, SIOCSPGRP, FIOASYNC, TIOCSPGRP */ \
	SYSCALL(prlimit64, FAM_PID, h_pid)                                     \
	SYSCALL(setrlimit, FAM_PID, h_pid)     /* RLIMIT_CORE only */          \
	SYSCALL(setpriority, FAM_PID, h_pid)                                   \
	SYSCALL(ioprio_set, FAM_PID, h_pid)                                    \
	SYSCALL(sched_setaffinity, FAM_PID, h_pid)                             \
	SYSCALL(sched_setscheduler, FAM_PID, h_pid)                            \
	SYSCALL(sched_setparam, FAM_PID, h_pid)                                \
	SYSCALL(sched_setattr, FAM_PID, h_pid)                                 \
	SYSCALL(migrate_pages, FAM_PID, h_pid)                                 \
	SYSCALL(move_pages, FAM_PID, h_pid)                                    \
	SYSCALL(kcmp, FAM_PID, h_pid)                                          \
	SYSCALL(setpgid, FAM_PID, h_pid) /* never into ward's own group */     \
	SYSCALL(shmget, FAM_PID, h_ipc) /* with IPC_CREAT: made by ward */     \
	SYSCALL(shmat, FAM_PID, h_ipc)                                         \
	SYSCALL(msgget, FAM_PID, h_ipc) /* with IPC_CREAT: made by ward */     \
	SYSCALL(msgsnd, FAM_PID, h_ipc)                                        \
	SYSCALL(msgrcv, FAM_PID, h_ipc)                                        \
	SYSCALL(msgctl, FAM_PID, h_ipc)                                        \
	SYSCALL(semget, FAM_PID, h_ipc) /* with IPC_CREAT: made by ward */     \
	SYSCALL(semop, FAM_PID, h_ipc)                                         \
	SYSCALL(semtimedop, FAM_PID, h_ipc)                                    \
	SYSCALL(semctl, FAM_PID, h_ipc)                                        \
	/* credentials: under a root ward, the agent keeps its own */         \
	SYSCALL(setuid, FAM_CRED, h_cred)                                      \
	SYSCALL(setgid, FAM_CRED, h_cred)                                      \
	SYSCALL(setreuid, FAM_CRED, h_cred)                                    \
	SYSCALL(setregid, FAM_CRED, h_cred)                                    \
	SYSCALL(setresuid, FAM_CRED, h_cred)                                   \
	SYSCALL(setresgid, FAM_CRED, h_cred)                                   \
	SYSCALL(setfsuid, FAM_CRED, h_cred)                                    \
	SYSCALL(setfsgid, FAM_CRED, h_cred)                                    \
	SYSCALL(setgroups, FAM_CRED, h_cred)                                   \
	SYSCALL(capset, FAM_CRED, h_cred)                                      \
	SYSCALL(shmctl, FAM_PID, h_ipc)                                        \
	/* noted, not judged: what ward must know to act for the agent */     \
	SYSCALL(umask, FAM_NOTE, h_umask)                                      \
	/* forbidden: ENOSYS, so that libc falls back */                       \
	SYSCALL(io_uring_setup, FAM_ENOSYS, NONE)                              \
	SYSCALL(io_uring_enter, FAM_ENOSYS, NONE)                              \
	SYSCALL(io_uring_register, FAM_ENOSYS, NONE)                           \
	SYSCALL(clone3, FAM_ENOSYS, NONE)                                      \
	SYSCALL(uselib, FAM_ENOSYS, NONE)                                      \
	/* forbidden: EPERM */                                                 \
	SYSCALL(ptrace, FAM_EPERM, NONE)                                       \
	SYSCALL(process_vm_readv, FAM_EPERM, NONE)                             \
	SYSCALL(process_vm_writev, FAM_EPERM, NONE)                            \
	SYSCALL(pidfd_getfd, FAM_EPERM, NONE)                                  \
	SYSCALL(open_by_handle_at, FAM_EPERM, NONE)                            \
	SYSCALL(name_to_handle_at, FAM_EPERM, NONE)                            \
	SYSCALL(mount, FAM_EPERM, NONE)                                        \
	SYSCALL(umount2, FAM_EPERM, NONE)                                      \
	SYSCALL(pivot_root, FAM_EPERM, NONE)                                   \
	SYSCALL(chroot, FAM_EPERM, NONE)                                       \
	SYSCALL(unshare, FAM_EPERM, NONE)                                      \
	SYSCALL(setns, FAM_EPERM, NONE)                                        \
	SYSCALL(fsopen, FAM_EPERM, NONE)                                       \
	SYSCALL(fsconfig, FAM_EPERM, NONE)                                     \
	SYSCALL(fsmount, FAM_EPERM, NONE)                                      \
	SYSCALL(fspick, FAM_EPERM, NONE)                                       \
	SYSCALL(move_mount, FAM_EPERM, NONE)                                   \
	SYSCALL(open_tree, FAM_EPERM, NONE)                                    \
	SYSCALL(mount_setattr, FAM_EPERM, NONE)                                \
	SYSCALL(init_module, FAM_EPERM, NONE)                                  \
	SYSCALL(finit_module, FAM_EPERM, NONE)                                 \
	SYSCALL(delete_module, FAM_EPERM, NONE)                                \
	SYSCALL(kexec_load, FAM_EPERM, NONE)                                   \
	SYSCALL(kexec_file_load, FAM_EPERM, NONE)                              \
	SYSCALL(bpf, FAM_EPERM, NONE)                                          \
	SYSCALL(perf_event_open, FAM_EPERM, NONE)                              \
	SYSCALL(add_key, FAM_EPERM, NONE)                                      \
	SYSCALL(request_key, FAM_EPERM, NONE)                                  \
	SYSCALL(keyctl, FAM_EPERM, NONE)                                       \
	SYSCALL(userfaultfd, FAM_EPERM, NONE)                                  \
	SYSCALL(fanotify_init, FAM_EPERM, NONE)                                \
	SYSCALL(acct, FAM_EPERM, NONE)                                         \
	SYSCALL(swapon, FAM_EPERM, NONE)                                       \
	SYSCALL(swapoff, FAM_EPERM, NONE)                                      \
	SYSCALL(quotactl, FAM_EPERM, NONE)                                     \
	SYSCALL(vhangup, FAM_EPERM, NONE)

/*
 * Calls newer than the C library's headers, by number.  Each of these
 * takes a path ward would otherwise not see: ENOSYS makes libc fall back
 * to the older calls ward supervises (EPERM for the mount family).
 *
 *   NEWCALL(number, name, family)
 */
#define WARD_NEW_SYSCALLS(NEWCALL)                                             \
	NEWCALL(443, quotactl_fd, FAM_EPERM)                                   \
	NEWCALL(452, fchmodat2, FAM_ENOSYS)                                    \
	NEWCALL(463, setxattrat, FAM_ENOSYS)                                   \
	NEWCALL(464, getxattrat, FAM_ENOSYS)                                   \
	NEWCALL(465, listxattrat, FAM_ENOSYS)                                  \
	NEWCALL(466, removexattrat, FAM_ENOSYS)                                \
	NEWCALL(467, open_tree_attr, FAM_EPERM)                                \
	NEWCALL(468, file_getattr, FAM_ENOSYS)                                 \
	NEWCALL(469, file_setattr, FAM_ENOSYS)

enum family {
	FAM_OPEN,
	FAM_STAT,
	FAM_CHANGE,
	FAM_EXEC,
	FAM_NET,
	FAM_SOCKET,
	FAM_CRED,
	FAM_SIGNAL,
	FAM_PID,
	FAM_NOTE,
	FAM_ENOSYS,
	FAM_EPERM,
};

#endif
