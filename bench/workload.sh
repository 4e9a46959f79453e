#!/bin/bash
# A realistic agent workload, run in the current directory (a fresh copy
# of the template made by bench/run.sh): git, a compiler, python, find and
# grep over a tree, tar, and many short processes.
set -e
export GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z'
g() { git -c user.name=bench -c user.email=b@b "$@"; }
g status --short >/dev/null
for i in 1 2 3 4; do printf '// change %d\n' "$i" >>"src/m$i.c"; done
g add -A
g commit -qm change
g log --oneline | wc -l >/dev/null
g diff HEAD~1 --stat >/dev/null
for i in 1 2 3 4; do gcc -O1 -c "src/m$i.c" -o "m$i.o"; done
gcc -o prog m1.o m2.o m3.o m4.o
./prog >/dev/null
/usr/bin/python3 -c '
import os, json
n = 0
for root, dirs, files in os.walk("src"):
    for f in files:
        with open(os.path.join(root, f)) as fh: n += len(fh.read())
json.dump({"bytes": n}, open("stats.json", "w"))
'
find /usr/include -name '*.h' | head -n 1500 | xargs grep -l define | wc -l >/dev/null
grep -rn main src | wc -l >/dev/null
tar czf src.tgz src
mkdir -p unpack && tar xzf src.tgz -C unpack
for i in $(seq 1 60); do /bin/true; done
for i in $(seq 1 20); do sh -c 'echo x | cat >/dev/null'; done
rm -rf unpack m*.o prog src.tgz stats.json
