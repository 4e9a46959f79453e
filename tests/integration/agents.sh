#!/bin/bash
# shellcheck disable=SC2016  # sh -c scripts are meant literally
# agents.sh BUILD_DIR - the real programs under their profiles
# (docs/profiles.md), each with --undecided deny, so that anything asked is
# refused and shows in the log: Claude Code (its version, and its first
# screen in tmux), the Codex CLI (its version, with no warning), opencode's
# version from an empty home, npm install, pnpm add and yarn add of a
# package from the registry, pip install of a local package into a virtual
# environment, cargo build and go build of small local projects.  Asserted
# from the log: nothing refused but what the profile means to refuse.
#
# Claude Code, Codex, opencode, pnpm and yarn come from the npm registry,
# installed once into $WARD_AGENTS_CACHE (default BUILD_DIR/agents-cache)
# and reused; pip, cargo and go are Debian's (make deps).  Without the npm registry what
# needs it is skipped, saying so, and the test exits 77 (skipped), never 0.
set -u
umask 022
BUILD=$(cd "${1:?usage: agents.sh BUILD_DIR}" && pwd)
WARD=$BUILD/ward
CACHE=${WARD_AGENTS_CACHE:-$BUILD/agents-cache}
# shellcheck source=tests/integration/harness.sh
. "$(dirname "$0")/harness.sh"
BASE=$(mktemp -d "${TMPDIR:-/tmp}/ward-agents.XXXXXX") || bail "mktemp"
at_exit 'cd / && rm -rf "$BASE"'
at_exit 'tmux -S "$BASE/tmux.sock" kill-server 2>/dev/null'
BASE=$(cd "$BASE" && pwd -P)

# ------------------------------------------------------------ the programs

for tool in npm node tmux python3 cargo go; do
	if ! command -v "$tool" >/dev/null; then
		bail "$tool is missing (make deps installs it)"
	fi
done
# Without the npm registry, what needs it is skipped, saying so (exit 77):
# npm install, and Claude Code and Codex unless an earlier run cached them.
# pip, cargo and go are tested whatever the registry does.
OFFLINE=
if ! timeout 60 npm view --silent left-pad version >/dev/null 2>&1; then
	OFFLINE="the npm registry (registry.npmjs.org) is unreachable"
	echo "# $OFFLINE: what needs it is skipped"
fi
# One install at a time into the cache; a second run finds it there.
mkdir -p "$CACHE"
exec 9>"$CACHE/.lock"
flock 9
PROGRAMS="claude codex opencode pnpm yarn"
cached() {
	local p
	for p in $PROGRAMS; do [ -x "$CACHE/prefix/bin/$p" ] || return 1; done
}
if [ -z "$OFFLINE" ] && ! cached; then
	echo "# installing Claude Code, Codex, opencode, pnpm and yarn into $CACHE/prefix"
	rm -rf "$CACHE/prefix"
	if ! timeout 600 npm install -g --no-fund --no-audit --prefix "$CACHE/prefix" \
		@anthropic-ai/claude-code @openai/codex opencode-ai pnpm yarn >"$CACHE/install.log" 2>&1; then
		sed 's/^/#   /' "$CACHE/install.log" | tail -n 20
		bail "npm could not install the programs (the registry answered)"
	fi
fi
flock -u 9
AGENTS=$CACHE/prefix/bin

# Hermetic: the user's own state never counts.  HOME is not below TMPDIR
# (the Codex CLI refuses to put its PATH aliases in a temporary directory).
export HOME=$BASE/home XDG_CONFIG_HOME=$BASE/home/.config XDG_STATE_HOME=$BASE/home/.local/state \
	XDG_CACHE_HOME=$BASE/home/.cache XDG_RUNTIME_DIR=$BASE/run TMPDIR=$BASE/tmp
