# shellcheck shell=bash
# lib.sh - what the integration scripts share: counting and TAP output,
# hermetic directories, the unprivileged user and what it may reach,
# waiting for a condition, and whether ward can run here at all.
#
# Source it first:   . "$(dirname "$0")/lib.sh"
#
# Output is TAP, one line a check:
#     ok N - WHAT
#     not ok N - WHAT               (then "#   " lines saying why)
#     ok N - WHAT # SKIP WHY        (not run: this host lacks what it needs)
#     not ok N - WHAT # TODO WHY    (a known open weakness, see its entry)
# and a last line "N passed, M failed, K skipped, T known open".
# summary ends the script: exit 1 when a check failed or when none was made
# (a filter that selects nothing is a mistake, not a pass), 77 when one was
# skipped (ctest's SKIP_RETURN_CODE: the test shows as skipped, never as
# passed), 0 otherwise.  Exit 2 (bail) is a test that could not run.

set -u

T_N=0 T_PASS=0 T_FAIL=0 T_SKIP=0 T_TODO=0

# What make oldkernel and make degraded tell every ward run (the kernel
# features ward is to do without, --degraded): a script that empties the
# environment (env -i) passes these on, or those runs test nothing new.
MODE_ENV=()
[ -n "${WARD_KERNEL_FEATURES:-}" ] && MODE_ENV+=(WARD_KERNEL_FEATURES="$WARD_KERNEL_FEATURES")
[ -n "${WARD_DEGRADED:-}" ] && MODE_ENV+=(WARD_DEGRADED="$WARD_DEGRADED")

# detail LINE...: comment lines under a check, at most 25 of them.
detail() {
	local l
	for l in "$@"; do
		[ -n "$l" ] && printf '%s\n' "$l"
	done | head -n 25 | sed 's/^/#   /'
}

pass() { # WHAT
	T_N=$((T_N + 1)) T_PASS=$((T_PASS + 1))
	echo "ok $T_N - $1"
}

fail() { # WHAT [DETAIL...]
	T_N=$((T_N + 1)) T_FAIL=$((T_FAIL + 1))
	echo "not ok $T_N - $1"
	shift
	detail "$@"
}

skip() { # WHAT WHY
	T_N=$((T_N + 1)) T_SKIP=$((T_SKIP + 1))
	echo "ok $T_N - $1 # SKIP $2"
}

# A known open weakness: neither a pass nor a failure, counted apart.
todo() { # WHAT WHY [DETAIL...]
	T_N=$((T_N + 1)) T_TODO=$((T_TODO + 1))
	echo "not ok $T_N - $1 # TODO $2"
	shift 2
	detail "$@"
}

