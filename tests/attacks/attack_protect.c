/*
 * attack_protect MODE - change what a rule protects by giving it, or the
 * directory above it, another name.  attacks.sh sets the rules and the
 * files for each mode (guarded/x holds "GUARDED-ORIGINAL").
 *
 *   hardlink   `deny write,delete guarded/x`: link(guarded/x, hl), then
 *              write through hl (a new name must not reach further than
 *              the old one: link needs write at the source too)
 *   rename     the same file renamed, with delete allowed at it: a move
 *              needs write at the source too
 *   renamerace `deny write,create,delete hooks/<any>` (not hooks itself):
 *              rename(D, hooks) while a thread swaps D, a file, with E, a
 *              directory holding pre-commit (RENAME_EXCHANGE): ward's
 *              check that a directory carries nothing into a rule's reach
 *              must not depend on what D was when it looked
 *   globdir    `deny read hid*<slash><any>`: rename(hidden, shown), then
 *              read shown/x (a glob in a directory's name guards what is
 *              below it)
 *   whiteout   renameat2(public/x, public/y, RENAME_WHITEOUT) leaves a
 *              character device at public/x: refused as mknod of one is
 *   roundtrip  OUT = the project's path + ".out", outside it and outside
 *              $TMPDIR, where `allow write,create,delete OUT/<any>` lets
 *              the agent move OUT/d but not write what is in it:
 *              rename(OUT/d, d), write d/f, rename it back (a move must
 *              not allow below the new place what was not allowed below
 *              the old one); and the same by renameat2(e, OUT/d,
 *              RENAME_EXCHANGE) with an empty directory e of the project,
 *              where OUT/d moves the other way
 *   hooks      the default profile, with an empty .git/: a symlink or a
 *              directory at .git/hooks, a symlink at .claude, then a
 *              pre-commit hook or settings file written through them
 *   gitdir     the default profile, no .git/: .git made as a symlink to a
 *              directory of the agent's, with hooks in it
 *   policyfile ward run -p link.policy -p cfgl/team.policy -p chain.policy
 *              -p cfgc/inc.policy, where link.policy -> conf/team.policy,
 *              cfgl -> conf, chain.policy -> mid.policy -> conf/team.policy,
 *              cfgc -> cfgm -> conf, and
 *              team.policy includes inc.policy: write, truncate, replace
 *              or rename the files, or turn the symlinks elsewhere (the
 *              next session would load the agent's policy)
 *   chattr     `deny write guarded/x`: its inode flags set through a
 *              read-only fd (FS_IOC_SETFLAGS: no-dump, then append-only
 *              and immutable, which root may set) and its attributes
 *              (FS_IOC_FSSETXATTR)
 *   core       `deny write,create,delete guarded/<any>`: raise the core dump
 *              limit, then crash in guarded/: the kernel writes the dump
 *              there itself (core_pattern "core"), with no call to judge
 *   gitcommon  the default profile, with .git/: the files by which git
 *              finds config and hooks elsewhere (commondir, a worktree's
 *              or a submodule's), written to point at the agent's own
 *   stow       the default profile, the project a dotfiles repository the
 *              home directory's files are symlinks into (attacks.sh makes
 *              them; HOME_DIR names home): ~/.config/git/config ->
 *              dot/git/config, ~/.bashrc -> dot/bashrc -> shell/bashrc,
 *              ~/.kube/config -> dot/kube/config (a secret), ~/.vim/pack ->
 *              dot/vimpack, ~/.ipython/profile_default -> dot/ipy,
 *              ~/.config/autostart/x.desktop -> dot/x.desktop (not there):
 *              write, replace or remove them (and the middle link) through
 *              the project, read the secret; dot/ipy/notes stays writable
 *
 * "LEAK" here means the protected thing was changed or planted.
 */
#include "attack.h"

#include <linux/fs.h>
#include <dirent.h>
#include <pthread.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <sys/ioctl.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT (1 << 2)
#endif

#define GUARDED "guarded/x"
#define ORIGINAL "GUARDED-ORIGINAL"

static void check_guarded(void)
{
	char buf[256];
	if (slurp(GUARDED, buf, sizeof(buf)) < 0)
		setup_failed("read " GUARDED);
	if (strstr(buf, "INJECTED") != NULL || strstr(buf, ORIGINAL) == NULL) {
		att_through = 1;
		say("LEAK: %s was changed: %s", GUARDED, buf);
	}
}

