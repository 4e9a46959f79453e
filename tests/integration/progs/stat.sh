# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The stat family of ward's syscall table:
# stat, lstat, newfstatat, statx, access, faccessat(2), readlink(at) and the
# getxattr family: notified only when the policy restricts stat, so these
# cases run with a policy that does (progs.sh).
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

t "stat: files, links, errors" stat f dir link dirlink/ fifo dangle missing NULL '' loop <<EOF
stat("f", {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
stat("dir", {st_mode=S_IFDIR|0755}) = 0
stat("link", {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
stat("dirlink/", {st_mode=S_IFDIR|0755}) = 0
stat("fifo", {st_mode=S_IFIFO|0644, st_nlink=1, st_size=0}) = 0
stat("dangle", ...) = -1 ENOENT
stat("missing", ...) = -1 ENOENT
stat(NULL, ...) = -1 EFAULT
stat("", ...) = -1 ENOENT
stat("loop", ...) = -1 ELOOP
EOF

t "stat: a trailing slash on a file is ENOTDIR" stat f/ link/ dir/inner/ <<EOF
stat("f/", ...) = -1 ENOTDIR
stat("link/", ...) = -1 ENOTDIR
stat("dir/inner/", ...) = -1 ENOTDIR
EOF

chk_stat_policy() {
	logged '"syscall":"stat"' '"op":"stat"' "\"path\":\"$P/hidden/x\"" '"decision":"deny"' \
		'"errno":"EACCES"' "\"rule\":\"$(loc '$PROJECT/hidden/**')\""
}
t -w -c chk_stat_policy "stat: deny stat" stat hidden/x hidden secret rofs/x <<EOF
stat("hidden/x", ...) = -1 EACCES
stat("hidden", ...) = -1 EACCES
stat("secret", {st_mode=S_IFREG|0644, st_nlink=1, st_size=7}) = 0
stat("rofs/x", {st_mode=S_IFREG|0644, st_nlink=1, st_size=2}) = 0
EOF

t "lstat: links are not followed, but a trailing slash follows" lstat link dangle loop abslink dirlink dirlink/ f <<EOF
lstat("link", {st_mode=S_IFLNK|0777, st_nlink=1, st_size=1}) = 0
lstat("dangle", {st_mode=S_IFLNK|0777, st_nlink=1, st_size=7}) = 0
lstat("loop", {st_mode=S_IFLNK|0777, st_nlink=1, st_size=4}) = 0
lstat("abslink", {st_mode=S_IFLNK|0777, st_nlink=1, st_size=$((${#P} + 2))}) = 0
lstat("dirlink", {st_mode=S_IFLNK|0777, st_nlink=1, st_size=3}) = 0
lstat("dirlink/", {st_mode=S_IFDIR|0755}) = 0
lstat("f", {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}) = 0
EOF

t -w "lstat: deny stat" lstat hidden/x <<EOF
lstat("hidden/x", ...) = -1 EACCES
EOF

t "newfstatat: flags, AT_EMPTY_PATH, NULL path" newfstatat \
	AT_FDCWD f 0 \
	AT_FDCWD link AT_SYMLINK_NOFOLLOW \
	@dir inner 0 \
	%f '' AT_EMPTY_PATH \
	%f NULL AT_EMPTY_PATH \
	AT_FDCWD '' AT_EMPTY_PATH \
	AT_FDCWD '' 0 \
	AT_FDCWD f 0x8000 \
	%f x 0 \
	99 x 0 \
	AT_FDCWD dangle 0 <<EOF
newfstatat(AT_FDCWD, "f", {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}, 0) = 0
newfstatat(AT_FDCWD, "link", {st_mode=S_IFLNK|0777, st_nlink=1, st_size=1}, AT_SYMLINK_NOFOLLOW) = 0
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
newfstatat(3, "inner", {st_mode=S_IFREG|0644, st_nlink=1, st_size=6}, 0) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 4
newfstatat(4, "", {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}, AT_EMPTY_PATH) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 5
newfstatat(5, NULL, {st_mode=S_IFREG|0644, st_nlink=1, st_size=4}, AT_EMPTY_PATH) = 0
newfstatat(AT_FDCWD, "", {st_mode=S_IFDIR|0755}, AT_EMPTY_PATH) = 0
newfstatat(AT_FDCWD, "", ..., 0) = -1 ENOENT
newfstatat(AT_FDCWD, "f", ..., 0x8000) = -1 EINVAL
openat(AT_FDCWD, "f", O_RDONLY) = 6
newfstatat(6, "x", ..., 0) = -1 ENOTDIR
newfstatat(99, "x", ..., 0) = -1 EBADF
newfstatat(AT_FDCWD, "dangle", ..., 0) = -1 ENOENT
EOF

t -w "newfstatat: deny stat, also through an fd" newfstatat \
	AT_FDCWD hidden/x 0 \
	@hidden x 0 \
	'#hidden/x' '' AT_EMPTY_PATH <<EOF
newfstatat(AT_FDCWD, "hidden/x", ..., 0) = -1 EACCES
openat(AT_FDCWD, "hidden", O_RDONLY|O_DIRECTORY) = 3
newfstatat(3, "x", ..., 0) = -1 EACCES
openat(AT_FDCWD, "hidden/x", O_PATH) = -1 EACCES
newfstatat(-1, "", ..., AT_EMPTY_PATH) = -1 EBADF
EOF

t "statx: flags, mask, AT_EMPTY_PATH, NULL path" statx \
	AT_FDCWD f 0 STATX_BASIC_STATS \
	AT_FDCWD link AT_SYMLINK_NOFOLLOW STATX_BASIC_STATS \
	AT_FDCWD dir 0 'STATX_TYPE|STATX_MODE' \
	%f '' AT_EMPTY_PATH STATX_BASIC_STATS \
	%f NULL AT_EMPTY_PATH STATX_BASIC_STATS \
	AT_FDCWD missing 0 STATX_BASIC_STATS \
	AT_FDCWD f 0x80000000 STATX_BASIC_STATS \
	AT_FDCWD f 0 0x80000000 \
	AT_FDCWD f/ 0 STATX_BASIC_STATS <<EOF
statx(AT_FDCWD, "f", 0, STATX_BASIC_STATS, {stx_mode=S_IFREG|0644, stx_nlink=1, stx_size=4}) = 0
statx(AT_FDCWD, "link", AT_SYMLINK_NOFOLLOW, STATX_BASIC_STATS, {stx_mode=S_IFLNK|0777, stx_nlink=1, stx_size=1}) = 0
statx(AT_FDCWD, "dir", 0, STATX_TYPE|STATX_MODE, {stx_mode=S_IFDIR|0755}) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 3
statx(3, "", AT_EMPTY_PATH, STATX_BASIC_STATS, {stx_mode=S_IFREG|0644, stx_nlink=1, stx_size=4}) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 4
statx(4, NULL, AT_EMPTY_PATH, STATX_BASIC_STATS, {stx_mode=S_IFREG|0644, stx_nlink=1, stx_size=4}) = 0
statx(AT_FDCWD, "missing", 0, STATX_BASIC_STATS, ...) = -1 ENOENT
statx(AT_FDCWD, "f", 0x80000000, STATX_BASIC_STATS, ...) = -1 EINVAL
statx(AT_FDCWD, "f", 0, 0x80000000, ...) = -1 EINVAL
statx(AT_FDCWD, "f/", 0, STATX_BASIC_STATS, ...) = -1 ENOTDIR
EOF

t -w "statx: deny stat" statx AT_FDCWD hidden/x 0 STATX_BASIC_STATS <<EOF
statx(AT_FDCWD, "hidden/x", 0, STATX_BASIC_STATS, ...) = -1 EACCES
EOF

t "access: modes and errors" access \
	f F_OK \
	f 'R_OK|W_OK' \
	f X_OK \
	dir X_OK \
	missing F_OK \
	dangle F_OK \
	link R_OK \
	f 8 \
	f/ F_OK \
	ro444 W_OK \
	garbage X_OK <<EOF
access("f", F_OK) = 0
access("f", R_OK|W_OK) = 0
access("f", X_OK) = -1 EACCES
access("dir", X_OK) = 0
access("missing", F_OK) = -1 ENOENT
access("dangle", F_OK) = -1 ENOENT
access("link", R_OK) = 0
access("f", 8) = -1 EINVAL
access("f/", F_OK) = -1 ENOTDIR
access("ro444", W_OK) = $(r 0 '-1 EACCES')
access("garbage", X_OK) = 0
EOF

t -w "access: deny stat; deny read is not deny stat" access hidden/x F_OK secret R_OK <<EOF
access("hidden/x", F_OK) = -1 EACCES
access("secret", R_OK) = 0
EOF

t "faccessat: relative to a directory fd; no flags" faccessat \
	@dir inner R_OK \
	AT_FDCWD f W_OK \
	%f '' F_OK \
	99 f F_OK <<EOF
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
faccessat(3, "inner", R_OK) = 0
faccessat(AT_FDCWD, "f", W_OK) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 4
faccessat(4, "", F_OK) = -1 ENOENT
faccessat(99, "f", F_OK) = -1 EBADF
EOF

t -F "faccessat2: flags" faccessat2 \
	AT_FDCWD link F_OK AT_SYMLINK_NOFOLLOW \
	AT_FDCWD dangle F_OK AT_SYMLINK_NOFOLLOW \
	AT_FDCWD dangle F_OK 0 \
	%f '' R_OK AT_EMPTY_PATH \
	AT_FDCWD f R_OK AT_EACCESS \
	AT_FDCWD f R_OK 0x8000 <<EOF
faccessat2(AT_FDCWD, "link", F_OK, AT_SYMLINK_NOFOLLOW) = 0
faccessat2(AT_FDCWD, "dangle", F_OK, AT_SYMLINK_NOFOLLOW) = 0
faccessat2(AT_FDCWD, "dangle", F_OK, 0) = -1 ENOENT
openat(AT_FDCWD, "f", O_RDONLY) = 3
faccessat2(3, "", R_OK, AT_EMPTY_PATH) = 0
faccessat2(AT_FDCWD, "f", R_OK, AT_EACCESS) = 0
faccessat2(AT_FDCWD, "f", R_OK, 0x8000) = -1 EINVAL
EOF

t "readlink: targets, truncation, errors" readlink \
	link 64 \
	abslink 4096 \
	dangle 3 \
	f 64 \
	missing 64 \
	link 0 \
	dirlink/ 64 \
	'' 64 <<EOF
readlink("link", "f", 64) = 1
readlink("abslink", "$P/f", 4096) = $((${#P} + 2))
readlink("dangle", "mis", 3) = 3
readlink("f", ..., 64) = -1 EINVAL
readlink("missing", ..., 64) = -1 ENOENT
readlink("link", ..., 0) = -1 EINVAL
readlink("dirlink/", ..., 64) = -1 EINVAL
readlink("", ..., 64) = -1 ENOENT
EOF

t "readlink: /proc/self is the caller" readlink /proc/self/cwd 4096 /proc/thread-self/cwd 4096 <<EOF
readlink("/proc/self/cwd", "$P", 4096) = ${#P}
readlink("/proc/thread-self/cwd", "$P", 4096) = ${#P}
EOF

t -f "9 &link" "readlinkat: an O_PATH fd of a symlink from outside" readlinkat 9 '' 64 <<EOF
openat(AT_FDCWD, "link", O_PATH|O_NOFOLLOW) = 3
dup2(3, 9) = 9
readlinkat(9, "", "f", 64) = 1
EOF

t -f "9 &link" "readlinkat: a NULL path is EFAULT, even on an fd" readlinkat 9 NULL 64 <<EOF
openat(AT_FDCWD, "link", O_PATH|O_NOFOLLOW) = 3
dup2(3, 9) = 9
readlinkat(9, NULL, ..., 64) = -1 EFAULT
EOF

t -w "readlink: deny stat" readlink hidden/x 64 <<EOF
readlink("hidden/x", ..., 64) = -1 EACCES
EOF

t "readlinkat: relative to a directory fd, AT_EMPTY_PATH style" readlinkat \
	@. link 64 \
	AT_FDCWD dirlink 64 \
	'#f' '' 64 \
	%dir ../link 64 <<EOF
openat(AT_FDCWD, ".", O_RDONLY|O_DIRECTORY) = 3
readlinkat(3, "link", "f", 64) = 1
readlinkat(AT_FDCWD, "dirlink", "dir", 64) = 3
openat(AT_FDCWD, "f", O_PATH) = 4
readlinkat(4, "", ..., 64) = -1 ENOENT
openat(AT_FDCWD, "dir", O_RDONLY) = 5
readlinkat(5, "../link", "f", 64) = 1
EOF

t -x "getxattr: values, sizes, errors" getxattr \
	xf user.a 64 \
	xf user.b 0 \
	xf user.b 1 \
	xf user.none 64 \
	xlink user.a 64 \
	missing user.a 64 <<EOF
getxattr("xf", "user.a", "1", 64) = 1
getxattr("xf", "user.b", ..., 0) = 2
getxattr("xf", "user.b", ..., 1) = -1 ERANGE
getxattr("xf", "user.none", ..., 64) = -1 ENODATA
getxattr("xlink", "user.a", "1", 64) = 1
getxattr("missing", "user.a", ..., 64) = -1 ENOENT
EOF

t -x "lgetxattr: the link itself" lgetxattr xlink user.a 64 xf user.b 64 <<EOF
lgetxattr("xlink", "user.a", ..., 64) = -1 ENODATA
lgetxattr("xf", "user.b", "22", 64) = 2
EOF

t -x -w "getxattr: deny stat" getxattr hidden/x user.a 64 <<EOF
getxattr("hidden/x", "user.a", ..., 64) = -1 EACCES
EOF

t -x "listxattr: names, sizes" listxattr xf 64 xf 0 xf 3 xlink 64 f 64 <<EOF
listxattr("xf", ["user.a", "user.b"], 64) = 14
listxattr("xf", ..., 0) = 14
listxattr("xf", ..., 3) = -1 ERANGE
listxattr("xlink", ["user.a", "user.b"], 64) = 14
listxattr("f", [], 64) = 0
EOF

t -x "llistxattr: the link itself" llistxattr xlink 64 xf 64 <<EOF
llistxattr("xlink", [], 64) = 0
llistxattr("xf", ["user.a", "user.b"], 64) = 14
EOF
