#!/bin/bash
# shellcheck disable=SC2016  # policy text is meant literally
# report.sh BUILD_DIR [--update] - ward report, ward sessions, ward learn.
#
# 1. Golden: the terminal report and --json of the logs in tests/report/,
#    recorded from real sessions under ward by tests/report/record.sh, are
#    compared with tests/report/*.txt and *.json (--update rewrites those;
#    review the diff).
# 2. Hand-made edge cases: an empty log, no session-end, a truncated last
#    line, a malformed line, 10,000 processes, paths with newlines and
#    escapes, events and fields this ward does not know.
# 3. Live: sessions run now under ward, listed, chosen by id, running and
#    killed ones told apart, pruned, learned from and replayed.
set -u
BUILD=$(cd "${1:?usage: report.sh BUILD_DIR [--update]}" && pwd)
WARD=$BUILD/ward
UPDATE=${2:-}
SRC=$(cd "$(dirname "$0")/../.." && pwd)
FIX=$SRC/tests/report
BASE=$(mktemp -d /tmp/ward-report.XXXXXX)
trap 'rm -rf "$BASE"' EXIT
BASE=$(cd "$BASE" && pwd -P)
unset NO_COLOR

N=0 PASS=0 FAIL=0
ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N - $1"; }
bad() { N=$((N + 1)); FAIL=$((FAIL + 1)); echo "not ok $N - $1"; }
check() { # WHAT EXPECTED GOT
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1 (expected '$2', got '$3')"; fi
}
has() { # WHAT TEXT EXTENDED-REGEX
	if printf '%s\n' "$2" | grep -qE -- "$3"; then ok "$1"
	else bad "$1 (no line matching '$3')"; printf '%s\n' "$2" | head -n 40 | sed 's/^/#   /'; fi
}
hasnt() { # WHAT TEXT EXTENDED-REGEX
	if printf '%s\n' "$2" | grep -qE -- "$3"; then bad "$1 (a line matches '$3')"
	else ok "$1"; fi
}
jq_() { # FILE PYTHON-EXPRESSION over d (the document)
	python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$1" "$2"
}
wide() { # TEXT: how many of its lines take more than 100 columns (a character a column)
	printf '%s\n' "$1" | python3 -c 'import sys; sys.stdin.reconfigure(encoding="utf-8", errors="replace"); print(sum(len(l.rstrip("\n")) > 100 for l in sys.stdin))'
}
wait_for() { # SECONDS COMMAND...: until COMMAND succeeds
	local end=$((SECONDS + $1))
	shift
	until "$@"; do
		[ $SECONDS -ge "$end" ] && return 1
		sleep 0.05
	done
}

# ------------------------------------------------------------------ golden
# The fixtures were recorded with this HOME and TMPDIR (record.sh): the
# report shortens home to ~ and flags reads by the default profile's rules
# for that home.
golden_env() {
	env -i PATH=/usr/bin:/bin HOME=/tmp/ward-golden/home TMPDIR=/tmp/ward-golden/tmp \
		XDG_CONFIG_HOME=/tmp/ward-golden/home/.config LC_ALL=C "$@"
}
cd "$FIX" || exit 2
for f in agent shadow; do
	for kind in txt all.txt json; do
		case $kind in
		txt) args=("$f.jsonl") ;;
		all.txt) args=(--all "$f.jsonl") ;;
		json) args=(--json "$f.jsonl") ;;
		esac
		out=$(golden_env "$WARD" report "${args[@]}" 2>&1)
		rc=$?
		if [ "$UPDATE" = --update ]; then
			printf '%s\n' "$out" >"$FIX/$f.$kind"
			echo "# updated tests/report/$f.$kind"
			continue
		fi
		[ "$kind" = json ] || check "golden: ward report ${args[*]} fits 100 columns" 0 "$(wide "$out")"
		if [ $rc -eq 0 ] && [ "$out" = "$(cat "$FIX/$f.$kind")" ]; then
			ok "golden: ward report ${args[*]} is tests/report/$f.$kind"
		else
			bad "golden: ward report ${args[*]} differs from tests/report/$f.$kind (rc $rc)"
			diff <(printf '%s\n' "$out") "$FIX/$f.$kind" | head -n 30 | sed 's/^/#   /'
		fi
	done