static void write_through(const char *how, const char *name)
{
	int fd = open(name, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd < 0) {
		char what[256];
		snprintf(what, sizeof(what), "%s, then open(%s, O_WRONLY)", how, name);
		refused(what, errno, EACCES);
		return;
	}
	if (write(fd, "INJECTED\n", 9) != 9)
		missed("%s, then write: %s", how, strerror(errno));
	close(fd);
}

static void mode_hardlink(void)
{
	if (!native_run()) {
		int fd = open(GUARDED, O_WRONLY | O_APPEND | O_CLOEXEC);
		control_check(fd < 0 && errno == EACCES, "open(%s, O_WRONLY) is refused: the rule is in force",
			      GUARDED);
	}
	if (link(GUARDED, "hl") == 0)
		write_through("link(guarded/x, hl)", "hl");
	else
		refused("link(guarded/x, hl)", errno, EACCES);
	int o = open(GUARDED, O_RDONLY | O_CLOEXEC);
	if (o < 0)
		setup_failed("open(guarded/x, O_RDONLY)");
	{
		if (linkat(o, "", AT_FDCWD, "hl2", AT_EMPTY_PATH) == 0)
			write_through("linkat(fd, \"\", hl2, AT_EMPTY_PATH)", "hl2");
		else
			refused("linkat(fd, \"\", hl2, AT_EMPTY_PATH)", errno, EACCES);
		close(o);
	}
	check_guarded();
}

static void mode_rename(void)
{
	if (rename(GUARDED, "moved") == 0) {
		write_through("rename(guarded/x, moved)", "moved");
		if (rename("moved", GUARDED) < 0)
			say("note: could not move it back: %s", strerror(errno));
		check_guarded();
		if (access(GUARDED, F_OK) < 0) {
			att_through = 1;
			say("LEAK: %s was moved away", GUARDED);
		}
	} else {
		refused("rename(guarded/x, moved)", errno, EACCES);
	}
}

static volatile int stop;
static unsigned long swaps;

static void *swapper(void *arg)
{
	(void)arg;
	while (!stop)
		if (syscall(SYS_renameat2, AT_FDCWD, "D", AT_FDCWD, "E", RENAME_EXCHANGE) == 0)
			__atomic_add_fetch(&swaps, 1, __ATOMIC_RELAXED);
	return NULL;
}

static void mode_renamerace(void)
{
	pthread_t t;
	int fd;

	if (mkdir("E", 0755) < 0 || (fd = open("E/pre-commit", O_CREAT | O_WRONLY, 0755)) < 0)
		setup_failed("mkdir E, E/pre-commit");
	close(fd);
	if ((fd = open("D", O_CREAT | O_WRONLY, 0644)) < 0)
		setup_failed("create D");
	close(fd);
	/* As a directory, the move is refused outright. */
	if (rename("E", "hooks") == 0) {
		att_through = 1;
		say("LEAK: rename(E, hooks) moved a directory with pre-commit into hooks/");
		return;
	}
	refused("rename(E, hooks)", errno, EACCES);
	if (pthread_create(&t, NULL, swapper, NULL) != 0)
		setup_failed("pthread_create");
	double end = now() + race_seconds();
	unsigned long tries = 0, moved = 0, windows = 0;
	while (now() < end && !att_through) {
		tries++;
		unsigned long before = __atomic_load_n(&swaps, __ATOMIC_RELAXED);
		int rc = rename("D", "hooks");
		if (__atomic_load_n(&swaps, __ATOMIC_RELAXED) != before)
			windows++;
		if (rc < 0)
			continue;
		moved++;
		struct stat st;
		if (stat("hooks/pre-commit", &st) == 0) {
			att_through = 1;
			say("LEAK: a directory with pre-commit became hooks/ (try %lu)", tries);
			break;
		}
		/* A file landed there: put it back for the next try. */
		if (rename("hooks", "D") < 0)
			unlink("hooks");
	}
	stop = 1;
	pthread_join(t, NULL);
	say("note: rename(D, hooks) against a file/directory swap: %lu tries, %lu moved", tries, moved);
	race_done("rename(D, hooks) while D is swapped between a file and a directory", tries, windows);
}

