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

/* The notify column of a row (syscalls.h says what each kind means). */
enum notify_kind { NOTIFY_ALWAYS, NOTIFY_UNLESS_OPATH, NOTIFY_WHEN, NOTIFY_BY };

/* One WHEN: n comparisons, all of which must hold. */
struct clause {
	unsigned n;
	struct scmp_arg_cmp cmp[2];
};

struct notify {
	enum notify_kind kind;
	unsigned arg;		   /* UNLESS_OPATH: the flags argument */
	const struct clause *when; /* ANY_OF: ended by a clause of no comparison */
	int (*by)(scmp_filter_ctx ctx, int nr, uint32_t act);
};

struct row {
	const char *name;
	int nr;
	enum family family;
	struct notify notify;
};

static int socket_rules(scmp_filter_ctx ctx, int nr, uint32_t act);

#define ROW(name, family, handler, notify, continues) { #name, SYS_##name, family, notify },
#define NEWROW(nr, name, family) { #name, nr, family, ALWAYS },
static const struct row table[] = { WARD_SYSCALLS(ROW) WARD_NEW_SYSCALLS(NEWROW) };
#undef ROW
#undef NEWROW

struct sock_fprog ward_filter;
/* What ward_filter was built for (filter_build), for filter_notifies. */
static struct filter_opts built;

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
static int socket_rules(scmp_filter_ctx ctx, int nr, uint32_t act)
{
	const uint32_t m32 = 0xffffffffu;
	int rc;

	/* Families other than unix (1), inet (2), inet6 (10) and netlink (16). */
	for (int d = 3; d < 64; d++) {
		if (d == AF_INET6 || d == AF_NETLINK)
			continue;
		struct scmp_arg_cmp c = { 0, SCMP_CMP_MASKED_EQ, m32, (scmp_datum_t)d };
		if ((rc = seccomp_rule_add_array(ctx, act, nr, 1, &c)) < 0)
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
			if ((rc = seccomp_rule_add_array(ctx, act, nr, 2, c)) < 0)
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
		if ((rc = seccomp_rule_add_array(ctx, act, nr, 2, c)) < 0)
			return rc;
	}
	return 0;
}

/* What socket_rules hands ward, told from the arguments (filter_notifies). */
static bool socket_notified(const uint64_t args[6])
{
	uint32_t d = (uint32_t)args[0];

	if (d >= 3 && d < 64 && d != AF_INET6 && d != AF_NETLINK)
		return true;
	if (d != AF_INET && d != AF_INET6)
		return false;
	return (args[1] & 0xf) >= 3 || args[2] != 0;
}

/* The rules of one row, with action act. */
static int row_rules(scmp_filter_ctx ctx, const struct row *r, uint32_t act,
		     const struct filter_opts *o)
{
	bool stat_notify = o->stat;
	const struct notify *n = &r->notify;
	int rc;

	switch (n->kind) {
	case NOTIFY_UNLESS_OPATH:
		/*
		 * open/openat with O_PATH: such an fd can be used for nothing but
		 * fstat and as a starting point for other calls, each of which is
		 * judged on its own.  When the policy allows stat everywhere there
		 * is nothing to decide, so they are not notified at all (ADDFD
		 * could not pass an O_PATH fd back anyway).  O_PATH makes the
		 * kernel ignore every other flag but O_DIRECTORY, O_NOFOLLOW and
		 * O_CLOEXEC, so no such call creates or truncates anything.
		 */
		if (!stat_notify) {
			struct scmp_arg_cmp no_path = { n->arg, SCMP_CMP_MASKED_EQ, O_PATH, 0 };
			return seccomp_rule_add_array(ctx, act, r->nr, 1, &no_path);
		}
		return seccomp_rule_add(ctx, act, r->nr, 0);
	case NOTIFY_WHEN:
		/* libseccomp joins a syscall's rules with OR, each rule's comparisons with AND. */
		for (const struct clause *c = n->when; c->n > 0; c++) {
			/*
			 * tcsetpgrp on ward's pty: the kernel's own check is the
			 * whole judgment.  TIOCSPGRP works only on the caller's
			 * controlling terminal, which is that pty for every process
			 * of the session (the real terminal is ward's), and only for
			 * a group of the pty's session, which holds the session's
			 * processes only.  ward could not do it for the agent
			 * anyway: the pty is not ward's controlling terminal.
			 */
			if (o->own_pty && r->nr == SCMP_SYS(ioctl) && c->n == 1 &&
			    c->cmp[0].arg == 1 && c->cmp[0].datum_b == TIOCSPGRP)
				continue;
			if ((rc = seccomp_rule_add_array(ctx, act, r->nr, c->n, c->cmp)) < 0)
				return rc;
		}
		return 0;
	case NOTIFY_BY:
		return n->by(ctx, r->nr, act);
	default:
		return seccomp_rule_add(ctx, act, r->nr, 0);
	}
}

