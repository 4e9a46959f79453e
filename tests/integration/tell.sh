#!/bin/bash
# shellcheck disable=SC2016  # sh -c scripts are meant literally
# tell.sh BUILD_DIR - what ward says on the terminal (docs/run.md): the
# project it took; -v's lines (a refusal, an ask answered without a person,
# a rename's source and target, a hard deny, the -r rule that would allow
# it, and nothing for a call that fails natively anyway); the one line the
# session ends with; a file kept from a program as "no such file", named
# once.  The -r rule ward prints is pasted back and lets the call through.
#   tell.sh BUILD_DIR [nobody]
# With "nobody" (root only: skipped, 77, otherwise), the same checks as
# nobody, from copies nobody owns.  Output: TAP (lib.sh).
set -u
BUILD=$(cd "${1:?usage: tell.sh BUILD_DIR}" && pwd)
WARD=${WARD:-$BUILD/ward}
PASS_NAME=${TELL_PASS:-}
# shellcheck source=tests/integration/harness.sh
. "$(dirname "$0")/harness.sh"
[ "${2:-}" = nobody ] && nobody_part "$0" "$BUILD" TELL_PASS
hermetic_base tell proj/sub outside/full home/.ssh home/.config
echo key >"$HOME/.ssh/id_rsa"
echo registry=x >"$HOME/.npmrc"
echo x >"$BASE/outside/full/f"
L=$BASE/log.jsonl
E=$BASE/err
# run ARGS...: ward run --log $L in the current directory; RC; stderr (ward's and the command's) in $E.
# The libc function the preload library saw (", via open" before the closing
# parenthesis) is preload_run.sh's to check: taken out here.
run() {
	rm -f "$L"
	"$WARD" run --log "$L" "$@" 2>"$E"
	RC=$?
	sed -i 's/, via [a-z0-9_]*)/)/' "$E"
}
P=$BASE/proj
cd "$P" || exit 2

# ------------------------------------------------------------ the project

run -- true
check "no repository: the project is the current directory, and ward says so" \
	"ward: project $P: the current directory: no git repository holds it" "$(sed -n 1p "$E")"
git init -q "$P"
cd "$P/sub" || exit 2
run -- sh -c 'echo x >"$1/top-file"' sh "$P"
check "in a repository's subdirectory: the project is the repository's top" \
	"0 ward: project $P: the top of the git repository holding the current directory (--project . for the directory alone)" \
	"$RC $(sed -n 1p "$E")"
has "...and session-start says so" "$L" "\"event\":\"session-start\".*\"project\":\"$P\""
run --project . -- sh -c 'echo x >"$1/top-file2"' sh "$P"
check "--project . takes the directory alone" "2 no" "$RC $(there "$P/top-file2")"
cd "$P" || exit 2
# A repository of dot files in the home directory is not taken for the project.
mkdir -p "$BASE/dothome/work"
git init -q "$BASE/dothome"
(cd "$BASE/dothome/work" && HOME=$BASE/dothome "$WARD" run --log /dev/null -- true) 2>"$E"
check "a repository top that holds the home directory is not taken" \
	"ward: project $BASE/dothome/work: the current directory: its git repository's top, $BASE/dothome, holds your home directory" \
	"$(sed -n 1p "$E")"

# ------------------------------------------------------------ -v

run -q -v -- sh -c 'cat ~/.ssh/id_rsa' 2>/dev/null
check "-v: a refusal, its rule and the rule that would allow it" \
	"ward: deny read ~/.ssh/id_rsa EACCES (builtin:default:9, pid N): -r 'allow read ~/.ssh/id_rsa'" \
	"$(grep '^ward: ' "$E" | sed 's/pid [0-9]*/pid N/')"
run -q -v -- sh -c 'echo x >"$1/new"' sh "$BASE/outside"
check "-v: an ask answered without a person is an ask, not a deny" \
	"ward: ask create $BASE/outside/new EACCES (undecided, no one to answer, pid N): -r 'allow create $BASE/outside/**'" \
	"$(grep '^ward: ' "$E" | sed 's/pid [0-9]*/pid N/')"
rule=$(grep -o "\-r 'allow create [^']*'" "$E" | sed "s/^-r '//; s/'$//")
run -q -r "$rule" -- sh -c 'echo x >"$1/new"' sh "$BASE/outside"
check "...and the rule it gives, pasted, lets the call through" "0 yes" "$RC $(there "$BASE/outside/new")"
# In the home directory: a file alone, a directory with what is below it, never all of ~.
run -q -v -- sh -c 'echo x >~/.toolrc; mkdir -p ~/.tool/x && echo y >~/.tool/x/y'
check "-v: a file made in ~ itself gets a rule for that file, a directory made there one for it and below" \
	"-r 'allow create ~/.toolrc' -r 'allow create ~/.tool/**'" \
	"$(grep -o "\-r '[^']*'" "$E" | tr '\n' ' ' | sed 's/ $//')"
run -q -r 'allow create ~/.toolrc' -r 'allow create ~/.tool/**' -- \
	sh -c 'echo x >~/.toolrc; mkdir -p ~/.tool/x && echo y >~/.tool/x/y'
