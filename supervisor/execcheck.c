/*
 * execcheck.c - exec verification (DESIGN.md invariant 4).  exec cannot
 * be emulated: the exec handler (handlers/exec.c) decides and records what
 * it allowed as a grant, which this file helps fill (argv's MAC, the ids
 * the tracer will see in maps), and the tracer checks at
 * PTRACE_EVENT_EXEC that the process runs the file that was allowed, with
 * the argv that was read (exec_verify); it kills the process otherwise.
 */
#include "execcheck.h"
#include "proc.h"
#include "procfs.h"
#include "session.h"
#include "sniff.h"

#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <nettle/hmac.h>
#include <nettle/sha2.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/uio.h>
#include <sys/user.h>
#include <unistd.h>

void argv_mac(const void *data, size_t len, uint8_t out[32])
{
	struct hmac_sha256_ctx ctx;

	hmac_sha256_set_key(&ctx, sizeof(S->exec_key), S->exec_key);
	hmac_sha256_update(&ctx, len, data);
	hmac_sha256_digest(&ctx, 32, out);
}

/*
 * How /proc/PID/maps names the files of a filesystem, by st_dev: maps
 * shows the superblock's device, which is not always what stat says (a
 * btrfs subvolume has a device of its own), with the inode stat shows.
 * Learnt once a filesystem, by mapping one of its files here and reading
 * ward's own maps.  Where the inode differs too, and always on overlayfs
 * (before Linux 6.8 maps shows the file of whichever layer holds it),
 * each file is mapped to learn its ids.
 */
#define MAP_DEVS 64
static struct {
	dev_t st_dev, map_dev;
	bool per_file;
} map_devs[MAP_DEVS];
static int n_map_devs;
static pthread_mutex_t map_devs_lock = PTHREAD_MUTEX_INITIALIZER;

/* The ids a mapping of fd shows in ward's own maps. */
static int mapped_ids(int fd, dev_t *dev, ino_t *ino)
{
	int rd = sniff_open(fd), rc = -EACCES;
	void *p = rd < 0 ? MAP_FAILED : mmap(NULL, 1, PROT_READ, MAP_PRIVATE, rd, 0);

	if (rd >= 0)
		close(rd);
	if (p != MAP_FAILED) {
		struct maps_hit hit = { .addr = (uintptr_t)p };
		rc = proc_maps_find(0, &hit, 1);
		if (rc == 0 && !hit.found)
			rc = -ENOENT;
		*dev = hit.dev;
		*ino = hit.ino;
		munmap(p, 1);
	}
	return rc;
}

/*
 * The ids of the file behind fd as the tracer will find them in
 * /proc/PID/maps: fstat's (run_dev, run_ino) and the maps view of them
 * (run_map_dev, run_map_ino).  Left at fstat's when that cannot be
 * learnt: the exec is then killed, not let through.
 */
int exec_run_ids(int fd, struct exec_grant *g)
{
	struct stat st;
	struct statfs sf;
	dev_t dev;
	ino_t ino;
	int i, found = -1;

	if (fstat(fd, &st) < 0 || fstatfs(fd, &sf) < 0)
		return -errno;
	g->run_dev = g->run_map_dev = st.st_dev;
	g->run_ino = g->run_map_ino = st.st_ino;
	pthread_mutex_lock(&map_devs_lock);
	for (i = 0; i < n_map_devs; i++)
		if (map_devs[i].st_dev == st.st_dev)
			found = i;
	if (found >= 0 && !map_devs[found].per_file) {
		g->run_map_dev = map_devs[found].map_dev;
		pthread_mutex_unlock(&map_devs_lock);
		return 0;
	}
	pthread_mutex_unlock(&map_devs_lock);
	if (mapped_ids(fd, &dev, &ino) < 0)
		return 0;
	g->run_map_dev = dev;
	g->run_map_ino = ino;
	if (found >= 0)
		return 0; /* a filesystem learnt per file */
	pthread_mutex_lock(&map_devs_lock);
	for (i = 0; i < n_map_devs && map_devs[i].st_dev != st.st_dev; i++)
		;
	if (i == n_map_devs && n_map_devs < MAP_DEVS) {
		map_devs[i].st_dev = st.st_dev;
		map_devs[i].map_dev = dev;
		map_devs[i].per_file = ino != st.st_ino || sf.f_type == OVERLAYFS_SUPER_MAGIC;
		n_map_devs++;
	}
	pthread_mutex_unlock(&map_devs_lock);
	return 0;
}