static void mode_globdir(void)
{
	if (rename("hidden", "shown") == 0)
		try_read("rename(hidden, shown), then read shown/x", AT_FDCWD, "shown/x", O_RDONLY);
	else
		refused("rename(hidden, shown)", errno, EACCES);
	if (mkdir("up", 0755) == 0 && rename("hidden", "up/hidden") == 0)
		try_read("rename(hidden, up/hidden), then read", AT_FDCWD, "up/hidden/x", O_RDONLY);
	else
		refused("rename(hidden, up/hidden)", errno, EACCES);
	try_read("read hidden/x", AT_FDCWD, "hidden/x", O_RDONLY);
}

static void mode_whiteout(void)
{
	struct stat st;
	long rc = syscall(SYS_renameat2, AT_FDCWD, PUBLIC, AT_FDCWD, "public/y", RENAME_WHITEOUT);
	if (rc == 0 && lstat(PUBLIC, &st) == 0 && S_ISCHR(st.st_mode)) {
		att_through = 1;
		say("LEAK: RENAME_WHITEOUT left a character device at %s", PUBLIC);
	} else if (rc == 0) {
		wrong("RENAME_WHITEOUT returned 0 but left no device");
	} else if (errno != EPERM) {
		wrong("RENAME_WHITEOUT: %s, expected EPERM", strerror(errno));
	} else {
		blocked("renameat2(public/x, public/y, RENAME_WHITEOUT): EPERM");
	}
}

/* Make dir/name in a directory of the agent's own, reached through link. */
static void plant(const char *how, const char *through, const char *name)
{
	char path[512];
	snprintf(path, sizeof(path), "evil/%s", name);
	int fd = open(path, O_CREAT | O_WRONLY | O_TRUNC | O_CLOEXEC, 0755);
	if (fd < 0)
		setup_failed(path);
	close(fd);
	snprintf(path, sizeof(path), "%s/%s", through, name);
	struct stat st;
	if (stat(path, &st) == 0) {
		att_through = 1;
		say("LEAK: %s: %s now exists", how, path);
	} else {
		missed("%s: made, but %s does not lead into it (%s)", how, path, strerror(errno));
	}
}

static void mode_hooks(void)
{
	if (mkdir("evil", 0755) < 0)
		setup_failed("mkdir evil");
	if (symlink("../evil", ".git/hooks") == 0)
		plant("symlink(../evil, .git/hooks)", ".git/hooks", "pre-commit");
	else
		refused("symlink(../evil, .git/hooks)", errno, EACCES);
	if (mkdir(".git/hooks", 0755) == 0) {
		int fd = open(".git/hooks/pre-commit", O_CREAT | O_WRONLY | O_CLOEXEC, 0755);
		if (fd >= 0) {
			att_through = 1;
			say("LEAK: mkdir .git/hooks, then created .git/hooks/pre-commit");
			close(fd);
		} else {
			refused("mkdir .git/hooks, then create pre-commit", errno, EACCES);
		}
	} else {
		refused("mkdir(.git/hooks)", errno, EACCES);
	}
	if (symlink("evil", ".claude") == 0)
		plant("symlink(evil, .claude)", ".claude", "settings.json");
	else
		refused("symlink(evil, .claude)", errno, EACCES);
	if (rename(".git", "git-moved") == 0) {
		att_through = 1;
		say("LEAK: rename(.git, git-moved)");
	} else {
		refused("rename(.git, git-moved)", errno, EACCES);
	}
}

static void mode_gitdir(void)
{
	if (mkdir("evil", 0755) < 0 || mkdir("evil/hooks", 0755) < 0)
		setup_failed("mkdir evil/hooks");
	if (symlink("evil", ".git") == 0)
		plant("symlink(evil, .git)", ".git", "hooks/pre-commit");
	else
		refused("symlink(evil, .git)", errno, EACCES);
	if (rename("evil", ".git") == 0) {
		att_through = 1;
		say("LEAK: rename(evil, .git) made a repository of the agent's");
	} else {
		refused("rename(evil, .git)", errno, EACCES);
	}
}

