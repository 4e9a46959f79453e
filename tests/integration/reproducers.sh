#!/bin/bash
# reproducers.sh BUILD_DIR - each difference from native behaviour that
# CPython's test suites found under ward (issue 20; tests/integration/
# cpython.sh runs the suites themselves), reproduced by a program of ward's
# own in tests/progs, without Python.
#
# Each case runs its program natively and under `ward run` (default
# profile, --undecided deny), dynamic and static, in a fresh directory, as
# the user running this script and, when that is root, as nobody; what the
# program prints and its exit status must be the same both ways.  (The
# programs print only what natively never varies.)
#
# Output: "ok - what" / "not ok - what" lines (a diff follows a failure as
# "# " lines), then "N passed, M failed".  Exit 1 when a check failed, 2
# when the test cannot run.
#
# While working on ward: REPRO_FILTER=REGEX runs only the cases whose name
# matches.

set -u
exec </dev/null
umask 022
if [ $# -ne 1 ] || [ ! -x "$1/ward" ]; then
	echo "usage: $0 BUILD_DIR (built)" >&2
	exit 2
fi
BUILD=$(cd "$1" && pwd -P)
BASE=$(mktemp -d "${TMPDIR:-/tmp}/ward-repro.XXXXXX") || exit 2
BASE=$(cd "$BASE" && pwd -P)
chmod 755 "$BASE"
trap 'cd / && rm -rf "$BASE"' EXIT
trap 'exit 130' INT TERM

PROGS="timer_calls"
BIN=$BASE/bin
mkdir "$BIN"
cp "$BUILD/ward" "$BIN/"
for p in $PROGS; do
	for s in "" -static; do
		if ! cp "$BUILD/tests/progs/$p$s" "$BIN/"; then
			echo "$0: $BUILD/tests/progs/$p$s is missing: build first" >&2
			exit 2
		fi
	done
done
chmod -R a+rX "$BIN"

npass=0
nfail=0
pass() {
	npass=$((npass + 1))
	echo "ok - $1"
}
failed() { # WHAT [DETAIL-FILE]
	nfail=$((nfail + 1))
	echo "not ok - $1"
	[ -n "${2:-}" ] && sed 's/^/#   /' "$2" | head -30
}

WHO=self
RUNAS=()
# as_user CMD...: CMD as the user of this run, in a clean environment.
as_user() {
	"${RUNAS[@]}" env -i HOME="$U/home" XDG_CONFIG_HOME="$U/home/.config" \
		XDG_STATE_HOME="$U/state" XDG_RUNTIME_DIR="$U/run" TMPDIR="$U/tmp" \
		PATH=/usr/bin:/bin LC_ALL=C "${EXTRA_ENV[@]}" "$@"
}

setup_user() { # WHO
	WHO=$1
	U=$BASE/$WHO
	mkdir -p "$U/home/.config/ward" "$U/state" "$U/run" "$U/tmp" "$U/work"
	chmod 700 "$U/run"
	if [ "$WHO" = nobody ]; then
		chown -R nobody:nogroup "$U"
		RUNAS=(setpriv --reuid=nobody --regid=nogroup --clear-groups --)
	else
		RUNAS=()
	fi
}

EXTRA_ENV=()
# same NAME PROG ARGS...: PROG (both builds) prints the same and exits the
# same natively and under ward, run in a fresh directory (its cwd, which
# "DIR" in ARGS names).  EXTRA_ENV is added to ward's environment.
same() {
	local name=$1 prog=$2 kind
	shift 2
	if [ -n "${REPRO_FILTER:-}" ] && ! [[ $name =~ $REPRO_FILTER ]]; then
		return
	fi
	for kind in "" -static; do
		local d=$U/work/$prog$kind args=() a
		for a in "$@"; do args+=("${a//DIR/$d}"); done
		local what="$name (${prog}${kind}, as $WHO)"
		rm -rf "$d"
		mkdir -p "$d"
		[ "$WHO" = nobody ] && chown nobody:nogroup "$d"
		(cd "$d" && as_user "$BIN/$prog$kind" "${args[@]}" >"$BASE/native" 2>&1
			echo "exit $?" >>"$BASE/native")
		rm -rf "$d"
		mkdir -p "$d"
		[ "$WHO" = nobody ] && chown nobody:nogroup "$d"
		(cd "$d" && as_user "$BIN/ward" run -q --undecided deny --log "$U/log.jsonl" -- \
			"$BIN/$prog$kind" "${args[@]}" >"$BASE/ward" 2>&1
			echo "exit $?" >>"$BASE/ward")
		if diff "$BASE/native" "$BASE/ward" >"$BASE/diff"; then
			pass "$what"
		else
			failed "$what: differs from native (< native, > ward)" "$BASE/diff"
		fi
	done
}

suite() {
	# Signals before ward has received a call (issue 25): a timer at 100 Hz,
	# and one every 50 us while four threads keep ward's one worker busy, so
	# that each call waits its turn far longer than the timer's interval.
	# Without SA_RESTART no call may fail with EINTR; with it no call may be
	# restarted for ever.
	EXTRA_ENV=()
	same "signals: a 100 Hz timer, handlers without SA_RESTART" timer_calls DIR intr 10000 2
	same "signals: a 100 Hz timer, handlers with SA_RESTART" timer_calls DIR restart 10000 2
	EXTRA_ENV=(WARD_WORKERS=1)
	same "signals: a 50 us timer, a busy ward, without SA_RESTART" timer_calls DIR intr 50 2 4
	same "signals: a 50 us timer, a busy ward, with SA_RESTART" timer_calls DIR restart 50 2 4
	EXTRA_ENV=()
}

setup_user self
suite
if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	setup_user nobody
	suite
else
	echo "# skip: the runs as nobody (not root)"
fi

echo "$npass passed, $nfail failed"
[ "$nfail" = 0 ]
