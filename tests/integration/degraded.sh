#!/bin/bash
# degraded.sh BUILD_DIR - ward run --degraded (supervisor/degraded.c): the
# calls reach ward through ptrace, and the fds the agent's own kernel opens
# by the names ward copied into its page.  Here: the page cannot be changed
# by the agent; what is denied stays denied; what is allowed behaves as
# natively (a file written and read, O_TMPFILE, a FIFO between two
# processes, bash's /dev/fd of a pipe, O_PATH); an open whose name changed
# between ward's decision and the agent's kernel's open kills the process
# (tests/progs/degraded_swap); the session-start event and
# stderr say what degraded mode cannot promise; --degraded=auto takes it
# only where user notification is missing (masked here), a plain run then
# refuses naming --degraded; a signal storm gives the results it gives
# natively; under another seccomp listener (tests/progs/listener, a
# container runtime's stand-in) --degraded stops at every call's entry and
# enforces the policy on the calls that listener takes too; and ward inside
# ward refuses (the outer ward lets no process trace).  The progs, attack and network suites
# run degraded too (make degraded).  About 20 s.
set -u
. "$(dirname "$0")/lib.sh"

BUILD=$(cd "${1:?usage: degraded.sh BUILD_DIR}" && pwd -P) || bail "no build directory $1"
WARD=$BUILD/ward
PAGE=$BUILD/tests/progs/degraded_page
STORM=$BUILD/tests/progs/sigstorm
[ -x "$WARD" ] && [ -x "$PAGE" ] && [ -x "$STORM" ] || bail "needs $WARD, $PAGE and $STORM"
REGION=$(sed -n 's/^#define DEGRADED_REGION \(0x[0-9a-f]*\)ull$/\1/p' \
	"$(dirname "$0")/../../supervisor/degraded.h")
[ -n "$REGION" ] || bail "no DEGRADED_REGION in supervisor/degraded.h"
hdr() { sed -n "s/^#define $1 \([0-9]*\)u.*/\1/p" "$(dirname "$0")/../../supervisor/degraded.h"; }
SIZE=$(($(hdr DEGRADED_SLOT) * $(hdr DEGRADED_RING) * $(hdr DEGRADED_THREADS)))
[ "$SIZE" -gt 0 ] || bail "no page size in supervisor/degraded.h"

make_base degraded
hermetic "$BASE"
close_fds
unset WARD_KERNEL_FEATURES WARD_DEGRADED
ward_probe "$WARD"
cd "$BASE" || bail "cd $BASE"

dg() { env -i "${ENVV[@]}" timeout 120 "$WARD" run -q --degraded "$@"; }

# ---- the page ----
natively=$("$PAGE" "$REGION" "$SIZE" | head -n 1)
check "natively there is no page at $REGION (the attempts below are ward's to refuse)" \
	"mapped no" "$natively"
for kind in "" -static; do
	out=$(dg --log "$BASE/page$kind.jsonl" -- "$PAGE$kind" "$REGION" "$SIZE" 2>&1)
	check "the page$kind: mapped, and every way to change it refused" "mapped yes
mprotect EPERM
mprotect-around EPERM
pkey_mprotect EPERM
munmap EPERM
madvise-dontneed EPERM
mmap-fixed EPERM
mmap-fixed-below EPERM
mremap-away EPERM
mremap-onto EPERM
shmat-remap EPERM
proc-self-mem EACCES
process_vm_writev EPERM
userfaultfd EPERM
process_madvise-dontneed EPERM
process_madvise-cold ok
clone-files EPERM
mapped-after yes
mprotect-last EPERM
mprotect-after ENOMEM" "$out"
	check "...each refusal of a change to the page logged$kind" 12 \
		"$(grep -c "would change ward's page" "$BASE/page$kind.jsonl")"
done

