#!/bin/bash
# make bench: ward's cost against native and against peers, measured side
# by side in one run.  Prints medians and ratios to native.
#
#   run.sh BUILD_DIR [ROUNDS]
set -u
BUILD=$(cd "${1:?usage: run.sh BUILD_DIR [ROUNDS]}" && pwd)
ROUNDS=${2:-5}
WARD=$BUILD/ward
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=$(mktemp -d /tmp/ward-bench.XXXXXX)
trap 'rm -rf "$BASE"' EXIT

echo "== machine"
grep -m1 'model name' /proc/cpuinfo | sed 's/.*: /cpu: /'
echo "cpus: $(nproc), kernel: $(uname -r)"
# Each supervised call wakes the supervisor and then the caller: what a
# wakeup costs here bounds every notifier (bench/wakeup.c).
"$BUILD/bench/bench_wakeup" | awk '{ v[$1] = $2 } END {
	printf "wakeup round trip (two threads, a pipe): %s ns on one CPU, %s ns across two\n",
		v["same-cpu"], v["cross-cpu"] }'

echo
echo "== rule engine (bench_rules)"
"$BUILD/bench/bench_rules"

# The template project for the workload.
T=$BASE/template
"$HERE/template.sh" "$T"

# native1, floor1, ward1: the same on one CPU (taskset -c 0), where no wakeup
# crosses CPUs: what cross-CPU wakeups cost this machine shows in the gap.
# ptrace, notify: the floor taken apart (ptrace stops alone; every notified
# call answered CONTINUE, no ADDFD).
# wardnp: ward --no-preload, so that ward - wardnp is what the preload library
# and ward's reading of its hints add.
# ward59: ward as on Linux 5.9-5.13 (every newer flag masked: WARD_KERNEL_FEATURES);
# warddeg: ward --degraded (ptrace: SECCOMP_RET_TRACE stops); warddege: the same at
# every call's entry stop, as under another seccomp listener (docs/degraded.md).
OLDEST=-addfd_send,-wait_killable_recv,-sync_wake_up,-pidfd_thread
modes=(native ptrace notify floor ward wardnp ward59 warddeg warddege strace proot bwrap native1
	floor1 ward1)
have() { command -v "$1" >/dev/null 2>&1; }
runner() { # MODE: the command prefix
	case $1 in
	native) echo "" ;;
	floor) echo "$BUILD/bench/bench_floor_sup" ;;
	ptrace) echo "$BUILD/bench/bench_floor_sup --ptrace-only" ;;
	notify) echo "$BUILD/bench/bench_floor_sup --continue" ;;
	ward) echo "$WARD run -q --log $BASE/ward.jsonl --" ;;
	wardnp) echo "$WARD run -q --no-preload --log $BASE/ward.jsonl --" ;;
	ward59) echo "env WARD_KERNEL_FEATURES=$OLDEST $WARD run -q --log $BASE/ward.jsonl --" ;;
	warddeg) echo "$WARD run -q --degraded --log $BASE/ward.jsonl --" ;;
	warddege) echo "env WARD_DEGRADED=entry $WARD run -q --log $BASE/ward.jsonl --" ;;
	strace) echo "strace -f -qq --seccomp-bpf -e trace=%file,%process -o /dev/null" ;;
	proot) echo "proot -w ." ;;
	bwrap) echo "bwrap --dev-bind / / --" ;;
	*1) echo "taskset -c 0 $(runner "${1%1}")" ;;
	esac
}
avail=()
for m in "${modes[@]}"; do
	case $m in
	native | ptrace | notify | floor | ward | wardnp | ward59 | warddeg | warddege) avail+=("$m") ;;
	*1) have taskset && avail+=("$m") ;;
	*)
		bin=$m
		have "$bin" || { echo "# $m: not installed, skipped"; continue; }
		d=$BASE/probe.$m
		cp -a "$T" "$d"
		if (cd "$d" && $(runner "$m") bash "$HERE/workload.sh") >/dev/null 2>&1; then
			avail+=("$m")
		else
			echo "# $m: does not run here, skipped"
		fi
		rm -rf "$d"
		;;
	esac