# flat TEXT: TEXT on one line, newlines shown as \n, cut at 400 bytes.
flat() {
	local s=${1//$'\n'/\\n}
	[ ${#s} -gt 400 ] && s="${s:0:400}..."
	printf "'%s'" "$s"
}

# slow SECONDS: a time limit for something that must end (a hang fails, not
# waits), times WARD_TESTS_SLOW: a guest that emulates its CPU (tests/vm)
# runs everything tens of times slower.
slow() {
	echo $(($1 * ${WARD_TESTS_SLOW:-1}))
}

check() { # WHAT EXPECTED GOT: exact equality
	if [ "$2" = "$3" ]; then
		pass "$1"
	else
		fail "$1" "expected: $(flat "$2")" "got:      $(flat "$3")"
	fi
}

check_match() { # WHAT PATTERN GOT: GOT matches the shell PATTERN
	# shellcheck disable=SC2053
	if [[ $3 == $2 ]]; then
		pass "$1"
	else
		fail "$1" "expected a match of $(flat "$2")" "got:      $(flat "$3")"
	fi
}

has() { # WHAT FILE ERE: a line of FILE matches the extended regular expression
	if grep -qE -e "$3" "$2" 2>/dev/null; then
		pass "$1"
	else
		fail "$1" "no line matching '$3' in $2; its last lines:" "$(tail -n 5 "$2" 2>&1)"
	fi
}

# The summary line and the exit status (see the top of this file).
summary() {
	echo "$T_PASS passed, $T_FAIL failed, $T_SKIP skipped, $T_TODO known open"
	if [ "$T_N" -eq 0 ]; then
		echo "# no check was made: a filter selected nothing, or the script stopped early"
		exit 1
	fi
	[ "$T_FAIL" -gt 0 ] && exit 1
	[ "$T_SKIP" -gt 0 ] && exit 77
	exit 0
}

# Nothing of this script can run here: one skip, and exit 77.
skip_all() { # WHY
	echo "1..0 # SKIP $1"
	exit 77
}

bail() { # WHY: the test itself cannot run (not a verdict on ward)
	echo "Bail out! $1"
	exit 2
}

# ---------------------------------------------------------------- cleanup

T_CLEANUP=()
run_cleanup() {
	local c
	for c in "${T_CLEANUP[@]}"; do eval "$c"; done
}
trap 'run_cleanup' EXIT
trap 'exit 130' INT TERM

# at_exit COMMAND: run COMMAND (a string for eval) when the script ends, last first.
at_exit() {
	T_CLEANUP=("$1" "${T_CLEANUP[@]}")
}

# ---------------------------------------------------------------- directories

# make_base NAME: a fresh directory BASE (its real path: rules match real
# paths) that anyone may enter, removed at the end.  Under /tmp, not
# $TMPDIR: the unprivileged passes must reach it whatever the caller's
# TMPDIR is.
make_base() {
	BASE=$(mktemp -d "/tmp/ward-$1.XXXXXX") || bail "mktemp"
	BASE=$(cd "$BASE" && pwd -P)
	chmod 755 "$BASE"
	at_exit 'cd / && rm -rf "$BASE"'
}

# hermetic DIR: HOME, the XDG directories and TMPDIR inside DIR, so no
# configuration of the host's user applies; exported, and in ENVV for env -i.
hermetic() {
	local d=$1
	export HOME=$d/home XDG_CONFIG_HOME=$d/home/.config XDG_STATE_HOME=$d/home/.local/state
	export XDG_RUNTIME_DIR=$d/run TMPDIR=$d/tmp
	unset LD_PRELOAD LD_LIBRARY_PATH
	mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR" "$TMPDIR"
	chmod 700 "$XDG_RUNTIME_DIR"
	ENVV=(HOME="$HOME" XDG_CONFIG_HOME="$XDG_CONFIG_HOME" XDG_STATE_HOME="$XDG_STATE_HOME"
		XDG_RUNTIME_DIR="$XDG_RUNTIME_DIR" TMPDIR="$TMPDIR" PATH=/usr/local/bin:/usr/bin:/bin
		LC_ALL=C)
	ENVV+=("${MODE_ENV[@]}")
	return 0
}

# close_fds: start with none open but 0, 1 and 2 (ctest leaves others
# open, and some programs print fd numbers).
close_fds() {
	local fd
	for fd in /proc/$$/fd/*; do
		fd=${fd##*/}
		[ "$fd" -gt 2 ] && [ "$fd" -lt 255 ] && eval "exec $fd>&-"
	done
}

# ---------------------------------------------------------------- the kernel

# kernel_lacks_list: what of the newer calls and devices the tests try this
# kernel lacks, asked of it natively (run it outside ward), comma-separated:
# a call that says ENOSYS to -1 and NULLs, /dev/userfaultfd (6.1), MPTCP
# (5.6, or turned off), and before 5.18 "at_phdr_anywhere" (AT_PHDR is the
# load address plus e_phoff: a loader whose program headers lie outside its
# first segment crashes).
kernel_lacks_list() {
	python3 - <<'PY'
import ctypes, errno, os, socket
libc = ctypes.CDLL(None, use_errno=True)
lacks = []
for name, nr in (("pidfd_open", 434), ("open_tree", 428), ("openat2", 437),
                 ("faccessat2", 439), ("open_tree_attr", 467)):
    if libc.syscall(nr, -1, 0, 0, 0, 0) < 0 and ctypes.get_errno() == errno.ENOSYS:
        lacks.append(name)
if not os.path.exists("/dev/userfaultfd"):
    lacks.append("/dev/userfaultfd")
try:
    socket.socket(socket.AF_INET, socket.SOCK_STREAM, 262).close()  # IPPROTO_MPTCP
except OSError:
    lacks.append("mptcp")
if tuple(int(x) for x in os.uname().release.split("-")[0].split(".")[:2]) < (5, 18):
    lacks.append("at_phdr_anywhere")
print(",".join(lacks))
PY
}

# ---------------------------------------------------------------- waiting

# wait_for SECONDS COMMAND...: poll COMMAND every 50 ms until it succeeds;
# 1 when SECONDS (times WARD_TESTS_SLOW: slow) went by first.
wait_for() {
	local secs=$1 end
	shift
	end=$((SECONDS + $(slow "${secs%.*}") + 1))
	while ! "$@"; do
		[ "$SECONDS" -ge "$end" ] && return 1
		sleep 0.05
	done
	return 0
}

# ---------------------------------------------------------------- nobody

# nobody_ready: 0 when this script may run things as nobody (it is root,
# and nobody, its group and setpriv exist); sets NB_UID, NB_GID, NB_GROUP.
# Otherwise 1, with the reason in NB_WHY.
nobody_ready() {
	NB_WHY=""
	if [ "$(id -u)" != 0 ]; then
		NB_WHY="needs root to run as nobody"
	elif ! NB_UID=$(id -u nobody 2>/dev/null); then
		NB_WHY="no user nobody"
	elif ! command -v setpriv >/dev/null 2>&1; then
		NB_WHY="no setpriv (util-linux)"
	else
		NB_GROUP=nogroup
		getent group nogroup >/dev/null || NB_GROUP=nobody
		NB_GID=$(getent group "$NB_GROUP" | cut -d: -f3)
		[ -n "$NB_GID" ] || NB_WHY="no group nogroup or nobody"
	fi
	[ -z "$NB_WHY" ]
}

# as_nobody COMMAND...: COMMAND as nobody:nogroup, no other groups.
as_nobody() {
	setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups -- "$@"
}

# stage DIR FILE...: copies of FILEs in DIR, which anyone may enter and
# run.  The build tree may lie where only its owner may go (a clone in a
# private home, a mktemp -d directory): what nobody runs is staged here.
# A staged ward takes the preload library beside it, as the build has it:
# ward loads it into the programs it runs from there.
stage() {
	local d=$1 f
	shift
	mkdir -p "$d" || bail "mkdir $d"
	for f in "$@"; do
		cp -p "$f" "$d/" || bail "cannot stage $f"
		if [ "${f##*/}" = ward ] && [ -e "${f%/*}/libward-preload.so" ]; then
			cp -p "${f%/*}/libward-preload.so" "$d/" || bail "cannot stage the preload library"
		fi
	done
	chmod -R a+rX "$d"
}

# preload_mode WHAT LOG: the session of LOG ran with the preload library, or
# without it when WARD_TESTS_OPTS holds --no-preload: a suite run for one
# mode shows that it ran in that mode (its session-start's "preload").
preload_mode() {
	local want=loaded got=unknown
	[[ " ${WARD_TESTS_OPTS:-} " == *" --no-preload "* ]] && want=absent
	if grep -q '"event":"session-start".*"preload":"' "$2" 2>/dev/null; then
		got=loaded
	elif grep -q '"event":"session-start".*"preload":false' "$2" 2>/dev/null; then
		got=absent
	fi
	check "$1: the preload library is $want (WARD_TESTS_OPTS='${WARD_TESTS_OPTS:-}')" "$want" "$got"
}

# stage_check WHAT DIR: a check that nobody can run the staged ward in DIR
# (and so that every directory above DIR lets nobody through).
stage_check() {
	local got
	got=$(cd / && as_nobody "$2/ward" --version 2>&1)
	check "$1: nobody runs the staged ward ($2/ward)" "ward " "${got%%[0-9]*}"
}

# ---------------------------------------------------------------- ward

# ward_probe WARD [RUNAS...]: can ward run on this kernel at all?  Exit 77
# when its start-up says the kernel lacks a feature it needs; bail out on
# any other failure to start (125 is ward's exit for every start-up
# failure: its words tell which).
ward_probe() {
	local ward=$1 d out st
	shift
	d=$(mktemp -d /tmp/ward-probe.XXXXXX) || bail "mktemp"
	chmod 755 "$d"
	[ $# -gt 0 ] && chown "$NB_UID:$NB_GID" "$d"
	out=$(cd "$d" && "$@" env -i HOME="$d" XDG_CONFIG_HOME="$d/config" XDG_STATE_HOME="$d/state" \
		XDG_RUNTIME_DIR="$d" TMPDIR="$d" PATH=/usr/bin:/bin \
		${WARD_KERNEL_FEATURES:+WARD_KERNEL_FEATURES="$WARD_KERNEL_FEATURES"} \
		${WARD_DEGRADED:+WARD_DEGRADED="$WARD_DEGRADED"} "$ward" run -q --log "$d/log.jsonl" --profile audit -- /bin/echo ward-runs 2>&1)
	st=$?
	rm -rf "$d"
	if [ "$st" = 0 ] && [ "$out" = ward-runs ]; then
		return 0
	fi
	case $out in
	"ward: seccomp user notification is not available"* | "ward: the kernel lacks "*)
		skip_all "ward cannot run on this kernel: $out" ;;
	esac
	bail "ward does not start (status $st): $out"
}
