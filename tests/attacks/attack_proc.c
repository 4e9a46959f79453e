/*
 * attack_proc MODE - reach the secret, or another process, through /proc.
 *
 *   self    /proc/self/fd/N (N an O_PATH fd of the secret), /dev/fd/N,
 *           /proc/thread-self, /proc/PID/task/TID, /proc/self/root/...,
 *           /proc/self/cwd/..., /proc/self/fd/DIRFD/../secret/x, and a
 *           child going through /proc/PARENT/fd/N.
 *   ward    /proc/PPID/... of ward itself: environ, mem, cmdline, fd/N,
 *           cwd/secret/x, root/..., task/TID/mem; directly, and after
 *           chdir("/proc/PPID") (chdir is not supervised).
 *   init    /proc/1/...: environ, mem, fd/N, root/..., cwd.
 *   victim  a process outside the session ($VICTIM_PID, started by the
 *           driver with "victim-serve") holds the secret in a memfd, in a
 *           deleted file, in a pipe and in a System V shared memory
 *           segment; get at them through /proc/VICTIM/fd/N (directly,
 *           through an O_PATH dirfd and after chdir)
 *   ipc     the same victim's System V shared memory segment: shmat() by
 *           the id listed in /proc/sysvipc/shm (IPC outside the filesystem);
 *           its message queue (the secret in a message) and semaphore set
 *           (value 7), found by their key (VICTIM_KEY): the message read,
 *           one sent, the semaphore read, set, taken, the queue and the
 *           set removed
 *   links   symlinks in the project to /proc/self/{status,environ,mem},
 *           /proc/self/../PPID/environ, /proc/thread-self/status and
 *           /dev/fd/N: ward follows ordinary symlinks with the kernel's
 *           walk, in which /proc/self is ward; each must give the agent's
 *           own entry (or be refused), never ward's, and /dev/fd/N for an
 *           fd the agent does not have must fail even where ward has one.
 *   mount   a second procfs, mounted at ./proc2 by the driver (root, in a
 *           mount namespace of its own): ward's and pid 1's entries through
 *           it, by path, after chdir into PROC2/PID, and through an O_PATH
 *           dirfd of PROC2/PID; the agent's own entries there still open.
 *           Also the victim's /proc/VICTIM, /proc/VICTIM/task, fd/ and
 *           environ (the driver starts it) bound at ./pb, ./pt, ./pfd, ./penv.
 *   shmreuse  (root) a segment holding the secret whose creator, outside
 *           the session, has exited ($SHM_ID, its creator was $SHM_PID):
 *           a process of the session takes the creator's id (written to
 *           /proc/sys/kernel/ns_last_pid before a fork) and attaches it
 *
 *   ipcreuse  (root) the session makes a message queue and writes its id
 *           to ./ipc.made; the recycler (below) removes it from outside
 *           (ward.removed), the session waits 300 ms (ipc.waited), and the
 *           recycler makes a queue of its own with that very id
 *           (/proc/sys/kernel/msg_next_id) holding the secret (ipc.ready):
 *           the id, once the session's, must not reach it
 *
 *   shm-orphan FILE SECRETFILE  (run by the driver, not under ward): make
 *           that segment, write "ID PID" to FILE, and exit
 *   ipc-recycler DIR SECRETFILE  (run by the driver, not under ward): the
 *           other side of ipcreuse, through files in DIR
 *
 * DESIGN.md §3: "/proc/PID/... of any process outside the session" is
 * hard-denied (deny!), and ward "cannot ... read ward's state".  Any open
 * of a foreign /proc entry that succeeds is reported as a LEAK.
 *
 *   victim-serve SECRETFILE PIDFILE [hop]   (run by the driver, not under
 *           ward): writes "PID [FILE]" to PIDFILE, FILE with hop: a file of
 *           /usr whose inode number its memfd has (see hoprace)
 */
#include "attack.h"

#include <dirent.h>
#include <ftw.h>
#include <search.h>
#include <stdbool.h>
#include <limits.h>
#include <pthread.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>

static char cwd[PATH_MAX];

/*
 * Open a path that names something of another process.  Opening it at all
 * gets through the hard deny; a regular file is read (and a secret in it
 * reported), anything else (pipes, sockets of someone else) is not touched.
 */
static void try_foreign_at(const char *how, int dirfd, const char *path)
{
	int fd = openat(dirfd, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	struct stat st;

	if (fd < 0) {
		if (errno == ENOENT) {
			say("note: %s (%s): nothing there", how, path);
			return;
		}
		char what[600];
		snprintf(what, sizeof(what), "%s (%s)", how, path);
		refused(what, errno, EACCES); /* deny! on /proc of processes outside the session */
		return;
	}
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode)) {
		char buf[256];
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0 && is_secret(buf, (size_t)n)) {
			leak(how, buf, (size_t)n);
		} else {
			char what[600];
			snprintf(what, sizeof(what), "%s: opened %s of a process outside the session", how,
				 path);
			leak(what, n > 0 ? "(read some bytes)" : "(nothing read)", 15);
		}
	} else {
		char link[64], target[256] = "?";
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		char what[600];
		snprintf(what, sizeof(what), "%s: opened %s of a process outside the session", how, path);
		leak(what, target, strlen(target));
	}
	close(fd);
}

static void try_foreign(const char *how, const char *path)
{
	try_foreign_at(how, AT_FDCWD, path);
}