unset XDG_DATA_HOME GOPATH GOCACHE GOMODCACHE CARGO_HOME RUSTUP_HOME PIP_CACHE_DIR
# npm's settings from the environment (a cache, a registry) are the user's too.
for v in $(env | sed -n 's/^\([Nn][Pp][Mm]_[Cc][Oo][Nn][Ff][Ii][Gg]_[A-Za-z0-9_]*\)=.*/\1/p'); do unset "$v"; done
export PATH=$AGENTS:/usr/local/bin:/usr/bin:/bin
mkdir -p "$HOME/.cache" "$HOME/.config" "$HOME/.local/share" "$HOME/.local/state" \
	"$BASE/tmp" "$BASE/run"
chmod 700 "$BASE/run"
L=$BASE/log.jsonl

# refused ALLOWED-ERE: the log's refusals (real ones: EACCES or
# EPERM, by a rule or by undecided deny, i.e. asked; a call refused with
# the error it has natively, mkdir of an existing directory, is no
# refusal) other than those matching ALLOWED-ERE, one a line, as
# "op target rule".
refused() {
	python3 - "$L" "$1" <<'PY'
import json, re, sys
allowed = re.compile(sys.argv[2]) if sys.argv[2] else None
for line in open(sys.argv[1]):
    e = json.loads(line)
    if e.get("decision") != "deny" or e.get("errno") not in ("EACCES", "EPERM"):
        continue
    what = "%s %s %s" % (e.get("op"), e.get("path") or e.get("target") or
                         "%s:%s" % (e.get("addr"), e.get("port")), e.get("rule"))
    if allowed is None or not allowed.search(what):
        print(what)
PY
}
# none_refused WHAT ALLOWED-ERE: the log holds no other refusal.
none_refused() {
	local got
	got=$(refused "$2" | sort | uniq -c | head -n 20)
	if [ -z "$got" ]; then ok "$1"; else
		nok "$1 (refused:)"
		printf '%s\n' "$got" | sed 's/^/#   /'
	fi
}
# What the default profile means to refuse to these programs: the user's
# own tmux server (they ask it about the terminal), a unix socket outside
# the session.
TMUX_SOCKET='^connect unix:.*tmux[^ ]* builtin:default:[0-9]+$'

# wrun PROFILE ARGS...: ward run --profile PROFILE --undecided deny ARGS;
# the command's stdout in $BASE/out, stderr (ward's too) in $BASE/err.
wrun() {
	local profile=$1
	shift
	rm -f "$L"
	"$WARD" run --profile "$profile" --undecided deny --log "$L" "$@" >"$BASE/out" 2>"$BASE/err"
	RC=$?
}

# ------------------------------------------------------------ Claude Code, Codex

