#!/bin/bash
# preload_run.sh BUILD_DIR - what the preload library adds to `ward run`,
# end to end, and that nothing it says allows what the address alone would
# not (DESIGN.md §2, issue 22):
#   - a C, a Python and a shell program connecting by name get "host" in
#     the log (the C one by getaddrinfo and by res_query), and a
#     `*.domain` rule allows them; without the library
#     (--no-preload, a static program: logged "preload":false) the same
#     connection is judged by its address alone and denied;
#   - the name survives dlopen, posix_spawn, vfork + execv, fork in a
#     threaded program, and `env -i sh -c`;
#   - a hint forged by the agent (a program writing its own channel, an
#     LD_PRELOAD of its own whose getaddrinfo lies) allows nothing: denied,
#     logged "hint_host", and the service heard nothing;
#   - ward looks up no name that no domain rule of the policy could decide
#     (an agent kept off the network cannot make ward send DNS queries);
#   - --backtrace names the program's own functions for a denied open.
# Names resolve deterministically and offline: inside `unshare -m`, a hosts
# file and a resolv.conf of the test's own are bind-mounted over /etc's,
# and nameserve.py answers the zone dns.ward-test.example on 127.0.9.53.
# ward and the programs run as nobody; the services run as root (port 53).
# Needs root.  Output: TAP (lib.sh).
. "$(dirname "$0")/lib.sh"
exec </dev/null
umask 022
close_fds
[ $# -ge 1 ] && [ -x "$1/ward" ] && [ -x "$1/tests/preload/byname" ] ||
	bail "usage: $0 BUILD_DIR (built)"
BUILD=$(cd "$1" && pwd -P)
SRC=$(cd "$(dirname "$0")" && pwd -P)
nobody_ready || skip_all "$NB_WHY"
unshare -m true 2>/dev/null || skip_all "no private mount namespace (unshare -m)"
command -v python3 >/dev/null || skip_all "needs python3"
make_base preload-run

BIN=$BASE/bin
P=$BUILD/tests/preload
stage "$BIN" "$BUILD/ward" "$P/byname" "$P/byname-static" "$P/libbyname_lib.so" "$P/libliar.so"
WARD=$BIN/ward
stage_check "preload_run" "$BIN"

# The names: api.ward-test.example from the hosts file, NAME.dns.ward-test.example
# from nameserve.py's DNS; 127.0.0.6 is a service no name leads to;
# two.ward-test.example has two addresses (127.0.0.7 and 127.0.0.8, hosts file);
# front. and evil.ward-test.example share one (127.0.0.9: a front end).
printf '127.0.0.1 localhost\n127.0.0.3 api.ward-test.example\n127.0.0.7 two.ward-test.example\n127.0.0.8 two.ward-test.example\n127.0.0.9 front.ward-test.example\n127.0.0.9 evil.ward-test.example\n' \
	>"$BASE/hosts"
printf 'nameserver 127.0.9.53\noptions timeout:2 attempts:1\n' >"$BASE/resolv.conf"
mkdir -p "$BASE/srv" "$BASE/home" "$BASE/logs"
echo secret >"$BASE/secret"
chmod 644 "$BASE/secret"
chmod 644 "$BASE/hosts" "$BASE/resolv.conf"
chown "$NB_UID:$NB_GID" "$BASE/home" "$BASE/logs"
python3 "$SRC/nameserve.py" "$BASE/srv" 127.0.9.53 127.0.0.3 127.0.0.4 127.0.0.6 127.0.0.7 127.0.0.8 127.0.0.9 \
	>"$BASE/srv/out" 2>&1 &
SERVER_PID=$!
at_exit 'kill "$SERVER_PID" 2>/dev/null'
wait_for 10 test -s "$BASE/srv/port" || bail "nameserve.py did not start: $(cat "$BASE/srv/out")"
PORT=$(cat "$BASE/srv/port")
EVENTS=$BASE/srv/events
DOMAIN="allow connect *.ward-test.example:$PORT"

# wrun NAME WARD-OPTION... -- COMMAND...: COMMAND under ward as nobody, with
# the test's names; its output (stdout and stderr) in OUT, its log in
# $BASE/logs/NAME.jsonl (LOG).  The services' events start afresh.
wrun() {
	local name=$1
	shift
	LOG=$BASE/logs/$name.jsonl
	: >"$EVENTS"
	OUT=$(cd "$BASE/home" && unshare -m sh -c 'mount --bind "$1" /etc/hosts &&
		mount --bind "$2" /etc/resolv.conf && shift 2 && exec "$@"' sh \
		"$BASE/hosts" "$BASE/resolv.conf" \
		setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups -- \
		env -i HOME="$BASE/home" TMPDIR="$BASE/home" PATH=/usr/bin:/bin LC_ALL=C \
		timeout 60 "$WARD" run -q --log "$LOG" "$@" 2>&1)
}

# logged WHAT PYTHON-EXPR: a line of LOG (as e) makes the expression true.
logged() {
	if python3 -c 'import json, sys
sys.exit(0 if any(eval(sys.argv[2], {"e": json.loads(l)}) for l in open(sys.argv[1])) else 1)' \
		"$LOG" "$2" 2>/dev/null; then
		pass "$1"
	else
		fail "$1" "no line of $LOG where: $2" \
			"$(grep -E '"event":"(connect|exec)"|"decision":"deny"' "$LOG" 2>&1 | tail -n 6)"
	fi
}

heard() { # ADDRESS: the lines of the services' events for a connection to it
	grep -c "^tcp $1\$" "$EVENTS"
}

# The connection by name, allowed by the domain rule; where the name came
# from, in the log; and what the service heard.
connected() { # WHAT EXPECTED-OUTPUT NAME ADDRESS
	check "$1: connects" "$2" "$OUT"
	logged "$1: the log has the name, and the domain rule decided" \
		"e['event']=='connect' and e.get('port')==$PORT and e.get('addr')=='$4' and e.get('host')=='$3' and e['decision']=='allow' and e.get('rule')=='--rule:1' and 'hint_host' not in e"
	check "$1: the service heard it" 1 "$(heard "$4")"
}

# --- by name, each kind of program
API=api.ward-test.example
wrun c -r "$DOMAIN" -- "$BIN/byname" connect "$API" "$PORT"
connected "C, getaddrinfo (hosts file)" "connected $API" "$API" 127.0.0.3
logged "C: via connect" "e['event']=='connect' and e.get('addr')=='127.0.0.3' and e.get('via')=='connect'"
logged "C: its exec is not logged preload false" \
	"e['event']=='exec' and e.get('path')=='$BIN/byname' and 'preload' not in e"

wrun dns -r "$DOMAIN" -r "allow connect @dns" -- "$BIN/byname" connect x.dns.ward-test.example "$PORT"
connected "C, getaddrinfo (DNS)" "connected x.dns.ward-test.example" x.dns.ward-test.example 127.0.0.4

# A program asking the name server itself (res_query), which does not link
# libresolv: the library reads the answer with the parser it loads then.
wrun res -r "$DOMAIN" -r "allow connect @dns" -- "$BIN/byname" res x.dns.ward-test.example 127.0.0.4 "$PORT"
connected "C, res_query (DNS)" "connected 127.0.0.4" x.dns.ward-test.example 127.0.0.4
check "...the program does not link libresolv" "" "$(ldd "$BIN/byname" | grep -o libresolv)"

wrun py -r "$DOMAIN" -- python3 -c 'import socket, sys
socket.create_connection((sys.argv[1], int(sys.argv[2])), 10).close()
print("connected", sys.argv[1])' "$API" "$PORT"
connected "Python, socket.create_connection" "connected $API" "$API" 127.0.0.3

wrun sh -r "$DOMAIN" -- bash -c 'exec 3<>"/dev/tcp/$0/$1" && echo "connected $0"' "$API" "$PORT"
connected "bash, /dev/tcp" "connected $API" "$API" 127.0.0.3

wrun dlopen -r "$DOMAIN" -- "$BIN/byname" dlopen "$BIN/libbyname_lib.so" "$API" "$PORT"
connected "a library the program dlopens" "connected $API from $BIN/libbyname_lib.so" "$API" 127.0.0.3

for how in spawn vfork threads; do
	wrun "$how" -r "$DOMAIN" -- "$BIN/byname" "$how" "$BIN/byname" connect "$API" "$PORT"
	connected "the child of $how" "connected $API"$'\nchild exit 0' "$API" 127.0.0.3
done

wrun vfork-connect -r "$DOMAIN" -- "$BIN/byname" vfork-connect "$API" "$PORT"
connected "a program whose vfork child made the first wrapped call" "child exit 0"$'\n'"connected $API" \
	"$API" 127.0.0.3
logged "...its own calls after it are via connect" \
	"e['event']=='connect' and e.get('addr')=='127.0.0.3' and e.get('via')=='connect'"

# Not the shell's last command, so that dash runs it in a vfork child.
wrun envi -r "$DOMAIN" -- env -i sh -c '"$0" connect "$1" "$2"; exit $?' "$BIN/byname" "$API" "$PORT"
connected "env -i sh -c keeps the library" "connected $API" "$API" 127.0.0.3
logged "...and the shell's exec from its vfork child is via execve" \
	"e['event']=='access' and e.get('op')=='exec' and e.get('path')=='$BIN/byname' and e.get('via')=='execve'"

# --- without the library: the address alone decides (the hosts file names it, a label)
denied() { # WHAT EXPECTED-OUTPUT ADDRESS
	check "$1: refused" "$2" "$OUT"
	logged "$1: denied by the address rules, not the domain rule" \
		"e['event']=='connect' and e.get('addr')=='$3' and e['decision']=='deny' and e.get('errno')=='EACCES' and e.get('rule')!='--rule:1'"
	check "$1: the service heard nothing" 0 "$(heard "$3")"
}

wrun nopreload -r "$DOMAIN" --no-preload -- "$BIN/byname" connect "$API" "$PORT"
denied "--no-preload" "connect $API: Permission denied" 127.0.0.3
logged "--no-preload: the hosts file names the address, no via" \
	"e['event']=='connect' and e.get('addr')=='127.0.0.3' and e.get('host')=='$API' and 'via' not in e"

wrun static -r "$DOMAIN" -- "$BIN/byname-static" connect "$API" "$PORT"
denied "a static program" "connect $API: Permission denied" 127.0.0.3
logged "a static program: its exec is logged preload false" \
	"e['event']=='exec' and e.get('path')=='$BIN/byname-static' and e.get('preload') is False"

# --- forged hints
wrun forge -r "$DOMAIN" -- "$BIN/byname" forge "$API" 127.0.0.6 "$PORT"
denied "a program writing its own channel (a name that resolves elsewhere)" \
	"connect 127.0.0.6: Permission denied" 127.0.0.6
logged "...logged hint_host" \
	"e['event']=='connect' and e.get('addr')=='127.0.0.6' and e.get('hint_host')=='$API' and 'host' not in e"

wrun forge-nx -r "$DOMAIN" -- "$BIN/byname" forge nx.ward-test.example 127.0.0.6 "$PORT"
denied "a program writing its own channel (a name that does not resolve)" \
	"connect 127.0.0.6: Permission denied" 127.0.0.6
logged "...logged hint_host" \
	"e['event']=='connect' and e.get('addr')=='127.0.0.6' and e.get('hint_host')=='nx.ward-test.example'"

wrun liar -r "$DOMAIN" -- env LD_PRELOAD="$BIN/libliar.so" LIAR_NAME="$API" LIAR_ADDR=127.0.0.6 \
	"$BIN/byname" connect "$API" "$PORT"
denied "an LD_PRELOAD of the agent's own whose getaddrinfo lies" \
	"connect $API: Permission denied" 127.0.0.6
logged "...logged hint_host" \
	"e['event']=='connect' and e.get('addr')=='127.0.0.6' and e.get('hint_host')=='$API'"

# --- the rule ward suggests for a refusal of a verified name keeps the
# port: the name alone would allow every port of it, more than the
# address rule it stands for.
wrun named-deny -v -r "deny connect *.ward-test.example:$PORT" -- "$BIN/byname" connect "$API" "$PORT"
check_match "a name a deny rule names: refused" "*connect $API: Permission denied" "$OUT"
check "...the service heard nothing" 0 "$(heard 127.0.0.3)"
logged "...denied by the domain rule, the log names the verified host" \
	"e['event']=='connect' and e.get('addr')=='127.0.0.3' and e.get('host')=='$API' and e['decision']=='deny' and e.get('rule')=='--rule:1'"
check_match "...-v pastes the name with its port" \
	"*ward: deny connect 127.0.0.3:$PORT $API EACCES (--rule:1, pid [0-9]*, via connect): -r 'allow connect $API:$PORT'*" \
	"$OUT"
REPORT=$(env -i PATH=/usr/bin:/bin HOME="$BASE/home" "$WARD" report --all "$LOG" 2>&1)
check_match "...and so does ward report" "*allow with: -r 'allow connect \"$API:$PORT\"'*" "$REPORT"

# --- no DNS query of the agent's choosing: no domain rule could decide the
# name (none at all, or none for that port), so ward does not look it up.
for rule in "" "allow connect *.dns.ward-test.example:1"; do
	wrun leak ${rule:+-r "$rule"} -- "$BIN/byname" forge leak.dns.ward-test.example 127.0.0.6 "$PORT"
	check "forged name, policy ${rule:-without domain rules}: refused" \
		"connect 127.0.0.6: Permission denied" "$OUT"
	check "...and ward sent no DNS query for it" 0 "$(grep -c leak "$EVENTS")"
	logged "...logged hint_host" \
		"e['event']=='connect' and e.get('hint_host')=='leak.dns.ward-test.example' and e['decision']=='deny'"
done

# --- a host granted for the session: the question names it, and the grant
# decides its other addresses, for a program without the library too.
# The agent's first connect is asked (the question shows host:port (addr)),
# the person answers "this session" with `ward approve` (the host:port
# scope), then a static program connects to each address of the name: ward
# names them itself, so the grant decides them and nobody is asked again
# (a question that comes is denied).
RUN=$BASE/run
mkdir -p "$RUN" && chown "$NB_UID:$NB_GID" "$RUN" && chmod 700 "$RUN"
TWO=two.ward-test.example
approve() {
	setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups -- env -i PATH=/usr/bin:/bin \
		HOME="$BASE/home" XDG_RUNTIME_DIR="$RUN" "$WARD" approve "$@"
}
# The first pending question as "N TARGET EXTRA", or nothing.
question() {
	approve --list --json 2>/dev/null | python3 -c 'import json, sys
for s in json.load(sys.stdin):
    for a in s["asks"]:
        print(a["n"], a["target"], a["extra"]); sys.exit(0)' 2>/dev/null
}
answer() { # ANSWER: the first pending question
	local q
	q=$(question)
	[ -n "$q" ] && approve --answer "${q%% *}" "$1" >/dev/null 2>&1
}
asked() { [ -n "$(question)" ]; }
# Done when the agent ends; a question meanwhile is one too many: denied.
agent_done() {
	if asked; then
		AGAIN=$((AGAIN + 1))
		answer deny
	fi
	! kill -0 "$AGENT" 2>/dev/null
}
# approving_run LOG ARGS...: `ward run -q --ask approve --log LOG ARGS` as
# nobody, in the background ($AGENT), inside `unshare -m` with the test's
# hosts file and resolv.conf; its output in grant.out, the service's events
# emptied first.
approving_run() {
	local log=$1
	shift
	: >"$EVENTS"
	(cd "$BASE/home" && exec unshare -m sh -c 'mount --bind "$1" /etc/hosts &&
		mount --bind "$2" /etc/resolv.conf && shift 2 && exec "$@"' sh \
		"$BASE/hosts" "$BASE/resolv.conf" \
		setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups -- \
		env -i HOME="$BASE/home" TMPDIR="$BASE/home" XDG_RUNTIME_DIR="$RUN" PATH=/usr/bin:/bin LC_ALL=C \
		timeout 120 "$WARD" run -q --ask approve --log "$log" "$@" >"$BASE/grant.out" 2>&1) &
	AGENT=$!
	at_exit "kill $AGENT 2>/dev/null"
}
# granted WHAT FIRST-CONNECT-OUTPUT RULE... -- COMMAND...: COMMAND under ward
# (--ask approve) with the rules; its first question answered session.
granted() {
	local what=$1 first=$2 a
	shift 2
	LOG=$BASE/logs/grant-${#what}.jsonl
	approving_run "$LOG" "$@"
	wait_for 60 asked
	check_match "$what: the question reads host:port (addr), the name ward verified" \
		"[0-9]* $TWO:$PORT 127.0.0.[78]" "$(question)"
	answer session
	AGAIN=0
	wait_for 100 agent_done
	check "...answered this session: the first connect, then a static program to each address of the name" \
		"$first"$'\n'"connected 127.0.0.7"$'\n'"connected 127.0.0.8" "$(cat "$BASE/grant.out")"
	check "...with no question after the first" 0 "$AGAIN"
	for a in 127.0.0.7 127.0.0.8; do
		logged "...the static program's connect to $a: named by ward, allowed by the session's grant" \
			"e['event']=='connect' and e.get('addr')=='$a' and e.get('host')=='$TWO' and e['decision']=='allow' and e.get('by')=='prompt' and e.get('answer')=='session' and 'via' not in e"
	done
}
# A domain rule asks: the library's name is verified; the grant's name is
# taught to ward's resolver (no rule of the policy names it literally).
granted "asked by a domain rule, connected by name" "connected $TWO" \
	-r "ask connect *.ward-test.example:$PORT" -- \
	sh -c '"$0" connect "$2" "$3"; "$1" connect 127.0.0.7 "$3"; "$1" connect 127.0.0.8 "$3"' \
	"$BIN/byname" "$BIN/byname-static" "$TWO" "$PORT"
# An address rule asks; the policy names the host literally for another
# port (so ward resolves it): the question still reads the name, and the
# grant by that name decides the name's other address.
granted "asked by an address rule, a name the policy's literal names verify" "connected 127.0.0.7" \
	-r "allow connect $TWO:1" -r "ask connect 127.0.0.0/8:$PORT" -- \
	sh -c '"$0" connect 127.0.0.7 "$1"; "$0" connect 127.0.0.7 "$1"; "$0" connect 127.0.0.8 "$1"' \
	"$BIN/byname-static" "$PORT"

# --- a name denied always wins for every name of its address (as a named
# deny of the policy does, pick_host): evil. is denied always; front. leads
# to the same address (127.0.0.9: a front end), so front. by name and the
# address itself are refused afterwards by that answer, with no question.
LOG=$BASE/logs/shared.jsonl
approving_run "$LOG" -r "ask connect *.ward-test.example:$PORT" -- \
	sh -c '"$0" connect evil.ward-test.example "$2"; "$0" connect front.ward-test.example "$2"
		"$1" connect 127.0.0.9 "$2"' \
	"$BIN/byname" "$BIN/byname-static" "$PORT"
wait_for 60 asked
check_match "shared address: the first question is evil.'s" "[0-9]* evil.ward-test.example:$PORT 127.0.0.9" "$(question)"
# d (deny always) is a key of the interactive `ward approve`, on a pty of
# script's; it is pressed until the question goes (keys in its first half
# second are not answers).
(while asked; do printf d; sleep 0.3; done) |
	setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups -- env -i PATH=/usr/bin:/bin \
		HOME="$BASE/home" XDG_RUNTIME_DIR="$RUN" TERM=xterm script -qec "$WARD approve" /dev/null \
		>/dev/null 2>&1 &
KEYS=$!
at_exit "kill $KEYS 2>/dev/null"
not_asked() { ! asked; }
wait_for 60 not_asked
AGAIN=0
wait_for 100 agent_done
check "...front. by name and the address itself: refused" \
	"connect evil.ward-test.example: Permission denied"$'\n'"connect front.ward-test.example: Permission denied"$'\n'"connect 127.0.0.9: Permission denied" \
	"$(cat "$BASE/grant.out")"
check "...with no question after evil.'s" 0 "$AGAIN"
check "...each logged denied by the person's deny-always" 3 \
	"$(python3 -c 'import json, sys
print(sum(1 for l in open(sys.argv[1]) for e in [json.loads(l)] if e["event"] == "connect" and e.get("addr") == "127.0.0.9" and e["decision"] == "deny" and e.get("by") == "prompt" and e.get("answer") == "deny-always"))' "$LOG")"
check "...and the service heard nothing" 0 "$(grep -c '127.0.0.9' "$EVENTS")"

# --- --backtrace: a denied open names the program's own functions
wrun bt --backtrace -r "deny read $BASE/secret" -- "$BIN/byname" open "$BASE/secret"
check "--backtrace: the open is denied" "open $BASE/secret: Permission denied" "$OUT"
logged "...its line has via fopen and a stack naming open_the_secret and main" \
	"e.get('path')=='$BASE/secret' and e['decision']=='deny' and e.get('via')=='fopen' and any(f.startswith('open_the_secret+') for f in e.get('stack', [])) and any(f.startswith('main+') for f in e.get('stack', []))"
wrun nobt -v -r "deny read $BASE/secret" -- "$BIN/byname" open "$BASE/secret"
logged "...without --backtrace, via and no stack" \
	"e.get('path')=='$BASE/secret' and e['decision']=='deny' and e.get('via')=='fopen' and 'stack' not in e"
check_match "...and -v says via" "*ward: deny read $BASE/secret EACCES (--rule:1, pid [0-9]*, via fopen)*" "$OUT"

summary
