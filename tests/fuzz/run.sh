#!/bin/sh
# run.sh FUZZER SECONDS [CORPUS]: run a fuzzer for SECONDS from the
# committed seed corpus tests/fuzz/corpus/CORPUS (policy: corpus/ itself).
# New inputs go to a scratch corpus, so the committed one stays small.
set -eu
fuzzer=$1
seconds=${2:-60}
here=$(cd "$(dirname "$0")" && pwd)
corpus=$here/corpus
[ "${3:-policy}" = policy ] || corpus=$here/corpus-$3
# An exec'd file's program headers and interpreter may lie past the 4 KiB
# head ward reads first: the ELF inputs go further.
maxlen=4096
[ "${3:-policy}" = elf ] && maxlen=16384
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	-max_len=$maxlen -print_final_stats=1 -artifact_prefix="$work/" \
	"$work" "$corpus" 2>"$work/log" || {
	tail -n 60 "$work/log"
	# What a cut-short CI log still shows, last: the input (whole, as
	# base64, up to the 4 KiB the text fuzzers take), then where it failed.
	for a in "$work"/crash-* "$work"/leak-* "$work"/timeout-* "$work"/oom-*; do
		[ -e "$a" ] || continue
		echo "artifact: $a ($(wc -c <"$a") bytes)"
		od -c "$a" | head -20
		[ "$(wc -c <"$a")" -le 4096 ] && { echo "base64:"; base64 -w 76 "$a"; }
	done
	grep -E '^==[0-9]+==.*ERROR|^SUMMARY' "$work/log" | head -4
	grep -E '^ +#[0-9]+ .* in ' "$work/log" | grep -v -E 'fuzzer::|libc|_start|sanitizer|nptl/|signal/|stdlib/| in main ' | head -8
	echo "fuzz: FAILED"
	exit 1
}
grep -E 'stat::number_of_executed_units|Done' "$work/log" || true
echo "fuzz: no crash, leak or hang in ${seconds}s"