# Claude Code and Codex: only from the cache when the registry is unreachable.
if [ -x "$AGENTS/claude" ] && [ -x "$AGENTS/codex" ]; then
	mkdir -p "$BASE/proj"
	cd "$BASE/proj" || exit 2
	wrun claude-code -- claude --version
	check "claude --version under --profile claude-code" "0" "$RC"
	contains "...prints its version" "$BASE/out" "(Claude Code)"
	none_refused "...and nothing was refused" ""

	# The first screen, in a terminal.  No API key here: the first screen is
	# the welcome, then sign-in or, with no network, "Unable to connect".
	export TMUX_TMPDIR=$BASE
	rm -f "$L"
	tmux -S "$BASE/tmux.sock" new-session -d -x 120 -y 40 \
		"'$WARD' run --profile claude-code --undecided deny --log '$L' -- claude 2>'$BASE/err'"
	screen=
	for _ in $(seq 600); do # up to 60 s on a busy machine
		screen=$(tmux -S "$BASE/tmux.sock" capture-pane -p -t 0 2>/dev/null)
		case $screen in
		*"Welcome to Claude Code"*Unable\ to\ connect* | *"Welcome to Claude Code"*[Ll]ogin* | \
			*"Welcome to Claude Code"*[Ss]ign\ in* | *"Welcome to Claude Code"*theme*) break ;;
		esac
		sleep 0.1
	done
	printf '%s\n' "$screen" >"$BASE/screen"
	if grep -qF "Welcome to Claude Code" "$BASE/screen"; then
		ok "claude's first screen under ward: the welcome"
	else
		nok "claude's first screen under ward: the welcome" "the screen:" \
			"$(grep -v '^[[:space:]]*$' "$BASE/screen" | head -n 10)" "ward's and claude's stderr:" \
			"$(head -n 10 "$BASE/err")" "the log's last events:" "$(tail -n 3 "$L" 2>/dev/null)"
	fi
	if grep -q "Unable to connect" "$BASE/screen"; then
		# What claude says natively here, without ward, with no route to Anthropic.
		contains "...and, with no route to Anthropic, what it says natively" "$BASE/screen" \
			"Failed to connect to api.anthropic.com"
	else
		ok "...and then its sign-in or set-up screen"
	fi
	# Closing the terminal hangs up ward, which passes it on and ends the session.
	tmux -S "$BASE/tmux.sock" kill-server 2>/dev/null
	for _ in $(seq 100); do grep -q '"event":"session-end"' "$L" && break; sleep 0.1; done
	contains "...ward ends the session with the terminal" "$L" '"event":"session-end"'
	none_refused "...and nothing was refused (or asked) but the user's tmux server" "$TMUX_SOCKET"
	check "claude kept its state in ~/.claude.json" "yes" \
		"$([ -s "$HOME/.claude.json" ] && echo yes || echo no)"

	# Codex

	wrun codex -- codex --version
	check "codex --version under --profile codex" "0" "$RC"
	contains "...prints its version" "$BASE/out" "codex-cli"
	check "...with no warning (could not create PATH aliases)" "" "$(grep -v '^ward: ' "$BASE/err")"
	none_refused "...and nothing was refused" ""
	check "...its PATH aliases are in ~/.codex/tmp" "yes" \
		"$([ -d "$HOME/.codex/tmp/arg0-linux" ] && echo yes || echo no)"
else
	skip "Claude Code and Codex" "$OFFLINE, and no earlier run cached them"
fi

# ------------------------------------------------------------ opencode

# From a home that has none of its directories yet (~/.config, ~/.local).
if [ -x "$AGENTS/opencode" ]; then
	rm -rf "$BASE/ochome"
	mkdir -p "$BASE/ochome" "$BASE/ocproj"
	cd "$BASE/ocproj" || exit 2
	HOME=$BASE/ochome XDG_CONFIG_HOME=$BASE/ochome/.config XDG_CACHE_HOME=$BASE/ochome/.cache \
		XDG_STATE_HOME=$BASE/ochome/.local/state wrun opencode -- opencode --version
	check "opencode --version under --profile opencode, in an empty home" "0" "$RC"
	check "...prints its version" "yes" "$(grep -qE '^[0-9]+\.[0-9]+\.[0-9]+$' "$BASE/out" && echo yes || echo no)"
	none_refused "...and nothing was refused" ""
else
	skip "opencode" "$OFFLINE, and no earlier run cached it"
fi

# ------------------------------------------------------------ npm

