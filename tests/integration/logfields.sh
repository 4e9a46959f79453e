#!/bin/sh
# logfields.sh BUILD_DIR - fields of a log line that belong to its own decision only:
#  - in shadow mode, an O_RDWR open whose read a rule denies logs "would":"deny" on the read's
#    line and not on the write's (it was carried over to the next decision of the same call);
#  - a pidfd_send_signal line names the process the pidfd is for (it showed whatever target the
#    worker's previous signal call had left).
# Exit 0 when both hold, 1 otherwise, 2 when the test cannot run.
set -u
BUILD=$(cd "$1" && pwd -P) || exit 2
WARD=$BUILD/ward
PY=/usr/bin/python3
[ -x "$WARD" ] && [ -x "$PY" ] || { echo "logfields: needs $WARD and $PY" >&2; exit 2; }
T=$(mktemp -d "${TMPDIR:-/tmp}/ward-logfields.XXXXXX") || exit 2
trap 'rm -rf "$T"' EXIT
export HOME=$T/home XDG_CONFIG_HOME=$T/home/.config XDG_STATE_HOME=$T/state XDG_RUNTIME_DIR=$T/run TMPDIR=$T/tmp
mkdir -p "$HOME" "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR" "$TMPDIR" && chmod 700 "$XDG_RUNTIME_DIR"
echo data > "$T/f"
cd "$T" || exit 2
"$WARD" run -q --mode shadow --log "$T/log.jsonl" -r "deny read $T/f" -- "$PY" -c '
import os, signal, subprocess, sys
fd = os.open(sys.argv[1], os.O_RDWR)
p = subprocess.Popen(["sleep", "30"])
pf = os.pidfd_open(p.pid)
signal.pidfd_send_signal(pf, signal.SIGTERM)
p.wait()
open(sys.argv[2], "w").write(str(p.pid))
' "$T/f" "$T/pid"
"$PY" - "$T/log.jsonl" "$T/f" "$T/pid" <<'PYEOF'
import json, sys
log, path, pidfile = sys.argv[1:]
lines = [json.loads(l) for l in open(log)]
pid = int(open(pidfile).read())
fail = 0
def check(ok, what):
    global fail
    print(("ok - " if ok else "not ok - ") + what)
    fail |= not ok
acc = [l for l in lines if l.get("event") == "access" and l.get("path") == path]
rd = [l for l in acc if l.get("op") == "read"]
wr = [l for l in acc if l.get("op") == "write"]
check(len(rd) == 1 and rd[0].get("would") == "deny", "shadow: the denied read says would deny")
check(len(wr) == 1 and "would" not in wr[0] and wr[0].get("decision") == "allow",
      "shadow: the allowed write of the same open does not")
sig = [l for l in lines if l.get("syscall") == "pidfd_send_signal"]
check(len(sig) == 1 and sig[0].get("target") == pid and sig[0].get("signal") == 15,
      "pidfd_send_signal names the pidfd's process (%d) and the signal" % pid)
sys.exit(fail)
PYEOF