/* Call nr's bit in filter_opts.lacking; -1 for a call older than any asked about. */
static int lacking_bit(int nr)
{
	int bit = nr - FIRST_NEWER_CALL;
	return bit >= 0 && bit < 64 ? bit : -1;
}

bool filter_lacks(const struct filter_opts *o, int nr)
{
	int bit = lacking_bit(nr);
	return bit >= 0 && (o->lacking >> bit) & 1;
}

/*
 * What the table's rows ask of the filter: each row's calls notified, or
 * refused, by its family; a call this kernel lacks is ENOSYS, as natively
 * (before ward's refusal, or its emulation of a call the kernel has not).
 */
static int table_rules(scmp_filter_ctx ctx, const struct filter_opts *o)
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		uint32_t act = o->degraded ? SCMP_ACT_TRACE(0) : SCMP_ACT_NOTIFY;
		if (filter_lacks(o, table[i].nr)) {
			/* The kernel's own ENOSYS, before anything ward would decide or refuse. */
			int rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), table[i].nr, 0);
			if (rc < 0)
				return rc;
			continue;
		}
		switch (table[i].family) {
		case FAM_STAT:
			if (!o->stat)
				continue; /* nothing to decide: the policy allows stat everywhere */
			break;
		case FAM_CRED:
			if (!o->root)
				continue; /* the agent can only move among its own ids */
			break;
		case FAM_ENOSYS:
			act = SCMP_ACT_ERRNO(ENOSYS);
			break;
		case FAM_EPERM:
			act = SCMP_ACT_ERRNO(EPERM);
			break;
		default:
			break;
		}
		int rc = row_rules(ctx, &table[i], act, o);
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* What reaches another terminal's input: TIOCSTI and TIOCLINUX. */
static int refuse_tty_input(scmp_filter_ctx ctx)
{
	int rc;

	/*
	 * ioctl(fd, TIOCSTI/TIOCLINUX): the kernel looks at the low 32 bits of
	 * the request only, so compare those and ignore the high ones.
	 */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSTI))) < 0)
		return rc;
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCLINUX))) < 0)
		return rc;
	return 0;
}

/* Source routes, which send a packet elsewhere than the address decided. */
static int refuse_source_routes(scmp_filter_ctx ctx)
{
	int rc;

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
			return rc;
	return 0;
}

/* ioctls that reach files, disks, filesystems or terminals past their names. */
static int refuse_ioctls(scmp_filter_ctx ctx, const struct filter_opts *o)
{
	int rc;

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
			return rc;
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
	if (o->sys_admin &&
	    (rc = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 2, sctty)) < 0)
		return rc;
	return 0;
}

