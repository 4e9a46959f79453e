#!/bin/bash
# What libward-preload.so adds to each call it wraps, in process
# (bench/preload_cost.c): without the library (the noise), with it and
# its channel, and with stacks (--backtrace); and what it adds to starting a
# program (bench/preload_exec.c).  Also run by bench/run.sh.
#
#   preload.sh BUILD_DIR
set -u
BUILD=$(cd "${1:?usage: preload.sh BUILD_DIR}" && pwd)
LIB=$BUILD/libward-preload.so
COST=$BUILD/bench/bench_preload_cost
# The address ward gives the channel (preload/ward_hint.h).
HINT=1:3a5e00000000

echo "== preload: added per call, in process (median ns; target: under 50 without --backtrace)"
printf '%-28s %-8s %10s %10s %10s\n' mode call direct wrapped added
for mode in none preload backtrace; do
	case $mode in
	none) out=$("$COST") ;;
	preload) out=$(LD_PRELOAD=$LIB WARD_HINT=$HINT:0 "$COST") ;;
	backtrace) out=$(LD_PRELOAD=$LIB WARD_HINT=$HINT:1 "$COST") ;;
	esac
	label=$mode
	[ "$mode" = none ] && label="no library (noise)"
	[ "$mode" = backtrace ] && label="library, --backtrace"
	[ "$mode" = preload ] && label="library"
	echo "$out" | while read -r call d w a; do
		printf '%-28s %-8s %10s %10s %10s\n' "$label" "$call" "$d" "$w" "$a"
	done
done
echo "(direct: glibc's function called past the library; wrapped: the program's"
echo " own call, through the wrapper; the calls are open(\"\") and connect(-1),"
echo " which the kernel refuses at once, so that the wrapper's part shows)"

echo "== preload: added to starting a program, natively (median us of CPU time per start of /bin/true)"
printf '%-28s %10s %10s %10s\n' "" plain library added
"$BUILD/bench/bench_preload_exec" "$LIB" "$HINT:0" /bin/true | while read -r _ p w a; do
	printf '%-28s %10s %10s %10s\n' "exec" "$p" "$w" "$a"
done
echo "(the CPU time the started programs used, not the time waited: the loader's"
echo " work on the library and its constructor)"