done
[ "$UPDATE" = --update ] && exit 0
cd "$BASE" || exit 2

golden_env "$WARD" report --json "$FIX/agent.jsonl" >"$BASE/agent.json"
check "json: the counts agree with the log" \
	"$(grep -c '"decision":"deny"' "$FIX/agent.jsonl") $(grep -c '"event":"spawn"' "$FIX/agent.jsonl")" \
	"$(jq_ "$BASE/agent.json" 'd["counts"]["denied"]') $(jq_ "$BASE/agent.json" 'len(d["processes"])')"
check "json: each refusal names the rule line that would allow it, or why none can" "ok" \
	"$(jq_ "$BASE/agent.json" '"ok" if all(r["allow_rule"] or r["why_no_rule"] for r in d["refused"]) else d["refused"]')"
check "json: a path with a newline and one with <script> are kept as they are" "True True" \
	"$(jq_ "$BASE/agent.json" '" ".join(str(any(p["path"].endswith(n) for p in d["changed_in_project"])) for n in ["/odd\nname", "/<script>alert(1)"])')"

# ----------------------------------------------------------- edge cases
rep() { OUT=$(env -i PATH=/usr/bin:/bin HOME="$BASE/home" "$WARD" report "$@" 2>&1); RC=$?; }

: >"$BASE/empty.jsonl"
rep "$BASE/empty.jsonl"
check "an empty log: a report, exit 0" 0 "$RC"
has "...saying the log has no session-start" "$OUT" 'no session-start'
out=$(env -i PATH=/usr/bin:/bin HOME="$BASE/home" "$WARD" report --json "$BASE/empty.jsonl")
check "an empty log: JSON with no events" "0 killed" \
	"$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["counts"]["events"], d["session"]["state"])')"

head -n -1 "$FIX/agent.jsonl" >"$BASE/killed.jsonl"
rep "$BASE/killed.jsonl"
has "no session-end: said so, with when the log ends" "$OUT" '! no session-end: .* the log ends at 20[0-9-]+ [0-9:]+ UTC'
has "...and the programs are still shown" "$OUT" '^  sh agent.sh +exit 3'

total=$(wc -l <"$FIX/agent.jsonl")
{ head -n -1 "$FIX/agent.jsonl"; tail -n 1 "$FIX/agent.jsonl" | head -c 40; } >"$BASE/cut.jsonl"
rep "$BASE/cut.jsonl"
check "a truncated last line: the report still appears" 0 "$RC"
has "...the line is counted and named, cut short" "$OUT" "1 malformed line skipped: line $total\$"
has "...and why" "$OUT" "^      line $total: cut short: "
{ head -n 4 "$FIX/agent.jsonl"; echo '{"ts":"2026-12-04T19:0'; echo 'not json at all'; echo '[1,2]'
	echo '{"no":"event"}'; tail -n +5 "$FIX/agent.jsonl"; } >"$BASE/bad.jsonl"
rep "$BASE/bad.jsonl"
has "malformed lines in the middle: each counted with its number" "$OUT" \
	'4 malformed lines skipped: line 5, line 6, line 7, \.\.\.$'
has "...the first three with why" "$OUT" '^      line 7: not a JSON object$'
check "...within 100 columns" 0 "$(wide "$OUT")"
out=$(env -i PATH=/usr/bin:/bin HOME="$BASE/home" "$WARD" report --json "$BASE/bad.jsonl")
check "...and in --json, with the rest of the log read" "4 [5, 6, 7, 8] $(jq_ "$BASE/agent.json" 'd["counts"]["allowed"]')" \
	"$(printf '%s' "$out" | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["counts"]["malformed"], [b["line"] for b in d["malformed"]], d["counts"]["allowed"])')"

