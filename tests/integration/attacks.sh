#!/bin/bash
# attacks.sh BUILD_DIR [root|nobody] - run every attack of tests/attacks/
# natively, where it must get through, and under `ward run`, where it must
# be stopped (DESIGN.md §1, §2).
#
# Each attack program runs, dynamic and static, in a fresh project:
#     secret/x   "WARD-SECRET-<random>", under `-r 'deny read $PROJECT/secret/**'`
#     public/x   "PUBLIC-CONTENT"
#     sub/deep/  empty directories
#     bin/mycat  a copy of /bin/cat
# twice (see tests/attacks/attack.h for what a program prints):
#   - natively, with a stand-in for ward as its parent (a shell that waits
#     for it, in a session of its own, as ward is): it must get through
#     (RESULT: through, or the stand-in killed, or what the mode's check
#     looks at changed).  An attack that does not is broken, and fails: it
#     would otherwise look like one ward stopped.  Where the kernel itself
#     stops an attack (for nobody, say), the mode says so and the native
#     run must be stopped too; a mode with nothing to attack without ward
#     (ward's worker pool, its rewrite rules, its log) says so and has no
#     native run.
#   - under ward, with the default profile plus that rule (and a few more
#     for some tests), ward in a session and process group of its own
#     (setsid); it asserts:
#       - the secret's content never appears in the output, and no LEAK line;
#       - the program ran to its end and said "RESULT: stopped" (attempts
#         made, each refused with the policy's errno or checked), exit 0;
#         "not-tried" (a MISSED line: another error, nothing to try, a race
#         that never reached its window; or a failed setup) fails;
#       - ward survived: its exit status is the agent's (0) and its log ends
#         with a "session-end" event carrying that status;
#       - the secret is unchanged (same bytes, same place);
#       - nothing hung (each run has a timeout);
#       - for the network attacks, the service outside the session that they
#         try to reach logged no connection and no datagram.
# Parts (each its own ctest; "root" and "nobody" exit 77 unless root):
#   (none)   the attacks that need nothing special, as the user running this
#   root     those that need root: mount namespaces, loop devices, device
#            nodes, ns_last_pid
#   nobody   the attacks of the first part as nobody:nogroup, from copies
#            of ward, the attacks and this script staged where nobody can
#            run them (the build tree may not be reachable)
#
# Output: TAP (lib.sh).  Known open weaknesses (KNOWN_OPEN below) are TODO
# lines: only their expected leak is excused, and one that stops leaking
# fails, so that its entry goes.
#
# The tests follow the attack list of the brief (1-17: races on the path,
# symlink swaps, dirfd and .., /proc, new names, O_PATH, raw syscalls, the
# environment, the loader, memfd exec, attacks on ward itself, a second
# listener, io_uring/clone3, TIOCSTI, other ABIs, bad pointers, exec
# races), then what else DESIGN.md §1 rules out: O_RDWR opens, FIFOs that
# wedge ward, services outside the session, the audit log, unlinking
# during a decision, syscalls newer than ward's table, detached mounts and
# fanotify (the last two need root), openat2 flag races; then the network:
# UDP, IPv6 and mapped addresses, TCP fast open, unix datagrams, unix path
# tricks, socket kinds and IP options, what a bind makes the session's, and
# races on the sockaddr.  Each program's header says what it tries.  In
# ward options, @P@ stands for the project.
#
# Environment: ATTACK_SECONDS (length of each race, default 3 for dynamic
# and 1.5 for static builds, 1 in the unprivileged pass; 4 for the unlink
# race and the bind swap), ATTACKS_ONLY (an extended regex: run only the
# tests whose name matches; one that matches nothing fails), ATTACKS_VERBOSE
# (show what each passing run printed too), WARD_TESTS_WARD_ONLY (make asan:
# only the runs under ward), WARD_TESTS_OPTS (options, split at spaces, for
# every `ward run`: the ctest attacks-no-preload gives --no-preload).

. "$(dirname "$0")/lib.sh"
umask 022

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	bail "usage: $0 BUILD_DIR [root|nobody]"
fi
BUILD=$(cd "$1" && pwd -P)
PART=${2:-}
WARD=$BUILD/ward
ATT=$BUILD/tests/attacks
SELF=$(cd "$(dirname "$0")" && pwd -P)/$(basename "$0")
[ -x "$WARD" ] && [ -x "$ATT/attack_race_path" ] ||
	bail "build ward and the attacks first (make -C $1 ward attacks)"
[ -x /lib64/ld-linux-x86-64.so.2 ] ||
	bail "the loader attacks need /lib64/ld-linux-x86-64.so.2 (x86-64 glibc)"
for tool in setsid timeout sha256sum; do
	command -v "$tool" >/dev/null || bail "$tool is needed"
done

read -ra WARD_OPTS <<<"${WARD_TESTS_OPTS:-}"
UNLINK_SECONDS=${ATTACK_SECONDS:-4}
ONLY=${ATTACKS_ONLY:-}

case $PART in
"" | nobody-inner) ;;
root) [ "$(id -u)" = 0 ] || skip_all "needs root" ;;
nobody)
	# This script again, as nobody, from copies nobody can reach: the
	# build tree may lie where only its owner may go.
	nobody_ready || skip_all "$NB_WHY"
	make_base attacks-nobody
	S=$BASE/stage
	stage "$S/build" "$WARD"
	stage "$S/build/tests/attacks" "$ATT"/attack_*
	stage "$S" "$(dirname "$SELF")/lib.sh"
	cp "$SELF" "$S/attacks.sh" && chmod a+r "$S/attacks.sh" || bail "cannot stage $SELF"
	mkdir -p "$S/tmp"
	chown -R "$NB_UID:$NB_GID" "$S/tmp"
	as_nobody env -i PATH="$PATH" TMPDIR="$S/tmp" ATTACKS_ONLY="$ONLY" \
		${ATTACKS_VERBOSE:+ATTACKS_VERBOSE="$ATTACKS_VERBOSE"} \
		${WARD_TESTS_WARD_ONLY:+WARD_TESTS_WARD_ONLY="$WARD_TESTS_WARD_ONLY"} \
		${WARD_KERNEL_FEATURES:+WARD_KERNEL_FEATURES="$WARD_KERNEL_FEATURES"} \
		${WARD_DEGRADED:+WARD_DEGRADED="$WARD_DEGRADED"} \
		${WARD_TESTS_OPTS:+WARD_TESTS_OPTS="$WARD_TESTS_OPTS"} \
		${ATTACK_SECONDS:+ATTACK_SECONDS="$ATTACK_SECONDS"} ATTACKS_DEFAULT_SECONDS=1 \
		bash "$S/attacks.sh" "$S/build" nobody-inner
	exit $?
	;;
*) bail "unknown part '$PART'" ;;
esac
# The pass: the name of the user the attacks run as.
if [ "$PART" = nobody-inner ]; then
	PASS_NAME=nobody
	pass "the unprivileged pass runs as nobody ($(id -u)) from copies it can reach ($BUILD)"
else
	PASS_NAME=$(id -un)
fi

make_base attacks
HELPERS=()
ATTACKS_RUN=0 # the attacks run (a filter may select none: that fails)
at_exit 'for h in "${HELPERS[@]}"; do kill "$h" 2>/dev/null; done'

# Hermetic: no configuration of the host's user applies.
hermetic "$BASE"
mkdir -p "$BASE/logs"
TOKEN=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
SECRET_TEXT="WARD-SECRET-$TOKEN"
ward_probe "$WARD"

# ---------------------------------------------------------------- helpers