/* What an agent with privileges could change about them, or make of ward's reach. */
static int refuse_privilege_changes(scmp_filter_ctx ctx, const struct filter_opts *o)
{
	int rc;

	/*
	 * Under a root ward the credential calls are notified (FAM_CRED);
	 * the bounding set and securebits may not shrink either (see cred.c).
	 */
	if (o->root &&
	    ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
				    SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, PR_CAPBSET_DROP))) < 0 ||
	     (rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 1,
				    SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, PR_SET_SECUREBITS))) < 0))
		return rc;
	/*
	 * A process that makes itself non-dumpable (ssh-agent, gpg-agent do)
	 * can no longer have its memory read by a ward without
	 * CAP_SYS_PTRACE: each of its supervised calls would fail from then
	 * on.  It is told that the call failed, and stays one ward can serve.
	 * (SUID_DUMP_DISABLE is 0; the kernel compares all of the argument.)
	 */
	if (!o->sys_ptrace &&
	    (rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(prctl), 2,
				   SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, PR_SET_DUMPABLE),
				   (struct scmp_arg_cmp){ 1, SCMP_CMP_EQ, 0, 0 })) < 0)
		return rc;
	return 0;
}

/* A process the tracer would not see, or a second listener. */
static int refuse_escapes(scmp_filter_ctx ctx)
{
	int rc;

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
			return rc;
	/*
	 * A second listener would let the agent answer its own calls.  The
	 * kernel takes op as 32 bits: the high ones are not compared.
	 */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(seccomp), 2,
				   (struct scmp_arg_cmp){ 0, SCMP_CMP_MASKED_EQ, 0xffffffffu,
							  SECCOMP_SET_MODE_FILTER },
				   SCMP_A1(SCMP_CMP_MASKED_EQ, SECCOMP_FILTER_FLAG_NEW_LISTENER,
					   SECCOMP_FILTER_FLAG_NEW_LISTENER))) < 0)
		return rc;
	return 0;
}

/*
 * --degraded: what could unmap, move, reprotect, drop or replace ward's
 * page in the agent stops for the tracer, which refuses it when it touches
 * the page (degraded.c: the filter cannot compare a range; process_madvise's
 * ranges are in memory, so only its harmless advice goes); userfaultfd, which
 * could stall ward's own write to the page, is refused.
 */
static int degraded_rules(scmp_filter_ctx ctx)
{
	static const int ranged[] = { SCMP_SYS(munmap),	       SCMP_SYS(mremap),
				      SCMP_SYS(mprotect),      SCMP_SYS(pkey_mprotect),
				      SCMP_SYS(madvise),       SCMP_SYS(process_madvise) };
	int rc;

	for (size_t i = 0; i < sizeof(ranged) / sizeof(ranged[0]); i++)
		if ((rc = seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), ranged[i], 0)) < 0)
			return rc;
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_TRACE(0), SCMP_SYS(mmap), 1,
				   SCMP_A3(SCMP_CMP_MASKED_EQ, MAP_FIXED, MAP_FIXED))) < 0)
		return rc;
	/*
	 * A process sharing another's fd table (CLONE_FILES, not a thread)
	 * would outlive the kill of one whose open reached what ward did not
	 * decide on, with that fd (degraded.c): refused.
	 */
	if ((rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
				   SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_FILES | CLONE_THREAD,
					   CLONE_FILES))) < 0)
		return rc;
	return seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(userfaultfd), 0);
}

/*
 * The fixed lists: what is refused in the filter whatever the policy, on
 * arguments of calls the table does not supervise, in this order.
 */
static int fixed_rules(scmp_filter_ctx ctx, const struct filter_opts *o)
{
	int rc;

	if (o->degraded && (rc = degraded_rules(ctx)) < 0)
		return rc;

	if ((rc = refuse_tty_input(ctx)) < 0 ||
	    (rc = refuse_source_routes(ctx)) < 0 ||
	    (rc = refuse_ioctls(ctx, o)) < 0 ||
	    (rc = refuse_privilege_changes(ctx, o)) < 0)
		return rc;
	return refuse_escapes(ctx);
}

static bool own_pty, own_degraded;

void filter_set_own_pty(bool on)
{
	own_pty = on;
}

void filter_set_degraded(bool on)
{
	own_degraded = on;
}

