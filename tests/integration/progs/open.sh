# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The open family of ward's syscall table:
# open, openat, openat2, creat (and inotify_add_watch): emulated, the fd
# injected with ADDFD; a FIFO's open and signals.
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

chk_open_basic() {
	content f 'old\nward\nward\n'
	content new 'ward\n'
	mode_is new 644
	logged '"syscall":"open"' '"op":"create"' "\"path\":\"$P/new\"" '"decision":"allow"'
	logged '"syscall":"open"' '"op":"write"' "\"path\":\"$P/f\"" '"decision":"allow"'
}
t -c chk_open_basic "open: read, append, O_RDWR, create, O_EXCL, O_TRUNC" open -u 022 \
	f O_RDONLY 0 \
	f 'O_WRONLY|O_APPEND' 0 \
	f 'O_RDWR|O_NONBLOCK|O_CLOEXEC' 0 \
	new 'O_WRONLY|O_CREAT|O_EXCL' 0666 \
	new 'O_WRONLY|O_CREAT|O_EXCL' 0666 \
	new 'O_RDWR|O_TRUNC' 0 <<EOF
umask(0022) = 0022
open("f", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(3, "old\n", 64) = 4
open("f", O_WRONLY|O_APPEND, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY|O_APPEND
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
write(3, "ward\n", 5) = 5
open("f", O_RDWR|O_NONBLOCK|O_CLOEXEC, 0) = 3
fcntl(3, F_GETFD) = 1
fcntl(3, F_GETFL) = O_RDWR|O_NONBLOCK
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=9}) = 0
read(3, "old\nward\n", 64) = 9
write(3, "ward\n", 5) = 5
open("new", O_WRONLY|O_CREAT|O_EXCL, 0666) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
open("new", O_WRONLY|O_CREAT|O_EXCL, 0666) = -1 EEXIST
open("new", O_RDWR|O_TRUNC, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDWR
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
read(3, "", 64) = 0
write(3, "ward\n", 5) = 5
EOF

chk_open_umask() {
	mode_is n1 600
	mode_is n2 700
	mode_is n3 600
}
t -c chk_open_umask "open: the umask (077) applies to the mode" open -u 077 \
	n1 'O_WRONLY|O_CREAT' 0666 \
	n2 'O_RDWR|O_CREAT|O_SYNC' 0777 \
	n3 'O_WRONLY|O_CREAT|O_DSYNC' 0644 <<EOF
umask(0077) = 0022
open("n1", O_WRONLY|O_CREAT, 0666) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0600, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
open("n2", O_RDWR|O_CREAT|O_SYNC, 0777) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDWR|O_SYNC
fstat(3, {st_mode=S_IFREG|0700, st_nlink=1, st_size=0}) = 0
read(3, "", 64) = 0
write(3, "ward\n", 5) = 5
open("n3", O_WRONLY|O_CREAT|O_DSYNC, 0644) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY|O_DSYNC
fstat(3, {st_mode=S_IFREG|0600, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
EOF

t -A "open: a default ACL replaces the umask" open -u 077 acl/n 'O_WRONLY|O_CREAT' 0666 <<EOF
umask(0077) = 0022
open("acl/n", O_WRONLY|O_CREAT, 0666) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0666, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
EOF

t "open: errors and the kinds of file" open \
	missing O_RDONLY 0 \
	dir O_WRONLY 0 \
	f O_DIRECTORY 0 \
	link O_NOFOLLOW 0 \
	loop O_RDONLY 0 \
	dangle O_RDONLY 0 \
	'' O_RDONLY 0 \
	NULL O_RDONLY 0 \
	dir/inner/x O_RDONLY 0 \
	missing/x O_RDONLY 0 \
	fifo 'O_WRONLY|O_NONBLOCK' 0 \
	'link' 'O_PATH|O_NOFOLLOW' 0 \
	dir 'O_RDONLY|O_DIRECTORY' 0 \
	fifo 'O_RDONLY|O_NONBLOCK' 0 \
	dirlink/inner O_RDONLY 0 \
	abslink O_RDONLY 0 \
	f O_PATH 0 <<EOF
open("missing", O_RDONLY, 0) = -1 ENOENT
open("dir", O_WRONLY, 0) = -1 EISDIR
open("f", O_DIRECTORY, 0) = -1 ENOTDIR
open("link", O_NOFOLLOW, 0) = -1 ELOOP
open("loop", O_RDONLY, 0) = -1 ELOOP
open("dangle", O_RDONLY, 0) = -1 ENOENT
open("", O_RDONLY, 0) = -1 ENOENT
open(NULL, O_RDONLY, 0) = -1 EFAULT
open("dir/inner/x", O_RDONLY, 0) = -1 ENOTDIR
open("missing/x", O_RDONLY, 0) = -1 ENOENT
open("fifo", O_WRONLY|O_NONBLOCK, 0) = -1 ENXIO
open("link", O_PATH|O_NOFOLLOW, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_PATH
fstat(3, {st_mode=S_IFLNK|0777, st_nlink=1, st_size=1}) = 0
open("dir", O_RDONLY|O_DIRECTORY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFDIR|0755}) = 0
open("fifo", O_RDONLY|O_NONBLOCK, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_NONBLOCK
fstat(3, {st_mode=S_IFIFO|0644, st_nlink=1, st_size=0}) = 0
open("dirlink/inner", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=6}) = 0
read(3, "inner\n", 64) = 6
open("abslink", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(3, "old\n", 64) = 4
open("f", O_PATH, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_PATH
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
EOF

# O_PATH only names an object: no permission on it is needed, nothing can
# be read or written through it, and any kind of file can be named.
t "open: O_PATH, of every kind of file" open \
	f O_PATH 0 \
	w200 O_PATH 0 \
	dir 'O_PATH|O_DIRECTORY' 0 \
	link 'O_PATH|O_NOFOLLOW' 0 \
	fifo O_PATH 0 \
	/dev/null 'O_PATH|O_CLOEXEC' 0 <<EOF
open("f", O_PATH, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_PATH
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
open("w200", O_PATH, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_PATH
fstat(3, {st_mode=S_IFREG|0200, st_nlink=1, st_size=2}) = 0
open("dir", O_PATH|O_DIRECTORY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_PATH
fstat(3, {st_mode=S_IFDIR|0755}) = 0
open("link", O_PATH|O_NOFOLLOW, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_PATH
fstat(3, {st_mode=S_IFLNK|0777, st_nlink=1, st_size=1}) = 0
open("fifo", O_PATH, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_PATH
fstat(3, {st_mode=S_IFIFO|0644, st_nlink=1, st_size=0}) = 0
open("/dev/null", O_PATH|O_CLOEXEC, 0) = 3
fcntl(3, F_GETFD) = 1
fcntl(3, F_GETFL) = O_RDONLY|O_PATH
fstat(3, {st_mode=S_IFCHR|0666, st_nlink=1, st_size=0}) = 0
EOF

t "open: 40 symlinks are followed, 41 are too many" open chain/l2 O_RDONLY 0 chain/l1 O_RDONLY 0 <<EOF
open("chain/l2", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(3, "old\n", 64) = 4
open("chain/l1", O_RDONLY, 0) = -1 ELOOP
EOF

# PATH_MAX (4096) counts the NUL: 4095 bytes are a path, 4096 are too long.
LONG=$(printf './%.0s' $(seq 2047))f
NAME255=$(printf 'a%.0s' $(seq 255))
t "open: the longest path and name, and one byte more" open \
	"$LONG" O_RDONLY 0 \
	"$LONG/" O_RDONLY 0 \
	"$NAME255" O_RDONLY 0 \
	"${NAME255}a" O_RDONLY 0 <<EOF
open("${LONG:0:200}"..., O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(3, "old\n", 64) = 4
open("${LONG:0:200}"..., O_RDONLY, 0) = -1 ENAMETOOLONG
open("${NAME255:0:200}"..., O_RDONLY, 0) = -1 ENOENT
open("${NAME255:0:200}"..., O_RDONLY, 0) = -1 ENAMETOOLONG
EOF

t "open: a trailing slash on a file is ENOTDIR" open \
	f/ O_RDONLY 0 \
	f/ 'O_WRONLY|O_TRUNC' 0 \
	link/ O_RDONLY 0 \
	f/. O_RDONLY 0 <<EOF
open("f/", O_RDONLY, 0) = -1 ENOTDIR
open("f/", O_WRONLY|O_TRUNC, 0) = -1 ENOTDIR
open("link/", O_RDONLY, 0) = -1 ENOTDIR
open("f/.", O_RDONLY, 0) = -1 ENOTDIR
EOF

chk_open_dangle() {
	content missing 'ward\n'
	absent newf
	absent np
	content f 'old\n'
}
t -c chk_open_dangle "open: O_CREAT through a dangling symlink, on a directory, with a slash, with O_PATH" open \
	dangle 'O_WRONLY|O_CREAT' 0644 \
	dir 'O_RDONLY|O_CREAT' 0644 \
	newf/ 'O_WRONLY|O_CREAT' 0644 \
	link 'O_WRONLY|O_CREAT|O_EXCL' 0644 \
	link 'O_WRONLY|O_CREAT|O_NOFOLLOW' 0644 \
	f 'O_RDONLY|O_CREAT|O_DIRECTORY' 0644 \
	np 'O_PATH|O_CREAT' 0644 \
	nodir/x 'O_WRONLY|O_CREAT' 0644 \
	dir/inner/x 'O_WRONLY|O_CREAT' 0644 <<EOF
open("dangle", O_WRONLY|O_CREAT, 0644) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
open("dir", O_RDONLY|O_CREAT, 0644) = -1 EISDIR
open("newf/", O_WRONLY|O_CREAT, 0644) = -1 EISDIR
open("link", O_WRONLY|O_CREAT|O_EXCL, 0644) = -1 EEXIST
open("link", O_WRONLY|O_CREAT|O_NOFOLLOW, 0644) = -1 ELOOP
open("f", O_RDONLY|O_CREAT|O_DIRECTORY, 0644) = -1 EINVAL
open("np", O_PATH|O_CREAT, 0644) = -1 ENOENT
open("nodir/x", O_WRONLY|O_CREAT, 0644) = -1 ENOENT
open("dir/inner/x", O_WRONLY|O_CREAT, 0644) = -1 ENOTDIR
EOF

chk_tmpfile() {
	# Nothing named is left behind.
	check "$PFX: dir holds only inner" "inner" "$(ls -A "$P/dir")"
}
t -O -c chk_tmpfile "open: O_TMPFILE" open -u 022 \
	dir 'O_TMPFILE|O_RDWR' 0640 \
	dir 'O_TMPFILE|O_WRONLY|O_EXCL|O_CLOEXEC' 0666 \
	dir 'O_TMPFILE|O_RDONLY' 0600 \
	f 'O_TMPFILE|O_RDWR' 0600 \
	missing 'O_TMPFILE|O_RDWR' 0600 <<EOF
umask(0022) = 0022
open("dir", O_TMPFILE|O_RDWR, 0640) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDWR
fstat(3, {st_mode=S_IFREG|0640, st_nlink=0, st_size=0}) = 0
read(3, "", 64) = 0
write(3, "ward\n", 5) = 5
open("dir", O_TMPFILE|O_WRONLY|O_EXCL|O_CLOEXEC, 0666) = 3
fcntl(3, F_GETFD) = 1
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=0, st_size=0}) = 0
write(3, "ward\n", 5) = 5
open("dir", O_TMPFILE|O_RDONLY, 0600) = -1 EINVAL
open("f", O_TMPFILE|O_RDWR, 0600) = -1 ENOTDIR
open("missing", O_TMPFILE|O_RDWR, 0600) = -1 ENOENT
EOF

t -O "open: O_TMPFILE and the umask (077)" open -u 077 dir 'O_TMPFILE|O_WRONLY' 0666 <<EOF
umask(0077) = 0022
open("dir", O_TMPFILE|O_WRONLY, 0666) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0600, st_nlink=0, st_size=0}) = 0
write(3, "ward\n", 5) = 5
EOF

t -R "open: root may write a file of mode 0444" open ro444 O_WRONLY 0 <<EOF
open("ro444", O_WRONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0444, st_nlink=1, st_size=2}) = 0
write(3, "ward\n", 5) = 5
EOF

t -U "open: the mode bits are the kernel's to enforce" open ro444 O_WRONLY 0 ro444 O_RDONLY 0 <<EOF
open("ro444", O_WRONLY, 0) = -1 EACCES
open("ro444", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0444, st_nlink=1, st_size=2}) = 0
read(3, "r\n", 64) = 2
EOF

chk_open_policy() {
	content secret 'secret\n'
	content readonly 'ro\n'
	content rofs/x 'x\n'
	absent rofs/new
	logged '"syscall":"open"' '"op":"read"' "\"path\":\"$P/secret\"" '"decision":"deny"' \
		'"errno":"EACCES"' "\"rule\":\"$(loc '$PROJECT/secret')\"" '"by":"policy"'
	logged '"syscall":"open"' '"op":"write"' "\"path\":\"$P/readonly\"" '"decision":"deny"' \
		'"errno":"EACCES"' "\"rule\":\"$(loc '$PROJECT/readonly')\""
	logged '"syscall":"open"' '"op":"write"' "\"path\":\"$P/rofs/x\"" '"decision":"deny"' \
		'"errno":"EROFS"'
	logged '"syscall":"open"' '"op":"create"' "\"path\":\"$P/rofs/new\"" '"decision":"deny"' \
		'"errno":"EROFS"'
	logged '"syscall":"open"' '"op":"read"' "\"path\":\"$P/secret\"" '"decision":"deny"' \
		'"errno":"EACCES"' '"event":"access"' '"session":' '"ts":' '"pid":' '"exe":'
}
t -w -c chk_open_policy "open: deny read, deny write, deny(EROFS)" open \
	secret O_RDONLY 0 \
	slink O_RDONLY 0 \
	readonly O_RDONLY 0 \
	readonly O_WRONLY 0 \
	readonly 'O_RDONLY|O_TRUNC' 0 \
	readonly 'O_WRONLY|O_CREAT' 0644 \
	rofs/x O_RDONLY 0 \
	rofs/x 'O_RDWR' 0 \
	rofs/new 'O_WRONLY|O_CREAT' 0644 \
	secret O_PATH 0 <<EOF
open("secret", O_RDONLY, 0) = -1 EACCES
open("slink", O_RDONLY, 0) = -1 EACCES
open("readonly", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=3}) = 0
read(3, "ro\n", 64) = 3
open("readonly", O_WRONLY, 0) = -1 EACCES
open("readonly", O_RDONLY|O_TRUNC, 0) = -1 EACCES
open("readonly", O_WRONLY|O_CREAT, 0644) = -1 EACCES
open("rofs/x", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=2}) = 0
read(3, "x\n", 64) = 2
open("rofs/x", O_RDWR, 0) = -1 EROFS
open("rofs/new", O_WRONLY|O_CREAT, 0644) = -1 EROFS
open("secret", O_PATH, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_PATH
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=7}) = 0
EOF

t -w -f "9 #secret" "open: reopening an fd through /proc/self/fd is judged on its file" open \
	/proc/self/fd/9 O_RDONLY 0 <<EOF
openat(AT_FDCWD, "secret", O_PATH) = 3
dup2(3, 9) = 9
open("/proc/self/fd/9", O_RDONLY, 0) = -1 EACCES
EOF

chk_open_deleted() {
	absent secret
}
t -w -c chk_open_deleted "open: a file read-denied stays denied once unlinked" withfd 9 '>secret' -- \
	"$BIN/open@S@" /proc/self/fd/9 O_RDONLY 0 ';;' \
	"$BIN/unlink@S@" secret ';;' \
	"$BIN/open@S@" /proc/self/fd/9 O_RDONLY 0 <<EOF
openat(AT_FDCWD, "secret", O_WRONLY) = 3
dup2(3, 9) = 9
open("/proc/self/fd/9", O_RDONLY, 0) = -1 EACCES
unlink("secret") = 0
open("/proc/self/fd/9", O_RDONLY, 0) = -1 EACCES
EOF

chk_open_rewrite() {
	content redirect 'orig\n'
	content redirected 'ward\n'
	content newredirected 'ward\n'
	absent newredirect
	content shadow/new 'ward\n'
	absent cache/new
	logged '"syscall":"open"' "\"path\":\"$P/redirect\"" '"decision":"rewrite"' \
		"\"to\":\"$P/redirected\"" "\"rule\":\"$(loc 'redirect ->')\""
	logged '"syscall":"open"' "\"path\":\"$P/newredirect\"" '"decision":"rewrite"' \
		"\"to\":\"$P/newredirected\"" "\"rule\":\"$(loc 'newredirect ->')\""
	logged '"syscall":"open"' "\"path\":\"$P/cache/new\"" '"decision":"rewrite"' \
		"\"to\":\"$P/shadow/new\""
}
t -w -c chk_open_rewrite "open: rewrite write,create" open -u 022 \
	redirect O_RDONLY 0 \
	redirect 'O_WRONLY|O_CREAT|O_TRUNC' 0600 \
	newredirect 'O_WRONLY|O_CREAT|O_EXCL' 0600 \
	cache/new 'O_WRONLY|O_CREAT' 0640 <<EOF
umask(0022) = 0022
open("redirect", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=5}) = 0
read(3, "orig\n", 64) = 5
open("redirect", O_WRONLY|O_CREAT|O_TRUNC, 0600) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0600, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
open("newredirect", O_WRONLY|O_CREAT|O_EXCL, 0600) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0600, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
open("cache/new", O_WRONLY|O_CREAT, 0640) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0640, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
EOF

chk_open_outside() {
	check "$PFX: outside/f unchanged" "out" "$(cat "$OUTSIDE/f")"
	check "$PFX: no outside/new" "f" "$(ls "$OUTSIDE")"
	logged '"syscall":"open"' '"op":"write"' "\"path\":\"$OUTSIDE/f\"" '"decision":"deny"' \
		'"errno":"EACCES"' '"by":"undecided"'
	logged '"syscall":"open"' '"op":"read"' "\"path\":\"$H/.ssh/id_rsa\"" '"decision":"deny"' \
		"\"rule\":\"$(builtin_loc default '~/.ssh/**')\""
	logged '"syscall":"open"' "\"path\":\"$H/.netrc\"" '"decision":"deny"' '"errno":"ENOENT"'
	logged '"syscall":"open"' "\"path\":\"$P/.ward/policy\"" '"decision":"deny"' \
		"\"rule\":\"$(builtin_loc self '$PROJECT/.ward/**')\""
}
t -w -c chk_open_outside "open: outside the project, the default profile, ward's own files" open \
	../outside/f O_RDONLY 0 \
	../outside/f 'O_WRONLY|O_APPEND' 0 \
	../outside/new 'O_WRONLY|O_CREAT' 0644 \
	"$H/.ssh/id_rsa" O_RDONLY 0 \
	"$H/.netrc" O_RDONLY 0 \
	"$H/.bashrc" 'O_WRONLY|O_APPEND' 0 \
	.ward/policy O_RDONLY 0 \
	.ward/policy 'O_WRONLY|O_TRUNC' 0 \
	.ward/new 'O_WRONLY|O_CREAT' 0644 \
	"$H/.config/ward/policy" O_RDONLY 0 \
	"$U/state/ward/x" 'O_WRONLY|O_CREAT' 0644 <<EOF
open("../outside/f", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(3, "out\n", 64) = 4
open("../outside/f", O_WRONLY|O_APPEND, 0) = -1 EACCES
open("../outside/new", O_WRONLY|O_CREAT, 0644) = -1 EACCES
open("$H/.ssh/id_rsa", O_RDONLY, 0) = -1 EACCES
open("$H/.netrc", O_RDONLY, 0) = -1 ENOENT
open("$H/.bashrc", O_WRONLY|O_APPEND, 0) = -1 EACCES
open(".ward/policy", O_RDONLY, 0) = -1 EACCES
open(".ward/policy", O_WRONLY|O_TRUNC, 0) = -1 EACCES
open(".ward/new", O_WRONLY|O_CREAT, 0644) = -1 EACCES
open("$H/.config/ward/policy", O_RDONLY, 0) = -1 EACCES
open("$U/state/ward/x", O_WRONLY|O_CREAT, 0644) = -1 EACCES
EOF

t "open: /proc/self is the caller" open \
	/proc/self/cwd 'O_RDONLY|O_DIRECTORY' 0 \
	/proc/self/fd/0 O_RDONLY 0 \
	/proc/thread-self/cwd/f O_RDONLY 0 <<EOF
open("/proc/self/cwd", O_RDONLY|O_DIRECTORY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFDIR|0755}) = 0
open("/proc/self/fd/0", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFCHR|0666, st_nlink=1, st_size=0}) = 0
open("/proc/thread-self/cwd/f", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(3, "old\n", 64) = 4
EOF

t -w "open: another process's /proc is not the agent's" open \
	/proc/1/environ O_RDONLY 0 \
	/proc/1/cwd 'O_RDONLY|O_DIRECTORY' 0 <<EOF
open("/proc/1/environ", O_RDONLY, 0) = -1 EACCES
open("/proc/1/cwd", O_RDONLY|O_DIRECTORY, 0) = -1 EACCES
EOF

chk_openat() {
	content dir/new 'ward\n'
	mode_is dir/new 600
}
t -c chk_openat "openat: relative to a directory fd, AT_FDCWD, bad fds" openat -u 077 \
	@dir inner O_RDONLY 0 \
	@dir ../f 'O_RDONLY|O_CLOEXEC' 0 \
	@dir new 'O_WRONLY|O_CREAT|O_EXCL' 0666 \
	@dir "$P/f" O_RDONLY 0 \
	%f x O_RDONLY 0 \
	99 f O_RDONLY 0 \
	-1 f O_RDONLY 0 \
	-1 "$P/dir/inner" O_RDONLY 0 \
	AT_FDCWD dir/inner 'O_RDONLY|O_NOATIME' 0 <<EOF
umask(0077) = 0022
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat(3, "inner", O_RDONLY, 0) = 4
fcntl(4, F_GETFD) = 0
fcntl(4, F_GETFL) = O_RDONLY
fstat(4, {st_mode=S_IFREG|0644, st_nlink=1, st_size=6}) = 0
read(4, "inner\n", 64) = 6
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat(3, "../f", O_RDONLY|O_CLOEXEC, 0) = 4
fcntl(4, F_GETFD) = 1
fcntl(4, F_GETFL) = O_RDONLY
fstat(4, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(4, "old\n", 64) = 4
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat(3, "new", O_WRONLY|O_CREAT|O_EXCL, 0666) = 4
fcntl(4, F_GETFD) = 0
fcntl(4, F_GETFL) = O_WRONLY
fstat(4, {st_mode=S_IFREG|0600, st_nlink=1, st_size=0}) = 0
write(4, "ward\n", 5) = 5
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat(3, "$P/f", O_RDONLY, 0) = 4
fcntl(4, F_GETFD) = 0
fcntl(4, F_GETFL) = O_RDONLY
fstat(4, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(4, "old\n", 64) = 4
openat(AT_FDCWD, "f", O_RDONLY) = 3
openat(3, "x", O_RDONLY, 0) = -1 ENOTDIR
openat(99, "f", O_RDONLY, 0) = -1 EBADF
openat(-1, "f", O_RDONLY, 0) = -1 EBADF
openat(-1, "$P/dir/inner", O_RDONLY, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=6}) = 0
read(3, "inner\n", 64) = 6
openat(AT_FDCWD, "dir/inner", O_RDONLY|O_NOATIME, 0) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY|O_NOATIME
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=6}) = 0
read(3, "inner\n", 64) = 6
EOF

t -w "openat: the policy sees the real path, not the dirfd's name" openat \
	@dir ../secret O_RDONLY 0 \
	@rofs x O_WRONLY 0 \
	@dirlink ../readonly O_WRONLY 0 <<EOF
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat(3, "../secret", O_RDONLY, 0) = -1 EACCES
openat(AT_FDCWD, "rofs", O_RDONLY|O_DIRECTORY) = 3
openat(3, "x", O_WRONLY, 0) = -1 EROFS
openat(AT_FDCWD, "dirlink", O_RDONLY|O_DIRECTORY) = 3
openat(3, "../readonly", O_WRONLY, 0) = -1 EACCES
EOF

chk_openat2() {
	mode_is new 640
	absent np
}
t -O "openat2: RESOLVE_* on /proc/self (however written) is the caller's; an absolute path needs no dirfd" openat2 \
	AT_FDCWD /proc/self/oom_score_adj O_RDONLY 0 RESOLVE_NO_MAGICLINKS \
	AT_FDCWD /proc/thread-self/oom_score_adj O_RDONLY 0 RESOLVE_NO_MAGICLINKS \
	AT_FDCWD /proc/self/oom_score_adj O_RDONLY 0 RESOLVE_NO_SYMLINKS \
	AT_FDCWD //proc/./self/oom_score_adj O_RDONLY 0 RESOLVE_NO_MAGICLINKS \
	9999 "$P/f" O_RDONLY 0 RESOLVE_NO_SYMLINKS <<EOF
openat2(AT_FDCWD, "/proc/self/oom_score_adj", {flags=O_RDONLY, mode=0, resolve=RESOLVE_NO_MAGICLINKS}, 24) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
read(3, "0\n", 64) = 2
openat2(AT_FDCWD, "/proc/thread-self/oom_score_adj", {flags=O_RDONLY, mode=0, resolve=RESOLVE_NO_MAGICLINKS}, 24) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
read(3, "0\n", 64) = 2
openat2(AT_FDCWD, "/proc/self/oom_score_adj", {flags=O_RDONLY, mode=0, resolve=RESOLVE_NO_SYMLINKS}, 24) = -1 ELOOP
openat2(AT_FDCWD, "//proc/./self/oom_score_adj", {flags=O_RDONLY, mode=0, resolve=RESOLVE_NO_MAGICLINKS}, 24) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
read(3, "0\n", 64) = 2
openat2(9999, "$P/f", {flags=O_RDONLY, mode=0, resolve=RESOLVE_NO_SYMLINKS}, 24) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(3, "old\n", 64) = 4
EOF

t -O -c chk_openat2 "openat2: flags, mode, RESOLVE_*" openat2 -u 022 \
	AT_FDCWD f O_RDONLY 0 0 \
	AT_FDCWD new 'O_WRONLY|O_CREAT' 0640 0 \
	AT_FDCWD f O_RDONLY 0644 0 \
	AT_FDCWD f 0x10 0 0 \
	AT_FDCWD np 'O_PATH|O_CREAT' 0644 0 \
	AT_FDCWD f 'O_CREAT|O_DIRECTORY' 0644 0 \
	AT_FDCWD link O_RDONLY 0 RESOLVE_NO_SYMLINKS \
	@dir ../f O_RDONLY 0 RESOLVE_BENEATH \
	@dir /inner O_RDONLY 0 RESOLVE_BENEATH \
	@dir inner O_RDONLY 0 RESOLVE_BENEATH \
	@dir /inner O_RDONLY 0 RESOLVE_IN_ROOT \
	@dir ../../inner O_RDONLY 0 RESOLVE_IN_ROOT \
	AT_FDCWD /proc/self/fd/0 O_RDONLY 0 RESOLVE_NO_MAGICLINKS <<EOF
umask(0022) = 0022
openat2(AT_FDCWD, "f", {flags=O_RDONLY, mode=0, resolve=0}, 24) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_RDONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
read(3, "old\n", 64) = 4
openat2(AT_FDCWD, "new", {flags=O_WRONLY|O_CREAT, mode=0640, resolve=0}, 24) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0640, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
openat2(AT_FDCWD, "f", {flags=O_RDONLY, mode=0644, resolve=0}, 24) = -1 EINVAL
openat2(AT_FDCWD, "f", {flags=0x10, mode=0, resolve=0}, 24) = -1 EINVAL
openat2(AT_FDCWD, "np", {flags=O_PATH|O_CREAT, mode=0644, resolve=0}, 24) = -1 EINVAL
openat2(AT_FDCWD, "f", {flags=O_CREAT|O_DIRECTORY, mode=0644, resolve=0}, 24) = -1 EINVAL
openat2(AT_FDCWD, "link", {flags=O_RDONLY, mode=0, resolve=RESOLVE_NO_SYMLINKS}, 24) = -1 ELOOP
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat2(3, "../f", {flags=O_RDONLY, mode=0, resolve=RESOLVE_BENEATH}, 24) = -1 EXDEV
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat2(3, "/inner", {flags=O_RDONLY, mode=0, resolve=RESOLVE_BENEATH}, 24) = -1 EXDEV
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat2(3, "inner", {flags=O_RDONLY, mode=0, resolve=RESOLVE_BENEATH}, 24) = 4
fcntl(4, F_GETFD) = 0
fcntl(4, F_GETFL) = O_RDONLY
fstat(4, {st_mode=S_IFREG|0644, st_nlink=1, st_size=6}) = 0
read(4, "inner\n", 64) = 6
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat2(3, "/inner", {flags=O_RDONLY, mode=0, resolve=RESOLVE_IN_ROOT}, 24) = 4
fcntl(4, F_GETFD) = 0
fcntl(4, F_GETFL) = O_RDONLY
fstat(4, {st_mode=S_IFREG|0644, st_nlink=1, st_size=6}) = 0
read(4, "inner\n", 64) = 6
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
openat2(3, "../../inner", {flags=O_RDONLY, mode=0, resolve=RESOLVE_IN_ROOT}, 24) = 4
fcntl(4, F_GETFD) = 0
fcntl(4, F_GETFL) = O_RDONLY
fstat(4, {st_mode=S_IFREG|0644, st_nlink=1, st_size=6}) = 0
read(4, "inner\n", 64) = 6
openat2(AT_FDCWD, "/proc/self/fd/0", {flags=O_RDONLY, mode=0, resolve=RESOLVE_NO_MAGICLINKS}, 24) = -1 ELOOP
EOF

chk_creat() {
	content f 'ward\n'
	mode_is f 644
	content new 'ward\n'
	mode_is new 640
}
t -c chk_creat "creat: creates, truncates, the umask" creat -u 027 \
	new 0666 \
	f 0600 \
	dir 0644 \
	missing/x 0644 <<EOF
umask(0027) = 0022
creat("new", 0666) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0640, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
creat("f", 0600) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
creat("dir", 0644) = -1 EISDIR
creat("missing/x", 0644) = -1 ENOENT
EOF

chk_creat_policy() {
	content readonly 'ro\n'
	content redirect 'orig\n'
	content redirected 'ward\n'
	absent nocreate/new
}
t -w -c chk_creat_policy "creat: the policy" creat \
	readonly 0644 \
	rofs/x 0644 \
	nocreate/new 0644 \
	nocreate/x 0644 \
	redirect 0644 <<EOF
creat("readonly", 0644) = -1 EACCES
creat("rofs/x", 0644) = -1 EROFS
creat("nocreate/new", 0644) = -1 EACCES
creat("nocreate/x", 0644) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
creat("redirect", 0644) = 3
fcntl(3, F_GETFD) = 0
fcntl(3, F_GETFL) = O_WRONLY
fstat(3, {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
write(3, "ward\n", 5) = 5
EOF

# ---------------------------------------------------------------- names

t "open: a FIFO's open, a signal and a handler with SA_RESTART: restarted" fifo_signal \
	fifo restart <<EOF
open("fifo", O_RDONLY, 0) = 3
handler ran 1 time(s)
EOF

t "open: a FIFO's open, a signal and a handler without SA_RESTART: EINTR" fifo_signal \
	fifo intr <<EOF
open("fifo", O_RDONLY, 0) = -1 EINTR
handler ran 1 time(s)
EOF

t "open: a FIFO's open, a process-wide signal another thread blocks, SA_RESTART: restarted" fifo_signal \
	fifo restart thread <<EOF
open("fifo", O_RDONLY, 0) = 3
handler ran 1 time(s)
EOF

t "open: a FIFO's open, a process-wide signal another thread blocks, no SA_RESTART: EINTR" fifo_signal \
	fifo intr thread <<EOF
open("fifo", O_RDONLY, 0) = -1 EINTR
handler ran 1 time(s)
EOF

t "open: O_CREAT and a trailing slash on what exists" open \
	f/ 'O_WRONLY|O_CREAT' 0644 \
	dir/ 'O_RDONLY|O_CREAT' 0644 \
	f/ 'O_WRONLY|O_CREAT|O_EXCL' 0644 <<EOF
open("f/", O_WRONLY|O_CREAT, 0644) = -1 EISDIR
open("dir/", O_RDONLY|O_CREAT, 0644) = -1 EISDIR
open("f/", O_WRONLY|O_CREAT|O_EXCL, 0644) = -1 EISDIR
EOF

t "open: a symlink to name/" open fslash O_RDONLY 0 fslash O_PATH 0 <<EOF
open("fslash", O_RDONLY, 0) = -1 ENOTDIR
open("fslash", O_PATH, 0) = -1 ENOTDIR
EOF

# ---------------------------------------------------------------- inotify

# inotify_add_watch: a watch tells what happens to what it watches, so it
# is judged as reading it; ward adds it on its copy of the agent's inotify
# fd, which the event read back shows.
t "inotify_add_watch: a file, a directory, a missing name, a symlink itself" inotify_add_watch \
	f IN_MODIFY dir IN_ALL_EVENTS missing IN_MODIFY link 'IN_MODIFY|IN_DONT_FOLLOW' , write f <<EOF
inotify_init1(IN_CLOEXEC) = 3
inotify_add_watch(3, "f", IN_MODIFY) = 1
inotify_add_watch(3, "dir", IN_ALL_EVENTS) = 2
inotify_add_watch(3, "missing", IN_MODIFY) = -1 ENOENT
inotify_add_watch(3, "link", IN_MODIFY|IN_DONT_FOLLOW) = 3
event: watch 0 (f), IN_MODIFY
EOF

chk_watch_policy() {
	logged '"syscall":"inotify_add_watch"' '"op":"read"' "\"path\":\"$P/secret\"" '"decision":"deny"' '"errno":"EACCES"'
}
t -w -c chk_watch_policy "inotify_add_watch: a read-denied file is not watched, through a symlink neither" \
	inotify_add_watch secret IN_ACCESS slink IN_ACCESS f IN_MODIFY , write f <<EOF
inotify_init1(IN_CLOEXEC) = 3
inotify_add_watch(3, "secret", IN_ACCESS) = -1 EACCES
inotify_add_watch(3, "slink", IN_ACCESS) = -1 EACCES
inotify_add_watch(3, "f", IN_MODIFY) = 1
event: watch 2 (f), IN_MODIFY
EOF
