/*
 * doctor.c - ward doctor: what this host's kernel gives ward, in plain
 * words, and ward --version's line of kernel features.
 *
 * One table, one row a feature: its name, the kernel that has it, whether
 * ward needs it, what it gives (or what its absence means), and the probe
 * that tells.  A new feature is a row.
 */
#include "cli.h"
#include "features.h"
#include "netstate.h"

#include <errno.h>
#include <sched.h>
#include <stddef.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef SYS_landlock_create_ruleset
#define SYS_landlock_create_ruleset 444
#endif
#ifndef LANDLOCK_CREATE_RULESET_VERSION
#define LANDLOCK_CREATE_RULESET_VERSION (1U << 0)
#endif

/* What the probes found, shared by the rows. */
struct host {
	struct features f;
	char why[256];	/* features_detect's reason, when it refused */
	int ptrace_err; /* 0: PTRACE_SEIZE of a child worked */
	int yama;	/* ptrace_scope, -1 when there is no Yama */
	int landlock;	/* the ABI, or -errno */
	int userns_err; /* 0: unshare(CLONE_NEWUSER) worked in a child */
	int diag_err;	/* 0: sock_diag answered for TCP, UDP and unix sockets */
};

/* A row's verdict: 1 there, 0 missing; detail (may be "") says more. */
typedef int probe_fn(const struct host *h, char *detail, size_t len);

static int p_ptrace(const struct host *h, char *d, size_t len)
{
	if (h->yama >= 0)
		snprintf(d, len, "Yama ptrace_scope %d", h->yama);
	if (h->ptrace_err != 0)
		snprintf(d + strlen(d), len - strlen(d), "%s%s", *d ? "; " : "",
			 strerror(h->ptrace_err));
	return h->ptrace_err == 0;
}

static int p_landlock(const struct host *h, char *d, size_t len)
{
	if (h->landlock > 0)
		snprintf(d, len, "ABI %d", h->landlock);
	else
		snprintf(d, len, "%s", h->landlock == -EOPNOTSUPP ? "built but turned off at boot"
								  : "not in this kernel");
	return h->landlock > 0;
}

static int p_diag(const struct host *h, char *d, size_t len)
{
	if (h->diag_err != 0)
		snprintf(d, len, "%s", strerror(h->diag_err));
	return h->diag_err == 0;
}

static int p_userns(const struct host *h, char *d, size_t len)
{
	if (h->userns_err != 0)
		snprintf(d, len, "%s", strerror(h->userns_err));
	return h->userns_err == 0;
}

enum need { REQUIRED, USED, COMPARE };

/* A feature features_detect found: the flag's place in struct host. */
#define FLAG(field) offsetof(struct host, f.field), NULL

