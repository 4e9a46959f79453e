#!/bin/bash
# term.sh BUILD_DIR - ward's terminal: the agent on a pty behind ward's
# rows, questions put and answered there and with `ward approve`
# (supervisor/term/, ask.c, control.c, cli/approve.c).
#
# It drives tests/term_harness, which runs a command on ward's pty and
# takes the questions of ward's decisions over a socket (tests/term/ask.py
# asks them, as an agent's calls would), in tmux: a person's keys are
# send-keys, what the person sees is capture-pane.  The harness lengthens
# the half second in which keys do not answer to two, so that a key sent
# inside it is inside it on a busy machine.  When run as root the whole
# set runs again as nobody.
#
# Output: "ok N - ..." / "not ok N - ... (why)", then "N passed, M failed".
set -u
umask 022
BUILD=$(cd "${1:?usage: term.sh BUILD_DIR}" && pwd -P)
SRC=$(cd "$(dirname "$0")/../term" && pwd -P)
SELF=$(cd "$(dirname "$0")" && pwd -P)/$(basename "$0")
H=${TERM_HARNESS:-$BUILD/tests/term_harness}
PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3)
command -v tmux >/dev/null || { echo "term.sh: tmux is missing (make deps)"; exit 2; }
[ -x "$H" ] || { echo "term.sh: build $H first"; exit 2; }

BASE=$(mktemp -d /tmp/ward-term.XXXXXX)
chmod 755 "$BASE"
export HOME=$BASE/home XDG_CONFIG_HOME=$BASE/home/.config XDG_RUNTIME_DIR=$BASE/run TMPDIR=$BASE/tmp
mkdir -p "$HOME" "$XDG_RUNTIME_DIR" "$TMPDIR" "$BASE/x"
chmod 700 "$XDG_RUNTIME_DIR"
SOCK=$BASE/ask.sock
RES=$BASE/results
ASK="$PY $SRC/ask.py $SOCK"
WHO=${TERM_PASS:-}
N=0 PASS=0 FAIL=0
cleanup() {
	T kill-server 2>/dev/null
	[ -n "${NOBODY_PID:-}" ] && kill "$NOBODY_PID" 2>/dev/null
	rm -rf "$BASE"
}
trap cleanup EXIT

ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N - $WHO$1${TERM_DEBUG:+ $(date +%T.%N)}"; }
bad() {
	N=$((N + 1))
	FAIL=$((FAIL + 1))
	echo "not ok $N - $WHO$1 ($2)"
	screen | sed 's/^/#   /'
	[ -f "$RES" ] && tail -n 3 "$RES" | sed 's/^/#   answered: /'
}
check() { if [ "$2" = "$3" ]; then ok "$1"; else bad "$1" "expected '$2', got '$3'"; fi; }
T() { tmux -S "$BASE/tmux.sock" -f /dev/null "$@"; }
screen() { T capture-pane -p -t "${PANE:-w}" 2>/dev/null; }
row() { screen | sed -n "$1p"; }
# until COMMAND succeeds, up to SECONDS (20): a condition, not a delay
until_ok() {
	local s=$1 i
	shift
	for ((i = 0; i < s * 20; i++)); do "$@" && return 0; sleep 0.05; done
	echo "# waited ${s}s in vain for: $*"
	return 1
}
on_screen() { screen | grep -qE "$1"; }
shows() { until_ok "${3:-20}" on_screen "$2" && ok "$1" || bad "$1" "nothing matching '$2' on the screen"; }
type_line() { T send-keys -t "${PANE:-w}" -l "$*"; T send-keys -t "${PANE:-w}" Enter; }
file_has() { [ -s "$1" ] && grep -qE "$2" "$1"; }
# The question's keys answer: its keys' row is drawn, and no longer dim (SGR 2).
live() {
	local r
	r=$(T capture-pane -p -e -t "${PANE:-w}" | sed -n "$(T display -p -t "${PANE:-w}" '#{pane_height}')p")
	[[ $r == *$'\033[44m'*'[y]'* && $r != *$'\033[0;2m'* ]]
}
pending() { "$H" approve --list --json 2>/dev/null | grep -c '"n":'; }
pending_is() { [ "$(pending)" = "$1" ]; }
not_on_screen() { ! on_screen "$1"; }
no_server() { ! T list-sessions >/dev/null 2>&1; }
approve_has() { "$H" approve --list --json 2>/dev/null | grep -q "$1"; }
lines_in() { [ "$(grep -c . "$1" 2>/dev/null)" = "$2" ]; }
row_not() { [ "$(row "$1")" != "$2" ]; }
# Shell prompts ("$ ", shown as "$" when nothing follows it) on the screen.
prompts_at_least() { [ "$(screen | grep -cE '^\$( |$)')" -ge "$1" ]; }
shell_back() { screen | grep -v '^$' | tail -n 1 | grep -qE '^\$( |$)'; }
last_count() { screen | grep -o 'COUNT [0-9]*' | tail -n 1; }
count_not() { [ "$(last_count)" != "$1" ]; }