if [ -z "$OFFLINE" ]; then
	mkdir -p "$BASE/npmproj"
	cd "$BASE/npmproj" || exit 2
	echo '{"name":"t","version":"1.0.0","private":true}' >package.json
	wrun npm -- npm install --no-fund --no-audit left-pad
	check "npm install left-pad under --profile npm" "0" "$RC"
	check "...installed it" "yes" "$([ -f node_modules/left-pad/package.json ] && echo yes || echo no)"
	none_refused "...and nothing was refused" ""
	check "...npm's cache is let through" "yes" "$([ -d "$HOME/.npm/_cacache" ] && echo yes || echo no)"
	wrun npm -- node -e 'console.log(require("left-pad")("x", 3, "."))'
	check "...and the package runs" "0 ..x" "$RC $(cat "$BASE/out")"

	# pnpm and yarn, the profile's other package managers, from the same cache.
	if cached; then
		for pm in pnpm yarn; do
			mkdir -p "$BASE/$pm-proj"
			cd "$BASE/$pm-proj" || exit 2
			echo '{"name":"t","version":"1.0.0","private":true}' >package.json
			wrun npm -- "$pm" add left-pad
			check "$pm add left-pad under --profile npm" "0" "$RC"
			check "...installed it" "yes" \
				"$([ -f node_modules/left-pad/package.json ] && echo yes || echo no)"
			# pnpm notes each project in its store by a symlink to it, which would
			# take the project's protected paths out of their rules' reach: ward
			# refuses it (no rule decides it), and pnpm goes on without.
			none_refused "...and nothing was refused (but pnpm's symlink from its store to the project)" \
				'^create [^ ]*/pnpm/store/[^ ]*/projects/[^ /]* None$'
		done
	else
		skip "pnpm and yarn" "not in $CACHE/prefix"
	fi
else
	skip "npm install from the registry" "$OFFLINE"
fi

# ------------------------------------------------------------ pip

mkdir -p "$BASE/pyproj/pkg/hello"
cd "$BASE/pyproj" || exit 2
printf '[build-system]\nrequires = ["setuptools"]\nbuild-backend = "setuptools.build_meta"\n[project]\nname = "hello"\nversion = "1.0"\n' \
	>pkg/pyproject.toml
echo 'def hi(): return "hi from pip"' >pkg/hello/__init__.py
# Debian's python3, its setuptools and wheel seen from the environment:
# the package is built and installed without an index (none but npm's is
# reachable from the test machines).
wrun pip -- sh -c '/usr/bin/python3 -m venv --system-site-packages .venv &&
	.venv/bin/pip install --no-index --no-build-isolation ./pkg &&
	.venv/bin/python -c "import hello; print(hello.hi())"'
check "pip install of a local package into a venv under --profile pip" "0" "$RC"
check "...the package is installed and runs" "hi from pip" "$(tail -n 1 "$BASE/out")"
none_refused "...and nothing was refused" ""

# ------------------------------------------------------------ cargo

mkdir -p "$BASE/rsproj/src"
cd "$BASE/rsproj" || exit 2
printf '[package]\nname = "hello"\nversion = "0.1.0"\nedition = "2021"\n' >Cargo.toml
echo 'fn main() { println!("hi from cargo"); }' >src/main.rs
wrun cargo -- sh -c 'cargo build && ./target/debug/hello'
check "cargo build under --profile cargo" "0" "$RC"
check "...the program runs" "hi from cargo" "$(tail -n 1 "$BASE/out")"
none_refused "...and nothing was refused" ""

# ------------------------------------------------------------ go

mkdir -p "$BASE/goproj"
cd "$BASE/goproj" || exit 2
printf 'module example.com/hello\n\ngo 1.19\n' >go.mod
printf 'package main\n\nimport "fmt"\n\nfunc main() { fmt.Println("hi from go") }\n' >main.go
wrun go -- sh -c 'go build -o hello . && ./hello && go env GOCACHE'
check "go build under --profile go" "0" "$RC"
check "...the program runs" "hi from go" "$(sed -n 1p "$BASE/out")"
case $(sed -n 2p "$BASE/out") in
"$TMPDIR"/ward-*/cache/go-build) ok "...with a build cache of the session's own" ;;
*) nok "...with a build cache of the session's own (GOCACHE $(sed -n 2p "$BASE/out"))" ;;
esac
check "...the user's build cache is untouched" "no" \
	"$([ -e "$HOME/.cache/go-build" ] && echo yes || echo no)"
none_refused "...and nothing was refused" ""

summary