/*
 * What the exec checks read of a process, each relative to dir, its
 * /proc/PID opened once: a lookup of /proc/PID for each file cost more
 * than reading the file.  The process is stopped at its exec event and
 * not yet reaped, so dir is that process's, whatever happens to others.
 */

/* argv of a process as one blob of NUL-terminated strings. */
static ssize_t read_cmdline(int dir, char *buf, size_t len)
{
	ssize_t n = 0, got = 0;
	int fd = openat(dir, "cmdline", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((size_t)got < len && (n = read(fd, buf + got, len - (size_t)got)) > 0)
		got += n;
	close(fd);
	return n < 0 ? -1 : got;
}

/* AT_ENTRY and AT_PHDR of a process that has just exec'd (0 when absent). */
static bool read_auxv(int dir, uint64_t *entry, uint64_t *phdr)
{
	uint64_t av[2 * 64];
	ssize_t n;
	int fd = openat(dir, "auxv", O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, av, sizeof(av));
	close(fd);
	if (n <= 0)
		return false;
	*entry = *phdr = 0;
	for (size_t i = 0; i + 1 < (size_t)n / 8; i += 2) {
		if (av[i] == AT_ENTRY)
			*entry = av[i + 1];
		else if (av[i] == AT_PHDR)
			*phdr = av[i + 1];
	}
	return true;
}

/*
 * The first bytes of the file mapped at m (its offset 0) in pid's memory,
 * against the SHA-256 of the interpreter's, taken when it was judged.
 */
static bool head_matches(pid_t pid, const struct maps_hit *m, const struct exec_grant *g)
{
	static char buf[4096];
	struct iovec local = { buf, g->run_head_len }, remote = { (void *)(uintptr_t)m->start, g->run_head_len };
	struct sha256_ctx ctx;
	uint8_t sha[32];

	if (!m->found || g->run_head_len > sizeof(buf) || m->end - m->start < g->run_head_len ||
	    process_vm_readv(pid, &local, 1, &remote, 1, 0) != (ssize_t)g->run_head_len)
		return false;
	sha256_init(&ctx);
	sha256_update(&ctx, g->run_head_len, (const uint8_t *)buf);
	sha256_digest(&ctx, sizeof(sha), sha);
	return memcmp(sha, g->run_head_sha, sizeof(sha)) == 0;
}

/* runs_judged's look at the mappings, through maps, pid's. */
static bool maps_judged(pid_t pid, int maps, struct maps_hit *h, int n, const struct exec_grant *g)
{
	if (proc_maps_find_fd(maps, h, n) < 0 || !h[0].found ||
	    !((h[0].dev == g->run_dev && h[0].ino == g->run_ino) ||
	      (h[0].dev == g->run_map_dev && h[0].ino == g->run_map_ino)))
		return false;
	/*
	 * The same file: by id in maps, and by name as well only where maps
	 * ids are not the file's own (on btrfs two files, in two subvolumes,
	 * can share one).  Elsewhere a name is no help: hard links give one
	 * file two.
	 */
	bool ids_unique = g->run_map_dev == g->run_dev;
	for (int i = 1; i < n; i++)
		if (h[i].found && h[i].dev == h[0].dev && h[i].ino == h[0].ino &&
		    (ids_unique || h[i].name == h[0].name))
			return false;
	if (!g->run_hashed)
		return true;
	/* Where the interpreter's first bytes lie, to be compared with what was judged. */
	struct maps_hit f = { .by_file = true, .dev = h[0].dev, .ino = h[0].ino, .name = h[0].name };
	return proc_maps_find_fd(maps, &f, 1) == 0 && head_matches(pid, &f, g);
}

/*
 * The first instruction must be in the file judged to run first: the
 * program's ELF interpreter, whose name the agent could have turned to
 * another file since, or the program.  With an interpreter, the
 * program's entry and program headers (AT_ENTRY, AT_PHDR) must not lie in
 * the interpreter's file: ld.so takes an AT_ENTRY equal to its own entry
 * (musl's, an AT_PHDR equal to its own) for being run as a command, and
 * then loads the program its argv names, with no exec to judge.
 */
static bool runs_judged(pid_t pid, int dir, const struct exec_grant *g)
{
	struct user_regs_struct regs;
	struct maps_hit h[3] = { 0 };
	int n = 1;

	if (ptrace(PTRACE_GETREGS, pid, 0, &regs) < 0)
		return false;
	h[0].addr = regs.rip;
	if (g->interp) {
		if (!read_auxv(dir, &h[1].addr, &h[2].addr))
			return false;
		n = 3;
	}
	int maps = openat(dir, "maps", O_RDONLY | O_CLOEXEC);
	bool ok = maps >= 0 && maps_judged(pid, maps, h, n, g);
	if (maps >= 0)
		close(maps);
	return ok;
}

/* exec_verify's checks, dir being the process's /proc/PID. */
static bool exec_checks(pid_t pid, int dir, struct exec_grant *g, char *exe, size_t exelen,
			char *cmd, size_t cmdsize, ssize_t *cmdlen)
{
	struct stat st;
	ssize_t n;

	if (fstatat(dir, "exe", &st, 0) < 0 || st.st_dev != g->dev || st.st_ino != g->ino ||
	    st.st_ctim.tv_sec != g->ctime.tv_sec || st.st_ctim.tv_nsec != g->ctime.tv_nsec ||
	    st.st_size != g->size)
		return false; /* another file, or this one changed since it was judged */
	/*
	 * The first instruction must be in the file judged to run first: the
	 * program's ELF interpreter, whose name the agent could have turned to
	 * another file since, or the program.
	 */
	if (!runs_judged(pid, dir, g))
		return false;
	n = readlinkat(dir, "exe", exe, exelen - 1);
	exe[n > 0 ? n : 0] = '\0';
	n = *cmdlen = read_cmdline(dir, cmd, cmdsize - 1);
	if (n < 0 || (size_t)n == cmdsize - 1)
		return false;
	cmd[n] = '\0';
	/*
	 * An empty argv: since Linux 5.18 (and in the stable kernels that
	 * took the change) it runs as { "" }, which is what was judged;
	 * before, as it is, with no string at all.  The same argv.
	 */
	if (n == 0 && g->argc == 0)
		n = 1;
	if (!g->script) {
		uint8_t mac[32];
		argv_mac(cmd, (size_t)n, mac);
		return (size_t)n == g->argv_len && memcmp(mac, g->argv_mac, 32) == 0;
	}
	/* "#!" scripts: the kernel put the interpreter first; the tail is argv[1..]. */
	int k = g->argc > 0 ? g->argc - 1 : 0;
	ssize_t at = n;
	for (int i = 0; i < k; i++) {
		if (at <= 0)
			return false;
		at--; /* this string's NUL */
		while (at > 0 && cmd[at - 1] != '\0')
			at--;
	}
	uint8_t mac[32];
	argv_mac(cmd + at, (size_t)(n - at), mac);
	if (memcmp(mac, g->tail_mac, 32) != 0)
		return false;
	/* Before the tail: the script's file name, as it was decided on. */
	if (at <= 0)
		return false;
	ssize_t name = at - 1;
	while (name > 0 && cmd[name - 1] != '\0')
		name--;
	argv_mac(cmd + name, (size_t)(at - name), mac);
	return memcmp(mac, g->name_mac, 32) == 0;
}

bool exec_verify(pid_t pid, pid_t former, struct exec_grant *g, char *exe, size_t exelen,
			char *cmd, size_t cmdsize, ssize_t *cmdlen)
{
	char link[64];

	if (!proc_take_grant(former, g))
		return false;
	snprintf(link, sizeof(link), "/proc/%d", pid);
	int dir = open(link, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return false;
	bool ok = exec_checks(pid, dir, g, exe, exelen, cmd, cmdsize, cmdlen);
	close(dir);
	return ok;
}
