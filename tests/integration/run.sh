#!/bin/bash
# ward run: options, exit status, signals, the audit log, shadow mode.
# The checks that need root are in run-root.sh.
#   run.sh BUILD_DIR
. "$(dirname "$0")/lib.sh"
WARD=$(cd "${1:?usage: run.sh BUILD_DIR}" && pwd)/ward
make_base run
export HOME=$BASE/home XDG_CONFIG_HOME=$BASE/home/.config XDG_STATE_HOME=$BASE/home/.state \
	XDG_RUNTIME_DIR=$BASE/run TMPDIR=$BASE/tmp
mkdir -p "$HOME/.ssh" "$BASE/tmp" "$BASE/run" "$BASE/proj"
echo KEY >"$HOME/.ssh/id_rsa"
cd "$BASE/proj" || bail "cd"
ward_probe "$WARD"
L=$BASE/log.jsonl
run() { rm -f "$L"; "$WARD" run -q --log "$L" "$@"; RC=$?; }

# Exit status
run -- sh -c 'exit 7'; check "the command's exit status" 7 "$RC"
run -- sh -c 'kill -TERM $$'; check "killed by SIGTERM: 128+15" 143 "$RC"
run -- /nonexistent/prog; check "a command that does not exist: 127" 127 "$RC"
printf 'x' >notexec; chmod 644 notexec
run -- ./notexec; check "a command that cannot be run: 126" 126 "$RC"
run -r 'allow raed /x' -- true 2>/dev/null; check "a bad policy: 125" 125 "$RC"
"$WARD" run -q --mode nonsense -- true 2>/dev/null; check "a bad option value: 2" 2 "$?"
"$WARD" run -q --degraded=sometimes -- true 2>/dev/null; check "--degraded=sometimes: a usage error" 2 "$?"

# The audit log
run -- cat "$HOME/.ssh/id_rsa" 2>/dev/null
check "a denied read fails the command" 1 "$RC"
has "session-start first" <(head -n 1 "$L") '"event":"session-start".*"argv":\["cat",'
has "session-end last, with the status" <(tail -n 1 "$L") '"event":"session-end","status":1,'
has "...and the decisions counted" <(tail -n 1 "$L") \
	'"event":"session-end",.*"counts":\{"allowed":[1-9][0-9]*,"denied":1,"refused":1,"asked":0\}'
has "the denial, with errno, rule and by" "$L" \
	"\"event\":\"access\".*\"exe\":\"/usr/bin/cat\",\"syscall\":\"openat\",\"op\":\"read\",\"path\":\"$HOME/.ssh/id_rsa\",\"decision\":\"deny\",\"errno\":\"EACCES\",\"rule\":\"builtin:default:9\",\"by\":\"policy\""
has "the exec event, with argv and static" "$L" '"event":"exec".*"path":"/usr/bin/cat","argv":\["cat",".*"\],"static":false'
has "a dynamic program's ELF interpreter is judged and logged as an exec" "$L" \
	'"syscall":"execve","op":"exec","path":"/usr/lib/x86_64-linux-gnu/ld-linux-x86-64.so.2","decision":"allow"'
# --log /dev/null keeps no log: the device is not the log's own file, and
# the agent's programs still write and read it (it was denied them).
out=$("$WARD" run -q --log /dev/null -- sh -c 'echo x >/dev/null && wc -c </dev/null' 2>&1)
check "--log /dev/null: the agent still uses /dev/null" "0 0" "$? $out"
# An ELF file whose PT_INTERP lies at an offset that wraps around (2^64-40):
# ward must not read before its buffer, and refuses what it cannot read.
python3 -c 'import struct, sys
eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, 0x400000, 64, 0, 0, 64, 56, 2, 0, 0, 0)
interp = struct.pack("<IIQQQQQQ", 3, 4, 2**64 - 40, 0, 0, 48, 48, 1)
load = struct.pack("<IIQQQQQQ", 1, 5, 0, 0x400000, 0x400000, 0x200, 0x200, 0x1000)
d = eh + interp + load
open(sys.argv[1], "wb").write(d + bytes(0x200 - len(d)))' wrapinterp
chmod 755 wrapinterp
run -- ./wrapinterp 2>/dev/null
has "a PT_INTERP past the file's end is refused, not read" "$L" \
	'"path":"[^"]*/wrapinterp","decision":"deny","errno":"EACCES","by":"policy","reason":"the program.s ELF interpreter could not be read"'
# A sparse file that looks like a loader (ET_DYN, PT_DYNAMIC, no interpreter)
# whose .dynamic sections claim a GiB each: libelf would copy each into
# ward's memory, and the soname search walk it byte by byte.
python3 -c 'import os, struct, sys
G = 1 << 30
eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack("<HHIQQQIHHHHHH", 3, 62, 1, 0, 64, 4096, 0, 64, 56, 2, 64, 6, 0)
ph = struct.pack("<IIQQQQQQ", 1, 5, 0, 0, 0, 0x1000, 0x1000, 0x1000) + struct.pack("<IIQQQQQQ", 2, 6, 0x2000, 0x2000, 0x2000, 16, 16, 8)
sh = bytes(64) + struct.pack("<IIQQQQIIQQ", 0, 3, 2, 0, 0x2000, 16, 0, 0, 1, 0)
sh += b"".join(struct.pack("<IIQQQQIIQQ", 0, 6, 3, 0, 0x3000, G, 1, 0, 8, 1) for _ in range(4))
with open(sys.argv[1], "wb") as f:
    f.write(eh + ph); f.seek(4096); f.write(sh); f.truncate(0x3000 + G)' bigdyn