static const struct row {
	const char *name, *kernel;
	enum need need;
	size_t flag;	 /* with no probe: a bool of struct host */
	probe_fn *probe; /* else: this says */
	const char *there, *missing;
	const char *mask; /* the name WARD_KERNEL_FEATURES masks it by, if it may */
} rows[] = {
	{ "seccomp user notification", "5.0", REQUIRED, FLAG(user_notif),
	  "ward is asked about each supervised call of the agent and answers it",
	  "ward cannot supervise here by notification: on an older kernel --degraded enforces "
	  "by ptrace (docs/degraded.md); under another listener (ward inside ward, a container's "
	  "runtime) not even that",
	  "user_notif" },
	{ "SECCOMP_IOCTL_NOTIF_ADDFD", "5.9", REQUIRED, FLAG(addfd),
	  "ward opens a file for the agent and puts it in the agent's fd table",
	  "ward needs Linux 5.9, or --degraded (enforcement by ptrace: docs/degraded.md)",
	  "addfd" },
	{ "SECCOMP_ADDFD_FLAG_SEND", "5.14", USED, FLAG(addfd_send),
	  "the fd and the answer reach the agent in one step",
	  "the same guarantees: ward installs the fd, then answers its number", "addfd_send" },
	{ "SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV", "5.19", USED, FLAG(wait_killable),
	  "a call ward has received waits for its answer through signals",
	  "the same guarantees: a call a signal restarts after ward received it is answered "
	  "with what ward did, not done twice",
	  "wait_killable_recv" },
	{ "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP", "6.6", USED, FLAG(sync_wake_up),
	  "answers reach the agent faster", "ward works, each supervised call a little slower",
	  "sync_wake_up" },
	{ "PIDFD_THREAD", "6.9", USED, FLAG(pidfd_thread),
	  "ward reaches a thread's own fds directly",
	  "the same guarantees: ward reaches them through the process, checking each (kcmp)",
	  "pidfd_thread" },
	{ "openat2", "5.6", REQUIRED, FLAG(openat2),
	  "ward opens paths without following a link the agent could swap in",
	  "ward needs Linux 5.6, or --degraded (ward walks each path a directory at a time; "
	  "the agent's own opens are made with its other threads stopped: docs/degraded.md)",
	  "openat2" },
	{ "pidfd_getfd", "5.6", REQUIRED, FLAG(pidfd_getfd),
	  "ward connects and binds the agent's own sockets to the address it checked",
	  "ward needs Linux 5.6, or --degraded (the agent's kernel sends ward its fds, "
	  "checked with kcmp: docs/degraded.md)",
	  "pidfd_getfd" },
	{ "statx STATX_MNT_ID", "5.8", USED, FLAG(statx_mnt_id),
	  "ward tells mounts apart (in its checks of /proc) from statx",
	  "the same guarantees: ward reads the mount ids and mount points from /proc",
	  "statx_mnt_id" },
	{ "fdinfo inode numbers", "5.14", USED, FLAG(fdinfo_ino),
	  "ward tells which file an fd of the agent's holds from /proc/PID/fdinfo",
	  "the same guarantees: ward reads the inode through the fd's link, with fdinfo "
	  "unchanged around it",
	  "fdinfo_ino" },
	{ "socket monitoring (sock_diag)", "", USED, 0, p_diag,
	  "ward tells the session's own servers (@session) and the ports in use",
	  "the session's own servers are not told from the host's: connections to them are "
	  "denied (load the modules inet_diag, tcp_diag, udp_diag and unix_diag)",
	  NULL },
	{ "ptrace", "", REQUIRED, 0, p_ptrace,
	  "ward follows the agent's process tree and checks each program it runs",
	  "ward cannot trace its own child here (Yama ptrace_scope 3, or a seccomp policy "
	  "around ward that refuses ptrace)", NULL },
	{ "Landlock", "5.13", COMPARE, 0, p_landlock,
	  "not used by ward: a sandbox that restricts only itself could stack on ward here",
	  "not used by ward", NULL },
	{ "user namespaces", "", COMPARE, 0, p_userns,
	  "not used by ward: bubblewrap, firejail and rootless containers would work here too",
	  "not used by ward: bubblewrap, firejail and rootless containers do not work here; "
	  "ward does", NULL },
};

/* A child that waits to be traced: PTRACE_SEIZE of it says whether ward could. */
static int probe_ptrace(void)
{
	pid_t pid = fork();
	int err = 0;

	if (pid < 0)
		return errno;
	if (pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pause();
		_exit(0);
	}
	if (ptrace(PTRACE_SEIZE, pid, 0, PTRACE_O_EXITKILL) < 0)
		err = errno;
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return err;
}

static int probe_userns(void)
{
	int st;
	pid_t pid = fork();

	if (pid < 0)
		return errno;
	if (pid == 0)
		_exit(unshare(CLONE_NEWUSER) == 0 ? 0 : errno);
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return EIO;
	return WEXITSTATUS(st);
}

/* Whether WARD_KERNEL_FEATURES masked row r's feature (h->f.masked: "a,b"). */
static bool row_masked(const struct row *r, const struct host *h)
{
	size_t n = r->mask != NULL ? strlen(r->mask) : 0;

	for (const char *m = h->f.masked; n > 0 && (m = strstr(m, r->mask)) != NULL; m++)
		if ((m == h->f.masked || m[-1] == ',') && (m[n] == ',' || m[n] == '\0'))
			return true;
	return false;
}

