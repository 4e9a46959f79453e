#!/bin/bash
# Record the logs the golden tests of ward report read (tests/report/*.jsonl):
# real sessions under ward, in a fixed place (/tmp/ward-golden) with a fixed
# HOME, so that the report of each is the same wherever the test runs.
#   record.sh BUILD_DIR      then: tests/integration/report.sh BUILD_DIR --update
# The logs are kept in git: a new recording is a change to review.
set -eu
WARD=$(cd "${1:?usage: record.sh BUILD_DIR}" && pwd)/ward
OUT=$(cd "$(dirname "$0")" && pwd)
G=/tmp/ward-golden
rm -rf "$G" "$OUT/agent.jsonl" "$OUT/shadow.jsonl"
trap 'rm -rf "$G"' EXIT
export HOME=$G/home XDG_CONFIG_HOME=$G/home/.config XDG_STATE_HOME=$G/home/.local/state \
	XDG_RUNTIME_DIR=$G/run TMPDIR=$G/tmp PATH=/usr/bin:/bin LC_ALL=C
mkdir -p "$HOME/.ssh" "$HOME/.config" "$HOME/.cache" "$G/run" "$G/tmp" "$G/project/src"
chmod 700 "$G/run"
echo "-----BEGIN OPENSSH PRIVATE KEY----- (golden)" >"$HOME/.ssh/id_ed25519"
echo "export PS1='$ '" >"$HOME/.bashrc"
echo "machine example.com login me password secret" >"$HOME/.netrc"
cd "$G/project"
printf '# golden project\n' >README.md
printf 'int main(void) { return 0; }\n' >src/main.c
git init -q . && git -c user.name=g -c user.email=g@example.com add -A &&
	git -c user.name=g -c user.email=g@example.com commit -qm init

# A port nothing listens on, for a connect the policy refuses.
cat >agent.sh <<'AGENT'
head -n 1 README.md >/dev/null
cat ~/.ssh/id_ed25519 2>/dev/null
echo "alias ls='rm -rf'" >>~/.bashrc 2>/dev/null
echo "todo" >notes.txt
mkdir -p build && for i in 1 2 3 4 5 6; do echo "o$i" >build/obj$i.o; done
mv notes.txt NOTES.txt && chmod 600 NOTES.txt
echo cached >~/.cache/agent.txt 2>/dev/null
echo scratch >"$TMPDIR/agent-scratch.txt" && rm "$TMPDIR/agent-scratch.txt"
echo odd >"$(printf 'odd\nname')" ; echo s >'<script>alert(1)'
git -c user.name=a -c user.email=a@example.com add -A >/dev/null
git -c user.name=a -c user.email=a@example.com commit -qm work
python3 -c 'import socket; s = socket.socket(); s.settimeout(2)
try: s.connect(("127.0.0.1", 9))
except OSError: pass' 2>/dev/null
cat /proc/1/environ >/dev/null 2>&1
kill -0 1 2>/dev/null
exit 3
AGENT
"$WARD" run -q --log "$OUT/agent.jsonl" \
	-r 'rewrite write,create ~/.cache/agent.txt -> $SESSION/agent.txt' -- sh agent.sh || true

# Shadow mode: the same refusals, none of them made.
git checkout -q -- . && git clean -qfdx
"$WARD" run -q --mode shadow --log "$OUT/shadow.jsonl" -- \
	sh -c 'cat ~/.ssh/id_ed25519 >/dev/null; cat ~/.netrc >/dev/null; echo x >>~/.bashrc; echo ok >out.txt'
# The logs name the time and the session; nothing else of this machine is needed to read them.
echo "recorded $OUT/agent.jsonl $OUT/shadow.jsonl"
