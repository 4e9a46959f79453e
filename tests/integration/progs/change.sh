# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The change family of ward's syscall table:
# the calls that make, remove, rename, link and change files (and the
# newer fchmodat2, setxattrat, removexattrat): emulated against
# directory fds ward opened.
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

chk_mkdir() {
	mode_is d1 755
	kind_is d3 directory
}
t -c chk_mkdir "mkdir: modes, errors" mkdir -u 022 \
	d1 0777 \
	d1 0777 \
	d3/ 0755 \
	d4 01777 \
	d5 02755 \
	missing/x 0755 \
	f/x 0755 \
	link 0755 \
	dangle 0755 \
	'' 0755 \
	dir/. 0755 <<EOF
umask(0022) = 0022
mkdir("d1", 0777) = 0
lstat("d1", {st_mode=S_IFDIR|0755}) = 0
mkdir("d1", 0777) = -1 EEXIST
mkdir("d3/", 0755) = 0
lstat("d3/", {st_mode=S_IFDIR|0755}) = 0
mkdir("d4", 01777) = 0
lstat("d4", {st_mode=S_IFDIR|1755}) = 0
mkdir("d5", 02755) = 0
lstat("d5", {st_mode=S_IFDIR|0755}) = 0
mkdir("missing/x", 0755) = -1 ENOENT
mkdir("f/x", 0755) = -1 ENOTDIR
mkdir("link", 0755) = -1 EEXIST
mkdir("dangle", 0755) = -1 EEXIST
mkdir("", 0755) = -1 ENOENT
mkdir("dir/.", 0755) = -1 EEXIST
EOF

t "mkdir: the umask (077)" mkdir -u 077 d 0777 <<EOF
umask(0077) = 0022
mkdir("d", 0777) = 0
lstat("d", {st_mode=S_IFDIR|0700}) = 0
EOF

t -A "mkdir: a default ACL replaces the umask" mkdir -u 077 acl/d 0777 <<EOF
umask(0077) = 0022
mkdir("acl/d", 0777) = 0
lstat("acl/d", {st_mode=S_IFDIR|0777}) = 0
EOF

chk_mkdir_policy() {
	absent rofs/d
	absent nocreate/d
	absent .ward/d
	check "$PFX: no outside/d" "f" "$(ls "$OUTSIDE")"
	logged '"syscall":"mkdir"' '"op":"create"' "\"path\":\"$P/rofs/d\"" '"decision":"deny"' \
		'"errno":"EROFS"'
}
t -w -c chk_mkdir_policy "mkdir: the policy" mkdir \
	rofs/d 0755 \
	nocreate/d 0755 \
	../outside/d 0755 \
	.ward/d 0755 \
	cache/d 0755 <<EOF
mkdir("rofs/d", 0755) = -1 EROFS
mkdir("nocreate/d", 0755) = -1 EACCES
mkdir("../outside/d", 0755) = -1 EACCES
mkdir(".ward/d", 0755) = -1 EACCES
mkdir("cache/d", 0755) = -1 EACCES
EOF

t "mkdirat: relative to a directory fd" mkdirat -u 022 \
	@dir sub 0750 \
	AT_FDCWD d 0700 \
	%f x 0755 \
	99 x 0755 <<EOF
umask(0022) = 0022
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
mkdirat(3, "sub", 0750) = 0
lstat(3, "sub", {st_mode=S_IFDIR|0750}) = 0
mkdirat(AT_FDCWD, "d", 0700) = 0
lstat("d", {st_mode=S_IFDIR|0700}) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 4
mkdirat(4, "x", 0755) = -1 ENOTDIR
mkdirat(99, "x", 0755) = -1 EBADF
EOF

t "mknod: fifos, regular files, sockets, errors" mknod -u 022 \
	p1 'S_IFIFO|0666' 0 \
	r1 'S_IFREG|0600' 0 \
	r2 0644 0 \
	s1 'S_IFSOCK|0644' 0 \
	p1 'S_IFIFO|0644' 0 \
	d 'S_IFDIR|0755' 0 \
	missing/p 'S_IFIFO|0644' 0 <<EOF
umask(0022) = 0022
mknod("p1", S_IFIFO|0666, 0) = 0
lstat("p1", {st_mode=S_IFIFO|0644, st_nlink=1, st_size=0}) = 0
mknod("r1", S_IFREG|0600, 0) = 0
lstat("r1", {st_mode=S_IFREG|0600, st_nlink=1, st_size=0}) = 0
mknod("r2", 0644, 0) = 0
lstat("r2", {st_mode=S_IFREG|0644, st_nlink=1, st_size=0}) = 0
mknod("s1", S_IFSOCK|0644, 0) = 0
lstat("s1", {st_mode=S_IFSOCK|0644, st_nlink=1, st_size=0}) = 0
mknod("p1", S_IFIFO|0644, 0) = -1 EEXIST
mknod("d", S_IFDIR|0755, 0) = -1 EPERM
mknod("missing/p", S_IFIFO|0644, 0) = -1 ENOENT
EOF