# A fresh terminal of 100x20 running an interactive shell, prompt "$ ".
fresh() {
	T kill-server 2>/dev/null
	until_ok 20 no_server
	T new-session -d -s w -x 100 -y 20 \
		"env -i PATH=$PATH HOME=$HOME XDG_CONFIG_HOME=$XDG_CONFIG_HOME XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR TMPDIR=$TMPDIR TERM=tmux-256color PS1='$ ' bash --norc --noprofile -i"
	until_ok 20 on_screen '^\$ ?$' || echo "# the shell did not start"
}
# ward's terminal (the harness) in it, running an agent's shell, prompt "agent$ ".
harness() {
	rm -f "$RES" "$SOCK"
	type_line "$H -s $SOCK -r $RES -a 2000 $* -- env PS1='agent\$ ' bash --norc --noprofile"
	until_ok 20 on_screen '^agent\$' || echo "# the agent's shell did not start"
	until_ok 20 test -S "$SOCK"
}
# Ask in the background; the reply lands in FILE.
ask_bg() { $ASK "$2" ${3:-1} >"$1" 2>&1 & }

# ---- ward's rows ----
fresh
harness
shows "ward's rows: the idle line on the terminal's second-last row" '^ward ▸ session harness · no question waiting'
check "...which is row 19 of 20" 1 "$(row 19 | grep -c 'no question waiting')"
type_line 'stty size'
shows "the agent's terminal is two rows shorter" '^18 100$'
type_line 'tty; test -t 0 && test -t 1 && echo STDIO-IS-A-TTY'
shows "the agent's standard descriptors are its pty's slave" '^STDIO-IS-A-TTY$'

# ---- a question, and each key ----
ask_bg "$BASE/a1" "write $HOME/.npmrc"
shows "a question shows on ward's rows, the target as ~" '^ward ▸ python3.* wants to WRITE ~/.npmrc .*rule: builtin:default:41 \(ask\)$'
shows "...with the keys and its scope on the next row" '^ +\[y\] ?once +\[s\].*\[tab\].*\[\?\]'
check "the bell rang" 1 "$(T display -p -t w '#{window_bell_flag}')"
until_ok 20 live
T send-keys -t w y
until_ok 20 file_has "$BASE/a1" . || true
check "y: allowed once" "allow once prompt" "$(cat "$BASE/a1")"
shows "...and the idle line is back" 'no question waiting'
check "...which the harness records" "write $HOME/.npmrc once prompt 0" "$(tail -n 1 "$RES")"