/* Whether row r's feature is there; detail (may be left "") says more. */
static int row_ok(const struct row *r, const struct host *h, char *detail, size_t len)
{
	if (r->probe != NULL)
		return r->probe(h, detail, len);
	if (row_masked(r, h))
		snprintf(detail, len, "masked by WARD_KERNEL_FEATURES");
	return *(const bool *)((const char *)h + r->flag);
}

static void probe_host(struct host *h)
{
	FILE *f;

	memset(h, 0, sizeof(*h));
	features_detect(&h->f, h->why, sizeof(h->why));
	h->ptrace_err = probe_ptrace();
	h->yama = -1;
	if ((f = fopen("/proc/sys/kernel/yama/ptrace_scope", "re")) != NULL) {
		if (fscanf(f, "%d", &h->yama) != 1)
			h->yama = -1;
		fclose(f);
	}
	long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	h->landlock = abi > 0 ? (int)abi : -errno;
	h->userns_err = probe_userns();
	h->diag_err = -net_diag_probe();
}

int features_line(char *out, size_t len)
{
	struct host h;
	int o;

	probe_host(&h);
	o = snprintf(out, len, "Linux %s:", h.f.kernel);
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]) && o >= 0 && (size_t)o < len; i++) {
		char d[128] = "";
		int ok = row_ok(&rows[i], &h, d, sizeof(d));
		o += snprintf(out + o, len - (size_t)o, "%s %s%s%s", i ? "," : "", ok ? "" : "no ",
			      rows[i].name, row_masked(&rows[i], &h) ? " (masked)" : "");
		if (rows[i].probe == p_landlock && ok && (size_t)o < len)
			o += snprintf(out + o, len - (size_t)o, " %s", d);
	}
	return 0;
}

static const char help[] =
	"usage: ward doctor\n"
	"\n"
	"Say what this host's kernel gives ward, and whether ward can run here: seccomp\n"
	"user notification and each of its flags (WARD_KERNEL_FEATURES=-NAME,... masks\n"
	"them, as on an older kernel), ptrace, pidfd_getfd, and, for\n"
	"comparison, Landlock and user namespaces (which bubblewrap and containers\n"
	"need).  The first thing to run on a new host.  Exit 0 when ward can run, 1\n"
	"when it cannot.\n"
	"\n"
	"example:\n"
	"  ward doctor\n";

int cmd_doctor(int argc, char **argv)
{
	struct host h;
	bool can = true;

	(void)argv;
	if (argc > 1) {
		if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
			fputs(help, stdout);
			return 0;
		}
		fputs(help, stderr);
		return WARD_EXIT_USAGE;
	}
	probe_host(&h);
	printf("ward %s on Linux %s, as uid %d\n\n", WARD_VERSION, h.f.kernel, (int)getuid());
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		const struct row *r = &rows[i];
		char d[160] = "", name[96];
		int ok = row_ok(r, &h, d, sizeof(d));
		if (!ok && r->need == REQUIRED)
			can = false;
		snprintf(name, sizeof(name), "%s%s%s%s", r->name, r->kernel[0] ? " (" : "",
			 r->kernel[0] ? r->kernel : "", r->kernel[0] ? ")" : "");
		printf("  %-7s %s%s%s%s\n", ok ? "yes" : r->need == REQUIRED ? "MISSING" : "no", name,
		       d[0] ? ": " : "", d, "");
		printf("          %s\n", ok ? r->there : r->missing);
	}
	putchar('\n');
	if (can)
		printf("ward can run here.\n");
	else if (h.ptrace_err == 0 &&
		 (!h.f.user_notif || !h.f.addfd || !h.f.openat2 || !h.f.pidfd_getfd))
		/* Only notification is missing, or another listener holds it: ptrace still serves. */
		printf("ward can run here with --degraded (enforcement by ptrace, with the limits "
		       "docs/degraded.md lists).\n");
	else
		printf("ward cannot run here%s%s.\n", h.why[0] ? ": " : "", h.why);
	return can ? 0 : 1;
}
