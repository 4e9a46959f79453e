/*
 * filter.c - the seccomp filter, generated with libseccomp from the
 * syscall table and the policy.
 *
 * libseccomp builds the program; ward loads it itself with seccomp(2),
 * because the libseccomp in Debian 12 cannot ask for
 * SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV.
 */
#include "filter.h"
#include "features.h"
#include "syscalls.h"
#include "ward_rules.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/mman.h>
#include <sys/ipc.h>
#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sched.h>
#include <linux/sockios.h>
#include <unistd.h>

#ifndef TIOCSTI
#define TIOCSTI 0x5412
#endif
#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

struct row {
	const char *name;
	int nr;
	enum family family;
};

#define ROW(name, family, handler) { #name, SYS_##name, family },
#define NEWROW(nr, name, family) { #name, nr, family },
static const struct row table[] = { WARD_SYSCALLS(ROW) WARD_NEW_SYSCALLS(NEWROW) };
#undef ROW
#undef NEWROW

struct sock_fprog ward_filter;

/*
 * socket(): the kinds ward supervises by address (unix, netlink, and
 * TCP/UDP over IPv4 and IPv6) are created without a round trip; every
 * other kind is notified, and refused unless a socket:KIND rule allows
 * it.  Raw and packet sockets choose their destination in the packet
 * itself, SCTP can connect through setsockopt: none of them can be
 * judged by the address of a connect or a send.
 *
 * libseccomp joins a syscall's rules with OR, each rule's comparisons
 * with AND, so "notify unless allowed" is written as the union of what is
 * not allowed.
 */
static int socket_rules(scmp_filter_ctx ctx, int nr)
{
	const uint32_t m32 = 0xffffffffu;
	int rc;

	/* Families other than unix (1), inet (2), inet6 (10) and netlink (16). */
	for (int d = 3; d < 64; d++) {
		if (d == AF_INET6 || d == AF_NETLINK)
			continue;
		struct scmp_arg_cmp c = { 0, SCMP_CMP_MASKED_EQ, m32, (scmp_datum_t)d };
		if ((rc = seccomp_rule_add_array(ctx, SCMP_ACT_NOTIFY, nr, 1, &c)) < 0)
			return rc;
	}
	int inet[2] = { AF_INET, AF_INET6 };
	for (int k = 0; k < 2; k++) {
		/* Types other than stream (1) and datagram (2): raw, rdm, seqpacket, dccp, packet. */
		for (int t = 3; t < 16; t++) {
			struct scmp_arg_cmp c[2] = {
				{ 0, SCMP_CMP_MASKED_EQ, m32, (scmp_datum_t)inet[k] },
				{ 1, SCMP_CMP_MASKED_EQ, 0xf, (scmp_datum_t)t },
			};
			if ((rc = seccomp_rule_add_array(ctx, SCMP_ACT_NOTIFY, nr, 2, c)) < 0)
				return rc;
		}
		/*
		 * Any protocol number but 0: the handler lets TCP, UDP, UDP-Lite
		 * and MPTCP through and judges the rest (ICMP, SCTP, L2TP, SMC...).
		 */
		struct scmp_arg_cmp c[2] = {
			{ 0, SCMP_CMP_MASKED_EQ, m32, (scmp_datum_t)inet[k] },
			{ 2, SCMP_CMP_NE, 0, 0 },
		};
		if ((rc = seccomp_rule_add_array(ctx, SCMP_ACT_NOTIFY, nr, 2, c)) < 0)
			return rc;
	}
	return 0;
}

/*
 * Build the filter for policy p into a BPF program (malloc'd into *prog).
 * Runs in the parent, before fork, so that errors are reported cleanly.
 */