/* The usual foreign entries of pid, directly and after chdir into /proc/PID. */
static void foreign_process(const char *who, pid_t pid, bool regular_fds_only)
{
	char p[PATH_MAX + 64], how[128];
	const char *entries[] = { "environ", "mem", "cmdline", "maps", "auxv", "stat", NULL };

	for (int i = 0; entries[i]; i++) {
		/* What ps reads of every process (stat, status, comm): nothing of ward's. */
		if (strcmp(entries[i], "stat") == 0 && strcmp(who, "ward") != 0)
			continue;
		snprintf(p, sizeof(p), "/proc/%d/%s", pid, entries[i]);
		snprintf(how, sizeof(how), "%s %s", who, entries[i]);
		try_foreign(how, p);
	}
	for (int n = 0; n < 16; n++) {
		snprintf(p, sizeof(p), "/proc/%d/fd/%d", pid, n);
		snprintf(how, sizeof(how), "%s fd/%d", who, n);
		try_foreign(how, p);
	}
	snprintf(p, sizeof(p), "/proc/%d/cwd/%s", pid, PUBLIC);
	snprintf(how, sizeof(how), "%s cwd/public/x", who);
	try_foreign(how, p);
	snprintf(p, sizeof(p), "/proc/%d/root%s/%s", pid, cwd, SECRET);
	snprintf(how, sizeof(how), "%s root/.../secret/x", who);
	try_foreign(how, p);
	snprintf(p, sizeof(p), "/proc/%d/task/%d/environ", pid, pid);
	snprintf(how, sizeof(how), "%s task/%d/environ", who, pid);
	try_foreign(how, p);
	snprintf(p, sizeof(p), "/proc/./%d/../%d/environ", pid, pid);
	snprintf(how, sizeof(how), "%s via /proc/./PID/../PID", who);
	try_foreign(how, p);
	snprintf(p, sizeof(p), "/proc/self/../%d/environ", pid);
	snprintf(how, sizeof(how), "%s via /proc/self/../PID", who);
	try_foreign(how, p);
	snprintf(p, sizeof(p), "/proc/self/root/proc/%d/environ", pid);
	snprintf(how, sizeof(how), "%s via /proc/self/root/proc/PID", who);
	try_foreign(how, p);

	/*
	 * O_PATH opens may be left to the kernel, which opens another
	 * process's fd/N so: the agent's own O_PATH fd then holds the other
	 * process's pipe, memfd or deleted file, to be reopened through
	 * /proc/self/fd (or used with AT_EMPTY_PATH).
	 */
	for (int n = 0; n < 16; n++) {
		snprintf(p, sizeof(p), "/proc/%d/fd/%d", pid, n);
		int o = open(p, O_PATH | O_CLOEXEC);
		if (o < 0)
			continue;
		struct stat st;
		char self[64], target[PATH_MAX];
		snprintf(self, sizeof(self), "/proc/self/fd/%d", o);
		ssize_t tl = readlink(self, target, sizeof(target) - 1);
		target[tl > 0 ? tl : 0] = '\0';
		/*
		 * A file with a name (/dev/null, a directory) is judged by that
		 * name, as any open of it: only what has none is tried here.
		 */
		bool named = target[0] == '/' && strstr(target, " (deleted)") == NULL;
		if (named || (regular_fds_only && (fstat(o, &st) < 0 || !S_ISREG(st.st_mode)))) {
			close(o);
			continue;
		}
		snprintf(how, sizeof(how), "%s fd/%d (%.40s) by O_PATH, then %.20s", who, n, target, self);
		try_foreign(how, self);
		snprintf(how, sizeof(how), "%s fd/%d (%.60s) by O_PATH, then chmod through it", who, n,
			 target);
		/* Natively, pid 1's own files are left as they are: the reads show enough. */
		if (native_run() && pid == 1)
			;
		else if (fchmodat(AT_FDCWD, self, 0600, 0) == 0)
			leak(how, "changed", 7);
		else
			refused(how, errno, EACCES);
		close(o);
	}

	/* An O_PATH fd of /proc/PID (O_PATH opens may be left to the kernel) as a dirfd. */
	snprintf(p, sizeof(p), "/proc/%d", pid);
	int d = open(p, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d < 0) {
		refused("open(/proc/PID, O_PATH)", errno, EACCES);
	} else {
		const char *names[] = { "environ", "fd/3", "fd/4", "cwd/" PUBLIC, NULL };
		for (int i = 0; names[i]; i++) {
			snprintf(how, sizeof(how), "%s: openat(O_PATH fd of /proc/PID, ...)", who);
			if (regular_fds_only && strncmp(names[i], "fd/", 3) == 0) {
				struct stat st;
				if (fstatat(d, names[i], &st, 0) < 0 || !S_ISREG(st.st_mode))
					continue;
			}
			try_foreign_at(how, d, names[i]);
		}
		close(d);
	}

	/* chdir is not supervised: walk from a foreign /proc/PID as the cwd. */
	if (chdir(p) < 0) {
		missed("chdir(%s), which is not supervised: %s", p, strerror(errno));
		return;
	}
	for (int i = 0; entries[i]; i++) {
		snprintf(how, sizeof(how), "chdir(/proc/%s) + open(%s)", who, entries[i]);
		try_foreign(how, entries[i]);
	}
	for (int n = 0; n < 16; n++) {
		char name[32];
		snprintf(name, sizeof(name), "fd/%d", n);
		snprintf(how, sizeof(how), "chdir(/proc/%s) + open(fd/%d)", who, n);
		if (regular_fds_only) {
			/* Only look: someone else's pipes and sockets are not ours to read from. */
			struct stat st;
			if (stat(name, &st) < 0 || !S_ISREG(st.st_mode))
				continue;
		}
		try_foreign(how, name);
	}
	snprintf(how, sizeof(how), "chdir(/proc/%s) + open(cwd/public/x)", who);
	try_foreign(how, "cwd/" PUBLIC);
	snprintf(how, sizeof(how), "chdir(/proc/%s) + open(cwd/secret/x)", who);
	try_foreign(how, "cwd/" SECRET);
	snprintf(p, sizeof(p), "root%s/%s", cwd, PUBLIC);
	snprintf(how, sizeof(how), "chdir(/proc/%s) + open(root/.../public/x)", who);
	try_foreign(how, p);
	snprintf(how, sizeof(how), "chdir(/proc/%s) + open(/proc/self/cwd/environ)", who);
	try_foreign(how, "/proc/self/cwd/environ");
	if (chdir(cwd) < 0)
		setup_failed("chdir back");
}

static void *thread_self(void *arg)
{
	(void)arg;
	char p[PATH_MAX + 64];
	try_read("thread: /proc/thread-self/cwd/secret/x", AT_FDCWD,
		 "/proc/thread-self/cwd/" SECRET, O_RDONLY);
	snprintf(p, sizeof(p), "/proc/self/task/%d/cwd/%s", gettid(), SECRET);
	try_read("thread: /proc/self/task/TID/cwd/secret/x", AT_FDCWD, p, O_RDONLY);
	return NULL;
}

