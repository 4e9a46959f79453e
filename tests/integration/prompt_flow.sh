#!/bin/bash
# prompt_flow.sh BUILD_DIR - the prompt's handling of several questions,
# end to end through a real `ward run` on a terminal of tmux's: identical
# asks merged, different ones queued, a caller killed while asked, keys
# typed in the prompt's first half second, a full-screen program under a
# prompt, a flood of distinct asks, and ask-timeout.  The agent programs
# are tests/term/asks.py and fullscreen.py; each outcome is checked by what
# ward's two rows show (capture-pane), the agent's result and the session
# log's lines.  (prompt.sh tests each key and the attacks; term.sh the
# terminal's parts alone, through term_harness.)
. "$(dirname "$0")/lib.sh"

BUILD=$(cd "${1:?usage: prompt_flow.sh BUILD_DIR}" && pwd -P)
SELF=$(cd "$(dirname "$0")" && pwd -P)
TERMDIR=$(cd "$SELF/../term" && pwd -P)
WARD=$BUILD/ward
command -v tmux >/dev/null || skip_all "no tmux (make deps)"
command -v python3 >/dev/null || bail "no python3"
[ -x "$WARD" ] || bail "no ward in $BUILD"

ward_probe "$WARD"
make_base prompt-flow
hermetic "$BASE"
export LC_ALL=C.UTF-8
D=$BASE/proj
A=$D/a
mkdir -p "$A/flood" "$D/b" "$D/res"
LOGS=$XDG_STATE_HOME/ward/sessions
UP=$XDG_CONFIG_HOME/ward/policy
ASKS="python3 $TERMDIR/asks.py"