chmod 755 bigdyn
rm -f "$L"
timeout -k 3 "$(slow 10)" "$WARD" run -q --log "$L" -- ./bigdyn 2>/dev/null
check "a loader-like file with GiB .dynamic sections is refused at once" 126 "$?"
rm -f bigdyn
has "the exit event" "$L" '"event":"exit".*"status":1'
has "timestamps are RFC 3339 UTC with microseconds" "$L" '"ts":"20[0-9]{2}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{6}Z"'
python3 -c 'import json,sys; [json.loads(l) for l in open(sys.argv[1])]' "$L" 2>/dev/null
check "every line is JSON" 0 "$?"
check "the duration has at most 12 significant digits" 1 \
	"$(tail -n 1 "$L" | grep -cE '"duration":0*\.?0*[1-9][0-9.]{0,12}[,}]')"
rm -rf "$XDG_STATE_HOME"
"$WARD" run -q -- true
n=$(ls "$XDG_STATE_HOME/ward/sessions/" 2>/dev/null | grep -cE '^[0-9a-f]{8}\.jsonl$')
check "the default log is \$XDG_STATE_HOME/ward/sessions/ID.jsonl" 1 "$n"
check "the log directory is private" 700 "$(stat -c %a "$XDG_STATE_HOME/ward/sessions")"
run -- sh -c "cat $L; echo read=\$?; echo x >>$L; echo append=\$?" >"$BASE/out" 2>/dev/null
check "the agent cannot read its log" "read=1, 0 lines of it seen" \
	"$(grep '^read=' "$BASE/out"), $(grep -c session "$BASE/out") lines of it seen"
check "...nor append to it" "append=2, no line of the agent's in it" \
	"$(grep '^append=' "$BASE/out"), $(grep -qx x "$L" && echo "its line in it" || echo "no line of the agent's in it")"

# Options
run --mode shadow -- cat "$HOME/.ssh/id_rsa" >"$BASE/out" 2>/dev/null
check "shadow mode denies nothing" "0 KEY" "$RC $(cat "$BASE/out")"
has "shadow mode logs would-deny" "$L" '"decision":"allow","errno".*|"decision":"allow","would":"deny","rule":"builtin:default:9"'
# -v in shadow mode: each would-deny on stderr as it happens (before what the agent says next).
rm -f "$L"
"$WARD" run -q -v --mode shadow --log "$L" -- \
	sh -c "cat $HOME/.ssh/id_rsa >/dev/null; echo next >&2" 2>"$BASE/err"
check "shadow -v: the would-deny, then the agent's next line" \
	"ward: would deny read ~/.ssh/id_rsa (builtin:default:9, via open): -r 'allow read ~/.ssh/id_rsa'|next" \
	"$(sed 's/ *(\(builtin:default:9\), pid [0-9]*\(, via [a-z0-9_]*\)\{0,1\})/ (\1\2)/' "$BASE/err" | paste -sd'|')"
run -r "allow read $HOME/.ssh/**" -- cat "$HOME/.ssh/id_rsa" >"$BASE/out"
check "-r allows what the profile denies" "0 KEY" "$RC $(cat "$BASE/out")"
printf 'deny read %s/proj/secret\n' "$BASE" >"$BASE/p.policy"
echo S >secret
run -p "$BASE/p.policy" -- cat secret 2>/dev/null
check "-p adds a policy file" 1 "$RC"
has "the -p rule is named in the log" "$L" "\"rule\":\"$BASE/p.policy:1\""
run --profile strict -- sh -c 'cat /etc/hostname >/dev/null && echo x >/opt/nope' 2>/dev/null
check "--profile strict: writes outside the project are denied" 2 "$RC"
run --undecided allow -- sh -c "echo x >$BASE/outside.txt"
check "--undecided allow lets an undecided write through" "0 x" "$RC $(cat "$BASE/outside.txt")"
run -- sh -c "echo x >$BASE/outside2.txt" 2>/dev/null
check "without it, an undecided write is denied (ask, no prompt yet)" 2 "$RC"
has "...and logged as by undecided" "$L" '"op":"create".*"decision":"deny".*"rule":"undecided","by":"undecided"'
mkdir -p "$BASE/other"
run --project "$BASE/other" -- sh -c "echo y >$BASE/other/f && echo z >$BASE/proj/g" 2>/dev/null
check "--project moves \$PROJECT" "2 y" "$RC $(cat "$BASE/other/f")"

# Signals and process life
"$WARD" run -q --log "$L" -- sh -c 'trap "echo got-term; exit 3" TERM; echo ready >ready; sleep 5 & wait' >"$BASE/out" &
W=$!
wait_for 10 test -s "$BASE/proj/ready" # the trap is set
kill -TERM "$W"
wait "$W"
check "SIGTERM to ward reaches the command" "3 got-term" "$? $(cat "$BASE/out")"
"$WARD" run -q --log "$L" -- sh -c 'sleep 30; echo survived' >"$BASE/out" 2>/dev/null &
W=$!
CHILD=
sleeping_child() {
	CHILD=$(pgrep -P "$W" | head -n 1)
	[ -n "$CHILD" ] && grep -q sleep "/proc/$CHILD/cmdline" 2>/dev/null
}
# Dead means gone or a zombie (its new parent may not have reaped it yet).
child_dead() { [ ! -e "/proc/$CHILD" ] || grep -q '^State:.*Z' "/proc/$CHILD/status" 2>/dev/null; }
if wait_for 10 sleeping_child; then
	kill -KILL "$W"
	wait "$W" 2>/dev/null
	if wait_for 10 child_dead; then alive=no; else alive=yes; fi
else
	alive="no child found"
	kill -KILL "$W"
	wait "$W" 2>/dev/null
fi
check "if ward dies, the command dies with it" "no" "$alive"
run -- sh -c 'sleep 0.1 & kill -USR1 $!; wait; echo done' >"$BASE/out"
check "signals within the session work" "0 done" "$RC $(cat "$BASE/out")"
run -- sh -c 'kill -0 1' 2>/dev/null
check "signals outside the session fail" 1 "$RC"
has "...and are logged" "$L" '"event":"signal".*"syscall":"kill","target":1,"signal":0,"decision":"deny","errno":"EPERM"'

