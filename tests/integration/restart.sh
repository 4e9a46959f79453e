#!/bin/bash
# restart.sh BUILD_DIR - ward under each kernel feature set it supports,
# masked with WARD_KERNEL_FEATURES (features.c), with a program signalled
# at a high rate while it creates (O_EXCL), renames, makes and removes
# directories, unlinks, connects, sends datagrams and opens a FIFO whose
# writer is a thread of its own (tests/progs/sigstorm).
#
# Without WAIT_KILLABLE_RECV (before Linux 5.19) a signal ends a call's wait
# for ward's answer even after ward has received it, and the kernel restarts
# the call (SA_RESTART) or the program makes it again after EINTR: ward must
# answer it with what it did the first time, not do it twice (restart.c).
# Without ADDFD_FLAG_SEND (before 5.14) ward installs an fd and then answers
# its number: a call interrupted between the two leaves the agent an fd it
# was not told of, which must be the file it asked for, opened as it asked.
#
# Each set runs sigstorm three ways: restart (SA_RESTART: every result as
# natively), retry (no SA_RESTART, each EINTR retried: every result as
# natively) and giveup (no SA_RESTART, an interrupted iteration dropped:
# every fd left over is a file asked for).  Where the set lacks
# wait_killable_recv, the log of the restart and retry runs must show
# restarted calls answered from what ward had done (otherwise the storm
# proved nothing).  Also: what WARD_KERNEL_FEATURES refuses, ward --version
# with masks, and the refusal (125) where ADDFD is missing.  Every run has
# the preload library loaded (ward's default), and its log must carry the
# library's hints: ward reads them for each line while the storm interrupts
# the very calls they describe (a hint read once marked such a call gone,
# so its answer was forgotten and the kernel's restart performed again).
# One more run, masked -wait_killable_recv with --no-preload, shows the
# memo without any hint read.  About 20 s.
# SIGSTORM_ITERATIONS (400) and SIGSTORM_PERIOD_US (200) tune the storm.
set -u
. "$(dirname "$0")/lib.sh"

BUILD=$(cd "${1:?usage: restart.sh BUILD_DIR}" && pwd -P) || bail "no build directory $1"
WARD=$BUILD/ward
PROG=$BUILD/tests/progs/sigstorm
[ -x "$WARD" ] && [ -x "$PROG" ] || bail "needs $WARD and $PROG"
N=${SIGSTORM_ITERATIONS:-400}
PERIOD=${SIGSTORM_PERIOD_US:-200}

make_base restart
hermetic "$BASE"
close_fds
unset WARD_KERNEL_FEATURES
ward_probe "$WARD"

# The sets: this kernel's own, then one flag masked at a time, then the
# oldest kernel ward keeps every guarantee on (5.9: ADDFD without any of them).
SETS=("" -addfd_send -wait_killable_recv -sync_wake_up -pidfd_thread -fdinfo_ino
	-addfd_send,-wait_killable_recv,-sync_wake_up,-pidfd_thread,-fdinfo_ino)

# sigstorm natively: the program's own verdict must be ok, or the test cannot say anything.
for mode in restart retry giveup; do
	d=$BASE/native-$mode
	mkdir -p "$d"
	out=$(timeout 120 "$PROG" "$d" "$N" "$mode" "$PERIOD" 2>&1) ||
		bail "sigstorm $mode fails natively: $(flat "$out")"
done
pass "sigstorm passes natively in each mode"