ask_bg "$BASE/a2" "write $HOME/.npmrc"
until_ok 20 on_screen 'wants to WRITE ~/.npmrc'
until_ok 20 live
T send-keys -t w Enter
until_ok 20 on_screen 'wants to WRITE ~/.npmrc'
check "Enter answers nothing: the question still waits" 1 "$(pending)"
T send-keys -t w n
until_ok 20 file_has "$BASE/a2" .
check "n: denied" "deny deny prompt" "$(cat "$BASE/a2")"

ask_bg "$BASE/a3" "delete $HOME/old"
until_ok 20 on_screen 'wants to DELETE ~/old'
until_ok 20 live
T send-keys -t w Escape
until_ok 20 file_has "$BASE/a3" .
check "Esc: denied" "deny deny prompt" "$(cat "$BASE/a3")"

ask_bg "$BASE/a4" "create $HOME/cache/one"
until_ok 20 on_screen 'wants to CREATE ~/cache/one'
until_ok 20 live
T send-keys -t w Tab
shows "tab: the next scope, its rule shown" 'allow create "~/cache/\*"'
T send-keys -t w Tab
shows "tab again: the directory and below" 'allow create "~/cache/\*\*"'
T send-keys -t w s
until_ok 20 file_has "$BASE/a4" .
check "s: allowed for the session" "allow session prompt" "$(cat "$BASE/a4")"
check "...and its grant answers the next one below without asking" "allow session grant" \
	"$($ASK "create $HOME/cache/deeper/two")"
ask_bg "$BASE/a5" "write $HOME/cache/two"
until_ok 20 on_screen 'wants to WRITE ~/cache/two'
check "...for that op only" 1 "$(pending)"
until_ok 20 live
T send-keys -t w n
until_ok 20 file_has "$BASE/a5" .

ask_bg "$BASE/a6" "write $HOME/.local/bin/tool"
until_ok 20 on_screen 'wants to WRITE ~/.local/bin/tool'
until_ok 20 live
agent_rows=$(screen | sed -n '1,18p')
T send-keys -t w '?'
shows "?: the details, over the agent's area" 'question [0-9]+ in full'
shows "...with the cwd and the processes" '^ +cwd +/'
T send-keys -t w '?'
until_ok 20 not_on_screen 'in full'
check "? again: the details gone, the agent's screen back as it was" "$agent_rows" "$(screen | sed -n '1,18p')"
T send-keys -t w a
until_ok 20 file_has "$BASE/a6" .
check "a: allowed always" "allow always prompt" "$(cat "$BASE/a6")"
P=$XDG_CONFIG_HOME/ward/policy
check "...its rule appended to the user's policy" 1 "$(grep -c '^allow write "~/.local/bin/tool"$' "$P" 2>/dev/null)"
check "...after a dated comment naming the session" 1 \
	"$(grep -cE '^# allowed always by the person at 20[0-9-]+ [0-9:]+Z, ward session harness \(python3' "$P")"

ask_bg "$BASE/a7" "read $HOME/.aws/credentials"
until_ok 20 on_screen 'wants to READ ~/.aws/credentials'
until_ok 20 live
T send-keys -t w d
until_ok 20 file_has "$BASE/a7" .
check "d: denied always" "deny deny-always prompt" "$(cat "$BASE/a7")"
check "...its deny rule appended" 1 "$(grep -c '^deny read "~/.aws/credentials"$' "$P")"

ask_bg "$BASE/a8" "connect registry.example.org:443 104.16.3.34"
shows "a connect: the host and port, the address beside them" 'wants to CONNECT registry.example.org:443 \(104.16.3.34\)'
until_ok 20 live
# One key per read: two keys read together are a burst and answer nothing.
T send-keys -t w Tab
until_ok 20 on_screen 'allow connect registry\.example\.org:\*'
T send-keys -t w Tab
shows "...its scopes: the host, then its domain" 'allow connect \*\.example\.org:443'
T send-keys -t w s
until_ok 20 file_has "$BASE/a8" .
check "...s allows it for the session" "allow session prompt" "$(cat "$BASE/a8")"
check "...and another host of the domain on that port" "allow session grant" \
	"$($ASK "connect cdn.example.org:443 104.16.3.35")"

