#!/bin/bash
# prompt.sh BUILD_DIR [nobody] - ward run asking the person, end to end:
# an agent (bash) under ward on a terminal of tmux's, rules that ask, the
# person's keys sent with send-keys, what the terminal shows read with
# capture-pane, and each answer checked by the agent's result and the
# session log's line.  Also: a saved answer deciding the next session,
# `ward approve` from another process, the agent failing to answer its own
# question, no one to ask, job control and the terminal given back.
# (term.sh tests the terminal's parts on their own, through term_harness.)
#
# With "nobody" (root only, 77 otherwise) the same runs as nobody, from a
# staged copy of ward.
. "$(dirname "$0")/lib.sh"

BUILD=$(cd "${1:?usage: prompt.sh BUILD_DIR [nobody]}" && pwd -P)
SELF=$(cd "$(dirname "$0")" && pwd -P)
TERMDIR=$(cd "$SELF/../term" && pwd -P)
WARD=${PROMPT_WARD:-$BUILD/ward}
BYNAME=${PROMPT_BYNAME:-$BUILD/tests/preload/byname}
command -v tmux >/dev/null || skip_all "no tmux (make deps)"
command -v python3 >/dev/null || skip_all "no python3"
[ -x "$WARD" ] || bail "no ward in $BUILD"
[ -x "$BYNAME" ] || bail "no $BYNAME (tests/preload)"

