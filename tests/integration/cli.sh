#!/bin/bash
# shellcheck disable=SC2016,SC2088  # policy text is meant literally
# cli.sh WARD - end-to-end test of ward's command line (DESIGN.md §3, §4,
# docs/policy.md): ward check, ward explain, ward trust and the stubs.
#
# Hermetic: HOME, XDG_CONFIG_HOME, XDG_STATE_HOME, XDG_RUNTIME_DIR and
# TMPDIR all point into a fresh temporary directory, and ward runs from a
# project directory inside it, so the host's configuration never matters
# (only the built-in profiles and the system's /usr and /etc do).
#
# Expected rule locations in the built-in profiles are computed from
# rules/profiles/*.policy, so moving a line does not break the test; the
# decision words and the location format are asserted exactly.
#
#   cli.sh WARD [nobody]
# With "nobody" (root only: exit 77 otherwise), ward explain and ward trust
# run as the unprivileged user nobody, from a copy of ward staged where
# nobody may run it; without, everything else, as the caller.
#
# Output: TAP (tests/integration/lib.sh).

. "$(dirname "$0")/lib.sh"
umask 022

if [ $# -lt 1 ] || [ ! -x "$1" ]; then
	bail "usage: $0 PATH-TO-WARD [nobody]"
fi
WARD=$(cd "$(dirname "$1")" && pwd -P)/$(basename "$1")
PART=${2:-}
case $PART in
"") ;;
nobody) nobody_ready || skip_all "$NB_WHY" ;;
*) bail "unknown part '$PART'" ;;
esac
SRC=$(cd "$(dirname "$0")/../.." && pwd -P)
PROFILES=$SRC/rules/profiles
for f in default strict audit self; do
	[ -r "$PROFILES/$f.policy" ] || bail "cannot read $PROFILES/$f.policy"
done
VERSION=$(sed -n 's/^project(ward VERSION \([0-9][0-9.]*\).*/\1/p' "$SRC/CMakeLists.txt")

make_base cli

# ---------------------------------------------------------------- helpers

# has_line TEXT LINE: TEXT has LINE as one of its lines (blanks squeezed in both).
has_line() {
	local want
	want=$(printf '%s\n' "$2" | tr -s ' \t' '  ')
	printf '%s\n' "$1" | tr -s ' \t' '  ' | grep -qxF -e "$want"
}

check_has_line() { # WHAT TEXT LINE
	if has_line "$2" "$3"; then
		pass "$1"
	else
		fail "$1" "expected: a line $(flat "$3")" "got:      none in $(flat "$2")"
	fi
}

# check_warning WHAT: $ERR is exactly one line, the untrusted-project warning naming $P/.ward/policy.
check_warning() {
	check_match "$1" "ward: *ignoring untrusted project policy*$P/.ward/policy*" "$ERR"
	check "$1: one line" "1" "$(printf '%s\n' "$ERR" | wc -l | tr -d ' ')"
}

check_no_line() { # WHAT TEXT LINE
	if has_line "$2" "$3"; then
		fail "$1" "expected: no line $(flat "$3")" "got:      that line in $(flat "$2")"
	else
		pass "$1"
	fi
}

# RUNAS: the command prefix that runs ward as the user under test (empty:
# this shell's user, with the environment exported below).
RUNAS=()

# w ARGS...: run ward; sets RC, OUT, ERR.
w() {
	${RUNAS[@]+"${RUNAS[@]}"} "$WARD" "$@" >"$BASE/.out" 2>"$BASE/.err" </dev/null
	RC=$?
	OUT=$(cat "$BASE/.out")
	ERR=$(cat "$BASE/.err")
}

# t_explain WHAT LINE ARGS...: `ward explain ARGS` exits 0, prints LINE and nothing on stderr.
# (Notes of their own are checked below, not here: a hard deny's, and a user
# rule's that undoes a profile protection.)
t_explain() {
	local what=$1 line=$2
	shift 2
	w explain "$@"
	ERR=$(printf '%s\n' "$ERR" | grep -vE 'is a hard deny \(deny!\): no rule|undoes what the profile keeps')
	check "$what" "rc=0 out=$line err=" "rc=$RC out=$OUT err=$ERR"
}

# t_fail WHAT STATUS ERRLINE ARGS...: `ward ARGS` exits STATUS, prints nothing on
# stdout, and the first line of stderr is exactly ERRLINE.
t_fail() {
	local what=$1 rc=$2 line=$3
	shift 3
	w "$@"
	check "$what" "rc=$rc out= err=$line" "rc=$RC out=$OUT err=${ERR%%$'\n'*}"
}

# t_fail_glob WHAT STATUS PATTERN ARGS...: likewise, stderr's first line matches PATTERN.
t_fail_glob() {
	local what=$1 rc=$2 pat=$3
	shift 3
	w "$@"
	check_match "$what" "rc=$rc out= err=$pat" "rc=$RC out=$OUT err=${ERR%%$'\n'*}"
}

# rule_line PROFILE ACTION OP TARGET...: the number of the last line of
# rules/profiles/PROFILE.policy whose action is ACTION, whose ops include OP
# and whose targets include one of the TARGET words (as written there).
rule_line() {
	local profile=$1 action=$2 op=$3
	shift 3
	awk -v a="$action" -v op="$op" -v ts="$*" '
		BEGIN { nt = split(ts, t, " ") }
		{
			nf = 0
			for (i = 1; i <= NF; i++) {
				if (substr($i, 1, 1) == "#")
					break
				w[++nf] = $i
			}
			if (nf < 3 || w[1] != a)
				next
			hit = w[2] == "*"
			no = split(w[2], ops, ",")
			for (j = 1; j <= no; j++)
				if (ops[j] == op)
					hit = 1
			if (!hit)
				next
			for (i = 3; i <= nf; i++)
				for (j = 1; j <= nt; j++)
					if (w[i] == t[j])
						l = NR
		}
		END { print l }' "$PROFILES/$profile.policy"
}

