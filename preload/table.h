/*
 * table.h - THE table of the functions libward-preload.so wraps.
 *
 * One row per exported symbol version.  The library generates its
 * wrappers, the pointers to the real functions and its version script from
 * it; ward takes the names for the log's `via` field and how a hint
 * matches a syscall from it; the unit test checks it against the built
 * library and against glibc.  A row's id (the wrapper's `fn` in a hint
 * slot) is its position in the table, from 1.
 *
 *   W(cname, sym, ver, vk, fam, match, kind, ret, fail, params, args, key)
 *
 *   cname    C name of the row (w_CNAME is the wrapper, r_CNAME the real one)
 *   sym      the symbol as glibc exports it
 *   ver      glibc's version of it (x86-64, glibc 2.36)
 *   vk       DFL: the default version (sym@@ver); OLD: an older one (sym@ver)
 *   fam      FILE, EXEC or NET (ward_hint.h): the syscalls a hint describes
 *   match    ARG: key is a pointer the syscall carries; ANY: any syscall of
 *            the family during the call (the call builds its own buffers,
 *            or makes its syscalls in a child)
 *   kind     GEN: wrapper generated from the row; OWN: written in preload.c
 *            (variadic, or it changes the environment or records names)
 *   ret, fail, params, args, key: the prototype, what it returns when the
 *            real function is missing, and the key expression
 */
#ifndef WARD_PRELOAD_TABLE_H
#define WARD_PRELOAD_TABLE_H