static void mode_self(void)
{
	char p[PATH_MAX + 64];
	int opath = open(SECRET, O_PATH | O_CLOEXEC);
	int opath_err = errno;
	int pub = open(PUBLIC, O_RDONLY | O_CLOEXEC);
	int sub = open("sub", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	int sdir = open("secret", O_PATH | O_DIRECTORY | O_CLOEXEC);
	int sdir_err = errno;

	if (pub < 0 || sub < 0)
		setup_failed("open public/x, sub");
	/* Controls: the agent's own /proc entries for allowed files work. */
	snprintf(p, sizeof(p), "/proc/self/fd/%d", pub);
	int c = open(p, O_RDONLY | O_CLOEXEC);
	control_check(c >= 0, "open(/proc/self/fd/N of public/x) opens");
	close(c);
	c = open("/proc/self/cwd/" PUBLIC, O_RDONLY | O_CLOEXEC);
	control_check(c >= 0, "open(/proc/self/cwd/public/x) opens");
	close(c);

	if (opath < 0) {
		refused("open(secret/x, O_PATH)", opath_err, EACCES);
	} else {
		snprintf(p, sizeof(p), "/proc/self/fd/%d", opath);
		try_read("/proc/self/fd/N of an O_PATH fd of the secret", AT_FDCWD, p, O_RDONLY);
		snprintf(p, sizeof(p), "/proc/thread-self/fd/%d", opath);
		try_read("/proc/thread-self/fd/N", AT_FDCWD, p, O_RDONLY);
		snprintf(p, sizeof(p), "/proc/%d/fd/%d", getpid(), opath);
		try_read("/proc/PID/fd/N", AT_FDCWD, p, O_RDONLY);
		snprintf(p, sizeof(p), "/proc/%d/task/%d/fd/%d", getpid(), gettid(), opath);
		try_read("/proc/PID/task/TID/fd/N", AT_FDCWD, p, O_RDONLY);
		snprintf(p, sizeof(p), "/dev/fd/%d", opath);
		try_read("/dev/fd/N", AT_FDCWD, p, O_RDONLY);
		snprintf(p, sizeof(p), "%d", opath);
		int fdd = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (fdd >= 0) {
			try_read("openat(fd of /proc/self/fd, N)", fdd, p, O_RDONLY);
			close(fdd);
		} else {
			setup_failed("open(/proc/self/fd)");
		}
		/* A child of the session going through its parent's fd table. */
		pid_t kid = fork();
		if (kid == 0) {
			snprintf(p, sizeof(p), "/proc/%d/fd/%d", getppid(), opath);
			try_read("child: /proc/PARENT/fd/N", AT_FDCWD, p, O_RDONLY);
			_exit(att_through ? 1 : att_missed ? 3 : 0);
		}
		/* The child's counts are its own: its exit status brings them back. */
		int st;
		waitpid(kid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st) == 1)
			att_through = 1;
		else if (WEXITSTATUS(st) == 3)
			att_missed++;
		else
			att_stopped++;
	}
	snprintf(p, sizeof(p), "/proc/self/root%s/%s", cwd, SECRET);
	try_read("/proc/self/root/.../secret/x", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof(p), "/proc/self/root/../../%s/%s", cwd, SECRET);
	try_read("/proc/self/root/../../.../secret/x", AT_FDCWD, p, O_RDONLY);
	try_read("/proc/self/cwd/secret/x", AT_FDCWD, "/proc/self/cwd/" SECRET, O_RDONLY);
	try_read("/proc/self/cwd/sub/../secret/x", AT_FDCWD, "/proc/self/cwd/sub/../" SECRET, O_RDONLY);
	snprintf(p, sizeof(p), "/proc/%d/cwd/%s", getpid(), SECRET);
	try_read("/proc/PID/cwd/secret/x", AT_FDCWD, p, O_RDONLY);
	snprintf(p, sizeof(p), "/proc/self/fd/%d/../%s", sub, SECRET);
	try_read("/proc/self/fd/SUBDIR/../secret/x", AT_FDCWD, p, O_RDONLY);
	if (sdir >= 0) {
		snprintf(p, sizeof(p), "/proc/self/fd/%d/x", sdir);
		try_read("/proc/self/fd/SECRETDIR/x", AT_FDCWD, p, O_RDONLY);
	} else {
		refused("open(secret, O_PATH|O_DIRECTORY)", sdir_err, EACCES);
	}
	try_read("/proc/self/../self/cwd/secret/x", AT_FDCWD, "/proc/self/../self/cwd/" SECRET,
		 O_RDONLY);
	pthread_t t;
	if (pthread_create(&t, NULL, thread_self, NULL) == 0)
		pthread_join(t, NULL);
}

static void mode_ward(void)
{
	pid_t ward = getppid();
	char p[128];

	foreign_process("ward", ward, false);
	/* ward's threads have their own /proc/TID directories. */
	for (pid_t tid = ward + 1; tid < ward + 12; tid++) {
		snprintf(p, sizeof(p), "/proc/%d/mem", tid);
		if (access(p, F_OK) == 0 && tid != getpid())
			try_foreign("a thread of ward? mem", p);
	}
}

/* The "Pid:" line of a status file opened through path; -1 if none. */
static long status_pid(const char *path)
{
	char buf[4096];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

	if (fd >= 0)
		close(fd);
	if (n <= 0)
		return -1;
	buf[n] = '\0';
	char *p = strstr(buf, "\nPid:");
	return p ? strtol(p + 5, NULL, 10) : -1;
}

static void link_to(const char *name, const char *target)
{
	unlink(name);
	if (symlink(target, name) < 0)
		setup_failed("symlink");
}

