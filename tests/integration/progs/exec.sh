# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The exec family of ward's syscall table:
# execve, execveat: decided, continued, verified at PTRACE_EVENT_EXEC.
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

chk_exec() {
	if [ "$V" = static ]; then
		logged '"event":"exec"' "\"path\":\"$BIN/printargs-static\"" '"static":true'
	else
		logged '"event":"exec"' "\"path\":\"$BIN/printargs\"" '"static":false'
	fi
	logged '"syscall":"execve"' '"op":"exec"' "\"path\":\"$BIN/printargs@S@\"" '"decision":"allow"'
}
t -c chk_exec "execve: a program" execve "$BIN/printargs@S@" printargs a 'b c' <<EOF
argv = ["printargs", "a", "b c"]
EOF

# Linux 5.18 runs an empty argv as { "" } (as do the stable kernels that
# took the change), an older one as it is: the kernel's own way, either.
empty_argv='argv = [""]'
if [ "$LISTING" = 0 ]; then
	empty_argv=$("$BIN/execve" "$BIN/printargs" -n)
	case $empty_argv in
	'argv = [""]' | 'argv = []') ;;
	*) fail "execve: a NULL argv runs natively as an empty one, or as { \"\" }" "$empty_argv" ;;
	esac
fi
t "execve: a NULL argv runs as the kernel runs it (${empty_argv#argv = })" execve "$BIN/printargs@S@" -n <<EOF
$empty_argv
EOF

t "execve: failures, then a success" execve \
	missing x -- \
	f x -- \
	dir x -- \
	garbage x -- \
	f/ x -- \
	'' x -- \
	"$BIN/printargs@S@" p <<EOF
execve("missing", ["x"], envp) = -1 ENOENT
execve("f", ["x"], envp) = -1 EACCES
execve("dir", ["x"], envp) = -1 EACCES
execve("garbage", ["x"], envp) = -1 ENOEXEC
execve("f/", ["x"], envp) = -1 ENOTDIR
execve("", ["x"], envp) = -1 ENOENT
argv = ["p"]
EOF

t -s 3 "execve: the exit status is the program's" execve ./exit3 exit3 <<EOF
EOF

t "execve: a #! script" execve script@S@ s a <<EOF
argv = ["$BIN/printargs@S@", "script@S@", "a"]
EOF

t "execve: through a symlink" execve proglink@S@ p <<EOF
argv = ["p"]
EOF

t -D "execve: the dynamic loader running a program" execve \
	/lib64/ld-linux-x86-64.so.2 ld.so "$BIN/printargs" x <<EOF
argv = ["$BIN/printargs", "x"]
EOF

chk_exec_policy() {
	logged '"syscall":"execve"' '"op":"exec"' "\"path\":\"$P/noexec/printargs@S@\"" '"decision":"deny"' \
		'"errno":"EACCES"' "\"rule\":\"$(loc '$PROJECT/noexec/**')\""
}
t -w -c chk_exec_policy "execve: deny exec, also of a script's interpreter" execve \
	noexec/printargs@S@ p -- \
	"$P/noexec/printargs@S@" p -- \
	noexec-script@S@ s -- \
	"$BIN/printargs@S@" ok <<EOF
execve("noexec/printargs@S@", ["p"], envp) = -1 EACCES
execve("$P/noexec/printargs@S@", ["p"], envp) = -1 EACCES
execve("noexec-script@S@", ["s"], envp) = -1 EACCES
argv = ["ok"]
EOF

t -w -D "execve: the dynamic loader is judged by the program it runs" execve \
	/lib64/ld-linux-x86-64.so.2 ld.so "$P/noexec/printargs" x -- \
	/lib64/ld-linux-x86-64.so.2 ld.so "$BIN/printargs" ok <<EOF
execve("/lib64/ld-linux-x86-64.so.2", ["ld.so", "$P/noexec/printargs", "x"], envp) = -1 EACCES
argv = ["$BIN/printargs", "ok"]
EOF