if [ "${2:-}" = nobody ]; then
	nobody_ready || skip_all "$NB_WHY"
	# Some containers give /dev/ptmx mode 000: only root makes ptys there (tmux cannot start).
	# (The system's python3 as the test runs it: root's PATH may lead where nobody cannot go;
	# and tmux runs its commands with $SHELL: nobody's own shell is nologin.)
	as_nobody env -i PATH=/usr/local/bin:/usr/bin:/bin python3 -c 'import os; os.openpty()' 2>/dev/null ||
		skip_all "nobody cannot open a pseudo-terminal on this host (/dev/ptmx)"
	make_base prompt-nb
	stage "$BASE/bin" "$WARD" "$BYNAME"
	mkdir -p "$BASE/tests/integration" "$BASE/tests/term"
	cp "$SELF/prompt.sh" "$SELF/lib.sh" "$BASE/tests/integration/"
	cp "$TERMDIR"/*.py "$BASE/tests/term/"
	chown -R "$NB_UID:$NB_GID" "$BASE"
	cd "$BASE" || bail "cd $BASE"
	as_nobody env -i PATH=/usr/local/bin:/usr/bin:/bin SHELL=/bin/sh PROMPT_WARD="$BASE/bin/ward" PROMPT_BYNAME="$BASE/bin/byname" LC_ALL=C.UTF-8 \
		bash "$BASE/tests/integration/prompt.sh" "$BASE/bin"
	exit $?
fi

ward_probe "$WARD"
make_base prompt
hermetic "$BASE"
export LC_ALL=C.UTF-8
D=$BASE/proj
mkdir -p "$D/bin"
for k in y s a n d x; do
	: >"$D/f_$k"
	cp /bin/true "$D/bin/t_$k"
done
# Calls that fail natively anyway, under rules that ask: a directory that
# is there, one with entries, a file there to create with O_EXCL.
mkdir -p "$D/mk/old" "$D/mk/full"
: >"$D/mk/full/x"
: >"$D/mk/file"
cat >"$BASE/excl.py" <<'PY'
import os, sys
try:
    os.open(sys.argv[1], os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    print("M3=0")
except OSError as e:
    print("M3=%d" % e.errno)
PY
LOGS=$XDG_STATE_HOME/ward/sessions
UP=$XDG_CONFIG_HOME/ward/policy

TS=$BASE/tmux.sock
T() { tmux -S "$TS" -f /dev/null "$@"; }
at_exit 'T kill-server 2>/dev/null'
PANE=w
screen() { T capture-pane -p -t "$PANE" 2>/dev/null; }
on_screen() { screen | grep -qE -e "$1"; }
type_line() { T send-keys -t "$PANE" -l "$*"; T send-keys -t "$PANE" Enter; }
# The question's keys answer: their row drawn and no longer dim (SGR 2).
live() {
	local r
	r=$(T capture-pane -p -e -t "$PANE" | tail -n 1)
	[[ $r == *'[y]'* && $r != *$'\033[0;2m'* ]]
}
# ask_and KEY COMMAND: COMMAND typed in the agent's shell asks; KEY answers.
ask_and() {
	local key=$1
	shift
	type_line "$*"
	wait_for 20 on_screen 'wants to ' && wait_for 20 live || {
		echo "# no question for: $*"
		screen | sed 's/^/#   /'
	}
	T send-keys -t "$PANE" "$key"
}
# The agent's markers: "NAME=VALUE" lines it prints.
marker() { screen | grep -oE "(^|[ $])$1=[0-9]+" | tail -n 1 | cut -d= -f2; }
has_marker() { [ -n "$(marker "$1")" ]; }
marker_shows() {
	wait_for 20 has_marker "$1" || {
		echo "# no $1= on the screen:"
		screen | tail -n 20 | sed 's/^/#   /'
	}
}
# The outer shell's prompt again.
shell_back() {
	wait_for 20 on_screen '^\$ ?$' || {
		echo "# the shell's prompt did not come back:"
		screen | tail -n 20 | sed 's/^/#   /'
	}
}
log_of() { ls -t "$LOGS"/*.jsonl 2>/dev/null | head -n 1; }
# logline PATTERN...: the session's lines that match every pattern (fixed strings).
logline() {
	local l
	l=$(log_of)
	local out
	out=$(cat "$l" 2>/dev/null)
	for p in "$@"; do out=$(grep -F -e "$p" <<<"$out"); done
	printf '%s\n' "$out" | grep -c .
}

# A listener on five ports of 127.0.0.1, outside ward, for the connects.
PORTS_FILE=$BASE/ports
python3 -c '
import socket, sys, threading
ss = []
for _ in range(6):
    s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16); ss.append(s)
open(sys.argv[1] + ".tmp", "w").write(" ".join(str(s.getsockname()[1]) for s in ss) + "\n")
import os; os.rename(sys.argv[1] + ".tmp", sys.argv[1])
def serve(s):
    while True:
        c, _ = s.accept(); c.close()
for s in ss: threading.Thread(target=serve, args=(s,), daemon=True).start()
threading.Event().wait()' "$PORTS_FILE" &
LISTENER=$!
at_exit 'kill $LISTENER 2>/dev/null'
wait_for 20 test -s "$PORTS_FILE" || bail "the listener did not start"
read -r P_y P_s P_a P_n P_d P_x <"$PORTS_FILE"

T new-session -d -s w -x 120 -y 30 "env -i ${ENVV[*]} LC_ALL=C.UTF-8 TERM=tmux-256color PS1='$ ' HISTFILE= bash --norc --noprofile -i" ||
	bail "tmux does not start"
wait_for 20 on_screen '^\$ ?$' || bail "the shell in tmux did not start"
type_line "cd $D && stty -g >$BASE/stty.before"
wait_for 20 test -s "$BASE/stty.before"

# ---- one session: a file, an exec and a connect, each key ----
type_line "$WARD run -q -r 'ask write $D/f_*' -r 'ask exec $D/bin/*' -r 'ask connect 127.0.0.1:*' -r 'ask create,delete,write $D/mk/**' -- env PS1='agent\$ ' HISTFILE= bash --norc --noprofile"
wait_for 20 on_screen '^agent\$' || bail "ward's agent did not start"
wait_for 20 on_screen '^ward ▸ session [0-9a-f]+ · no question waiting' &&
	pass "ward's row under the agent's terminal" || fail "ward's row under the agent's terminal" "$(screen)"
type_line 'stty size'
wait_for 20 on_screen '^28 120$' && pass "the agent's terminal is ward's two rows shorter" ||
	fail "the agent's terminal is ward's two rows shorter" "$(screen)"

declare -A RESULT=([y]=0 [s]=0 [a]=0 [n]=1 [d]=1)
declare -A DECISION=([y]=allow [s]=allow [a]=allow [n]=deny [d]=deny)
declare -A ANSWER=([y]=once [s]=session [a]=always [n]=deny [d]=deny-always)
for k in y s a n d; do
	ask_and "$k" "echo x >>$D/f_$k; echo F_$k=\$?"
	marker_shows "F_$k"
	check "file, $k: the agent's write" "${RESULT[$k]}" "$(marker "F_$k")"
	check "file, $k: its log line" 1 \
		"$(logline "\"path\":\"$D/f_$k\"" '"op":"write"' "\"decision\":\"${DECISION[$k]}\"" '"by":"prompt"' "\"answer\":\"${ANSWER[$k]}\"")"

	ask_and "$k" "$D/bin/t_$k; echo X_$k=\$?"
	marker_shows "X_$k"
	check "exec, $k: the agent's exec" "$([ "$k" = y ] || [ "$k" = s ] || [ "$k" = a ] && echo 0 || echo 126)" "$(marker "X_$k")"
	check "exec, $k: its log line" 1 \
		"$(logline "\"path\":\"$D/bin/t_$k\"" '"op":"exec"' "\"decision\":\"${DECISION[$k]}\"" '"by":"prompt"' "\"answer\":\"${ANSWER[$k]}\"")"

	p=P_$k
	ask_and "$k" "(exec 3<>/dev/tcp/127.0.0.1/${!p}) 2>/dev/null; echo C_$k=\$?"
	marker_shows "C_$k"
	check "connect, $k: the agent's connect" "${RESULT[$k]}" "$(marker "C_$k")"
	check "connect, $k: its log line" 1 \
		"$(logline '"event":"connect"' "\"port\":${!p}" "\"decision\":\"${DECISION[$k]}\"" '"by":"prompt"' "\"answer\":\"${ANSWER[$k]}\"")"
done

# What a session, always or deny always answer leaves decides again, unasked.
for k in s a d; do
	type_line "echo x >>$D/f_$k; echo G_$k=\$?"
	marker_shows "G_$k"
done
check "s, a, d: their grants decide the same file again without a question" "0 0 1 0" \
	"$(marker G_s) $(marker G_a) $(marker G_d) $(logline "\"path\":\"$D/f_y\"" '"answer":"session"')"

# ---- an exec's question shows its argv: shortened, escaped, whole in the details ----
# The window made wider for it, so that the question's line is seen whole.
T resize-window -t w -x 200
ZEROS=$(printf '%0100d' 0)
type_line "$D/bin/t_x 'two words' \$'a\\tb' $ZEROS last; echo XA=\$?"
wait_for 20 on_screen 'wants to EXEC' && wait_for 20 live
check "exec: the question shows the program and its argv, each argument quoted as needed, control characters escaped, a long one shortened" 1 \
	"$(screen | grep -cF "wants to EXEC $D/bin/t_x 'two words' 'a\\x09b' ${ZEROS:0:32}… last")"
T send-keys -t w '?'
wait_for 20 on_screen '^  argv ' || screen | sed 's/^/#   /'
check "...and ? shows the whole argv" 1 \
	"$(screen | grep -cF "  argv      $D/bin/t_x 'two words' 'a\\x09b' $ZEROS last")"
T send-keys -t w y
marker_shows XA
check "...answered y, the program runs" 0 "$(marker XA)"
T resize-window -t w -x 120
wait_for 20 on_screen 'no question waiting'

# ---- the agent cannot answer its own question ----
# While a question waits the person's keys are the question's: the attack
# is started first, and told to go (a file) once the question is up.
REAL_TTY=$(T display -p -t w '#{pane_tty}')
CTL=$(ls "$XDG_RUNTIME_DIR"/ward/*.sock)
type_line "python3 $TERMDIR/selfanswer.py $REAL_TTY $CTL $BASE/go & echo x >>$D/f_x; echo F_x=\$?"
wait_for 20 on_screen "wants to WRITE .*f_x" && wait_for 20 live
: >"$BASE/go"
wait_for 20 on_screen 'SELF-ANSWER done'
check "the agent writes y to its terminal, pushes y with TIOCSTI, opens /dev/tty and writes y, opens the real terminal, connects to the control socket: all fail or reach only its own pty" \
	"tty-write=ok tiocsti=EPERM devtty=ok real-tty=EACCES control=EACCES" \
	"$(screen | grep -oE '^SELF-ANSWER tty-write.*' | tail -n 1 | sed 's/^SELF-ANSWER //')"
NQ=$("$WARD" approve --list --json 2>/dev/null | python3 -c 'import json,sys; print(sum(len(s["asks"]) for s in json.load(sys.stdin)))' 2>&1)
check "...and the question still waits" 1 "$NQ"
T send-keys -t w n
marker_shows F_x
check "...until the person answers n" 1 "$(marker F_x)"

# ---- ward approve, from a second process ----
type_line "(echo x >>$D/f_x; echo F2_x=\$?) &"
wait_for 20 on_screen "wants to WRITE .*f_x"
N=$("$WARD" approve --list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["asks"][0]["n"])' 2>&1)
"$WARD" approve --answer "$N" once >/dev/null 2>&1
marker_shows F2_x
check "ward approve --answer N once from another process answers" 0 "$(marker F2_x)"
wait_for 20 on_screen 'no question waiting' && pass "...and the terminal's question goes" ||
	fail "...and the terminal's question goes" "$(screen)"

# ---- no question for a call that would fail anyway ----
# The call waits while a question is up: its marker showing at all, with
# the native error, says nobody was asked.
type_line "mkdir $D/mk/old; echo M1=\$?; rmdir $D/mk/full; echo M2=\$?; python3 $BASE/excl.py $D/mk/file"
marker_shows M3
check "mkdir of a directory there, rmdir of one with entries, O_EXCL of a file there: the native errors, unasked" \
	"1 1 17" "$(marker M1) $(marker M2) $(marker M3)"
check "...each logged as an error with its errno, none by a prompt" "1 1 1 0" \
	"$(logline "\"path\":\"$D/mk/old\"" '"decision":"error"' '"errno":"EEXIST"') $(logline "\"path\":\"$D/mk/full\"" '"decision":"error"' '"errno":"ENOTEMPTY"') $(logline "\"path\":\"$D/mk/file\"" '"decision":"error"' '"errno":"EEXIST"') $(logline '/mk/' '"by":"prompt"')"
ask_and y "mkdir $D/mk/new; echo M4=\$?"
marker_shows M4
check "...while a mkdir of a new name there is asked" "0 1" \
	"$(marker M4) $(logline "\"path\":\"$D/mk/new\"" '"decision":"allow"' '"by":"prompt"' '"answer":"once"')"

type_line 'exit'
shell_back
rm -f "$BASE/stty.after"
type_line "stty -g >$BASE/stty.after"
wait_for 20 test -s "$BASE/stty.after"
check "after the agent's exit: the terminal's modes as they were" "$(cat "$BASE/stty.before")" "$(cat "$BASE/stty.after")"
check "the session's answers in session-end" 1 \
	"$(logline '"event":"session-end"' '"answers":[' '"always"')"

# ---- job control: ^Z of the agent stops ward, fg resumes ----
type_line "clear; $WARD run -q -- python3 $TERMDIR/counter.py"
wait_for 20 on_screen '^COUNT 3$'
T send-keys -t w C-z
wait_for 20 on_screen 'Stopped +'"$WARD" && pass "^Z stops the agent, and ward with it" ||
	fail "^Z stops the agent, and ward with it" "$(screen)"
rm -f "$BASE/stty.after"
type_line "stty -g >$BASE/stty.after"
wait_for 20 test -s "$BASE/stty.after"
check "...the terminal given back to the shell as it was" "$(cat "$BASE/stty.before")" "$(cat "$BASE/stty.after")"
last=$(screen | grep -oE '^COUNT [0-9]+' | tail -n 1)
type_line fg
count_moved() { [ "$(screen | grep -oE '^COUNT [0-9]+' | tail -n 1)" != "$last" ]; }
wait_for 20 count_moved && wait_for 20 on_screen 'no question waiting' &&
	pass "fg: the agent runs again under ward's row" || fail "fg: the agent runs again under ward's row" "$(screen)"
T send-keys -t w C-c
shell_back

# ---- ? shows the libc call the preload saw and, with --backtrace, the caller's stack ----
: >"$D/bt"
type_line "clear; $WARD run -q --backtrace -r 'ask read $D/bt' -- $BYNAME open $D/bt; echo BT=\$?"
wait_for 20 on_screen "wants to READ $D/bt" && wait_for 20 live
T send-keys -t w '?'
wait_for 20 on_screen '^  stack ' || screen | sed 's/^/#   /'
check "--backtrace: ? shows the libc call, and the caller's stack by its functions' names" "1 1 1 1" \
	"$(screen | grep -cE '^  libc call fopen$') $(screen | grep -cE '^  stack     ') $(screen | grep -cE '^ {12}.*open_the_secret\+0x|^  stack     open_the_secret\+0x') $(screen | grep -cE '^ {12}main\+0x')"
T send-keys -t w n
marker_shows BT
check "...answered n, the open refused" 1 "$(marker BT)"

# ---- the saved answers decide the next session, with no one asked ----
check "a and d: their rules in the user's policy (a file, an exec, a connect each), each after a dated comment naming the session" "2 6" \
	"$(grep -cE "^(allow|deny) write \"$D/f_[ad]\"$" "$UP" 2>/dev/null) $(grep -cE "^# (allowed|denied) always by the person at 20[0-9-]+ [0-9:]+Z, ward session [0-9a-f]+ " "$UP" 2>/dev/null)"
check "...which ward check shows" 2 "$("$WARD" check 2>/dev/null | grep -cE "(allow|deny) +write +$D/f_[ad]")"
OUT=$("$WARD" run -q --ask terminal -r "ask write $D/f_y" -- sh -c "echo >>$D/f_a; echo A=\$?; echo >>$D/f_d; echo D=\$?" </dev/null 2>/dev/null)
check "...and decide the next session without asking (sh's 2: its redirection refused)" "A=0 D=2" "$(echo $OUT)"
check "...by the saved rules" 2 "$(logline '"by":"policy"' "$UP:")"

# ---- no terminal, no approver ----
OUT=$(timeout 20 "$WARD" run -q --ask terminal -r "ask write $D/f_*" -- sh -c "echo >>$D/f_y; echo U=\$?" </dev/null 2>/dev/null)
check "no terminal and no approver: the undecided answer (deny), at once" "U=2" "$OUT"
check "...logged by undecided" 1 "$(logline "\"path\":\"$D/f_y\"" '"by":"undecided"')"

# ---- SIGTERM to ward: the terminal given back ----
type_line "$WARD run -q -- python3 $TERMDIR/modes.py wait"
wait_for 20 on_screen 'MODES SET'
WP=$(pgrep -o -f "^$WARD run -q -- python3")
kill -TERM "$WP"
shell_back
rm -f "$BASE/stty.after"
type_line "stty -g >$BASE/stty.after"
wait_for 20 test -s "$BASE/stty.after"
check "after SIGTERM to ward: the terminal's modes as they were" "$(cat "$BASE/stty.before")" "$(cat "$BASE/stty.after")"
check "...no alternate screen, no mouse reports, the cursor shown" "0 0 1" \
	"$(T display -p -t w '#{alternate_on} #{mouse_any_flag} #{cursor_flag}')"

# ---- a fatal signal in ward (SIGSEGV): the terminal given back all the same ----
type_line "clear; $WARD run -q -- python3 $TERMDIR/modes.py wait"
wait_for 20 on_screen 'MODES SET'
WP=$(pgrep -o -f "^$WARD run -q -- python3")
kill -SEGV "$WP"
shell_back
rm -f "$BASE/stty.after"
type_line "stty -g >$BASE/stty.after"
wait_for 20 test -s "$BASE/stty.after"
check "after a fatal signal in ward: the terminal's modes as they were" "$(cat "$BASE/stty.before")" "$(cat "$BASE/stty.after")"
check "...no alternate screen, no mouse reports, the cursor shown" "0 0 1" \
	"$(T display -p -t w '#{alternate_on} #{mouse_any_flag} #{cursor_flag}')"

# ---- another user's session refuses root ----
if [ "$(id -u)" = 0 ] && nobody_ready; then
	NBD=$BASE/nb
	mkdir -p "$NBD/run" "$NBD/home"
	stage "$NBD/bin" "$WARD"
	chown -R "$NB_UID:$NB_GID" "$NBD"
	chmod 700 "$NBD/run"
	(cd "$NBD" && exec setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups -- env -i \
		PATH=/usr/bin:/bin HOME="$NBD/home" XDG_RUNTIME_DIR="$NBD/run" \
		"$NBD/bin/ward" run -q --ask approve -- sleep 60 </dev/null >/dev/null 2>&1) &
	NBP=$!
	at_exit "kill $NBP 2>/dev/null"
	nb_sock() { ls "$NBD"/run/ward/*.sock >/dev/null 2>&1; }
	wait_for 20 nb_sock
	check "another user's session: its control socket refuses a peer of another uid, root too" \
		'{"ok":false,"error":"refused: not this session'"'"'s user"}' \
		"$(python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
try:
    s.sendall(b"{\"op\":\"list\"}\n")
except OSError:
    pass  # refused and closed already: its word is still there to read
print(s.recv(200).decode().strip())' "$(ls "$NBD"/run/ward/*.sock)")"
	kill "$NBP" 2>/dev/null
fi

summary