static void mode_links(void)
{
	char p[128], mine[65536], theirs[65536];
	pid_t me = getpid(), ward = getppid();

	/* status: the agent's own, by the Pid line. */
	link_to("l_status", "/proc/self/status");
	link_to("l_tstatus", "/proc/thread-self/status");
	link_to("l_dir", "/proc/self");
	const char *status_links[] = { "l_status", "l_tstatus", "l_dir/status", "./l_dir/../self/status" };
	for (size_t i = 0; i < sizeof(status_links) / sizeof(status_links[0]); i++) {
		long pid = status_pid(status_links[i]);
		if (pid == ward)
			leak(status_links[i], "ward's /proc/PID/status", 24);
		else if (pid == me)
			blocked("%s is the agent's own status", status_links[i]);
		else if (pid < 0)
			wrong("%s: not read (%s); natively it is the agent's own status", status_links[i],
			      strerror(errno));
		else
			wrong("%s: the status of pid %ld, neither the agent's (%d) nor ward's", status_links[i], pid, me);
	}
	/* environ: the same bytes as the agent's own, read directly. */
	link_to("l_environ", "/proc/self/environ");
	ssize_t a = slurp("/proc/self/environ", mine, sizeof(mine)),
		b = slurp("l_environ", theirs, sizeof(theirs));
	if (b >= 0 && (a != b || memcmp(mine, theirs, (size_t)b) != 0))
		leak("a symlink to /proc/self/environ read another process's environment", theirs,
		     (size_t)b < 40 ? (size_t)b : 40);
	else if (b < 0)
		wrong("l_environ -> /proc/self/environ: %s; natively the agent's own", strerror(errno));
	else
		blocked("l_environ -> /proc/self/environ: the agent's own");
	/* mem: opening the agent's own is fine; ward's is what must not happen. */
	link_to("l_mem", "/proc/self/mem");
	int fd = open("l_mem", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		char link[64], target[256] = "";
		snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
		ssize_t n = readlink(link, target, sizeof(target) - 1);
		target[n > 0 ? n : 0] = '\0';
		snprintf(p, sizeof(p), "/proc/%d/mem", ward);
		if (strcmp(target, p) == 0)
			leak("l_mem -> /proc/self/mem opened ward's memory", target, strlen(target));
		else
			blocked("l_mem -> /proc/self/mem is %s", target);
		close(fd);
	} else {
		refused("l_mem", errno, EACCES);
	}
	/* Through /proc/self/.. to ward's directory by number. */
	snprintf(p, sizeof(p), "/proc/self/../%d/environ", ward);
	link_to("l_up", p);
	try_foreign("l_up -> /proc/self/../WARD/environ", "l_up");
	snprintf(p, sizeof(p), "l_dir/../%d/status", ward);
	try_foreign("l_dir/../WARD/status", p);
	/* /dev/fd/N and a symlink to it, for fds the agent does not have (ward has some). */
	for (int n = 3; n < 64; n++) {
		if (fcntl(n, F_GETFD) >= 0)
			continue;
		snprintf(p, sizeof(p), "/dev/fd/%d", n);
		link_to("l_fd", p);
		const char *tries[] = { p, "l_fd" };
		for (int t = 0; t < 2; t++) {
			fd = open(tries[t], O_RDONLY | O_NONBLOCK | O_CLOEXEC);
			if (fd >= 0) {
				char link[64], target[256] = "";
				snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
				ssize_t k = readlink(link, target, sizeof(target) - 1);
				target[k > 0 ? k : 0] = '\0';
				char what[200];
				snprintf(what, sizeof(what), "%s (fd %d, not open in the agent) opened", tries[t], n);
				leak(what, target, strlen(target));
				close(fd);
			}
		}
	}
	if (!att_through)
		blocked("/dev/fd/N and links to it, for the fds the agent does not have");
}

static void mode_init(void)
{
	foreign_process("pid 1", 1, true);
}

/* System V shared memory of other processes: listed in /proc/sysvipc/shm. */
static void sysv_shm(void)
{
	FILE *f = fopen("/proc/sysvipc/shm", "re");
	char line[512];
	int tried = 0;

	if (f == NULL)
		setup_failed("/proc/sysvipc/shm");
	if (fgets(line, sizeof(line), f) == NULL) /* the header */
		setup_failed("/proc/sysvipc/shm is empty");
	while (fgets(line, sizeof(line), f) != NULL) {
		int key, id;
		if (sscanf(line, "%d %d", &key, &id) != 2)
			continue;
		char *seg = shmat(id, NULL, SHM_RDONLY);
		tried++;
		if (seg == (void *)-1) {
			refused("shmat() of another process's segment", errno, EACCES);
			continue;
		}
		if (is_secret(seg, 256))
			leak("shmat() of a System V segment of a process outside the session", seg, 256);
		shmdt(seg);
	}
	fclose(f);
	say("note: %d System V segments tried", tried);
	if (tried == 0)
		missed("no System V segment listed: the victim's is not there");
}

/* The key of the victim's message queue and semaphore set. */
#define VICTIM_KEY(pid) ((key_t)(0x57a10000 | ((pid) & 0xffff)))

struct victim_msg {
	long type;
	char text[256];
};

/* A call on the victim's IPC object that must fail: it went through otherwise. */
static void ipc_must_fail(const char *how, long rc)
{
	if (rc < 0) {
		refused(how, errno, EACCES); /* ward's for an object the session did not make */
	} else {
		att_through = 1;
		say("LEAK: %s worked on an object of a process outside the session", how);
	}
}