done

echo
echo "== agent workload (git, gcc, python, find/grep, tar, 80 short processes), $ROUNDS rounds, interleaved"
declare -A times
for r in $(seq 1 "$ROUNDS"); do
	for m in "${avail[@]}"; do
		d=$BASE/run.$m
		rm -rf "$d"
		cp -a "$T" "$d"
		t0=$(date +%s.%N)
		(cd "$d" && $(runner "$m") bash "$HERE/workload.sh") >/dev/null 2>"$BASE/err.$m" ||
			{ echo "# $m failed:"; tail -3 "$BASE/err.$m"; }
		t1=$(date +%s.%N)
		times[$m]="${times[$m]:-} $(echo "$t1 - $t0" | bc -l)"
		rm -f "$BASE/ward.jsonl"
	done
done
median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
nat=$(echo "${times[native]}" | median)
printf '%-8s %10s %10s\n' mode median_s x_native
for m in "${avail[@]}"; do
	med=$(echo "${times[$m]}" | median)
	printf '%-8s %10.3f %10.2f\n' "$m" "$med" "$(echo "$med / $nat" | bc -l)"
done
echo "(floor: ward's mechanisms without ward: every open emulated with ADDFD (a relative one"
echo " through /proc/TID/cwd or /proc/TID/fd/N; O_PATH ones not notified, as by ward), execs"
echo " answered CONTINUE, ptrace stops resumed at once, nothing decided or logged"
echo " (bench/floor_sup.c); what any supervisor built this way costs at least."
echo " ptrace: its ptrace stops alone, nothing notified; notify: every notified call answered"
echo " CONTINUE, so floor - notify is what emulating opens with ADDFD adds)"
echo "(native1, floor1, ward1: the same pinned to one CPU with taskset; ratios are to native."
echo " The gap between ward and ward1 is what wakeups across CPUs cost here)"
echo "(ward59: every kernel flag newer than 5.9 masked; warddeg: --degraded, enforcement by"
echo " ptrace; warddege: --degraded at every call's entry stop, as under another seccomp"
echo " listener: compare them with strace and proot, the other ptrace-based tools)"
echo "(target: ward at most 1.15x native, and below every peer)"

echo
echo "== per-call latency (median ns; open/stat of /etc/passwd, exec of /bin/true)"
# The floors, measured here by a bare notifier with ward's shape (two
# answering threads a CPU) that decides, reads and logs nothing:
#   rtt:  notify + CONTINUE (the least a notified call costs)
#   open: notify + open in the notifier + ADDFD with FLAG_SEND, the least an
#         open costs when the supervisor performs it (DESIGN.md law 1).
rtt=$("$BUILD/bench/bench_notify_rtt" 20000 | awk '{print $2}')
ofloor=$("$BUILD/bench/bench_notify_rtt" 20000 open | awk '{print $2}')
printf '%-6s %10s %10s %10s %10s %12s %10s\n' call native ward x_native floor ward-floor no-preload
for c in open stat exec; do
	n=20000
	[ "$c" = exec ] && n=200
	f=/etc/passwd
	[ "$c" = exec ] && f=/bin/true
	a=$("$BUILD/bench/bench_calls" "$c" "$n" "$f" | awk '{print $2}')
	b=$("$WARD" run -q --log "$BASE/lat.jsonl" -- "$BUILD/bench/bench_calls" "$c" "$n" "$f" | awk '{print $2}')
	np=$("$WARD" run -q --no-preload --log "$BASE/lat.jsonl" -- "$BUILD/bench/bench_calls" "$c" "$n" "$f" |
		awk '{print $2}')
	case $c in
	open) floor=$ofloor ;; # the open is made by the notifier
	stat) floor=$a ;;      # not notified (see below)
	exec)                  # fork, exec and exit under ward's mechanisms, ptrace stops included
		floor=$("$BUILD/bench/bench_floor_sup" "$BUILD/bench/bench_calls" "$c" "$n" "$f" |
			awk '{print $2}') ;;
	esac
	printf '%-6s %10s %10s %10.2f %10s %12s %10s\n' "$c" "$a" "$b" "$(echo "$b / $a" | bc -l)" \
		"$floor" "$((b - floor))" "$np"