# ---- decisions and transparency ----
mkdir -p "$BASE/w"
echo secret >"$BASE/w/secret"
echo plain >"$BASE/w/plain"
out=$(cd "$BASE/w" && dg --log "$BASE/d.jsonl" -r "deny read $BASE/w/secret" -- bash -c '
	cat secret 2>/dev/null; echo "secret: $?"
	ln -s secret link; cat link 2>/dev/null; echo "link: $?"
	cat plain
	echo written >new; cat new
	cat <(echo from-a-pipe)
	mkfifo fifo; (echo through-the-fifo >fifo &); cat fifo
	python3 -c "import os; fd = os.open(\".\", os.O_TMPFILE | os.O_RDWR, 0o600); os.write(fd, b\"t\"); os.lseek(fd, 0, 0); print(\"tmpfile:\", os.read(fd, 1).decode())"
	python3 -c "import os; fd = os.open(\"plain\", os.O_PATH); print(\"opath:\", os.stat(fd).st_size)"
' 2>&1)
check "denied stays denied, by name and through a symlink; allowed behaves as natively" \
	"secret: 1
link: 1
plain
written
from-a-pipe
through-the-fifo
tmpfile: t
opath: 6" "$out"
check "...the denials logged" 2 "$(grep -c '"path":"[^"]*/w/secret","decision":"deny"' "$BASE/d.jsonl")"
check_match "session-start says degraded, with what it cannot promise" \
	'*"degraded":{"stops":"seccomp","limits":\["an open is performed by the agent'"'"'s kernel*' \
	"$(head -n 1 "$BASE/d.jsonl")"
out=$(env -i "${ENVV[@]}" "$WARD" run --degraded -- true 2>&1)
check_match "stderr says degraded, and each limit" \
	"*ward: --degraded: enforcement by ptrace*ward:   - an open is performed*ward:   - a pipe or deleted file*" "$out"

# ---- an object without a name, reopened while another thread swaps its fd ----
FDSWAP=$BUILD/tests/progs/degraded_fdswap
[ -x "$FDSWAP" ] || bail "needs $FDSWAP"
echo 'TOPSECRET: the key is 42' >"$BASE/w/topsecret"
out=$("$FDSWAP" "$BASE/w/topsecret" 1 | head -n 1)
check "natively the secret opens (so the attack below has something to take)" \
	"direct open of the secret: OPENED" "$out"
for how in seccomp entry; do
	mode=(WARD_DEGRADED=1)
	[ "$how" = entry ] && mode=(WARD_DEGRADED=entry)
	out=$(env -i "${ENVV[@]}" "${mode[@]}" timeout 120 "$WARD" run -q \
		-r "deny read $BASE/w/topsecret" -- "$FDSWAP" "$BASE/w/topsecret" 5 2>&1)
	check_match "[$how stops] /proc/self/fd/N of a pipe while N is swapped for the secret: never the secret" \
		"direct open of the secret: Permission denied
opens * ok * (secret among them 0) eacces * other *
sibling thread read the secret: no
signal handler kept an fd: no" "$out"
done

# ---- a name changed between the decision and the agent's kernel's open ----
SWAP=$BUILD/tests/progs/degraded_swap
[ -x "$SWAP" ] || bail "needs $SWAP"
mkdir -p "$BASE/sw/a" "$BASE/sw/b"
echo A >"$BASE/sw/a/x"
echo B >"$BASE/sw/b/x"
out=$("$SWAP" "$BASE/sw" 2)
check_match "natively no open of a/x fails while a and b are exchanged" "opens * eacces 0 other 0 leaked 0" "$out"
# Without PTRACE_GET_SYSCALL_INFO (before 5.3, masked) the exit of ward's open is told by rax.
for how in seccomp entry no-syscall-info; do
	mode=(WARD_DEGRADED=1)
	[ "$how" = entry ] && mode=(WARD_DEGRADED=entry)
	[ "$how" = no-syscall-info ] && mode=(WARD_DEGRADED=1 WARD_KERNEL_FEATURES=-ptrace_syscall_info)
	out=$(env -i "${ENVV[@]}" "${mode[@]}" timeout 120 "$WARD" run -q \
		--log "$BASE/swap-$how.jsonl" -- "$SWAP" "$BASE/sw" 60 2>&1)
	st=$?
	check "[$how stops] ...as session-start says" 1 \
		"$(head -n 1 "$BASE/swap-$how.jsonl" | grep -c "\"stops\":\"${how/no-syscall-info/seccomp}\"")"
	# The fd is in the process's table when the check fails: the process is killed, not answered.
	check "[$how stops] an open that reached the other x: the process killed (SIGKILL), nothing printed" \
		"137 " "$st $out"
	check "[$how stops] ...the mismatch and the kill logged" "1 1" \
		"$(grep -c "not what ward decided on" "$BASE/swap-$how.jsonl") $(grep -c '"decision":"kill","reason":"--degraded: its open reached another object' "$BASE/swap-$how.jsonl")"
done

# ---- without openat2: a directory on the way swapped for a symlink, other threads reading ----
# The agent's kernel opens ward's object by openat with O_NOFOLLOW, which
# follows a directory that became a symlink since ward's decision: the
# check at the exit kills the process, and no other thread of it may run
# before that check (degraded.c stops them: without that, every run here
# leaked the secret).
SYMSWAP=$BUILD/tests/progs/degraded_symswap
[ -x "$SYMSWAP" ] || bail "needs $SYMSWAP"
mkdir -p "$BASE/ss/d" "$BASE/sec"
echo public >"$BASE/ss/d/x"
echo 'TOPSECRET: behind the symlink' >"$BASE/sec/x"
ln -s "$BASE/sec" "$BASE/ss/l"
out=$("$SYMSWAP" "$BASE/ss" 1)
check_match "natively the swapped open reaches the secret, and another thread reads it" \
	"LEAKED: TOPSECRET: behind the symlink*opens * reached *" "$(tr '\n' ' ' <<<"$out")"
for how in seccomp entry; do
	mode=(WARD_DEGRADED=1)
	[ "$how" = entry ] && mode=(WARD_DEGRADED=entry)
	leaks=0 kills=0 logged=0
	for i in $(seq 1 20); do
		out=$(env -i "${ENVV[@]}" "${mode[@]}" WARD_KERNEL_FEATURES=-openat2 timeout 120 "$WARD" run -q \
			--log "$BASE/ss-$how.jsonl" -r "deny read $BASE/sec/x" -- "$SYMSWAP" "$BASE/ss" 10 2>&1)
		st=$?
		grep -q LEAKED <<<"$out" && leaks=$((leaks + 1))
		[ "$st" = 137 ] && kills=$((kills + 1))
		grep -q '"decision":"kill","reason":"--degraded: its open reached another object' \
			"$BASE/ss-$how.jsonl" && logged=$((logged + 1))
	done
	check "[$how stops, no openat2] 20 runs: no other thread ever read the secret" 0 "$leaks"
	check "[$how stops, no openat2] ...each run's swapped open caught: killed, and logged" "20 20" \
		"$kills $logged"
done

# An open waits for the other threads to stop; a vfork's parent cannot until its
# child is gone: after 5 seconds the open is refused (EAGAIN, logged), not held for ever.
VFORKWAIT=$BUILD/tests/progs/degraded_vforkwait
[ -x "$VFORKWAIT" ] || bail "needs $VFORKWAIT"
check "natively a thread's open is made while the main thread waits in vfork" \
	"open: ok after 0 s" "$("$VFORKWAIT" "$BASE/w/plain")"
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-openat2 timeout 60 "$WARD" run -q --degraded \
	--log "$BASE/vforkwait.jsonl" -- "$VFORKWAIT" "$BASE/w/plain" 2>&1)
