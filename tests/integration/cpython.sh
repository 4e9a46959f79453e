#!/bin/bash
# cpython.sh BUILD_DIR MODULE - one module of CPython's own test suite
# (Debian's libpython3.11-testsuite: python3 -m test MODULE) gives the same
# result, test by test, under `ward run` (default profile, --undecided deny)
# as natively.  Both runs are made as nobody when this script runs as root
# (as the user running it otherwise), each in a hermetic home of its own,
# at the same time; each test's outcome (ok, failure, error, skipped: from
# regrtest's --junit-xml) is compared.  One check a test that differs, one
# for the module's tests that agree, one for a run that gave no result (a
# hang killed by its timeout).
#
# EXCLUDED lists the tests that cannot pass under any supervisor of this
# kind, each with its reason; KNOWN_OPEN the differences found and not yet
# fixed, each with its reason: both are printed, and neither counts as a
# pass; a known-open test that agrees again fails, so that its entry goes.
# Skipped (exit 77) without the test suite, and in the ASan pass
# (WARD_TESTS_WARD_ONLY): the runs are long, and the native one is the
# plain pass's.
. "$(dirname "$0")/lib.sh"
exec </dev/null
umask 022
export LC_ALL=C
BUILD=$(cd "${1:?usage: cpython.sh BUILD_DIR MODULE}" && pwd -P)
MODULE=${2:?usage: cpython.sh BUILD_DIR MODULE}
PY=/usr/bin/python3
[ -n "${WARD_TESTS_WARD_ONLY:-}" ] && skip_all "the ASan pass: CPython's suites run in the plain pass"
[ -x "$PY" ] && "$PY" -c 'import test.regrtest, test.support' 2>/dev/null ||
	skip_all "no CPython test suite ($PY -m test: make deps installs libpython3.11-testsuite)"
# How long a module may take, either way, and one test of it.
# A module's whole run (regrtest's own --timeout, which dumps the stacks of a
# hang, is a little shorter): test_asyncio takes ~80 s on a quiet machine and
# over 300 s under ward on a loaded one.
MODULE_TIMEOUT=${CPYTHON_TIMEOUT:-900}

# Tests that cannot pass under a supervisor of ward's kind, by id.
declare -A EXCLUDED=(
)
# Differences found and not fixed yet, by id, with the reason.
declare -A KNOWN_OPEN=(
)

RUNAS=()
if [ "$(id -u)" = 0 ]; then
	nobody_ready || skip_all "$NB_WHY"
	RUNAS=(as_nobody)