# The ids in the log are the kernel's: each way of making a task (fork,
# vfork, clone with CLONE_PARENT, clone without an exit signal, a thread),
# and an orphan whose parent exited, dynamic and static.  ward takes them
# from the creator's registers, and asks /proc again for orphans.
for prog in clones clones-static; do
	run -- sh -c "$(dirname "$WARD")/tests/progs/$prog; true" >"$BASE/ids"
	got=$(python3 - "$L" "$BASE/ids" "$(readlink -f "$(dirname "$WARD")/tests/progs/$prog")" <<'PY'
import json, sys
events = {}
for line in open(sys.argv[1]):
    e = json.loads(line)
    p = e.get("path", "")
    if e.get("event") == "access" and p.startswith("/nonexistent-ward-"):
        events[p[len("/nonexistent-ward-"):]] = e
bad = []
for line in open(sys.argv[2]):
    tag, pid, tid, ppid = line.split()
    e = events.get(tag)
    # Every task runs the helper itself, whoever its parent is.
    want = (int(pid), int(tid), int(ppid), sys.argv[3])
    have = e and (e["pid"], e.get("tid", e["pid"]), e["ppid"], e["exe"])
    if have != want:
        bad.append("%s: log %s, kernel %s" % (tag, have, want))
print(" ".join(bad) or "same (%d tasks)" % len(events))
PY
)
	check "$prog: pid, tid, ppid and exe in the log are the kernel's" "same (7 tasks)" "$got"
done


# An exec with a long argv runs, and its event cuts argv rather than failing.
long=$(head -c 70000 /dev/zero | tr '\0' x)
run -- sh -c 'exit 0' "$long"
check "a 70 KB argument: the command runs" 0 "$RC"
has "...and its exec event says argv_cut" "$L" '"event":"exec".*"argv":\["sh","-c","exit 0","x+"\],"argv_cut":true,"static":false'

# Redirections to /dev/stdout and /proc/self/fd/N (O_CREAT through a /proc
# link): the object the fd holds, as the kernel gives it.
got=$(run -- sh -c 'echo hi >/dev/stdout; echo there >>/proc/self/fd/1' | cat)
check "> /dev/stdout and >> /proc/self/fd/1 into a pipe" "hi there" "$(echo $got)"
run -- python3 -c 'import os
try: os.open("/proc/self", os.O_CREAT | os.O_RDONLY)
except IsADirectoryError: print("EISDIR")' >"$BASE/out"
check "O_CREAT on /proc/self: EISDIR" "EISDIR" "$(cat "$BASE/out")"
run -- python3 -c 'import os
os.mkdir("delt"); os.chdir("delt")
fd = os.open("gone", os.O_CREAT | os.O_RDWR, 0o600); os.unlink("gone"); os.write(fd, b"kept")
os.close(os.open("/proc/self/fd/%d" % fd, os.O_CREAT | os.O_WRONLY | os.O_APPEND))
print(sorted(os.listdir(".")))' >"$BASE/out"
check "O_CREAT through /proc/self/fd/N of a deleted file makes no new file" "[]" "$(cat "$BASE/out")"
# An O_TMPFILE given a name with linkat through /proc/self/fd/N, in the
# project and in /dev/shm (where its nameless "#N (deleted)" is no terminal).
# Under --degraded without openat2 ward refuses O_TMPFILE (docs/degraded.md;
# degraded.sh checks that): a skip there.
for d in "$BASE/proj" /dev/shm; do
	if [ -n "${WARD_DEGRADED:-}" ] && "$WARD" --version | grep -qE ', no openat2[ ,]'; then
		skip "O_TMPFILE then linkat(/proc/self/fd/N, AT_SYMLINK_FOLLOW) in $d" \
			"--degraded without openat2 refuses O_TMPFILE (EOPNOTSUPP)"
		continue
	fi
	run -- python3 -c 'import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
fd = os.open(sys.argv[1], os.O_TMPFILE | os.O_WRONLY, 0o600)
os.write(fd, b"made ")
name = os.path.join(sys.argv[1], "ward-tmpfile-%d" % os.getpid())
if libc.linkat(-100, b"/proc/self/fd/%d" % fd, -100, name.encode(), 0x400) != 0:
    sys.exit("linkat: " + os.strerror(ctypes.get_errno()))
with open(name, "a") as f: f.write("then named")
print(open(name).read()); os.unlink(name)' "$d" >"$BASE/out" 2>&1
	check "O_TMPFILE then linkat(/proc/self/fd/N, AT_SYMLINK_FOLLOW) in $d" "0 made then named" "$RC $(cat "$BASE/out")"
done

# A procfs file held on an fd, reopened through /dev/stdin and /dev/fd/N.
want=$(head -c 9 /proc/meminfo)
got=$(run -- sh -c 'head -c 9 /dev/stdin </proc/meminfo; echo; cat /dev/fd/3 3</proc/self/status | head -n 1')
check "/proc files through /dev/stdin and /dev/fd/N" "$want
Name:	cat" "$got"
# An exited child, not reaped yet, is still the session's: its /proc entries read.
run -- python3 -c 'import os
pid = os.fork()
if pid == 0: os._exit(0)
os.waitid(os.P_PID, pid, os.WEXITED | os.WNOWAIT)
print(open("/proc/%d/stat" % pid).read().split()[2])
os.kill(pid, 0); print("kill 0")
os.waitpid(pid, 0)' >"$BASE/out" 2>&1
check "an exited child, not reaped: /proc/PID/stat reads, kill(PID, 0) works" "Z
kill 0" "$(cat "$BASE/out")"

