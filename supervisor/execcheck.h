/*
 * execcheck.h - exec verification: what the exec handler allowed a thread
 * to run (a grant), checked by the tracer at PTRACE_EVENT_EXEC.
 */
#ifndef WARD_EXECCHECK_H
#define WARD_EXECCHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <time.h>

/* What the tracer allowed a thread to exec, checked at PTRACE_EVENT_EXEC. */
struct exec_grant {
	bool set;
	bool script;	    /* run through "#!": the kernel rewrote argv's head */
	bool is_static;	    /* the program has no interpreter */
	dev_t dev;	    /* the file /proc/PID/exe must be */
	ino_t ino;
	struct timespec ctime; /* ...unchanged since it was judged (st_ctim, st_size) */
	off_t size;
	uint8_t argv_mac[32]; /* HMAC-SHA256 (session key) over argv, NULs included */
	uint8_t tail_mac[32]; /* the same over argv[1..] */
	uint8_t name_mac[32]; /* a script: the file name the kernel passes its interpreter */
	size_t argv_len;
	int argc;
	/*
	 * The file whose code runs first: the ELF interpreter (PT_INTERP) the
	 * kernel loads for the program, or the program itself.  Its id as
	 * stat tells it, and as /proc/PID/maps shows it (which differs on
	 * overlayfs before Linux 6.8: the layer's file, not the overlay's).
	 */
	dev_t run_dev, run_map_dev;
	ino_t run_ino, run_map_ino;
	bool interp; /* ...and it is the program's ELF interpreter */
	/*
	 * Where maps ids do not tell files apart (a btrfs subvolume's inode
	 * numbers are counted apart, under one device in maps): a SHA-256 of
	 * the interpreter's first bytes, which its mapping must hold too.
	 */
	bool run_hashed;
	size_t run_head_len;
	uint8_t run_head_sha[32];
	/*
	 * ld.so PROG: the loader opens PROG itself, by the name in its argv,
	 * after the exec.  The file it must find there, and a MAC of the name.
	 */
	bool loader;
	dev_t prog_dev;
	ino_t prog_ino;
	uint8_t prog_mac[32];
};

/*
 * argv is compared by a keyed MAC: the key is random per session and the
 * agent never sees it, so it cannot make two argvs that compare equal.
 */
void argv_mac(const void *data, size_t len, uint8_t out[32]);
/*
 * The ids of the file behind fd as the tracer will find them in
 * /proc/PID/maps: fstat's (run_dev, run_ino) and the maps view of them
 * (run_map_dev, run_map_ino), into g.  Left at fstat's when that cannot be
 * learnt: the exec is then killed, not let through.
 */
int exec_run_ids(int fd, struct exec_grant *g);
/*
 * At PTRACE_EVENT_EXEC of pid (former: the thread that called exec, whose
 * grant it was): the process must run the file that was allowed, with the
 * argv that was read.  Returns true when it does; exe holds its
 * executable, cmd the argv read (*cmdlen bytes).
 */
bool exec_verify(pid_t pid, pid_t former, struct exec_grant *g, char *exe, size_t exelen,
		 char *cmd, size_t cmdsize, ssize_t *cmdlen);

#endif