# Weaknesses that are known and open, each with where its fix is planned,
# and the one leak it is known by.  That leak, and nothing else, is
# reported as TODO (neither a pass nor a failure); when it stops, the test
# fails so that the entry goes.
declare -A KNOWN_OPEN=(
	["loader nosect"]="a loader is told by its soname; a doctored copy (or any loader the agent writes) runs as a static program: deny read to keep a program from running (README, Limits)"
)
declare -A KNOWN_LEAK=(
	["loader nosect"]="LEAK: ./ldnosect (no section headers) bin/mycat: the denied program ran "
)
# Under --degraded (WARD_DEGRADED: make degraded), the attacks whose target
# is not there, each with why: a skip, said so.  Every other attack must
# fail under --degraded as it does under notification.  (Without openat2
# ward waits for a FIFO's other end itself, so "fifo many" runs there.)
declare -A DEGRADED_ABSENT=(
	["fifo many"]="under --degraded a FIFO open waits in the agent's own kernel (supervisor/degraded.c): ward holds nothing for it, so there is no pool to exhaust"
)
# Attacks made of openat2 alone, on a kernel without it (before 5.6:
# ward's run of one masks it) where every openat2 is ENOSYS: nothing to try.
declare -A OPENAT2_ABSENT=(
	["openat2_race"]="a kernel without openat2 (before 5.6, or masked) has no struct open_how to flip: every openat2 is ENOSYS"
)
known_open() { # MODEKEY -> 0 when it is a known open weakness
	[ -n "${KNOWN_OPEN[$1]:-}" ]
}

make_project() { # DIR
	mkdir -p "$1/secret" "$1/public" "$1/sub/deep" "$1/bin"
	printf '%s\n' "$SECRET_TEXT" >"$1/secret/x"
	printf 'PUBLIC-CONTENT\n' >"$1/public/x"
	cp /bin/cat "$1/bin/mycat"
	chmod 755 "$1/bin/mycat"
}

# The last line of a log, and the status of its session-end event.
log_end_ok() { # LOG RC -> 0 when the log ends with session-end carrying RC
	local last
	[ -s "$1" ] || return 1
	last=$(tail -n 1 "$1")
	case $last in
	*'"event":"session-end"'*) ;;
	*) return 1 ;;
	esac
	case $last in
	*"\"status\":$2,"* | *"\"status\":$2}"*) return 0 ;;
	esac
	return 1
}

# Per-test settings, reset after each test.
T_ENV=()      # extra VAR=VALUE for the agent's environment
T_LOG=""      # a --log path (default: $BASE/logs/N.jsonl)
T_TIMEOUT=25
T_PRE=""      # a function run with the project dir before ward starts
T_POST=""     # a function run after the test (helpers to stop)
T_CHECK=""    # a function run last; what it prints is why the test failed
T_WRAP=()     # a command ward is run under (@P@: the project)
T_PART=""     # "root": the test belongs to the root part
T_NATIVE=""   # "kernel: WHY": natively the kernel stops it too;
              # "none: WHY": nothing to attack without ward, no native run
T_NATIVE_NOBODY="" # the same, for the unprivileged pass only

# Whether ward runs as on a kernel without openat2: masked, or this one's.
no_openat2() {
	[[ ",${WARD_KERNEL_FEATURES:-}," == *,-openat2,* || ",${ATTACK_KERNEL_LACKS:-}," == *,openat2,* ]]
}

# attack NAME MODE DESCRIPTION [ward options...]: both builds, natively
# and under ward.
attack() {
	local name=$1 mode=$2 desc=$3 kind bin
	shift 3
	local part=$T_PART
	[ "$PART" = nobody-inner ] && part=${part:-nobody-inner}
	if [ "$part" = "${PART}" ]; then
		for kind in dynamic static; do
			bin=attack_$name
			[ "$kind" = static ] && bin=$bin-static
			if [ -n "${WARD_DEGRADED:-}" ] && [ -n "${DEGRADED_ABSENT[$name${mode:+ $mode}]:-}" ] &&
				! no_openat2; then
				selected "$name${mode:+ $mode} ($kind): $desc" &&
					skip "$name${mode:+ $mode} ($kind): $desc" "${DEGRADED_ABSENT[$name${mode:+ $mode}]}"
				continue
			fi
			if no_openat2 && [ -n "${OPENAT2_ABSENT[$name${mode:+ $mode}]:-}" ]; then
				selected "$name${mode:+ $mode} ($kind): $desc" &&
					skip "$name${mode:+ $mode} ($kind): $desc" "${OPENAT2_ABSENT[$name${mode:+ $mode}]}"
				continue
			fi
			run_one "$name${mode:+ $mode}" "$kind" "$desc" "$bin" "$mode" "$@"
		done
	fi
	T_ENV=() T_LOG="" T_TIMEOUT=25 T_PRE="" T_POST="" T_CHECK="" T_WRAP=() T_PART=""
	T_NATIVE="" T_NATIVE_NOBODY=""
}

# needs_root WHAT [REASON-IT-CANNOT-RUN]: for a block of tests that need
# root (and maybe more): 0 when this is the root part and they can run;
# a skip when this is the root part and they cannot; 1 otherwise.
needs_root() {
	[ "$PART" = root ] || return 1
	if [ -n "${2:-}" ]; then
		selected "$1" && skip "$1" "$2"
		return 1
	fi
	T_PART=root
	return 0
}

selected() { # TITLE: chosen by ATTACKS_ONLY?
	[ -z "$ONLY" ] || [[ $1 =~ $ONLY ]]
}

# The tag and the substitutions of one run.
expand() { # WORD... -> the words with @P@ replaced (in ARGS)
	ARGS=()
	local a
	for a in "$@"; do ARGS+=("${a//@P@/$P}"); done
}

