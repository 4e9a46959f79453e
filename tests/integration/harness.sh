# harness.sh - what profiles.sh, git.sh and agents.sh share: TAP-like
# lines, and the second pass as nobody.  Sourced; PASS_NAME tags the pass.
#   ok WHAT / nok WHAT / skip WHAT WHY   one line each, counted
#   check WHAT EXPECTED GOT              exact equality
#   has WHAT FILE ERE / hasnt ...        a line of FILE matches (or none)
#   contains WHAT FILE TEXT              a line of FILE holds TEXT
#   there PATH                           yes or no (a dangling symlink is there)
#   summary                              the counts; returns 1 when a check failed
#   SRC                                  the source tree
#   hermetic NAME [DIR...]               BASE, a fresh directory (removed at exit, with
#       $CLEANUP run first), real; HOME, the XDG directories and TMPDIR in it, made,
#       and DIRs below BASE too
#   as_nobody SCRIPT BUILD_DIR VAR [FILE...]  as root: run SCRIPT again as
#       nobody from copies nobody owns (ward, the script, this file and the
#       FILEs, relative to the source tree), with VAR=nobody; returns its status

N=0 PASS=0 FAIL=0 SKIP=0
PASS_NAME=${PASS_NAME:-}
# The source tree, for scripts that cd away before they need it.
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
ok() { N=$((N + 1)) PASS=$((PASS + 1)); echo "ok $N - ${PASS_NAME:+[$PASS_NAME] }$1"; }
nok() { N=$((N + 1)) FAIL=$((FAIL + 1)); echo "not ok $N - ${PASS_NAME:+[$PASS_NAME] }$1"; }
skip() { N=$((N + 1)) SKIP=$((SKIP + 1)); echo "ok $N - ${PASS_NAME:+[$PASS_NAME] }$1 # SKIP $2"; }
check() {
	if [ "$2" = "$3" ]; then ok "$1"; else nok "$1 (expected '$2', got '$3')"; fi
}
has() {
	if grep -qE -e "$3" "$2"; then ok "$1"; else
		nok "$1 (no line matching '$3')"
		sed 's/^/#   /' "$2" | tail -n 5
	fi
}
hasnt() {
	if ! grep -qE -e "$3" "$2"; then ok "$1"; else
		nok "$1 (a line matches '$3')"
		grep -E -e "$3" "$2" | sed 's/^/#   /' | head -n 3
	fi
}
contains() {
	if grep -qF -e "$3" "$2"; then ok "$1"; else
		nok "$1 (no '$3' in $(basename "$2"))"
		sed 's/^/#   /' "$2" | tail -n 8
	fi
}
hermetic() {
	local name=$1 d
	shift
	BASE=$(mktemp -d "${TMPDIR:-/tmp}/ward-$name.XXXXXX") || exit 2
	CLEANUP=${CLEANUP:-:}
	trap 'eval "$CLEANUP"; cd / && rm -rf "$BASE"' EXIT
	BASE=$(cd "$BASE" && pwd -P)
	export HOME=$BASE/home XDG_CONFIG_HOME=$BASE/home/.config \
		XDG_STATE_HOME=$BASE/home/.state XDG_RUNTIME_DIR=$BASE/run TMPDIR=$BASE/tmp
	mkdir -p "$HOME" "$BASE/tmp" "$BASE/run" || exit 2
	chmod 700 "$BASE/run"
	for d in "$@"; do mkdir -p "$BASE/$d" || exit 2; done
}
there() { if [ -e "$1" ] || [ -L "$1" ]; then echo yes; else echo no; fi; }
summary() {
	echo "# $PASS passed, $FAIL failed, $SKIP skipped${PASS_NAME:+ ($PASS_NAME)}"
	[ "$FAIL" -eq 0 ]
}
as_nobody() {
	local script=$SRC/tests/integration/$(basename "$1") build=$2 var=$3 group=nogroup src=$SRC u rc
	shift 3
	getent group nogroup >/dev/null || group=nobody
	if ! getent passwd nobody >/dev/null || ! command -v setpriv >/dev/null; then
		echo "# skipped the pass as nobody: no nobody user or no setpriv"
		return 0
	fi
	# The build tree may lie in a mode-0700 directory: copies nobody can read.
	u=$(mktemp -d /tmp/ward-nobody.XXXXXX)
	mkdir -p "$u/build" "$u/tests/integration" "$u/tmp"
	cp "$build/ward" "$u/build/ward"
	cp "$script" "$src/tests/integration/harness.sh" "$u/tests/integration/"
	for f in "$@"; do
		mkdir -p "$u/$(dirname "$f")"
		cp -r "$src/$f" "$u/$f"
	done
	chown -R "nobody:$group" "$u"
	(cd "$u" && setpriv --reuid=nobody --regid="$group" --clear-groups -- \
		env -i PATH="$PATH" TMPDIR="$u/tmp" "$var=nobody" \
		bash "$u/tests/integration/$(basename "$script")" "$u/build")
	rc=$?
	rm -rf "$u"
	return $rc
}