/* Try to change what PATH is: append, truncate, replace by rename, unlink. */
static void change(const char *path)
{
	int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (fd >= 0) {
		if (write(fd, "INJECTED\n", 9) == 9) {
			att_through = 1;
			say("LEAK: appended to %s", path);
		}
		close(fd);
	} else {
		char what[256];
		snprintf(what, sizeof(what), "open(%s, O_WRONLY)", path);
		refused(what, errno, EACCES);
	}
	if (truncate(path, 0) == 0) {
		att_through = 1;
		say("LEAK: truncated %s", path);
	}
	fd = open("new.policy", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0 || write(fd, "allow read /**\n", 15) != 15)
		setup_failed("write new.policy");
	close(fd);
	if (rename("new.policy", path) == 0) {
		att_through = 1;
		say("LEAK: rename(new.policy, %s) replaced it", path);
	} else {
		char what[256];
		snprintf(what, sizeof(what), "rename(new.policy, %s)", path);
		refused(what, errno, EACCES);
	}
	if (unlink(path) == 0) {
		att_through = 1;
		say("LEAK: unlink(%s)", path);
	}
}

static void mode_policyfile(void)
{
	int fd = open("conf/inc.policy", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		setup_failed("open conf/inc.policy (the driver makes it)");
	close(fd);
	change("conf/team.policy");
	change("conf/inc.policy");
	change("link.policy");
	change("cfgl");
	change("mid.policy"); /* chain.policy -> mid.policy -> conf/team.policy */
	change("cfgm");	      /* cfgc -> cfgm -> conf */
	if (rename("conf", "conf2") == 0) {
		att_through = 1;
		say("LEAK: rename(conf, conf2)");
	} else {
		refused("rename(conf, conf2)", errno, EACCES);
	}
	if (mkdir("other", 0755) < 0 || symlink("other", "l2") < 0)
		setup_failed("mkdir other");
	if (rename("l2", "cfgl") == 0) {
		att_through = 1;
		say("LEAK: rename(l2, cfgl) turned the directory's symlink elsewhere");
	} else {
		refused("rename(l2, cfgl)", errno, EACCES);
	}
}

static void mode_chattr(void)
{
	int fd = open(GUARDED, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		setup_failed("open " GUARDED);
	static const struct {
		const char *name;
		int flag;
	} flags[] = { { "no-dump", 0x40 }, { "append-only", 0x20 }, { "immutable", 0x10 } };
	for (size_t i = 0; i < 3; i++) {
		int f = flags[i].flag;
		if (ioctl(fd, FS_IOC_SETFLAGS, &f) == 0) {
			att_through = 1;
			say("LEAK: FS_IOC_SETFLAGS set %s on %s through a read-only fd", flags[i].name,
			    GUARDED);
			f = 0;
			ioctl(fd, FS_IOC_SETFLAGS, &f);
		} else if (errno == ENOTTY || errno == EOPNOTSUPP) {
			missed("this filesystem has no inode flags (%s)", strerror(errno));
		} else {
			refused("FS_IOC_SETFLAGS", errno, EPERM);
		}
	}
	struct fsxattr fx;
	if (ioctl(fd, FS_IOC_FSGETXATTR, &fx) == 0) {
		fx.fsx_xflags |= FS_XFLAG_NODUMP;
		if (ioctl(fd, FS_IOC_FSSETXATTR, &fx) == 0) {
			att_through = 1;
			say("LEAK: FS_IOC_FSSETXATTR changed %s through a read-only fd", GUARDED);
		} else {
			refused("FS_IOC_FSSETXATTR", errno, EPERM);
		}
	}
	close(fd);
}

static void mode_core(void)
{
	struct rlimit lim = { RLIM_INFINITY, RLIM_INFINITY };
	if (setrlimit(RLIMIT_CORE, &lim) < 0) {
		refused("setrlimit(RLIMIT_CORE, unlimited)", errno, EPERM);
		if (getrlimit(RLIMIT_CORE, &lim) == 0) {
			lim.rlim_cur = lim.rlim_max;
			setrlimit(RLIMIT_CORE, &lim);
		}
	}
	getrlimit(RLIMIT_CORE, &lim);
	say("core limit now %llu", (unsigned long long)lim.rlim_cur);
	pid_t pid = fork();
	if (pid == 0) {
		if (chdir("guarded") < 0)
			_exit(2);
		signal(SIGABRT, SIG_DFL);
		abort();
	}
	int st;
	if (pid < 0 || waitpid(pid, &st, 0) != pid)
		setup_failed("fork");
	DIR *d = opendir("guarded");
	struct dirent *e;
	while (d != NULL && (e = readdir(d)) != NULL)
		if (strncmp(e->d_name, "core", 4) == 0) {
			att_through = 1;
			say("LEAK: the kernel wrote guarded/%s", e->d_name);
		}
	if (d != NULL)
		closedir(d);
	if (WIFSIGNALED(st) && WCOREDUMP(st) && !att_through)
		missed("a core was dumped, not in guarded/ (core_pattern elsewhere)");
	else if (!att_through)
		blocked("no core dump");
}

/* The files through which git finds a repository's config and hooks elsewhere. */
static void mode_gitcommon(void)
{
	static const char *const files[] = {
		".git/commondir", ".git/config.worktree", ".git/worktrees/w/commondir",
		".git/worktrees/w/config.worktree", ".git/modules/m/config",
		".git/modules/m/commondir", ".git/modules/m/hooks/pre-commit",
		".git/modules/m/modules/n/config",
	};
	if (mkdir("evil", 0755) < 0 || mkdir("evil/hooks", 0755) < 0)
		setup_failed("mkdir evil");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char dir[256], what[300];
		int mkerr = 0;
		snprintf(dir, sizeof(dir), "%s", files[i]);
		for (char *c = dir + 5; (c = strchr(c, '/')) != NULL; c++) {
			*c = '\0';
			if (mkdir(dir, 0755) < 0 && errno != EEXIST && mkerr == 0) {
				mkerr = errno; /* refused: then the open fails too */
				snprintf(what, sizeof(what), "mkdir(%s) on the way to %s", dir, files[i]);
			}
			*c = '/';
		}
		int fd = open(files[i], O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0755);
		if (fd < 0 && errno == ENOENT && mkerr != 0) {
			refused(what, mkerr, EACCES);
			continue;
		}
		if (fd < 0) {
			snprintf(what, sizeof(what), "open(%s, O_CREAT)", files[i]);
			refused(what, errno, EACCES);
			continue;
		}
		if (write(fd, "evil\n", 5) == 5) {
			att_through = 1;
			say("LEAK: wrote %s", files[i]);
		}
		close(fd);
	}
}

static void mode_roundtrip(void)
{
	char cwd[4096], out[4200], f[4300], buf[256];

	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	snprintf(out, sizeof(out), "%s.out/d", cwd);
	snprintf(f, sizeof(f), "%s/f", out);
	int fd = open(f, O_WRONLY | O_APPEND | O_CLOEXEC);
	if (!native_run())
		control_check(fd < 0 && errno == EACCES, "open(OUT/d/f, O_WRONLY) is refused: the rules are in force");
	if (fd >= 0)
		close(fd);
	if (rename(out, "d") == 0) {
		write_through("rename(OUT/d, d)", "d/f");
		if (rename("d", out) < 0)
			say("note: could not move it back: %s", strerror(errno));
	} else {
		refused("rename(OUT/d, d)", errno, EACCES);
	}
	if (mkdir("e", 0755) < 0)
		setup_failed("mkdir e");
	if (syscall(SYS_renameat2, AT_FDCWD, "e", AT_FDCWD, out, RENAME_EXCHANGE) == 0) {
		write_through("renameat2(e, OUT/d, RENAME_EXCHANGE)", "e/f");
		if (syscall(SYS_renameat2, AT_FDCWD, "e", AT_FDCWD, out, RENAME_EXCHANGE) < 0)
			say("note: could not exchange them back: %s", strerror(errno));
	} else {
		refused("renameat2(e, OUT/d, RENAME_EXCHANGE)", errno, EACCES);
	}
	if (slurp(f, buf, sizeof(buf)) < 0)
		setup_failed("read OUT/d/f");
	if (strstr(buf, "INJECTED") != NULL) {
		att_through = 1;
		say("LEAK: OUT/d/f was changed: %s", buf);
	}
}

/* A change that must fail: "LEAK" when it did not. */
static void must_fail(const char *what, int rc)
{
	if (rc >= 0) {
		att_through = 1;
		say("LEAK: %s succeeded", what);
	} else {
		refused(what, errno, EACCES);
	}
}

/* A change of the session's own object that must work: "WRONG" when it did not. */
static void must_work(const char *what, int rc)
{
	if (rc < 0)
		wrong("%s: %s", what, strerror(errno));
}

/*
 * Another program's object in /dev/shm (WARD_SHM_VICTIM, made before the
 * session: a database's shared memory, a service's semaphore), which the
 * default profile's allow for writing in /dev/shm reaches by name: written,
 * truncated, replaced, moved, linked, removed.  The session's own objects
 * there (shm_open, sem_open, a directory) stay its to change.
 */
static void mode_shm(void)
{
	const char *v = getenv("WARD_SHM_VICTIM");
	char own[128], own2[128], other[128], dir[128], in[160], sl[128], tmpn[128], magic[64];
	int fd, pid = (int)getpid();

	if (v == NULL)
		setup_failed("WARD_SHM_VICTIM unset");
	snprintf(own, sizeof(own), "/dev/shm/ward-own-%d", pid);
	snprintf(own2, sizeof(own2), "/dev/shm/ward-own2-%d", pid);
	snprintf(other, sizeof(other), "/dev/shm/ward-moved-%d", pid);
	snprintf(dir, sizeof(dir), "/dev/shm/ward-dir-%d", pid);
	snprintf(in, sizeof(in), "%s/f", dir);
	snprintf(sl, sizeof(sl), "/dev/shm/ward-sl-%d", pid);
	snprintf(tmpn, sizeof(tmpn), "/dev/shm/ward-tmp-%d", pid);

	/* The victim is readable, as the user's other files are. */
	if ((fd = open(v, O_RDONLY | O_CLOEXEC)) < 0)
		wrong("open(victim, O_RDONLY): %s", strerror(errno));
	else
		close(fd);

	fd = open(v, O_RDWR | O_CLOEXEC);
	must_fail("open(victim, O_RDWR)", fd);
	if (fd >= 0) {
		if (write(fd, "INJECTED", 8) != 8)
			say("note: the write failed");
		close(fd);
	}
	fd = open(v, O_RDWR | O_CREAT | O_CLOEXEC, 0600); /* shm_open(name, O_CREAT|O_RDWR) */
	must_fail("open(victim, O_RDWR|O_CREAT)", fd);
	if (fd >= 0)
		close(fd);
	fd = open(v, O_WRONLY | O_TRUNC | O_CLOEXEC);
	must_fail("open(victim, O_WRONLY|O_TRUNC)", fd);
	if (fd >= 0)
		close(fd);
	must_fail("truncate(victim)", truncate(v, 0));
	must_fail("chmod(victim)", chmod(v, 0666));
	must_fail("utimensat(victim)", utimensat(AT_FDCWD, v, NULL, 0));
	must_fail("unlink(victim)", unlink(v));
	must_fail("rename(victim, elsewhere in /dev/shm)", rename(v, other));
	must_fail("link(victim, a new name)", link(v, other));
	/* Through a symlink of the agent's, and through /proc/self/fd of an O_PATH fd. */
	must_work("symlink to the victim", symlink(v, sl));
	fd = open(sl, O_RDWR | O_CLOEXEC);
	must_fail("open(symlink to victim, O_RDWR)", fd);
	if (fd >= 0)
		close(fd);
	must_work("unlink own symlink", unlink(sl));
	int opath = open(v, O_PATH | O_CLOEXEC);
	if (opath >= 0) {
		snprintf(magic, sizeof(magic), "/proc/self/fd/%d", opath);
		fd = open(magic, O_RDWR | O_CLOEXEC);
		must_fail("open(/proc/self/fd/N of the victim, O_RDWR)", fd);
		if (fd >= 0)
			close(fd);
		close(opath);
	}

	/* The session's own: made, written, truncated, moved, removed. */
	fd = open(own, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	must_work("create own", fd);
	if (fd >= 0) {
		must_work("ftruncate own", ftruncate(fd, 4096));
		close(fd);
	}
	fd = open(own, O_RDWR | O_CLOEXEC);
	must_work("reopen own O_RDWR", fd);
	if (fd >= 0)
		close(fd);
	must_work("truncate own", truncate(own, 0));
	must_work("chmod own", chmod(own, 0644));
	/* Own over the victim: it would replace another's object. */
	must_fail("rename(own, victim)", rename(own, v));
	must_fail("renameat2(own, victim, RENAME_EXCHANGE)",
		  (int)syscall(SYS_renameat2, AT_FDCWD, own, AT_FDCWD, v, 2 /* RENAME_EXCHANGE */));
	must_work("rename own", rename(own, own2));
	must_work("unlink own", unlink(own2));
	must_work("mkdir own", mkdir(dir, 0700));
	fd = open(in, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	must_work("create in own directory", fd);
	if (fd >= 0)
		close(fd);
	must_work("unlink in own directory", unlink(in));
	must_work("rmdir own", rmdir(dir));
	/* sem_open's way: a file made under a temporary name, linked in under its own. */
	fd = open(own, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	must_work("create a temporary name", fd);
	if (fd >= 0)
		close(fd);
	must_work("link it in", link(own, tmpn));
	must_work("unlink the temporary name", unlink(own));
	fd = open(tmpn, O_RDWR | O_CLOEXEC);
	must_work("reopen the linked name", fd);
	if (fd >= 0)
		close(fd);
	must_work("unlink the linked name", unlink(tmpn));
}

/* "top" made a symlink is the attack's goal. */
static void top_is_link(const char *how)
{
	struct stat st;
	if (lstat("top", &st) == 0 && S_ISLNK(st.st_mode)) {
		char t[256];
		ssize_t n = readlink("top", t, sizeof(t) - 1);
		t[n > 0 ? n : 0] = '\0';
		att_through = 1;
		say("LEAK: %s: top is now a symlink to %s", how, t);
		unlink("top");
	} else {
		blocked("%s: top is no symlink", how);
	}
}

/*
 * A name not there yet, below which a rule guards something (top/guard/..,
 * as ~/.config/ward/ is guarded before ~/.config exists), made a symlink to
 * the agent's own directory, so that what the rule keeps from the agent
 * lands in mine/guard/ and is read later by its name: directly, through a
 * link the agent retargets later, with ".." after a name that does not
 * exist yet, as a hard link of a symlink, by rename.  Links that take
 * nothing out of a rule's reach still work (to a place where the same
 * rules hold, too).
 */
static void mode_pivot(void)
{
	if (mkdir("mine", 0755) < 0 || mkdir("mine/guard", 0755) < 0)
		setup_failed("mkdir mine/guard");

	symlink("mine", "top");
	top_is_link("symlink(mine, top)");
	symlink("/", "top");
	top_is_link("symlink(/, top)");
	/* A loop now (s leads back to top), retargeted afterwards. */
	if (symlink("top", "s") < 0)
		wrong("symlink(top, s), a link into the guarded place: %s", strerror(errno));
	symlink("s", "top");
	unlink("s");
	symlink("mine", "s");
	top_is_link("symlink(s, top), then s retargeted to mine");
	unlink("s");
	/* ".." after a name that is not there yet: nx may become a link later. */
	symlink("nx/../mine", "top");
	top_is_link("symlink(nx/../mine, top)");
	/*
	 * ".." out of a directory the agent may replace: a/b/../../top2 leads to
	 * top2 (guarded alike) now, and to q/top2, the agent's, once a/b is a
	 * link to q/r/s (found by review).
	 */
	if (mkdir("a", 0755) < 0 || mkdir("a/b", 0755) < 0 || mkdir("q", 0755) < 0 ||
	    mkdir("q/r", 0755) < 0 || mkdir("q/r/s", 0755) < 0 || mkdir("q/top2", 0755) < 0)
		setup_failed("mkdir a/b q/r/s");
	symlink("a/b/../../top2", "top");
	if (rename("a/b", "a/b0") == 0 && symlink("../q/r/s", "a/b") == 0) {
		struct stat st;
		if (lstat("top", &st) == 0 && mkdir("top/guard", 0755) == 0) {
			att_through = 1;
			say("LEAK: top -> a/b/../../top2, then a/b a link: top/guard made in q/top2");
		}
	}
	top_is_link("symlink(a/b/../../top2, top), then a/b swapped for a link");
	/* ".." out of the link's own directory, which may be moved with the link. */
	char cwd[PATH_MAX], up[PATH_MAX + 16];
	if (getcwd(cwd, sizeof(cwd)) == NULL)
		setup_failed("getcwd");
	snprintf(up, sizeof(up), "../%s/top2", strrchr(cwd, '/') + 1);
	symlink(up, "top");
	top_is_link("symlink(../PROJECT/top2, top)");
	/* /proc/self leads elsewhere for each process that follows it. */
	snprintf(up, sizeof(up), "/proc/self/cwd/top2");
	symlink(up, "top");
	top_is_link("symlink(/proc/self/cwd/top2, top)");
	/* A hard link of a symlink is a symlink. */
	if (symlink("mine", "l1") < 0)
		setup_failed("symlink l1");
	linkat(AT_FDCWD, "l1", AT_FDCWD, "top", 0);
	top_is_link("linkat(l1 -> mine, top)");
	rename("l1", "top");
	top_is_link("rename(l1 -> mine, top)");
	unlink("l1");

	/* What takes nothing out of a rule's reach (one rule guards top, top2 and top3 alike). */
	if (symlink("top2", "top") < 0)
		wrong("symlink(top2, top), where the same rules hold: %s", strerror(errno));
	unlink("top");
	if (symlink("top3", "top2") < 0 || rename("top2", "top") < 0)
		wrong("symlink(top3, top2), rename(top2, top): %s", strerror(errno));
	unlink("top");
	if (symlink("mine", "plain") < 0)
		wrong("symlink(mine, plain): %s", strerror(errno));
	if (mkdir("mine/d", 0755) < 0 || symlink("../d", "mine/e") < 0)
		wrong("symlink(../d, mine/e): %s", strerror(errno));
	if (symlink("/usr/lib", "lib") < 0)
		wrong("symlink(/usr/lib, lib): %s", strerror(errno));
	if (rename("plain", "plain2") < 0)
		wrong("rename(plain, plain2): %s", strerror(errno));
	if (link("plain2", "plain3") < 0)
		wrong("link(plain2, plain3): %s", strerror(errno));
}

static void read_secret(const char *path)
{
	char buf[256];
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		char what[256];
		snprintf(what, sizeof(what), "open(%s)", path);
		refused(what, errno, EACCES);
		return;
	}
	ssize_t n = read(fd, buf, sizeof(buf));
	if (n > 0)
		leak(path, buf, (size_t)n);
	close(fd);
}

static void mode_stow(void)
{
	const char *home = getenv("HOME_DIR");
	char path[PATH_MAX];

	if (home == NULL)
		setup_failed("HOME_DIR unset");
	change("dot/git/config");
	snprintf(path, sizeof(path), "%s/.config/git/config", home);
	change(path);
	change("dot/shell/bashrc");
	change("dot/bashrc"); /* the middle link: a file of the agent's there */
	if (symlink("shell/other", "dot/bashrc") == 0) {
		att_through = 1;
		say("LEAK: symlink(shell/other, dot/bashrc) took the place of the middle link");
	}
	read_secret("dot/kube/config");
	snprintf(path, sizeof(path), "%s/.kube/config", home);
	read_secret(path);
	must_fail("mkdir(dot/vimpack/start)", mkdir("dot/vimpack/start", 0755));
	must_fail("open(dot/vimpack/evil.vim, O_CREAT)",
		  open("dot/vimpack/evil.vim", O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	must_fail("open(dot/ipy/startup/evil.py, O_CREAT)",
		  open("dot/ipy/startup/evil.py", O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	must_fail("open(dot/x.desktop, O_CREAT)",
		  open("dot/x.desktop", O_WRONLY | O_CREAT | O_CLOEXEC, 0644));
	/* Only what the rules reach through the links is kept. */
	int fd = open("dot/ipy/notes", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	must_work("open(dot/ipy/notes, O_CREAT)", fd);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";

	if (strcmp(mode, "hardlink") == 0)
		mode_hardlink();
	else if (strcmp(mode, "rename") == 0)
		mode_rename();
	else if (strcmp(mode, "renamerace") == 0)
		mode_renamerace();
	else if (strcmp(mode, "globdir") == 0)
		mode_globdir();
	else if (strcmp(mode, "whiteout") == 0)
		mode_whiteout();
	else if (strcmp(mode, "roundtrip") == 0)
		mode_roundtrip();
	else if (strcmp(mode, "hooks") == 0)
		mode_hooks();
	else if (strcmp(mode, "gitdir") == 0)
		mode_gitdir();
	else if (strcmp(mode, "policyfile") == 0)
		mode_policyfile();
	else if (strcmp(mode, "gitcommon") == 0)
		mode_gitcommon();
	else if (strcmp(mode, "chattr") == 0)
		mode_chattr();
	else if (strcmp(mode, "core") == 0)
		mode_core();
	else if (strcmp(mode, "shm") == 0)
		mode_shm();
	else if (strcmp(mode, "pivot") == 0)
		mode_pivot();
	else if (strcmp(mode, "stow") == 0)
		mode_stow();
	else
		setup_failed("unknown mode");
	return finish();
}
