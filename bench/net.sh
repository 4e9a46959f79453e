#!/bin/bash
# The network part of make bench: per-call latency of connect and of the
# sends, and a loopback HTTP load, native and under ward (default profile,
# log on), interleaved over ROUNDS rounds.  Prints medians and ratios.
# run.sh runs it last; it also runs alone:
#
#   net.sh BUILD_DIR [ROUNDS]
set -u
BUILD=$(cd "${1:?usage: net.sh BUILD_DIR [ROUNDS]}" && pwd)
ROUNDS=${2:-5}
WARD=$BUILD/ward
NC=$BUILD/bench/bench_net_calls
HL=$BUILD/bench/bench_http_load
BASE=$(mktemp -d /tmp/ward-bench-net.XXXXXX)
server=
cleanup() {
	# Only the server this script started, should a client have failed before it finished.
	[ -n "$server" ] && kill "$server" 2>/dev/null
	rm -rf "$BASE"
}
trap cleanup EXIT

# Calls per batch (each run times 5 batches and reports the median batch),
# and connections per HTTP run: enough for a stable median on a noisy
# 2-core machine, small enough that this whole script takes under a minute.
NCONNECT=2000
NSEND=5000
NHTTP=2000
HTTP_REPEAT=3

median() { tr ' ' '\n' | grep . | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
wardrun() { "$WARD" run -q --log "$BASE/ward.jsonl" "$@"; }
# VALUE-OR-NOTHING: what a run printed as "NAME VALUE", or nothing when it failed.
value() { awk 'NF == 2 {print $2}'; }

calls=(connect sendto sendmsg send)
declare -A ns
rtts=
http_native=
http_ward=
http_client=
for r in $(seq 1 "$ROUNDS"); do
	rtts="$rtts $("$BUILD/bench/bench_notify_rtt" 20000 | value)"
	for c in "${calls[@]}"; do
		n=$NSEND
		[ "$c" = connect ] && n=$NCONNECT
		ns[$c.native]="${ns[$c.native]:-} $("$NC" "$c" "$n" | value)"
		ns[$c.ward]="${ns[$c.ward]:-} $(wardrun -- "$NC" "$c" "$n" | value)"
		rm -f "$BASE/ward.jsonl"
	done

	# A run is short (tens of milliseconds natively) and two processes
	# ping-pong on two cores, so a burst of other work moves it a lot:
	# more samples, interleaved, rather than longer runs.
	for h in $(seq 1 "$HTTP_REPEAT"); do
		http_native="$http_native $("$HL" local "$NHTTP" | value)"
		http_ward="$http_ward $(wardrun -- "$HL" local "$NHTTP" | value)"
		rm -f "$BASE/ward.jsonl" "$BASE/port"
		# The server outside the session: native, on a port the kernel picks,
		# which the client under ward may reach only through a rule.
		"$HL" serve "$NHTTP" >"$BASE/port" &
		server=$!
		for _ in $(seq 1 500); do [ -s "$BASE/port" ] && break; sleep 0.01; done
		port=$(cat "$BASE/port")
		rps=$(wardrun -r "allow connect 127.0.0.1:$port" -- "$HL" get "$port" "$NHTTP" | value)
		# A client that failed leaves the server waiting for connections that never come.
		[ -n "$rps" ] || kill "$server" 2>/dev/null
		wait "$server" 2>/dev/null
		server=
		http_client="$http_client $rps"
		rm -f "$BASE/ward.jsonl"
	done
done

us() { awk -v x="$1" 'BEGIN {printf "%.1f", x / 1000}'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN {if (a > 0 && b > 0) printf "%.2f", a / b; else print "-"}'; }

rtt=$(echo "$rtts" | median)
echo
echo "== network calls (median us per call, $ROUNDS rounds, interleaved; peers bound by the bench, so @session)"
printf '%-8s %9s %9s %9s %9s\n' call native ward x_native ward-rtt
for c in "${calls[@]}"; do
	a=$(echo "${ns[$c.native]}" | median)
	b=$(echo "${ns[$c.ward]}" | median)
	if [ -z "$a" ] || [ -z "$b" ]; then
		printf '%-8s %9s %9s   (failed)\n' "$c" "${a:-?}" "${b:-?}"
		continue
	fi
	own=$(us $((b - a - rtt)))
	[ "$c" = send ] && own=- # not notified: no round trip to take away
	printf '%-8s %9s %9s %9s %9s\n' "$c" "$(us "$a")" "$(us "$b")" "$(ratio "$b" "$a")" "$own"
done
echo "bare notification round trip (notify + CONTINUE): $(us "$rtt") us"
echo "(connect: TCP to a listener on 127.0.0.1; sendto: a 64-byte UDP datagram with an address;"
echo " sendmsg: the same on a connected UDP socket; send: 64 bytes on a connected TCP socket,"
echo " not notified by ward.  Only the call is timed.  ward-rtt: ward's own cost per call,"
echo " above native and one bare round trip)"

echo
echo "== loopback HTTP/1.0 load ($NHTTP connections: connect, GET, read the reply, close;"
echo "   median of $((ROUNDS * HTTP_REPEAT)) runs each, interleaved)"
nat=$(echo "$http_native" | median)
printf '%-34s %9s %9s\n' mode req/s x_native
row() { # LABEL VALUES
	local m
	m=$(echo "$2" | median)
	printf '%-34s %9s %9s\n' "$1" "${m:-failed}" "$(ratio "$nat" "${m:-0}")"
}
row "native (server and client)" "$http_native"
row "ward (server and client)" "$http_ward"
row "ward client, native server (rule)" "$http_client"
echo "(x_native: native req/s over this mode's, so 1.00 is as fast as native and 1.25 a quarter slower)"