# ---- typed ahead: no answer ----
ask_bg "$BASE/b1" "write $HOME/typed"
until_ok 20 on_screen 'wants to WRITE ~/typed'
T send-keys -t w y
check "a key in the prompt's first moments answers nothing" 1 "$(pending)"
T send-keys -t w -l yy
check "...nor do keys in a burst" 1 "$(until_ok 20 live; T send-keys -t w -l yy; pending)"
# An n read together with the y's is part of the burst: press it again then.
T send-keys -t w n
until_ok 15 file_has "$BASE/b1" . || { T send-keys -t w n; until_ok 20 file_has "$BASE/b1" .; }
check "...the key after them does" "deny deny prompt" "$(cat "$BASE/b1")"

# ---- the agent cannot answer ----
cat >"$BASE/attempt.sh" <<EOF
$ASK "write $HOME/attempted" >$BASE/c1 2>&1 &
for i in \$(seq 1 40); do
	printf 'y\n' >/dev/tty
	printf 'y\r'
	$PY -c 'import fcntl, termios; fcntl.ioctl(0, termios.TIOCSTI, b"y")' 2>/dev/null
	printf 'y\n' >\$1 2>/dev/null
	sleep 0.1
done
echo ATTEMPTS-DONE
EOF
REAL=$(T display -p -t w '#{pane_tty}')
type_line "sh $BASE/attempt.sh $REAL"
until_ok 20 on_screen 'ATTEMPTS-DONE'
check "the agent writing y to its terminal, pushing y (TIOCSTI), writing y to the real terminal: no answer" \
	1 "$(pending)"
until_ok 20 live
T send-keys -t w n
until_ok 20 file_has "$BASE/c1" .
check "...the person's n does" "deny deny prompt" "$(cat "$BASE/c1")"
T send-keys -t w C-c # the y's the agent pushed into its own input, dropped
until_ok 20 on_screen '^agent\$ ?$'

# ---- queueing, merging, timeout, withdrawal ----
ask_bg "$BASE/q1" "write $BASE/x/first"
until_ok 20 on_screen 'x/first'
ask_bg "$BASE/q2" "write $BASE/x/second"
shows "a second question queues behind the first" '\(\+1 waiting\)'
until_ok 20 live
T send-keys -t w y
shows "...and shows when the first is answered" 'x/second'
until_ok 20 live
T send-keys -t w n
until_ok 20 file_has "$BASE/q2" .
check "...each with its own answer" "allow once prompt/deny deny prompt" "$(cat "$BASE/q1")/$(cat "$BASE/q2")"

ask_bg "$BASE/m1" "create $BASE/x/merged" 20
until_ok 20 on_screen 'x/merged'
until_ok 20 approve_has '"waiting": 20'
check "twenty threads asking the same: one question" 1 "$(pending)"
check "...its twenty callers waiting on it" 1 "$("$H" approve --list --json | grep -c '"waiting": 20')"
until_ok 20 live
T send-keys -t w y
until_ok 20 lines_in "$BASE/m1" 20
check "...one answer releases all" 20 "$(grep -c '^allow once prompt$' "$BASE/m1")"

$ASK "write $BASE/x/gone" >/dev/null 2>&1 &
ASKER=$!
until_ok 20 on_screen 'x/gone'
kill "$ASKER"
shows "a question whose caller went away is withdrawn" 'no question waiting'
until_ok 20 file_has "$RES" 'gone withdrawn'
check "...and said so" 1 "$(grep -c "^write $BASE/x/gone withdrawn prompt " "$RES")"
type_line 'exit'
until_ok 20 on_screen '^\$ ?$'