check_match "no openat2: that open refused after 5 s (EAGAIN), and logged" \
	"open: Resource temporarily unavailable after * s 1" \
	"$out $(grep -c "other threads could not be stopped for its open" "$BASE/vforkwait.jsonl")"

# Without openat2 a FIFO's open that waits for its other end waits in ward
# first, then the call is made again: one call, one decision, one line each.
mkdir -p "$BASE/ff"
out=$(cd "$BASE/ff" && env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-openat2 timeout 60 "$WARD" run -q \
	--degraded --log "$BASE/fifo.jsonl" -- bash -c 'mkfifo fifo; (echo through >fifo &); cat fifo' 2>&1)
check "no openat2: a FIFO's reader and writer meet, each open logged once" "through 1 1" \
	"$out $(grep -c '"op":"read","path":"[^"]*/ff/fifo"' "$BASE/fifo.jsonl") $(grep -c '"op":"write","path":"[^"]*/ff/fifo"' "$BASE/fifo.jsonl")"

# Without openat2 an O_TMPFILE could be made in a directory swapped in since the
# decision, which nothing at the exit can tell (a review's finding): refused as
# by a filesystem without it; tempfile falls back to a named file, decided.
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-openat2 "$WARD" run -q --degraded -- python3 -c '
import os, tempfile
try:
    os.open(".", os.O_TMPFILE | os.O_RDWR, 0o600)
    print("made")