# One run of BIN MODE in a fresh project $P; sets OUT, RC, BEFORE.
# WARDED: "yes" under ward, "" natively (under the stand-in).
run_in_project() { # WARDED BIN MODE [ward options...]
	local warded=$1 bin=$2 mode=$3 secs
	shift 3
	P=$BASE/p$((T_N + 1))
	RUN_NATIVE=yes # for T_PRE: the native run, or the one under ward
	[ -n "$warded" ] && RUN_NATIVE=""
	LOG=${T_LOG:-$BASE/logs/$((T_N + 1)).jsonl}
	LOG=${LOG//@P@/$P}
	rm -rf "$P" "$P.standin"
	make_project "$P"
	BEFORE=$(sha256sum <"$P/secret/x")
	secs=${ATTACK_SECONDS:-${ATTACKS_DEFAULT_SECONDS:-}}
	[ -z "$secs" ] && { [ "$KIND" = static ] && secs=1.5 || secs=3; }
	[ -n "$T_PRE" ] && "$T_PRE" "$P"
	expand "${T_ENV[@]}"
	local envs=("${ARGS[@]}")
	expand "$@"
	local wargs=("${ARGS[@]}")
	expand "${T_WRAP[@]}"
	local wrap=("${ARGS[@]}")
	local runner
	if [ -n "$warded" ]; then
		runner=("$WARD" run -q "${WARD_OPTS[@]}" --log "$LOG" -r "deny read $P/secret/**" "${wargs[@]}" --)
	else
		# The stand-in for ward: a shell that waits for the attack, kept
		# going by a helper of its own should the attack stop or trace it,
		# and that says it reached its end (an attack that kills it does
		# not let it).
		runner=(bash -c 'kick() { while kill -CONT "$1" 2>/dev/null; do sleep 0.1; done; }
			m=$1; shift; kick $$ & k=$!; "$@" & a=$!; wait $a; s=$?; kill $k; echo $s >"$m"; exit $s'
			standin "$P.standin")
		envs+=(ATTACK_NATIVE=1)
	fi
	OUT=$(cd "$P" && "${wrap[@]}" env ATTACK_SECONDS="$secs" "${envs[@]}" \
		timeout -k 5 "$(slow "$T_TIMEOUT")" setsid -w "${runner[@]}" "$ATT/$bin" ${mode:+"$mode"} \
		</dev/null 2>&1)
	RC=$?
	[ -n "$T_POST" ] && "$T_POST" "$P"
}

# What changed in the project that the mode's check, and the secret, show.
effects() { # -> the reasons, one a line
	local checked
	if [ -n "$T_CHECK" ] && checked=$("$T_CHECK" "$P") && [ -n "$checked" ]; then
		printf '%s\n' "$checked"
	fi
	if [ ! -f "$P/secret/x" ]; then
		echo "the secret was moved or removed"
	elif [ "$(sha256sum <"$P/secret/x")" != "$BEFORE" ]; then
		echo "the secret was modified"
	fi
}

result_of() { # OUTPUT -> the word of its RESULT line, or none
	local r
	r=$(printf '%s\n' "$1" | sed -n 's/^RESULT: //p' | tail -n 1)
	echo "${r:-none}"
}

quote_out() { # the output, secret token hidden, failures first
	printf '%s\n%s\n' "$(printf '%s\n' "$OUT" | grep -E '^(LEAK|WRONG|MISSED|SETUP)')" \
		"$(printf '%s\n' "$OUT" | grep -vE '^(LEAK|WRONG|MISSED|SETUP)')" |
		sed '/^$/d' | sed "s/$TOKEN/<TOKEN>/g"
}

# What this kernel lacks, asked of it here, outside ward (under ward an
# ENOSYS could be ward's own; lib.sh): an attempt at it is absent, not
# missed (tests/attacks/attack.h), and an attack made only of such is a skip.
ATTACK_KERNEL_LACKS=$(kernel_lacks_list) || bail "cannot ask the kernel what it lacks"
env -u WARD_KERNEL_FEATURES "$WARD" --version | grep -q ': no seccomp user notification' &&
	ATTACK_KERNEL_LACKS=${ATTACK_KERNEL_LACKS:+$ATTACK_KERNEL_LACKS,}user_notif
export ATTACK_KERNEL_LACKS
echo "# this kernel lacks: ${ATTACK_KERNEL_LACKS:-nothing the attacks ask about}"

run_one() { # KEY KIND DESC BIN MODE [ward options...]
	local key=$1 desc=$3 bin=$4 mode=$5
	KIND=$2
	shift 5
	local title="$key ($KIND): $desc"
	selected "$title" || return 0
	ATTACKS_RUN=$((ATTACKS_RUN + 1))
	local native=$T_NATIVE
	[ "$PASS_NAME" = nobody ] && [ -n "$T_NATIVE_NOBODY" ] && native=$T_NATIVE_NOBODY
	# The sanitizers' pass (make asan) tests ward, which a native run does not
	# run: the plain pass made those, with the same attack programs.
	[ -n "${WARD_TESTS_WARD_ONLY:-}" ] && native="none: the plain pass makes the native runs"

	# Natively first: an attack that does not get through there is broken.
	local ntitle="$key ($KIND), natively: $desc"
	case $native in
	none:*) echo "# $ntitle: no native run (${native#none: })" ;;
	*)
		run_in_project "" "$bin" "$mode"
		local r eff
		r=$(result_of "$OUT")
		eff=$(effects)
		[ -s "$P.standin" ] || eff="${eff:+$eff; }the stand-in for ward did not reach its end (exit $RC)"
		printf '%s\n' "$OUT" | grep -q '^LEAK' && eff="${eff:+$eff; }a LEAK line"
		if [ "$r" = absent ] && [ -z "$eff" ]; then
			skip "$ntitle" "$(printf '%s\n' "$OUT" | grep -m1 '^absent: ')"
		elif [ -z "$native" ]; then
			if [ "$r" = through ] || [ -n "$eff" ]; then
				pass "$ntitle: gets through"
			else
				fail "$ntitle: gets through" \
					"natively it did not get through (RESULT: $r, exit $RC): the attack is broken" \
					"$(quote_out)"
			fi
		elif [ "$r" = stopped ] && [ -z "$eff" ]; then
			pass "$ntitle: the kernel stops it too (${native#kernel: })"
		else
			fail "$ntitle: the kernel stops it too (${native#kernel: })" \
				"natively RESULT: $r, exit $RC${eff:+; $eff}" "$(quote_out)"
		fi
		rm -rf "$P" "$P.standin"
		;;
	esac

	# Under ward: stopped.
	run_in_project yes "$bin" "$mode" "$@"
	local why="" leaks wrongs r
	r=$(result_of "$OUT")
	leaks=$(printf '%s\n' "$OUT" | grep -E '^LEAK' || true)
	wrongs=$(printf '%s\n' "$OUT" | grep -E '^WRONG' || true)
	if [ $RC -eq 124 ] || [ $RC -eq 137 ] && ! log_end_ok "$LOG" "$RC"; then
		why="hung or killed: timeout after $(slow "$T_TIMEOUT")s or SIGKILL (exit $RC)"
	fi
	if [[ $OUT == *"$TOKEN"* ]]; then
		why="${why:+$why; }the secret's content appeared in the output"
	fi
	[ -n "$leaks" ] && why="${why:+$why; }got through: $(printf '%s\n' "$leaks" | head -n 1)"
	[ -n "$wrongs" ] && why="${why:+$why; }ward misbehaved: $(printf '%s\n' "$wrongs" | head -n 1)"
	if [ ! -e "$LOG" ]; then
		why="${why:+$why; }ward's log $LOG is gone"
	elif ! log_end_ok "$LOG" "$RC"; then
		why="${why:+$why; }ward did not survive: its log does not end with session-end (status $RC); last: $(tail -c 200 "$LOG" 2>/dev/null | tail -n 1)"
	elif [[ $(head -n 1 "$LOG") != *'"event":"session-start"'* ]]; then
		why="${why:+$why; }ward's log lost its beginning (no session-start first)"
	fi
	local eff
	eff=$(effects)
	if [ "$r" = absent ] && [ -z "$why" ] && [ $RC -eq 5 ] && [ -z "$eff" ]; then
		skip "$title" "$(printf '%s\n' "$OUT" | grep -m1 '^absent: ')"
		rm -rf "$P"
		return 0
	fi
	if [ "$r" = not-tried ] && [ -z "$why" ]; then
		why="not tried: $(printf '%s\n' "$OUT" | grep -E '^(MISSED|SETUP)' | head -n 1)"
		[ "$why" = "not tried: " ] && why="not tried: no attempt was stopped ($(printf '%s\n' "$OUT" | grep -c '^blocked') counted)"
	elif [ "$r" != stopped ] && [ -z "$why" ]; then
		why="the attack did not run to its end (RESULT: $r, exit $RC)"
	elif [ $RC -ne 0 ] && [ -z "$why" ]; then
		why="exit status $RC, expected 0"
	fi
	[ -n "$eff" ] && why="${why:+$why; }$(printf '%s\n' "$eff" | paste -sd';' - | sed 's/;/; /g')"
	if known_open "$key"; then
		# Only its known leak is excused, and only alone.
		local rest
		rest=$(printf '%s\n' "$OUT" | grep -E '^(LEAK|WRONG|MISSED|SETUP)' |
			grep -vF -e "${KNOWN_LEAK[$key]}" || true)
		if [[ $OUT != *"${KNOWN_LEAK[$key]}"* ]]; then
			fail "$title" "the known open weakness no longer leaks: remove its KNOWN_OPEN entry" \
				"${why:+under ward: $why}" "$(quote_out)"
		elif [ -n "$rest" ] || [ -n "$eff" ] || [[ $why == *"hung"* || $why == *"did not survive"* || $why == *"log"* ]]; then
			fail "$title" "more than its known leak: ${why//$TOKEN/<TOKEN>}" "$(quote_out)"
		else
			todo "$title" "${KNOWN_OPEN[$key]}" "$(printf '%s\n' "$leaks" | head -n 1 | sed "s/$TOKEN/<TOKEN>/g")"
		fi
	elif [ -z "$why" ]; then
		pass "$title"
		[ -n "${ATTACKS_VERBOSE:-}" ] && detail "$(quote_out)"
	else
		fail "$title" "${why//$TOKEN/<TOKEN>}" "$(quote_out)"
	fi
	rm -rf "$P"
}

