#!/bin/bash
# shellcheck disable=SC2016,SC2088  # policy text is meant literally
# progs.sh BUILD_DIR FAMILY [nobody] - run the cases of one family of
# supervised system calls (tests/integration/progs/FAMILY.sh): the
# tests/progs programs, natively and under `ward run`, dynamic and static,
# and compare what they print with what is written down there.
#
# The families and their calls are the rows of ward's syscall table
# (supervisor/syscalls.h), which the build writes to BUILD_DIR/syscalls.list
# ("NAME FAMILY" a row).  Every row that is notified must have a case in its
# family's file: the suite fails naming those that have none.
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
# With "nobody" (root only: exit 77 otherwise) everything runs as
# nobody:nogroup (setpriv), in a directory tree owned by nobody, with the
# binaries staged where nobody can run them.
#
# An expected line that differs from the kernel's native behaviour is never
# written to match ward: a case that fails under ward but passes natively
# is a ward bug.
#
# Output: TAP (lib.sh).  Exit 77 when a case was skipped, or when ward
# cannot run on this kernel at all (its start-up says which feature it
# lacks); any other failure of ward to start fails.
#
#   progs.sh BUILD_DIR --table   the table check: every notified family has a
#                                file here, every notified call a case
#
# While working on ward: PROGS_FILTER=REGEX runs only the cases whose name
# matches, PROGS_RUNNERS="native" or "ward" only those runs (no coverage
# check then; a filter that selects nothing fails).  WARD_TESTS_WARD_ONLY
# (make asan): only the runs under ward, the plain pass made the others.
# WARD_TESTS_OPTS: options, split at spaces, for every `ward run` (the
# ctests progs-FAMILY-no-preload give --no-preload, with PROGS_BUILDS=dynamic:
# the static builds never load the library, the plain pass ran them).

. "$(dirname "$0")/lib.sh"
# The programs print fd numbers: start them with none but 0, 1 and 2
# (a test runner may leave others open, as ctest does).
close_fds
umask 022

if [ $# -lt 2 ] || [ ! -d "$1" ]; then
	bail "usage: $0 BUILD_DIR FAMILY|--table [nobody]"
fi
BUILD=$(cd "$1" && pwd -P)
FAMILY=$2
PART=${3:-}
CASES=$(cd "$(dirname "$0")" && pwd -P)/progs
TABLE=$BUILD/syscalls.list
read -ra WARD_OPTS <<<"${WARD_TESTS_OPTS:-}"
BUILDS=${PROGS_BUILDS:-dynamic static}
[ -s "$TABLE" ] || bail "$TABLE is missing: build first"
for f in "$BUILD/ward" "$BUILD/tests/progs/open" "$BUILD/tests/progs/open-static"; do
	[ -x "$f" ] || bail "$f is missing: build first"
done

# The table: the family of each call, and the calls ward is notified of
# (all but those the filter answers by itself).
declare -A FAMILY_OF=()
NOTIFIED=()
while read -r name fam; do
	FAMILY_OF[$name]=$fam
	case $fam in enosys | eperm) ;; *) NOTIFIED+=("$name") ;; esac
done <"$TABLE"

# The programs that make several kinds of call, "CALL ARG... , CALL ARG...":
# each CALL a case names is a call it covers.  The System V IPC programs
# make the calls listed here, whatever their arguments.  Any other program
# covers the call it is named after.
VERB_PROGS=" net pid cred "
declare -A PROG_CALLS=([msg]="msgget msgsnd msgrcv msgctl" [sem]="semget semop semtimedop semctl"
	[shm]="shmget shmat shmctl")

# covers PROG ARG...: the calls of the table a case of PROG makes.
covers() {
	local prog=$1 w next=1
	shift
	if [[ $VERB_PROGS == *" $prog "* ]]; then
		for w in "$@"; do
			[ "$next" = 1 ] && [ -n "${FAMILY_OF[$w]:-}" ] && echo "$w"
			next=0
			[ "$w" = , ] && next=1
		done
	elif [ -n "${PROG_CALLS[$prog]:-}" ]; then
		printf '%s\n' ${PROG_CALLS[$prog]}
	elif [ -n "${FAMILY_OF[$prog]:-}" ]; then
		echo "$prog"
	fi
}

# ---------------------------------------------------------------- list mode

# LISTING=1: t only records what each case covers (in COVERED), runs nothing.
LISTING=0
declare -A COVERED=()

# family_covered FAMILY: source its cases in list mode; fill COVERED.
family_covered() {
	local LISTING=1
	# shellcheck disable=SC1090
	. "$CASES/$1.sh"
}