int filter_build(const struct ward_policy *p, struct sock_fprog *prog, char *why,
		 size_t len)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	bool stat_notify = ward_policy_restricts(p, WARD_OP_STAT);
	int rc = -ENOMEM, mfd = -1;

	if (ctx == NULL)
		goto out;
	/* Other ABIs (i386 int 0x80, x32) kill the process. */
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS)) < 0)
		goto out;
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0)) < 0)
		goto out;

	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		int nr = table[i].nr;
		uint32_t act;
		switch (table[i].family) {
		case FAM_STAT:
			if (!stat_notify)
				continue;
			act = SCMP_ACT_NOTIFY;
			break;
		case FAM_CRED:
			if (geteuid() != 0)
				continue; /* the agent can only move among its own ids */
			act = SCMP_ACT_NOTIFY;
			break;
		case FAM_ENOSYS:
			act = SCMP_ACT_ERRNO(ENOSYS);
			break;
		case FAM_EPERM:
			act = SCMP_ACT_ERRNO(EPERM);
			break;
		default:
			act = SCMP_ACT_NOTIFY;
		}
		/*
		 * open/openat with O_PATH: such an fd can be used for nothing but
		 * fstat and as a starting point for other calls, each of which is
		 * judged on its own.  When the policy allows stat everywhere there
		 * is nothing to decide, so they are not notified at all (ADDFD
		 * could not pass an O_PATH fd back anyway).  O_PATH makes the
		 * kernel ignore every other flag but O_DIRECTORY, O_NOFOLLOW and
		 * O_CLOEXEC, so no such call creates or truncates anything.
		 */
		int flags_arg = strcmp(table[i].name, "open") == 0	 ? 1
				: strcmp(table[i].name, "openat") == 0 ? 2
								       : -1;
		if (table[i].family == FAM_SOCKET) {
			if ((rc = socket_rules(ctx, nr)) < 0)
				goto out;
			continue;
		}
		if (strcmp(table[i].name, "sendto") == 0) {
			/* Only a sendto with an address has a destination to decide. */
			struct scmp_arg_cmp c = { 4, SCMP_CMP_NE, 0, 0 };
			if ((rc = seccomp_rule_add_array(ctx, act, nr, 1, &c)) < 0)
				goto out;
			continue;
		}
		if (table[i].family == FAM_PID &&
		    (strcmp(table[i].name, "fcntl") == 0 || strcmp(table[i].name, "ioctl") == 0)) {
			/*
			 * Only the commands that aim signals at a process are
			 * notified: setting a SIGIO owner, turning SIGIO on (on a
			 * terminal its foreground process group gets them), and
			 * choosing a terminal's foreground process group.
			 */
			bool fcntl_ = strcmp(table[i].name, "fcntl") == 0;
			unsigned long cmds[4] = { fcntl_ ? F_SETOWN : FIOSETOWN,
						  fcntl_ ? F_SETOWN_EX : SIOCSPGRP, FIOASYNC,
						  TIOCSPGRP };
			for (int k = 0; k < (fcntl_ ? 2 : 4); k++) {
				struct scmp_arg_cmp c = { 1, SCMP_CMP_MASKED_EQ, 0xffffffffu, cmds[k] };
				if ((rc = seccomp_rule_add_array(ctx, act, nr, 1, &c)) < 0)
					goto out;
			}
			if (!fcntl_) {
				/*
				 * btrfs's ioctls (type 0x94): a snapshot gives every
				 * file of a subvolume, denied ones too, a new name;
				 * TREE_SEARCH and SEND read file data raw.  The handler
				 * lets the generic reflink and dedupe commands through
				 * and refuses the rest.
				 */
				struct scmp_arg_cmp c = { 1, SCMP_CMP_MASKED_EQ, 0xff00, 0x9400 };
				if ((rc = seccomp_rule_add_array(ctx, act, nr, 1, &c)) < 0)
					goto out;
			}
			if (fcntl_) {
				struct scmp_arg_cmp c[2] = {
					{ 1, SCMP_CMP_MASKED_EQ, 0xffffffffu, F_SETFL },
					{ 2, SCMP_CMP_MASKED_EQ, O_ASYNC, O_ASYNC },
				};
				if ((rc = seccomp_rule_add_array(ctx, act, nr, 2, c)) < 0)
					goto out;
			}
			continue;
		}
		if (strcmp(table[i].name, "shmget") == 0 || strcmp(table[i].name, "msgget") == 0 ||
		    strcmp(table[i].name, "semget") == 0) {
			/*
			 * Only a get that may make an object (IPC_CREAT, or the
			 * key IPC_PRIVATE, which makes one without): ward makes it
			 * (ipc.c).  The kernel reads the key as an int; the flags
			 * are msgget's second argument, the others' third.
			 */
			unsigned fl = strcmp(table[i].name, "msgget") == 0 ? 1 : 2;
			struct scmp_arg_cmp c = { fl, SCMP_CMP_MASKED_EQ, IPC_CREAT, IPC_CREAT };
			struct scmp_arg_cmp k = { 0, SCMP_CMP_MASKED_EQ, 0xffffffffu, IPC_PRIVATE };
			if ((rc = seccomp_rule_add_array(ctx, act, nr, 1, &c)) < 0 ||
			    (rc = seccomp_rule_add_array(ctx, act, nr, 1, &k)) < 0)
				goto out;
			continue;
		}
		/*
		 * The core dump limit, which a session keeps at 0 (tracer.c): a new
		 * one is judged (pid.c), whoever it is for.  The kernel reads the
		 * resource as 32 bits.
		 */
		if (strcmp(table[i].name, "setrlimit") == 0) {
			struct scmp_arg_cmp c = { .arg = 0, .op = SCMP_CMP_MASKED_EQ,
						  .datum_a = 0xffffffffu, .datum_b = RLIMIT_CORE };
			if ((rc = seccomp_rule_add_array(ctx, act, nr, 1, &c)) < 0)
				goto out;
			continue;
		}
		if (strcmp(table[i].name, "prlimit64") == 0) {
			struct scmp_arg_cmp c[2] = {
				{ .arg = 1, .op = SCMP_CMP_MASKED_EQ, .datum_a = 0xffffffffu,
				  .datum_b = RLIMIT_CORE },
				{ .arg = 2, .op = SCMP_CMP_NE, .datum_a = 0, .datum_b = 0 },
			};
			if ((rc = seccomp_rule_add_array(ctx, act, nr, 2, c)) < 0)
				goto out;
			/* and by its target, below */
		}
		/*
		 * Calls aimed at a process by id: the caller itself (0) needs no
		 * decision; glibc's getrlimit, for one, is prlimit64(0, ...).
		 */
		static const char *const self_arg0[] = { "prlimit64", "sched_setaffinity",
							 "sched_setscheduler", "sched_setparam",
							 "sched_setattr", "migrate_pages", "move_pages",
							 NULL };
		bool by_arg0 = false;
		for (int k = 0; self_arg0[k] != NULL; k++)
			by_arg0 |= strcmp(table[i].name, self_arg0[k]) == 0;
		if (by_arg0) {
			/*
			 * Notify when any of the 64 bits is set: a value whose low 32
			 * bits (the pid_t the kernel uses) are 0 is the caller too, and
			 * the handler treats it so.
			 */
			struct scmp_arg_cmp c = { 0, SCMP_CMP_NE, 0, 0 };
			if ((rc = seccomp_rule_add_array(ctx, act, nr, 1, &c)) < 0)
				goto out;
			continue;
		}
		if (flags_arg >= 0 && !stat_notify) {
			struct scmp_arg_cmp no_path = { (unsigned)flags_arg, SCMP_CMP_MASKED_EQ,
							O_PATH, 0 };
			if ((rc = seccomp_rule_add_array(ctx, act, nr, 1, &no_path)) < 0)
				goto out;
			continue;
		}
		if ((rc = seccomp_rule_add(ctx, act, nr, 0)) < 0)
			goto out;
	}
	/*
	 * ioctl(fd, TIOCSTI/TIOCLINUX): the kernel looks at the low 32 bits of
	 * the request only, so compare those and ignore the high ones.
	 */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI))) < 0)
		goto out;
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX))) < 0)
		goto out;
	/*
	 * IP options and IPv6 routing headers: a source route sends the packet
	 * to its first hop, not to the address connect or sendto decided.
	 */
	static const int source_routes[][2] = {
		{ IPPROTO_IP, IP_OPTIONS },
		{ IPPROTO_IPV6, IPV6_RTHDR },
		{ IPPROTO_IPV6, IPV6_2292RTHDR },
		{ IPPROTO_IPV6, IPV6_2292PKTOPTIONS }, /* a routing header too, with Mobile IPv6 */
	};
	for (size_t k = 0; k < sizeof(source_routes) / sizeof(source_routes[0]); k++)
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(setsockopt), 2,
					   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu,
						   (scmp_datum_t)source_routes[k][0]),
					   SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffffu,
						   (scmp_datum_t)source_routes[k][1]))) < 0)
			goto out;
	/*
	 * ioctls that reach files or disks past their names, refused whatever
	 * the fd (a type and number are compared, not the argument's size):
	 * XFS's handle calls (open_by_handle_at by another door), SCSI and
	 * NVMe pass-through (raw reads of a disk), and /dev/userfaultfd's
	 * USERFAULTFD_IOC_NEW (userfaultfd is refused: it stretches races).
	 */
	static const uint32_t refused_ioctl[][2] = {
		{ 0xffff, ('X' << 8) | 104 }, /* XFS_IOC_PATH_TO_FSHANDLE */
		{ 0xffff, ('X' << 8) | 105 }, /* XFS_IOC_PATH_TO_HANDLE */
		{ 0xffff, ('X' << 8) | 106 }, /* XFS_IOC_FD_TO_HANDLE */
		{ 0xffff, ('X' << 8) | 107 }, /* XFS_IOC_OPEN_BY_HANDLE */
		{ 0xffff, ('X' << 8) | 108 }, /* XFS_IOC_READLINK_BY_HANDLE */
		{ 0xffff, ('X' << 8) | 122 }, /* XFS_IOC_ATTRLIST_BY_HANDLE */
		{ 0xffff, ('X' << 8) | 123 }, /* XFS_IOC_ATTRMULTI_BY_HANDLE */
		{ 0xffffffff, 0x2285 },	      /* SG_IO */
		{ 0xffff, ('N' << 8) | 0x41 }, /* NVME_IOCTL_ADMIN_CMD */
		{ 0xffff, ('N' << 8) | 0x42 }, /* NVME_IOCTL_SUBMIT_IO */
		{ 0xffff, ('N' << 8) | 0x43 }, /* NVME_IOCTL_IO_CMD */
		{ 0xffff, ('N' << 8) | 0x47 }, /* NVME_IOCTL_ADMIN64_CMD */
		{ 0xffff, ('N' << 8) | 0x48 }, /* NVME_IOCTL_IO64_CMD */
		{ 0xffff, ('N' << 8) | 0x49 }, /* NVME_IOCTL_IO64_CMD_VEC */
		{ 0xffffffff, 0xaa00 },	      /* USERFAULTFD_IOC_NEW */
		/*
		 * Terminals: hanging one up (TIOCVHANGUP, as vhangup does the
		 * caller's) sends SIGHUP to the shell whose terminal it is and
		 * ends its input; TIOCCONS takes the console's output; a line
		 * discipline of another kind (TIOCSETD) makes the terminal
		 * something else for whoever else uses it.
		 */
		/*
		 * Inode flags and attributes, which an fd opened for reading may
		 * set (its owner): immutable, append-only (root), no-atime, no-
		 * dump, project ids; encryption and verity, which change what the
		 * file is for good.  Path rules judge writes by the fd's name,
		 * which these never ask.  Masked to type and number: every size.
		 */
		{ 0xffff, 0x6602 }, /* FS_IOC_SETFLAGS, FS_IOC32_SETFLAGS */
		{ 0xffff, 0x7602 }, /* FS_IOC_SETVERSION, FS_IOC32_SETVERSION */
		{ 0xffff, 0x6604 }, /* EXT4_IOC_SETVERSION */
		{ 0xffff, 0x5820 }, /* FS_IOC_FSSETXATTR */
		{ 0xffff, 0x6613 }, /* FS_IOC_SET_ENCRYPTION_POLICY */
		{ 0xffff, 0x6685 }, /* FS_IOC_ENABLE_VERITY */
		{ 0xffff, 0x6611 }, /* EXT4_IOC_SWAP_BOOT */
		/* A frozen filesystem stops every writer on the host (root). */
		{ 0xffff, 0x5877 }, /* FIFREEZE */
		{ 0xffff, 0x5878 }, /* FITHAW */
		/*
		 * What changes a whole filesystem for everyone on it, from any
		 * fd of a file there (root): shutting it down (every later call
		 * on it fails, and the NOLOGFLUSH mode drops others' recent
		 * writes), growing or resizing it, its UUID (what fstab mounts
		 * by), XFS's reserved blocks and error injection.
		 */
		{ 0xffff, 0x587d }, /* FS_IOC_SHUTDOWN (ext4, XFS_IOC_GOINGDOWN, f2fs) */
		{ 0xffff, 0x586e }, /* XFS_IOC_FSGROWFSDATA */
		{ 0xffff, 0x586f }, /* XFS_IOC_FSGROWFSLOG */
		{ 0xffff, 0x5870 }, /* XFS_IOC_FSGROWFSRT */
		{ 0xffff, 0x5872 }, /* XFS_IOC_SET_RESBLKS */
		{ 0xffff, 0x5874 }, /* XFS_IOC_ERROR_INJECTION */
		{ 0xffff, 0x5875 }, /* XFS_IOC_ERROR_CLEARALL */
		{ 0xffff, 0x6607 }, /* EXT4_IOC_GROUP_EXTEND */
		{ 0xffff, 0x6608 }, /* EXT4_IOC_GROUP_ADD */
		{ 0xffff, 0x6610 }, /* EXT4_IOC_RESIZE_FS */
		{ 0xffff, 0x662c }, /* EXT4_IOC_SETFSUUID */
		{ 0xffffffff, 0x5437 }, /* TIOCVHANGUP */
		{ 0xffffffff, 0x541d }, /* TIOCCONS */
		{ 0xffffffff, 0x5423 }, /* TIOCSETD */
	};
	for (size_t k = 0; k < sizeof(refused_ioctl) / sizeof(refused_ioctl[0]); k++)
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
					   SCMP_A1(SCMP_CMP_MASKED_EQ, refused_ioctl[k][0],
						   refused_ioctl[k][1]))) < 0)
			goto out;
	/*
	 * TIOCSCTTY with a non-zero argument takes a terminal that is already
	 * another session's controlling terminal, ward's own (the user's
	 * shell's) for one, given CAP_SYS_ADMIN: refused to an agent that
	 * starts with it.  Without it the kernel refuses that itself, and 1
	 * is what util-linux's script passes for a fresh pty of its own.
	 */
	struct scmp_arg_cmp sctty[2] = {
		{ .arg = 1, .op = SCMP_CMP_MASKED_EQ, .datum_a = 0xffffffffu, .datum_b = 0x540e },
		{ .arg = 2, .op = SCMP_CMP_NE, .datum_a = 0, .datum_b = 0 },
	};
	if (ward_capable(CAP_SYS_ADMIN) &&
	    (rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 2, sctty)) < 0)
		goto out;
	/*
	 * Under a root ward the credential calls are notified (FAM_CRED);
	 * the bounding set and securebits may not shrink either (see cred.c).
	 */
	if (geteuid() == 0 &&
	    ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
				    SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, PR_CAPBSET_DROP))) < 0 ||
	     (rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
				    SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, PR_SET_SECUREBITS))) < 0))
		goto out;
	/*
	 * A process that makes itself non-dumpable (ssh-agent, gpg-agent do)
	 * can no longer have its memory read by a ward without
	 * CAP_SYS_PTRACE: each of its supervised calls would fail from then
	 * on.  It is told that the call failed, and stays one ward can serve.
	 * (SUID_DUMP_DISABLE is 0; the kernel compares all of the argument.)
	 */
	if (!ward_capable(CAP_SYS_PTRACE) &&
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 2,
				   SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, PR_SET_DUMPABLE),
				   (struct scmp_arg_cmp){ 1, SCMP_CMP_EQ, 0, 0 })) < 0)
		goto out;
	/*
	 * clone(CLONE_UNTRACED) would make a process the tracer never sees;
	 * clone with a CLONE_NEW* flag, a process in namespaces of its own,
	 * as unshare would (refused): ward's ids and paths would not be its.
	 * (CLONE_NEWTIME is clone3's and unshare's only: its bit is clone's
	 * exit signal.)
	 */
	static const unsigned long refused_clone[] = {
		CLONE_UNTRACED, CLONE_NEWNS,  CLONE_NEWCGROUP, CLONE_NEWUTS,
		CLONE_NEWIPC,	CLONE_NEWUSER, CLONE_NEWPID,	CLONE_NEWNET,
	};
	for (size_t k = 0; k < sizeof(refused_clone) / sizeof(refused_clone[0]); k++)
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
					   SCMP_A0(SCMP_CMP_MASKED_EQ, refused_clone[k],
						   refused_clone[k]))) < 0)
			goto out;
	/*
	 * A second listener would let the agent answer its own calls.  The
	 * kernel takes op as 32 bits: the high ones are not compared.
	 */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(seccomp), 2,
				   (struct scmp_arg_cmp){ 0, SCMP_CMP_MASKED_EQ, 0xffffffffu,
							  SECCOMP_SET_MODE_FILTER },
				   SCMP_A1(SCMP_CMP_MASKED_EQ, SECCOMP_FILTER_FLAG_NEW_LISTENER,
					   SECCOMP_FILTER_FLAG_NEW_LISTENER))) < 0)
		goto out;

	mfd = memfd_create("ward-filter", MFD_CLOEXEC);
	if (mfd < 0 || (rc = seccomp_export_bpf(ctx, mfd)) < 0) {
		rc = mfd < 0 ? -errno : rc;
		goto out;
	}
	struct stat st;
	if (fstat(mfd, &st) < 0 || st.st_size <= 0 || st.st_size % sizeof(struct sock_filter)) {
		rc = -EINVAL;
		goto out;
	}
	prog->len = (unsigned short)(st.st_size / sizeof(struct sock_filter));
	prog->filter = malloc((size_t)st.st_size);
	if (prog->filter == NULL) {
		rc = -ENOMEM;
		goto out;
	}
	if (pread(mfd, prog->filter, (size_t)st.st_size, 0) != st.st_size) {
		free(prog->filter);
		rc = -EIO;
		goto out;
	}
	rc = 0;
out:
	if (rc < 0 && why[0] == '\0')
		snprintf(why, len, "cannot build the seccomp filter: %s", strerror(-rc));
	if (mfd >= 0)
		close(mfd);
	seccomp_release(ctx);
	return rc;
}

/* In the child: load the filter and return the listener fd. */
int filter_install(struct sock_fprog *prog)
{
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER |
				    SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
			    prog);
}

