#!/bin/bash
# shellcheck disable=SC2016,SC2088  # policy text is meant literally
# progs.sh BUILD_DIR - run the tests/progs programs, one per supervised
# system call, natively and under `ward run`, dynamic and static, and
# compare what they print with what is written down here.
#
# Each case names a program and its arguments and gives, in a heredoc, the
# exact lines the program must print (one "SYSCALL(ARGS) = RESULT" line a
# call; see tests/progs/common.h).  A case runs
#   - natively, where the kernel's own answer is the expectation, and
#   - under `ward run -q --log LOG -p POLICY`, where the answer must be the
#     same (DESIGN.md §2: ward emulates the call, it does not change it) or,
#     for the paths the policy below restricts, the policy's answer;
# for both builds of the program (NAME and NAME-static), each time in a
# fresh copy of the project fixture.  Some cases then check the files left
# behind and the audit log (DESIGN.md §6).
#
# When running as root, everything runs a second time as nobody:nogroup
# (setpriv), in a directory tree owned by nobody, with the binaries copied
# where nobody can run them.
#
# An expected line that differs from the kernel's native behaviour is never
# written to match ward: a case that fails under ward but passes natively
# is a ward bug.
#
# Output: "ok N - what" / "not ok N - what" a check (a diff and ward's
# stderr follow a failure as "# " lines), then "N passed, M failed".
# Exit 1 when a check failed, 77 when ward cannot run on this kernel at
# all, 2 when the test itself cannot run.
#
# While working on ward: PROGS_FILTER=REGEX runs only the cases whose name
# matches, PROGS_RUNNERS="native" or "ward" only those runs.

set -u
# The programs print fd numbers: start them with none but 0, 1 and 2
# (a test runner may leave others open, as ctest does).
for fd in /proc/$$/fd/*; do
	fd=${fd##*/}
	[ "$fd" -gt 2 ] && [ "$fd" -lt 255 ] && eval "exec $fd>&-"
done
umask 022