# A device node would reach the device behind every path rule: ward
# refuses them (EPERM), even to root, who may make them natively.
t -n "mknod: a device (natively)" mknod c 'S_IFCHR|0644' 0x0103 <<EOF
mknod("c", S_IFCHR|0644, 0x0103) = $(r 0 '-1 EPERM')$(r '
lstat("c", {st_mode=S_IFCHR|0644, st_nlink=1, st_size=0}) = 0' '')
EOF

t -w "mknod: no devices under ward" mknod c 'S_IFCHR|0644' 0x0103 b 'S_IFBLK|0600' 0x0800 <<EOF
mknod("c", S_IFCHR|0644, 0x0103) = -1 EPERM
mknod("b", S_IFBLK|0600, 0x0800) = -1 EPERM
EOF

t -w "mknod: the policy" mknod rofs/p 'S_IFIFO|0644' 0 nocreate/p 'S_IFIFO|0644' 0 <<EOF
mknod("rofs/p", S_IFIFO|0644, 0) = -1 EROFS
mknod("nocreate/p", S_IFIFO|0644, 0) = -1 EACCES
EOF

t "mknodat: relative to a directory fd, the umask (077)" mknodat -u 077 \
	@dir p 'S_IFIFO|0640' 0 \
	AT_FDCWD p2 'S_IFIFO|0666' 0 <<EOF
umask(0077) = 0022
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
mknodat(3, "p", S_IFIFO|0640, 0) = 0
lstat(3, "p", {st_mode=S_IFIFO|0600, st_nlink=1, st_size=0}) = 0
mknodat(AT_FDCWD, "p2", S_IFIFO|0666, 0) = 0
lstat("p2", {st_mode=S_IFIFO|0600, st_nlink=1, st_size=0}) = 0
EOF

chk_unlink() {
	absent link
	absent dangle
	content f 'old\n'
	kind_is dir directory
}
t -c chk_unlink "unlink: files, links, errors" unlink \
	link dangle link dir f/ dirlink/ missing/x . '' NULL <<EOF
unlink("link") = 0
unlink("dangle") = 0
unlink("link") = -1 ENOENT
unlink("dir") = -1 EISDIR
unlink("f/") = -1 ENOTDIR
unlink("dirlink/") = -1 ENOTDIR
unlink("missing/x") = -1 ENOENT
unlink(".") = -1 EISDIR
unlink("") = -1 ENOENT
unlink(NULL) = -1 EFAULT
EOF

chk_unlink_policy() {
	content keep/x 'keep\n'
	content rofs/x 'x\n'
	content "../outside/f" 'out\n'
	absent secret
	logged '"syscall":"unlink"' '"op":"delete"' "\"path\":\"$P/keep/x\"" '"decision":"deny"' \
		'"errno":"EACCES"' "\"rule\":\"$(loc '$PROJECT/keep/**')\""
}
t -w -c chk_unlink_policy "unlink: the policy" unlink keep/x rofs/x ../outside/f .ward/policy secret <<EOF
unlink("keep/x") = -1 EACCES
unlink("rofs/x") = -1 EROFS
unlink("../outside/f") = -1 EACCES
unlink(".ward/policy") = -1 EACCES
unlink("secret") = 0
EOF

t "unlinkat: AT_REMOVEDIR, relative to a directory fd" unlinkat \
	AT_FDCWD empty AT_REMOVEDIR \
	AT_FDCWD dir AT_REMOVEDIR \
	AT_FDCWD f AT_REMOVEDIR \
	AT_FDCWD dirlink AT_REMOVEDIR \
	@dir inner 0 \
	AT_FDCWD dir 0 \
	AT_FDCWD f 0x1 \
	AT_FDCWD dir AT_REMOVEDIR <<EOF
unlinkat(AT_FDCWD, "empty", AT_REMOVEDIR) = 0
unlinkat(AT_FDCWD, "dir", AT_REMOVEDIR) = -1 ENOTEMPTY
unlinkat(AT_FDCWD, "f", AT_REMOVEDIR) = -1 ENOTDIR
unlinkat(AT_FDCWD, "dirlink", AT_REMOVEDIR) = -1 ENOTDIR
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
unlinkat(3, "inner", 0) = 0
unlinkat(AT_FDCWD, "dir", 0) = -1 EISDIR
unlinkat(AT_FDCWD, "f", 0x1) = -1 EINVAL
unlinkat(AT_FDCWD, "dir", AT_REMOVEDIR) = 0
EOF

t -w "unlinkat: the policy" unlinkat AT_FDCWD keep/e AT_REMOVEDIR @keep x 0 <<EOF
unlinkat(AT_FDCWD, "keep/e", AT_REMOVEDIR) = -1 EACCES
openat(AT_FDCWD, "keep", O_RDONLY|O_DIRECTORY) = 3
unlinkat(3, "x", 0) = -1 EACCES
EOF

t "rmdir: empty, not empty, not a directory, . and .." rmdir \
	empty dir f empty2/ dirlink missing dir/. .. <<EOF
rmdir("empty") = 0
rmdir("dir") = -1 ENOTEMPTY
rmdir("f") = -1 ENOTDIR
rmdir("empty2/") = 0
rmdir("dirlink") = -1 ENOTDIR
rmdir("missing") = -1 ENOENT
rmdir("dir/.") = -1 EINVAL
rmdir("..") = -1 ENOTEMPTY
EOF

t -w "rmdir: the policy" rmdir keep/e rofs <<EOF
rmdir("keep/e") = -1 EACCES
rmdir("rofs") = -1 EROFS
EOF

chk_rename() {
	absent f
	content g 'old\n'
	kind_is empty directory
	absent dir
	content empty/inner 'inner\n'
	kind_is l2 'symbolic link'
}
t -c chk_rename "rename: files, directories, errors" rename \
	f g \
	g empty2 \
	dir empty \
	missing x \
	empty empty/sub \
	link l2 \
	ro444/ x \
	g g <<EOF
rename("f", "g") = 0
rename("g", "empty2") = -1 EISDIR
rename("dir", "empty") = 0
rename("missing", "x") = -1 ENOENT
rename("empty", "empty/sub") = -1 EINVAL
rename("link", "l2") = 0
rename("ro444/", "x") = -1 ENOTDIR
rename("g", "g") = 0
EOF

chk_rename_policy() {
	content keep/x 'keep\n'
	content f 'old\n'
	content ../outside/f 'out\n'
	absent rofs/f
	absent keep/y
	logged '"syscall":"rename"' '"op":"delete"' "\"path\":\"$P/keep/x\"" '"decision":"deny"'
	logged '"syscall":"rename"' '"op":"create"' "\"path\":\"$P/rofs/f\"" '"decision":"deny"' \
		'"errno":"EROFS"'
}
t -w -c chk_rename_policy "rename: delete at the source, create at the target" rename \
	keep/x keep/y \
	f keep/x \
	f rofs/f \
	f ../outside/f2 \
	../outside/f p \
	f nocreate/f <<EOF
rename("keep/x", "keep/y") = -1 EACCES
rename("f", "keep/x") = -1 EACCES
rename("f", "rofs/f") = -1 EROFS
rename("f", "../outside/f2") = -1 EACCES
rename("../outside/f", "p") = -1 EACCES
rename("f", "nocreate/f") = -1 EACCES
EOF

chk_renameat() {
	content moved 'inner\n'
	content dir/f2 'old\n'
}
t -c chk_renameat "renameat: relative to directory fds" renameat \
	@dir inner AT_FDCWD moved \
	AT_FDCWD f @dir f2 <<EOF
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
renameat(3, "inner", AT_FDCWD, "moved") = 0
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 4
renameat(AT_FDCWD, "f", 4, "f2") = 0
EOF

chk_renameat2() {
	content f 'inner\n'
	content dir/inner 'old\n'
	absent g
}
t -c chk_renameat2 "renameat2: RENAME_NOREPLACE, RENAME_EXCHANGE" renameat2 \
	AT_FDCWD f AT_FDCWD dir/inner RENAME_NOREPLACE \
	AT_FDCWD f AT_FDCWD dir/inner RENAME_EXCHANGE \
	AT_FDCWD f AT_FDCWD nonexist RENAME_EXCHANGE \
	AT_FDCWD f AT_FDCWD g 'RENAME_NOREPLACE|RENAME_EXCHANGE' \
	AT_FDCWD f AT_FDCWD g 0x100 \
	AT_FDCWD f AT_FDCWD g RENAME_NOREPLACE \
	AT_FDCWD g AT_FDCWD f 0 <<EOF
renameat2(AT_FDCWD, "f", AT_FDCWD, "dir/inner", RENAME_NOREPLACE) = -1 EEXIST
renameat2(AT_FDCWD, "f", AT_FDCWD, "dir/inner", RENAME_EXCHANGE) = 0
renameat2(AT_FDCWD, "f", AT_FDCWD, "nonexist", RENAME_EXCHANGE) = -1 ENOENT
renameat2(AT_FDCWD, "f", AT_FDCWD, "g", RENAME_NOREPLACE|RENAME_EXCHANGE) = -1 EINVAL
renameat2(AT_FDCWD, "f", AT_FDCWD, "g", 0x100) = -1 EINVAL
renameat2(AT_FDCWD, "f", AT_FDCWD, "g", RENAME_NOREPLACE) = 0
renameat2(AT_FDCWD, "g", AT_FDCWD, "f", 0) = 0
EOF

chk_renameat2_policy() {
	content f 'old\n'
	content keep/x 'keep\n'
	content rofs/x 'x\n'
}
t -w -c chk_renameat2_policy "renameat2: RENAME_EXCHANGE is delete and create at both ends" renameat2 \
	AT_FDCWD f AT_FDCWD keep/x RENAME_EXCHANGE \
	AT_FDCWD keep/x AT_FDCWD f RENAME_EXCHANGE \
	AT_FDCWD f AT_FDCWD rofs/x RENAME_EXCHANGE \
	AT_FDCWD f AT_FDCWD nocreate/x RENAME_EXCHANGE <<EOF
renameat2(AT_FDCWD, "f", AT_FDCWD, "keep/x", RENAME_EXCHANGE) = -1 EACCES
renameat2(AT_FDCWD, "keep/x", AT_FDCWD, "f", RENAME_EXCHANGE) = -1 EACCES
renameat2(AT_FDCWD, "f", AT_FDCWD, "rofs/x", RENAME_EXCHANGE) = -1 EROFS
renameat2(AT_FDCWD, "f", AT_FDCWD, "nocreate/x", RENAME_EXCHANGE) = -1 EACCES
EOF

chk_link() {
	content hl 'old\n'
	kind_is ll 'symbolic link'
	native_out stat f -- 'stat("f", {st_mode=S_IFREG|0644, st_nlink=2, st_size=4}) = 0'
}
t -c chk_link "link: files, symlinks (not followed), directories, errors" link \
	f hl \
	f hl \
	dir dl \
	missing x \
	link ll \
	dangle ld \
	f/ x \
	f missing/x <<EOF
link("f", "hl") = 0
link("f", "hl") = -1 EEXIST
link("dir", "dl") = -1 EPERM
link("missing", "x") = -1 ENOENT
link("link", "ll") = 0
link("dangle", "ld") = 0
link("f/", "x") = -1 ENOTDIR
link("f", "missing/x") = -1 ENOENT
EOF

chk_link_policy() {
	kind_is hl 'symbolic link'
	absent rofs/hl
	logged '"syscall":"link"' '"op":"read"' "\"path\":\"$P/secret\"" '"decision":"deny"' \
		'"errno":"EACCES"'
}
t -w -c chk_link_policy "link: read at the source, create at the target" link \
	secret hl \
	slink hl \
	f rofs/hl \
	f ../outside/hl \
	f nocreate/hl <<EOF
link("secret", "hl") = -1 EACCES
link("slink", "hl") = 0
link("f", "rofs/hl") = -1 EROFS
link("f", "../outside/hl") = -1 EACCES
link("f", "nocreate/hl") = -1 EACCES
EOF

chk_linkat() {
	content l3 'old\n'
}
# A file opened O_TMPFILE is given a name with linkat(fd, "", AT_EMPTY_PATH)
# (the fd is the caller's own, so no capability is needed since Linux 6.10).
t -c chk_linkat "linkat: AT_SYMLINK_FOLLOW, AT_EMPTY_PATH, O_TMPFILE" linkat \
	AT_FDCWD link AT_FDCWD l1 0 \
	AT_FDCWD link AT_FDCWD l2 AT_SYMLINK_FOLLOW \
	%f '' AT_FDCWD l3 AT_EMPTY_PATH \
	%f '' AT_FDCWD l4 0 \
	AT_FDCWD f AT_FDCWD l5 0x1 \
	@dir inner AT_FDCWD l6 0 <<EOF
linkat(AT_FDCWD, "link", AT_FDCWD, "l1", 0) = 0
lstat("l1", {st_mode=S_IFLNK|0777, st_nlink=2, st_size=1}) = 0
linkat(AT_FDCWD, "link", AT_FDCWD, "l2", AT_SYMLINK_FOLLOW) = 0
lstat("l2", {st_mode=S_IFREG|0644, st_nlink=2, st_size=4}) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 3
linkat(3, "", AT_FDCWD, "l3", AT_EMPTY_PATH) = 0
lstat("l3", {st_mode=S_IFREG|0644, st_nlink=3, st_size=4}) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 4
linkat(4, "", AT_FDCWD, "l4", 0) = -1 ENOENT
linkat(AT_FDCWD, "f", AT_FDCWD, "l5", 0x1) = -1 EINVAL
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 5
linkat(5, "inner", AT_FDCWD, "l6", 0) = 0
lstat("l6", {st_mode=S_IFREG|0644, st_nlink=2, st_size=6}) = 0
EOF

t -O "linkat: naming an O_TMPFILE file" linkat +dir '' @dir named AT_EMPTY_PATH <<EOF
openat(AT_FDCWD, "dir", O_RDWR|O_TMPFILE, 0600) = 3
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 4
linkat(3, "", 4, "named", AT_EMPTY_PATH) = 0
lstat(4, "named", {st_mode=S_IFREG|0600, st_nlink=1, st_size=0}) = 0
EOF

t -w "linkat: an fd does not launder a denied source" linkat \
	'>secret' '' AT_FDCWD hl AT_EMPTY_PATH \
	AT_FDCWD slink AT_FDCWD hl2 AT_SYMLINK_FOLLOW <<EOF
openat(AT_FDCWD, "secret", O_WRONLY) = 3
linkat(3, "", AT_FDCWD, "hl", AT_EMPTY_PATH) = -1 EACCES
linkat(AT_FDCWD, "slink", AT_FDCWD, "hl2", AT_SYMLINK_FOLLOW) = -1 EACCES
EOF

t -w -f "9 #secret" "linkat: an O_PATH fd from outside does not launder a denied source" linkat \
	9 '' AT_FDCWD hl AT_EMPTY_PATH <<EOF
openat(AT_FDCWD, "secret", O_PATH) = 3
dup2(3, 9) = 9
linkat(9, "", AT_FDCWD, "hl", AT_EMPTY_PATH) = -1 EACCES
EOF

t "symlink: dangling is fine, errors" symlink \
	f s1 \
	f s1 \
	/nonexistent s2 \
	x missing/s \
	x '' \
	'' s3 \
	x f/s <<EOF
symlink("f", "s1") = 0
symlink("f", "s1") = -1 EEXIST
symlink("/nonexistent", "s2") = 0
symlink("x", "missing/s") = -1 ENOENT
symlink("x", "") = -1 ENOENT
symlink("", "s3") = -1 ENOENT
symlink("x", "f/s") = -1 ENOTDIR
EOF

chk_symlink_policy() {
	absent rofs/s
	kind_is s4 'symbolic link'
}
t -w -c chk_symlink_policy "symlink: create at the link; the target is only text" symlink \
	f rofs/s \
	f nocreate/s \
	secret s4 <<EOF
symlink("f", "rofs/s") = -1 EROFS
symlink("f", "nocreate/s") = -1 EACCES
symlink("secret", "s4") = 0
EOF

t "symlinkat: relative to a directory fd" symlinkat ../f @dir s x 99 s <<EOF
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
symlinkat("../f", 3, "s") = 0
lstat(3, "s", {st_mode=S_IFLNK|0777, st_nlink=1, st_size=4}) = 0
symlinkat("x", 99, "s") = -1 EBADF
EOF

t "chmod: modes, links followed, errors" chmod \
	f 0600 \
	link 0640 \
	dir 0700 \
	suid 06755 \
	missing 0644 \
	dangle 0644 \
	f/ 0644 <<EOF
chmod("f", 0600) = 0
lstat("f", {st_mode=S_IFREG|0600, st_nlink=1, st_size=4}) = 0
chmod("link", 0640) = 0
lstat("link", {st_mode=S_IFLNK|0777, st_nlink=1, st_size=1}) = 0
chmod("dir", 0700) = 0
lstat("dir", {st_mode=S_IFDIR|0700}) = 0
chmod("suid", 06755) = 0
lstat("suid", {st_mode=S_IFREG|6755, st_nlink=1, st_size=5}) = 0
chmod("missing", 0644) = -1 ENOENT
chmod("dangle", 0644) = -1 ENOENT
chmod("f/", 0644) = -1 ENOTDIR
EOF

chk_chmod_policy() {
	mode_is readonly 644
	mode_is rofs/x 644
	mode_is ../outside/f 644
	logged '"syscall":"chmod"' '"op":"write"' "\"path\":\"$P/readonly\"" '"decision":"deny"'
}
t -w -c chk_chmod_policy "chmod: is a write" chmod \
	readonly 0600 \
	rofs/x 0600 \
	../outside/f 0600 \
	secret 0600 <<EOF
chmod("readonly", 0600) = -1 EACCES
chmod("rofs/x", 0600) = -1 EROFS
chmod("../outside/f", 0600) = -1 EACCES
chmod("secret", 0600) = 0
lstat("secret", {st_mode=S_IFREG|0600, st_nlink=1, st_size=7}) = 0
EOF

t "fchmod: through an fd; an O_PATH fd is EBADF" fchmod \
	%f 0600 \
	@dir 0700 \
	'#f' 0640 \
	99 0600 <<EOF
openat(AT_FDCWD, "f", O_RDONLY) = 3
fchmod(3, 0600) = 0
fstat(3, {st_mode=S_IFREG|0600, st_nlink=1, st_size=4}) = 0
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 4
fchmod(4, 0700) = 0
fstat(4, {st_mode=S_IFDIR|0700}) = 0
openat(AT_FDCWD, "f", O_PATH) = 5
fchmod(5, 0640) = -1 EBADF
fchmod(99, 0600) = -1 EBADF
EOF

t -f "9 #f" "fchmod: an O_PATH fd from outside is EBADF" fchmod 9 0600 <<EOF
openat(AT_FDCWD, "f", O_PATH) = 3
dup2(3, 9) = 9
fchmod(9, 0600) = -1 EBADF
EOF

t -w "fchmod: an fd open for reading does not allow a write" fchmod %readonly 0600 %rofs/x 0600 <<EOF
openat(AT_FDCWD, "readonly", O_RDONLY) = 3
fchmod(3, 0600) = -1 EACCES
openat(AT_FDCWD, "rofs/x", O_RDONLY) = 4
fchmod(4, 0600) = -1 EROFS
EOF

t "fchmodat: relative to a directory fd; no flags" fchmodat \
	AT_FDCWD f 0600 \
	@dir inner 0640 \
	%f '' 0600 <<EOF
fchmodat(AT_FDCWD, "f", 0600) = 0
lstat("f", {st_mode=S_IFREG|0600, st_nlink=1, st_size=4}) = 0
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
fchmodat(3, "inner", 0640) = 0
lstat(3, "inner", {st_mode=S_IFREG|0640, st_nlink=1, st_size=6}) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 4
fchmodat(4, "", 0600) = -1 ENOENT
EOF

t -w "fchmodat: is a write" fchmodat AT_FDCWD readonly 0600 @rofs x 0600 <<EOF
fchmodat(AT_FDCWD, "readonly", 0600) = -1 EACCES
openat(AT_FDCWD, "rofs", O_RDONLY|O_DIRECTORY) = 3
fchmodat(3, "x", 0600) = -1 EROFS
EOF

# fchmodat2 (6.6) and the *xattrat calls (6.13) take paths that the
# supervised table would otherwise not see; ward refuses them with ENOSYS,
# so that libc falls back to the calls it supervises (supervisor/syscalls.h,
# "newer path syscalls").  Natively they work; under ward nothing changes.
t -n "fchmodat2: flags" fchmodat2 \
	AT_FDCWD f 0600 0 \
	AT_FDCWD link 0600 AT_SYMLINK_NOFOLLOW \
	%f '' 0640 AT_EMPTY_PATH <<EOF
fchmodat2(AT_FDCWD, "f", 0600, 0) = 0
lstat("f", {st_mode=S_IFREG|0600, st_nlink=1, st_size=4}) = 0
fchmodat2(AT_FDCWD, "link", 0600, AT_SYMLINK_NOFOLLOW) = -1 EOPNOTSUPP
openat(AT_FDCWD, "f", O_RDONLY) = 3
fchmodat2(3, "", 0640, AT_EMPTY_PATH) = 0
lstat(3, "", ...) = -1 ENOENT
EOF

chk_fchmodat2_policy() {
	mode_is f 644
	mode_is readonly 644
	mode_is rofs/x 644
	mode_is ../outside/f 644
}
t -w -c chk_fchmodat2_policy "fchmodat2: refused (ENOSYS), nothing changes" fchmodat2 \
	AT_FDCWD f 0600 0 \
	AT_FDCWD readonly 0600 0 \
	AT_FDCWD rofs/x 0600 0 \
	AT_FDCWD ../outside/f 0600 0 <<EOF
fchmodat2(AT_FDCWD, "f", 0600, 0) = -1 ENOSYS
fchmodat2(AT_FDCWD, "readonly", 0600, 0) = -1 ENOSYS
fchmodat2(AT_FDCWD, "rofs/x", 0600, 0) = -1 ENOSYS
fchmodat2(AT_FDCWD, "../outside/f", 0600, 0) = -1 ENOSYS
EOF

t "chown: to one's own ids" chown \
	f OWN OWN \
	f -1 -1 \
	link OWN -1 \
	missing OWN OWN \
	f 0 0 <<EOF
chown("f", OWN, OWN) = 0
chown("f", -1, -1) = 0
chown("link", OWN, -1) = 0
chown("missing", OWN, OWN) = -1 ENOENT
chown("f", 0, 0) = $(r 0 '-1 EPERM')
EOF

chk_chown_suid() {
	mode_is suid 755
}
t -c chk_chown_suid "chown: clears set-user-ID" chown suid OWN OWN <<EOF
chown("suid", OWN, OWN) = 0
EOF

t -w "chown: is a write" chown readonly OWN OWN rofs/x OWN OWN ../outside/f OWN OWN <<EOF
chown("readonly", OWN, OWN) = -1 EACCES
chown("rofs/x", OWN, OWN) = -1 EROFS
chown("../outside/f", OWN, OWN) = -1 EACCES
EOF

t "lchown: the link itself" lchown link OWN OWN dangle OWN OWN missing OWN OWN <<EOF
lchown("link", OWN, OWN) = 0
lchown("dangle", OWN, OWN) = 0
lchown("missing", OWN, OWN) = -1 ENOENT
EOF

t -w "lchown: is a write" lchown readonly OWN OWN <<EOF
lchown("readonly", OWN, OWN) = -1 EACCES
EOF

t "fchown: through an fd; an O_PATH fd is EBADF" fchown %f OWN OWN '#f' OWN OWN 99 OWN OWN <<EOF
openat(AT_FDCWD, "f", O_RDONLY) = 3
fchown(3, OWN, OWN) = 0
openat(AT_FDCWD, "f", O_PATH) = 4
fchown(4, OWN, OWN) = -1 EBADF
fchown(99, OWN, OWN) = -1 EBADF
EOF

t -f "9 #f" "fchown: an O_PATH fd from outside is EBADF" fchown 9 OWN OWN <<EOF
openat(AT_FDCWD, "f", O_PATH) = 3
dup2(3, 9) = 9
fchown(9, OWN, OWN) = -1 EBADF
EOF

t -w "fchown: is a write" fchown %readonly OWN OWN <<EOF
openat(AT_FDCWD, "readonly", O_RDONLY) = 3
fchown(3, OWN, OWN) = -1 EACCES
EOF

t "fchownat: flags" fchownat \
	AT_FDCWD f OWN OWN 0 \
	AT_FDCWD dangle OWN OWN AT_SYMLINK_NOFOLLOW \
	AT_FDCWD dangle OWN OWN 0 \
	'#f' '' OWN OWN AT_EMPTY_PATH \
	@dir inner OWN OWN 0 \
	AT_FDCWD f OWN OWN 0x1 <<EOF
fchownat(AT_FDCWD, "f", OWN, OWN, 0) = 0
fchownat(AT_FDCWD, "dangle", OWN, OWN, AT_SYMLINK_NOFOLLOW) = 0
fchownat(AT_FDCWD, "dangle", OWN, OWN, 0) = -1 ENOENT
openat(AT_FDCWD, "f", O_PATH) = 3
fchownat(3, "", OWN, OWN, AT_EMPTY_PATH) = 0
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 4
fchownat(4, "inner", OWN, OWN, 0) = 0
fchownat(AT_FDCWD, "f", OWN, OWN, 0x1) = -1 EINVAL
EOF

t -f "9 #f" "fchownat: AT_EMPTY_PATH on an O_PATH fd from outside" fchownat 9 '' OWN OWN AT_EMPTY_PATH <<EOF
openat(AT_FDCWD, "f", O_PATH) = 3
dup2(3, 9) = 9
fchownat(9, "", OWN, OWN, AT_EMPTY_PATH) = 0
EOF

t -w -f "9 #readonly" "fchownat: AT_EMPTY_PATH on an O_PATH fd is still a write" fchownat \
	9 '' OWN OWN AT_EMPTY_PATH <<EOF
openat(AT_FDCWD, "readonly", O_PATH) = 3
dup2(3, 9) = 9
fchownat(9, "", OWN, OWN, AT_EMPTY_PATH) = -1 EACCES
EOF

t -w "fchownat: is a write" fchownat AT_FDCWD readonly OWN OWN 0 '#readonly' '' OWN OWN AT_EMPTY_PATH <<EOF
fchownat(AT_FDCWD, "readonly", OWN, OWN, 0) = -1 EACCES
openat(AT_FDCWD, "readonly", O_PATH) = 3
fchownat(3, "", OWN, OWN, AT_EMPTY_PATH) = -1 EACCES
EOF

chk_truncate() {
	content f 'ol\0\0\0\0\0\0\0\0'
}
t -c chk_truncate "truncate: shorter, longer, errors" truncate \
	f 2 \
	f 10 \
	dir 0 \
	missing 0 \
	f -1 \
	fifo 0 \
	f/ 0 \
	ro444 0 <<EOF
truncate("f", 2) = 0
lstat("f", {st_mode=S_IFREG|0644, st_nlink=1, st_size=2}) = 0
truncate("f", 10) = 0
lstat("f", {st_mode=S_IFREG|0644, st_nlink=1, st_size=10}) = 0
truncate("dir", 0) = -1 EISDIR
truncate("missing", 0) = -1 ENOENT
truncate("f", -1) = -1 EINVAL
truncate("fifo", 0) = -1 EINVAL
truncate("f/", 0) = -1 ENOTDIR
truncate("ro444", 0) = $(r 0 '-1 EACCES')$(r '
lstat("ro444", {st_mode=S_IFREG|0444, st_nlink=1, st_size=0}) = 0' '')
EOF

chk_truncate_policy() {
	content readonly 'ro\n'
	content rofs/x 'x\n'
	content ../outside/f 'out\n'
	logged '"syscall":"truncate"' '"op":"write"' "\"path\":\"$P/readonly\"" '"decision":"deny"'
}
t -w -c chk_truncate_policy "truncate: is a write" truncate readonly 0 rofs/x 0 ../outside/f 0 <<EOF
truncate("readonly", 0) = -1 EACCES
truncate("rofs/x", 0) = -1 EROFS
truncate("../outside/f", 0) = -1 EACCES
EOF

t "utime: times, NULL, errors" utime \
	f 1000000000 1000000001 \
	link 1000 2000 \
	f NULL 0 \
	missing 1 1 <<EOF
utime("f", {actime=1000000000, modtime=1000000001}) = 0
stat("f", {st_atime=1000000000, st_mtime=1000000001}) = 0
utime("link", {actime=1000, modtime=2000}) = 0
stat("link", {st_atime=1000, st_mtime=2000}) = 0
utime("f", NULL) = 0
stat("f", {st_atime=NOW, st_mtime=NOW}) = 0
utime("missing", {actime=1, modtime=1}) = -1 ENOENT
EOF

t -w "utime: is a write" utime readonly 1 2 rofs/x 1 2 readonly NULL 0 <<EOF
utime("readonly", {actime=1, modtime=2}) = -1 EACCES
utime("rofs/x", {actime=1, modtime=2}) = -1 EROFS
utime("readonly", NULL) = -1 EACCES
EOF

t "utimes: times, NULL, bad microseconds" utimes \
	f 1000000000.5 1000000001.999999 \
	f 1.1000000 2 \
	f NULL 0 <<EOF
utimes("f", [1000000000.5, 1000000001.999999]) = 0
stat("f", {st_atime=1000000000, st_mtime=1000000001}) = 0
utimes("f", [1.1000000, 2]) = -1 EINVAL
utimes("f", NULL) = 0
stat("f", {st_atime=NOW, st_mtime=NOW}) = 0
EOF

t -w "utimes: is a write" utimes readonly 1 2 <<EOF
utimes("readonly", [1, 2]) = -1 EACCES
EOF

t "futimesat: relative to a directory fd; a NULL path is the fd itself" futimesat \
	@dir inner 1000 2000 \
	AT_FDCWD f 3000 4000 \
	%f NULL 5000 6000 <<EOF
openat(AT_FDCWD, "dir", O_RDONLY|O_DIRECTORY) = 3
futimesat(3, "inner", [1000, 2000]) = 0
stat(3, "inner", {st_atime=1000, st_mtime=2000}) = 0
futimesat(AT_FDCWD, "f", [3000, 4000]) = 0
stat("f", {st_atime=3000, st_mtime=4000}) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 4
futimesat(4, NULL, [5000, 6000]) = 0
fstat(4, {st_atime=5000, st_mtime=6000}) = 0
EOF

t -f "9 #f" "futimesat: a NULL path on an O_PATH fd from outside is EBADF" futimesat 9 NULL 1 2 <<EOF
openat(AT_FDCWD, "f", O_PATH) = 3
dup2(3, 9) = 9
futimesat(9, NULL, [1, 2]) = -1 EBADF
EOF

t -w "futimesat: is a write" futimesat @. readonly 1 2 %readonly NULL 1 2 <<EOF
openat(AT_FDCWD, ".", O_RDONLY|O_DIRECTORY) = 3
futimesat(3, "readonly", [1, 2]) = -1 EACCES
openat(AT_FDCWD, "readonly", O_RDONLY) = 4
futimesat(4, NULL, [1, 2]) = -1 EACCES
EOF

t "utimensat: UTIME_OMIT, NULL path (futimens), AT_EMPTY_PATH, errors" utimensat \
	AT_FDCWD f 1000 2000 0 \
	AT_FDCWD f UTIME_OMIT 3000 0 \
	AT_FDCWD link 7 8 AT_SYMLINK_NOFOLLOW \
	%f NULL 4000 5000 0 \
	%f '' 6000 7000 AT_EMPTY_PATH \
	AT_FDCWD NULL 1 2 0 \
	%f NULL 1 2 AT_SYMLINK_NOFOLLOW \
	'#f' NULL 1 2 0 \
	AT_FDCWD f 1 2 0x8000 \
	AT_FDCWD f NULL 0 0 <<EOF
utimensat(AT_FDCWD, "f", [1000, 2000], 0) = 0
stat("f", {st_atime=1000, st_mtime=2000}) = 0
utimensat(AT_FDCWD, "f", [UTIME_OMIT, 3000], 0) = 0
stat("f", {st_atime=1000, st_mtime=3000}) = 0
utimensat(AT_FDCWD, "link", [7, 8], AT_SYMLINK_NOFOLLOW) = 0
stat("link", {st_atime=1000, st_mtime=3000}) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 3
utimensat(3, NULL, [4000, 5000], 0) = 0
fstat(3, {st_atime=4000, st_mtime=5000}) = 0
openat(AT_FDCWD, "f", O_RDONLY) = 4
utimensat(4, "", [6000, 7000], AT_EMPTY_PATH) = 0
fstat(4, {st_atime=6000, st_mtime=7000}) = 0
utimensat(AT_FDCWD, NULL, [1, 2], 0) = -1 EFAULT
openat(AT_FDCWD, "f", O_RDONLY) = 5
utimensat(5, NULL, [1, 2], AT_SYMLINK_NOFOLLOW) = -1 EINVAL
openat(AT_FDCWD, "f", O_PATH) = 6
utimensat(6, NULL, [1, 2], 0) = -1 EBADF
utimensat(AT_FDCWD, "f", [1, 2], 0x8000) = -1 EINVAL
utimensat(AT_FDCWD, "f", NULL, 0) = 0
stat("f", {st_atime=NOW, st_mtime=NOW}) = 0
EOF

t -f "9 #f" "utimensat: a NULL path on an O_PATH fd from outside is EBADF" utimensat \
	9 NULL 1 2 0 9 '' 3 4 AT_EMPTY_PATH <<EOF
openat(AT_FDCWD, "f", O_PATH) = 3
dup2(3, 9) = 9
utimensat(9, NULL, [1, 2], 0) = -1 EBADF
utimensat(9, "", [3, 4], AT_EMPTY_PATH) = 0
fstat(9, {st_atime=3, st_mtime=4}) = 0
EOF

t -w "utimensat: is a write" utimensat \
	AT_FDCWD readonly 1 2 0 \
	%readonly NULL 1 2 0 \
	AT_FDCWD rofs/x NULL 0 0 <<EOF
utimensat(AT_FDCWD, "readonly", [1, 2], 0) = -1 EACCES
openat(AT_FDCWD, "readonly", O_RDONLY) = 3
utimensat(3, NULL, [1, 2], 0) = -1 EACCES
utimensat(AT_FDCWD, "rofs/x", NULL, 0) = -1 EROFS
EOF

# ---------------------------------------------------------------- names

t "rename: a trailing slash on a file, and the names . .. and /" rename \
	f new/ \
	f dir/ \
	f/ x \
	empty empty2/ \
	. x \
	f .. \
	dir/.. x \
	/ x \
	missing/d/. x \
	f missing/.. \
	f/. x <<EOF
rename("f", "new/") = -1 ENOTDIR
rename("f", "dir/") = -1 ENOTDIR
rename("f/", "x") = -1 ENOTDIR
rename("empty", "empty2/") = 0
rename(".", "x") = -1 EBUSY
rename("f", "..") = -1 EBUSY
rename("dir/..", "x") = -1 EBUSY
rename("/", "x") = -1 EBUSY
rename("missing/d/.", "x") = -1 ENOENT
rename("f", "missing/..") = -1 ENOENT
rename("f/.", "x") = -1 ENOTDIR
EOF

t "link: a trailing slash or . as the new name" link \
	f x/ \
	f dir/ \
	f . \
	dir/inner dir/.. <<EOF
link("f", "x/") = -1 ENOENT
link("f", "dir/") = -1 EEXIST
link("f", ".") = -1 EEXIST
link("dir/inner", "dir/..") = -1 EEXIST
EOF

t "symlink: a trailing slash or . as the new name" symlink \
	t y/ \
	t dir/ \
	t . <<EOF
symlink("t", "y/") = -1 ENOENT
symlink("t", "dir/") = -1 EEXIST
symlink("t", ".") = -1 EEXIST
EOF

t "mknod: a trailing slash or . as the new name" mknod \
	x/ 0100644 0 \
	dir/ 0100644 0 \
	. 0100644 0 \
	x 0170644 0 <<EOF
mknod("x/", 0100644, 0) = -1 ENOENT
mknod("dir/", 0100644, 0) = -1 EEXIST
mknod(".", 0100644, 0) = -1 EEXIST
mknod("x", 0170644, 0) = -1 EINVAL
EOF

t "fchmod: AT_FDCWD is no fd" fchmod AT_FDCWD 0755 <<EOF
fchmod(AT_FDCWD, 0755) = -1 EBADF
EOF

t "fchown: AT_FDCWD is no fd" fchown AT_FDCWD -1 -1 <<EOF
fchown(AT_FDCWD, -1, -1) = -1 EBADF
EOF

t "fremovexattr: AT_FDCWD is no fd" fremovexattr AT_FDCWD user.x <<EOF
fremovexattr(AT_FDCWD, "user.x") = -1 EBADF
EOF

t "utimensat: an fd with a NULL path takes no flags" utimensat \
	%f NULL 1 2 AT_EMPTY_PATH <<EOF
openat(AT_FDCWD, "f", O_RDONLY) = 3
utimensat(3, NULL, [1, 2], AT_EMPTY_PATH) = -1 EINVAL
EOF

chk_protected_name() { # SYSCALL
	content readonly 'ro\n'
	absent moved
	absent hl
	logged "\"syscall\":\"$1\"" '"op":"write"' "\"path\":\"$P/readonly\"" '"decision":"deny"'
}
chk_protected_rename() { chk_protected_name rename; }
chk_protected_link() { chk_protected_name link; }
t -w -c chk_protected_rename "rename: a write-protected file is not moved" rename \
	readonly moved <<EOF
rename("readonly", "moved") = -1 EACCES
EOF

t -w -c chk_protected_link "link: a write-protected file gets no new name" link \
	readonly hl <<EOF
link("readonly", "hl") = -1 EACCES
EOF

t "chmod: a symlink to name/ reaches a directory or nothing" chmod fslash 0600 <<EOF
chmod("fslash", 0600) = -1 ENOTDIR
EOF

t "truncate: a symlink to name/" truncate fslash 0 <<EOF
truncate("fslash", 0) = -1 ENOTDIR
EOF

# ---------------------------------------------------------------- xattr changes

chk_setxattr() {
	native_out listxattr f 64 -- 'listxattr("f", ["user.e", "user.l", "user.x"], 64) = 21'
	native_out getxattr f user.x 64 -- 'getxattr("f", "user.x", "new", 64) = 3'
}
t -x -c chk_setxattr "setxattr: create, replace, errors, links followed" setxattr \
	f user.x hello 0 \
	f user.x again XATTR_CREATE \
	f user.y v XATTR_REPLACE \
	f user.e NULL 0 \
	f user.x new XATTR_REPLACE \
	f noprefix v 0 \
	f '' v 0 \
	f user.x v 4 \
	missing user.x v 0 \
	link user.l v 0 <<EOF
setxattr("f", "user.x", "hello", 5, 0) = 0
setxattr("f", "user.x", "again", 5, XATTR_CREATE) = -1 EEXIST
setxattr("f", "user.y", "v", 1, XATTR_REPLACE) = -1 ENODATA
setxattr("f", "user.e", NULL, 0, 0) = 0
setxattr("f", "user.x", "new", 3, XATTR_REPLACE) = 0
setxattr("f", "noprefix", "v", 1, 0) = -1 EOPNOTSUPP
setxattr("f", "", "v", 1, 0) = -1 ERANGE
setxattr("f", "user.x", "v", 1, 4) = -1 EINVAL
setxattr("missing", "user.x", "v", 1, 0) = -1 ENOENT
setxattr("link", "user.l", "v", 1, 0) = 0
EOF

chk_setxattr_policy() {
	native_out listxattr readonly 64 -- 'listxattr("readonly", ["user.r"], 64) = 7'
}
t -x -w -c chk_setxattr_policy "setxattr: is a write" setxattr \
	readonly user.x v 0 \
	rofs/x user.x v 0 \
	../outside/f user.x v 0 <<EOF
setxattr("readonly", "user.x", "v", 1, 0) = -1 EACCES
setxattr("rofs/x", "user.x", "v", 1, 0) = -1 EROFS
setxattr("../outside/f", "user.x", "v", 1, 0) = -1 EACCES
EOF

t -x "lsetxattr: user xattrs are not for symlinks" lsetxattr link user.l v 0 f user.z v 0 <<EOF
lsetxattr("link", "user.l", "v", 1, 0) = -1 EPERM
lsetxattr("f", "user.z", "v", 1, 0) = 0
EOF

t -x -R "lsetxattr: root may put a trusted xattr on a symlink" lsetxattr link trusted.t v 0 <<EOF
lsetxattr("link", "trusted.t", "v", 1, 0) = 0
EOF

t -x "fsetxattr: through an fd; an O_PATH fd is EBADF" fsetxattr \
	%f user.x v 0 \
	=f user.y w 0 \
	'#f' user.z v 0 \
	99 user.x v 0 <<EOF
openat(AT_FDCWD, "f", O_RDONLY) = 3
fsetxattr(3, "user.x", "v", 1, 0) = 0
openat(AT_FDCWD, "f", O_RDWR) = 4
fsetxattr(4, "user.y", "w", 1, 0) = 0
openat(AT_FDCWD, "f", O_PATH) = 5
fsetxattr(5, "user.z", "v", 1, 0) = -1 EBADF
fsetxattr(99, "user.x", "v", 1, 0) = -1 EBADF
EOF

t -x -f "9 #f" "fsetxattr: an O_PATH fd from outside is EBADF" fsetxattr 9 user.z v 0 <<EOF
openat(AT_FDCWD, "f", O_PATH) = 3
dup2(3, 9) = 9
fsetxattr(9, "user.z", "v", 1, 0) = -1 EBADF
EOF

t -x -w "fsetxattr: is a write" fsetxattr %readonly user.x v 0 <<EOF
openat(AT_FDCWD, "readonly", O_RDONLY) = 3
fsetxattr(3, "user.x", "v", 1, 0) = -1 EACCES
EOF

chk_removexattr() {
	native_out listxattr xf 64 -- 'listxattr("xf", [], 64) = 0'
}
t -x -c chk_removexattr "removexattr: remove, errors, links followed" removexattr \
	xf user.a \
	xf user.a \
	xlink user.b \
	missing user.a <<EOF
removexattr("xf", "user.a") = 0
removexattr("xf", "user.a") = -1 ENODATA
removexattr("xlink", "user.b") = 0
removexattr("missing", "user.a") = -1 ENOENT
EOF

t -x -w "removexattr: is a write" removexattr readonly user.r <<EOF
removexattr("readonly", "user.r") = -1 EACCES
EOF

t -x "lremovexattr: the link itself" lremovexattr xlink user.a xf user.b <<EOF
lremovexattr("xlink", "user.a") = -1 EPERM
lremovexattr("xf", "user.b") = 0
EOF

t -x "fremovexattr: through an fd; an O_PATH fd is EBADF" fremovexattr %xf user.a '#xf' user.b <<EOF
openat(AT_FDCWD, "xf", O_RDONLY) = 3
fremovexattr(3, "user.a") = 0
openat(AT_FDCWD, "xf", O_PATH) = 4
fremovexattr(4, "user.b") = -1 EBADF
EOF

t -x -f "9 #xf" "fremovexattr: an O_PATH fd from outside is EBADF" fremovexattr 9 user.a <<EOF
openat(AT_FDCWD, "xf", O_PATH) = 3
dup2(3, 9) = 9
fremovexattr(9, "user.a") = -1 EBADF
EOF

t -x -w "fremovexattr: is a write" fremovexattr %readonly user.r <<EOF
openat(AT_FDCWD, "readonly", O_RDONLY) = 3
fremovexattr(3, "user.r") = -1 EACCES
EOF

t -x -n "setxattrat: flags" setxattrat \
	AT_FDCWD f 0 user.x v 0 \
	AT_FDCWD link AT_SYMLINK_NOFOLLOW user.x v 0 \
	%f '' AT_EMPTY_PATH user.y w 0 <<EOF
setxattrat(AT_FDCWD, "f", 0, "user.x", {value="v", size=1, flags=0}, 16) = 0
setxattrat(AT_FDCWD, "link", AT_SYMLINK_NOFOLLOW, "user.x", {value="v", size=1, flags=0}, 16) = -1 EPERM
openat(AT_FDCWD, "f", O_RDONLY) = 3
setxattrat(3, "", AT_EMPTY_PATH, "user.y", {value="w", size=1, flags=0}, 16) = 0
EOF

chk_setxattrat_policy() {
	native_out listxattr f 64 -- 'listxattr("f", [], 64) = 0'
	native_out listxattr readonly 64 -- 'listxattr("readonly", ["user.r"], 64) = 7'
	native_out listxattr rofs/x 64 -- 'listxattr("rofs/x", [], 64) = 0'
}
t -x -w -c chk_setxattrat_policy "setxattrat: refused (ENOSYS), nothing changes" setxattrat \
	AT_FDCWD f 0 user.x v 0 \
	AT_FDCWD readonly 0 user.x v 0 \
	AT_FDCWD rofs/x 0 user.x v 0 <<EOF
setxattrat(AT_FDCWD, "f", 0, "user.x", {value="v", size=1, flags=0}, 16) = -1 ENOSYS
setxattrat(AT_FDCWD, "readonly", 0, "user.x", {value="v", size=1, flags=0}, 16) = -1 ENOSYS
setxattrat(AT_FDCWD, "rofs/x", 0, "user.x", {value="v", size=1, flags=0}, 16) = -1 ENOSYS
EOF

t -x -n "removexattrat: flags" removexattrat AT_FDCWD xf 0 user.a AT_FDCWD xlink AT_SYMLINK_NOFOLLOW user.b <<EOF
removexattrat(AT_FDCWD, "xf", 0, "user.a") = 0
removexattrat(AT_FDCWD, "xlink", AT_SYMLINK_NOFOLLOW, "user.b") = -1 EPERM
EOF

chk_removexattrat_policy() {
	native_out listxattr readonly 64 -- 'listxattr("readonly", ["user.r"], 64) = 7'
	native_out listxattr xf 64 -- 'listxattr("xf", ["user.a", "user.b"], 64) = 14'
}
t -x -w -c chk_removexattrat_policy "removexattrat: refused (ENOSYS), nothing changes" removexattrat \
	AT_FDCWD xf 0 user.a \
	AT_FDCWD readonly 0 user.r <<EOF
removexattrat(AT_FDCWD, "xf", 0, "user.a") = -1 ENOSYS
removexattrat(AT_FDCWD, "readonly", 0, "user.r") = -1 ENOSYS
EOF