except OSError as e:
    print(e.strerror)
with tempfile.TemporaryFile(dir=".") as f:
    f.write(b"x"); f.seek(0); print(f.read())' 2>&1)
check "no openat2: O_TMPFILE refused (EOPNOTSUPP), tempfile falls back and works" \
	"Operation not supported
b'x'" "$out"

# ---- without pidfd_getfd: the agent's kernel sends its fds to ward (degraded.c's fetch) ----
# A process outside the session floods ward's socket with fds of its own (a
# pipe's) while the agent connects 50 sockets: ward keeps only the very
# socket asked for (kcmp), so each connect is of the right socket (the
# listener's peer is the client's own address).  A thread of the agent's
# tries the same: never let through, even where a policy allows every
# abstract name (ward's own socket is not the agent's to reach).
cat >"$BASE/flood.py" <<'PY'
import socket, os, array, threading, time, sys
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(64)
def one():
    c = socket.socket(); c.connect(srv.getsockname()); a, peer = srv.accept()
    ok = peer == c.getsockname(); c.close(); a.close(); return ok
first = one()
# Given a file: the flood from outside has reached ward's socket once it is there.
for _ in range(2000 if len(sys.argv) > 1 else 0):
    if os.path.exists(sys.argv[1]):
        break
    time.sleep(0.01)
names = [l.split()[-1] for l in open("/proc/net/unix") if "@ward-fetch-" in l]
r, w = os.pipe()
stop, sent = False, 0
def flood():
    global sent
    f = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    while not stop:
        for n in names:
            try:
                f.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [w, r]))], 0, "\0" + n[1:])
                sent += 1
            except OSError:
                time.sleep(0.001)
t = threading.Thread(target=flood); t.start()
oks = sum(one() for _ in range(50))
stop = True; t.join()
print("ward's socket", len(names), "first", first, "right", oks, "flooded", sent > 0)
PY
# The flood from outside: every ward's fetch socket it finds, until told to stop.
cat >"$BASE/flood-out.py" <<'PY'
import socket, os, array, sys, time
stopfile, countfile, began = sys.argv[1], sys.argv[2], sys.argv[3]
r, w = os.pipe()
f = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
sent = 0
while not os.path.exists(stopfile):
    names = [l.split()[-1] for l in open("/proc/net/unix") if "@ward-fetch-" in l]
    for n in names:
        try:
            f.sendmsg([b"x"], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [w, r]))], 0, "\0" + n[1:])
            sent += 1
            if sent == 1:
                open(began, "w").close()
        except OSError:
            pass
    time.sleep(0.0005)
