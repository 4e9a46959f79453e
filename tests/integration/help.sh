#!/bin/bash
# help.sh BUILD_DIR - ward --version with the kernel's features, ward doctor,
# ward help TOPIC and COMMAND --help with examples.
set -u
BUILD=$(cd "${1:?usage: help.sh BUILD_DIR}" && pwd)
WARD=${WARD:-$BUILD/ward}
# shellcheck source=tests/integration/harness.sh
. "$(dirname "$0")/harness.sh"
BASE=$(mktemp -d "${TMPDIR:-/tmp}/ward-help.XXXXXX") || bail "mktemp"
at_exit 'cd / && rm -rf "$BASE"'
VERSION=$(sed -n 's/^project(ward VERSION \([0-9][0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")

out=$("$WARD" --version)
check "ward --version: the version first" "ward $VERSION" "$(sed -n 1p <<<"$out")"
# (The first feature is there, or "no ...": before 5.0 it is not.)
check_match "...then the kernel and the features ward found" \
	"Linux $(uname -r): seccomp user notification[, ]*" "$(sed -n 2p <<<"$out" | sed 's/^\(Linux [^:]*: \)no /\1/')"
# What doctor and --version say is what a plain ward run finds (not one
# the suites make --degraded: WARD_DEGRADED): a session starts.
env -u WARD_DEGRADED "$WARD" run -q --log /dev/null -- true
ran=$?
"$WARD" doctor >"$BASE/doctor"
rc=$?
check "ward doctor's exit status says whether ward runs here (as ward run found)" \
	"$([ "$ran" = 0 ] && echo 0 || echo 1)" "$rc"
# Where only --degraded runs (before 5.9, under another listener), doctor says so, still exit 1.
env -u WARD_DEGRADED "$WARD" run -q --degraded --log /dev/null -- true 2>/dev/null
randeg=$?
if [ "$ran" = 0 ]; then
	says='ward can run here.'
elif [ "$randeg" = 0 ]; then
	says='ward can run here with --degraded'
else
	says='ward cannot run here'
fi
contains "...and says so" "$BASE/doctor" "$says"
for row in "seccomp user notification (5.0)" "SECCOMP_IOCTL_NOTIF_ADDFD (5.9)" \
	"SECCOMP_ADDFD_FLAG_SEND (5.14)" "PIDFD_THREAD (6.9)" \
	"SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (5.19)" "SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (6.6)" \
	"pidfd_getfd (5.6)" "socket monitoring (sock_diag)" "ptrace" "Landlock (5.13)" "user namespaces"; do
	contains "ward doctor: a row for $row" "$BASE/doctor" "$row"
done
# The flags of --version and the rows of doctor agree.
for f in SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP pidfd_getfd; do
	v=$(sed -n 2p <<<"$out" | grep -q " no $f" && echo no || echo yes)
	d=$(grep -E "^  [a-zA-Z]+ +$f" "$BASE/doctor" | awk '{print $1}')
	check "ward --version and ward doctor agree on $f" "$v" "$([ "$d" = yes ] && echo yes || echo no)"
done
"$WARD" doctor extra >/dev/null 2>&1
check "ward doctor takes no argument" 2 "$?"

for c in run check explain trust doctor; do
	a=$("$WARD" help "$c")
	b=$("$WARD" "$c" --help)
	check "ward help $c is ward $c --help" "$b" "$a"
	check "...with examples" "yes" "$(grep -q '^examples*:$' <<<"$a" && echo yes || echo no)"
done
out=$("$WARD" help profiles)
for p in default strict audit claude-code codex aider opencode npm pip cargo go; do
	check "ward help profiles: $p" "yes" "$(grep -qE "^  $p( \(on default\))?$" <<<"$out" && echo yes || echo no)"
done
contains "ward help policy: the language" <("$WARD" help policy) "allow|deny|deny!|ask OPS TARGET..."
"$WARD" help nonsense >/dev/null 2>"$BASE/err"
check "ward help of no topic: usage error, naming the topics" "2" "$?"
contains "...naming the topics" "$BASE/err" "topic (profiles, policy)"
out=$("$WARD" help)
check "ward help: the usage, with doctor and help" "yes yes" \
	"$(grep -q '^  doctor ' <<<"$out" && echo yes) $(grep -q '^  help ' <<<"$out" && echo yes)"

summary