# 10,000 processes: a shell that ran true 9,999 times, one of them below a subshell.
python3 - "$BASE/many.jsonl" <<'PY'
import json, sys
out = open(sys.argv[1], "w")
t = [0]
def line(**kw):
    t[0] += 1
    s, us = divmod(t[0] * 100, 1000000)
    d = {"ts": "2026-01-01T00:%02d:%02d.%06dZ" % (s // 60, s % 60, us), "session": "0000beef"}
    d.update(kw)
    out.write(json.dumps(d, separators=(",", ":")) + "\n")
line(event="session-start", argv=["sh", "-c", "loop"], cwd="/p", project="/p", profile="default",
     policy=[], mode="enforce", version="0.1.0", kernel={"release": "6.1"})
line(event="spawn", pid=100, ppid=1, exe="")
line(event="exec", pid=100, ppid=1, exe="/usr/bin/dash", path="/usr/bin/dash", argv=["sh", "-c", "loop"], static=False)
for i in range(9999):
    pid = 1000 + i
    line(event="spawn", pid=pid, ppid=100, exe="/usr/bin/dash")
    line(event="access", pid=pid, ppid=100, exe="/usr/bin/dash", syscall="execve", op="exec",
         path="/usr/bin/true", decision="allow", rule="builtin:default:44", by="policy")
    line(event="exec", pid=pid, ppid=100, exe="/usr/bin/true", path="/usr/bin/true", argv=["true", str(i)], static=False)
    line(event="exit", pid=pid, ppid=100, exe="/usr/bin/true", status=0)
line(event="exit", pid=100, ppid=1, exe="/usr/bin/dash", status=0)
line(event="session-end", status=0, duration=4.0, counts={"allowed": 9999, "denied": 0, "asked": 0})
PY
rep "$BASE/many.jsonl"
has "10,000 processes: counted" "$OUT" '^Programs run  10000 processes'
has "...the repeated siblings said as a count" "$OUT" '… [0-9]+ more true'
check "...within 100 columns" 0 "$(wide "$OUT")"
out=$(env -i PATH=/usr/bin:/bin HOME="$BASE/home" "$WARD" report --json "$BASE/many.jsonl" |
	python3 -c 'import json,sys; d=json.load(sys.stdin); p=d["processes"]; print(len(p), sum(1 for x in p if x["parent"] == 0))')
check "...all of them in --json, each with its parent" "10000 9999" "$out"
rep --all "$BASE/many.jsonl"
check "...and every one with --all" 10000 "$(printf '%s\n' "$OUT" | grep -cE '^  (sh -c loop|.*─ true [0-9]+) ')"

# Names that hold newlines, escapes, bytes that are not UTF-8, markup; events and fields to come.
cat >"$BASE/odd.jsonl" <<'EOF'
{"ts":"2026-01-01T00:00:00.000000Z","session":"0000cafe","event":"session-start","argv":["sh","-c","printf '\u001b[2J'"],"cwd":"/p","project":"/p","profile":"default","policy":[],"mode":"enforce","version":"0.2.0","kernel":{"release":"6.1"},"new_field":{"x":[1,2]}}
{"ts":"2026-01-01T00:00:00.100000Z","session":"0000cafe","event":"access","pid":5,"ppid":1,"exe":"/usr/bin/touch","syscall":"openat","op":"create","path":"/p/two\nlines","decision":"allow","rule":"builtin:default:20","by":"policy","via":"fopen","preload":true}
{"ts":"2026-01-01T00:00:00.200000Z","session":"0000cafe","event":"access","pid":5,"ppid":1,"exe":"/usr/bin/touch","syscall":"openat","op":"create","path":"/p/\u001b[31mred\u001b[0m","decision":"allow","rule":"builtin:default:20","by":"policy","stack":["main","fopen"]}
{"ts":"2026-01-01T00:00:00.300000Z","session":"0000cafe","event":"access","pid":5,"ppid":1,"exe":"/usr/bin/touch","syscall":"openat","op":"create","path":"/p/bad\\xff\\xfebyte","decision":"allow","rule":"builtin:default:20","by":"policy"}
{"ts":"2026-01-01T00:00:00.400000Z","session":"0000cafe","event":"access","pid":5,"ppid":1,"exe":"/usr/bin/cat","syscall":"openat","op":"read","path":"/etc/\u00e9t\u00e9/<script>x</script>","decision":"deny","errno":"EACCES","rule":"/etc/ward/policy:3","by":"prompt","answer":"deny"}
{"ts":"2026-01-01T00:00:00.500000Z","session":"0000cafe","event":"connect","pid":5,"ppid":1,"exe":"/usr/bin/curl","syscall":"connect","op":"connect","addr":"104.16.3.34","port":443,"host":"registry.example.org","decision":"allow","rule":"builtin:default:50","by":"prompt","answer":"session","via":"getaddrinfo","hint_host":"evil.example"}
{"ts":"2026-01-01T00:00:00.600000Z","session":"0000cafe","event":"connect","pid":5,"ppid":1,"exe":"/usr/bin/curl","syscall":"connect","op":"connect","addr":"2001:db8::1","port":80,"decision":"deny","errno":"EACCES","rule":"undecided","by":"timeout"}
{"ts":"2026-01-01T00:00:00.700000Z","session":"0000cafe","event":"telepathy","pid":5,"ppid":1,"exe":"/usr/bin/x","decision":"allow","future":true}
{"ts":"2026-01-01T00:00:00.800000Z","session":"0000cafe","event":"hint","pid":5}
{"ts":"2026-01-01T00:00:01.000000Z","session":"0000cafe","event":"session-end","status":0,"duration":1.0}
EOF
rep --all "$BASE/odd.jsonl"
check "odd names: exit 0" 0 "$RC"
check "...within 100 columns" 0 "$(wide "$OUT")"
check "...no escape character reaches the terminal" 0 "$(printf '%s' "$OUT" | grep -c $'\x1b')"
has "...a newline is shown as \\x0a" "$OUT" '^  \./two\\x0alines +created'
has "...an escape as \\x1b" "$OUT" '^  \./\\x1b\[31mred\\x1b\[0m +created'
has "...UTF-8 as itself, markup as text" "$OUT" '^  read +/etc/été/<script>x</script> +asked, deny'
has "...an answer given at a prompt" "$OUT" 'registry.example.org:443 \(104.16.3.34\) +connect, 1 allowed'
has "...a prompt that timed out" "$OUT" '^  connect \[2001:db8::1\]:80 +asked, denied \(no answer in time\)'
has "...and the rule that would allow it" "$OUT" "allow with: -r 'allow connect \"\\[2001:db8::1\\]:80\"'"
has "...events of a kind this ward does not know are counted" "$OUT" '^  2 events of kinds this ward does not know'
has "...the asked ones counted" "$OUT" '5 allowed, 2 denied, 3 asked'
# ward learn of it: no name, however made, starts a line of the policy it writes.
cat >>"$BASE/odd.jsonl" <<'EOF'
{"ts":"2026-01-01T00:00:01.100000Z","session":"0000cafe","event":"access","pid":5,"ppid":1,"exe":"/usr/bin/sh","syscall":"openat","op":"create","path":"/p/.cache/x\nallow read /**","decision":"rewrite","rule":"r:1","by":"policy","to":"/tmp/s/x\nallow write /**"}
{"ts":"2026-01-01T00:00:01.200000Z","session":"0000cafe","event":"access","pid":5,"ppid":1,"exe":"/usr/bin/sh","syscall":"openat","op":"read","path":"/q/y\nallow exec /**","decision":"deny","errno":"EACCES","rule":"x:1\nallow connect *","by":"policy"}
EOF
learned=$(env -i PATH=/usr/bin:/bin HOME="$BASE/home" "$WARD" learn "$BASE/odd.jsonl")
check "learn of names with newlines: exit 0" 0 "$?"
hasnt "...no name starts a line of policy" "$learned" '^allow (read|write|exec|connect) (/\*\*|\*)'
printf '%s\n' "$learned" >"$BASE/odd.policy"
env -i PATH=/usr/bin:/bin HOME="$BASE/home" "$WARD" check -q --project / -p "$BASE/odd.policy" >/dev/null
check "...and the policy loads" 0 "$?"
out=$(env -i PATH=/usr/bin:/bin HOME="$BASE/home" "$WARD" report --json "$BASE/odd.jsonl" |
	python3 -c 'import json,sys; d=json.load(sys.stdin); print(sorted(p["path"] for p in d["changed_in_project"]), d["refused"][0]["answer"])')
check "...--json keeps every name exactly" "['/p/\\x1b[31mred\\x1b[0m', '/p/.cache/x\\nallow read /**', '/p/bad\\\\xff\\\\xfebyte', '/p/two\\nlines'] deny" "$out"

# --------------------------------------------------------------- live
export HOME=$BASE/home XDG_CONFIG_HOME=$BASE/home/.config XDG_STATE_HOME=$BASE/home/.state \
	XDG_RUNTIME_DIR=$BASE/run TMPDIR=$BASE/tmp PATH=/usr/bin:/bin
mkdir -p "$HOME/.ssh" "$BASE/run" "$BASE/tmp" "$BASE/proj"
chmod 700 "$BASE/run"
echo KEY >"$HOME/.ssh/id_rsa"
cd "$BASE/proj" || exit 2
S=$XDG_STATE_HOME/ward/sessions

"$WARD" run -q -- sh -c 'cat ~/.ssh/id_rsa; echo made >made.txt; ls /etc >/dev/null' 2>/dev/null
first=$(ls "$S")
id=${first%.jsonl}
OUT=$("$WARD" sessions)
log=$S/$first
has "sessions: the session, ended, with its counts from session-end" "$OUT" \
	"^$id  [0-9-]{10} [0-9:]{5} +[0-9.]+ m?s +0 +$(grep -c '"decision":"allow"' "$log") +1 +0  sh -c "
OUT=$("$WARD" report)
has "report with no argument: the newest session" "$OUT" "^ward report: session $id \\(ended, exit status 0\\)"
has "...the denied read, with the rule line that would allow it" "$OUT" \
	"allow with: -r 'allow read \"$HOME/.ssh/id_rsa\"'"
rule=$(printf '%s\n' "$OUT" | sed -n "s/^ *allow with: -r '\\(allow read .*\\)'\$/\\1/p")
"$WARD" run -q -r "$rule" -- cat "$HOME/.ssh/id_rsa" >"$BASE/out" 2>&1
check "...and that rule, given to ward run, allows it" "0 KEY" "$? $(cat "$BASE/out")"
has "report ID-PREFIX: that session" "$("$WARD" report "${id:0:3}")" "^ward report: session $id "
cp "$log" "$S/abcdef01.jsonl"
cp "$log" "$S/abcdef02.jsonl"
"$WARD" report abcdef0 >/dev/null 2>"$BASE/err"
check "a prefix of two sessions: refused" "1 ward: 'abcdef0' names 2 sessions: give more of the id" \
	"$? $(cat "$BASE/err")"
"$WARD" report nosuch >/dev/null 2>"$BASE/err"
check "an unknown session: exit 1" 1 "$?"
rm -f "$S/abcdef01.jsonl" "$S/abcdef02.jsonl"

# A session that runs until ./stop appears: its ward's pid in wpid, its log in wlog.
waiting_session() {
	rm -f started stop
	"$WARD" run -q -- sh -c 'echo x >started; while [ ! -e stop ]; do sleep 0.05; done' &
	wpid=$!
	wait_for 20 test -e started
	wlog=$(ls -t "$S" | head -n 1)
}

# A running session, then one whose ward was killed.
waiting_session
running=$wlog
has "sessions: a running session says so" "$("$WARD" sessions)" "^${running%.jsonl} .* running +"
has "report of a running session: what it did so far" "$("$WARD" report "${running%.jsonl}")" \
	'\(running\)|! still running: this is what it did until now'
touch stop
wait "$wpid"
has "...and once it has ended, ended" "$("$WARD" report "${running%.jsonl}")" '\(ended, exit status 0\)'
waiting_session
killed=$wlog
{ kill -KILL "$wpid" && wait "$wpid"; } 2>/dev/null
wait_for 20 sh -c "! \"$WARD\" sessions | grep -q '^${killed%.jsonl} .* running '"
has "sessions: a killed session has no end" "$("$WARD" sessions)" "^${killed%.jsonl} .* no end +"
touch stop

# Retention: by age and by size, never a running session's log, at start and by --prune.
for i in 1 2 3; do
	printf '{"event":"session-start"}\n' >"$S/0000000$i.jsonl"
	touch -d '40 days ago' "$S/0000000$i.jsonl"
done
"$WARD" run -- true 2>"$BASE/err"
check "at session start, logs older than 30 days are removed" "0" "$(ls "$S" | grep -c '^0000000')"
has "...and ward says so" "$(cat "$BASE/err")" '^ward: removed 3 old session logs'
check "...the others are kept" 5 "$(ls "$S" | wc -l)"
head -c 300000 /dev/zero | tr '\0' 'x' >"$S/00000004.jsonl"
touch -d '2 days ago' "$S/00000004.jsonl"
waiting_session
live=$wlog
touch -d '3 days ago' "$S/$live"
printf 'set log-retention 0d 100K\n' >"$BASE/small.policy"
OUT=$("$WARD" sessions --prune -p "$BASE/small.policy")
has "sessions --prune: removes the oldest beyond the size limit" "$OUT" '^removed [1-9][0-9]* session logs? '
check "...the big old one among them" no "$([ -e "$S/00000004.jsonl" ] && echo yes || echo no)"
check "...never the log of a running session, however old" yes "$([ -e "$S/$live" ] && echo yes || echo no)"
touch stop
wait "$wpid"

# ward learn: shadow mode, then the policy it learns, then the same work under strict.
mkdir -p "$BASE/learn" "$HOME/.cache" && cd "$BASE/learn" || exit 2
mkdir -p "$HOME/.config/tool" && echo conf >"$HOME/.config/tool/settings"
cat >work.sh <<'EOF'
set -e
cat ~/.config/tool/settings >/dev/null
ls /usr/share /usr/lib /etc >/dev/null
for f in /usr/share/common-licenses/*; do head -c 1 "$f" >/dev/null; done
mkdir -p out && echo built >out/result.txt
echo cached >~/.cache/tool.txt
printf '#!/bin/sh\necho helper ran\n' >helper.sh && chmod +x helper.sh && ./helper.sh >/dev/null
python3 -c 'import json' 2>/dev/null || true
EOF
"$WARD" run -q --mode shadow -- sh work.sh
shadow=$(ls -t "$S" | head -n 1)
"$WARD" learn "${shadow%.jsonl}" >learned.policy
check "learn: exit 0" 0 "$?"
"$WARD" check -q -p learned.policy >/dev/null 2>"$BASE/err"
check "learn: the policy passes ward check" "0 " "$? $(cat "$BASE/err")"
learned=$(cat learned.policy)
has "learn: a system tree read from much, folded" "$learned" '^allow read +/usr/\*\* +# [0-9]+ events, [0-9]+ paths, e.g. /usr/'
has "learn: home paths ~-relative, exact" "$learned" '^allow read +~/.config/tool/settings +# 1 event'
has "learn: the project's paths \$PROJECT-relative" "$learned" '^allow write,create +\$PROJECT/out/result.txt'
has "learn: a program the session ran from the project" "$learned" '^allow [a-z,]*exec +\$PROJECT/helper.sh'
has "learn: each rule says how many events it covers" "$learned" '^allow exec +/usr/bin/cat +# [0-9]+ events?$'
rm -rf out helper.sh "$HOME/.cache/tool.txt"
"$WARD" run -q --profile strict -p learned.policy --undecided deny -- sh work.sh 2>"$BASE/err"
check "learn: the same work under --profile strict -p learned.policy --undecided deny runs" \
	"0 " "$? $(cat "$BASE/err")"
replay=$(ls -t "$S" | head -n 1)
check "...and is refused nothing" 0 "$(grep -c '"decision":"deny"' "$S/$replay")"
rm -rf out helper.sh "$HOME/.cache/tool.txt"
"$WARD" run -q --profile strict --undecided deny -- sh work.sh 2>/dev/null
check "...which strict alone refuses (the test can fail)" 1 \
	"$([ "$(grep -c '"decision":"deny"' "$S/$(ls -t "$S" | head -n 1)")" -gt 0 ] && echo 1 || echo 0)"
# What a session was refused stays refused: a comment, never a rule.
"$WARD" run -q -- sh -c 'cat ~/.ssh/id_rsa; true' 2>/dev/null
"$WARD" learn >refused.policy
has "learn: a refusal is listed as a comment" "$(cat refused.policy)" \
	"^#allow read \"$HOME/.ssh/id_rsa\"\$"
hasnt "...and not as a rule" "$(cat refused.policy)" '^allow read .*\.ssh'
check "...so the learned policy still denies it" "deny" \
	"$("$WARD" explain -p refused.policy read "$HOME/.ssh/id_rsa" | cut -d' ' -f1)"

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