open(countfile, "w").write(str(sent))
PY
for how in seccomp entry; do
	mode=(WARD_DEGRADED=1)
	[ "$how" = entry ] && mode=(WARD_DEGRADED=entry)
	rm -f "$BASE/flood-stop" "$BASE/flood-count" "$BASE/flood-began"
	python3 "$BASE/flood-out.py" "$BASE/flood-stop" "$BASE/flood-count" "$BASE/flood-began" &
	flooder=$!
	out=$(env -i "${ENVV[@]}" "${mode[@]}" WARD_KERNEL_FEATURES=-pidfd_getfd timeout 120 "$WARD" run -q \
		--log "$BASE/flood-$how.jsonl" -r "allow connect unix-abstract:*" -- python3 "$BASE/flood.py" "$BASE/flood-began" 2>&1)
	touch "$BASE/flood-stop"
	wait "$flooder"
	check "[$how stops, no pidfd_getfd] sockets fetched from the agent under a flood of forged fds from outside: each connect the right one; the agent's own sends to ward's socket refused though a policy allows unix-abstract:*" \
		"ward's socket 1 first True right 50 flooded False" "$out"
	check "...the flood from outside reached ward's socket" 1 "$([ "$(cat "$BASE/flood-count")" -gt 0 ] && echo 1)"
	check "...the agent's sends there logged as refused" 1 \
		"$(grep -c "ward's own socket (--degraded's fetch)" "$BASE/flood-$how.jsonl" | sed 's/^[1-9][0-9]*$/1/')"
done
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-pidfd_getfd "$WARD" run -q --degraded \
	--log "$BASE/flood-deny.jsonl" -- python3 "$BASE/flood.py" 2>&1)
check "...under the default policy the agent cannot send there at all" \
	"ward's socket 1 first True right 50 flooded False" "$out"

# The review's attack on the fetch: a thread's own sendmsg slipped in between
# ward's calls (degraded_hijack).  ward's calls are made from its page now.
HIJACK=$BUILD/tests/progs/degraded_hijack
[ -x "$HIJACK" ] || bail "needs $HIJACK"
for how in seccomp entry; do
	mode=(WARD_DEGRADED=1)
	[ "$how" = entry ] && mode=(WARD_DEGRADED=entry)
	bad=0
	for i in 1 2 3 4 5 6 7 8; do
		out=$(env -i "${ENVV[@]}" "${mode[@]}" WARD_KERNEL_FEATURES=-pidfd_getfd timeout 60 "$WARD" run -q \
			-r "deny connect 127.0.0.0/8" -r "allow connect 192.0.2.0/24" -- "$HIJACK" 2>&1)
		grep -q 'PWNED\|hijacked=1' <<<"$out" && bad=$((bad + 1))
	done
	check "[$how stops, no pidfd_getfd] 8 runs: no call of the agent's own slipped in between ward's" 0 "$bad"
done
# The copies ward took die with the call: a socket the agent closes is closed
# (a peer sees the end); an SCM_RIGHTS message of 253 fds goes through; another
# thread's exec in the middle of a fetch is an exec, not a kill.
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-pidfd_getfd timeout 60 "$WARD" run -q --degraded \
	--log "$BASE/fetch-more.jsonl" -- python3 -c '
import socket, os, threading, time
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
c = socket.socket(); c.connect(srv.getsockname()); c.sendall(b"hello"); c.close()
s, _ = srv.accept(); s.settimeout(5); data = b""
while True:
    d = s.recv(100)
    if not d: break
    data += d
print("end seen after", data, flush=True)
a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM)
fds = [os.open("/dev/null", os.O_RDONLY) for _ in range(253)]
socket.send_fds(a, [b"x"], fds)
print("fds", len(socket.recv_fds(b, 10, 253)[1]), flush=True)
def ex():
    time.sleep(0.05)
    os.execv("/bin/echo", ["/bin/echo", "exec ok"])
threading.Thread(target=ex).start()
while True:
    u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try: u.connect(("127.0.0.1", 9))
    except OSError: pass
    u.close()' 2>&1)
check "no pidfd_getfd: a closed socket ends, 253 fds pass, an exec mid-fetch execs (not killed)" \
	"end seen after b'hello'
fds 253
exec ok 0" "$out $(grep -c '"decision":"kill"' "$BASE/fetch-more.jsonl")"

