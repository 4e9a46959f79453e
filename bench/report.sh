#!/bin/bash
# ward report of a 1,000,000-line log: lines per second and peak memory.
#
# The log is made from a real one: bench/workload.sh (git, gcc, python,
# find, tar, short processes) run once under ward, its events repeated
# with new pids, later times and, each time, the project's paths in a
# directory of their own, as a long session that keeps making files does.
#
#   report.sh BUILD_DIR [LINES]     (KEEP=1 keeps the log it made, in /tmp)
set -u
BUILD=$(cd "${1:?usage: report.sh BUILD_DIR [LINES]}" && pwd)
LINES=${2:-1000000}
WARD=$BUILD/ward
HERE=$(cd "$(dirname "$0")" && pwd)
BASE=$(mktemp -d /tmp/ward-bench-report.XXXXXX)
trap '[ -n "${KEEP:-}" ] || rm -rf "$BASE"' EXIT

# The project bench/run.sh runs its workload in, made the same way.
P=$BASE/project
"$HERE/template.sh" "$P"
(cd "$P" && "$WARD" run -q --log "$BASE/one.jsonl" -- bash "$HERE/workload.sh") >/dev/null 2>&1
one=$(wc -l <"$BASE/one.jsonl")

python3 - "$BASE/one.jsonl" "$BASE/big.jsonl" "$LINES" "$P" <<'PY'
import json, sys, datetime
src, dst, want, project = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
lines = [json.loads(l) for l in open(src)]
start, body, end = lines[0], lines[1:-1], lines[-1]
fmt = "%Y-%m-%dT%H:%M:%S.%fZ"
t0 = datetime.datetime.strptime(body[0]["ts"], fmt)
t1 = datetime.datetime.strptime(body[-1]["ts"], fmt)
span = (t1 - t0) + datetime.timedelta(milliseconds=50)
with open(dst, "w") as out:
    out.write(json.dumps(start, separators=(",", ":")) + "\n")
    n, k = 1, 0
    while n < want - 1:
        shift = span * k
        for e in body:
            if n >= want - 1:
                break
            e = dict(e)
            e["ts"] = (datetime.datetime.strptime(e["ts"], fmt) + shift).strftime(fmt)
            for f in ("pid", "ppid", "tid"):
                if f in e and e[f] > 1:
                    e[f] += k * 100000
            for f in ("path", "to"):
                if isinstance(e.get(f), str) and e[f].startswith(project + "/"):
                    e[f] = project + "/round%d/" % k + e[f][len(project) + 1:]
            out.write(json.dumps(e, separators=(",", ":")) + "\n")
            n += 1
        k += 1
    out.write(json.dumps(end, separators=(",", ":")) + "\n")
PY
size=$(du -m "$BASE/big.jsonl" | cut -f1)
echo "log: $LINES lines, $size MiB, made from one run of bench/workload.sh under ward ($one lines)"
for what in text json learn; do
	case $what in
	text) cmd=("$WARD" report "$BASE/big.jsonl") label="ward report" ;;
	json) cmd=("$WARD" report --json "$BASE/big.jsonl") label="ward report --json" ;;
	learn) cmd=("$WARD" learn "$BASE/big.jsonl") label="ward learn" ;;
	esac
	# Best of three: the machine is shared.
	best=
	for _ in 1 2 3; do
		r=$(/usr/bin/time -f '%e %M' "${cmd[@]}" 2>&1 >/dev/null | tail -n 1)
		if [ -z "$best" ] || [ "$(echo "${r% *} < ${best% *}" | bc -l)" = 1 ]; then best=$r; fi
	done
	secs=${best% *} kib=${best#* }
	printf '%-20s %6.2f s  %9.0f lines/s  peak %4d MiB\n' "$label" \
		"$secs" "$(echo "$LINES / $secs" | bc -l)" "$((kib / 1024))"
done
echo "(target for ward report: at least 500000 lines/s and under 200 MiB)"