# loc PROFILE ACTION OP TARGET...: "builtin:PROFILE:LINE" of that rule.
loc() {
	local l
	l=$(rule_line "$@")
	echo "builtin:$1:${l:-NO-SUCH-RULE}"
}

# use_dirs DIR: point HOME, the XDG directories, TMPDIR and the project at
# DIR/..., set H P CFG STATE RUND TMPD, and cd into the project.
use_dirs() {
	local d=$1
	H=$d/home P=$d/proj CFG=$d/config STATE=$d/state RUND=$d/run TMPD=$d/tmp
	mkdir -p "$H" "$P" "$CFG" "$STATE" "$RUND" "$TMPD"
	cd "$P" || exit 2
}

export_dirs() {
	export HOME=$H XDG_CONFIG_HOME=$CFG XDG_STATE_HOME=$STATE XDG_RUNTIME_DIR=$RUND TMPDIR=$TMPD
}

if [ -e /etc/ward/policy ]; then
	echo "# note: /etc/ward/policy exists on this host and is loaded as the system layer"
fi

# ------------------------------------------------- the explain checks
#
# Run as the current user, then again as an unprivileged one: they take
# only H P CFG STATE RUND TMPD and RUNAS, and create their fixtures in $P.

explain_suite() {
	local L=${1:+$1 } me_uid=$2 me_user=$3

	# --- the default profile
	t_explain "${L}explain read ~/.ssh/id_rsa: a credential is denied" \
		"deny read $H/.ssh/id_rsa $(loc default deny read '~/.ssh/**')" \
		read "$H/.ssh/id_rsa"
	t_explain "${L}explain read ~/.netrc: denied (ENOENT rule)" \
		"deny read $H/.netrc $(loc default 'deny(ENOENT)' read '~/.netrc')" \
		read "$H/.netrc"
	t_explain "${L}explain write in the project: allowed" \
		"allow write $P/src/new.c $(loc default allow write '$PROJECT/**')" \
		write "$P/src/new.c"
	t_explain "${L}explain create in \$TMPDIR: allowed" \
		"allow create $TMPD/scratch $(loc default allow create '$TMPDIR/**')" \
		create "$TMPD/scratch"
	t_explain "${L}explain write ~/.bashrc: denied" \
		"deny write $H/.bashrc $(loc default deny write '~/.bashrc')" \
		write "$H/.bashrc"
	t_explain "${L}explain write .git/hooks in the project: denied" \
		"deny write $P/.git/hooks/pre-commit $(loc default deny write '$PROJECT/.git/hooks/**')" \
		write "$P/.git/hooks/pre-commit"
	t_explain "${L}explain write outside the project: undecided, asked" \
		"ask write /srv/elsewhere undecided" \
		write /srv/elsewhere
	t_explain "${L}explain exec /usr/bin/sudo: asked" \
		"ask exec /usr/bin/sudo $(loc default ask exec /usr/bin/sudo)" \
		exec /usr/bin/sudo
	t_explain "${L}explain exec /usr/bin/env: allowed" \
		"allow exec /usr/bin/env $(loc default allow exec '/**')" \
		exec /usr/bin/env
	t_explain "${L}explain exec memfd:x: denied" \
		"deny exec memfd:x $(loc default deny exec 'memfd:*')" \
		exec memfd:x
	t_explain "${L}explain connect 169.254.169.254:80 (cloud metadata): denied" \
		"deny connect 169.254.169.254:80 $(loc default deny connect @metadata @link-local)" \
		connect 169.254.169.254:80
	t_explain "${L}explain connect 127.0.0.1:5432 (loopback, not the session's): denied" \
		"deny connect 127.0.0.1:5432 $(loc default deny connect @loopback)" \
		connect 127.0.0.1:5432
	t_explain "${L}explain connect [::1]:80: denied as loopback" \
		"deny connect [::1]:80 $(loc default deny connect @loopback)" \
		connect '[::1]:80'
	t_explain "${L}explain bind 127.0.0.1:8080: allowed" \
		"allow bind 127.0.0.1:8080 $(loc default allow bind @loopback)" \
		bind 127.0.0.1:8080
	t_explain "${L}explain connect example.com:443: asked" \
		"ask connect example.com:443 $(loc default ask connect '*')" \
		connect example.com:443
	t_explain "${L}explain connect unix:/run/x.sock: denied" \
		"deny connect unix:/run/x.sock $(loc default deny connect 'unix:/**')" \
		connect unix:/run/x.sock

	# --- self-protection (builtin:self)
	t_explain "${L}explain read /proc/1/environ: denied by builtin:self" \
		"deny read /proc/1/environ $(loc self 'deny!' read @foreign-proc-private)" \
		read /proc/1/environ
	t_explain "${L}explain write \$XDG_CONFIG_HOME/ward/policy: denied by builtin:self" \
		"deny write $CFG/ward/policy $(loc self 'deny!' write '$XDG_CONFIG_HOME/ward/**')" \
		write "$CFG/ward/policy"
	t_explain "${L}explain read \$XDG_STATE_HOME/ward/...: denied by builtin:self" \
		"deny read $STATE/ward/sessions/a.jsonl $(loc self 'deny!' read '$XDG_STATE_HOME/ward/**')" \
		read "$STATE/ward/sessions/a.jsonl"
	t_explain "${L}explain write the project's .ward/policy: denied by builtin:self" \
		"deny write $P/.ward/policy $(loc self 'deny!' write '$PROJECT/.ward/**')" \
		write "$P/.ward/policy"
	t_explain "${L}explain connect to ward's control socket: denied by builtin:self" \
		"deny connect unix:$RUND/ward/ctl.sock $(loc self 'deny!' connect 'unix:$XDG_RUNTIME_DIR/ward/**')" \
		connect "unix:$RUND/ward/ctl.sock"
	t_explain "${L}explain stat the project's .ward/policy: stat stays allowed" \
		"allow stat $P/.ward/policy $(loc default allow stat '/**')" \
		stat "$P/.ward/policy"

	# --- targets are made absolute lexically, and need not exist
	check "${L}fixture: $P/b and $P/new do not exist" "" \
		"$(ls -d "$P/b" "$P/new" 2>/dev/null)"
	t_explain "${L}explain read ./a/../b: absolute and normal against the cwd" \
		"allow read $P/b $(loc default allow read '/**')" \
		read ./a/../b
	t_explain "${L}explain write new/./dir//f/: a path that does not exist" \
		"allow write $P/new/dir/f $(loc default allow write '$PROJECT/**')" \
		write new/./dir//f/
	t_explain "${L}explain write ../outside: leaves the project, lexically" \
		"ask write ${P%/*}/outside undecided" \
		write sub/../../outside

	# --- profiles
	t_explain "${L}--profile strict: read /opt allowed" \
		"allow read /opt/x $(loc strict allow read '/opt/**')" \
		--profile strict read /opt/x
	t_explain "${L}--profile strict: read /srv denied, undecided" \
		"deny read /srv/x undecided" \
		--profile strict read /srv/x
	t_explain "${L}--profile strict: read ~/.ssh/id_rsa denied, undecided" \
		"deny read $H/.ssh/id_rsa undecided" \
		--profile strict read "$H/.ssh/id_rsa"
	t_explain "${L}--profile strict: write in the project allowed" \
		"allow write $P/f $(loc strict allow write '$PROJECT/**')" \
		--profile strict write "$P/f"
	t_explain "${L}--profile strict: exec in the project asked" \
		"ask exec $P/run.sh $(loc strict ask exec '$PROJECT/**')" \
		--profile strict exec "$P/run.sh"
	t_explain "${L}--profile strict: exec /usr/bin/sudo denied" \
		"deny exec /usr/bin/sudo $(loc strict deny exec /usr/bin/sudo)" \
		--profile strict exec /usr/bin/sudo
	t_explain "${L}--profile audit: read ~/.ssh/id_rsa allowed, undecided" \
		"allow read $H/.ssh/id_rsa undecided" \
		--profile audit read "$H/.ssh/id_rsa"
	t_explain "${L}--profile audit: connect to cloud metadata allowed, undecided" \
		"allow connect 169.254.169.254:80 undecided" \
		--profile audit connect 169.254.169.254:80
	t_explain "${L}--profile audit: builtin:self still denies /proc/1/environ" \
		"deny read /proc/1/environ $(loc self 'deny!' read @foreign-proc-private)" \
		--profile audit read /proc/1/environ
	t_fail "${L}--profile nope: exit 125, unknown profile" 125 \
		"ward: unknown profile 'nope'" explain --profile nope read /x

	# --- -r and -p layers
	cat >"$P/layers.policy" <<'EOF'
# rules for the layering checks
allow write /srv/a/**
deny! read  /srv/hard/**
set undecided allow
EOF
	cat >"$P/later.policy" <<'EOF'
deny write /srv/a/**
EOF
	t_explain "${L}-r: location --rule:1" \
		"allow read /srv/r1 --rule:1" \
		-r 'allow read /srv/r1' read /srv/r1
	t_explain "${L}-r -r: the second rule's location is --rule:2, and it wins" \
		"deny read /srv/r --rule:2" \
		-r 'allow read /srv/r' -r 'deny read /srv/r' read /srv/r
	t_explain "${L}-r -r: the later rule wins the other way round too" \
		"allow read /srv/r --rule:2" \
		-r 'deny read /srv/r' -r 'allow read /srv/r' read /srv/r
	t_explain "${L}-p FILE: location FILE:LINE, FILE as given" \
		"allow write /srv/a/f layers.policy:2" \
		-p layers.policy write /srv/a/f
	t_explain "${L}-p /abs/FILE: location /abs/FILE:LINE" \
		"allow write /srv/a/f $P/layers.policy:2" \
		-p "$P/layers.policy" write /srv/a/f
	t_explain "${L}--policy FILE (long form)" \
		"allow write /srv/a/f layers.policy:2" \
		--policy layers.policy write /srv/a/f
	t_explain "${L}-p A -p B: the later file wins" \
		"deny write /srv/a/f later.policy:1" \
		-p layers.policy -p later.policy write /srv/a/f
	t_explain "${L}-p then -r: the --rule layer wins" \
		"deny write /srv/a/f --rule:1" \
		-p layers.policy -r 'deny write /srv/a/**' write /srv/a/f
	t_explain "${L}-r before -p on the command line: the --rule layer still wins" \
		"deny write /srv/a/f --rule:1" \
		-r 'deny write /srv/a/**' -p layers.policy write /srv/a/f
	t_explain "${L}a -p file's rule wins over the profile" \
		"allow write /srv/a/f layers.policy:2" \
		-p layers.policy write /srv/a/f
	t_explain "${L}deny! in a -p file beats a later -r allow" \
		"deny read /srv/hard/x layers.policy:3" \
		-p layers.policy -r 'allow read /srv/hard/**' read /srv/hard/x
	t_explain "${L}deny! in -r beats a later -r allow" \
		"deny read /srv/h --rule:1" \
		-r 'deny! read /srv/h' -r 'allow read /srv/h' read /srv/h
	t_explain "${L}of two matching deny!, the last decides" \
		"deny read /srv/h --rule:2" \
		-r 'deny! read /srv/h' -r 'deny!(EPERM) read /srv/h' -r 'allow read /srv/h' read /srv/h
	t_explain "${L}builtin:self deny! beats -r 'allow read /proc/**'" \
		"deny read /proc/1/environ $(loc self 'deny!' read @foreign-proc-private)" \
		-r 'allow read /proc/**' read /proc/1/environ
	t_explain "${L}builtin:self deny! beats -r 'allow write \$XDG_CONFIG_HOME/ward/**'" \
		"deny write $CFG/ward/policy $(loc self 'deny!' write '$XDG_CONFIG_HOME/ward/**')" \
		-r 'allow write $XDG_CONFIG_HOME/ward/**' write "$CFG/ward/policy"
	t_explain "${L}-r allow beats the profile's soft deny of ~/.ssh" \
		"allow read $H/.ssh/id_rsa --rule:1" \
		-r 'allow read ~/.ssh/**' read "$H/.ssh/id_rsa"

	# --- the undecided answer
	t_explain "${L}--undecided deny: the undecided answer is deny" \
		"deny write /srv/u undecided" \
		--undecided deny write /srv/u
	t_explain "${L}--undecided allow: the undecided answer is allow" \
		"allow write /srv/u undecided" \
		--undecided allow write /srv/u
	t_explain "${L}--undecided ask: the undecided answer is ask" \
		"ask write /srv/u undecided" \
		--undecided ask write /srv/u
	t_explain "${L}--undecided does not change a decided answer" \
		"deny write $H/.bashrc $(loc default deny write '~/.bashrc')" \
		--undecided allow write "$H/.bashrc"
	t_explain "${L}a -p file's 'set undecided allow' applies" \
		"allow write /srv/u undecided" \
		-p layers.policy write /srv/u
	t_explain "${L}--undecided deny overrides a -p file's set undecided" \
		"deny write /srv/u undecided" \
		--undecided deny -p layers.policy write /srv/u
	t_explain "${L}--undecided allow overrides --profile strict's set undecided" \
		"allow read /srv/x undecided" \
		--profile strict --undecided allow read /srv/x

	# --- rewrites and network rules
	t_explain "${L}rewrite with /**: the tail is carried over" \
		"rewrite:$TMPD/cache/a/b write $H/.cache/a/b --rule:1" \
		-r 'rewrite write ~/.cache/** -> $TMPDIR/cache/**' write "$H/.cache/a/b"
	t_explain "${L}rewrite of a single file" \
		"rewrite:$TMPD/bashrc write $H/.bashrc --rule:1" \
		-r 'rewrite write ~/.bashrc -> $TMPDIR/bashrc' write "$H/.bashrc"
	t_explain "${L}domain rule *.example.com matches a subdomain" \
		"allow connect api.example.com:443 --rule:1" \
		-r 'allow connect *.example.com:443' connect api.example.com:443
	t_explain "${L}domain rule *.example.com does not match example.com" \
		"ask connect example.com:443 $(loc default ask connect '*')" \
		-r 'allow connect *.example.com:443' connect example.com:443
	t_explain "${L}CIDR rule matches an IPv4-mapped IPv6 address" \
		"allow connect [::ffff:10.1.2.3]:5432 --rule:1" \
		-r 'allow connect 10.0.0.0/8:5432' connect '[::ffff:10.1.2.3]:5432'
	t_explain "${L}CIDR rule with a port does not match another port" \
		"ask connect 10.1.2.3:5433 $(loc default ask connect '*')" \
		-r 'allow connect 10.0.0.0/8:5432' connect 10.1.2.3:5433

	# --- variables take the user's values
	t_explain "${L}\$USER and \$UID expand to the user's name and uid" \
		"allow write /srv/$me_user/$me_uid/f --rule:1" \
		-r 'allow write /srv/$USER/$UID/**' write "/srv/$me_user/$me_uid/f"
}

# ============================================ as an unprivileged user

if [ "$PART" = nobody ]; then
	use_dirs "$BASE/nobody"
	stage "$BASE/stage" "$WARD"
	WARD=$BASE/stage/ward
	stage_check "ward explain as nobody" "$BASE/stage"
	chown -R "$NB_UID:$NB_GID" "$BASE/nobody"
	chmod 755 "$BASE/nobody"
	RUNAS=(setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups --reset-env
		env -i PATH=/usr/bin:/bin HOME="$H" XDG_CONFIG_HOME="$CFG"
		XDG_STATE_HOME="$STATE" XDG_RUNTIME_DIR="$RUND" TMPDIR="$TMPD")
	NB_USER=$("${RUNAS[@]}" id -un)
	echo "# ward explain, as $NB_USER (uid $NB_UID)"
	explain_suite "[$NB_USER]" "$NB_UID" "$NB_USER"
	# And trust, which writes under $XDG_CONFIG_HOME.
	mkdir -p "$P/.ward"
	printf 'allow write /srv/proj/**\n' >"$P/.ward/policy"
	t_fail "[$NB_USER] ward trust: exit 0" 0 "" trust
	t_explain "[$NB_USER] trusted project policy applied" \
		"allow write /srv/proj/f $P/.ward/policy:1" write /srv/proj/f
	summary
fi

# ======================================================== as this user

use_dirs "$BASE/me"
export_dirs
ME_UID=$(id -u)
ME_USER=$(id -un)

echo "# command line basics"
w --version
check "ward --version: exit 0, prints 'ward $VERSION' first" "rc=0 out=ward $VERSION err=" \
	"rc=$RC out=${OUT%%$'\n'*} err=$ERR"
check_match "ward --version: the form 'ward X.Y.Z'" "ward [0-9]*.[0-9]*.[0-9]*" "${OUT%%$'\n'*}"
w --help
check_match "ward --help: exit 0, usage on stdout" "rc=0 out=usage: ward *" "rc=$RC out=$OUT"
for c in check explain trust; do
	w "$c" --help
	check_match "ward $c --help: exit 0, usage on stdout" "rc=0 out=usage: ward $c *" "rc=$RC out=$OUT"
done
w
check_match "ward with no command: exit 2, usage on stderr" "rc=2 out= err=usage: ward *" "rc=$RC out=$OUT err=$ERR"
t_fail "ward frobnicate: exit 2, unknown command" 2 "ward: unknown command 'frobnicate'" frobnicate
t_fail "ward run without a command: exit 2" 2 "ward: run needs a command" run
t_fail "run --backtrace --no-preload: exit 125, says why" 125 \
	"ward: --backtrace needs the preload library, which --no-preload leaves out" \
	run --backtrace --no-preload -- true
t_fail "run --no-preload --backtrace: the same in either order" 125 \
	"ward: --backtrace needs the preload library, which --no-preload leaves out" \
	run --no-preload --backtrace -- true
t_fail "ward explain raed /x: exit 2, unknown op" 2 "ward: unknown op 'raed'" explain raed /x
t_fail "ward explain read (no target): exit 2, says why (then usage)" 2 \
	"ward: explain takes OP and TARGET" explain read
t_fail "ward explain --undecided maybe: exit 2" 2 \
	"ward: --undecided takes ask, deny or allow, not 'maybe'" explain --undecided maybe read /x
t_fail "ward explain connect nohost: exit 2, not a network target" 2 \
	"ward: 'nohost' is not HOST:PORT, [IPV6]:PORT, unix:PATH, unix-abstract:NAME or socket:KIND" explain connect nohost
t_fail "ward explain read memfd:x: exit 2, memfd takes exec only" 2 \
	"ward: memfd: targets take only the exec op" explain read memfd:x
t_fail_glob "ward check --bogus: exit 2, error as 'ward: ...'" 2 "ward: *" check --bogus
t_fail_glob "ward explain --bogus: exit 2, error as 'ward: ...'" 2 "ward: *" explain --bogus read /x
t_fail_glob "ward trust a b: exit 2, usage" 2 "usage: ward trust*" trust a b

echo "# ward explain, as $ME_USER"
explain_suite "" "$ME_UID" "$ME_USER"

echo "# explain --resolve"
# ward resolves the name itself (/etc/hosts has localhost everywhere) and
# judges each address with the name: one line each.
w explain --resolve -r 'allow connect localhost:8080' connect localhost:8080
lo=$(grep -c '^allow connect localhost:8080 (127\.0\.0\.1) --rule:1$' <<<"$OUT")
other=$(grep -vc '^allow connect localhost:8080 (.*) --rule:1$' <<<"$OUT")
check "explain --resolve connect localhost:8080: each address, judged with the name" \
	"rc=0 lo=1 other=0 err=" "rc=$RC lo=$lo other=$other err=$ERR"
t_explain "explain connect localhost:8080 without --resolve: the name alone" \
	"allow connect localhost:8080 --rule:1" -r 'allow connect localhost:8080' connect localhost:8080
t_explain "explain --resolve of an address: as without" \
	"allow connect 127.0.0.1:8080 --rule:1" --resolve -r 'allow connect 127.0.0.1:8080' connect 127.0.0.1:8080
t_fail "explain --resolve of a name that does not resolve: exit 125" 125 \
	"ward: cannot resolve 'no-such-name.invalid': no such name" \
	explain --resolve connect no-such-name.invalid:80

echo "# policy errors"
cd "$P" || exit 2
t_fail "explain -r 'allow raed /x': exit 125, --rule:1:7 unknown op" 125 \
	"ward: --rule:1:7: unknown op 'raed'" explain -r 'allow raed /x' read /x
t_fail "explain with a bad second -r: --rule:2:12 names the op inside a list" 125 \
	"ward: --rule:2:12: unknown op 'raed'" explain -r 'allow read /y' -r 'allow read,raed /x' read /x
t_fail "check -r 'frob read /x': exit 1, unknown statement" 1 \
	"ward: --rule:1:1: unknown statement 'frob'" check -r 'frob read /x'
t_fail "explain -r with an unknown errno: exit 125" 125 \
	"ward: --rule:1:1: unknown errno in 'deny(EFOO)'" explain -r 'deny(EFOO) read /x' read /x
t_fail_glob "explain -r 'allow connect /x': the op does not apply, column of the target" 125 \
	"ward: --rule:1:15: *'connect'*'/x'*" explain -r 'allow connect /x' read /x
t_fail_glob "explain -r with an unknown variable: exit 125, names the word" 125 \
	"ward: --rule:1:12: *'\$NOPE/x'*" explain -r 'allow read $NOPE/x' read /x

printf 'allow write /srv/good\nallow wrte /srv/bad\n' >bad.policy
printf '# comment\n\n  deny read $NOPE/x\n' >badvar.policy
printf 'allow read "/a b\n' >badquote.policy
printf 'include sub/one.policy\n' >cycle.policy
mkdir -p sub
printf 'include two.policy\n' >sub/one.policy
printf 'include one.policy\n' >sub/two.policy

t_fail "check bad.policy: exit 1, FILE:LINE:COL and the offending word" 1 \
	"ward: bad.policy:2:7: unknown op 'wrte'" check bad.policy
t_fail "check -p bad.policy: the same error" 1 \
	"ward: bad.policy:2:7: unknown op 'wrte'" check -p bad.policy
t_fail "explain -p bad.policy: refused whole, the good line 1 does not apply (exit 125)" 125 \
	"ward: bad.policy:2:7: unknown op 'wrte'" explain -p bad.policy write /srv/good
t_fail "check badvar.policy: unknown variable, at the word's column" 1 \
	"ward: badvar.policy:3:13: unknown variable: '\$NOPE/x'" check badvar.policy
t_fail "check badquote.policy: unterminated quote, at the quote's column" 1 \
	"ward: badquote.policy:1:12: unterminated quote" check badquote.policy
t_fail_glob "check cycle.policy: an include cycle is an error" 1 \
	"ward: *sub/two.policy:1:9: include cycle*" check cycle.policy
# ward explain says when a deny is hard; a user rule that undoes a profile's
# protection is named (by explain and check as by run); a rule naming /.git
# at the root too (a $PROJECT the shell expanded to nothing).
w explain read /proc/1/environ
check "explain: a hard deny says no rule can override it" \
	"ward: $(loc self 'deny!' read @foreign-proc-private) is a hard deny (deny!): no rule of any layer can override it" "$ERR"
w explain write "$P/x"
check "explain: a soft decision says nothing more" "" "$ERR"
w check -r 'allow write,create,delete $PROJECT/.git/**'
check_match "check: a --rule that reopens .git/hooks is named" \
	"*ward: --rule:1 (allow write,create,delete $P/.git/\*\*) undoes what the profile keeps from the agent: *deny write $P/.git/hooks/\*\* ($(loc default deny write '$PROJECT/.git/hooks/**'))*" "$ERR"
w check -q -r 'allow write,create,delete $PROJECT/.git/**'
check "check -q: not named" "" "$ERR"
w check -r 'allow write /.git/hooks/**'
check_match "check: a rule naming /.git at the root is warned about" \
	"*ward: --rule:1 names /.git/hooks/\*\*, at the root: did the shell expand \$PROJECT to nothing?*" "$ERR"

# A --rule's relative path is the project's (issue 24); in a file it is an error.
w check -q -r 'allow read ./x' -r 'allow write build/**'
check_has_line "check -r 'allow read ./x': a relative path in a --rule is the project's" "$OUT" \
	"allow read $P/x # --rule:1"
check_has_line "...and build/** too" "$OUT" "allow write $P/build/** # --rule:2"
printf 'allow read ./x\n' >relative.policy
t_fail_glob "check relative.policy: a relative path in a file is named as such" 1 \
	"ward: relative.policy:1:12: *absolute*'./x'*" check relative.policy
t_fail "check missing.policy: exit 1, names the file" 1 \
	"ward: missing.policy: cannot open: No such file or directory" check missing.policy
t_fail "check --profile nope: exit 1" 1 "ward: unknown profile 'nope'" check --profile nope
t_fail "explain --profile self: the self rules are not a profile" 125 \
	"ward: unknown profile 'self'" explain --profile self write /srv/x

echo "# ward check: the compiled policy"
w check
check "check: exit 0, nothing on stderr" "rc=0 err=" "rc=$RC err=$ERR"
check "check: the first line is the self layer" "# layer self builtin:self" "${OUT%%$'\n'*}"
check "check: the last three lines are the settings" \
	$'set undecided ask\nset ask-timeout 300\nset log-retention 30d 1G' "$(printf '%s\n' "$OUT" | tail -n 3)"
check "check: layers self, then profile default, then where git looks (builtin:git)" \
	$'# layer self builtin:self\n# layer profile builtin:default\n# layer profile builtin:git' \
	"$(printf '%s\n' "$OUT" | grep '^# layer')"
check_has_line "check: a profile rule, expanded, with its location" "$OUT" \
	"deny read $H/.ssh/** # $(loc default deny read '~/.ssh/**')"
check_has_line "check: a self rule, expanded, with its location" "$OUT" \
	"deny! read,write,create,delete,exec $CFG/ward/** # $(loc self 'deny!' read '$XDG_CONFIG_HOME/ward/**')"
check_has_line "check: \$PROJECT is the real project path" "$OUT" \
	"allow write,create,delete $P/** # $(loc default allow write '$PROJECT/**')"
check_has_line "check: deny(ENOENT) is printed with its errno" "$OUT" \
	"deny(ENOENT) read $H/.netrc # $(loc default 'deny(ENOENT)' read '~/.netrc')"

mkdir -p real/dir
ln -sfn real link
ln -sfn "$P" "$BASE/projlink"
cat >good.policy <<'EOF'
# a good policy: every line is checked in the compiled form
allow   write              /srv/data/**
deny    read               $PROJECT/secret/**
allow   read,write         $PROJECT/link/dir/*.txt
deny    write              $PROJECT/link/nowhere/x
allow   stat,read          /srv/./a/../b/**
deny(EROFS) write          /srv/ro/**
rewrite write,create       ~/.cache/** -> $TMPDIR/cache/**
allow   connect            *.example.com:443 10.0.0.0/8:5432
allow   *                  /srv/all
allow   read               "/srv/with blank"
ask     exec               /usr/bin/sudo  # a comment after the targets
EOF
w check good.policy
check "check good.policy: exit 0, nothing on stderr" "rc=0 err=" "rc=$RC err=$ERR"
check "check good.policy: layers self, profile, then the file" \
	$'# layer self builtin:self\n# layer profile builtin:default\n# layer profile builtin:git\n# layer policy good.policy' \
	"$(printf '%s\n' "$OUT" | grep '^# layer')"
rules=$(printf '%s\n' "$OUT" | sed -n '/^# layer policy good.policy$/,$p' | tr -s ' ' ' ')
check "check good.policy: the file's rules, canonical and expanded, then the settings" \
	"# layer policy good.policy
allow write /srv/data/** # good.policy:2
deny read $P/secret/** # good.policy:3
allow read,write $P/real/dir/*.txt # good.policy:4
deny write $P/real/nowhere/x # good.policy:5
allow read,stat /srv/b/** # good.policy:6
deny(EROFS) write /srv/ro/** # good.policy:7
rewrite write,create $H/.cache/** -> $TMPD/cache/** # good.policy:8
allow connect *.example.com:443 # good.policy:9
allow connect 10.0.0.0/8:5432 # good.policy:9
allow read,write,create,delete,exec,stat /srv/all # good.policy:10
allow read /srv/with blank # good.policy:11
ask exec /usr/bin/sudo # good.policy:12
set undecided ask
set ask-timeout 300
set log-retention 30d 1G" "$rules"

# A restricting rule holds where the symlinks it names lead, and the links' own names.
mkdir -p real/kept && printf 'x\n' >real/kept/f && ln -sfn ../kept/f real/dir/lf
printf 'deny write,create,delete $PROJECT/link/dir/**\nallow write $PROJECT/link/dir/**\n' >links.policy
w check links.policy
rules=$(printf '%s\n' "$OUT" | sed -n '/^# layer policy links.policy$/,/^set /p' | tr -s ' ' ' ')
check "check: a deny's link below its pattern, and the link on the way, by a symlink; not an allow's" \
	"# layer policy links.policy
deny write,create,delete $P/real/dir/** # links.policy:1
deny create,delete $P/lin[\\k] # links.policy:1, by a symlink
deny write,create,delete $P/real/kept/f/** # links.policy:1, by a symlink
deny write,create,delete $P/real/kept/f # links.policy:1, by a symlink
allow write $P/real/dir/** # links.policy:2
set undecided ask" "$rules"
t_explain "explain: writing where the link leads is the deny's" \
	"deny write $P/real/kept/f links.policy:1" -p links.policy write "$P/real/kept/f"
rm -f real/dir/lf links.policy

cat >settings.policy <<'EOF'
set undecided deny
set ask-timeout 30
set log-retention 7d
EOF
w check settings.policy
check "check: a file's set lines end the output" \
	$'set undecided deny\nset ask-timeout 30\nset log-retention 7d 1G' "$(printf '%s\n' "$OUT" | tail -n 3)"
w check --undecided allow settings.policy
check "check --undecided allow: overrides the file's set undecided" \
	$'set undecided allow\nset ask-timeout 30\nset log-retention 7d 1G' "$(printf '%s\n' "$OUT" | tail -n 3)"
printf 'set log-retention 500M 0d\n' >retention.policy
w check settings.policy retention.policy
check "check: a later log-retention sets what it names; 0 turns a limit off" \
	"set log-retention 0d 500M" "$(printf '%s\n' "$OUT" | tail -n 1)"
rm -f retention.policy
w check --profile strict
check "check --profile strict: the strict profile's layer and settings" \
	$'# layer self builtin:self\n# layer profile builtin:strict\n# layer profile builtin:git\nset undecided deny' \
	"$(printf '%s\n' "$OUT" | grep -e '^# layer' -e '^set undecided')"
w check -p good.policy -r 'allow write /srv/r1' -r 'deny write /srv/r2'
check_has_line "check -r: the first --rule's location" "$OUT" "allow write /srv/r1 # --rule:1"
check_has_line "check -r: the second --rule's location" "$OUT" "deny write /srv/r2 # --rule:2"
check "check -p -r: the --rule rules come after the file's" \
	"good.policy:12 --rule:1 --rule:2" \
	"$(printf '%s\n' "$OUT" | sed -n 's/.* # \(good.policy:12\|--rule:[0-9]*\)$/\1/p' | tr '\n' ' ' | sed 's/ $//')"
printf 'allow read /srv/pa\n' >a.policy
printf 'allow read /srv/pb\n' >b.policy
w check b.policy -p a.policy
check "check FILE -p FILE: options after a file are options too" \
	"rc=0 err= layers=# layer policy a.policy # layer policy b.policy" \
	"rc=$RC err=$ERR layers=$(printf '%s\n' "$OUT" | grep '^# layer policy' | sort | tr '\n' ' ' | sed 's/ $//')"
cd / || exit 2
w check --project "$BASE/projlink"
check_has_line "check --project through a symlink: \$PROJECT is the resolved dir" "$OUT" \
	"allow write,create,delete $P/** # $(loc default allow write '$PROJECT/**')"
cd "$P" || exit 2

echo "# the user layer"
mkdir -p "$CFG/ward"
printf '# the user policy\nallow write /srv/user/**\n' >"$CFG/ward/policy"
t_explain "user policy: its rule applies, located at \$XDG_CONFIG_HOME/ward/policy:LINE" \
	"allow write /srv/user/f $CFG/ward/policy:2" write /srv/user/f
t_explain "user policy: a --rule still wins over it" \
	"deny write /srv/user/f --rule:1" -r 'deny write /srv/user/**' write /srv/user/f
w check -p good.policy
check "check: layers self, profile, user, policy" \
	"# layer self builtin:self
# layer profile builtin:default
# layer profile builtin:git
# layer user $CFG/ward/policy
# layer policy good.policy" "$(printf '%s\n' "$OUT" | grep '^# layer')"
check_has_line "check: the user rule with its location" "$OUT" \
	"allow write /srv/user/** # $CFG/ward/policy:2"
mkdir -p "$H/.config/ward"
printf 'allow write /srv/user/**\n' >"$H/.config/ward/policy"
RUNAS=(env -u XDG_CONFIG_HOME)
t_explain "without XDG_CONFIG_HOME, ~/.config/ward/policy is the user policy" \
	"allow write /srv/user/f $H/.config/ward/policy:1" write /srv/user/f
RUNAS=()
rm -rf "$H/.config"
printf 'allow write /srv/user/**\nallow wrte /srv/user2\n' >"$CFG/ward/policy"
t_fail "a user policy with an error: explain exits 125 naming it" 125 \
	"ward: $CFG/ward/policy:2:7: unknown op 'wrte'" explain write /srv/user/f
rm -f "$CFG/ward/policy"

echo "# project trust"
rm -rf "$CFG/ward"
mkdir -p "$P/.ward"
printf '# the project policy\nallow write /srv/proj/**\n' >"$P/.ward/policy"
w explain write /srv/proj/f
check "untrusted project policy: not applied" "rc=0 out=ask write /srv/proj/f undecided" "rc=$RC out=$OUT"
check_warning "untrusted project policy: a warning on stderr"
w check
check_no_line "check: an untrusted project policy is not a layer" "$OUT" "# layer project $P/.ward/policy"
check_no_line "check: nor are its rules" "$OUT" "allow write /srv/proj/** # $P/.ward/policy:2"
t_fail "ward trust: exit 0, silent" 0 "" trust
t_explain "trusted project policy: applied, located at .ward/policy:LINE" \
	"allow write /srv/proj/f $P/.ward/policy:2" write /srv/proj/f
w check
check_has_line "check: the trusted project layer" "$OUT" "# layer project $P/.ward/policy"
check_has_line "check: the project rule with its location" "$OUT" \
	"allow write /srv/proj/** # $P/.ward/policy:2"
printf '# edited\n' >>"$P/.ward/policy"
w explain write /srv/proj/f
check "edited project policy: no longer applied" "rc=0 out=ask write /srv/proj/f undecided" "rc=$RC out=$OUT"
check_warning "edited project policy: the warning again"
w explain -q write /srv/proj/f
check "explain -q: no warning" "rc=0 out=ask write /srv/proj/f undecided err=" "rc=$RC out=$OUT err=$ERR"
t_fail "ward trust again: exit 0" 0 "" trust
t_explain "re-trusted: applied again" "allow write /srv/proj/f $P/.ward/policy:2" write /srv/proj/f

printf 'allow write /srv/proj/**\nallow wrte /srv/projbad\n' >"$P/.ward/policy"
t_fail "ward trust on a policy with an error: exit 1, names FILE:LINE:COL" 1 \
	"ward: $P/.ward/policy:2:7: unknown op 'wrte'" trust
w explain write /srv/proj/f
check "the bad policy was not trusted: its good line does not apply" \
	"rc=0 out=ask write /srv/proj/f undecided" "rc=$RC out=$OUT"
check_warning "the bad policy was not trusted: the warning"

printf 'allow write /srv/proj/**\n' >"$P/.ward/policy"
cd "$BASE" || exit 2
t_fail "ward trust DIR from elsewhere: exit 0" 0 "" trust "$P"
t_explain "ward explain --project DIR from elsewhere: trusted policy applied" \
	"allow write /srv/proj/f $P/.ward/policy:1" --project "$P" write /srv/proj/f
cd "$P" || exit 2
t_explain "after ward trust DIR: applied in DIR" \
	"allow write /srv/proj/f $P/.ward/policy:1" write /srv/proj/f
cd "$BASE/projlink" || exit 2
t_explain "from the project reached through a symlink: still trusted" \
	"allow write /srv/proj/f $P/.ward/policy:1" write /srv/proj/f
cd "$P" || exit 2

mkdir -p "$BASE/noproj"
t_fail "ward trust DIR without .ward/policy: exit 1" 1 \
	"ward: cannot trust $BASE/noproj/.ward/policy: No such file or directory" trust "$BASE/noproj"
t_fail "ward trust on a missing DIR: exit 1" 1 \
	"ward: project directory '$BASE/nodir': No such file or directory" trust "$BASE/nodir"

# Trust covers one file, so a project policy may not include others: an
# included file could change without untrusting the policy.
printf 'include extra.policy\n' >"$P/.ward/policy"
printf 'allow write /srv/inc/one\n' >"$P/.ward/extra.policy"
t_fail "ward trust on a policy with an include: refused" 1 \
	"ward: $P/.ward/policy:1:1: 'include' is not allowed in a project policy (trust covers one file): 'extra.policy'" trust
w explain write /srv/inc/one
check "an untrusted policy with an include: its included rule does not apply" \
	"rc=0 out=ask write /srv/inc/one undecided" "rc=$RC out=$OUT"
rm -rf "$P/.ward"

summary