if [ $# -ne 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
BUILD=$(cd "$1" && pwd -P)
for f in "$BUILD/ward" "$BUILD/tests/progs/open" "$BUILD/tests/progs/open-static"; do
	if [ ! -x "$f" ]; then
		echo "$0: $f is missing: build first" >&2
		exit 2
	fi
done
PROGS="open openat openat2 creat stat lstat newfstatat statx access faccessat faccessat2
	readlink readlinkat getxattr lgetxattr listxattr llistxattr mkdir mkdirat mknod mknodat
	unlink unlinkat rmdir rename renameat renameat2 link linkat symlink symlinkat chmod fchmod
	fchmodat fchmodat2 chown lchown fchown fchownat truncate utime utimes futimesat utimensat
	setxattr lsetxattr fsetxattr removexattr lremovexattr fremovexattr setxattrat removexattrat
	execve execveat printargs withfd kill tkill tgkill pidfd_open pidfd_send_signal shm
	fifo_signal umask msg sem"

BASE=$(mktemp -d "${TMPDIR:-/tmp}/ward-progs.XXXXXX") || exit 2
trap 'cd / && rm -rf "$BASE"' EXIT
trap 'exit 130' INT TERM
BASE=$(cd "$BASE" && pwd -P) # real: rules are matched on canonical paths
chmod 755 "$BASE"

# The binaries, where an unprivileged user can run them too.
BIN=$BASE/bin
mkdir "$BIN"
cp "$BUILD/ward" "$BUILD/libward-preload.so" "$BIN/"
for p in $PROGS; do
	for s in "" -static; do
		if ! cp "$BUILD/tests/progs/$p$s" "$BIN/$p$s"; then
			echo "$0: $BUILD/tests/progs/$p$s is missing: build first" >&2
			exit 2
		fi
	done
done
chmod -R a+rX "$BIN"
WARD=$BIN/ward

# ---------------------------------------------------------------- output

# The two runs (as the user and as nobody) go side by side, each to its own
# file; the checks are numbered when the files are put together at the end.
# runs counts the programs run, for the names of their logs.
runs=0

pass() {
	echo "ok - $1"
}

failed() { # WHAT [DETAIL...]: DETAIL lines are shown as comments
	echo "not ok - $1"
	shift
	local l
	for l in "$@"; do
		printf '%s\n' "$l" | sed 's/^/#   /'
	done
}

skip() {
	echo "ok - $1 # skip ${2:-}"
}

check() { # WHAT EXPECTED GOT
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		failed "$1" "expected: $2" "got:      $3"
	fi
}

# ---------------------------------------------------------------- per user

# The user the programs run as: "self" (whoever runs this script) or
# "nobody" (when that is root).  Sets the directories, the environment and
# the fixture for that user.
ROOT=0
[ "$(id -u)" = 0 ] && ROOT=1
WHO=self
RUNAS=()

# r ROOT_VALUE OTHER_VALUE: what the kernel says depends on privilege.
r() {
	if [ "$ROOT" = 1 ] && [ "$WHO" = self ]; then printf '%s' "$1"; else printf '%s' "$2"; fi
}

setup_user() { # WHO
	WHO=$1
	U=$BASE/$WHO
	P=$U/proj
	H=$U/home
	POLICY=$U/policy
	TPL=$U/tpl/proj # and $U/tpl/outside: copied to $P and $OUTSIDE before each run
	OUTSIDE=$U/outside
	mkdir -p "$U" "$H/.ssh" "$H/.config/ward" "$U/state/ward" "$U/run" "$U/tmp" \
		"$U/logs" "$U/scratch"
	chmod 700 "$U/run"
	printf 'ssh key\n' >"$H/.ssh/id_rsa"
	printf 'machine example.org\n' >"$H/.netrc"
	printf '# shell start-up\n' >"$H/.bashrc"
	printf '# the user policy: nothing\n' >"$H/.config/ward/policy"
	mkdir -p "$U/tpl/outside"
	printf 'out\n' >"$U/tpl/outside/f"
	ENVV=(HOME="$H" XDG_CONFIG_HOME="$H/.config" XDG_STATE_HOME="$U/state"
		XDG_RUNTIME_DIR="$U/run" TMPDIR="$U/tmp" PATH=/usr/bin:/bin LC_ALL=C)

	cat >"$POLICY" <<'EOF'
# progs.sh: the project is open, a few corners of it are not.
allow   read,write,create,delete,stat,exec   $PROJECT/**
deny    read                 $PROJECT/secret
deny    write                $PROJECT/readonly
deny(EROFS) write,create,delete   $PROJECT/rofs/**
deny    create               $PROJECT/nocreate/**
deny    delete               $PROJECT/keep/**
deny    exec                 $PROJECT/noexec/**
rewrite write,create         $PROJECT/redirect -> $PROJECT/redirected
rewrite write,create         $PROJECT/newredirect -> $PROJECT/newredirected
rewrite write,create         $PROJECT/cache/** -> $PROJECT/shadow/**
EOF
	# The stat family runs under the same policy plus a stat restriction; the
	# other programs do not, because a policy that restricts stat changes how
	# O_PATH opens are served (README: Limits) and they test the kernel's way.
	POLICY_STAT=$U/policy-stat
	cp "$POLICY" "$POLICY_STAT"
	printf 'deny    stat                 $PROJECT/hidden/**\n' >>"$POLICY_STAT"

	if [ "$WHO" = nobody ]; then
		RUNAS=(setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups --)
	else
		RUNAS=()
	fi
	make_template
}

# as_user CMD...: run CMD as the user the programs run as.
as_user() {
	"${RUNAS[@]}" env -i "${ENVV[@]}" "$@"
}

# The project fixture, copied afresh to $P before every run.
make_template() {
	rm -rf "$TPL"
	mkdir -p "$TPL"
	(
		cd "$TPL" || exit 1
		printf 'old\n' >f
		printf 'secret\n' >secret
		printf 'ro\n' >./readonly
		printf 'r\n' >ro444
		chmod 444 ro444
		printf 'orig\n' >redirect
		ln -s f link
		ln -s missing dangle
		ln -s dir dirlink
		ln -s loop loop
		ln -s "$P/f" abslink
		ln -s secret slink
		mkdir dir empty empty2 rofs nocreate keep keep/e hidden noexec cache .ward acl
		printf 'inner\n' >dir/inner
		mkfifo fifo
		printf 'x\n' >rofs/x
		printf 'x\n' >nocreate/x
		printf 'keep\n' >keep/x
		printf 'hidden\n' >hidden/x
		printf 'a\n' >cache/a
		printf 'set undecided allow\n' >.ward/policy
		cp "$BIN/printargs" "$BIN/printargs-static" noexec/
		printf 'garbage\n' >garbage
		chmod 755 garbage
		for s in "" -static; do
			printf '#!%s\n' "$BIN/printargs$s" >"script$s"
			printf '#!%s\n' "$P/noexec/printargs$s" >"noexec-script$s"
			chmod 755 "script$s" "noexec-script$s"
			ln -s "$BIN/printargs$s" "proglink$s"
		done
		mkdir chain
		for i in $(seq 1 40); do ln -s "l$((i + 1))" "chain/l$i"; done
		ln -s ../f chain/l41
		printf 'x\n' >xf
		ln -s xf xlink
		ln -s f/ fslash # a symlink whose target ends in a slash
		printf 'suid\n' >suid
		printf 'w\n' >w200
		chmod 200 w200
		printf '#!/bin/sh\nexit 3\n' >exit3
		chmod 755 exit3
	) || exit 2
	if [ "$WHO" = nobody ]; then
		chown -hR "$NB_UID:$NB_GID" "$U"
	fi
	chmod 4755 "$TPL/suid"
	# Extended attributes, when the filesystem has user ones.
	XATTR=0
	if all_zero "$TPL" setxattr xf user.a 1 0 xf user.b 22 0 readonly user.r 1 0; then
		XATTR=1
	fi
	# A default ACL of rwx for everyone (user::rwx group::rwx other::rwx):
	# then the umask does not apply to what is made in that directory.
	ACL=0
	if [ "$XATTR" = 1 ] && all_zero "$TPL" setxattr acl system.posix_acl_default \
		0x0200000001000700ffffffff04000700ffffffff20000700ffffffff 0; then
		ACL=1
	fi
}

# all_zero DIR PROG ARG...: PROG, run natively in DIR, exits 0 and every call returns 0.
all_zero() {
	local out
	out=$(cd "$1" && as_user "$BIN/$2" "${@:3}" 2>&1) || return 1
	! printf '%s\n' "$out" | grep -qv ' = 0$'
}

reset_project() {
	rm -rf "$P" "$OUTSIDE"
	cp -a "$U/tpl/." "$U/"
}

# loc PATTERN: the location of the first rule of the test policy holding PATTERN.
loc() {
	local p=$POLICY
	grep -q -F -e "$1" "$POLICY" || p=$POLICY_STAT
	printf '%s:%s' "$p" "$(grep -n -F -e "$1" "$p" | head -1 | cut -d: -f1)"
}

# builtin PROFILE PATTERN: the location of a line of a built-in profile.
builtin_loc() {
	local src
	src=$(cd "$(dirname "$0")/../.." && pwd -P)/rules/profiles/$1.policy
	printf 'builtin:%s:%s' "$1" "$(grep -n -F -e "$2" "$src" | head -1 | cut -d: -f1)"
}

# ---------------------------------------------------------------- cases

# t [OPTIONS] NAME PROG ARG... <<EOF
# EXPECTED OUTPUT
# EOF
#
#   -w        under ward only (the policy decides, or native is not comparable)
#   -n        natively only
#   -s N      the expected exit status (default 0)
#   -c FUNC   after each run, call FUNC to check what was left behind
#   -D        the dynamic build only
#   -x        needs user xattrs;  -A needs default ACLs
#   -R        only as root;  -U only unprivileged
#   -f "N FD..." run the program (or ward, around it) under withfd N FD ...,
#             which opens FD (see tests/progs/common.h) as fd N: the way to
#             hand a supervised program an O_PATH fd
#
# @S@ in the arguments and the expected output is the build's suffix
# ("" or "-static").  Each run is in a fresh copy of the fixture, from $P.
# The check function sees CASE, R (native or ward), V (dynamic or static),
# S (the suffix) and LOG (the audit log of a ward run).
t() {
	local OPTIND opt only="" status=0 chk="" dynonly=0 need="" expected withfd=""
	while getopts wns:c:DxARUf: opt; do
		case $opt in
		w) only=ward ;;
		n) only=native ;;
		s) status=$OPTARG ;;
		c) chk=$OPTARG ;;
		D) dynonly=1 ;;
		x) need="$need xattr" ;;
		A) need="$need acl" ;;
		R) need="$need root" ;;
		U) need="$need unpriv" ;;
		f) withfd=$OPTARG ;;
		*) echo "t: bad option" >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	CASE=$1
	local prog=$2
	shift 2
	expected=$(cat)
	local why=""
	case $need in *xattr*) [ "$XATTR" = 1 ] || why="no user xattrs here" ;; esac
	case $need in *acl*) [ "$ACL" = 1 ] || why="no default ACLs here" ;; esac
	case $need in *root*) [ "$(r 1 0)" = 1 ] || why="only as root" ;; esac
	case $need in *unpriv*) [ "$(r 1 0)" = 0 ] || why="only unprivileged" ;; esac
	if [ -n "${PROGS_FILTER:-}" ] && ! [[ $CASE =~ $PROGS_FILTER ]]; then
		return 0
	fi
	for V in dynamic static; do
		[ "$V" = static ] && [ "$dynonly" = 1 ] && continue
		S=""
		[ "$V" = static ] && S=-static
		for R in native ward; do
			[ -n "$only" ] && [ "$only" != "$R" ] && continue
			[[ " ${PROGS_RUNNERS:-native ward} " == *" $R "* ]] || continue
			PFX="$WHO: $CASE [$V, $R]"
			local what=$PFX
			if [ -n "$why" ]; then
				skip "$what" "$why"
				continue
			fi
			local args=() a
			for a in "$@"; do
				args+=("${a//@S@/$S}")
			done
			local exp=${expected//@S@/$S}
			reset_project
			runs=$((runs + 1))
			LOG=$U/logs/$runs.jsonl
			rm -f "$LOG"
			local cmd=("$BIN/$prog$S" "${args[@]}")
			local pol=$POLICY
			case $prog in
			stat | lstat | newfstatat | statx | access | faccessat | faccessat2 | readlink | \
				readlinkat | getxattr | lgetxattr | listxattr | llistxattr) pol=$POLICY_STAT ;;
			esac
			[ "$R" = ward ] && cmd=("$WARD" run -q --log "$LOG" -p "$pol" -- "${cmd[@]}")
			if [ -n "$withfd" ]; then
				local fds
				read -r -a fds <<<"${withfd//@S@/$S}"
				cmd=("$BIN/withfd$S" "${fds[@]}" -- "${cmd[@]}")
			fi
			local got st
			got=$(cd "$P" && as_user timeout -k 5 30 "${cmd[@]}" 2>"$U/stderr" </dev/null)
			st=$?
			if [ "$got" = "$exp" ] && [ "$st" = "$status" ]; then
				pass "$what"
			else
				local d
				d=$(diff <(printf '%s\n' "$exp") <(printf '%s\n' "$got") | grep '^[<>]')
				failed "$what" "$d" "exit status $st (expected $status)" \
					"stderr: $(head -c 600 "$U/stderr")"
			fi
			[ -n "$chk" ] && "$chk"
		done
	done
}

# What a check function can say about the files left behind.
# (PFX, set by t, is "WHO: CASE [V, R]".)

content() { # FILE TEXT (printf %b escapes): FILE (in $P) holds exactly TEXT
	local what
	what="$PFX: $1 holds '$2'"
	printf '%b' "$2" >"$U/want"
	if ! [ -e "$P/$1" ]; then
		failed "$what" "there is no $1"
	elif cmp -s "$U/want" "$P/$1"; then
		pass "$what"
	else
		failed "$what" "it holds: $(od -An -c "$P/$1" | head -n 4)"
	fi
}

absent() { # FILE: FILE (in $P) does not exist
	if [ -e "$P/$1" ] || [ -L "$P/$1" ]; then
		failed "$PFX: $1 does not exist" "it does: $(ls -ld "$P/$1")"
	else
		pass "$PFX: $1 does not exist"
	fi
}

mode_is() { # FILE MODE (octal, as stat %a prints it)
	check "$PFX: $1 has mode $2" "$2" "$(stat -c %a "$P/$1" 2>&1)"
}

kind_is() { # FILE TYPE (as stat %F prints it)
	check "$PFX: $1 is a $2" "$2" "$(stat -c %F "$P/$1" 2>&1)"
}

# logged STRING...: under ward, a line of the log holds every STRING.
logged() {
	[ "$R" = ward ] || return 0
	local all=("${@//@S@/$S}")
	if awk 'BEGIN { for (i = 1; i < ARGC; i++) want[i] = ARGV[i]; n = ARGC; ARGC = 1 }
		{ for (i = 1; i < n && index($0, want[i]); i++) ; if (i == n) { found = 1; exit } }
		END { exit !found }' "${all[@]}" <"$LOG" 2>/dev/null; then
		pass "$PFX: log: $*"
	else
		failed "$PFX: log: $*" "no such line in $LOG:" "$(grep -v session-start "$LOG" 2>/dev/null | tail -n 8)"
	fi
}

# native_out CMD... -- EXPECTED: a program run natively (as the user) prints EXPECTED.
native_out() {
	local args=()
	while [ "$1" != -- ]; do
		args+=("$1")
		shift
	done
	shift
	check "$PFX: then ${args[*]}" "$1" "$(cd "$P" && as_user "$BIN/${args[0]}" "${args[@]:1}" 2>&1)"
}

# ---------------------------------------------------------------- can ward run?

probe() {
	local out st
	out=$(cd "$BASE" && env -i HOME="$BASE" XDG_CONFIG_HOME="$BASE/probe/config" \
		XDG_STATE_HOME="$BASE/probe/state" XDG_RUNTIME_DIR="$BASE/probe" PATH=/usr/bin:/bin \
		"$WARD" run -q --log "$BASE/probe.jsonl" --profile audit -- "$BIN/printargs" ok 2>"$BASE/probe.err")
	st=$?
	if [ "$st" = 125 ]; then
		echo "# skip: ward cannot run here: $(cat "$BASE/probe.err")"
		exit 77
	fi
	if [ "$out" != "argv = [\"$BIN/printargs\", \"ok\"]" ]; then
		echo "# ward run of printargs: status $st, output '$out', stderr: $(cat "$BASE/probe.err")"
	fi
}
mkdir -p "$BASE/probe"
chmod 700 "$BASE/probe"
probe

# ================================================================ the cases

all_cases() {

# ---------------------------------------------------------------- open family

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
t -c chk_tmpfile "open: O_TMPFILE" open -u 022 \
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

t "open: O_TMPFILE and the umask (077)" open -u 077 dir 'O_TMPFILE|O_WRONLY' 0666 <<EOF
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
t "openat2: RESOLVE_* on /proc/self (however written) is the caller's; an absolute path needs no dirfd" openat2 \
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

t -c chk_openat2 "openat2: flags, mode, RESOLVE_*" openat2 -u 022 \
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

# ward creates with the umask it keeps for each fs_struct group, told by
# umask(2): a thread shares it, a thread without CLONE_FS and a fork have
# their own, clone(CLONE_FS) shares its maker's, an exec keeps the thread's.
chk_umask_groups() {
	mode_is um-a 644
	mode_is um-d-thread 600
	mode_is um-e 640
	mode_is um-f 606
	mode_is um-g-fork 666
	mode_is um-i-exec 600
}
t -c chk_umask_groups "umask: who shares it, as ward creates" umask <<EOF
main: umask(0022) = 0022
main: creat("um-a", 0666) -> 0644
main: umask(0077) = 0022
main: creat("um-b", 0666) -> 0600
pthread: umask(0027) = 0077
pthread: creat("um-c-pthread", 0666) -> 0640
main: creat("um-c", 0666) -> 0640
thread-nofs: umask(0077) = 0027
thread-nofs: creat("um-d-thread", 0666) -> 0600
main: creat("um-e", 0666) -> 0640
clone-fs: umask(0070) = 0027
main: creat("um-f", 0666) -> 0606
fork: umask(0000) = 0070
fork: creat("um-g-fork", 0666) -> 0666
main: creat("um-h", 0666) -> 0606
thread-exec: umask(0077) = 0070
after-exec: creat("um-i-exec", 0666) -> 0600
EOF

# umask(2) raced against creates: ward keeps a umask only for a task that
# shares its fs_struct with no other (two threads calling umask at once, or
# a umask(2) whose caller is killed before it runs, made it keep a wrong one).
t "umask: raced against creates, two ways" umask race 1000 <<EOF
two threads: no mismatch in 1000 rounds
clone-fs exit: no mismatch in 1000 rounds
EOF

# ---------------------------------------------------------------- metadata

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

t "faccessat2: flags" faccessat2 \
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

# ---------------------------------------------------------------- change family

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

t "linkat: naming an O_TMPFILE file" linkat +dir '' @dir named AT_EMPTY_PATH <<EOF
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

# ---------------------------------------------------------------- exec

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

t "execve: a NULL argv runs with argv[0] = \"\"" execve "$BIN/printargs@S@" -n <<EOF
argv = [""]
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

# ---------------------------------------------------------------- signals

t "kill: a child of one's own, a reaped one, oneself" kill \
	child 0 \
	child SIGTERM \
	child SIGUSR1 \
	self 0 \
	0 0 \
	dead 0 <<EOF
kill(CHILD, 0) = 0
kill(CHILD, SIGTERM) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
kill(CHILD, SIGUSR1) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == USR1}], 0, NULL) = CHILD
kill(SELF, 0) = 0
kill(0, 0) = 0
kill(DEAD, 0) = -1 ESRCH
EOF

t "kill: a child that has exited and is not reaped yet" kill \
	zombie 0 \
	zombie SIGTERM <<EOF
kill(ZOMBIE, 0) = 0
kill(ZOMBIE, SIGTERM) = 0
EOF

t "tgkill: a child that has exited and is not reaped yet" tgkill \
	zombie zombie 0 <<EOF
tgkill(ZOMBIE, ZOMBIE, 0) = 0
EOF

t "pidfd_open: a child that has exited and is not reaped yet" pidfd_open \
	zombie 0 <<EOF
pidfd_open(ZOMBIE, 0) = 3
EOF

t "kill: a process group of the session whose leader has exited and is not reaped" kill \
	zombiegroup 0 \
	zombiegroup SIGTERM <<EOF
kill(ZOMBIEGROUP, 0) = 0
kill(ZOMBIEGROUP, SIGTERM) = 0
EOF

t "kill: a process group of the session whose leader has exited" kill \
	lonegroup 0 \
	lonegroup SIGTERM <<EOF
kill(LONEGROUP, 0) = 0
kill(LONEGROUP, SIGTERM) = 0
EOF

t -s 143 "kill: the exit status of a program killed by a signal is 128+N" kill self SIGTERM <<EOF
EOF

chk_kill_policy() {
	logged '"event":"signal"' '"syscall":"kill"' '"signal":0' '"decision":"deny"' '"errno":"EPERM"'
}
t -w -c chk_kill_policy "kill: not ward, not pid 1, not everyone" kill \
	parent 0 \
	parent SIGTERM \
	init 0 \
	-1 0 \
	-1 SIGKILL \
	child 0 <<EOF
kill(PARENT, 0) = -1 EPERM
kill(PARENT, SIGTERM) = -1 EPERM
kill(INIT, 0) = -1 EPERM
kill(-1, 0) = -1 EPERM
kill(-1, SIGKILL) = -1 EPERM
kill(CHILD, 0) = 0
EOF

t "tkill: a child of one's own, errors" tkill \
	child 0 \
	child SIGTERM \
	self 0 \
	dead 0 \
	-1 0 \
	0 0 <<EOF
tkill(CHILD, 0) = 0
tkill(CHILD, SIGTERM) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
tkill(SELF, 0) = 0
tkill(DEAD, 0) = -1 ESRCH
tkill(-1, 0) = -1 EINVAL
tkill(0, 0) = -1 EINVAL
EOF

t -w "tkill: not ward, not pid 1" tkill parent 0 init 0 <<EOF
tkill(PARENT, 0) = -1 EPERM
tkill(INIT, 0) = -1 EPERM
EOF

t "tgkill: a child of one's own, a mismatched pair" tgkill \
	child child 0 \
	self child 0 \
	self self 0 \
	child child SIGTERM <<EOF
tgkill(CHILD, CHILD, 0) = 0
tgkill(SELF, CHILD, 0) = -1 ESRCH
tgkill(SELF, SELF, 0) = 0
tgkill(CHILD, CHILD, SIGTERM) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
EOF

t -w "tgkill: not ward, not pid 1" tgkill parent parent 0 init init 0 parent self 0 <<EOF
tgkill(PARENT, PARENT, 0) = -1 EPERM
tgkill(INIT, INIT, 0) = -1 EPERM
tgkill(PARENT, SELF, 0) = -1 EPERM
EOF

t "pidfd_open: a child of one's own, oneself, errors" pidfd_open \
	child 0 \
	child PIDFD_NONBLOCK \
	self 0 \
	dead 0 \
	-1 0 \
	child 0x1 <<EOF
pidfd_open(CHILD, 0) = 3
pidfd_open(CHILD, PIDFD_NONBLOCK) = 3
pidfd_open(SELF, 0) = 3
pidfd_open(DEAD, 0) = -1 ESRCH
pidfd_open(-1, 0) = -1 EINVAL
pidfd_open(CHILD, 0x1) = -1 EINVAL
EOF

chk_pidfd_policy() {
	logged '"event":"signal"' '"syscall":"pidfd_open"' '"decision":"deny"' '"errno":"EPERM"'
}
t "shm: System V shared memory made in the session can be attached" shm <<EOF
shmget(IPC_PRIVATE, 4096, IPC_CREAT|0600) = ID
shmat(ID, NULL, 0) = ADDR
read back: shared
shmdt(ADDR) = 0
shmctl(ID, IPC_RMID, NULL) = 0
shmget(IPC_PRIVATE, 4096, 0600) = ID
shmat(ID, NULL, SHM_RDONLY) = ADDR
shmctl(ID, IPC_RMID, NULL) = 0
shmget(KEY, 4096, IPC_CREAT|0600) twice: same ID
shmget(KEY, 4096, IPC_CREAT|IPC_EXCL|0600) = EEXIST
shmat(ID, NULL, SHM_RDONLY) = ADDR
shmctl(ID, IPC_RMID, NULL) = 0
shmget(IPC_PRIVATE, 4096, IPC_CREAT|0200) = ID
shmctl(ID, IPC_RMID, NULL) = 0
EOF

# Message queues and semaphore sets: made by ward, listed, used by the
# session (a child too); an object ward did not make is refused (attacks:
# proc ipc), one that is not there is the kernel's EINVAL.
chk_msg() {
	logged '"event":"process"' '"syscall":"msgget"' '"decision":"allow"'
	logged '"event":"process"' '"syscall":"msgsnd"' '"decision":"allow"'
	logged '"syscall":"msgsnd"' '"decision":"error"' '"errno":"EINVAL"'
}
t -c chk_msg "msg: System V message queues made in the session can be used" msg <<EOF
msgget(IPC_PRIVATE, IPC_CREAT|0600) = ID
msgsnd(ID, "queued") = 0
msgrcv(ID) = 7 "queued"
a child's msgsnd(ID): sent
msgctl(ID, IPC_STAT) = 0
msg_qnum = 1
msgrcv(ID, type 2) = 13 "from a child"
msgctl(ID, IPC_RMID) = 0
msgsnd(ID) after IPC_RMID = EINVAL
msgget(IPC_PRIVATE, 0600) = ID
msgsnd(ID, "queued") = 0
msgctl(ID, IPC_RMID) = 0
msgget(KEY, IPC_CREAT|0600) twice, then msgget(KEY, 0): same ID
msgget(KEY, IPC_CREAT|IPC_EXCL|0600) = EEXIST
msgsnd(ID, "queued") = 0
msgctl(ID, IPC_RMID) = 0
msgget(IPC_PRIVATE, IPC_CREAT|0200) = ID
msgsnd(ID, "queued") = 0
msgctl(ID, IPC_RMID) = 0
msgget(a key no one made, 0) = ENOENT
msgsnd(an id that is no queue) = EINVAL
EOF

chk_sem() {
	logged '"event":"process"' '"syscall":"semget"' '"decision":"allow"'
	logged '"event":"process"' '"syscall":"semtimedop"' '"decision":"allow"'
}
t -c chk_sem "sem: System V semaphore sets made in the session can be used" sem <<EOF
semget(IPC_PRIVATE, 2, IPC_CREAT|0600) = ID
semctl(ID, 0, SETVAL, 3) = 0
semop(ID, sem 0 down) = 0
semtimedop(ID, sem 0 down, 0 s) = 0
semop(ID, sem 1 up) = 0
a child's semop(ID, sem 0 down): taken
semctl(ID, 0, GETVAL) = 0
semctl(ID, 1, GETVAL) = 1
semop(ID, sem 0 down) at 0 = EAGAIN
semctl(ID, 0, IPC_STAT) = 0
sem_nsems = 2
semctl(ID, 0, IPC_RMID) = 0
semop(ID) after IPC_RMID = EINVAL
semget(KEY, 1, IPC_CREAT|0600) twice, then semget(KEY, 0, 0): same ID
semget(KEY, 1, IPC_CREAT|IPC_EXCL|0600) = EEXIST
semop(ID, sem 0 up) = 0
semctl(ID, 0, IPC_RMID) = 0
semop(an id that is no set) = EINVAL
EOF

t -w -c chk_pidfd_policy "pidfd_open: not ward, not pid 1" pidfd_open parent 0 init 0 <<EOF
pidfd_open(PARENT, 0) = -1 EPERM
pidfd_open(INIT, 0) = -1 EPERM
EOF

t "pidfd_send_signal: a child of one's own, a reaped one, not a pidfd" pidfd_send_signal \
	child 0 \
	child SIGTERM \
	self 0 \
	dead 0 \
	%f 0 \
	99 0 \
	@/proc/self 0 \
	@/proc/thread-self 0 <<EOF
pidfd_open(CHILD, 0) = 3
pidfd_send_signal(3, 0, NULL, 0) = 0
pidfd_open(CHILD, 0) = 3
pidfd_send_signal(3, SIGTERM, NULL, 0) = 0
wait4(CHILD, [{WIFSIGNALED(s) && WTERMSIG(s) == TERM}], 0, NULL) = CHILD
pidfd_open(SELF, 0) = 3
pidfd_send_signal(3, 0, NULL, 0) = 0
pidfd_open(DEAD, 0) = 3
pidfd_send_signal(3, 0, NULL, 0) = -1 ESRCH
openat(AT_FDCWD, "f", O_RDONLY) = 3
pidfd_send_signal(3, 0, NULL, 0) = -1 EBADF
pidfd_send_signal(99, 0, NULL, 0) = -1 EBADF
openat(AT_FDCWD, "/proc/self", O_RDONLY|O_DIRECTORY) = 3
pidfd_send_signal(3, 0, NULL, 0) = 0
openat(AT_FDCWD, "/proc/thread-self", O_RDONLY|O_DIRECTORY) = 3
pidfd_send_signal(3, 0, NULL, 0) = -1 EBADF
EOF

t -w "pidfd_send_signal: no pidfd for ward or pid 1" pidfd_send_signal \
	parent SIGTERM \
	init 0 \
	'@/proc/1' 0 <<EOF
pidfd_open(PARENT, 0) = -1 EPERM
pidfd_send_signal(-1, SIGTERM, NULL, 0) = -1 EBADF
pidfd_open(INIT, 0) = -1 EPERM
pidfd_send_signal(-1, 0, NULL, 0) = -1 EBADF
openat(AT_FDCWD, "/proc/1", O_RDONLY|O_DIRECTORY) = -1 EACCES
pidfd_send_signal(-1, 0, NULL, 0) = -1 EBADF
EOF

} # all_cases

# ================================================================ run

run_as() { # WHO: every case, as WHO
	setup_user "$1"
	if [ "$1" = self ]; then
		echo "# as $(id -un) (uid $(id -u)), in $U"
	else
		echo "# as nobody (uid $NB_UID), in $U"
	fi
	all_cases
}

START=$SECONDS
: >"$BASE/nobody.out"
if [ "$ROOT" = 1 ]; then
	if ! NB_UID=$(id -u nobody 2>/dev/null) || ! NB_GID=$(getent group nogroup | cut -d: -f3) ||
		[ -z "$NB_GID" ]; then
		echo "# skip: the unprivileged run (no user nobody or group nogroup)" >"$BASE/nobody.out"
	elif ! command -v setpriv >/dev/null 2>&1; then
		echo "# skip: the unprivileged run (no setpriv)" >"$BASE/nobody.out"
	else
		run_as nobody >"$BASE/nobody.out" 2>&1 &
	fi
fi
run_as self >"$BASE/self.out" 2>&1
wait

cat "$BASE/self.out" "$BASE/nobody.out" | awk -v secs=$((SECONDS - START)) '
	/^ok - /     { n++; pass++; sub(/^ok - /, "ok " n " - ") }
	/^not ok - / { n++; fail++; sub(/^not ok - /, "not ok " n " - ") }
	{ print }
	END {
		print "# " secs " s"
		printf "%d passed, %d failed\n", pass, fail
		exit (fail > 0 || n == 0) ? 1 : 0
	}'