# A process outside the session holding the secret (attack_proc victim);
# with "hop", its memfd has the inode number of a file of /usr (HOP_FILE).
start_victim() { # PROJECT [hop]
	local vpid vfile
	rm -f "$BASE/victim.pid"
	"$ATT/attack_proc" victim-serve "$1/secret/x" "$BASE/victim.pid" ${2:+"$2"} &
	HELPERS+=($!)
	wait_for 60 test -s "$BASE/victim.pid" ||
		bail "the victim process (attack_proc victim-serve) did not start"
	read -r vpid vfile <"$BASE/victim.pid"
	T_ENV=("VICTIM_PID=$vpid" ${vfile:+"HOP_FILE=$vfile"})
}
# T_PRE runs in the same shell: the environment for ward must be set here.
pre_victim() { start_victim "$1"; }
pre_victim_hop() { start_victim "$1" hop; }
post_helpers() {
	for h in "${HELPERS[@]}"; do kill "$h" 2>/dev/null; wait "$h" 2>/dev/null; done
	HELPERS=()
}

pre_race_files() { # PROJECT: secret/race/0..1499, the secret each
	mkdir -p "$1/secret/race"
	local i
	for ((i = 0; i < 1500; i++)); do printf '%s\n' "$SECRET_TEXT" >"$1/secret/race/$i"; done
}

SRV=$BASE/srv # where the outside service lives
pre_server() { # PROJECT: a service outside the session that hands out the secret
	rm -rf "$SRV"
	mkdir -p "$SRV"
	"$ATT/attack_connect" serve "$SRV" "$1/secret/x" &
	HELPERS+=($!)
	wait_for 30 test -s "$SRV/info"
}
# The service logs a line per connection and datagram: there must be none.
check_server() { # PROJECT
	if [ ! -e "$SRV/hits" ]; then
		echo "the outside service did not start"
	elif [ -s "$SRV/hits" ]; then
		echo "the outside service was reached $(wc -l <"$SRV/hits") time(s):" \
			"$(sort "$SRV/hits" | uniq -c | sed 's/^ *//' | paste -sd, - | sed 's/,/, /g')"
	fi
}
# attack_net*: the same service for each run, checked afterwards (T_ENV
# set before is kept).
net_attack() { # attack's arguments
	SRV=$BASE/srv
	T_PRE=pre_server T_POST=post_helpers T_CHECK=check_server
	T_ENV=("ATTACK_DIR=$SRV" "${T_ENV[@]}")
	attack "$@"
}
# The same with the service's directory in $TMPDIR, where the agent may
# write (an ssh-agent's socket lives there), and a second listener there
# bound by a name with a symlink and a double slash in it
# ($TMPDIR//srvlink/svc/s.sock, srvlink -> srvreal).
pre_server_tmp() { # PROJECT
	pre_server "$1"
	rm -rf "$TMPDIR/srvreal" "$TMPDIR/srvlink"
	mkdir -p "$TMPDIR/srvreal/svc"
	ln -s "$TMPDIR/srvreal" "$TMPDIR/srvlink"
	python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(5); time.sleep(60)' \
		"${TMPDIR%/}//srvlink/svc/s.sock" &
	HELPERS+=($!)
	wait_for 30 test -S "$TMPDIR/srvreal/svc/s.sock"
}
net_attack_tmp() { # attack's arguments
	SRV=$TMPDIR/srv
	T_PRE=pre_server_tmp T_POST=post_helpers T_CHECK=check_server
	T_ENV=("ATTACK_DIR=$SRV" "LINKED_DIR=$TMPDIR" "${T_ENV[@]}")
	attack "$@"
	SRV=$BASE/srv
}

# ------------------------------------------------------------------ tests

echo "# pass: $PASS_NAME (uid $(id -u)), ward $WARD ${WARD_OPTS[*]}, kernel $(uname -r)"