check "...and those rules, pasted, let the calls through" "0 yes yes" \
	"$RC $(there "$HOME/.toolrc") $(there "$HOME/.tool/x/y")"
# A refusal of ward's own: no rule decided it, and none can allow it.
mkdir -p "$BASE/movable/d"
run -q -v --project "$BASE/movable" -- mv "$BASE/movable" "$TMPDIR/moved"
check "-v: ward's own refusal says its reason, and that no rule allows it" "yes" \
	"$(grep -q "^ward: deny create $TMPDIR/moved (rename of $BASE/movable) EACCES (it would carry what is below it into or out of a rule's reach, pid [0-9]*): ward's own refusal, no rule allows it$" "$E" && echo yes || echo no)"
run -q -v -- sh -c 'cat /proc/1/environ' 2>/dev/null
check "-v: a hard deny says no rule allows it" "yes" \
	"$(grep -q "^ward: deny read /proc/1/environ EACCES (builtin:self:[0-9]*, pid [0-9]*): a hard deny, no rule allows it$" "$E" && echo yes || echo no)"
git -C "$P" commit -q --allow-empty -m x 2>/dev/null
run -q -v -- mv .git/hooks/pre-push.sample .git/hooks/pre-push
check "-v: a rename says its source and its target" "yes" \
	"$(grep -q "^ward: deny create $P/.git/hooks/pre-push (rename of $P/.git/hooks/pre-push.sample) EACCES (builtin:default:[0-9]*, pid [0-9]*): " "$E" && echo yes || echo no)"
run -q -v -- sh -c 'mkdir "$1"; rmdir "$2"; true' sh "$BASE/outside" "$BASE/outside/full"
check "-v: a call that fails natively anyway (mkdir of a directory there, rmdir of one not empty) is no refusal" \
	"" "$(grep '^ward: ' "$E")"
# An ask (the undecided one here) is not put for it: the native error, logged as one.
has "...though the log has each, the rmdir as the error it is" "$L" "\"op\":\"delete\",\"path\":\"$BASE/outside/full\",\"decision\":\"error\",\"errno\":\"ENOTEMPTY\""
# A service of the host's listens there (where nothing listens, the kernel's
# ECONNREFUSED comes first, and that is no refusal to tell of).
python3 -c 'import socket, time; s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(1)
print(s.getsockname()[1], flush=True); time.sleep(300)' >"$BASE/port" &
at_exit "kill $! 2>/dev/null"
wait_for 20 test -s "$BASE/port" || bail "the listener did not start"
port=$(cat "$BASE/port")
run -q -v -- python3 -c 'import socket, sys
try: socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=2)
except OSError: pass' "$port"
check "-v: a connection refused, with the rule that would allow it" \
	"ward: deny connect 127.0.0.1:$port EACCES (builtin:default:N, pid N): -r 'allow connect 127.0.0.1:$port'" \
	"$(grep '^ward: ' "$E" | sed 's/pid [0-9]*/pid N/; s/builtin:default:[0-9]*/builtin:default:N/')"
run -q -vv -- cat /etc/hostname >/dev/null
check "-vv: every decision" "yes" "$(grep -q '^ward: allow read /etc/hostname (builtin:default:8, pid [0-9]*)$' "$E" && echo yes || echo no)"

# ------------------------------------------------------------ the session's end

run -- sh -c 'cat ~/.ssh/id_rsa; echo x >"$1/a"; echo x >"$1/b"; mkdir "$1"; true' sh "$BASE/outside"
# Refused: the rule's refusal and the two asks no one answered; asked: put to a
# person (none without a terminal); the mkdir that fails natively: neither.
check "the session ends with one line: refused and asked, and where the details are" \
	"ward: 3 refused, 0 asked (ward report $L for details)" "$(tail -n 1 "$E")"
has "...and session-end counts them" "$L" '"event":"session-end".*"counts":\{"allowed":[0-9]+,"denied":[0-9]+,"refused":3,"asked":0\}'
rm -rf "$XDG_STATE_HOME"
"$WARD" run -- true 2>"$E"
id=$(ls "$XDG_STATE_HOME/ward/sessions/" | sed 's/\.jsonl$//')
check "...by the session's id with the default log; nothing refused said so" \
	"ward: nothing refused or asked (ward report $id for details)" "$(tail -n 1 "$E")"
run -q -- sh -c 'cat ~/.ssh/id_rsa' 2>/dev/null
check "-q: no line" "" "$(grep '^ward: ' "$E")"

# ------------------------------------------------------------ kept as "no such file"

run -- sh -c 'cat ~/.npmrc; cat ~/.npmrc; true'
check "a file a rule answers 'no such file' is named once, with the rule that would allow it" \
	"ward: cat was kept from ~/.npmrc, which it sees as no such file (builtin:default:13): -r 'allow read ~/.npmrc'" \
	"$(grep 'kept from' "$E")"
run -q -- sh -c 'cat ~/.npmrc; true'
check "...not with -q" "" "$(grep 'kept from' "$E")"

summary