run=0
for set in "${SETS[@]}"; do
	for mode in restart retry giveup; do
		run=$((run + 1))
		d=$BASE/run$run
		log=$BASE/run$run.jsonl
		mkdir -p "$d"
		out=$(cd "$BASE" && env -i "${ENVV[@]}" ${set:+WARD_KERNEL_FEATURES="$set"} \
			timeout 300 "$WARD" run -q --log "$log" -- "$PROG" "$d" "$N" "$mode" "$PERIOD" 2>&1)
		st=$?
		what="[${set:-all features}] sigstorm $mode: results as natively"
		[ "$mode" = giveup ] && what="[${set:-all features}] sigstorm giveup: fds left over are files asked for"
		if [ "$st" = 0 ] && grep -q "^ok $N iterations" <<<"$out"; then
			pass "$what"
		else
			fail "$what" "status $st" "$(grep -v interrupted <<<"$out" | tail -n 20)"
		fi
		# The library is loaded by default: its hints are read for the log
		# lines, while the storm interrupts the calls they describe.
		has "[${set:-all features}] $mode: the preload library's hints are in the log" \
			"$log" '"via":"'
		masks=$(grep -o '"masked":"[^"]*"' "$log" | head -n 1)
		check "[${set:-all features}] $mode: session-start names the masked features" \
			"${set:+\"masked\":\"${set//-/}\"}" "$masks"
		# A call given up is not made again: only restart and retry have restarts to answer.
		case $mode$set in
		giveup*) ;;
		*-wait_killable_recv*)
			again=$(grep -o '"restarts_answered":[0-9]*' "$log" | cut -d: -f2)
			if [ "${again:-0}" -gt 0 ]; then
				pass "[$set] $mode: $again restarted calls answered from what ward had done"
			else
				fail "[$set] $mode: no restarted call was answered (the storm interrupted none after ward received it)"
			fi
			;;
		esac
	done
done

# Without the library (--no-preload), where no hint is read: the restart memo alone.
d=$BASE/nopreload
log=$BASE/nopreload.jsonl
mkdir -p "$d"
out=$(cd "$BASE" && env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-wait_killable_recv \
	timeout 300 "$WARD" run -q --no-preload --log "$log" -- "$PROG" "$d" "$N" restart "$PERIOD" 2>&1)
st=$?
if [ "$st" = 0 ] && grep -q "^ok $N iterations" <<<"$out"; then
	pass "[-wait_killable_recv, --no-preload] sigstorm restart: results as natively"
else
	fail "[-wait_killable_recv, --no-preload] sigstorm restart: results as natively" \
		"status $st" "$(tail -n 20 <<<"$out")"
fi
check "[-wait_killable_recv, --no-preload] no hint in the log" 0 "$(grep -c '"via":"' "$log")"
again=$(grep -o '"restarts_answered":[0-9]*' "$log" | cut -d: -f2)
if [ "${again:-0}" -gt 0 ]; then
	pass "[-wait_killable_recv, --no-preload] $again restarted calls answered from what ward had done"
else
	fail "[-wait_killable_recv, --no-preload] no restarted call was answered"
fi

# What WARD_KERNEL_FEATURES does not understand stops ward (125), naming what it takes.
out=$(cd "$BASE" && env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-no_such_thing "$WARD" run -q -- /bin/true 2>&1)
st=$?
check "an unknown feature: exit 125" 125 "$st"
check_match "an unknown feature: the message names what can be masked" \
	"*no_such_thing*addfd_send*wait_killable_recv*" "$out"
out=$(cd "$BASE" && env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=addfd_send "$WARD" run -q -- /bin/true 2>&1)
st=$?
check "a feature given without '-' (only masking is possible): exit 125" 125 "$st"

# ward --version and ward doctor say what is masked, and doctor what replaces it.
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-addfd_send,-wait_killable_recv "$WARD" --version 2>&1)
check_match "ward --version: a masked feature shows as missing, and masked" \
	"*no SECCOMP_ADDFD_FLAG_SEND (masked)*no SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV (masked)*" "$out"
out=$(env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-addfd_send,-wait_killable_recv "$WARD" doctor 2>&1)
st=$?
check "ward doctor, both masked: ward can run (exit 0)" 0 "$st"
check_match "ward doctor, both masked: the rows say masked, and what replaces each" \
	"*no *SECCOMP_ADDFD_FLAG_SEND (5.14): masked by WARD_KERNEL_FEATURES*installs the fd, then answers its number*WAIT_KILLABLE_RECV (5.19): masked*answered with what ward did*ward can run here.*" "$out"

# Before 5.9 (no ADDFD) ward refuses (125), naming the feature, the kernel that has it, and
# --degraded, which it runs with instead (tests/integration/degraded.sh).
out=$(cd "$BASE" && env -i "${ENVV[@]}" WARD_KERNEL_FEATURES=-addfd "$WARD" run -q -- /bin/true 2>&1)
st=$?
check "no ADDFD (Linux 5.0-5.8): exit 125" 125 "$st"
check_match "no ADDFD: the message names the feature, Linux 5.9 and --degraded" \
	"*SECCOMP_IOCTL_NOTIF_ADDFD*Linux 5.9*--degraded*" "$out"

summary
