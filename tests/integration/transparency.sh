#!/bin/bash
# Transparency: real programs give the same output and exit status under
# `ward run` (default profile) as natively.  Each case runs in a fresh copy
# of a template project, natively and supervised, and the two transcripts
# (stdout, stderr, exit status, and a listing of the files it left) are
# compared.  Run as root, then again as the unprivileged user nobody.
#
#   transparency.sh BUILD_DIR
set -u
BUILD=$(cd "${1:?usage: transparency.sh BUILD_DIR}" && pwd)
WARD=$BUILD/ward
PASS=0 FAIL=0 N=0
BASE=$(mktemp -d /tmp/ward-transp.XXXXXX)
chmod 755 "$BASE"
trap 'rm -rf "$BASE"' EXIT

ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N - $1"; }
not_ok() { N=$((N + 1)); FAIL=$((FAIL + 1)); echo "not ok $N - $1"; }

# The template project: sources, a Makefile, a git repository.
make_template() {
	local t=$1
	mkdir -p "$t/src" "$t/data/sub"
	printf '#include <stdio.h>\nint main(void) { puts("hello from C"); return 3; }\n' >"$t/src/hello.c"
	printf 'all: hello\nhello: src/hello.c\n\tgcc -O1 -o hello src/hello.c\nclean:\n\trm -f hello\n' >"$t/Makefile"
	for i in 1 2 3 4 5; do printf 'line %d\nfoo %d\n' "$i" "$i" >"$t/data/f$i.txt"; done
	printf 'deep\n' >"$t/data/sub/deep.txt"
	cat >"$t/script.py" <<'PY'
import os, subprocess, json, tempfile
os.makedirs("out/a/b", exist_ok=True)
with open("out/a/b/x.json", "w") as f:
    json.dump({"k": [1, 2, 3]}, f)
print(sorted(os.listdir("data")))
print(open("out/a/b/x.json").read())
print(subprocess.run(["/bin/echo", "child"], capture_output=True, text=True).stdout.strip())
with tempfile.NamedTemporaryFile(dir=".", delete=True) as t:
    t.write(b"x"); t.flush(); print(os.path.getsize(t.name))
os.rename("out/a/b/x.json", "out/y.json"); os.symlink("y.json", "out/link")
print(os.readlink("out/link"), os.path.exists("out/a/b/x.json"))
PY
	(cd "$t" && git init -q && git -c user.name=t -c user.email=t@t add -A &&
		GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z' \
			git -c user.name=t -c user.email=t@t commit -qm init)
}

# run_case NAME CMD: the transcript of CMD natively and under ward must match.
run_case() {
	local name=$1 cmd=$2 as=${3:-}
	local nat=$BASE/w/$name.native sup=$BASE/w/$name.ward
	rm -rf "$nat" "$sup"
	cp -a "$BASE/template" "$nat"
	cp -a "$BASE/template" "$sup"
	[ -n "$as" ] && chown -R "$as" "$nat" "$sup"
	local env=(env -i PATH=/usr/local/bin:/usr/bin:/bin HOME="$BASE/home" TMPDIR="$BASE/tmp"
		XDG_CONFIG_HOME="$BASE/home/.config" XDG_STATE_HOME="$BASE/home/.state"
		XDG_RUNTIME_DIR="$BASE/run" LC_ALL=C
		GIT_AUTHOR_DATE='2026-01-01T00:00:00Z' GIT_COMMITTER_DATE='2026-01-01T00:00:00Z')
	local pre=()
	[ -n "$as" ] && pre=(setpriv --reuid="${as%%:*}" --regid="${as##*:}" --clear-groups --)
	(cd "$nat" && "${pre[@]}" "${env[@]}" bash -c "$cmd" >"$BASE/out.n" 2>"$BASE/err.n"; echo "status=$?" >>"$BASE/out.n")
	(cd "$sup" && "${pre[@]}" "${env[@]}" "$WARD" run -q --log "$BASE/w/log.jsonl" -- bash -c "$cmd" >"$BASE/out.w" 2>"$BASE/err.w"; echo "status=$?" >>"$BASE/out.w")
	(cd "$nat" && find . -path ./.git -prune -o -printf '%p %y %m %s\n' | sort) >"$BASE/tree.n"
	(cd "$sup" && find . -path ./.git -prune -o -printf '%p %y %m %s\n' | sort) >"$BASE/tree.w"
	sed -i "s#$nat#DIR#g" "$BASE/out.n" "$BASE/err.n"
	sed -i "s#$sup#DIR#g" "$BASE/out.w" "$BASE/err.w"
	if cmp -s "$BASE/out.n" "$BASE/out.w" && cmp -s "$BASE/err.n" "$BASE/err.w" &&
		cmp -s "$BASE/tree.n" "$BASE/tree.w"; then
		ok "$name${as:+ (as $as)}: same output, status and files as natively"
	else
		not_ok "$name${as:+ (as $as)}: differs from native"
		diff "$BASE/out.n" "$BASE/out.w" | sed 's/^/#   out: /' | head -10
		diff "$BASE/err.n" "$BASE/err.w" | sed 's/^/#   err: /' | head -10
		diff "$BASE/tree.n" "$BASE/tree.w" | sed 's/^/#   tree: /' | head -10
	fi
	if [ -s "$BASE/w/log.jsonl" ] && tail -n 1 "$BASE/w/log.jsonl" | grep -q '"event":"session-end"'; then
		:
	else
		not_ok "$name: the log ends with session-end"
	fi
	rm -f "$BASE/w/log.jsonl"
}

suite() {
	local as=${1:-}
	run_case sh 'echo hi; for i in 1 2 3; do echo $i; done; x=$(echo sub); echo "$x"; false' "$as"
	run_case coreutils 'ls -l data | cut -c1-10,30-; mkdir -p new/d; cp data/f1.txt new/d/; mv new/d/f1.txt new/g.txt;
		ln -s g.txt new/l; readlink new/l; chmod 600 new/g.txt; stat -c "%a %s" new/g.txt; touch -d 2020-01-01 new/t;
		sort -r data/f2.txt; wc -l data/*.txt; sha256sum data/f3.txt; head -1 data/f4.txt; tail -1 data/f5.txt;
		rm new/l; rmdir new/d; ls new; cat /nonexistent; echo status $?' "$as"
	run_case find-grep 'find . -path ./.git -prune -o -name "*.txt" -print | sort; grep -rn foo data | sort; grep -c line data/f1.txt;
		sed -i s/foo/bar/ data/f1.txt; cat data/f1.txt; find data -type f | xargs cat | wc -c' "$as"
	run_case git 'git status --short; echo change >>data/f1.txt; git diff --stat; git -c user.name=t -c user.email=t@t commit -qam two;
		git log --format="%s %an" ; git show --stat HEAD | tail -2; git rev-list --count HEAD' "$as"
	run_case python3 '/usr/bin/python3 script.py' "$as"
	run_case gcc 'gcc -Wall -o hello2 src/hello.c && ./hello2; echo rc=$?' "$as"
	run_case make 'make -s && ./hello; echo rc=$?; make -s clean; ls' "$as"
	run_case tar 'tar cf a.tar data && tar tf a.tar | sort && mkdir x && tar xf a.tar -C x && diff -r data x/data && echo same;
		tar czf b.tgz src && tar tzf b.tgz' "$as"
	run_case pipes 'seq 1 2000 | sort -n | uniq | tail -n 2; yes | head -n 3; (echo a; echo b) | tac; cat <(echo procsub)' "$as"
	# A memfd's mode, times, owner and size (the agent's own, as a pipe is);
	# POSIX semaphores and shared memory, which live in /dev/shm.
	run_case memfd '/usr/bin/python3 -c "import os; fd = os.memfd_create(\"m\"); os.fchmod(fd, 0o600);
os.utime(fd, (1, 1)); os.fchown(fd, os.getuid(), -1); os.ftruncate(fd, 10); print(os.fstat(fd).st_size, oct(os.fstat(fd).st_mode & 0o777))"' "$as"
	run_case posix-shm '/usr/bin/python3 -c "import multiprocessing as mp, multiprocessing.shared_memory as sm
l = mp.Lock(); l.acquire(); l.release(); m = sm.SharedMemory(create=True, size=64); m.buf[0] = 7
n = sm.SharedMemory(m.name); print(n.buf[0]); n.close(); m.close(); m.unlink()"' "$as"
}

mkdir -p "$BASE/w" "$BASE/home" "$BASE/tmp" "$BASE/run"
make_template "$BASE/template"
suite

if [ "$(id -u)" = 0 ] && id nobody >/dev/null 2>&1; then
	chown -R nobody:nogroup "$BASE/home" "$BASE/tmp" "$BASE/run" "$BASE/w"
	chmod 755 "$BASE/w"
	suite "$(id -u nobody):$(id -g nobody)"
else
	echo "# skip: the unprivileged run (not root)"
fi

echo "$PASS passed, $FAIL failed"
[ "$FAIL" = 0 ]
