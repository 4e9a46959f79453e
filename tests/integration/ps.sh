#!/bin/bash
# shellcheck disable=SC2016  # sh -c scripts are meant literally
# ps.sh BUILD_DIR - ps and pgrep under ward see every process: the stat,
# status and comm of processes outside the session may be read, nothing
# else of theirs (cmdline, environ, memory, fds, maps, threads), and
# nothing of theirs written.
#   ps.sh BUILD_DIR [nobody]
# With "nobody" (root only: skipped, 77, otherwise), the same checks as
# nobody, from copies nobody owns.  Output: TAP (lib.sh).
set -u
BUILD=$(cd "${1:?usage: ps.sh BUILD_DIR}" && pwd)
WARD=${WARD:-$BUILD/ward}
OUTSIDE=
CLEANUP='[ -n "$OUTSIDE" ] && kill "$OUTSIDE" 2>/dev/null'
PASS_NAME=${PS_PASS:-}
# shellcheck source=tests/integration/harness.sh
. "$(dirname "$0")/harness.sh"
[ "${2:-}" = nobody ] && nobody_part "$0" "$BUILD" PS_PASS
hermetic_base ps proj
cd "$BASE/proj" || exit 2
L=$BASE/log.jsonl
run() { rm -f "$L"; "$WARD" run -q --undecided deny --log "$L" "$@" 2>"$BASE/err"; RC=$?; }

# A process outside the session, with a name of its own and a secret in its
# environment and arguments.
NAME=wardps$$
cp /bin/sleep "$BASE/$NAME"
SECRET=s3cret$$ "$BASE/$NAME" 300 0.$$ &
OUTSIDE=$!
for _ in $(seq 100); do [ "$(cat "/proc/$OUTSIDE/comm" 2>/dev/null)" = "$NAME" ] && break; sleep 0.05; done

out=$("$WARD" run -q --log "$L" -- pgrep -x "$NAME")
check "pgrep finds a process outside the session" "0 $OUTSIDE" "$? $out"
out=$("$WARD" run -q --log "$L" -- ps -e -o pid=,comm= 2>/dev/null | awk -v p="$OUTSIDE" '$1 == p {print $2}')
check "ps -e shows it, by its name" "$NAME" "$out"
n_in=$("$WARD" run -q --log /dev/null -- ps -e -o pid= | wc -l)
n_out=$(ps -e -o pid= | wc -l)
check "ps -e under ward sees about as many processes as outside (within 20)" "yes" \
	"$([ $((n_out - n_in)) -lt 20 ] && [ $((n_in - n_out)) -lt 20 ] && echo yes || echo "no ($n_in, $n_out)")"
out=$("$WARD" run -q --log /dev/null -- sh -c 'grep "^State:" /proc/$1/status' sh "$OUTSIDE")
check "its status may be read" "State:	S (sleeping)" "$out"

# What stays refused.
for f in cmdline environ maps mem fd/0 task/$OUTSIDE/stat io limits; do
	run -- sh -c 'cat "$1" >/dev/null' sh "/proc/$OUTSIDE/$f"
	check "/proc/PID/$f of a process outside the session is refused" "yes" \
		"$([ "$RC" -ne 0 ] && ! grep -q "s3cret$$\|0\.$$" "$BASE/err" && echo yes || echo no)"
done
run -- sh -c 'cat /proc/$1/cmdline' sh "$OUTSIDE"
has "...by ward's self-protection" "$L" "\"path\":\"/proc/$OUTSIDE/cmdline\",\"decision\":\"deny\",\"errno\":\"EACCES\",\"rule\":\"builtin:self:[0-9]+\""
run -- sh -c 'echo renamed >/proc/$1/comm' sh "$OUTSIDE"
check "its comm cannot be written" "$NAME" "$(cat "/proc/$OUTSIDE/comm")"
out=$("$WARD" run -q --log /dev/null -- ps -o args= -p "$OUTSIDE")
check "ps shows no arguments of it (cmdline refused): [name]" "[$NAME]" "$out"
# ward, the agent's parent, is no process to read anything of.
run -- sh -c 'cat /proc/$PPID/stat || cat /proc/$PPID/status || cat /proc/$PPID/comm'
check "ward's own stat, status and comm are refused" "1" "$RC"
has "...by ward" "$L" "\"path\":\"/proc/[0-9]+/comm\",\"decision\":\"deny\",\"errno\":\"EACCES\""
run -- sh -c 'cd /proc/$1 && cat stat' sh "$OUTSIDE"
check "its directory cannot be entered (the file is read by its path only)" "yes" \
	"$([ "$RC" -ne 0 ] && echo yes || echo no)"

summary