rm -f "$SOCK"
type_line "$H -s $SOCK -r $RES -t 2 -- sleep 60"
until_ok 20 test -S "$SOCK"
until_ok 20 on_screen 'no question waiting'
check "no answer in time: a deny this once" "deny timeout timeout" "$($ASK "write $HOME/slow")"
check "...no rule saved for it" 0 "$(grep -c slow "$P")"
T send-keys -t w C-c
until_ok 20 on_screen '^\$ ?$'

# ---- ward approve ----
fresh
harness
ask_bg "$BASE/d1" "write $HOME/approved"
until_ok 20 on_screen 'wants to WRITE ~/approved'
J=$("$H" approve --list --json)
check "approve --list --json: the session, its question numbered, op, target, process" 1 \
	"$(echo "$J" | $PY -c 'import json, sys
s = json.load(sys.stdin)
a = s[0]["asks"][0]
print(int(s[0]["session"] == "harness" and a["n"] >= 1 and a["op"] == "write" and a["target"].endswith("/home/approved") and a["prog"].startswith("python3")))')"
NUM=$(echo "$J" | $PY -c 'import json, sys; print(json.load(sys.stdin)[0]["asks"][0]["n"])')
check "approve --list: the same in text" 1 "$("$H" approve --list | grep -cE "^  $NUM  write $HOME/approved ")"
"$H" approve harness --answer "$NUM" once
check "approve --answer N once from a second process answers" "allow once prompt" \
	"$(until_ok 20 file_has "$BASE/d1" .; cat "$BASE/d1")"
shows "...and the terminal's prompt goes" 'no question waiting'
check "...a second answer to it is refused (the first won)" 1 \
	"$("$H" approve --answer "$NUM" deny 2>&1 | grep -c 'no such question pending')"

ask_bg "$BASE/d2" "write $HOME/interactive"
until_ok 20 on_screen 'wants to WRITE ~/interactive'
T new-window -t w -n approver "env HOME=$HOME XDG_RUNTIME_DIR=$XDG_RUNTIME_DIR TERM=tmux-256color $H approve; sleep 30"
PANE=approver
shows "approve in another window: the question as the terminal puts it" 'wants to WRITE ~/interactive'
until_ok 20 live
T send-keys -t approver n
until_ok 20 file_has "$BASE/d2" .
check "...answered there with the same keys" "deny deny prompt" "$(cat "$BASE/d2")"
PANE=w
shows "...and gone from the session's terminal" 'no question waiting'
T kill-window -t approver

# ---- a full-screen program ----
type_line "$PY $SRC/fullscreen.py"
until_ok 20 on_screen 'CLOCK'
before=$(screen | sed -n '1p;3,18p')
check "a full-screen program: its attempts on ward's rows land in its own area" \
	"FORGED-BY-REGION" "$(row 18 | grep -o 'FORGED-BY-REGION')"
check "...ward's rows still ward's" 1 "$(row 19 | grep -c 'no question waiting')"
ask_bg "$BASE/e1" "exec /usr/bin/sudo"
until_ok 20 on_screen 'wants to EXEC /usr/bin/sudo'
c1=$(row 2)
until_ok 20 row_not 2 "$c1"
check "...keeps running while the prompt is up (its clock advances)" 1 "$([ "$(row 2)" != "$c1" ] && echo 1)"
check "...while ward's rows show the prompt" 1 "$(row 19 | grep -c 'wants to EXEC')"
until_ok 20 live
T send-keys -t w n
until_ok 20 file_has "$BASE/e1" .
until_ok 20 on_screen 'no question waiting'
check "...and its screen after is as before" "$before" "$(screen | sed -n '1p;3,18p')"
T send-keys -t w q
until_ok 20 on_screen '^agent\$'
check "...its alternate screen left at its end" 0 "$(T display -p -t w '#{alternate_on}')"

