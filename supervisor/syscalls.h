/*
 * syscalls.h - THE table: one row per supervised or forbidden system call.
 *
 * Everything about a syscall is derived from its row here: the filter
 * (filter.c), the handler dispatch and the name in the log (notify.c),
 * and the list the tests read ($BUILD/syscalls.list, gen_syscalls.c).
 * Adding a syscall is one row, one handler function and one test
 * (docs/internals.md).
 *
 *   SYSCALL(name, family, handler, notify, continues)
 *
 * family     one of WARD_FAMILIES below: the handler file, and what the
 *            filter does with the family as a whole (filter.c: forbidden
 *            families are answered by the filter; stat only when the
 *            policy restricts stat; cred only under a root ward).
 * handler    the function in handlers/ that serves the notification
 *            (NONE for the families the filter answers by itself).
 * notify     which of its calls the filter hands to ward:
 *              ALWAYS                every call;
 *              UNLESS_OPATH(a)       every call but those with O_PATH in
 *                                    argument a, when the policy does not
 *                                    restrict stat (an O_PATH fd can only
 *                                    be looked at: nothing to decide);
 *              ANY_OF(WHEN(c...)...) a call for which every comparison c
 *                                    of one WHEN holds;
 *              BY(fn)                the rules fn (filter.c) adds, where a
 *                                    list of WHENs would be hundreds long.
 *            Comparisons: EQ32(a, v) (the low 32 bits of argument a are v:
 *            the kernel reads an int there), BITS(a, mask, v) (a & mask is
 *            v), NONZERO(a) (any of the 64 bits set).
 * continues  0, or MAY_CONTINUE(why): the handler may answer CONTINUE
 *            (return 0), and why that is safe: its decision depended on
 *            registers alone, or is verified afterwards.  A 0 from a
 *            handler of a row without it is a bug, answered EACCES.
 *
 * x86-64 only: other ABIs are killed in the filter.
 */
#ifndef WARD_SYSCALLS_H
#define WARD_SYSCALLS_H

/* FAMILY(ID, name): the name is what syscalls.list calls it. */
#define WARD_FAMILIES(FAMILY)                                                  \
	FAMILY(OPEN, open)                                                     \
	FAMILY(STAT, stat)                                                     \
	FAMILY(CHANGE, change)                                                 \
	FAMILY(EXEC, exec)                                                     \
	FAMILY(NET, net)                                                       \
	FAMILY(SOCKET, socket)                                                 \
	FAMILY(CRED, cred)                                                     \
	FAMILY(SIGNAL, signal)                                                 \
	FAMILY(PID, pid)                                                       \
	FAMILY(IPC, ipc)                                                       \
	FAMILY(NOTE, note)                                                     \
	FAMILY(ENOSYS, enosys)                                                 \
	FAMILY(EPERM, eperm)

enum family {
#define WARD_FAMILY_ENUM(id, name) FAM_##id,
	WARD_FAMILIES(WARD_FAMILY_ENUM)
#undef WARD_FAMILY_ENUM
	FAM_COUNT
};

/* Why each kind of CONTINUE is safe: the reasons MAY_CONTINUE names. */
#define WHY_EXEC "exec cannot be emulated: the tracer verifies the program and argv at " \
		 "PTRACE_EVENT_EXEC and kills the process on any difference"
#define WHY_TARGET "decided on the target id and signal in registers, and on ward's own " \
		   "process table; the kernel acts as the agent"
#define WHY_IPC "decided on the object's id in a register and ward's list of what it made; " \
		"what the call reads or writes is the agent's business with its own object"
#define WHY_IDS "decided on the id registers alone, which the kernel uses as they are"
#define WHY_NOTE "not judged: the call reads no memory, and ward only forgets what it kept"
#define WHY_SOCKET "decided on the three registers (domain, type, protocol) alone"