fi
make_base "cpython-$MODULE"
stage "$BASE/bin" "$BUILD/ward"
[ ${#RUNAS[@]} -gt 0 ] && ward_probe "$BASE/bin/ward" as_nobody
[ ${#RUNAS[@]} -eq 0 ] && ward_probe "$BASE/bin/ward"

# run MODE [TEST-ID]: the module (or one test of it) natively or under
# ward, from its home (the project: ward lets it write there), its junit
# XML in $BASE/MODE/home/junit.xml.
run() {
	local mode=$1 h=$BASE/$1 pre=() only=()
	[ -n "${2:-}" ] && only=(-m "$2")
	rm -rf "$h"
	mkdir -p "$h/home" "$h/tmp" "$h/run"
	chmod 700 "$h/run"
	[ ${#RUNAS[@]} -gt 0 ] && chown -R "$NB_UID:$NB_GID" "$h"
	[ "$mode" = ward ] && pre=("$BASE/bin/ward" run -q --undecided deny --log "$h/log.jsonl" --)
	(cd "$h/home" && "${RUNAS[@]}" env -i HOME="$h/home" XDG_CONFIG_HOME="$h/home/.config" \
		XDG_STATE_HOME="$h/home/.state" XDG_RUNTIME_DIR="$h/run" TMPDIR="$h/tmp" \
		PATH=/usr/bin:/bin LC_ALL=C.UTF-8 \
		${WARD_KERNEL_FEATURES:+WARD_KERNEL_FEATURES="$WARD_KERNEL_FEATURES"} \
		${WARD_DEGRADED:+WARD_DEGRADED="$WARD_DEGRADED"} \
		timeout --foreground -k 10 "$MODULE_TIMEOUT" "${pre[@]}" "$PY" -m test "$MODULE" "${only[@]}" -v \
		--timeout $((MODULE_TIMEOUT - 30)) --junit-xml "$h/home/junit.xml" >"$h/output.txt" 2>&1
	echo $? >"$h/status")
}

# again ID: the one test run again, natively then under ward; true when
# both give the same outcome now (a test that depends on timing, on a busy
# machine, may differ once either way: it must differ twice to count).
again() {
	local n w
	run native "$1" && run ward "$1"
	n=$(results native 2>/dev/null | awk -v id="$1" '$1 == id { print $2 }')
	w=$(results ward 2>/dev/null | awk -v id="$1" '$1 == id { print $2 }')
	echo "# $1 run again: natively ${n:-no result}, under ward ${w:-no result}"
	[ -n "$n" ] && [ "$n" = "$w" ]
}

# results MODE: "ID STATUS" a line (ok, failure, error, skipped), sorted.
results() {
	"$PY" - "$BASE/$1/home/junit.xml" <<'PY' | sort
import sys, xml.etree.ElementTree as ET
for tc in ET.parse(sys.argv[1]).iter("testcase"):
    kinds = [c.tag for c in tc if c.tag in ("failure", "error", "skipped")]
    print(tc.get("name"), kinds[0] if kinds else "ok")
PY
}

start=$SECONDS
run native &
native=$!
# Should this script be stopped (ctest's timeout), the native run goes too
# (timeout --foreground keeps each run in this script's process group).
at_exit 'kill "$native" 2>/dev/null'

run ward
wait "$native"
echo "# $MODULE: both runs took $((SECONDS - start)) s (native status $(cat "$BASE/native/status"), under ward $(cat "$BASE/ward/status"))"

for mode in native ward; do
	if [ ! -s "$BASE/$mode/home/junit.xml" ]; then
		fail "$MODULE: a result $([ $mode = ward ] && echo "under ward" || echo natively) (status $(cat "$BASE/$mode/status"): 124 is a timeout)" \
			"$(tail -n 20 "$BASE/$mode/output.txt")"
	fi
done
if [ -s "$BASE/native/home/junit.xml" ] && [ -s "$BASE/ward/home/junit.xml" ]; then
	results native >"$BASE/native.txt"
	results ward >"$BASE/ward.txt"
	agree=0 differ=()
	while read -r id n w; do
		if [ -n "${EXCLUDED[$id]:-}" ]; then
			echo "# excluded: $id (native $n, under ward $w): ${EXCLUDED[$id]}"
		elif [ -n "${KNOWN_OPEN[$id]:-}" ]; then
			if [ "$n" = "$w" ]; then
				fail "$id: known open, but the same now ($n): remove its KNOWN_OPEN entry"
			else
				todo "$id: natively $n, under ward $w" "${KNOWN_OPEN[$id]}"
			fi
		elif [ "$n" = "$w" ]; then
			agree=$((agree + 1))
		else
			differ+=("$id $n $w")
		fi
	done < <(join -a1 -a2 -e missing -o 0,1.2,2.2 "$BASE/native.txt" "$BASE/ward.txt")
	# The whole module's outputs are kept for the failures' words; the reruns use their own.
	mv "$BASE/native" "$BASE/native-module"
	mv "$BASE/ward" "$BASE/ward-module"
	for d in "${differ[@]}"; do
		read -r id n w <<<"$d"
		if again "$id"; then
			agree=$((agree + 1))
		else
			# The test's own words, under ward, for the failure.
			fail "$id: natively $n, under ward $w" \
				"$(grep -A 12 -F "${id##*.} (${id%.*}" "$BASE/ward-module/output.txt" | grep -v '^[a-z_]* (test\.' | head -n 12)"
		fi
	done
	if [ "$agree" -gt 0 ]; then
		pass "$MODULE: $agree tests of $(wc -l <"$BASE/native.txt") have the same outcome natively and under ward"
	else
		fail "$MODULE: no test has the same outcome both ways: the module did not run"
	fi
fi
# While working on ward: CPYTHON_KEEP=DIR keeps both outputs and ward's log there.
if [ -n "${CPYTHON_KEEP:-}" ]; then
	mkdir -p "$CPYTHON_KEEP"
	m=; [ -d "$BASE/ward-module" ] && m=-module
	cp "$BASE/native$m/output.txt" "$CPYTHON_KEEP/$MODULE-native.txt"
	cp "$BASE/ward$m/output.txt" "$CPYTHON_KEEP/$MODULE-ward.txt"
	cp "$BASE/ward$m/log.jsonl" "$CPYTHON_KEEP/$MODULE-ward.jsonl"
fi
summary
