# shellcheck shell=bash
# harness.sh - what profiles.sh, git.sh, ps.sh, tell.sh, help.sh,
# install.sh and agents.sh share on top of lib.sh (its TAP, its counts, its
# exit status: 77 when a check was skipped).  Sourced; PASS_NAME tags the
# lines of a pass.
#   ok WHAT / nok WHAT [DETAIL...]       a check that passed or failed
#   hasnt WHAT FILE ERE                  no line of FILE matches
#   contains WHAT FILE TEXT              a line of FILE holds TEXT
#   there PATH                           yes or no (a dangling symlink is there)
#   SRC                                  the source tree
#   hermetic_base NAME [DIR...]          BASE, a fresh directory (removed at exit,
#       after $CLEANUP), real; HOME, the XDG directories and TMPDIR in it, made,
#       and DIRs below BASE too
#   nobody_part SCRIPT BUILD_DIR VAR [FILE...]  the script's part as nobody, a
#       ctest of its own: as root, run SCRIPT again as nobody from copies nobody
#       owns (ward, the script, lib.sh, this file and the FILEs, relative to the
#       source tree), with VAR=nobody, and exit with its status; 77 (skipped)
#       where nothing may run as nobody, saying why

# shellcheck source=tests/integration/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

PASS_NAME=${PASS_NAME:-}
# The source tree, for scripts that cd away before they need it.
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd -P)
ok() { pass "${PASS_NAME:+[$PASS_NAME] }$1"; }
nok() {
	local what=$1
	shift
	fail "${PASS_NAME:+[$PASS_NAME] }$what" "$@"
}
hasnt() {
	if ! grep -qE -e "$3" "$2"; then ok "$1"; else
		nok "$1 (a line matches '$3')" "$(grep -E -e "$3" "$2" | head -n 3)"
	fi
}
contains() {
	if grep -qF -e "$3" "$2"; then ok "$1"; else
		nok "$1 (no '$3' in $(basename "$2"))" "$(tail -n 8 "$2")"
	fi
}
hermetic_base() {
	local name=$1 d
	shift
	BASE=$(mktemp -d "${TMPDIR:-/tmp}/ward-$name.XXXXXX") || bail "mktemp"
	CLEANUP=${CLEANUP:-:}
	# shellcheck disable=SC2016  # expanded when the script ends
	at_exit 'cd / && rm -rf "$BASE"'
	# shellcheck disable=SC2016
	at_exit 'eval "$CLEANUP"'
	BASE=$(cd "$BASE" && pwd -P)
	export HOME=$BASE/home XDG_CONFIG_HOME=$BASE/home/.config \
		XDG_STATE_HOME=$BASE/home/.state XDG_RUNTIME_DIR=$BASE/run TMPDIR=$BASE/tmp
	mkdir -p "$HOME" "$BASE/tmp" "$BASE/run" || bail "mkdir in $BASE"
	chmod 700 "$BASE/run"
	for d in "$@"; do mkdir -p "$BASE/$d" || bail "mkdir $BASE/$d"; done
}
there() { if [ -e "$1" ] || [ -L "$1" ]; then echo yes; else echo no; fi; }
nobody_part() {
	local script build=$2 var=$3 u rc f
	script=$SRC/tests/integration/$(basename "$1")
	shift 3
	nobody_ready || skip_all "$NB_WHY"
	# The build tree may lie in a mode-0700 directory: copies nobody can read.
	u=$(mktemp -d /tmp/ward-nobody.XXXXXX) || bail "mktemp"
	at_exit "rm -rf '$u'"
	mkdir -p "$u/build" "$u/tests/integration" "$u/tmp"
	cp "$build/ward" "$u/build/ward" || bail "cannot stage ward"
	# ...with the preload library beside it, as the build has it.
	if [ -e "$build/libward-preload.so" ]; then
		cp "$build/libward-preload.so" "$u/build/" || bail "cannot stage the preload library"
	fi
	cp "$script" "$SRC/tests/integration/lib.sh" "$SRC/tests/integration/harness.sh" \
		"$u/tests/integration/" || bail "cannot stage $script"
	for f in "$@"; do
		mkdir -p "$u/$(dirname "$f")"
		cp -r "$SRC/$f" "$u/$f" || bail "cannot stage $f"
	done
	chown -R "$NB_UID:$NB_GID" "$u"
	chmod 755 "$u"
	(cd "$u" && as_nobody env -i PATH="$PATH" TMPDIR="$u/tmp" "$var=nobody" \
		bash "$u/tests/integration/$(basename "$script")" "$u/build")
	rc=$?
	exit "$rc"
}