# 1. TOCTOU on the path buffer.
attack race_path thread "a thread flips the path between public/x and secret/x"
attack race_path clonevm "a CLONE_VM sibling flips the path between public/x and secret/x"
# 2. Symlink swaps.
attack symlink_swap "" "symlinks swapped between public and secret while opening"
# 3. dirfd, .., //, /./
attack dotdot "" "dirfd and .. escapes, // and /./ in absolute paths, chdir/fchdir"
# 4. /proc.
attack proc self "/proc/self/fd/N, /dev/fd/N, /proc/self/{root,cwd}/..., thread-self"
attack proc ward "/proc/PPID/... of ward: environ, mem, fd, cwd, root; also after chdir"
attack proc init "/proc/1/...: environ, mem, fd, root, cwd; also after chdir"
attack proc links "symlinks to /proc/self/..., /proc/self/../WARD, /dev/fd/N: the agent's own, never ward's"
if needs_root "proc mount" "$(unshare -m true 2>/dev/null || echo "no private mount namespace (unshare -m)")"; then
	pre_proc2() {
		mkdir "$1/proc2" "$1/pb" "$1/pt" "$1/pfd" && : >"$1/penv"
		start_victim "$1"
		echo "${T_ENV[0]#VICTIM_PID=}" >"$1/victim.pid"
	}
	T_PRE=pre_proc2 T_POST=post_helpers
	T_WRAP=(unshare -m sh -c 'v=$(cat "$0/victim.pid") && mount -t proc proc "$0/proc2" &&
		mount --bind "/proc/$v" "$0/pb" && mount --bind "/proc/$v/task" "$0/pt" &&
		mount --bind "/proc/$v/fd" "$0/pfd" && mount --bind "/proc/$v/environ" "$0/penv" &&
		mount --bind "/proc/$v/environ" /proc/sys/kernel/domainname &&
		mount --bind "/proc/$v/fd" /proc/driver && exec "$@"' @P@)
	attack proc mount "a second procfs, and an outsider's /proc/PID bound elsewhere: by path, dirfd and chdir"
fi
if needs_root "proc shmreuse" "$([ -w /proc/sys/kernel/ns_last_pid ] || echo "ns_last_pid is not writable")"; then
	# A segment with the secret whose creator has exited (at once: within
	# the same second too).
	pre_shm_orphan() {
		"$ATT/attack_proc" shm-orphan "$BASE/shm.orphan" "$1/secret/x" || return
		read -r SHM_ID_ SHM_PID_ <"$BASE/shm.orphan"
		T_ENV=("SHM_ID=$SHM_ID_" "SHM_PID=$SHM_PID_")
	}
	post_shm_orphan() { ipcrm -m "$SHM_ID_" 2>/dev/null; true; }
	T_PRE=pre_shm_orphan T_POST=post_shm_orphan
	attack proc shmreuse "shmat() of a segment whose creator (not of the session) exited and whose id a session process took" \
		-r "allow write /proc/sys/kernel/ns_last_pid"
fi
if needs_root "proc ipcreuse" "$([ -w /proc/sys/kernel/msg_next_id ] || echo "msg_next_id is not writable")"; then
	# The recycler, outside the session, removes the session's queue and
	# makes one of its own with the same id (msg_next_id), after ward's sweep.
	pre_recycler() {
		"$ATT/attack_proc" ipc-recycler "$1" "$1/secret/x" &
		HELPERS+=($!)
	}
	T_PRE=pre_recycler T_POST=post_helpers
	attack proc ipcreuse "a message queue of the session removed from outside, its id then another process's"
fi
T_PRE=pre_victim T_POST=post_helpers
attack proc victim "the memfd, deleted file and pipe of a process outside the session"
# The victim makes memfds (up to 4,000,000) until one has the inode number of
# a file of /usr: shmem's inode numbers only grow (until they wrap at 2^32),
# so on a host up long enough they are beyond every inode number of /usr, and
# where /usr's are far above them (a guest's 9p root, which remaps them high)
# none is within reach.
hop_possible() {
	local next near
	next=$(python3 -c 'import os; print(os.fstat(os.memfd_create("probe")).st_ino)' 2>/dev/null) || return 1
	near=$(find /usr -xdev -printf '%i\n' 2>/dev/null |
		awk -v n="$next" '$1 > n && (m == "" || $1 < m) { m = $1 } END { print m }')
	[ -n "$near" ] && awk -v a="$near" -v n="$next" 'BEGIN { exit !(a - n < 3000000) }' && return 0
	HOP_WHY="no inode number of /usr is within reach of this host's memfds' ($next; the nearest above: ${near:-none}): no memfd can take one (they wrap at 2^32)"
	return 1
}
# (Only the parts that run it: the plain one and nobody's inner one.)
if [ -n "$PART" ] && [ "$PART" != nobody-inner ]; then
	:
elif hop_possible; then
	T_PRE=pre_victim_hop T_POST=post_helpers
	attack proc hoprace "the same memfd through an O_PATH fd swapped with a file of another filesystem with the same inode number"
elif selected "proc hoprace"; then
	skip "proc hoprace" "$HOP_WHY"
fi
T_PRE=pre_victim T_POST=post_helpers
attack proc ipc "System V shared memory, a message queue and a semaphore set of a process outside the session"
# Found by a review of the supervisor.
attack review untraced "clone(CLONE_UNTRACED), then exec an exec-denied program" \
	-r "deny exec @P@/bin/mycat"
T_PRE=pre_victim T_POST=post_helpers
attack review cached "openat2(RESOLVE_CACHED) of another process's /proc/PID/fd/N"
T_PRE=pre_victim T_POST=post_helpers
attack review cwdhop "chdir(/proc/PID), then /proc/self/cwd/fd/N (a magic-link hop)"
pre_githooks() { mkdir -p "$1/.git/hooks"; } # the default profile keeps the agent from making them
T_PRE=pre_githooks
attack review hooks "rename .git/hooks away and back to plant a hook"
attack review exchange "renameat2(public/x, secret/x, RENAME_EXCHANGE), then read public/x"
attack review pgrpsig "pidfd_send_signal(self, PIDFD_SIGNAL_PROCESS_GROUP)"
attack review clonens "clone() with each CLONE_NEW* flag: a process in namespaces of its own"
T_NATIVE_NOBODY="kernel: /dev/userfaultfd is root's (0600)"
attack review uffd "/dev/userfaultfd and USERFAULTFD_IOC_NEW (the userfaultfd call is refused)"
attack review inotify "inotify_add_watch on the read-denied secret/ (what happens there, and when)"
attack review fsioctl "the ioctls that shut down, grow or rename a whole filesystem (on a pipe: no effect)"
# Attacks on a filesystem of a kind of their own, loop-mounted in a mount
# namespace by the driver (root): what FS lacks here, if anything.
loop_fs_missing() { # FS
	command -v "mkfs.$1" >/dev/null || echo "no mkfs.$1"
	# Built in or loaded, or a module this kernel can load.
	grep -qw "$1" /proc/filesystems ||
		[ -n "$(find "/lib/modules/$(uname -r)" -name "$1.ko*" 2>/dev/null | head -n 1)" ] ||
		echo "no $1 in this kernel"
	[ -e /dev/loop-control ] || echo "no loop devices"
	unshare -m true 2>/dev/null || echo "no private mount namespace (unshare -m)"
}
mkfs_img() { # FS SIZE IMAGE: a fresh filesystem in IMAGE under $BASE
	rm -f "$BASE/$3" && truncate -s "$2" "$BASE/$3" && "mkfs.$1" -q "$BASE/$3" >/dev/null 2>&1
}
if needs_root "review btrfs" "$(loop_fs_missing btrfs)"; then
	pre_btrfs_vol() { mkfs_img btrfs 128M btv.img && mkdir "$1/bt"; }
	T_PRE=pre_btrfs_vol
	T_WRAP=(unshare -m sh -c 'mount -o loop "$1" "$0/bt" && btrfs subvolume create "$0/bt/vol" >/dev/null &&
		mkdir "$0/bt/vol/secret" && cp "$0/secret/x" "$0/bt/vol/secret/x" && sync &&
		shift && exec "$@"' @P@ "$BASE/btv.img")
	attack review btrfs "a btrfs snapshot gives a denied file a new name; TREE_SEARCH reads it raw" \
		-r "deny read @P@/bt/vol/secret/**"
fi
if needs_root "review xfs" "$(loop_fs_missing xfs)"; then
	pre_xfs() { mkfs_img xfs 320M xfs.img && mkdir "$1/xfs"; }
	T_PRE=pre_xfs
	T_WRAP=(unshare -m sh -c 'mount -o loop "$1" "$0/xfs" && mkdir "$0/xfs/secret" &&
		cp "$0/secret/x" "$0/xfs/secret/x" && shift && exec "$@"' @P@ "$BASE/xfs.img")
	attack review xfs "XFS_IOC_PATH_TO_HANDLE, then XFS_IOC_OPEN_BY_HANDLE of a denied file" \
		-r "deny read @P@/xfs/secret/**"
fi
if needs_root "review freeze" "$(loop_fs_missing ext4)"; then
	pre_ext4() { mkfs_img ext4 32M ext4.img && mkdir "$1/ext4"; }
	T_PRE=pre_ext4
	T_WRAP=(unshare -m sh -c 'mount -o loop "$1" "$0/ext4" && shift && exec "$@"' @P@ "$BASE/ext4.img")
	attack review freeze "FIFREEZE on a filesystem (root): its writers outside the session would wait"
fi
# 5. New names for the secret.
attack links hardlink "hard links of the secret into the project"
attack links symlink "symlinks to the secret, then read through them"
attack links rename "rename(secret/x, stolen), then read stolen"
attack links renamedir "rename(secret, notsecret), then read notsecret/x"
attack links exchange "renameat2(secret/x, public/x, RENAME_EXCHANGE), then read public/x"
# 5b. New names for what a rule protects from change.
pre_guarded() { mkdir -p "$1/guarded" && printf 'GUARDED-ORIGINAL\n' >"$1/guarded/x"; }
check_guarded() { grep -q INJECTED "$1/guarded/x" 2>/dev/null && echo "guarded/x was written"; true; }
pre_hidden() { mkdir -p "$1/hidden" && printf '%s\n' "$SECRET_TEXT" >"$1/hidden/x"; }
pre_gitdir() { mkdir -p "$1/.git"; }
T_PRE=pre_guarded T_CHECK=check_guarded
attack protect hardlink "link a write-protected file, then write through the new name" \
	-r "deny write,delete @P@/guarded/x"
T_PRE=pre_guarded
attack protect chattr "inode flags and attributes of a write-protected file set through a read-only fd" \
	-r "deny write @P@/guarded/x"
T_PRE=pre_guarded
attack protect core "raise the core dump limit and crash where create is denied: the kernel writes the dump" \
	-r "deny write,create,delete @P@/guarded/**"
T_PRE=pre_guarded T_CHECK=check_guarded
attack protect rename "rename a write-protected file (delete allowed), write, rename back" \
	-r "deny write @P@/guarded/x"
attack protect renamerace "rename(D, hooks) while a thread swaps D between a file and a directory with pre-commit" \
	-r "deny write,create,delete @P@/hooks/*"
T_PRE=pre_hidden
attack protect globdir "rename a directory a rule reaches by a glob in its name (hid*), then read below" \
	-r "deny read @P@/hid*/*"
attack protect whiteout "renameat2(RENAME_WHITEOUT) leaves a device node: EPERM, as mknod of one"
pre_out() { mkdir -p "$1.out/d" "$1/tmp" && printf 'OUT-ORIGINAL\n' >"$1.out/d/f" && chmod -R a+rwX "$1.out"; }
check_out() { grep -q INJECTED "$1.out/d/f" 2>/dev/null && echo "OUT/d/f was written"; true; }
T_PRE=pre_out T_CHECK=check_out T_ENV=("TMPDIR=@P@/tmp")
attack protect roundtrip "move (or exchange) a directory to where its contents may be written, write, move it back" \
	-r "allow write,create,delete @P@.out/*"
T_PRE=pre_gitdir
attack protect hooks "the default profile: .git/hooks and .claude made as symlinks or directories"
attack protect gitdir "the default profile: .git made as a symlink to the agent's own directory"
pre_policyfile() {
	mkdir -p "$1/conf" && printf 'include inc.policy\n' >"$1/conf/team.policy" &&
		printf 'deny read /nonexistent-ward-attacks/**\n' >"$1/conf/inc.policy" &&
		ln -s conf/team.policy "$1/link.policy" && ln -s conf "$1/cfgl" &&
		ln -s conf/team.policy "$1/mid.policy" && ln -s mid.policy "$1/chain.policy" &&
		ln -s conf "$1/cfgm" && ln -s cfgm "$1/cfgc" &&
		(cd "$1" && sha256sum conf/* >"$BASE/policyfile.sum")
}
check_policyfile() {
	(cd "$1" && sha256sum -c --quiet "$BASE/policyfile.sum" >/dev/null 2>&1) ||
		echo "a policy file was changed"
	[ "$(readlink "$1/link.policy")" = conf/team.policy ] && [ "$(readlink "$1/cfgl")" = conf ] &&
		[ "$(readlink "$1/mid.policy")" = conf/team.policy ] && [ "$(readlink "$1/cfgm")" = conf ] ||
		echo "a symlink to a policy file was changed"
}
T_PRE=pre_policyfile T_CHECK=check_policyfile
attack protect policyfile "the --policy files, their includes and the symlinks to them: written, replaced, renamed" \
	-p @P@/link.policy -p @P@/cfgl/team.policy -p @P@/chain.policy -p @P@/cfgc/inc.policy
# Another program's object in /dev/shm: made before the session, as a
# database's shared memory is; it must come out of the session as it went in.
SHM_VICTIM=/dev/shm/ward-victim-$$
pre_shm() { printf 'VICTIM-DATA' >"$SHM_VICTIM" && chmod 600 "$SHM_VICTIM" &&
	stat -c '%i %a %s %Y' "$SHM_VICTIM" >"$BASE/shm.stat"; }
check_shm() {
	[ "$(cat "$SHM_VICTIM" 2>/dev/null)" = VICTIM-DATA ] || echo "the victim's content changed or it is gone"
	[ "$(stat -c '%i %a %s %Y' "$SHM_VICTIM" 2>/dev/null)" = "$(cat "$BASE/shm.stat")" ] ||
		echo "the victim's inode, mode, size or time changed"
	ls /dev/shm | grep -q "ward-moved-" && echo "a name for the victim was made"
	rm -f "$SHM_VICTIM"
}
post_shm() { rm -f /dev/shm/ward-moved-* /dev/shm/ward-own*-* /dev/shm/ward-sl-* /dev/shm/ward-tmp-*; rmdir /dev/shm/ward-dir-* 2>/dev/null; true; }
T_PRE=pre_shm T_CHECK=check_shm T_POST=post_shm T_ENV=("WARD_SHM_VICTIM=$SHM_VICTIM")
attack protect shm "another program's object in /dev/shm written, truncated, replaced, moved, linked, removed; the session's own changed freely"
T_PRE=pre_shm T_CHECK=check_shm T_POST=post_shm T_ENV=("WARD_SHM_VICTIM=$SHM_VICTIM")
attack protect shm "...with a rule of the user's allowing reads there (an exchange was judged by its read)" -r "allow read /**"
check_pivot() { [ -L "$1/top" ] && echo "top was left a symlink to $(readlink "$1/top")"; true; }
T_CHECK=check_pivot
attack protect pivot "a name not there yet with a rule below it (top*/guard/**) made a symlink: directly, through a link retargeted later, nx/.., a hard link of a symlink, rename" \
	-r "deny write,create,delete @P@/top*/guard/**"
# A dotfiles repository as the project, home's files symlinks into it (stow).
pre_stow() {
	local d=$1/dot
	mkdir -p "$d/git" "$d/shell" "$d/kube" "$d/vimpack" "$d/ipy/startup" \
		"$HOME/.config/git" "$HOME/.kube" "$HOME/.vim" "$HOME/.ipython" "$HOME/.config/autostart" &&
		printf 'GIT-ORIGINAL\n' >"$d/git/config" && printf 'RC-ORIGINAL\n' >"$d/shell/bashrc" &&
		printf '%s\n' "$SECRET_TEXT" >"$d/kube/config" &&
		ln -s shell/bashrc "$d/bashrc" && ln -sfn "$d/bashrc" "$HOME/.bashrc" &&
		ln -sfn "$d/git/config" "$HOME/.config/git/config" &&
		ln -sfn "$d/kube/config" "$HOME/.kube/config" && ln -sfn "$d/vimpack" "$HOME/.vim/pack" &&
		ln -sfn "$d/ipy" "$HOME/.ipython/profile_default" &&
		ln -sfn "$d/x.desktop" "$HOME/.config/autostart/x.desktop" &&
		(cd "$d" && sha256sum git/config shell/bashrc kube/config >"$BASE/stow.sum")
}
check_stow() {
	local d=$1/dot
	(cd "$d" && sha256sum -c --quiet "$BASE/stow.sum" >/dev/null 2>&1) || echo "a file home links to was changed"
	[ "$(readlink "$d/bashrc")" = shell/bashrc ] || echo "the middle link dot/bashrc was changed"
	[ -e "$d/x.desktop" ] && echo "dot/x.desktop was made through the dangling link"
	[ -e "$d/vimpack/start" ] || [ -e "$d/vimpack/evil.vim" ] && echo "vim's packages were planted"
	[ -e "$d/ipy/startup/evil.py" ] && echo "ipython's startup was planted"
	[ -e "$d/ipy/notes" ] || echo "dot/ipy/notes, which no rule reaches, could not be made"
	true
}
post_stow() {
	rm -rf "$HOME/.config/git" "$HOME/.kube" "$HOME/.vim" "$HOME/.ipython" "$HOME/.config/autostart" \
		"$HOME/.bashrc"
}
T_PRE=pre_stow T_CHECK=check_stow T_POST=post_stow T_ENV=("HOME_DIR=$HOME")
attack protect stow "the project a dotfiles repository home's files link into: the files written, replaced, removed through the project, the secret read"
pre_rewrite() { mkdir -p "$1/guarded" "$1/cache/d1/d2"; }
T_PRE=pre_rewrite T_NATIVE="none: the rewrite is ward's"
attack rewrite mkdir "a symlink planted where ward makes a rewrite's missing parent directory" \
	-r 'rewrite write,create @P@/cache/** -> $SESSION/cache/**' -r "deny write,create,delete @P@/guarded/**"
T_PRE=pre_rewrite T_TIMEOUT=15 T_NATIVE="none: the rewrite is ward's"
attack rewrite fifo "64 threads open FIFOs planted at a rewrite's replacement" \
	-r 'rewrite write,create @P@/cache/** -> $SESSION/cache/**' -r "deny write,create,delete @P@/guarded/**"
# Terminals outside the session: a pty held by a helper (another window's shell).
pre_tty() {
	rm -f "$BASE/tty.name"
	python3 -c 'import os, sys, time
m, s = os.openpty()
print(os.ttyname(s), flush=True)
time.sleep(90)' >"$BASE/tty.name" &
	HELPERS+=($!)
	# Up to 30 s: with the ASan pass and the unprivileged one side by side on
	# two CPUs, the helper once took longer than 10 s to print its pty.
	wait_for 30 test -s "$BASE/tty.name"
	T_ENV=("VICTIM_TTY=$(cat "$BASE/tty.name")")
}
T_PRE=pre_tty T_POST=post_helpers
attack tty other "open another window's pty for reading (its keystrokes) and writing"
pre_ttyreuse() {
	python3 -c 'import os, sys, time
want = os.path.join(sys.argv[1], "reuse.want")
for _ in range(500):
    if os.path.exists(want): break
    time.sleep(0.02)
name = open(want).read()
# Hold every lower number, give back the higher ones (the number may be
# another test'"'"'s for a while: tests run side by side), until it is ours.
n = int(name.rsplit("/", 1)[1])
held = []
end = time.time() + 20
while time.time() < end:
    m, s = os.openpty()
    k = int(os.ttyname(s).rsplit("/", 1)[1])
    if k == n:
        held.append((m, s))
        open(os.path.join(sys.argv[1], "reuse.ready"), "w").close()
        break
    if k < n:
        held.append((m, s))
        continue
    os.close(m); os.close(s)
    time.sleep(0.02)
time.sleep(30)' "$1" &
	HELPERS+=($!)
	T_ENV=("REUSE_DIR=$1")
}
T_PRE=pre_ttyreuse T_POST=post_helpers
attack tty reuse "a pty the session opened and closed, whose number another window's pty then takes"
pre_ttyspin() {
	python3 -c 'import os, time
end = time.time() + 30
while time.time() < end:
    m, s = os.openpty()
    time.sleep(0.3)
    os.close(s)
    os.close(m)
    time.sleep(0.05)' &
	HELPERS+=($!)
}
T_PRE=pre_ttyspin T_POST=post_helpers
attack tty spin "spin on /dev/ptmx until another window's pty takes the same number, then open it"
attack tty hangup "vhangup(), ioctl TIOCVHANGUP, TIOCCONS, TIOCSETD, TIOCSCTTY(1)"
if needs_root "tty othername"; then
	pre_devnode() { mkdir -p "$1/dev" && mknod "$1/dev/console" c 5 1; }
	T_PRE=pre_devnode
	attack tty othername "the console by a device node outside /dev (a chroot's dev/)"
fi
T_PRE=pre_gitdir
attack protect gitcommon "the default profile: commondir, config.worktree, a worktree's or submodule's config and hooks"
# 6. O_PATH.
attack opath "" "O_PATH fd of the secret, reopened via /proc/self/fd, openat(fd, \"\"), ..."
attack opath stat-restricted "the same when the policy restricts stat somewhere (O_PATH notified)" \
	-r "deny stat /nonexistent-ward-attacks/**"
T_PRE=pre_guarded T_CHECK=check_guarded
attack openat2_race "" "a thread flips open_how.flags between O_RDONLY and O_RDWR during openat2 of a write-protected file" \
	-r "deny write @P@/guarded/x"
# 7. Raw syscall instruction.
attack raw_syscall "" "open/openat/openat2 of the secret with the syscall instruction"
# 8. Environment.
attack env "" "env -i / LD_PRELOAD unset before exec, then read the secret"
# 9. The loader trick.
attack loader basic "ld.so bin/mycat (exec of bin/mycat denied), options, copies" \
	-r "deny exec @P@/bin/mycat"
attack loader shebang "a script '#!ld.so /abs/bin/mycat' (exec of bin/mycat denied)" \
	-r "deny exec @P@/bin/mycat"
attack loader longpath "ld.so with a 256-byte path to bin/mycat whose first 255 bytes name /bin/true" \
	-r "deny exec @P@/bin/mycat"
attack loader far "a copy of ld.so with its program headers past 4 KiB, bin/mycat" \
	-r "deny exec @P@/bin/mycat"
attack loader cwdrace "ld.so ./prog while a CLONE_FS sibling flips the cwd between an allowed and a denied prog" \
	-r "deny exec @P@/d/**"
attack loader nosect "a copy of ld.so without section headers, bin/mycat" \
	-r "deny exec @P@/bin/mycat"
attack loader interp "a program whose ELF interpreter (PT_INTERP) is bin/mycat, made static" \
	-r "deny exec @P@/bin/mycat"
attack loader interpentry "a program whose interpreter is ld.so and whose entry is ld.so's: ld.so bin/mycat, or a memfd" \
	-r "deny exec @P@/bin/mycat"
# 10. memfd exec.
attack memfd basic "memfd, deleted and O_TMPFILE files: execveat/fexecve/execve /proc/self/fd/N"
attack memfd loader "ld.so /proc/self/fd/N of a memfd"
attack memfd shebang "a script whose interpreter is #!/proc/self/fd/N (a memfd)"
attack memfd interp "a program whose ELF interpreter (PT_INTERP) is /proc/self/fd/N of a memfd or a deleted file"
# 11. The supervisor itself.
attack kill signals "kill/tkill/tgkill/sigqueue/pidfd_send_signal of ward, kill(-1, 0)"
attack kill pgrp "setpgid(0, ward's pgrp), then kill(0, SIGKILL)"
attack kill ptrace "ptrace ATTACH/SEIZE, process_vm_readv/writev, /proc/PPID/mem"
attack kill sigio "fcntl(F_SETOWN, ward) + O_ASYNC: SIGIO (and F_SETSIG SIGKILL) to ward"
attack kill tty "O_ASYNC and FIOASYNC on a terminal (SIGIO to its foreground group), tcsetpgrp to ward's group"
attack kill prlimit "prlimit(ward, RLIMIT_FSIZE/NOFILE/CPU)"
# 12. A listener of our own.
attack seccomp "" "seccomp(SET_MODE_FILTER, NEW_LISTENER) -> EPERM, also with high bits"
# 13. io_uring and clone3.
attack uring "" "io_uring_setup/enter/register and clone3 -> ENOSYS"
# 14. TIOCSTI.
attack tiocsti "" "ioctl TIOCSTI, 0x100005412, TIOCLINUX -> EPERM, on a pipe and an own pty" \
	-r "allow read,write /dev/ptmx /dev/pts/**"
# 15. Other ABIs.
attack abi "" "i386 int 0x80 and x32 syscalls kill the process"
# 16. Bad pointers, edge-length paths.
attack badptr bad "bad pointers, unterminated paths at an unmapped page, overlong paths"
attack badptr len4095 "a 4095-byte path (PATH_MAX with its NUL) opens"
# 17. Exec verification.
attack exec_race path "a thread flips the execve path between bin/okcat (true) and bin/mycat" \
	-r "deny exec @P@/bin/mycat"
attack exec_race argv "a thread flips argv[1] of 'ld.so PROG' between allowed and denied" \
	-r "deny exec @P@/bin/mycat"
attack exec_race loaderlink "a symlink swapped between /bin/true and mycat under 'ld.so bin/lnk'" \
	-r "deny exec @P@/bin/mycat"
attack exec_race rewrite "bin/prog rewritten in place between true and ld.so under 'bin/prog bin/mycat'" \
	-r "deny exec @P@/bin/mycat"
attack exec_race interplink "the ELF interpreter a program names, a symlink swapped between an allowed and a denied one" \
	-r "deny exec @P@/bin/badint"
attack exec_race dirswap "ld.so /abs/d/prog while d is renamed away and replaced by a symlink to e (exec of e/ denied)" \
	-r "deny exec @P@/e/**"
# A program holding the secret, read and exec denied.
pre_secret_prog() { "$ATT/attack_exec_race" mkprog "$1/secret/prog" "$SECRET_TEXT"; }
T_PRE=pre_secret_prog
attack exec_race memrace "a child execs a symlink flipped to secret/prog; /proc/CHILD/mem read before ward's kill" \
	-r "deny exec @P@/secret/**"
if needs_root "exec_race interplink on btrfs" "$(loop_fs_missing btrfs)"; then
	# The same interpreter swap where maps cannot tell the two apart: two
	# btrfs subvolumes, each with its first file (inode 257 in both), and
	# /proc/PID/maps shows both under the filesystem's one device.
	pre_btrfs() {
		mkfs_img btrfs 128M bt.img && mkdir "$1/bt" &&
			ln -s ../bt/s1/int "$1/bin/okint" && ln -s ../bt/s2/int "$1/bin/badint"
	}
	T_PRE=pre_btrfs
	T_WRAP=(unshare -m sh -c 'mount -o loop "$1" "$0/bt" && btrfs subvolume create "$0/bt/s1" >/dev/null &&
		btrfs subvolume create "$0/bt/s2" >/dev/null && : >"$0/bt/s1/int" && : >"$0/bt/s2/int" &&
		chmod 755 "$0/bt/s1/int" "$0/bt/s2/int" &&
		shift && exec "$@"' @P@ "$BASE/bt.img")
	attack exec_race interplink "the same on btrfs, between two subvolumes' files of one inode number" \
		-r "deny exec @P@/bt/s2/**"
fi
# Beyond the list: what else the threat model rules out.
attack rdwr "" "open(secret/x, O_RDWR): read access through a write-allowed open"
T_NATIVE="none: the target is ward's pool of workers"
attack fifo open "FIFOs opened for reading must not wedge ward's workers"
T_NATIVE="none: the target is ward's pool of workers"
attack fifo many "200 FIFO opens waiting at once: ward lets only so many wait (EAGAIN)"
T_TIMEOUT=15 T_NATIVE="none: the target is ward's pool of workers"
attack fifo exec "execve of FIFOs must not wedge ward's workers"
net_attack connect "" "connect to unix/abstract/loopback services outside the session"
# Natively a log of one line stands in for ward's.
pre_logtamper() { [ -n "$RUN_NATIVE" ] && echo '{"event":"session-start"}' >"$1/audit.jsonl"; true; }
T_PRE=pre_logtamper T_LOG="@P@/audit.jsonl" T_ENV=("ATTACK_LOG=@P@/audit.jsonl")
attack logtamper "" "truncate, forge, replace or delete an audit log kept in the project"
attack newcalls "" "fchmodat2, setxattrat, removexattrat, file_setattr on a write-protected file" \
	-r "deny write,create,delete @P@/secret/**"
T_NATIVE_NOBODY="kernel: OPEN_TREE_CLONE needs CAP_SYS_ADMIN"
attack opentree "" "open_tree_attr(secret, OPEN_TREE_CLONE): the secret as /x in a detached mount"
T_NATIVE_NOBODY="kernel: fanotify with event fds needs CAP_SYS_ADMIN"
attack fanotify "" "fanotify on the secret, then exec it so that ward opens it to look inside"
T_PRE=pre_race_files T_ENV=("ATTACK_SECONDS=$UNLINK_SECONDS")
attack unlink_race "" "unlink secret/race/N while ward decides an open of it (no-link exemption)"
# The network: the outside service of attack_connect, reached some other way.
net_attack net udp "UDP to 127.0.0.1: sendto, connect+send, sendmsg, sendmmsg after an own destination, AF_UNSPEC names"
net_attack net v6 "[::1], [::ffff:127.0.0.1], sockaddr_in on AF_INET6 sockets, [::] and 0.0.0.0 (TCP and UDP)"
net_attack net fastopen "sendto/sendmsg/sendmmsg with MSG_FASTOPEN, TCP_FASTOPEN_CONNECT + connect + write"
net_attack net unixdgram "unix datagrams to an outside path and abstract name: sendto, sendmsg, connect, sendmmsg, symlink"
net_attack net unixpath "symlinks, a hard link, chdir, /proc/self/fd/N of an O_PATH fd, a 108-byte path without NUL"
net_attack net kinds "raw and packet (root), vsock and ICMP sockets, MPTCP; IP options and routing headers -> EPERM"
net_attack net sessbind "bind the outside port number on another address, family or protocol, then reach it"
net_attack net v6only "bind [::]:PORT with IPV6_V6ONLY beside the outside 127.0.0.1:PORT, then reach 127.0.0.1:PORT"
net_attack net reuseport "join the SO_REUSEPORT group of an outside TCP and UDP service, then connect / send to it"
net_attack_tmp net takeover "remove, move or replace the unix socket an outside service listens on in \$TMPDIR, or move its directory"
net_attack net anyaddr "0.0.0.0, [::] and [::ffff:0.0.0.0] (which the kernel sends to loopback) when only loopback is denied" \
	-r "allow connect *" -r "deny connect @loopback unix:/** unix-abstract:*" -r "allow connect,bind @session"
net_attack net_race tcp-thread "a thread flips a sockaddr_in between the session's own server and the outside one during connect"
net_attack net_race tcp-clonevm "a CLONE_VM sibling flips the sockaddr_in during connect"
net_attack net_race udp-thread "a thread flips the sockaddr_in of a sendto between the session's own UDP socket and the outside one"
net_attack net_race udp-clonevm "a CLONE_VM sibling flips the sockaddr_in of a sendto"
net_attack net_race unix-thread "a thread flips a unix path between the session's own socket and the outside one during connect"
net_attack net_race unix-clonevm "a CLONE_VM sibling flips the unix path during connect"
net_attack net_race disconnect "a thread dissolves and remakes a TCP socket's connection to the session's own server while another connects it to the outside one"
attack bind_dir "" "swap the directory of a unix bind's path for a symlink to secret/ (bound by the agent's own string)" \
	-r "deny write,create,delete @P@/secret/**"
attack bind_dir fd "bind //proc/PID/fd/50/s.sock while a thread points fd 50 at secret/ and back (dup2)" \
	-r "deny write,create,delete @P@/secret/**"
attack bind_dir cwd "bind //proc/PID/cwd/s.sock while a thread moves the cwd to secret/ and back" \
	-r "deny write,create,delete @P@/secret/**"
# What exists where stat is denied, told by the errors of makes and removes.
pre_exists() { # PROJECT: a directory and a symlink among the secret names
	mkdir "$1/secret/sub" && ln -s x "$1/secret/lnk"
}
T_PRE=pre_exists
attack exists deny "O_CREAT|O_EXCL, O_NOFOLLOW, mkdir, unlink, rmdir on names in secret/ (stat, create, delete denied)" \
	-r "deny stat,create,delete @P@/secret/**" -r "deny create,delete @P@/public/**"
T_PRE=pre_exists
attack exists ask "the same where create and delete are asked, with no one to answer" \
	-r "deny stat @P@/secret/**" -r "ask create,delete @P@/secret/**" -r "ask create,delete @P@/public/**"
T_ENV=("ATTACK_SECONDS=$UNLINK_SECONDS")
net_attack net_race bindswap "a thread renames a hard link of the outside socket over the name being bound, then connect to it"

[ "$ATTACKS_RUN" -gt 0 ] || [ "$T_SKIP" -gt 0 ] ||
	fail "an attack was run" "none of this part${ONLY:+ matched ATTACKS_ONLY='$ONLY'}"
summary