/* The victim's queue and set, as any process of its user may reach them. */
static void sysv_msg_sem(void)
{
	const char *s = getenv("VICTIM_PID");
	pid_t v = s ? atoi(s) : 0;
	struct victim_msg m;

	if (v <= 0) {
		errno = EINVAL;
		setup_failed("$VICTIM_PID");
	}
	int q = msgget(VICTIM_KEY(v), 0);
	if (q < 0) {
		refused("msgget(the victim's key)", errno, EACCES);
	} else {
		ssize_t n = msgrcv(q, &m, sizeof(m.text), 0, IPC_NOWAIT | MSG_NOERROR);
		if (n > 0 && is_secret(m.text, (size_t)n))
			leak("msgrcv() from the message queue of a process outside the session", m.text,
			     (size_t)n);
		else if (n < 0)
			refused("msgrcv() from the victim's queue", errno, EACCES);
		else
			missed("msgrcv() from the victim's queue: no secret in it");
		m.type = 1;
		strcpy(m.text, "from the agent");
		ipc_must_fail("msgsnd() into the victim's queue", msgsnd(q, &m, strlen(m.text), IPC_NOWAIT));
		struct msqid_ds ds;
		ipc_must_fail("msgctl(IPC_STAT) of the victim's queue", msgctl(q, IPC_STAT, &ds));
		ipc_must_fail("msgctl(IPC_RMID) of the victim's queue", msgctl(q, IPC_RMID, NULL));
	}
	int sem = semget(VICTIM_KEY(v), 0, 0);
	if (sem < 0) {
		refused("semget(the victim's key)", errno, EACCES);
		return;
	}
	ipc_must_fail("semctl(GETVAL) of the victim's semaphore", semctl(sem, 0, GETVAL));
	ipc_must_fail("semctl(SETVAL) of the victim's semaphore", semctl(sem, 0, SETVAL, 0));
	struct sembuf op = { 0, -1, IPC_NOWAIT };
	ipc_must_fail("semop() on the victim's semaphore", semop(sem, &op, 1));
	struct timespec ts = { 0, 0 };
	ipc_must_fail("semtimedop() on the victim's semaphore", semtimedop(sem, &op, 1, &ts));
	ipc_must_fail("semctl(IPC_RMID) of the victim's set", semctl(sem, 0, IPC_RMID));
}

static void mode_victim(void)
{
	const char *s = getenv("VICTIM_PID");
	pid_t v = s ? atoi(s) : 0;

	if (v <= 0) {
		errno = EINVAL;
		setup_failed("$VICTIM_PID");
	}
	foreign_process("victim", v, false);
}

/* Outside ward: hold the secret in a memfd, a deleted file and a pipe, and wait. */
/*
 * hoprace: the victim's memfd, through an O_PATH fd of the agent's (the
 * kernel opens /proc/VICTIM/fd/N so), while a thread swaps that fd number
 * between the O_PATH fd and a readable file of another filesystem that has
 * the same inode number.  ward serves an object without a name only if the
 * agent's fd still holds that object, not as O_PATH, when it looks: the
 * inode number alone repeats across filesystems, and the swap made it
 * match.  The victim (victim-serve ... hop) makes its memfd so that a
 * readable file of /usr has its inode number, and says which in
 * $HOP_FILE; without one the race is not run, and missed.
 */
#define HOP_FD 200
static int hop_opath = -1, hop_other = -1;
static volatile int hop_stop;
static unsigned long hop_swaps;
static ino_t hop_ino;

static void *hop_swapper(void *arg)
{
	(void)arg;
	while (!hop_stop) {
		dup2(hop_opath, HOP_FD);
		dup2(hop_other, HOP_FD);
		__atomic_add_fetch(&hop_swaps, 1, __ATOMIC_RELAXED);
	}
	return NULL;
}

static void mode_hoprace(void)
{
	const char *v = getenv("VICTIM_PID");
	char p[64];
	struct stat st;

	if (v == NULL)
		setup_failed("VICTIM_PID");
	/* The victim's memfd (victim_serve): found by its link's text. */
	for (int n = 0; n < 64 && hop_opath < 0; n++) {
		char target[PATH_MAX];
		snprintf(p, sizeof(p), "/proc/%s/fd/%d", v, n);
		ssize_t tl = readlink(p, target, sizeof(target) - 1);
		target[tl > 0 ? tl : 0] = '\0';
		if (strncmp(target, "/memfd:victim-secret", 20) == 0)
			hop_opath = open(p, O_PATH | O_CLOEXEC);
	}
	if (hop_opath < 0 || fstat(hop_opath, &st) < 0) {
		refused("open(/proc/VICTIM/fd/N of its memfd, O_PATH)", errno, EACCES);
		return;
	}
	hop_ino = st.st_ino;
	/* The victim made its memfd so that a file of /usr has its inode number. */
	const char *hop_found = getenv("HOP_FILE");
	struct stat hs;
	if (hop_found == NULL || *hop_found == '\0' || stat(hop_found, &hs) < 0 || hs.st_ino != hop_ino) {
		missed("no readable file with inode number %lu (HOP_FILE=%s): the race was not run",
		       (unsigned long)hop_ino, hop_found ? hop_found : "");
		return;
	}
	hop_other = open(hop_found, O_RDONLY | O_CLOEXEC);
	if (hop_other < 0)
		setup_failed(hop_found);
	say("note: %s has the memfd's inode number %lu", hop_found, (unsigned long)hop_ino);
	pthread_t t;
	if (pthread_create(&t, NULL, hop_swapper, NULL) != 0)
		setup_failed("pthread_create");
	snprintf(p, sizeof(p), "/proc/self/fd/%d", HOP_FD);
	double end = now() + race_seconds();
	unsigned long tries = 0, windows = 0;
	while (now() < end && !att_through) {
		unsigned long before = __atomic_load_n(&hop_swaps, __ATOMIC_RELAXED);
		int fd = open(p, O_RDONLY | O_CLOEXEC);
		tries++;
		if (__atomic_load_n(&hop_swaps, __ATOMIC_RELAXED) != before)
			windows++;
		if (fd < 0)
			continue;
		char buf[256];
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
		if (n > 0 && is_secret(buf, (size_t)n))
			leak("the victim's memfd through a swapped O_PATH fd", buf, (size_t)n);
		close(fd);
	}
	hop_stop = 1;
	pthread_join(t, NULL);
	race_done("the victim's memfd through a swapped O_PATH fd", tries, windows);
}

static volatile int victim_q = -1, victim_sem = -1;

static void victim_cleanup(int sig)
{
	(void)sig;
	if (victim_q >= 0)
		msgctl(victim_q, IPC_RMID, NULL);
	if (victim_sem >= 0)
		semctl(victim_sem, 0, IPC_RMID);
	_exit(0);
}

/*
 * For hoprace: the inode numbers of the regular files of /usr, to find one
 * a memfd of ours gets.  memfds take their numbers from a counter of the
 * kernel's (in batches a CPU), so new ones are tried until one matches.
 */