done
echo "bare notification round trip (notify + CONTINUE): $rtt ns"
echo "bare emulated open (notify + open + ADDFD|SEND):  $ofloor ns"
echo "(floor: what the call costs under a bare notifier; ward-floor: ward's own cost."
echo " stat is not notified while the policy allows stat everywhere.  exec's floor is"
echo " fork, exec and wait under bench/floor_sup.c: the ptrace stops, the notified"
echo " execve and the loader's emulated opens, nothing decided or logged.  no-preload:"
echo " ward --no-preload; ward minus it is the library's wrapper and ward's read of its hint)"

echo
echo "== per-call latency under each kernel feature set and --degraded (median ns)"
printf '%-34s %10s %10s %10s\n' "ward as on a kernel without" open stat exec
for set in -addfd_send -wait_killable_recv -sync_wake_up -pidfd_thread "$OLDEST" degraded entry old; do
	row=()
	for c in open stat exec; do
		n=20000
		[ "$c" = exec ] && n=200
		f=/etc/passwd
		[ "$c" = exec ] && f=/bin/true
		case $set in
		degraded) pre=(env) flag=(--degraded) ;;
		entry) pre=(env WARD_DEGRADED=entry) flag=() ;;
		old) pre=(env WARD_KERNEL_FEATURES=-openat2,-pidfd_getfd,-ptrace_syscall_info,-statx_mnt_id,-fdinfo_ino) flag=(--degraded) ;;
		*) pre=(env WARD_KERNEL_FEATURES="$set") flag=() ;;
		esac
		row+=("$("${pre[@]}" "$WARD" run -q "${flag[@]}" --log "$BASE/lat.jsonl" -- \
			"$BUILD/bench/bench_calls" "$c" "$n" "$f" | awk '{print $2}')")
	done
	case $set in
	degraded) name="user notification (--degraded)" ;;
	entry) name="(--degraded at entry stops)" ;;
	old) name="(--degraded as on 4.18)" ;;
	"$OLDEST") name="any newer than 5.9" ;;
	*) name=${set#-} ;;
	esac
	printf '%-34s %10s %10s %10s\n' "$name" "${row[@]}"
done
echo
echo "== many workers: open of /etc/passwd (median ns) with the pool of a 16-CPU machine"
# The kernel wakes every thread waiting in RECV for each call, and all but
# one sleep again.  ward lets four wait there and parks the rest
# (supervisor/notify.c); the bare notifier keeps all of its threads there.
w32=$(WARD_WORKERS=32 "$WARD" run -q --log "$BASE/lat.jsonl" -- "$BUILD/bench/bench_calls" open 20000 /etc/passwd |
	awk '{print $2}')
f32=$("$BUILD/bench/bench_notify_rtt" 20000 open 32 | awk '{print $2}')
printf '%-44s %10s\n' "ward, 32 workers (four in RECV)" "$w32" \
	"bare emulated open, 32 threads in RECV" "$f32"

# Network calls and a loopback HTTP load (issue 4): their own script, which also runs alone.
"$HERE/net.sh" "$BUILD" "$ROUNDS"

echo
echo "== ward report of a 1,000,000-line log (bench/report.sh)"
"$HERE/report.sh" "$BUILD"
# What the preload library adds to each call (issue 22): its own script, which also runs alone.
echo
"$HERE/preload.sh" "$BUILD"