# ward's own program cannot be changed from inside a session (here a copy
# in the project, run from there), nor the preload library beside it.
cp "$WARD" "$BASE/proj/wardcopy"
cp "$(dirname "$WARD")/libward-preload.so" "$BASE/proj/"
sum=$(sha256sum <"$BASE/proj/wardcopy")
lsum=$(sha256sum <"$BASE/proj/libward-preload.so")
"$BASE/proj/wardcopy" run -q --log "$L" -- sh -c 'echo x >>wardcopy; cp /bin/true wardcopy; mv wardcopy w2; rm -f wardcopy
	echo x >>libward-preload.so; mv libward-preload.so l2; rm -f libward-preload.so' 2>/dev/null
check "ward's program is write-protected in its session" "$sum" "$(sha256sum <"$BASE/proj/wardcopy")"
has "...by a rule of its own" "$L" "\"path\":\"$BASE/proj/wardcopy\".*\"decision\":\"deny\".*\"rule\":\"builtin:exe:1\""
check "the preload library beside it too" "$lsum" "$(sha256sum <"$BASE/proj/libward-preload.so")"
has "...by a rule of its own" "$L" "\"path\":\"$BASE/proj/libward-preload.so\".*\"decision\":\"deny\".*\"rule\":\"builtin:preload:[0-9]+\""
rm -f "$BASE/proj/wardcopy" "$BASE/proj/libward-preload.so"

# A FIFO's open waits for the other end in ward: a signal still interrupts
# it (EINTR for a handled one), and SIGTERM to ward still ends the session.
mkfifo "$BASE/fifo"
run() { rm -f "$L"; timeout -k 3 "$(slow 20)" "$WARD" run -q --log "$L" "$@"; RC=$?; } # a hang fails, not waits
run -- python3 -c 'import os, signal, sys
class Alarm(Exception): pass
def ring(*a): raise Alarm()
signal.signal(signal.SIGALRM, ring); signal.alarm(1)
try: os.open(sys.argv[1], os.O_RDONLY)
except Alarm: print("interrupted")' "$BASE/fifo" >"$BASE/out"
check "a FIFO open is interrupted by a handled signal" "0 interrupted" "$RC $(cat "$BASE/out")"
timeout -k 3 2 "$WARD" run -q --log "$L" -- cat "$BASE/fifo"
check "SIGTERM to ward ends an agent waiting to open a FIFO" 124 "$?"


# More workers than wait in RECV at once (four; the rest park and are let in
# when all four are busy): eight shells at once, each writing, reading back
# and moving 60 files and trying a denied read, are all served, and the
# session ends.  A parked worker never let in would hang the run.
rm -rf "$BASE/proj/par"
mkdir "$BASE/proj/par"
WARD_WORKERS=24 run -- sh -c 'for s in 1 2 3 4 5 6 7 8; do
	(for i in $(seq 60); do echo "$s.$i" >par/$s.$i; cat par/$s.$i >>par/sum.$s; mv par/$s.$i par/m.$s.$i; done
	 cat "$HOME/.ssh/id_rsa" 2>/dev/null || echo denied >>par/sum.$s) &
done; wait'
check "24 workers, eight shells at once: the session ends" 0 "$RC"
check "...every file written, read and moved, each shell refused the key" \
	"480 480 8" "$(ls "$BASE"/proj/par/m.* | wc -l) $(cat "$BASE"/proj/par/sum.* | grep -c '^[0-9]') $(cat "$BASE"/proj/par/sum.* | grep -c '^denied$')"
check "...and each call logged" "480 480 8" "$(grep -c '"syscall":"openat","op":"create","path":"[^"]*/par/[0-9]' "$L") $(grep -c '"syscall":"rename.*"path":"[^"]*/par/m\.' "$L") $(grep -c '"path":"[^"]*/id_rsa","decision":"deny"' "$L")"
rm -rf "$BASE/proj/par"