# check_coverage FAMILY: every notified call of FAMILY has a case.
check_coverage() {
	local missing=() n
	for n in "${NOTIFIED[@]}"; do
		[ "${FAMILY_OF[$n]}" = "$1" ] && [ -z "${COVERED[$n]:-}" ] && missing+=("$n")
	done
	if [ ${#missing[@]} -eq 0 ]; then
		pass "every call of the $1 family in ward's table has a case here"
	else
		fail "every call of the $1 family in ward's table has a case here" \
			"no case in $CASES/$1.sh makes: ${missing[*]}"
	fi
}

[ "$FAMILY" = --table ] || [ -r "$CASES/$FAMILY.sh" ] ||
	bail "no cases for the family '$FAMILY' ($CASES/$FAMILY.sh)"
case $PART in
"") ;;
nobody) nobody_ready || skip_all "$NB_WHY" ;;
*) bail "unknown part '$PART'" ;;
esac

make_base "progs-${FAMILY#--}"
runs=0 # the programs run, for the names of their logs
CASES_RUN=0 # the cases run (a filter may select none: that fails)
MODE_SHOWN=0 # whether a run under ward has shown its preload mode

# The binaries, where an unprivileged user can run them too.
BIN=$BASE/bin
stage "$BIN" "$BUILD/ward" $(find "$BUILD/tests/progs" -maxdepth 1 -type f -perm -u+x)
WARD=$BIN/ward

# ---------------------------------------------------------------- per user

# The user the programs run as: "self" (whoever runs this script) or
# "nobody" (the "nobody" part).  Sets the directories, the environment and
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
		XDG_RUNTIME_DIR="$U/run" TMPDIR="$U/tmp" PATH=/usr/bin:/bin LC_ALL=C "${MODE_ENV[@]}")

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
	# openat2 (5.6), as ward finds it: the kernel's, or masked.
	OPENAT2=1
	env -i "${MODE_ENV[@]}" "$WARD" --version | grep -qE ', no openat2[ ,]' && OPENAT2=0
	# pidfd_open (5.3) and faccessat2 (5.8), as the kernel has them (natively).
	local lacks
	lacks=",$(kernel_lacks_list),"
	PIDFD=1 FACCESSAT2=1
	[[ $lacks == *,pidfd_open,* ]] && PIDFD=0
	[[ $lacks == *,faccessat2,* ]] && FACCESSAT2=0
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
#   -O        needs openat2 (5.6): openat2 itself, or O_TMPFILE under ward
#             (which ward refuses without it); a skip where it is missing or masked
#   -P        needs pidfd_open (5.3): a skip on a kernel without it
#   -F        needs faccessat2 (5.8): a skip on a kernel without it
#   -R        only as root (a skip when this script is not root; not run as
#             nobody);  -U only unprivileged (run by the nobody part when
#             this script is root)
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
	while getopts wns:c:DxARUOPFf: opt; do
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
		O) need="$need openat2" ;;
		P) need="$need pidfd" ;;
		F) need="$need faccessat2" ;;
		f) withfd=$OPTARG ;;
		*) echo "t: bad option" >&2; exit 2 ;;
		esac
	done
	shift $((OPTIND - 1))
	CASE=$1
	local prog=$2
	shift 2
	expected=$(cat)
	local c
	for c in $(covers "$prog" "$@"); do COVERED[$c]=1; done
	[ "$LISTING" = 1 ] && return 0
	local why=""
	case $need in *xattr*) [ "$XATTR" = 1 ] || why="no user xattrs here" ;; esac
	case $need in *acl*) [ "$ACL" = 1 ] || why="no default ACLs here" ;; esac
	case $need in *faccessat2*) [ "$FACCESSAT2" = 1 ] ||
		why="no faccessat2 (before Linux 5.8): ENOSYS natively and under ward" ;; esac
	case $need in *pidfd*) [ "$PIDFD" = 1 ] ||
		why="no pidfd_open (before Linux 5.3): ENOSYS natively and under ward" ;; esac
	case $need in *openat2*) [ "$OPENAT2" = 1 ] ||
		why="no openat2 (before Linux 5.6, or masked): openat2 is ENOSYS, and ward refuses O_TMPFILE (EOPNOTSUPP) there; degraded.sh and attacks.sh check those" ;; esac
	case $need in
	*root*)
		# As nobody it is not a case; as a user other than root, a skip.
		[ "$WHO" = nobody ] && return 0
		[ "$(r 1 0)" = 1 ] || why="needs root" ;;
	esac
	# When root, the nobody part runs it.
	case $need in *unpriv*) [ "$(r 1 0)" = 0 ] || return 0 ;; esac
	if [ -n "${PROGS_FILTER:-}" ] && ! [[ $CASE =~ $PROGS_FILTER ]]; then
		return 0
	fi
	CASES_RUN=$((CASES_RUN + 1))
	for V in dynamic static; do
		[ "$V" = static ] && [ "$dynonly" = 1 ] && continue
		[[ " $BUILDS " == *" $V "* ]] || continue
		S=""
		[ "$V" = static ] && S=-static
		for R in native ward; do
			[ -n "$only" ] && [ "$only" != "$R" ] && continue
			[[ " ${PROGS_RUNNERS:-native ward} " == *" $R "* ]] || continue
			# The sanitizers' pass (make asan): the plain pass made the native runs.
			[ -n "${WARD_TESTS_WARD_ONLY:-}" ] && [ "$R" = native ] && continue
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
			# The stat family's calls are notified only when the policy
			# restricts stat: they run with such a policy.
			local pol=$POLICY
			[ "${FAMILY_OF[$prog]:-}" = stat ] && pol=$POLICY_STAT
			[ "$R" = ward ] && cmd=("$WARD" run -q "${WARD_OPTS[@]}" --log "$LOG" -p "$pol" -- "${cmd[@]}")
			if [ -n "$withfd" ]; then
				local fds
				read -r -a fds <<<"${withfd//@S@/$S}"
				cmd=("$BIN/withfd$S" "${fds[@]}" -- "${cmd[@]}")
			fi
			local got st
			got=$(cd "$P" && as_user timeout -k 5 "$(slow 30)" "${cmd[@]}" 2>"$U/stderr" </dev/null)
			st=$?
			if [ "$got" = "$exp" ] && [ "$st" = "$status" ]; then
				pass "$what"
			else
				local d
				d=$(diff <(printf '%s\n' "$exp") <(printf '%s\n' "$got") | grep '^[<>]')
				fail "$what" "$d" "exit status $st (expected $status)" \
					"stderr: $(head -c 600 "$U/stderr")"
			fi
			if [ "$R" = ward ] && [ "$MODE_SHOWN" = 0 ]; then
				preload_mode "$PFX" "$LOG"
				MODE_SHOWN=1
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
		fail "$what" "there is no $1"
	elif cmp -s "$U/want" "$P/$1"; then
		pass "$what"
	else
		fail "$what" "it holds: $(od -An -c "$P/$1" | head -n 4)"
	fi
}