# ---- as nobody: a file made read-only, written through the open that made it ----
# (git makes its objects so.)  The creating open is not checked against the
# mode natively; under --degraded the agent's kernel opens the file ward made.
if nobody_ready; then
	NB=$BASE/nb
	stage "$NB/bin" "$WARD"
	mkdir -p "$NB/home" "$NB/run" "$NB/w"
	chmod 700 "$NB/run"
	chown -R "$NB_UID:$NB_GID" "$NB/home" "$NB/run" "$NB/w"
	out=$(cd "$NB/w" && as_nobody env -i HOME="$NB/home" XDG_RUNTIME_DIR="$NB/run" \
		TMPDIR="$NB/home" PATH=/usr/bin:/bin timeout 120 "$NB/bin/ward" run -q --degraded -- \
		python3 -c 'import os; fd = os.open("ro", os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o444); print(os.write(fd, b"x"), "%o" % os.stat("ro").st_mode)' 2>&1)
	check "as nobody: made 0444 with O_WRONLY, written through that fd, 0444 after" "1 100444" "$out"
else
	skip "as nobody: a file made read-only, written through the open that made it" "$NB_WHY"
fi

# ---- O_PATH|O_TRUNC of a file the policy keeps from writing (the second review's N1) ----
# O_PATH ignores O_TRUNC and is decided as stat and read; O_PATH opens are
# supervised where the policy restricts stat.
printf 'precious content\n' >"$BASE/w/precious"
out=$(cd "$BASE/w" && env -i "${ENVV[@]}" timeout 60 "$WARD" run -q --degraded \
	-r "deny write $BASE/w/precious" -r "deny stat $BASE/w/nothing/**" -- \
	python3 -c 'import os; fd = os.open("precious", os.O_PATH | os.O_TRUNC); print("opened", os.path.getsize("precious"))' 2>&1)
check "O_PATH|O_TRUNC of a write-denied file: opened, not truncated" "opened 17" "$out"

# ---- a question, answered from another window ----
ask_pending() { env -i "${ENVV[@]}" "$WARD" approve --list 2>/dev/null | grep -q "read $BASE/w/secret"; }
(cd "$BASE/w" && env -i "${ENVV[@]}" timeout 120 "$WARD" run -q --degraded --ask approve \
	-r "ask read $BASE/w/secret" -- sh -c 'cat secret; echo "status $?"' >"$BASE/ask.out" 2>&1) &
asker=$!
wait_for 60 ask_pending
env -i "${ENVV[@]}" "$WARD" approve --answer 1 once >/dev/null 2>&1
wait "$asker"
check "a question under --degraded: ward approve answers it, the read goes through" "secret
status 0" "$(cat "$BASE/ask.out")"

# ---- an answer for a call that is gone (an exec from another thread killed its caller) ----
STALE=$BUILD/tests/progs/degraded_stale
[ -x "$STALE" ] || bail "needs $STALE"
rm -f "$BASE/go"
(cd "$BASE/w" && env -i "${ENVV[@]}" timeout 120 "$WARD" run -q --degraded --ask approve \
	-r "ask read $BASE/w/topsecret" -r "ask exec /usr/bin/true" -- \
	"$STALE" "$BASE/go" "$BASE/w/topsecret" >"$BASE/stale.out" 2>&1) &
staler=$!
pending_has() { env -i "${ENVV[@]}" "$WARD" approve --list 2>/dev/null | grep -qF "$1"; }
wait_for 60 pending_has "exec /usr/bin/true"
: >"$BASE/go"
wait_for 60 pending_has "read $BASE/w/topsecret"
# The leader's exec, answered now, is of a call that is gone; the new image's open keeps its own.
env -i "${ENVV[@]}" "$WARD" approve --answer 1 once >/dev/null 2>&1
n=$(env -i "${ENVV[@]}" "$WARD" approve --list --json 2>/dev/null | tr -d ' \n' |
	grep -o '"n":[0-9]*,"op":"read"' | grep -o '[0-9]*' | head -n 1)
env -i "${ENVV[@]}" "$WARD" approve --answer "${n:-2}" deny >/dev/null 2>&1
wait "$staler"
check "an exec's answer after its caller was killed by another thread's exec: not the new image's" \
	"open: Permission denied" "$(cat "$BASE/stale.out")"