#define WARD_SYSCALLS(SYSCALL)                                                 \
	/* open: emulated, the fd injected with ADDFD */                       \
	SYSCALL(open, FAM_OPEN, h_open, UNLESS_OPATH(1), 0)                    \
	SYSCALL(openat, FAM_OPEN, h_open, UNLESS_OPATH(2), 0)                  \
	SYSCALL(openat2, FAM_OPEN, h_open, ALWAYS, 0)                          \
	SYSCALL(creat, FAM_OPEN, h_open, ALWAYS, 0)                            \
	/* a watch: judged as reading what it watches, added by ward */        \
	SYSCALL(inotify_add_watch, FAM_OPEN, h_watch, ALWAYS, 0)               \
	/* metadata: notified only when the policy restricts stat */           \
	SYSCALL(stat, FAM_STAT, h_stat, ALWAYS, 0)                             \
	SYSCALL(lstat, FAM_STAT, h_stat, ALWAYS, 0)                            \
	SYSCALL(newfstatat, FAM_STAT, h_stat, ALWAYS, 0)                       \
	SYSCALL(statx, FAM_STAT, h_stat, ALWAYS, 0)                            \
	SYSCALL(access, FAM_STAT, h_stat, ALWAYS, 0)                           \
	SYSCALL(faccessat, FAM_STAT, h_stat, ALWAYS, 0)                        \
	SYSCALL(faccessat2, FAM_STAT, h_stat, ALWAYS, 0)                       \
	SYSCALL(readlink, FAM_STAT, h_stat, ALWAYS, 0)                         \
	SYSCALL(readlinkat, FAM_STAT, h_stat, ALWAYS, 0)                       \
	SYSCALL(getxattr, FAM_STAT, h_stat, ALWAYS, 0)                         \
	SYSCALL(lgetxattr, FAM_STAT, h_stat, ALWAYS, 0)                        \
	SYSCALL(listxattr, FAM_STAT, h_stat, ALWAYS, 0)                        \
	SYSCALL(llistxattr, FAM_STAT, h_stat, ALWAYS, 0)                       \
	/* change: emulated against directory fds the supervisor opened */     \
	SYSCALL(mkdir, FAM_CHANGE, h_change, ALWAYS, 0)                        \
	SYSCALL(mkdirat, FAM_CHANGE, h_change, ALWAYS, 0)                      \
	SYSCALL(mknod, FAM_CHANGE, h_change, ALWAYS, 0)                        \
	SYSCALL(mknodat, FAM_CHANGE, h_change, ALWAYS, 0)                      \
	SYSCALL(unlink, FAM_CHANGE, h_change, ALWAYS, 0)                       \
	SYSCALL(unlinkat, FAM_CHANGE, h_change, ALWAYS, 0)                     \
	SYSCALL(rmdir, FAM_CHANGE, h_change, ALWAYS, 0)                        \
	SYSCALL(rename, FAM_CHANGE, h_change, ALWAYS, 0)                       \
	SYSCALL(renameat, FAM_CHANGE, h_change, ALWAYS, 0)                     \
	SYSCALL(renameat2, FAM_CHANGE, h_change, ALWAYS, 0)                    \
	SYSCALL(link, FAM_CHANGE, h_change, ALWAYS, 0)                         \
	SYSCALL(linkat, FAM_CHANGE, h_change, ALWAYS, 0)                       \
	SYSCALL(symlink, FAM_CHANGE, h_change, ALWAYS, 0)                      \
	SYSCALL(symlinkat, FAM_CHANGE, h_change, ALWAYS, 0)                    \
	SYSCALL(chmod, FAM_CHANGE, h_change, ALWAYS, 0)                        \
	SYSCALL(fchmod, FAM_CHANGE, h_change, ALWAYS, 0)                       \
	SYSCALL(fchmodat, FAM_CHANGE, h_change, ALWAYS, 0)                     \
	SYSCALL(chown, FAM_CHANGE, h_change, ALWAYS, 0)                        \
	SYSCALL(lchown, FAM_CHANGE, h_change, ALWAYS, 0)                       \
	SYSCALL(fchown, FAM_CHANGE, h_change, ALWAYS, 0)                       \
	SYSCALL(fchownat, FAM_CHANGE, h_change, ALWAYS, 0)                     \
	SYSCALL(truncate, FAM_CHANGE, h_change, ALWAYS, 0)                     \
	SYSCALL(utime, FAM_CHANGE, h_change, ALWAYS, 0)                        \
	SYSCALL(utimes, FAM_CHANGE, h_change, ALWAYS, 0)                       \
	SYSCALL(futimesat, FAM_CHANGE, h_change, ALWAYS, 0)                    \
	SYSCALL(utimensat, FAM_CHANGE, h_change, ALWAYS, 0)                    \
	SYSCALL(setxattr, FAM_CHANGE, h_change, ALWAYS, 0)                     \
	SYSCALL(lsetxattr, FAM_CHANGE, h_change, ALWAYS, 0)                    \
	SYSCALL(fsetxattr, FAM_CHANGE, h_change, ALWAYS, 0)                    \
	SYSCALL(removexattr, FAM_CHANGE, h_change, ALWAYS, 0)                  \
	SYSCALL(lremovexattr, FAM_CHANGE, h_change, ALWAYS, 0)                 \
	SYSCALL(fremovexattr, FAM_CHANGE, h_change, ALWAYS, 0)                 \
	/* exec: decided, continued, verified at PTRACE_EVENT_EXEC */          \
	SYSCALL(execve, FAM_EXEC, h_exec, ALWAYS, MAY_CONTINUE(WHY_EXEC))      \
	SYSCALL(execveat, FAM_EXEC, h_exec, ALWAYS, MAY_CONTINUE(WHY_EXEC))    \
	/* network: decided on the address, performed on the agent's socket */ \
	SYSCALL(connect, FAM_NET, h_net, ALWAYS, 0)                            \
	SYSCALL(bind, FAM_NET, h_net, ALWAYS, 0)                               \
	SYSCALL(listen, FAM_NET, h_net, ALWAYS, 0)                             \
	/* only a sendto with an address has a destination to decide */        \
	SYSCALL(sendto, FAM_NET, h_net, ANY_OF(WHEN(NONZERO(4))), 0)           \
	SYSCALL(sendmsg, FAM_NET, h_net, ALWAYS, 0)                            \
	SYSCALL(sendmmsg, FAM_NET, h_net, ALWAYS, 0)                           \
	/* socket: only the kinds not supervised by address (filter.c) */     \
	SYSCALL(socket, FAM_SOCKET, h_socket, BY(socket_rules),                \
		MAY_CONTINUE(WHY_SOCKET))                                      \
	/* signals: only toward processes of the session */                   \
	SYSCALL(kill, FAM_SIGNAL, h_signal, ALWAYS, MAY_CONTINUE(WHY_TARGET))  \
	SYSCALL(tkill, FAM_SIGNAL, h_signal, ALWAYS, MAY_CONTINUE(WHY_TARGET)) \
	SYSCALL(tgkill, FAM_SIGNAL, h_signal, ALWAYS, MAY_CONTINUE(WHY_TARGET)) \
	SYSCALL(rt_sigqueueinfo, FAM_SIGNAL, h_signal, ALWAYS,                 \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(rt_tgsigqueueinfo, FAM_SIGNAL, h_signal, ALWAYS,               \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(pidfd_open, FAM_SIGNAL, h_signal, ALWAYS,                      \
		MAY_CONTINUE(WHY_TARGET))                                      \
	/* the pidfd is the agent's: judged and sent on ward's copy of it */  \
	SYSCALL(pidfd_send_signal, FAM_SIGNAL, h_signal, ALWAYS, 0)            \
	/*                                                                     \
	 * Other calls aimed at a process: only at processes of the session.   \
	 * fcntl, ioctl: only the commands that aim SIGIO at a process (setting \
	 * its owner, turning it on: a terminal's foreground group gets it),   \
	 * choosing a terminal's foreground group, and btrfs's type (0x94:     \
	 * snapshots and raw reads, pid.c).                                    \
	 */                                                                    \
	SYSCALL(fcntl, FAM_PID, h_pid,                                         \
		ANY_OF(WHEN(EQ32(1, F_SETOWN)) WHEN(EQ32(1, F_SETOWN_EX))      \
			       WHEN(EQ32(1, F_SETFL), BITS(2, O_ASYNC, O_ASYNC))), \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(ioctl, FAM_PID, h_pid,                                         \
		ANY_OF(WHEN(EQ32(1, FIOSETOWN)) WHEN(EQ32(1, SIOCSPGRP))       \
			       WHEN(EQ32(1, FIOASYNC)) WHEN(EQ32(1, TIOCSPGRP)) \
				       WHEN(BITS(1, 0xff00, 0x9400))),        \
		MAY_CONTINUE(WHY_TARGET))                                      \
	/*                                                                     \
	 * The core dump limit, which a session keeps at 0 (tracer.c): a new   \
	 * one is judged (pid.c), whoever it is for; prlimit64 and the others  \
	 * aimed by id at a process other than the caller (0: itself; glibc's  \
	 * getrlimit is prlimit64(0, ...)).  Any of the 64 bits set is         \
	 * notified: the handler reads the low 32, the pid_t.                 \
	 */                                                                    \
	SYSCALL(prlimit64, FAM_PID, h_pid,                                     \
		ANY_OF(WHEN(EQ32(1, RLIMIT_CORE), NONZERO(2)) WHEN(NONZERO(0))), \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(setrlimit, FAM_PID, h_pid, ANY_OF(WHEN(EQ32(0, RLIMIT_CORE))), \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(setpriority, FAM_PID, h_pid, ALWAYS, MAY_CONTINUE(WHY_TARGET)) \
	SYSCALL(ioprio_set, FAM_PID, h_pid, ALWAYS, MAY_CONTINUE(WHY_TARGET))  \
	SYSCALL(sched_setaffinity, FAM_PID, h_pid, ANY_OF(WHEN(NONZERO(0))),   \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(sched_setscheduler, FAM_PID, h_pid, ANY_OF(WHEN(NONZERO(0))),  \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(sched_setparam, FAM_PID, h_pid, ANY_OF(WHEN(NONZERO(0))),      \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(sched_setattr, FAM_PID, h_pid, ANY_OF(WHEN(NONZERO(0))),       \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(migrate_pages, FAM_PID, h_pid, ANY_OF(WHEN(NONZERO(0))),       \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(move_pages, FAM_PID, h_pid, ANY_OF(WHEN(NONZERO(0))),          \
		MAY_CONTINUE(WHY_TARGET))                                      \
	SYSCALL(kcmp, FAM_PID, h_pid, ALWAYS, MAY_CONTINUE(WHY_TARGET))        \
	/* never into ward's own process group */                             \
	SYSCALL(setpgid, FAM_PID, h_pid, ALWAYS, MAY_CONTINUE(WHY_TARGET))     \
	/*                                                                     \
	 * System V IPC: a get that may make an object (IPC_CREAT, or the key  \
	 * IPC_PRIVATE, which makes one without) is made by ward (ipc.c); the  \
	 * flags are msgget's second argument, the others' third.  The kernel  \
	 * reads the key as an int.                                            \
	 */                                                                    \
	SYSCALL(shmget, FAM_IPC, h_ipc,                                        \
		ANY_OF(WHEN(BITS(2, IPC_CREAT, IPC_CREAT))                     \
			       WHEN(EQ32(0, IPC_PRIVATE))),                    \
		0)                                                             \
	SYSCALL(shmat, FAM_IPC, h_ipc, ALWAYS, MAY_CONTINUE(WHY_IPC))          \
	SYSCALL(msgget, FAM_IPC, h_ipc,                                        \
		ANY_OF(WHEN(BITS(1, IPC_CREAT, IPC_CREAT))                     \
			       WHEN(EQ32(0, IPC_PRIVATE))),                    \
		0)                                                             \
	SYSCALL(msgsnd, FAM_IPC, h_ipc, ALWAYS, MAY_CONTINUE(WHY_IPC))         \
	SYSCALL(msgrcv, FAM_IPC, h_ipc, ALWAYS, MAY_CONTINUE(WHY_IPC))         \
	SYSCALL(msgctl, FAM_IPC, h_ipc, ALWAYS, MAY_CONTINUE(WHY_IPC))         \
	SYSCALL(semget, FAM_IPC, h_ipc,                                        \
		ANY_OF(WHEN(BITS(2, IPC_CREAT, IPC_CREAT))                     \
			       WHEN(EQ32(0, IPC_PRIVATE))),                    \
		0)                                                             \
	SYSCALL(semop, FAM_IPC, h_ipc, ALWAYS, MAY_CONTINUE(WHY_IPC))          \
	SYSCALL(semtimedop, FAM_IPC, h_ipc, ALWAYS, MAY_CONTINUE(WHY_IPC))     \
	SYSCALL(semctl, FAM_IPC, h_ipc, ALWAYS, MAY_CONTINUE(WHY_IPC))         \
	/* credentials: under a root ward, the agent keeps its own */         \
	SYSCALL(setuid, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))       \
	SYSCALL(setgid, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))       \
	SYSCALL(setreuid, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))     \
	SYSCALL(setregid, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))     \
	SYSCALL(setresuid, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))    \
	SYSCALL(setresgid, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))    \
	SYSCALL(setfsuid, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))     \
	SYSCALL(setfsgid, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))     \
	SYSCALL(setgroups, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))    \
	SYSCALL(capset, FAM_CRED, h_cred, ALWAYS, MAY_CONTINUE(WHY_IDS))       \
	SYSCALL(shmctl, FAM_IPC, h_ipc, ALWAYS, MAY_CONTINUE(WHY_IPC))         \
	/* noted, not judged: what ward must know to act for the agent */     \
	SYSCALL(umask, FAM_NOTE, h_umask, ALWAYS, MAY_CONTINUE(WHY_NOTE))      \
	/* forbidden: ENOSYS, so that libc falls back */                       \
	SYSCALL(io_uring_setup, FAM_ENOSYS, NONE, ALWAYS, 0)                   \
	SYSCALL(io_uring_enter, FAM_ENOSYS, NONE, ALWAYS, 0)                   \
	SYSCALL(io_uring_register, FAM_ENOSYS, NONE, ALWAYS, 0)                \
	SYSCALL(clone3, FAM_ENOSYS, NONE, ALWAYS, 0)                           \
	SYSCALL(uselib, FAM_ENOSYS, NONE, ALWAYS, 0)                           \
	/* forbidden: EPERM */                                                 \
	SYSCALL(ptrace, FAM_EPERM, NONE, ALWAYS, 0)                            \
	SYSCALL(process_vm_readv, FAM_EPERM, NONE, ALWAYS, 0)                  \
	SYSCALL(process_vm_writev, FAM_EPERM, NONE, ALWAYS, 0)                 \
	SYSCALL(pidfd_getfd, FAM_EPERM, NONE, ALWAYS, 0)                       \
	SYSCALL(open_by_handle_at, FAM_EPERM, NONE, ALWAYS, 0)                 \
	SYSCALL(name_to_handle_at, FAM_EPERM, NONE, ALWAYS, 0)                 \
	SYSCALL(mount, FAM_EPERM, NONE, ALWAYS, 0)                             \
	SYSCALL(umount2, FAM_EPERM, NONE, ALWAYS, 0)                           \
	SYSCALL(pivot_root, FAM_EPERM, NONE, ALWAYS, 0)                        \
	SYSCALL(chroot, FAM_EPERM, NONE, ALWAYS, 0)                            \
	SYSCALL(unshare, FAM_EPERM, NONE, ALWAYS, 0)                           \
	SYSCALL(setns, FAM_EPERM, NONE, ALWAYS, 0)                             \
	SYSCALL(fsopen, FAM_EPERM, NONE, ALWAYS, 0)                            \
	SYSCALL(fsconfig, FAM_EPERM, NONE, ALWAYS, 0)                          \
	SYSCALL(fsmount, FAM_EPERM, NONE, ALWAYS, 0)                           \
	SYSCALL(fspick, FAM_EPERM, NONE, ALWAYS, 0)                            \
	SYSCALL(move_mount, FAM_EPERM, NONE, ALWAYS, 0)                        \
	SYSCALL(open_tree, FAM_EPERM, NONE, ALWAYS, 0)                         \
	SYSCALL(mount_setattr, FAM_EPERM, NONE, ALWAYS, 0)                     \
	SYSCALL(init_module, FAM_EPERM, NONE, ALWAYS, 0)                       \
	SYSCALL(finit_module, FAM_EPERM, NONE, ALWAYS, 0)                      \
	SYSCALL(delete_module, FAM_EPERM, NONE, ALWAYS, 0)                     \
	SYSCALL(kexec_load, FAM_EPERM, NONE, ALWAYS, 0)                        \
	SYSCALL(kexec_file_load, FAM_EPERM, NONE, ALWAYS, 0)                   \
	SYSCALL(bpf, FAM_EPERM, NONE, ALWAYS, 0)                               \
	SYSCALL(perf_event_open, FAM_EPERM, NONE, ALWAYS, 0)                   \
	SYSCALL(add_key, FAM_EPERM, NONE, ALWAYS, 0)                           \
	SYSCALL(request_key, FAM_EPERM, NONE, ALWAYS, 0)                       \
	SYSCALL(keyctl, FAM_EPERM, NONE, ALWAYS, 0)                            \
	SYSCALL(userfaultfd, FAM_EPERM, NONE, ALWAYS, 0)                       \
	SYSCALL(fanotify_init, FAM_EPERM, NONE, ALWAYS, 0)                     \
	SYSCALL(acct, FAM_EPERM, NONE, ALWAYS, 0)                              \
	SYSCALL(swapon, FAM_EPERM, NONE, ALWAYS, 0)                            \
	SYSCALL(swapoff, FAM_EPERM, NONE, ALWAYS, 0)                           \
	SYSCALL(quotactl, FAM_EPERM, NONE, ALWAYS, 0)                          \
	SYSCALL(vhangup, FAM_EPERM, NONE, ALWAYS, 0)

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

/*
 * The notify column's words, for filter.c (the only file that reads that
 * column; elsewhere it is never expanded, so its constants need no header
 * there).  struct notify and struct clause are filter.c's.
 */
#define ALWAYS { .kind = NOTIFY_ALWAYS }
#define UNLESS_OPATH(a) { .kind = NOTIFY_UNLESS_OPATH, .arg = (a) }
#define ANY_OF(whens) { .kind = NOTIFY_WHEN, .when = (const struct clause[]){ whens { 0 } } }
#define BY(fn) { .kind = NOTIFY_BY, .by = (fn) }
#define WHEN(...)                                                              \
	{ .n = sizeof((struct scmp_arg_cmp[]){ __VA_ARGS__ }) /                \
	       sizeof(struct scmp_arg_cmp),                                    \
	  .cmp = { __VA_ARGS__ } },
#define EQ32(a, v) { (a), SCMP_CMP_MASKED_EQ, 0xffffffffu, (v) }
#define BITS(a, mask, v) { (a), SCMP_CMP_MASKED_EQ, (mask), (v) }
#define NONZERO(a) { (a), SCMP_CMP_NE, 0, 0 }

#endif
