#!/bin/bash
# template.sh DIR: make in DIR the project bench/workload.sh runs in (four C
# files, 200 text files, a git repository with one commit).
set -eu
T=${1:?usage: template.sh DIR}
mkdir -p "$T/src/sub"
for i in 1 2 3 4; do
	printf '#include <stdio.h>\nint f%d(int x) { return x * %d; }\n' "$i" "$i" >"$T/src/m$i.c"
done
printf 'int main(void) { return 0; }\n' >>"$T/src/m1.c"
for i in $(seq 1 200); do printf 'line %d main\n' "$i" >"$T/src/sub/t$i.txt"; done
(cd "$T" && git init -q && git -c user.name=b -c user.email=b@b add -A &&
	git -c user.name=b -c user.email=b@b commit -qm init)