# ---- when ward takes it ----
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-user_notif "$WARD" run -q -- true 2>&1)
st=$?
check "no user notification (masked), no --degraded: 125" 125 "$st"
check_match "...the message names --degraded" "*not available*--degraded runs with enforcement by ptrace*" "$out"
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-user_notif "$WARD" doctor 2>&1)
st=$?
check "ward doctor without user notification: 1, and says --degraded runs" \
	"1 ward can run here with --degraded (enforcement by ptrace, with the limits docs/degraded.md lists)." \
	"$st $(tail -n 1 <<<"$out")"
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-user_notif "$WARD" run --degraded=auto \
	--log "$BASE/auto.jsonl" -- cat "$BASE/w/plain" 2>&1)
st=$?
check "--degraded=auto without user notification: degraded, and it runs" "0 plain" \
	"$st $(grep -v '^ward:' <<<"$out")"
check "...session-start says so" 1 "$(head -n 1 "$BASE/auto.jsonl" | grep -c '"degraded":{')"
# Before 5.6 (openat2 masked): a plain run refuses naming --degraded, which walks instead.
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-openat2 "$WARD" run -q -- true 2>&1)
st=$?
check "no openat2 (masked), no --degraded: 125" 125 "$st"
check_match "...the message names openat2 and --degraded" "*lacks openat2*--degraded runs*" "$out"
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-openat2 "$WARD" doctor 2>&1)
check "ward doctor without openat2: says --degraded runs" \
	"ward can run here with --degraded (enforcement by ptrace, with the limits docs/degraded.md lists)." \
	"$(tail -n 1 <<<"$out")"
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-openat2 "$WARD" run --degraded=auto \
	--log "$BASE/auto3.jsonl" -r "deny read $BASE/w/secret" -- sh -c 'cat "$1"; cat "$2"' sh "$BASE/w/plain" "$BASE/w/secret" 2>&1)
st=$?
check "--degraded=auto without openat2: degraded, allowed read, denied refused" \
	"1 plain cat: $BASE/w/secret: Permission denied" "$st $(grep -v '^ward:' <<<"$out" | tr '\n' ' ' | sed 's/ $//')"
check "...session-start says degraded, and names the limit of a kernel without openat2" "1 1" \
	"$(head -n 1 "$BASE/auto3.jsonl" | grep -c '"degraded":{') $(head -n 1 "$BASE/auto3.jsonl" | grep -c '"without openat2 (before Linux 5.6')"
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-user_notif,-bogus "$WARD" run -q --degraded -- true 2>&1)
st=$?
check_match "a mask ward does not know, with --degraded: 125 naming it (not run degraded regardless)" \
	"125 *'bogus' is no feature ward can mask*" "$st $out"
env -i "${ENVV[@]}" "$WARD" run -q --degraded=auto --log "$BASE/auto2.jsonl" -- true
check "--degraded=auto with user notification: not degraded" 0 \
	"$(head -n 1 "$BASE/auto2.jsonl" | grep -c '"degraded":{')"

# ---- signals while ward decides ----
# Without pidfd_getfd each connect and send first has the agent's kernel send
# ward the socket, with the storm's signals held back meanwhile (degraded.c).
for mask in "" -pidfd_getfd; do
	for mode in restart retry; do
		mkdir -p "$BASE/storm-$mode$mask"
		out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES="$mask" timeout 120 "$WARD" run -q --degraded \
			-- "$STORM" "$BASE/storm-$mode$mask" 200 "$mode" 200 2>&1)
		st=$?
		if [ "$st" = 0 ] && grep -q '^ok 200 iterations' <<<"$out"; then
			pass "sigstorm $mode under --degraded${mask:+ ($mask)}: results as natively"
		else
			fail "sigstorm $mode under --degraded${mask:+ ($mask)}: results as natively" "status $st" \
				"$(grep -v interrupted <<<"$out" | tail -n 10)"
		fi
	done
done