/* The calls of the table this kernel lacks (the rows it answers ENOSYS already need no asking). */
static uint64_t lacking_calls(void)
{
	static uint64_t lacking;
	static bool asked;

	if (asked)
		return lacking;
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		int bit = lacking_bit(table[i].nr);
		if (bit >= 0 && table[i].family != FAM_ENOSYS && kernel_lacks(table[i].nr))
			lacking |= 1ull << bit;
	}
	asked = true;
	return lacking;
}

struct filter_opts filter_opts_of(const struct ward_policy *p)
{
	return (struct filter_opts){
		.stat = ward_policy_restricts(p, WARD_OP_STAT),
		.root = geteuid() == 0,
		.sys_admin = ward_capable(CAP_SYS_ADMIN),
		.sys_ptrace = ward_capable(CAP_SYS_PTRACE),
		.own_pty = own_pty,
		.degraded = own_degraded,
		.lacking = lacking_calls(),
	};
}

int filter_export(const struct filter_opts *o, enum filter_form form, int fd)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	int rc;

	if (ctx == NULL)
		return -ENOMEM;
	/* Other ABIs (i386 int 0x80, x32) kill the process. */
	if ((rc = seccomp_attr_set(ctx, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_KILL_PROCESS)) == 0 &&
	    (rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_NNP, 0)) == 0 &&
	    (rc = table_rules(ctx, o)) == 0 && (rc = fixed_rules(ctx, o)) == 0)
		rc = form == FILTER_PFC ? seccomp_export_pfc(ctx, fd) : seccomp_export_bpf(ctx, fd);
	seccomp_release(ctx);
	return rc;
}

/* One comparison of a WHEN, as the filter makes it on the 64-bit argument. */
static bool cmp_holds(const struct scmp_arg_cmp *c, const uint64_t args[6])
{
	uint64_t a = args[c->arg];

	switch (c->op) {
	case SCMP_CMP_MASKED_EQ:
		return (a & c->datum_a) == c->datum_b;
	case SCMP_CMP_NE:
		return a != c->datum_a;
	default:
		return false; /* the table uses no other */
	}
}

bool filter_notifies(int nr, const uint64_t args[6])
{
	return filter_notifies_with(&built, nr, args);
}

bool filter_notifies_with(const struct filter_opts *o, int nr, const uint64_t args[6])
{
	for (size_t i = 0; i < sizeof(table) / sizeof(table[0]); i++) {
		const struct row *r = &table[i];
		if (r->nr != nr)
			continue;
		if ((r->family == FAM_STAT && !o->stat) || (r->family == FAM_CRED && !o->root) ||
		    r->family == FAM_ENOSYS || r->family == FAM_EPERM || filter_lacks(o, nr))
			return false;
		switch (r->notify.kind) {
		case NOTIFY_UNLESS_OPATH:
			return o->stat || !(args[r->notify.arg] & O_PATH);
		case NOTIFY_WHEN:
			for (const struct clause *c = r->notify.when; c->n > 0; c++) {
				bool all = true;
				for (unsigned k = 0; k < c->n && all; k++)
					all = cmp_holds(&c->cmp[k], args);
				if (all)
					return true;
			}
			return false;
		case NOTIFY_BY:
			return socket_notified(args);
		default:
			return true;
		}
	}
	return false;
}

int filter_build(const struct ward_policy *p, struct sock_fprog *prog, char *why,
		 size_t len)
{
	struct filter_opts o = filter_opts_of(p);
	int rc, mfd = memfd_create("ward-filter", MFD_CLOEXEC);
	struct stat st;

	if (mfd < 0) {
		rc = -errno;
		goto out;
	}
	if ((rc = filter_export(&o, FILTER_BPF, mfd)) < 0)
		goto out;
	built = o;
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
	return rc;
}

/*
 * In the child: load the filter and return the listener fd.  Without
 * wait_killable (before 5.19, or masked) a signal may end a notification
 * that ward has received: restart.c answers the restarted call.
 */
int filter_install(struct sock_fprog *prog, bool wait_killable, bool degraded)
{
	if (degraded)
		return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, prog);
	return (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
			    SECCOMP_FILTER_FLAG_NEW_LISTENER |
				    (wait_killable ? SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV : 0),
			    prog);
}