static void *hop_tree;
static int hop_cmp(const void *a, const void *b)
{
	ino_t x = *(const ino_t *)a, y = *(const ino_t *)b;
	return x < y ? -1 : x > y;
}

struct hop_file {
	ino_t ino; /* first: compared as an ino_t by hop_cmp */
	char path[];
};

static int hop_add(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)ftw;
	if (type != FTW_F || !S_ISREG(st->st_mode) || access(path, R_OK) < 0)
		return 0;
	struct hop_file *h = malloc(sizeof(*h) + strlen(path) + 1);
	if (h == NULL)
		return 1;
	h->ino = st->st_ino;
	strcpy(h->path, path);
	if (tsearch(h, &hop_tree, hop_cmp) == NULL)
		return 1;
	return 0;
}

/* A memfd whose inode number a readable file of /usr has; that file's name in *path. */
static int matching_memfd(const char **path)
{
	if (nftw("/usr", hop_add, 32, FTW_PHYS) != 0)
		return -1;
	for (long i = 0; i < 4000000; i++) {
		int m = memfd_create("victim-secret", 0);
		struct stat st;
		if (m < 0 || fstat(m, &st) < 0)
			return -1;
		struct hop_file **hit = tfind(&st.st_ino, &hop_tree, hop_cmp);
		if (hit != NULL) {
			*path = (*hit)->path;
			return m;
		}
		close(m);
	}
	return -1;
}

/*
 * A message queue or semaphore set left by a victim that was killed
 * (SIGKILL: no cleanup) holds the key a victim of a reused pid's low 16
 * bits would take: removed when the process that last used it is gone.
 */
static bool pid_gone(pid_t pid)
{
	return pid <= 0 || (kill(pid, 0) < 0 && errno == ESRCH);
}

static void victim_drop_stale(key_t key)
{
	struct msqid_ds q;
	int id = msgget(key, 0);

	if (id >= 0 && msgctl(id, IPC_STAT, &q) == 0 && pid_gone(q.msg_lspid) && pid_gone(q.msg_lrpid))
		msgctl(id, IPC_RMID, NULL);
	id = semget(key, 0, 0);
	if (id >= 0 && pid_gone(semctl(id, 0, GETPID)))
		semctl(id, 0, IPC_RMID);
}

static int victim_serve(const char *secretfile, const char *pidfile, bool hop)
{
	char buf[256], tmp[PATH_MAX];
	ssize_t n = slurp(secretfile, buf, sizeof(buf));
	int p[2];

	if (n <= 0)
		return 2;
	const char *hop_path = "";
	int m = hop ? matching_memfd(&hop_path) : memfd_create("victim-secret", 0);
	if (m < 0 || write(m, buf, (size_t)n) != n)
		return 2;
	snprintf(tmp, sizeof(tmp), "%s.deleted", pidfile);
	int d = open(tmp, O_RDWR | O_CREAT | O_TRUNC, 0600);
	if (d < 0 || write(d, buf, (size_t)n) != n || unlink(tmp) < 0)
		return 2;
	if (pipe(p) < 0 || write(p[1], buf, (size_t)n) != n)
		return 2;
	/* A System V shared memory segment (gone when we are: IPC_RMID at once). */
	int shm = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	char *seg = shm >= 0 ? shmat(shm, NULL, 0) : (void *)-1;
	if (seg == (void *)-1)
		return 2;
	memcpy(seg, buf, (size_t)n);
	shmctl(shm, IPC_RMID, NULL);
	/*
	 * A message queue holding the secret and a semaphore set (value 7),
	 * by a key the attack knows.  They outlive their maker: removed on
	 * SIGTERM, which the driver sends.
	 */
	struct victim_msg msg = { .type = 1 };
	memcpy(msg.text, buf, (size_t)n);
	victim_drop_stale(VICTIM_KEY(getpid()));
	victim_q = msgget(VICTIM_KEY(getpid()), IPC_CREAT | IPC_EXCL | 0600);
	victim_sem = semget(VICTIM_KEY(getpid()), 1, IPC_CREAT | IPC_EXCL | 0600);
	signal(SIGTERM, victim_cleanup);
	if (victim_q < 0 || msgsnd(victim_q, &msg, (size_t)n, 0) < 0 || victim_sem < 0 ||
	    semctl(victim_sem, 0, SETVAL, 7) < 0)
		return 2;
	snprintf(tmp, sizeof(tmp), "%s.tmp", pidfile);
	FILE *f = fopen(tmp, "w");
	if (f == NULL)
		return 2;
	fprintf(f, "%d %s\n", getpid(), hop_path);
	fclose(f);
	rename(tmp, pidfile);
	for (;;)
		pause();
}

static int shm_orphan(const char *file, const char *secretfile)
{
	char buf[256];
	ssize_t n = slurp(secretfile, buf, sizeof(buf));
	int shm = shmget(IPC_PRIVATE, 4096, IPC_CREAT | 0600);
	char *seg = shm >= 0 ? shmat(shm, NULL, 0) : (void *)-1;
	FILE *f;

	if (n <= 0 || seg == (void *)-1 || (f = fopen(file, "w")) == NULL)
		return 2;
	memcpy(seg, buf, (size_t)n);
	fprintf(f, "%d %d\n", shm, getpid());
	fclose(f);
	return 0;
}