# ---- window size ----
T resize-window -t w -x 80 -y 30
until_ok 20 on_screen 'no question waiting'
type_line 'stty size'
shows "a new window size reaches the agent, less ward's rows" '^28 80$'
check "...ward's rows at the new bottom" 1 "$(row 29 | grep -c 'no question waiting')"
type_line 'exit'
until_ok 20 on_screen '^\$ ?$'

# ---- the terminal given back ----
fresh
type_line "stty -g >$BASE/stty.before"
type_line "$H -s $SOCK -- $PY $SRC/modes.py"
until_ok 20 prompts_at_least 3
type_line "stty -g >$BASE/stty.after"
until_ok 20 test -s "$BASE/stty.after"
check "after a normal exit: the terminal's settings as they were" "$(cat "$BASE/stty.before")" "$(cat "$BASE/stty.after")"
check "...no alternate screen, no mouse reports, the cursor shown, the whole screen scrolling" \
	"0 0 1 0 0 0 19" "$(T display -p -t w '#{alternate_on} #{mouse_any_flag} #{cursor_flag} #{keypad_cursor_flag} #{keypad_flag} #{scroll_region_upper} #{scroll_region_lower}')"
# Pasted once cat reads (bash's readline turns bracketed paste on for itself).
type_line 'echo CAT-READY; cat -v'
until_ok 20 on_screen '^CAT-READY$'
T set-buffer PASTED
T paste-buffer -p -t w
shows "...no bracketed paste" '^PASTED$'
T send-keys -t w C-c
until_ok 20 on_screen '^\$ ?$'

rm -f "$BASE/stty.after"
type_line "$H -s $SOCK -- $PY $SRC/modes.py wait"
until_ok 20 on_screen 'MODES SET'
HP=$(ps -o pid=,args= --ppid "$(T display -p -t w '#{pane_pid}')" | awk '/term_harness/ {print $1}')
kill -TERM $HP
until_ok 20 shell_back
type_line "stty -g >$BASE/stty.after"
until_ok 20 test -s "$BASE/stty.after"
check "after SIGTERM to ward: the terminal's settings as they were" "$(cat "$BASE/stty.before")" "$(cat "$BASE/stty.after")"
check "...no alternate screen, no mouse reports, the cursor shown, the whole screen scrolling" \
	"0 0 1 0 0 0 19" "$(T display -p -t w '#{alternate_on} #{mouse_any_flag} #{cursor_flag} #{keypad_cursor_flag} #{keypad_flag} #{scroll_region_upper} #{scroll_region_lower}')"

# ---- job control ----
type_line "$H -s $SOCK -- $PY $SRC/counter.py"
until_ok 20 on_screen 'COUNT 3'
T send-keys -t w C-z
shows "^Z stops the agent, and ward with it: the shell has the terminal" 'Stopped'
rm -f "$BASE/stty.after"
type_line "stty -g >$BASE/stty.after"
until_ok 20 test -s "$BASE/stty.after"
check "...with its settings as they were" "$(cat "$BASE/stty.before")" "$(cat "$BASE/stty.after")"
last=$(last_count)
type_line 'fg'
until_ok 20 count_not "$last"
check "fg: the agent runs again, ward's rows back" "1 1" \
	"$(count_not "$last" && echo 1) $(row 19 | grep -c 'no question waiting')"
T send-keys -t w C-c
until_ok 20 on_screen '^\$ ?$'

# ---- nobody to ask ----
$H --ask terminal -s "$SOCK" -- sleep 60 </dev/null >/dev/null 2>&1 &
HP=$!
until_ok 20 test -S "$SOCK"
check "no terminal and no approver: the undecided answer, at once" "deny undecided undecided" \
	"$(timeout 10 $ASK "write $HOME/nobody-asked")"