# A daemon's double fork: the orphan becomes ward's child, not init's
# (Yama's ptrace_scope 1 lets an unprivileged ward read descendants only).
run -- sh -c '(python3 -c "import os, time
time.sleep(0.3)
print(os.getppid(), open(\"/etc/hostname\").read() != \"\")" >"$1" &)
	i=0; while [ ! -s "$1" ] && [ $i -lt 400 ]; do sleep 0.05; i=$((i + 1)); done; echo $PPID >"$1.ward"' sh "$BASE/proj/orphan"
check "an orphaned process's parent is ward, and it is served" "$(cat "$BASE/proj/orphan.ward") True" \
	"$(cat "$BASE/proj/orphan")"

# Core dumps stay off: limits 0, 0 from the start; setting 0 again works
# (ssh-agent does), with the old limits written back; raising is refused.
out=$(run -- python3 -c 'import resource as r
print(r.getrlimit(r.RLIMIT_CORE))
r.setrlimit(r.RLIMIT_CORE, (0, 0))
print(r.prlimit(0, r.RLIMIT_CORE, (0, 0)))
try:
    r.setrlimit(r.RLIMIT_CORE, (r.RLIM_INFINITY, r.RLIM_INFINITY))
    print("raised")
except (ValueError, OSError):
    print("refused")' 2>&1)
check "core dumps: limits 0 0, lowering to 0 works, raising is refused" "(0, 0)
(0, 0)
refused" "$out"
has "...and the refusal is logged with its reason" "$L" '"op":"rlimit","decision":"deny","errno":"EPERM","by":"policy","reason":"core dumps stay off'

# ward's controlling terminal, with its fds elsewhere (a background job),
# whose window closes: the next window's pty must not be taken for ward's.
cat >"$BASE/ctty_agent.py" <<'PY'
import os, signal, sys, time
signal.signal(signal.SIGHUP, signal.SIG_IGN)  # its window closes under it
go = sys.argv[1]
open(os.path.join(os.environ["TMPDIR"], "ctty.started"), "w").close()  # (where it may write)
while not os.path.exists(go):
    time.sleep(0.05)
path = open(go).read()
try:
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    os.write(fd, b"[agent on your terminal]")
    print("agent opened", path)
except OSError as e:
    print("agent refused:", e.strerror)
PY
cat >"$BASE/ctty_driver.py" <<'PY'
import os, select, sys, time
ward, agent, d = sys.argv[1:4]
def wait(cond, what):
    end = time.time() + 20
    while not cond():
        if time.time() > end:
            sys.exit("timed out waiting for " + what)
        time.sleep(0.05)
ma, sa = os.openpty()
name_a = os.ttyname(sa)
pid = os.fork()
if pid == 0:
    os.setsid()
    os.close(os.open(os.ttyname(sa), os.O_RDWR))  # window A: ward's controlling terminal
    os.close(sa); os.close(ma)
    out = os.open(d + "/ctty.out", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    null = os.open("/dev/null", os.O_RDWR)
    os.dup2(null, 0); os.dup2(out, 1); os.dup2(out, 2)
    os.execv(ward, [ward, "run", "-q", "--", sys.executable, agent, d + "/go"])
os.close(sa)
wait(lambda: os.path.exists(os.path.join(os.environ["TMPDIR"], "ctty.started")), "the agent to start")
os.close(ma)  # window A closes
# Window B.  (It does not get A's number: ward keeps its terminal open, so
# the kernel keeps the number until ward ends.  Its path is tried anyway.)
mb, sb = os.openpty()
open(d + "/go.tmp", "w").write(os.ttyname(sb)); os.rename(d + "/go.tmp", d + "/go")
os.waitpid(pid, 0)
r, _, _ = select.select([mb], [], [], 0.2)
print("window B shows the agent's text" if r and b"agent" in os.read(mb, 1000) else "window B untouched")
PY
check "ward's closed terminal's number, taken by another window, is not ward's" "window B untouched" \
	"$(python3 "$BASE/ctty_driver.py" "$WARD" "$BASE/ctty_agent.py" "$BASE" 2>&1)"

# Another session's scratch space lies under $TMPDIR too: not this one's to write.
OT=$BASE/othertmp
mkdir -p "$OT/ward-$(id -u)/other" && chmod 700 "$OT/ward-$(id -u)" "$OT/ward-$(id -u)/other"
out=$(TMPDIR=$OT run -- sh -c "echo x >$OT/ward-$(id -u)/other/planted && echo written; echo y >$OT/mine && echo own-tmp-ok" 2>/dev/null)
check "another session's scratch space is refused, the rest of \$TMPDIR is not" "own-tmp-ok" "$out"

# Git hooks and config where git really finds them: core.hooksPath in the
# project (husky's .husky/_), a linked worktree's common directory.
G=$BASE/gitproj
git init -q "$G/main" && git -C "$G/main" config core.hooksPath .husky/_ &&
	git -C "$G/main" -c user.name=a -c user.email=a@a commit -q --allow-empty -m init &&
	git -C "$G/main" worktree add -q "$G/wt" 2>/dev/null
mkdir -p "$G/main/.husky/_"
(cd "$G/main" && run -- sh -c 'echo evil >.husky/_/pre-commit; echo evil >.husky/_/post-merge' 2>/dev/null)
check "core.hooksPath: the agent may not write the hooks there" "no hooks" \
	"$(ls "$G/main/.husky/_" | grep -q . && echo "hooks: $(ls "$G/main/.husky/_")" || echo "no hooks")"
has "...logged as the rule builtin:git" "$L" '"op":"create","path":"[^"]*/\.husky/_/pre-commit","decision":"deny","errno":"EACCES","rule":"builtin:git:1"'
(cd "$G/main" && run -r "allow write,create $G/main/.husky/**" -- sh -c 'echo ok >.husky/_/pre-commit' 2>/dev/null)
check "...a rule of the user's may allow it (builtin:git is a layer before theirs)" "ok" \
	"$(cat "$G/main/.husky/_/pre-commit" 2>/dev/null)"
git init -q "$G/mono" && git -C "$G/mono" config core.hooksPath front/.husky/_ &&
	mkdir -p "$G/mono/front/.husky/_"
(cd "$G/mono/front" && run -- sh -c 'echo evil >.husky/_/pre-push' 2>/dev/null)
check "...also when the project is a directory of the repository (a monorepo's front/)" \
	"no pre-push" "$([ -e "$G/mono/front/.husky/_/pre-push" ] && echo planted || echo "no pre-push")"
# Hook managers: git runs what they name at the user's next commit,
# outside the session, through the hook each installed in .git/hooks
# (husky's .husky/pre-commit, pre-commit's and lefthook's configuration and
# scripts).  Asked by the profile, so denied here (no prompt), and the rest
# of the project stays writable.
H=$G/managers
git init -q "$H" && mkdir -p "$H/.husky" "$H/.config" && echo 'npm test' >"$H/.husky/pre-commit" &&
	printf 'repos: []\n' >"$H/.pre-commit-config.yaml" && printf 'pre-commit:\n' >"$H/lefthook.yml"
before=$(cd "$H" && cat .husky/pre-commit .pre-commit-config.yaml lefthook.yml | sha256sum)
out=$(cd "$H" && run -- sh -c 'echo evil >>.husky/pre-commit; echo evil >.husky/pre-push
	echo evil >>.pre-commit-config.yaml; echo evil >>lefthook.yml; echo evil >.lefthook-local.yml
	mkdir -p .lefthook/pre-commit; echo evil >.lefthook/pre-commit/x.sh; echo evil >.config/lefthook.yml
	rm -f .husky/pre-commit; mv .pre-commit-config.yaml moved.yaml
	echo fine >README && echo written' 2>/dev/null)
check "hook managers: their hooks and configuration are asked about (denied without a prompt)" \
	"$before" "$(cd "$H" && cat .husky/pre-commit .pre-commit-config.yaml lefthook.yml | sha256sum)"
check "...nothing new made there" "none" "$(cd "$H" && ls .husky/pre-push .lefthook-local.yml \
	.lefthook/pre-commit/x.sh .config/lefthook.yml moved.yaml 2>/dev/null | tr '\n' ' ' | grep . || echo none)"
check "...while the rest of the project is written" "written fine" "$out $(cat "$H/README")"
has "...logged as asked by the profile" "$L" \
	'"op":"write","path":"[^"]*/managers/\.husky/pre-commit","decision":"deny","errno":"EACCES","rule":"builtin:default:[0-9]+"'
(cd "$H" && run -r "allow write,create,delete $H/.husky/**" -- sh -c 'echo ok >.husky/pre-commit' 2>/dev/null)
check "...a rule of the user's may allow them" "ok" "$(cat "$H/.husky/pre-commit" 2>/dev/null)"
git init -q "$G/broken" && echo junk >"$G/broken/.git/HEAD"
out=$(cd "$G/broken" && "$WARD" run -q -- true 2>&1)
check "a repository git cannot read (a spoiled HEAD): ward does not start (125)" "125" "$?"
check "...and says why" "ward: git cannot find the hooks and config of the repository at $G/broken/.git (is git installed, is the repository whole?): ward would leave them unguarded" "$out"
rm "$G/broken/.git/HEAD"
(cd "$G/broken" && "$WARD" run -q -- true 2>/dev/null)
check "...nor with its HEAD removed (its config is still there)" "125" "$?"
mkdir -p "$G/empty/.git"
(cd "$G/empty" && "$WARD" run -q -- true)
check "an empty .git is no repository: ward starts" "0" "$?"
before=$(sha256sum <"$G/main/.git/config")
(cd "$G/wt" && TMPDIR=$G run -- sh -c "echo '[core] fsmonitor = evil' >>$G/main/.git/config" 2>/dev/null)
check "a linked worktree: the agent may not write the common directory's config" "$before" \
	"$(sha256sum <"$G/main/.git/config")"

# A repository the agent makes or changes below the project keeps config
# and hooks of its own (core.fsmonitor runs at git status in the project
# once it is committed as a submodule: found by review): told at the end,
# on stderr even with -q, and in session-end.
git init -q "$G/outer"
err=$(cd "$G/outer" && run -- sh -c 'git init -q vendor/lib && git -C vendor/lib config core.fsmonitor "echo x" &&
	echo x >README && mkdir -p docs && echo y >docs/a' 2>&1 >/dev/null)
check "a nested repository the agent made is told on stderr, with its directory" \
	"1 $G/outer/vendor/lib" \
	"$(printf '%s\n' "$err" | grep -c 'made or changed 1 git repository inside the project') $(printf '%s\n' "$err" | sed -n 's/^ward:   //p')"
has "...and in session-end" <(tail -n 1 "$L") "\"event\":\"session-end\".*\"repos\":\[\"$G/outer/vendor/lib\"\]"
err=$(cd "$G/outer" && run -- sh -c 'git init -q "$TMPDIR/stage" && mv "$TMPDIR/stage" vendor/lib2' 2>&1 >/dev/null)
check "...and one it moved into the project, by its new name" "$G/outer/vendor/lib2" \
	"$(printf '%s\n' "$err" | sed -n 's/^ward:   //p')"
err=$(cd "$G/outer" && run -- sh -c 'git init -q --bare store.git && git init -q "$TMPDIR/r2" && ln -s "$TMPDIR/r2" tools' 2>&1 >/dev/null)
check "...and a bare one made in place, and a link to one elsewhere" "$G/outer/store.git $G/outer/tools" \
	"$(printf '%s\n' "$err" | sed -n 's/^ward:   //p' | sort | tr '\n' ' ' | sed 's/ $//')"
err=$(cd "$G/outer" && run -- sh -c 'git init -q "$TMPDIR/deep/a/b/r3" && mv "$TMPDIR/deep" vendor/deep &&
	git init -q "$TMPDIR/far/x/r4" && ln -s "$TMPDIR/far" far' 2>&1 >/dev/null)
check "...and ones deeper in a directory moved in, or behind a link made" \
	"$G/outer/far/x/r4 $G/outer/vendor/deep/a/b/r3" \
	"$(printf '%s\n' "$err" | sed -n 's/^ward:   //p' | sort | tr '\n' ' ' | sed 's/ $//')"
err=$(cd "$G/outer" && run -- sh -c 'echo z >README; git status --short >/dev/null; git add README &&
	git -c user.name=a -c user.email=a@a commit -qm readme' 2>&1 >/dev/null)
check "...not when the agent touched only the project's own repository" "0 none" \
	"$(printf '%s\n' "$err" | grep -c 'git repositor') $(tail -n 1 "$L" | grep -q '"repos"' && echo repos || echo none)"

# What the command leaves running is killed when it exits, before
# session-end, which stays the log's last line (a process left behind went
# on making calls, logged after session-end).
run -- sh -c '(while :; do cat /etc/hostname >/dev/null; done) & sleep 0.2'
check "what the command left running: killed, session-end last" "session-end exit:137" \
	"$(tail -n 1 "$L" | grep -o '"event":"session-end"' | cut -d'"' -f4) $(grep '"event":"exit"' "$L" | grep -c '"status":137' | sed 's/^[1-9][0-9]*$/exit:137/')"

# The symlinks a rule names are followed at load, within bounds: where the
# reading stops short (a ~/.ssh of 4000 links: the read and the write rule),
# ward says so and logs it.
python3 -c 'import os, sys
os.makedirs(sys.argv[1], exist_ok=True)
for i in range(4000): os.symlink("next", os.path.join(sys.argv[1], str(i)))' "$HOME/.ssh/many"
rm -f "$L"
err=$("$WARD" run --log "$L" -- true 2>&1 >/dev/null | grep -c "not all the symlinks named by 2 rules were followed")
check "rules whose links were not all read are said on stderr" "1" "$err"
has "...and in session-start" <(head -n 1 "$L") "\"links_not_followed\":\{\"rules\":2,\"first\":\"builtin:default:9 $HOME/.ssh/\*\*\"\}"
rm -rf "$HOME/.ssh/many"

# ward run from ~: the project holds the home directory, which is said.
out=$(cd "$HOME" && "$WARD" run --log "$BASE/home.jsonl" -- true 2>&1 >/dev/null | grep -c "holds your home directory")
check "a project that holds the home directory is warned of" "1" "$out"
out=$(cd "$HOME" && "$WARD" run -q --log "$BASE/home.jsonl" -- sh -c 'echo k >>.ssh/authorized_keys' 2>&1)
check "...and ~/.ssh is still not the agent's to write (-q: no warning)" "sh: 1: cannot create .ssh/authorized_keys: Permission denied" "$out"

# With the project holding ~, its dot files and directories are not the
# agent's (as for a project below ~): the profile's list of start-up files
# cannot be finished (found by review: ~/.bash_completion, bash-completion's
# directory, ~/.config/user-tmpfiles.d, ~/.zlogout ran code later).
# $TMPDIR in a dot directory stays writable.
mkdir -p "$HOME/.cache/tmp"
out=$(cd "$HOME" && TMPDIR=$HOME/.cache/tmp "$WARD" run -q --log "$L" -- sh -c '
	mkdir -p .config/user-tmpfiles.d 2>/dev/null
	for f in .bash_completion .config/user-tmpfiles.d/x.conf .zlogout .local/share/bash-completion/completions/git notes.txt src/x.c "$TMPDIR/t" .cache/tmp/u; do
		{ mkdir -p "$(dirname "$f")" && echo x >"$f"; } 2>/dev/null && printf "%s " "${f##*/}"; done' 2>&1)
check "project ~: its dot files and directories are not the agent's, the rest and \$TMPDIR are" "notes.txt x.c t u " "$out"
has "...logged as the rule builtin:home" "$L" '"op":"create","path":"[^"]*/home/\.bash_completion","decision":"deny","errno":"EACCES","rule":"builtin:home:1"'
out=$(cd "$HOME" && "$WARD" run -q --log "$L" -r "allow write,create $HOME/.bash_completion" -- sh -c 'echo ok >.bash_completion && cat .bash_completion' 2>&1)
check "...a rule of the user's may allow one" "ok" "$out"
out=$(cd "$HOME" && TMPDIR=$HOME/.cache/tmp "$WARD" explain create "$HOME/.cache/tmp/.git" 2>&1 | awk '{print $1}')
check "...and no .git at the top of a \$TMPDIR that lies in one" "deny" "$out"
# A link the agent left where it could make one (~/snap/firefox, a deny read
# it may write below with the project ~) to /: the next session fails closed,
# and ward names the link.
out=$(cd "$HOME" && "$WARD" run -q --log "$L" -- sh -c 'mkdir -p snap/firefox && ln -s / snap/firefox/root && echo made' 2>&1)
err=$(cd "$HOME" && "$WARD" run --log "$L" -- cat /etc/hostname 2>&1 >/dev/null)
check "a link to / left below a deny read: the next session fails closed and names it" \
	"made 1 1" "$out $(printf '%s\n' "$err" | grep -c "libc.so.6: cannot open") $(printf '%s\n' "$err" | grep -c "the symlink $HOME/snap/firefox/root makes builtin:default:16 hold /\*\*")"
rm -rf "$HOME/snap"
# $HOME a symlink (/home -> /var/home): the project is a real path, so is home.
ln -sfn "$HOME" "$BASE/homelink"
out=$(cd "$HOME" && HOME=$BASE/homelink "$WARD" run -q --log "$L" -- sh -c '{ echo x >.bash_completion; } 2>/dev/null || echo refused' 2>&1)
check "...also when \$HOME is a symlink to the project" "refused" "$out"
rm -f "$HOME/.bash_completion" "$HOME/notes.txt"; rm -rf "$HOME/src" "$HOME/.cache/tmp"

# The directories of $PATH the agent could write: a program planted there
# runs at the user's next command of that name (found by review: ~/bin/ls,
# with the project holding the home directory).  Asked, which without
# prompting refuses; the project's own directories when it lies below ~ are
# not (node_modules/.bin), nor is the rest of the project or $TMPDIR.
mkdir -p "$HOME/tools/bin" "$BASE/tmp/tools" "$BASE/tmp/real" "$HOME/src/app/node_modules/.bin"
ln -sfn "$BASE/tmp/real" "$BASE/tmp/linked"
pathdirs="$HOME/tools/bin:$BASE/tmp/tools:$BASE/tmp/linked:$HOME/src/app/node_modules/.bin"
out=$(cd "$HOME" && PATH=$pathdirs:$PATH "$WARD" run -q --log "$L" -- sh -c '
	for f in tools/bin/ls "$TMPDIR/tools/git" "$TMPDIR/real/make" src/app/node_modules/.bin/tsc notes.txt "$TMPDIR/other"; do
		{ echo evil >"$f"; } 2>/dev/null && printf "%s " "${f##*/}"; done' 2>&1)
check "PATH directories are not the agent's to write, by name or real path (project ~: its node_modules/.bin too)" "notes.txt other " "$out"
has "...logged as asked by builtin:path" "$L" '"op":"create","path":"[^"]*/tools/bin/ls","decision":"deny","errno":"EACCES","rule":"builtin:path:1"'
out=$(cd "$HOME/src/app" && PATH=$pathdirs:$PATH "$WARD" run -q --log "$L" -- sh -c '
	for f in node_modules/.bin/vite "$HOME/tools/bin/cat" "$TMPDIR/tools/cc"; do
		{ echo evil >"$f"; } 2>/dev/null && printf "%s " "${f##*/}"; done' 2>&1)
check "...a project below ~ builds in its own PATH directories, not in the others" "vite " "$out"
out=$(cd "$HOME" && PATH=$pathdirs:$PATH "$WARD" run -q --log "$L" -r "allow create $HOME/tools/bin/**" -- sh -c '
	echo ok >tools/bin/mytool && cat tools/bin/mytool' 2>&1)
check "...a rule of the user's may allow it (builtin:path is a layer before theirs)" "ok" "$out"
out=$(cd "$HOME" && PATH=$pathdirs:$PATH "$WARD" check 2>&1 | tr -s ' ' | grep -c "^ask write,create,delete $BASE/tmp/real/\*\* # builtin:path:")
check "...ward check lists the real path of a symlinked PATH entry" "1" "$out"

# A name not there yet with rules below it, made a symlink to the agent's
# own directory: with ~ the project, a rule letting the agent manage the
# dot files, and no ~/.config, ~/.config -> .xdg took ~/.config/ward/policy
# (ward's user policy) out of ward's deny!, and the next session loaded the
# agent's policy (found by review).  ~/.local, where the rule allows all
# alike, may be a link.
H2=$BASE/fresh
mkdir -p "$H2"
out=$(cd "$H2" && HOME=$H2 XDG_CONFIG_HOME=$H2/.config "$WARD" run -q --log "$L" \
	-r "allow write,create,delete $H2/.* $H2/.*/**" -- sh -c '
	mkdir -p .xdg/ward .loc; ln -s .xdg .config 2>/dev/null || echo refused-config
	ln -s .loc .local 2>/dev/null && echo local-ok; mkdir .config
	ln -s ../.xdg/ward .config/ward 2>/dev/null || echo refused-ward
	{ echo "allow write,create,delete /**" >.config/ward/policy; } 2>/dev/null || echo refused-write
	ln -s .xdg notes && echo plain-link-ok' 2>&1)
check "a symlink made where rules guard what is below its name is refused" \
	"$(printf 'refused-config\nlocal-ok\nrefused-ward\nrefused-write\nplain-link-ok')" "$out"
has "...logged with the reason" "$L" '"syscall":"symlinkat","op":"create","path":"[^"]*/fresh/\.config","decision":"deny","errno":"EACCES","by":"policy","reason":"a symlink here would take'
check "...and the next session has no user policy of the agent's" "" \
	"$(cd "$H2" && HOME=$H2 XDG_CONFIG_HOME=$H2/.config "$WARD" check 2>&1 | grep '^# layer user')"

# A repository the agent makes where git will look: the project itself as
# a bare repository once .git is spoiled (its HEAD moved away), or a .git
# in a directory above the project; either's config runs code at the
# user's next git command (core.fsmonitor).  No HEAD is made there, nor a
# .git above (found by review).
git init -q "$G/bare"
(cd "$G/bare" && TMPDIR=$G run -- sh -c 'mv .git/HEAD .git/HEAD.old; mkdir objects refs
	echo "ref: refs/heads/master" >HEAD
	printf "[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = \"echo ran >%s/fsmon; false\"\n" "$PWD" >config' 2>/dev/null)
(cd "$G/bare" && git status >/dev/null 2>&1)
check "the project made a bare repository: no HEAD, and git runs nothing of the agent's" \
	"no HEAD, fsmonitor not run" \
	"$([ -e "$G/bare/HEAD" ] && echo HEAD || echo "no HEAD"), $([ -e "$G/bare/fsmon" ] && echo "fsmonitor ran" || echo "fsmonitor not run")"
has "...logged as the rule builtin:git" "$L" '"op":"create","path":"[^"]*/bare/HEAD","decision":"deny","errno":"EACCES","rule":"builtin:git:[0-9]+"'
git init -q --bare "$G/bareproj"
before=$(sha256sum <"$G/bareproj/config")
(cd "$G/bareproj" && run -- sh -c 'echo "[core] pager = evil" >>config; echo evil >hooks/post-update' 2>/dev/null)
check "a project that is a bare repository: its config and hooks are protected" "same, no hook" \
	"$([ "$(sha256sum <"$G/bareproj/config")" = "$before" ] && echo same || echo changed), $([ -e "$G/bareproj/hooks/post-update" ] && echo hook || echo "no hook")"
mkdir -p "$G/up/proj"
(cd "$G/up/proj" && TMPDIR=$G run -- sh -c 'mkdir ../.git; echo "ref: refs/heads/master" >../HEAD' 2>/dev/null)
check "...nor a .git or HEAD in a directory above the project" "neither" \
	"$([ -e "$G/up/.git" ] || [ -e "$G/up/HEAD" ] && echo planted || echo neither)"

# Terminals: the session's own (ward's, and a pty it opens) are the
# agent's; another window's are not (attack_tty).
if command -v script >/dev/null; then
	# (The terminal may echo what script writes at the end, "^@": lines are looked for.)
	out=$(script -qec "$WARD run -q -- sh -c 'echo mine >\$(tty) && : <\$(tty) && echo own-tty-ok'" /dev/null </dev/null 2>&1 | tr -d '\r' | grep -E '^(mine|own-tty-ok)$')
	check "the terminal ward runs on opens for reading and writing" "mine
own-tty-ok" "$out"
	out=$(script -qec "$WARD run -q -- script -qec 'tty >/dev/null && echo inner-ok' /dev/null" /dev/null </dev/null 2>&1 | tr -d '\r' | grep -oE 'inner-ok$')
	check "a pty the agent makes (script inside the session) works" "inner-ok" "$out"
	out=$(script -qec "$WARD run -q -- python3 -c 'import os; os.close(os.open(\"/dev/tty\", os.O_RDWR)); print(\"ctty-ok\")'" /dev/null </dev/null 2>&1 | tr -d '\r' | grep -oE 'ctty-ok$')
	check "/dev/tty opens on ward's own terminal" "ctty-ok" "$out"
	check "/dev/tty without a controlling terminal: ENXIO, as natively" "No such device or address" \
		"$(setsid -w "$WARD" run -q -- python3 -c 'import os
try:
    os.open("/dev/tty", os.O_RDWR)
    print("opened")
except OSError as e:
    print(e.strerror)' </dev/null 2>&1)"
else
	skip "terminals" "needs script (util-linux)"
fi





summary