/* Wait up to 10 s for DIR/NAME to exist. */
static bool wait_file(const char *dir, const char *name)
{
	char p[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	for (int i = 0; i < 1000; i++) {
		if (access(p, F_OK) == 0)
			return true;
		usleep(10000);
	}
	return false;
}

static bool put_file(const char *dir, const char *name, const char *text)
{
	char p[PATH_MAX], tmp[PATH_MAX];
	snprintf(p, sizeof(p), "%s/%s", dir, name);
	snprintf(tmp, sizeof(tmp), "%s/.%s.tmp", dir, name);
	FILE *f = fopen(tmp, "w");
	if (f == NULL)
		return false;
	fputs(text, f);
	return fclose(f) == 0 && rename(tmp, p) == 0;
}

static void mode_ipcreuse(void)
{
	char idtext[32];
	struct victim_msg m;

	int q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	if (q < 0)
		setup_failed("msgget");
	snprintf(idtext, sizeof(idtext), "%d\n", q);
	if (!put_file(cwd, "ipc.made", idtext))
		setup_failed("ipc.made");
	if (!wait_file(cwd, "ipc.removed"))
		setup_failed("the recycler did not remove the queue");
	usleep(300 * 1000); /* longer than ward's sweep */
	if (!put_file(cwd, "ipc.waited", "") || !wait_file(cwd, "ipc.ready"))
		setup_failed("the recycler did not make its queue");
	ssize_t n = msgrcv(q, &m, sizeof(m.text), 0, IPC_NOWAIT | MSG_NOERROR);
	if (n > 0 && is_secret(m.text, (size_t)n))
		leak("msgrcv() by an id the session had, now a queue of a process outside it", m.text,
		     (size_t)n);
	else if (n < 0)
		refused("msgrcv() of the id the session had, now another's", errno, EACCES);
	else
		missed("msgrcv() of the id the session had: no secret in it");
}

/* The other side of ipcreuse: remove the session's queue, then take its id. */
static int ipc_recycler(const char *dir, const char *secretfile)
{
	char buf[256], idtext[32], path[PATH_MAX];
	ssize_t n = slurp(secretfile, buf, sizeof(buf));
	struct victim_msg m = { .type = 1 };

	if (n <= 0 || !wait_file(dir, "ipc.made"))
		return 2;
	snprintf(path, sizeof(path), "%s/ipc.made", dir);
	FILE *f = fopen(path, "r");
	int id = -1;
	if (f == NULL || fscanf(f, "%d", &id) != 1 || id < 0)
		return 2;
	fclose(f);
	if (msgctl(id, IPC_RMID, NULL) < 0 || !put_file(dir, "ipc.removed", "") ||
	    !wait_file(dir, "ipc.waited"))
		return 2;
	int fd = open("/proc/sys/kernel/msg_next_id", O_WRONLY | O_CLOEXEC);
	int len = snprintf(idtext, sizeof(idtext), "%d", id);
	if (fd < 0 || write(fd, idtext, (size_t)len) != len)
		return 2;
	close(fd);
	signal(SIGTERM, victim_cleanup); /* the driver's: the queue goes with it */
	int mine = victim_q = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
	memcpy(m.text, buf, (size_t)n);
	if (mine != id || msgsnd(mine, &m, (size_t)n, 0) < 0)
		return 2;
	if (!put_file(dir, "ipc.ready", ""))
		return 2;
	wait_file(dir, "never"); /* 10 s, then the queue goes */
	msgctl(mine, IPC_RMID, NULL);
	return 0;
}

static void mode_shmreuse(void)
{
	const char *id_s = getenv("SHM_ID"), *pid_s = getenv("SHM_PID");
	if (id_s == NULL || pid_s == NULL)
		setup_failed("SHM_ID and SHM_PID");
	int id = atoi(id_s);
	pid_t want = (pid_t)atoi(pid_s);
	/*
	 * Every process of the machine takes pids from the same counter: on a
	 * busy one another fork often comes between the write and this one's.
	 */
	for (int tries = 0; tries < 1000; tries++) {
		int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY | O_CLOEXEC);
		char last[32];
		int len = snprintf(last, sizeof(last), "%d", want - 1);
		if (fd < 0 || write(fd, last, (size_t)len) != len)
			setup_failed("write /proc/sys/kernel/ns_last_pid");
		close(fd);
		fflush(stdout);
		pid_t c = fork();
		if (c == 0) {
			if (getpid() != want)
				_exit(3);
			char *seg = shmat(id, NULL, SHM_RDONLY);
			if (seg == (void *)-1)
				_exit(errno < 100 ? 100 + errno : 5); /* the errno, to the parent */
			_exit(is_secret(seg, 256) ? 1 : 4);
		}
		int st;
		if (c < 0 || waitpid(c, &st, 0) != c || !WIFEXITED(st))
			setup_failed("fork");
		if (WEXITSTATUS(st) == 3)
			continue;
		if (WEXITSTATUS(st) == 1)
			leak("shmat() of a segment whose creator's id a session process took", "(secret)",
			     8);
		else if (WEXITSTATUS(st) >= 100)
			refused("shmat() as the creator's id, taken over", WEXITSTATUS(st) - 100, EACCES);
		else
			missed("the segment attached but does not hold the secret (%d)", WEXITSTATUS(st));
		return;
	}
	missed("could not take the id %d in 1000 forks", want);
}