t "execveat: AT_FDCWD, a directory fd, errors" execveat \
	AT_FDCWD link AT_SYMLINK_NOFOLLOW p -- \
	AT_FDCWD f 0x1 p -- \
	"@$BIN" printargs@S@ 0 p a <<EOF
execveat(AT_FDCWD, "link", ["p"], envp, AT_SYMLINK_NOFOLLOW) = -1 ELOOP
execveat(AT_FDCWD, "f", ["p"], envp, 0x1) = -1 EINVAL
openat(AT_FDCWD, "$BIN", O_RDONLY|O_DIRECTORY) = 3
argv = ["p", "a"]
EOF

t "execveat: AT_EMPTY_PATH on a program's fd" execveat "%$BIN/printargs@S@" '' AT_EMPTY_PATH p <<EOF
openat(AT_FDCWD, "$BIN/printargs@S@", O_RDONLY) = 3
argv = ["p"]
EOF

t "execveat: AT_EMPTY_PATH on a close-on-exec fd of a program" execveat \
	"^$BIN/printargs@S@" '' AT_EMPTY_PATH p <<EOF
openat(AT_FDCWD, "$BIN/printargs@S@", O_RDONLY|O_CLOEXEC) = 3
argv = ["p"]
EOF

t "execveat: AT_EMPTY_PATH on a script's fd" execveat \
	^script@S@ '' AT_EMPTY_PATH s a -- \
	%script@S@ '' AT_EMPTY_PATH s a <<EOF
openat(AT_FDCWD, "script@S@", O_RDONLY|O_CLOEXEC) = 3
execveat(3, "", ["s", "a"], envp, AT_EMPTY_PATH) = -1 ENOENT
openat(AT_FDCWD, "script@S@", O_RDONLY) = 4
argv = ["$BIN/printargs@S@", "/dev/fd/4", "a"]
EOF

t "execveat: a script by a relative name from AT_FDCWD (the kernel passes the name as given)" \
	execveat AT_FDCWD script@S@ 0 s a <<EOF
argv = ["$BIN/printargs@S@", "script@S@", "a"]
EOF

t -f "9 #$BIN/printargs@S@" "execveat: AT_EMPTY_PATH on an O_PATH fd from outside" execveat \
	9 '' AT_EMPTY_PATH p <<EOF
openat(AT_FDCWD, "$BIN/printargs@S@", O_PATH) = 3
dup2(3, 9) = 9
argv = ["p"]
EOF

t -w "execve: /proc/self/fd/N of a denied program" withfd 9 %noexec/printargs@S@ -- \
	"$BIN/execve@S@" /proc/self/fd/9 p <<EOF
openat(AT_FDCWD, "noexec/printargs@S@", O_RDONLY) = 3
dup2(3, 9) = 9
execve("/proc/self/fd/9", ["p"], envp) = -1 EACCES
EOF

t -w "execveat: deny exec, also through an fd" execveat \
	%noexec/printargs@S@ '' AT_EMPTY_PATH p -- \
	@noexec printargs@S@ 0 p -- \
	%noexec-script@S@ '' AT_EMPTY_PATH s -- \
	AT_FDCWD "$BIN/printargs@S@" 0 ok <<EOF
openat(AT_FDCWD, "noexec/printargs@S@", O_RDONLY) = 3
execveat(3, "", ["p"], envp, AT_EMPTY_PATH) = -1 EACCES
openat(AT_FDCWD, "noexec", O_RDONLY|O_DIRECTORY) = 4
execveat(4, "printargs@S@", ["p"], envp, 0) = -1 EACCES
openat(AT_FDCWD, "noexec-script@S@", O_RDONLY) = 5
execveat(5, "", ["s"], envp, AT_EMPTY_PATH) = -1 EACCES
argv = ["ok"]
EOF