TS=$BASE/tmux.sock
T() { tmux -S "$TS" -f /dev/null "$@"; }
at_exit 'T kill-server 2>/dev/null'
PANE=w
ROWS=30 COLS=200
screen() { T capture-pane -p -t "$PANE" 2>/dev/null; }
on_screen() { screen | grep -qE -e "$1"; }
# ward's two rows, the terminal's last, and the agent's area above them.
rows() { screen | tail -n 2; }
on_rows() { rows | grep -qE -e "$1"; }
area() { screen | head -n $((ROWS - 2)); }
type_line() { T send-keys -t "$PANE" -l "$*"; T send-keys -t "$PANE" Enter; }
show_screen() { screen | sed 's/^/#   /'; }
# The question about PATH is the one shown.
asked() { rows | head -n 1 | grep -qF -e "wants to WRITE $1 "; }
# The question's keys answer: their row drawn and no longer dim (SGR 2).
live() {
	local r
	r=$(T capture-pane -p -e -t "$PANE" | tail -n 1)
	[[ $r == *'[y]'* && $r != *$'\033[0;2m'* && $r != *$'\033[2m'* ]]
}
# answer KEY: KEY once the keys answer.
answer() {
	wait_for 60 live || {
		echo "# the keys never went live:"
		show_screen
	}
	T send-keys -t "$PANE" "$1"
}
# The agent's markers: "NAME=VALUE" lines it prints.
marker() { screen | grep -oE "(^|[ $])$1=[0-9]+" | tail -n 1 | cut -d= -f2; }
has_marker() { [ -n "$(marker "$1")" ]; }
marker_shows() {
	wait_for 60 has_marker "$1" || {
		echo "# no $1= on the screen:"
		show_screen
	}
}
log_of() { ls -t "$LOGS"/*.jsonl 2>/dev/null | head -n 1; }
# logline PATTERN...: the session's lines that match every pattern (fixed strings).
logline() {
	local out p
	out=$(cat "$(log_of)" 2>/dev/null)
	for p in "$@"; do out=$(grep -F -e "$p" <<<"$out"); done
	printf '%s\n' "$out" | grep -c .
}
# What `ward approve --list --json` says of the questions pending: how
# many, and of the first its callers and its process.
approve_json() { "$WARD" approve --list --json 2>/dev/null; }
pending() {
	approve_json | python3 -c 'import json, sys
try:
    print(sum(len(s["asks"]) for s in json.load(sys.stdin)))
except ValueError:
    print(0)'
}
first_ask() { # FIELD
	approve_json | python3 -c 'import json, sys
try:
    print(json.load(sys.stdin)[0]["asks"][0][sys.argv[1]])
except (ValueError, IndexError, KeyError):
    print("")' "$1"
}
is_pending() { [ "$(pending)" = "$1" ]; }
waiters_are() { [ "$(first_ask waiting)" = "$1" ]; }

T new-session -d -s w -x "$COLS" -y "$ROWS" "env -i ${ENVV[*]} LC_ALL=C.UTF-8 TERM=tmux-256color PS1='$ ' HISTFILE= bash --norc --noprofile -i" ||
	bail "tmux does not start"
wait_for 60 on_screen '^\$ ?$' || bail "the shell in tmux did not start"
type_line "cd $D"

echo "# at $SECONDS s"
# ---- session A: every write under $A asked (the profile's ask-timeout: 120 s) ----
type_line "$WARD run -q -r 'ask write $A/**' -- env PS1='agent\$ ' HISTFILE= bash --norc --noprofile"
wait_for 60 on_screen '^agent\$' || bail "ward's agent did not start: $(screen)"
wait_for 60 on_rows '^ward ▸ session [0-9a-f]+ · no question waiting' || bail "no ward row: $(screen)"

echo "# at $SECONDS s"
# ---- merging: twenty threads, one question, one answer ----
# The file is there: each open is a write (a create would be the policy's).
: >"$A/m_1"
type_line "$ASKS same 20 $A/m_1"
wait_for 60 asked "$A/m_1" && wait_for 60 waiters_are 20
check "merging: twenty threads writing one file at once: one question, its twenty callers on it" \
	"1 20" "$(pending) $(first_ask waiting)"
check_match "...ward's rows show it, with nothing waiting behind it" \
	"ward ▸ python3* (pid *wants to WRITE $A/m_1 *rule: --rule:1 (ask)|  \[y\] once  \[s\] this session*\[\?\] details" \
	"$(rows | tr '\n' '|' | sed 's/|$//')"
answer y
marker_shows SAME_OK
check "...one y releases them all: twenty writes done" "20 0" "$(marker SAME_OK) $(marker SAME_DENIED)"
check "...and the log has twenty decisions, each allow by prompt, once" 20 \
	"$(logline "\"path\":\"$A/m_1\"" '"op":"write"' '"decision":"allow"' '"by":"prompt"' '"answer":"once"')"
check "...and no other decision on it" 20 "$(logline "\"path\":\"$A/m_1\"" '"op":"write"')"
# Two processes (the agent's subshells) asking the same: one question too.
: >"$A/m_2"
type_line "(echo x >>$A/m_2; echo P1=\$?) & (echo x >>$A/m_2; echo P2=\$?) & wait"
wait_for 60 asked "$A/m_2" && wait_for 60 waiters_are 2
check "...two processes writing one file at once: one question, both on it" "1 2" "$(pending) $(first_ask waiting)"
answer n
marker_shows P1
marker_shows P2
check "...one n refuses both (bash's status 1)" "1 1" "$(marker P1) $(marker P2)"
check "...two decisions logged, each deny by prompt" "2 2" \
	"$(logline "\"path\":\"$A/m_2\"" '"op":"write"') $(logline "\"path\":\"$A/m_2\"" '"op":"write"' '"decision":"deny"' '"by":"prompt"' '"answer":"deny"')"

echo "# at $SECONDS s"
# ---- queueing: a second question waits behind the first ----
: >"$A/q_1"
: >"$A/q_2"
type_line "$ASKS queue $A/q_1 $A/q_2 $BASE/go_q"
wait_for 60 asked "$A/q_1"
: >"$BASE/go_q"
wait_for 60 is_pending 2
wait_for 60 on_rows '\(\+1 waiting\)$'
check_match "queueing: two different questions: the first shown, (+1 waiting) at the end of the keys' row" \
	"ward ▸ python3* wants to WRITE $A/q_1 *|  \[y\] once *\[\?\] details*\(+1 waiting\)" \
	"$(rows | tr '\n' '|' | sed 's/|$//')"
answer y
wait_for 60 asked "$A/q_2"
check_match "...answering it brings up the second, nothing behind it" \
	"ward ▸ python3* wants to WRITE $A/q_2 *|  \[y\] once *\[\?\] details" \
	"$(rows | tr '\n' '|' | sed 's/|$//')"
check "...which is the only one left" 1 "$(pending)"
answer n
marker_shows Q2
check "...each call with its own answer (y: written, n: EACCES)" "0 13" "$(marker Q1) $(marker Q2)"
check "...and its own log line" "1 1" \
	"$(logline "\"path\":\"$A/q_1\"" '"decision":"allow"' '"by":"prompt"' '"answer":"once"') $(logline "\"path\":\"$A/q_2\"" '"decision":"deny"' '"by":"prompt"' '"answer":"deny"')"

echo "# at $SECONDS s"
# ---- withdrawal: the asking process killed while its prompt is up ----
: >"$A/w_1"
type_line "(echo x >>$A/w_1); echo W=\$?"
wait_for 60 asked "$A/w_1"
WPID=$(first_ask pid)
check_match "withdrawal: the question names the process asking" "[1-9]*" "$WPID"
[ -n "$WPID" ] && kill -KILL "$WPID"
wait_for 60 on_rows 'no question waiting'
check "...killed, its prompt goes from ward's rows, and nothing is pending" "1 0" \
	"$(rows | grep -c 'no question waiting') $(pending)"
marker_shows W
check "...the agent's shell sees its child killed (SIGKILL)" 137 "$(marker W)"
check "...the log says the call was withdrawn" 1 \
	"$(logline "\"path\":\"$A/w_1\"" '"decision":"deny"' '"by":"prompt"' '"answer":"withdrawn"')"

echo "# at $SECONDS s"
# ---- type-ahead: a key in the prompt's first half second is no answer ----
# tmux itself sends y the moment the question is on its screen (if-shell
# on a search of the pane, in one command with the look: no round trip
# through this script).  A try counts when the key provably went early:
# at most 0.25 s after a look that did not see the question yet.  Then
# the key must not have answered: ? (details) after it shows the question
# still there; a burst of two keys answers nothing either, and the n
# after them does.  A try where the machine was too slow to tell is done
# again.
now_ms() { local t=${EPOCHREALTIME/./}; echo $((t / 1000)); }
send_on_sight() { # PATH: y sent by tmux when PATH's question shows; SENT_MS, how late at most
	local end=$((SECONDS + 60)) t0 prev sent
	T set -g @sent 0
	prev=$(now_ms)
	while [ "$SECONDS" -lt "$end" ]; do
		t0=$(now_ms)
		sent=$(T if-shell -F "#{C:wants to WRITE $1  }" "send-keys -t $PANE y ; set -g @sent 1" \; show -gv @sent)
		if [ "$sent" = 1 ]; then
			SENT_MS=$(($(now_ms) - prev))
			return 0
		fi
		prev=$t0
	done
	return 1
}
details_up() { on_screen 'question [0-9]+ in full'; }
details_gone() { ! details_up; }
TA_DONE=
for i in $(seq 1 20); do
	: >"$A/ta_$i"
	type_line "echo x >>$A/ta_$i; echo TA_$i=\$?"
	send_on_sight "$A/ta_$i" || {
		fail "type-ahead: the question about ta_$i never showed" "$(screen)"
		TA_DONE=1
		break
	}
	gone() { ! asked "$A/ta_$i"; }
	live_or_gone() { live || gone; }
	wait_for 60 live_or_gone
	if [ "$SENT_MS" -gt 250 ]; then
		echo "# try $i: y went up to ${SENT_MS} ms after the last look without the question; again"
		asked "$A/ta_$i" && T send-keys -t "$PANE" n
		marker_shows "TA_$i"
		continue
	fi
	if gone; then
		fail "type-ahead: y sent as the question showed (within ${SENT_MS} ms): no answer" \
			"it answered: TA_$i=$(marker "TA_$i")" "$(screen)"
		TA_DONE=1
		break
	fi
	T send-keys -t "$PANE" '?'
	wait_for 60 details_up
	check "type-ahead: y sent as the question showed (within ${SENT_MS} ms): no answer, the question stays" \
		"1 1" "$(asked "$A/ta_$i" && echo 1) $(pending)"
	T send-keys -t "$PANE" -l yy
	# A ? read together with the y's is part of the burst and answers
	# nothing: press it again if the details stay.
	T send-keys -t "$PANE" '?'
	wait_for 10 details_gone || { T send-keys -t "$PANE" '?'; wait_for 60 details_gone; }
	check "...nor does a burst of two y's once the keys are live" "1 1" "$(asked "$A/ta_$i" && echo 1) $(pending)"
	answer n
	marker_shows "TA_$i"
	check "...the key after them answers: n, EACCES" 1 "$(marker "TA_$i")"
	check "...one decision logged for the call, the n's" "1 1" \
		"$(logline "\"path\":\"$A/ta_$i\"" '"op":"write"') $(logline "\"path\":\"$A/ta_$i\"" '"decision":"deny"' '"by":"prompt"' '"answer":"deny"')"
	TA_DONE=1
	break
done
[ -n "$TA_DONE" ] || fail "type-ahead: in twenty tries no key could be sent early enough to tell (the machine is too slow)"

echo "# at $SECONDS s"
# ---- a full-screen program under a prompt ----
# fullscreen.py takes the alternate screen, draws every row of its area,
# tries the terminal's last rows (an absolute move past its bottom, line
# feeds, a scroll region), then redraws a clock.  A background job of the
# agent asks once the test says go.
: >"$A/fs_1"
type_line "clear; (until [ -e $BASE/go_fs ]; do sleep 0.05; done; echo x >>$A/fs_1; echo \$? >$D/res/fs) & python3 $TERMDIR/fullscreen.py"
clock() { screen | grep -oE '^CLOCK [0-9]+' | head -n 1 | cut -d' ' -f2; }
clock_past() { local c; c=$(clock); [ -n "$c" ] && [ "$((10#$c))" -gt "$1" ]; }
# Its area without the clock's row, which changes ten times a second.
still() { area | sed 's/^CLOCK [0-9]*/CLOCK/'; }
wait_for 60 clock_past 2 || fail "the full-screen program did not start" "$(screen)"
BEFORE=$(still)
check "full screen: its three attempts on the last rows land in its own area; ward's rows hold ward's line only" \
	"3 0 1" "$(area | grep -c '^FORGED-BY-') $(rows | grep -c FORGED) $(rows | grep -c 'no question waiting')"
: >"$BASE/go_fs"
wait_for 60 asked "$A/fs_1"
check_match "...a question while it runs: ward's two rows show it whole" \
	"ward ▸ bash (pid *wants to WRITE $A/fs_1 *rule: --rule:1 (ask)|  \[y\] once  \[s\] this session  \[a\] always  \[n\] deny  \[d\] deny always  \[tab\] allow write \"$A/fs_1\"  \[\?\] details" \
	"$(rows | tr '\n' '|' | sed 's/|$//')"
check "...the program's screen untouched by it" "$BEFORE" "$(still)"
C0=$(clock)
wait_for 60 clock_past "$((10#${C0:-0} + 5))"
check "...and the program keeps running under it (its clock moves on)" 1 \
	"$(clock_past "$((10#${C0:-0} + 5))" && asked "$A/fs_1" && echo 1)"
answer y
wait_for 60 test -s "$D/res/fs"
check "...answered y: the job's write done" 0 "$(cat "$D/res/fs" 2>/dev/null)"
wait_for 60 on_rows 'no question waiting'
check "...ward's rows back to ward's line, the program's screen as it was" "1|$BEFORE" \
	"$(rows | grep -c 'no question waiting')|$(still)"
T send-keys -t "$PANE" q
# Its screen gone before the next line is typed (else q and the line may come in one read).
no_clock() { [ -z "$(clock)" ]; }
wait_for 60 no_clock
type_line "echo FS_OUT=1"
marker_shows FS_OUT
check "...which ends, giving the agent's shell back" 1 "$(marker FS_OUT)"

echo "# at $SECONDS s"
# ---- a flood: more distinct asks than a person can answer ----
# ask.c lets 30 new questions come at once (then 3 a second) and keeps
# 64 pending at most: of 80 at once, 16 at least are answered by `set
# undecided` on the spot, the others queue.
N=80
for ((i = 0; i < N; i++)); do : >"$A/flood/f_$i"; done
type_line "clear; $ASKS flood $N $A/flood"
FP=0 FU=0
all_in() {
	FP=$(pending)
	FU=$(marker FLOOD_DONE)
	FU=${FU:-0}
	[ "$((FP + FU))" = "$N" ]
}
wait_for 120 all_in
check "flood: $N distinct asks at once: each either pending or already answered" "$N" "$((FP + FU))"
if [ "$FU" -ge $((N - 64)) ] && [ "$FP" -ge 1 ] && [ "$FP" -le 64 ]; then
	pass "...$FP questions queued (64 at most), $FU answered at once (16 at least)"
else
	fail "...$FP questions queued (64 at most), $FU answered at once (16 at least)"
fi
check "...those $FU each logged as denied by undecided" "$FU" \
	"$(logline "\"path\":\"$A/flood/f_" '"op":"write"' '"decision":"deny"' '"by":"undecided"')"
check_match "...ward's rows show the first question, how many wait behind it, and that a flood was answered" \
	"ward ▸ python3* wants to WRITE $A/flood/f_* *|  \[y\] once *\(+$((FP - 1)) waiting, a flood answered undecided\)" \
	"$(rows | tr '\n' '|' | sed 's/|$//')"
# The session answer at the scope "the files beside it" releases every
# queued one it covers.
wait_for 60 live
T send-keys -t "$PANE" Tab
wait_for 60 on_rows "\[tab\] allow write \"$A/flood/\*\""
answer s
marker_shows FLOOD_OK
# ward says so for 30 s after the flood's last ask.
notice() { on_rows "^ward: $FU questions came faster than a person can answer: answered as \`set undecided\` \(deny\)"; }
wait_for 60 notice
check "...one line in ward's rows says so" 1 "$(notice && echo 1)"
check "...s for the files beside it answers all the queued ones: $FP written, $FU refused" \
	"$FP $FU" "$(marker FLOOD_OK) $(marker FLOOD_DENIED)"
check "...each queued one logged allowed by prompt, for the session" "$FP" \
	"$(logline "\"path\":\"$A/flood/f_" '"op":"write"' '"decision":"allow"' '"by":"prompt"' '"answer":"session"')"

type_line 'exit'
wait_for 60 on_screen '^\$ ?$'
check "session-end lists the answers: one for the twenty merged calls, the withdrawn one" "1 1" \
	"$(logline '"event":"session-end"' "\"target\":\"$A/m_1\",\"answer\":\"once\",\"by\":\"prompt\",\"calls\":20") $(logline '"event":"session-end"' "\"target\":\"$A/w_1\",\"answer\":\"withdrawn\"")"

echo "# at $SECONDS s"
# ---- ask-timeout: no answer in time is a deny, this once ----
: >"$D/b/t_1"
type_line "clear; $WARD run -q -r 'set ask-timeout 4' -r 'ask write $D/b/**' -- $ASKS one $D/b/t_1"
SEEN=0
wait_for 60 asked "$D/b/t_1" && SEEN=1
check "timeout: the question shows" 1 "$SEEN"
marker_shows ONE
check "...unanswered, the call is refused (EACCES) after the 4 s, not before" "13 yes" \
	"$(marker ONE) $([ "$(marker ONE_MS)" -ge 3990 ] 2>/dev/null && echo yes || marker ONE_MS)"
check "...logged deny by timeout" 1 \
	"$(logline "\"path\":\"$D/b/t_1\"" '"decision":"deny"' '"by":"timeout"' '"answer":"timeout"')"
check "...and no rule saved for it" 0 "$(cat "$UP" 2>/dev/null | grep -c t_1)"
# ward gone (its session-end written) before the directories are removed.
wait_for 60 on_screen '^\$ ?$'

summary