kill "$HP"
wait "$HP" 2>/dev/null
rm -f "$SOCK"
$H --ask approve -s "$SOCK" -- sleep 60 </dev/null >/dev/null 2>&1 &
HP=$!
until_ok 20 test -S "$SOCK"
ask_bg "$BASE/f1" "write $HOME/later"
until_ok 20 pending_is 1
check "--ask approve without a terminal: the question waits for ward approve" 1 "$(pending)"
"$H" approve --answer "$("$H" approve --list --json | $PY -c 'import json, sys; print(json.load(sys.stdin)[0]["asks"][0]["n"])')" session
until_ok 20 file_has "$BASE/f1" .
check "...which answers it" "allow session prompt" "$(cat "$BASE/f1")"
kill "$HP"
wait "$HP" 2>/dev/null

# ---- another user ----
if [ "$(id -u)" = 0 ] && [ -z "$WHO" ] && command -v setpriv >/dev/null && getent passwd nobody >/dev/null; then
	group=nogroup
	getent group nogroup >/dev/null || group=nobody
	NB=$BASE/nb
	mkdir -p "$NB/run" "$NB/home"
	cp "$H" "$NB/term_harness"
	chown -R "nobody:$group" "$NB"
	chmod 700 "$NB/run"
	# From a directory nobody may enter: the checkout's may be private (0700).
	(cd "$NB/home" && exec setpriv --reuid=nobody --regid="$group" --clear-groups env -i PATH="$PATH" \
		HOME="$NB/home" XDG_RUNTIME_DIR="$NB/run" "$NB/term_harness" -- sleep 120 </dev/null \
		>/dev/null 2>"$BASE/nb.err") &
	NOBODY_PID=$!
	until_ok 60 test -S "$NB/run/ward/harness.sock" ||
		echo "# the harness as nobody: $(kill -0 "$NOBODY_PID" 2>/dev/null && echo running || echo ended); stderr: $(tr '\n' ' ' <"$BASE/nb.err")"
	check "another user's session: not listed" 0 "$(XDG_RUNTIME_DIR=$NB/run "$H" approve --list --json | grep -c '"session"')"
	check "...and its socket refuses a peer of another uid, root too" \
		'{"ok":false,"error":"refused: not this session'"'"'s user"}' \
		"$($PY -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
try:
    s.sendall(b"{\"op\":\"list\"}\n")
except OSError:
    pass  # refused and closed already: its word is still there to read
print(s.recv(200).decode().strip())' "$NB/run/ward/harness.sock")"
	kill "$NOBODY_PID"
fi

# ---- the same as nobody ----
if [ "$(id -u)" = 0 ] && [ -z "$WHO" ]; then
	# Some containers give /dev/pts/ptmx mode 000: only root makes ptys there.
	if command -v setpriv >/dev/null && getent passwd nobody >/dev/null &&
		setpriv --reuid=nobody --regid="$(id -g nobody)" --clear-groups python3 -c 'import os; os.openpty()' 2>/dev/null; then
		group=nogroup
		getent group nogroup >/dev/null || group=nobody
		U=$(mktemp -d /tmp/ward-term-nobody.XXXXXX)
		mkdir -p "$U/tests/term" "$U/tests/integration"
		cp "$H" "$U/term_harness"
		cp "$SRC"/*.py "$U/tests/term/"
		cp "$SELF" "$U/tests/integration/term.sh"
		chown -R "nobody:$group" "$U"
		OUT=$( (cd "$U" && setpriv --reuid=nobody --regid="$group" --clear-groups env -i PATH="$PATH" \
			TERM_HARNESS="$U/term_harness" TERM_PASS="[nobody] " bash "$U/tests/integration/term.sh" "$U") 2>&1)
		echo "$OUT" | grep -v '^[0-9]* passed'
		NP=$(echo "$OUT" | grep -c '^ok ')
		NF=$(echo "$OUT" | grep -c '^not ok ')
		PASS=$((PASS + NP))
		FAIL=$((FAIL + NF))
		[ "$NP" -gt 0 ] || { FAIL=$((FAIL + 1)); echo "not ok - [nobody] the unprivileged pass did not run"; }
		rm -rf "$U"
	fi
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