absent() { # FILE: FILE (in $P) does not exist
	if [ -e "$P/$1" ] || [ -L "$P/$1" ]; then
		fail "$PFX: $1 does not exist" "it does: $(ls -ld "$P/$1")"
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
		fail "$PFX: log: $*" "no such line in $LOG:" "$(grep -v session-start "$LOG" 2>/dev/null | tail -n 8)"
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

# ================================================================ run

if [ "$FAMILY" = --table ]; then
	setup_user self
	declare -A FAMS=()
	for n in "${NOTIFIED[@]}"; do FAMS[${FAMILY_OF[$n]}]=1; done
	for f in $(printf '%s\n' "${!FAMS[@]}" | sort); do
		if [ -r "$CASES/$f.sh" ]; then
			pass "the notified family $f has its cases (progs/$f.sh)"
			family_covered "$f"
			check_coverage "$f"
		else
			fail "the notified family $f has its cases (progs/$f.sh)" "there is no $CASES/$f.sh"
		fi
	done
	for f in "$CASES"/*.sh; do
		f=${f##*/}
		f=${f%.sh}
		[ -n "${FAMS[$f]:-}" ] ||
			fail "progs/$f.sh is a family of ward's table" "no notified call of the table is of family $f"
	done
	summary
fi

if [ "$PART" = nobody ]; then
	stage_check "the unprivileged pass" "$BIN"
	ward_probe "$WARD" as_nobody
	setup_user nobody
	echo "# $FAMILY, as nobody (uid $NB_UID), in $U"
else
	ward_probe "$WARD"
	setup_user self
	echo "# $FAMILY, as $(id -un) (uid $(id -u)), in $U"
fi
START=$SECONDS
# shellcheck disable=SC1090
. "$CASES/$FAMILY.sh"
echo "# $((SECONDS - START)) s"
if [ -z "${PROGS_FILTER:-}${PROGS_RUNNERS:-}" ]; then
	check_coverage "$FAMILY"
fi
[ "$CASES_RUN" -gt 0 ] || fail "a case was run" "none${PROGS_FILTER:+ matched PROGS_FILTER='$PROGS_FILTER'}"
summary