#define WARD_PRELOAD_TABLE(W) \
	/* ---- open ---- */ \
	W(open, open, "GLIBC_2.2.5", DFL, FILE, ARG, OWN, int, -1, (const char *path, int flags, ...), (path, flags, mode), path) \
	W(open64, open64, "GLIBC_2.2.5", DFL, FILE, ARG, OWN, int, -1, (const char *path, int flags, ...), (path, flags, mode), path) \
	W(openat, openat, "GLIBC_2.4", DFL, FILE, ARG, OWN, int, -1, (int dirfd, const char *path, int flags, ...), (dirfd, path, flags, mode), path) \
	W(openat64, openat64, "GLIBC_2.4", DFL, FILE, ARG, OWN, int, -1, (int dirfd, const char *path, int flags, ...), (dirfd, path, flags, mode), path) \
	W(__open_2, __open_2, "GLIBC_2.7", DFL, FILE, ARG, GEN, int, -1, (const char *path, int flags), (path, flags), path) \
	W(__open64_2, __open64_2, "GLIBC_2.7", DFL, FILE, ARG, GEN, int, -1, (const char *path, int flags), (path, flags), path) \
	W(__openat_2, __openat_2, "GLIBC_2.7", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, int flags), (dirfd, path, flags), path) \
	W(__openat64_2, __openat64_2, "GLIBC_2.7", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, int flags), (dirfd, path, flags), path) \
	W(creat, creat, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, mode_t mode), (path, mode), path) \
	W(creat64, creat64, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, mode_t mode), (path, mode), path) \
	W(fopen, fopen, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, FILE *, NULL, (const char *path, const char *mode), (path, mode), path) \
	W(fopen64, fopen64, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, FILE *, NULL, (const char *path, const char *mode), (path, mode), path) \
	W(freopen, freopen, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, FILE *, NULL, (const char *path, const char *mode, FILE *f), (path, mode, f), path) \
	W(freopen64, freopen64, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, FILE *, NULL, (const char *path, const char *mode, FILE *f), (path, mode, f), path) \
	W(opendir, opendir, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, DIR *, NULL, (const char *path), (path), path) \
	/* ---- stat ---- */ \
	W(stat, stat, "GLIBC_2.33", DFL, FILE, ARG, GEN, int, -1, (const char *path, struct stat *st), (path, st), path) \
	W(stat64, stat64, "GLIBC_2.33", DFL, FILE, ARG, GEN, int, -1, (const char *path, struct stat64 *st), (path, st), path) \
	W(lstat, lstat, "GLIBC_2.33", DFL, FILE, ARG, GEN, int, -1, (const char *path, struct stat *st), (path, st), path) \
	W(lstat64, lstat64, "GLIBC_2.33", DFL, FILE, ARG, GEN, int, -1, (const char *path, struct stat64 *st), (path, st), path) \
	W(fstatat, fstatat, "GLIBC_2.33", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, struct stat *st, int flag), (dirfd, path, st, flag), path) \
	W(fstatat64, fstatat64, "GLIBC_2.33", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, struct stat64 *st, int flag), (dirfd, path, st, flag), path) \
	W(statx, statx, "GLIBC_2.28", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, int flags, unsigned mask, struct statx *stx), (dirfd, path, flags, mask, stx), path) \
	W(__xstat, __xstat, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (int v, const char *path, struct stat *st), (v, path, st), path) \
	W(__xstat64, __xstat64, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (int v, const char *path, struct stat64 *st), (v, path, st), path) \
	W(__lxstat, __lxstat, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (int v, const char *path, struct stat *st), (v, path, st), path) \
	W(__lxstat64, __lxstat64, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (int v, const char *path, struct stat64 *st), (v, path, st), path) \
	W(__fxstatat, __fxstatat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int v, int dirfd, const char *path, struct stat *st, int flag), (v, dirfd, path, st, flag), path) \
	W(__fxstatat64, __fxstatat64, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int v, int dirfd, const char *path, struct stat64 *st, int flag), (v, dirfd, path, st, flag), path) \
	W(access, access, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, int mode), (path, mode), path) \
	W(faccessat, faccessat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, int mode, int flag), (dirfd, path, mode, flag), path) \
	W(euidaccess, euidaccess, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, int mode), (path, mode), path) \
	W(eaccess, eaccess, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (const char *path, int mode), (path, mode), path) \
	W(readlink, readlink, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, ssize_t, -1, (const char *path, char *buf, size_t len), (path, buf, len), path) \
	W(readlinkat, readlinkat, "GLIBC_2.4", DFL, FILE, ARG, GEN, ssize_t, -1, (int dirfd, const char *path, char *buf, size_t len), (dirfd, path, buf, len), path) \
	W(__readlink_chk, __readlink_chk, "GLIBC_2.4", DFL, FILE, ARG, GEN, ssize_t, -1, (const char *path, char *buf, size_t len, size_t buflen), (path, buf, len, buflen), path) \
	W(__readlinkat_chk, __readlinkat_chk, "GLIBC_2.5", DFL, FILE, ARG, GEN, ssize_t, -1, (int dirfd, const char *path, char *buf, size_t len, size_t buflen), (dirfd, path, buf, len, buflen), path) \
	W(realpath, realpath, "GLIBC_2.3", DFL, FILE, ANY, GEN, char *, NULL, (const char *path, char *out), (path, out), 0) \
	W(realpath_old, realpath, "GLIBC_2.2.5", OLD, FILE, ANY, GEN, char *, NULL, (const char *path, char *out), (path, out), 0) \
	W(__realpath_chk, __realpath_chk, "GLIBC_2.4", DFL, FILE, ANY, GEN, char *, NULL, (const char *path, char *out, size_t outlen), (path, out, outlen), 0) \
	W(canonicalize_file_name, canonicalize_file_name, "GLIBC_2.2.5", DFL, FILE, ANY, GEN, char *, NULL, (const char *path), (path), 0) \
	/* ---- change ---- */ \
	W(mkdir, mkdir, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, mode_t mode), (path, mode), path) \
	W(mkdirat, mkdirat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, mode_t mode), (dirfd, path, mode), path) \
	W(unlink, unlink, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path), (path), path) \
	W(unlinkat, unlinkat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, int flag), (dirfd, path, flag), path) \
	W(rmdir, rmdir, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path), (path), path) \
	W(rename, rename, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *from, const char *to), (from, to), from) \
	W(renameat, renameat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int fromfd, const char *from, int tofd, const char *to), (fromfd, from, tofd, to), from) \
	W(renameat2, renameat2, "GLIBC_2.28", DFL, FILE, ARG, GEN, int, -1, (int fromfd, const char *from, int tofd, const char *to, unsigned flags), (fromfd, from, tofd, to, flags), from) \
	W(link, link, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *from, const char *to), (from, to), to) \
	W(linkat, linkat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int fromfd, const char *from, int tofd, const char *to, int flags), (fromfd, from, tofd, to, flags), to) \
	W(symlink, symlink, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *target, const char *path), (target, path), path) \
	W(symlinkat, symlinkat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (const char *target, int dirfd, const char *path), (target, dirfd, path), path) \
	W(chmod, chmod, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, mode_t mode), (path, mode), path) \
	W(fchmod, fchmod, "GLIBC_2.2.5", DFL, FILE, ANY, GEN, int, -1, (int fd, mode_t mode), (fd, mode), 0) \
	W(fchmodat, fchmodat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, mode_t mode, int flag), (dirfd, path, mode, flag), path) \
	W(lchmod, lchmod, "GLIBC_2.3.2", DFL, FILE, ARG, GEN, int, -1, (const char *path, mode_t mode), (path, mode), path) \
	W(chown, chown, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, uid_t u, gid_t g), (path, u, g), path) \
	W(lchown, lchown, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, uid_t u, gid_t g), (path, u, g), path) \
	W(fchown, fchown, "GLIBC_2.2.5", DFL, FILE, ANY, GEN, int, -1, (int fd, uid_t u, gid_t g), (fd, u, g), 0) \
	W(fchownat, fchownat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, uid_t u, gid_t g, int flag), (dirfd, path, u, g, flag), path) \
	W(truncate, truncate, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, off_t len), (path, len), path) \
	W(truncate64, truncate64, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, off64_t len), (path, len), path) \
	W(utime, utime, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, const struct utimbuf *t), (path, t), path) \
	W(utimes, utimes, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (const char *path, const struct timeval t[2]), (path, t), path) \
	W(lutimes, lutimes, "GLIBC_2.3", DFL, FILE, ARG, GEN, int, -1, (const char *path, const struct timeval t[2]), (path, t), path) \
	W(futimesat, futimesat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, const struct timeval t[2]), (dirfd, path, t), path) \
	W(utimensat, utimensat, "GLIBC_2.6", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, const struct timespec t[2], int flag), (dirfd, path, t, flag), path) \
	W(futimens, futimens, "GLIBC_2.6", DFL, FILE, ANY, GEN, int, -1, (int fd, const struct timespec t[2]), (fd, t), 0) \
	W(setxattr, setxattr, "GLIBC_2.3", DFL, FILE, ARG, GEN, int, -1, (const char *path, const char *name, const void *v, size_t n, int flags), (path, name, v, n, flags), path) \
	W(lsetxattr, lsetxattr, "GLIBC_2.3", DFL, FILE, ARG, GEN, int, -1, (const char *path, const char *name, const void *v, size_t n, int flags), (path, name, v, n, flags), path) \
	W(fsetxattr, fsetxattr, "GLIBC_2.3", DFL, FILE, ANY, GEN, int, -1, (int fd, const char *name, const void *v, size_t n, int flags), (fd, name, v, n, flags), 0) \
	W(getxattr, getxattr, "GLIBC_2.3", DFL, FILE, ARG, GEN, ssize_t, -1, (const char *path, const char *name, void *v, size_t n), (path, name, v, n), path) \
	W(lgetxattr, lgetxattr, "GLIBC_2.3", DFL, FILE, ARG, GEN, ssize_t, -1, (const char *path, const char *name, void *v, size_t n), (path, name, v, n), path) \
	W(fgetxattr, fgetxattr, "GLIBC_2.3", DFL, FILE, ANY, GEN, ssize_t, -1, (int fd, const char *name, void *v, size_t n), (fd, name, v, n), 0) \
	W(listxattr, listxattr, "GLIBC_2.3", DFL, FILE, ARG, GEN, ssize_t, -1, (const char *path, char *list, size_t n), (path, list, n), path) \
	W(llistxattr, llistxattr, "GLIBC_2.3", DFL, FILE, ARG, GEN, ssize_t, -1, (const char *path, char *list, size_t n), (path, list, n), path) \
	W(flistxattr, flistxattr, "GLIBC_2.3", DFL, FILE, ANY, GEN, ssize_t, -1, (int fd, char *list, size_t n), (fd, list, n), 0) \
	W(removexattr, removexattr, "GLIBC_2.3", DFL, FILE, ARG, GEN, int, -1, (const char *path, const char *name), (path, name), path) \
	W(lremovexattr, lremovexattr, "GLIBC_2.3", DFL, FILE, ARG, GEN, int, -1, (const char *path, const char *name), (path, name), path) \
	W(fremovexattr, fremovexattr, "GLIBC_2.3", DFL, FILE, ANY, GEN, int, -1, (int fd, const char *name), (fd, name), 0) \
	W(mknod, mknod, "GLIBC_2.33", DFL, FILE, ARG, GEN, int, -1, (const char *path, mode_t mode, dev_t dev), (path, mode, dev), path) \
	W(mknodat, mknodat, "GLIBC_2.33", DFL, FILE, ARG, GEN, int, -1, (int dirfd, const char *path, mode_t mode, dev_t dev), (dirfd, path, mode, dev), path) \
	W(__xmknod, __xmknod, "GLIBC_2.2.5", DFL, FILE, ARG, GEN, int, -1, (int v, const char *path, mode_t mode, dev_t *dev), (v, path, mode, dev), path) \
	W(__xmknodat, __xmknodat, "GLIBC_2.4", DFL, FILE, ARG, GEN, int, -1, (int v, int dirfd, const char *path, mode_t mode, dev_t *dev), (v, dirfd, path, mode, dev), path) \
	/* ---- exec and spawn: all put the library back into the environment ---- */ \
	W(execve, execve, "GLIBC_2.2.5", DFL, EXEC, ARG, OWN, int, -1, (const char *path, char *const argv[], char *const envp[]), (path, argv, envp), path) \
	W(execv, execv, "GLIBC_2.2.5", DFL, EXEC, ARG, OWN, int, -1, (const char *path, char *const argv[]), (path, argv), path) \
	W(execvp, execvp, "GLIBC_2.2.5", DFL, EXEC, ANY, OWN, int, -1, (const char *file, char *const argv[]), (file, argv), 0) \
	W(execvpe, execvpe, "GLIBC_2.11", DFL, EXEC, ANY, OWN, int, -1, (const char *file, char *const argv[], char *const envp[]), (file, argv, envp), 0) \
	W(execl, execl, "GLIBC_2.2.5", DFL, EXEC, ARG, OWN, int, -1, (const char *path, const char *arg, ...), (), path) \
	W(execlp, execlp, "GLIBC_2.2.5", DFL, EXEC, ANY, OWN, int, -1, (const char *file, const char *arg, ...), (), 0) \
	W(execle, execle, "GLIBC_2.2.5", DFL, EXEC, ARG, OWN, int, -1, (const char *path, const char *arg, ...), (), path) \
	W(fexecve, fexecve, "GLIBC_2.2.5", DFL, EXEC, ANY, OWN, int, -1, (int fd, char *const argv[], char *const envp[]), (fd, argv, envp), 0) \
	W(execveat, execveat, "GLIBC_2.34", DFL, EXEC, ARG, OWN, int, -1, (int dirfd, const char *path, char *const argv[], char *const envp[], int flags), (dirfd, path, argv, envp, flags), path) \
	W(posix_spawn, posix_spawn, "GLIBC_2.15", DFL, EXEC, ANY, OWN, int, ENOSYS, (pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr, char *const argv[], char *const envp[]), (pid, path, fa, attr, argv, envp), 0) \
	W(posix_spawn_old, posix_spawn, "GLIBC_2.2.5", OLD, EXEC, ANY, OWN, int, ENOSYS, (pid_t *pid, const char *path, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr, char *const argv[], char *const envp[]), (pid, path, fa, attr, argv, envp), 0) \
	W(posix_spawnp, posix_spawnp, "GLIBC_2.15", DFL, EXEC, ANY, OWN, int, ENOSYS, (pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr, char *const argv[], char *const envp[]), (pid, file, fa, attr, argv, envp), 0) \
	W(posix_spawnp_old, posix_spawnp, "GLIBC_2.2.5", OLD, EXEC, ANY, OWN, int, ENOSYS, (pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa, const posix_spawnattr_t *attr, char *const argv[], char *const envp[]), (pid, file, fa, attr, argv, envp), 0) \
	W(system, system, "GLIBC_2.2.5", DFL, EXEC, ANY, OWN, int, -1, (const char *cmd), (cmd), 0) \
	W(popen, popen, "GLIBC_2.2.5", DFL, EXEC, ANY, OWN, FILE *, NULL, (const char *cmd, const char *mode), (cmd, mode), 0) \
	/* ---- network ---- */ \
	W(socket, socket, "GLIBC_2.2.5", DFL, NET, ANY, GEN, int, -1, (int domain, int type, int proto), (domain, type, proto), 0) \
	W(connect, connect, "GLIBC_2.2.5", DFL, NET, ARG, GEN, int, -1, (int fd, const struct sockaddr *addr, socklen_t len), (fd, addr, len), addr) \
	W(bind, bind, "GLIBC_2.2.5", DFL, NET, ARG, GEN, int, -1, (int fd, const struct sockaddr *addr, socklen_t len), (fd, addr, len), addr) \
	W(sendto, sendto, "GLIBC_2.2.5", DFL, NET, ARG, GEN, ssize_t, -1, (int fd, const void *buf, size_t n, int flags, const struct sockaddr *addr, socklen_t len), (fd, buf, n, flags, addr, len), addr) \
	W(sendmsg, sendmsg, "GLIBC_2.2.5", DFL, NET, ARG, GEN, ssize_t, -1, (int fd, const struct msghdr *msg, int flags), (fd, msg, flags), msg) \
	W(sendmmsg, sendmmsg, "GLIBC_2.14", DFL, NET, ARG, GEN, int, -1, (int fd, struct mmsghdr *vec, unsigned n, int flags), (fd, vec, n, flags), vec) \
	/* ---- the resolver: records which name gave which address ---- */ \
	W(getaddrinfo, getaddrinfo, "GLIBC_2.2.5", DFL, NET, ANY, OWN, int, EAI_SYSTEM, (const char *node, const char *service, const struct addrinfo *hints, struct addrinfo **res), (node, service, hints, res), 0) \
	W(gethostbyname, gethostbyname, "GLIBC_2.2.5", DFL, NET, ANY, OWN, struct hostent *, NULL, (const char *name), (name), 0) \
	W(gethostbyname2, gethostbyname2, "GLIBC_2.2.5", DFL, NET, ANY, OWN, struct hostent *, NULL, (const char *name, int af), (name, af), 0) \
	W(gethostbyname_r, gethostbyname_r, "GLIBC_2.2.5", DFL, NET, ANY, OWN, int, ENOSYS, (const char *name, struct hostent *ret, char *buf, size_t len, struct hostent **result, int *h_errnop), (name, ret, buf, len, result, h_errnop), 0) \
	W(gethostbyname2_r, gethostbyname2_r, "GLIBC_2.2.5", DFL, NET, ANY, OWN, int, ENOSYS, (const char *name, int af, struct hostent *ret, char *buf, size_t len, struct hostent **result, int *h_errnop), (name, af, ret, buf, len, result, h_errnop), 0) \
	W(res_query, res_query, "GLIBC_2.34", DFL, NET, ANY, OWN, int, -1, (const char *dname, int cls, int type, unsigned char *answer, int anslen), (dname, cls, type, answer, anslen), 0) \
	W(res_search, res_search, "GLIBC_2.34", DFL, NET, ANY, OWN, int, -1, (const char *dname, int cls, int type, unsigned char *answer, int anslen), (dname, cls, type, answer, anslen), 0) \
	W(res_querydomain, res_querydomain, "GLIBC_2.34", DFL, NET, ANY, OWN, int, -1, (const char *name, const char *domain, int cls, int type, unsigned char *answer, int anslen), (name, domain, cls, type, answer, anslen), 0) \
	W(res_nquery, res_nquery, "GLIBC_2.34", DFL, NET, ANY, OWN, int, -1, (res_state st, const char *dname, int cls, int type, unsigned char *answer, int anslen), (st, dname, cls, type, answer, anslen), 0) \
	W(res_nsearch, res_nsearch, "GLIBC_2.34", DFL, NET, ANY, OWN, int, -1, (res_state st, const char *dname, int cls, int type, unsigned char *answer, int anslen), (st, dname, cls, type, answer, anslen), 0) \
	W(res_nquerydomain, res_nquerydomain, "GLIBC_2.34", DFL, NET, ANY, OWN, int, -1, (res_state st, const char *name, const char *domain, int cls, int type, unsigned char *answer, int anslen), (st, name, domain, cls, type, answer, anslen), 0) \
	W(__res_query, __res_query, "GLIBC_2.2.5", OLD, NET, ANY, OWN, int, -1, (const char *dname, int cls, int type, unsigned char *answer, int anslen), (dname, cls, type, answer, anslen), 0) \
	W(__res_search, __res_search, "GLIBC_2.2.5", OLD, NET, ANY, OWN, int, -1, (const char *dname, int cls, int type, unsigned char *answer, int anslen), (dname, cls, type, answer, anslen), 0) \
	W(__res_querydomain, __res_querydomain, "GLIBC_2.2.5", OLD, NET, ANY, OWN, int, -1, (const char *name, const char *domain, int cls, int type, unsigned char *answer, int anslen), (name, domain, cls, type, answer, anslen), 0) \
	W(__res_nquery, __res_nquery, "GLIBC_2.2.5", OLD, NET, ANY, OWN, int, -1, (res_state st, const char *dname, int cls, int type, unsigned char *answer, int anslen), (st, dname, cls, type, answer, anslen), 0) \
	W(__res_nsearch, __res_nsearch, "GLIBC_2.2.5", OLD, NET, ANY, OWN, int, -1, (res_state st, const char *dname, int cls, int type, unsigned char *answer, int anslen), (st, dname, cls, type, answer, anslen), 0) \
	W(__res_nquerydomain, __res_nquerydomain, "GLIBC_2.2.5", OLD, NET, ANY, OWN, int, -1, (res_state st, const char *name, const char *domain, int cls, int type, unsigned char *answer, int anslen), (st, name, domain, cls, type, answer, anslen), 0)

#endif