/* Another mount of procfs: its PID directories are no less foreign. */
static void mode_mount(void)
{
	const char *entries[] = { "environ", "mem", "maps", "cmdline", "fd/0", "fd/1", "fd/2",
				  "cwd/" PUBLIC, NULL };
	pid_t who[] = { getppid(), 1 };
	char p[PATH_MAX + 128], how[256], dir[PATH_MAX + 64];

	for (int w = 0; w < 2; w++) {
		const char *name = w == 0 ? "ward" : "pid 1";
		snprintf(dir, sizeof(dir), "%s/proc2/%d", cwd, who[w]);
		for (int i = 0; entries[i]; i++) {
			snprintf(p, sizeof(p), "%s/%s", dir, entries[i]);
			snprintf(how, sizeof(how), "%s %s through a second procfs", name, entries[i]);
			try_foreign(how, p);
		}
		int d = open(dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
		if (d >= 0) {
			snprintf(how, sizeof(how), "%s environ by an O_PATH dirfd of the second procfs",
				 name);
			try_foreign_at(how, d, "environ");
			snprintf(how, sizeof(how), "%s mem by an O_PATH dirfd of the second procfs",
				 name);
			try_foreign_at(how, d, "mem");
			close(d);
		}
		if (chdir(dir) == 0) {
			snprintf(how, sizeof(how), "%s environ after chdir into the second procfs", name);
			try_foreign(how, "environ");
			snprintf(how, sizeof(how), "%s task/%d/environ after chdir", name, who[w]);
			snprintf(p, sizeof(p), "task/%d/environ", who[w]);
			try_foreign(how, p);
			if (chdir(cwd) < 0)
				setup_failed("chdir back");
		}
	}
	/* Bind mounts of a part of procfs: the victim's directory, and its task directory. */
	const char *v = getenv("VICTIM_PID");
	if (v == NULL)
		setup_failed("VICTIM_PID");
	char bound[6][128];
	snprintf(bound[0], sizeof(bound[0]), "pb/environ");
	snprintf(bound[1], sizeof(bound[1]), "pb/cmdline");
	snprintf(bound[2], sizeof(bound[2]), "pb/cwd/%s", PUBLIC);
	snprintf(bound[3], sizeof(bound[3]), "pb/task/%s/environ", v);
	snprintf(bound[4], sizeof(bound[4]), "pt/%s/environ", v);
	snprintf(bound[5], sizeof(bound[5]), "pt/%s/cmdline", v);
	for (int i = 0; i < 6; i++) {
		snprintf(p, sizeof(p), "%s/%.127s", cwd, bound[i]);
		snprintf(how, sizeof(how),
			 "the victim's %.40s through a bind mount of its /proc directory", bound[i]);
		try_foreign(how, p);
	}
	int d = open("pb", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (d >= 0) {
		try_foreign_at("the victim's environ by an O_PATH dirfd of a bind mount", d, "environ");
		close(d);
	}
	/* Its fd/ directory bound alone (a memfd, a deleted file, a pipe there), and its environ. */
	for (int n = 0; n < 12; n++) {
		snprintf(p, sizeof(p), "%s/pfd/%d", cwd, n);
		snprintf(how, sizeof(how), "the victim's fd/%d through a bind mount of its fd/", n);
		try_foreign(how, p);
	}
	try_foreign("the victim's environ bound alone at a file", "penv");
	/* ...and bound inside /proc itself, over entries of no task. */
	try_foreign("the victim's environ bound over /proc/sys/kernel/domainname",
		    "/proc/sys/kernel/domainname");
	for (int n = 3; n < 8; n++) {
		snprintf(p, sizeof(p), "/proc/driver/%d", n);
		try_foreign("the victim's fd/N bound over /proc/driver", p);
	}
	/*
	 * O_PATH opens are the kernel's when stat is not restricted: an O_PATH
	 * fd of ward's mem (through the second procfs) or of the bound environ,
	 * then reopened for reading and writing through /proc/self/fd/N.
	 */
	const char *held[] = { "proc2/PPID/mem", "proc2/PPID/environ", "penv" };
	for (int i = 0; i < 3; i++) {
		if (i < 2)
			snprintf(dir, sizeof(dir), "%s/proc2/%d/%s", cwd, getppid(), i == 0 ? "mem" : "environ");
		else
			snprintf(dir, sizeof(dir), "%s/penv", cwd);
		int o = open(dir, O_PATH | O_CLOEXEC);
		if (o < 0) {
			refused("an O_PATH open of a foreign /proc entry", errno, EACCES);
			continue;
		}
		snprintf(p, sizeof(p), "/proc/self/fd/%d", o);
		snprintf(how, sizeof(how), "an O_PATH fd of %s, reopened through /proc/self/fd", held[i]);
		int rw = open(p, O_RDWR | O_CLOEXEC);
		if (rw >= 0) {
			leak(how, "(opened O_RDWR)", 15);
			close(rw);
		} else {
			try_foreign(how, p);
		}
		close(o);
	}
	if (chdir("pfd") == 0) {
		for (int n = 3; n < 8; n++) {
			snprintf(p, sizeof(p), "%d", n);
			try_foreign("the victim's fd/N after chdir into a bind mount of its fd/", p);
		}
		snprintf(p, sizeof(p), "/proc/%d/cwd/3", getpid());
		try_foreign("its own cwd (the victim's bound fd/), then 3", p);
		if (chdir(cwd) < 0)
			setup_failed("chdir back");
	}
	snprintf(p, sizeof(p), "pt/%s", v);
	if (chdir(p) == 0) {
		try_foreign("the victim's environ after chdir into a bind mount of its task directory",
			    "environ");
		if (chdir(cwd) < 0)
			setup_failed("chdir back");
	}
	/* The agent's own entries are its to read. */
	snprintf(p, sizeof(p), "%s/proc2/%d/status", cwd, getpid());
	long pid = status_pid(p);
	control_check(pid == getpid(), "its own status through the second procfs: Pid %ld", pid);
	snprintf(p, sizeof(p), "%s/proc2/self/status", cwd);
	pid = status_pid(p);
	control_check(pid == getpid(), "proc2/self/status: Pid %ld", pid);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "self";

	if (strcmp(mode, "victim-serve") == 0)
		return argc == 4 || (argc == 5 && strcmp(argv[4], "hop") == 0)
			       ? victim_serve(argv[2], argv[3], argc == 5)
			       : 2;
	if (strcmp(mode, "shm-orphan") == 0)
		return argc == 4 ? shm_orphan(argv[2], argv[3]) : 2;
	if (strcmp(mode, "ipc-recycler") == 0)
		return argc == 4 ? ipc_recycler(argv[2], argv[3]) : 2;
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	if (strcmp(mode, "self") == 0)
		mode_self();
	else if (strcmp(mode, "ward") == 0)
		mode_ward();
	else if (strcmp(mode, "init") == 0)
		mode_init();
	else if (strcmp(mode, "victim") == 0)
		mode_victim();
	else if (strcmp(mode, "hoprace") == 0)
		mode_hoprace();
	else if (strcmp(mode, "ipc") == 0) {
		sysv_shm();
		sysv_msg_sem();
	}
	else if (strcmp(mode, "links") == 0)
		mode_links();
	else if (strcmp(mode, "mount") == 0)
		mode_mount();
	else if (strcmp(mode, "shmreuse") == 0)
		mode_shmreuse();
	else if (strcmp(mode, "ipcreuse") == 0)
		mode_ipcreuse();
	else {
		errno = EINVAL;
		setup_failed(mode);
	}
	return finish();
}