# ---- under another listener (a container runtime's): every call's entry stop ----
LISTENER=$BUILD/tests/progs/listener
[ -x "$LISTENER" ] || bail "needs $LISTENER"
out=$(env -i "${ENVV[@]}" "$LISTENER" "$WARD" run -q -- true 2>&1)
st=$?
check "under another listener, no --degraded: 125" 125 "$st"
check_match "...the message names the listener and --degraded" \
	"*user notification is taken*--degraded enforces by ptrace at every call's entry*" "$out"
out=$(cd "$BASE/w" && env -i "${ENVV[@]}" "$LISTENER" "$WARD" run -q --degraded=auto \
	--log "$BASE/entry.jsonl" -r "deny read $BASE/w/secret" -- \
	bash -c 'cat secret 2>/dev/null; echo "secret: $?"; cat plain; echo two >new2; cat new2' 2>&1)
check "...--degraded=auto: the policy enforced on the calls the other listener takes too" \
	"secret: 1
plain
two" "$(grep -v '^listener: ' <<<"$out")"
check_match "...the other listener was told of them (its answers outrank a filter's TRACE)" \
	"*listener: [1-9]* calls*" "$out"
check "...session-start: stops at every call's entry" 1 \
	"$(head -n 1 "$BASE/entry.jsonl" | grep -c '"degraded":{"stops":"entry"')"
out=$(env -i "${ENVV[@]}" "$LISTENER" "$WARD" run -q --degraded -- "$PAGE" "$REGION" "$SIZE" 2>&1 |
	grep -v '^listener: ' | tr '\n' ' ')
check "...the page: every way to change it refused" "mapped yes mprotect EPERM mprotect-around EPERM \
pkey_mprotect EPERM munmap EPERM madvise-dontneed EPERM mmap-fixed EPERM mmap-fixed-below EPERM \
mremap-away EPERM mremap-onto EPERM shmat-remap EPERM proc-self-mem EACCES process_vm_writev EPERM \
userfaultfd EPERM process_madvise-dontneed EPERM process_madvise-cold ok clone-files EPERM mapped-after yes mprotect-last EPERM mprotect-after ENOMEM " "$out"
mkdir -p "$BASE/storm-entry"
out=$(env -i "${ENVV[@]}" "$LISTENER" "$WARD" run -q --degraded -- "$STORM" "$BASE/storm-entry" 100 \
	restart 200 2>&1)
if grep -q '^ok 100 iterations' <<<"$out"; then
	pass "...sigstorm restart: results as natively"
else
	fail "...sigstorm restart: results as natively" "$(grep -v interrupted <<<"$out" | tail -n 10)"
fi

# ---- ward inside ward ----
# The outer ward refuses ptrace (and keeps its own files from the agent): the inner cannot trace.
# (An ASan build's leak check stops the world with ptrace, which the outer ward refuses.)
# (The inner's TMPDIR is its own: the outer keeps its session directory from the agent.)
mkdir -p "$BASE/inner"
out=$(env -i "${ENVV[@]}" ASAN_OPTIONS=detect_leaks=0 "$WARD" run -q -r "allow read,exec $BUILD/**" \
	-r "allow read,write,create $BASE/inner/**" -- env TMPDIR="$BASE/inner" \
	"$WARD" run -q --degraded --log "$BASE/inner/log" -- true 2>&1)
check "ward inside ward: the inner refuses to start (125)" 125 "$?"
check_match "...and says why: the supervisor above refuses ptrace" \
	"*cannot trace the child (PTRACE_SEIZE): Operation not permitted: the supervisor above this process refuses ptrace (ward inside ward*" "$out"
out=$(env -i "${ENVV[@]}" ASAN_OPTIONS=detect_leaks=0 "$WARD" run -q -r "allow read,exec $BUILD/**" -- \
	"$WARD" run -q --log /dev/null -- true 2>&1)
check "ward inside ward, not degraded: the inner refuses to start (125)" 125 "$?"
check_match "...and names another ward as the listener" \
	"*or another ward's, under which ward cannot run*" "$out"

summary
