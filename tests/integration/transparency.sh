#!/bin/bash
# Transparency: real programs give the same output and exit status under
# `ward run` (default profile) as natively, and the output they should.
# Each case runs in a fresh copy of a template project, natively and
# supervised; the native run must print the lines known to come out of it
# (so a broken tool cannot pass by failing alike twice), and the two
# transcripts (stdout, stderr, exit status, and a listing of the files it
# left) must be the same.
#
#   transparency.sh BUILD_DIR [nobody]
#
# With "nobody" (root only: exit 77 otherwise), the cases run as the
# unprivileged user nobody, with ward staged where nobody may run it.
# WARD_TESTS_OPTS: options, split at spaces, for every `ward run` (the
# ctests transparency-no-preload and transparency-nobody-no-preload give
# --no-preload).
. "$(dirname "$0")/lib.sh"
BUILD=$(cd "${1:?usage: transparency.sh BUILD_DIR [nobody]}" && pwd)
PART=${2:-}
WARD=$BUILD/ward
read -ra WARD_OPTS <<<"${WARD_TESTS_OPTS:-}"
AS=""
if [ "$PART" = nobody ]; then
	nobody_ready || skip_all "$NB_WHY"
	AS="$NB_UID:$NB_GID"
elif [ -n "$PART" ]; then
	bail "unknown part '$PART'"
fi
make_base transp

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

# run_case NAME CMD KNOWN: natively CMD prints every line of KNOWN (in
# order, among others), and its transcript under ward is the same.
run_case() {
	local name=$1 cmd=$2 known=$3 as=$AS
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
	(cd "$sup" && "${pre[@]}" "${env[@]}" "$RWARD" run -q "${WARD_OPTS[@]}" --log "$BASE/w/log.jsonl" -- bash -c "$cmd" >"$BASE/out.w" 2>"$BASE/err.w"; echo "status=$?" >>"$BASE/out.w")
	(cd "$nat" && find . -path ./.git -prune -o -printf '%p %y %m %s\n' | sort) >"$BASE/tree.n"
	(cd "$sup" && find . -path ./.git -prune -o -printf '%p %y %m %s\n' | sort) >"$BASE/tree.w"
	sed -i "s#$nat#DIR#g" "$BASE/out.n" "$BASE/err.n"
	sed -i "s#$sup#DIR#g" "$BASE/out.w" "$BASE/err.w"
	local tag="$name${as:+ (as nobody)}"
	if printf '%s\n' "$known" | in_order "$BASE/out.n"; then
		pass "$tag: natively, the known output"
	else
		fail "$tag: natively, the known output" "expected, in order:" "$known" "got:" "$(cat "$BASE/out.n")" \
			"stderr: $(head -c 300 "$BASE/err.n")"
	fi
	if cmp -s "$BASE/out.n" "$BASE/out.w" && cmp -s "$BASE/err.n" "$BASE/err.w" &&
		cmp -s "$BASE/tree.n" "$BASE/tree.w"; then
		pass "$tag: the same output, status and files under ward"
	else
		fail "$tag: the same output, status and files under ward" \
			"$(diff "$BASE/out.n" "$BASE/out.w" | sed 's/^/out: /' | head -8)" \
			"$(diff "$BASE/err.n" "$BASE/err.w" | sed 's/^/err: /' | head -8)" \
			"$(diff "$BASE/tree.n" "$BASE/tree.w" | sed 's/^/tree: /' | head -8)"
	fi
	check "$tag: the log ends with session-end" session-end \
		"$(tail -n 1 "$BASE/w/log.jsonl" 2>/dev/null | grep -o '"event":"session-end"' | cut -d'"' -f4)"
	if [ "$MODE_SHOWN" = 0 ]; then
		preload_mode "$tag" "$BASE/w/log.jsonl"
		MODE_SHOWN=1
	fi
	rm -f "$BASE/w/log.jsonl"
}

# in_order FILE: each line of stdin is a whole line of FILE, in that order.
in_order() {
	awk 'NR == FNR { want[++n] = $0; next } i < n && $0 == want[i + 1] { i++ } END { exit i < n }' - "$1"
}

suite() {
	run_case sh 'echo hi; for i in 1 2 3; do echo $i; done; x=$(echo sub); echo "$x"; false' \
		"$(printf '%s\n' hi 1 2 3 sub status=1)"
	run_case coreutils 'ls -l data | cut -c1-10,30-; mkdir -p new/d; cp data/f1.txt new/d/; mv new/d/f1.txt new/g.txt;
		ln -s g.txt new/l; readlink new/l; chmod 600 new/g.txt; stat -c "%a %s" new/g.txt; touch -d 2020-01-01 new/t;
		sort -r data/f2.txt; wc -l data/*.txt; sha256sum data/f3.txt; head -1 data/f4.txt; tail -1 data/f5.txt;
		rm new/l; rmdir new/d; ls new; cat /nonexistent; echo status $?' \
		"$(printf '%s\n' g.txt '600 13' 'line 2' 'foo 2' '10 total' \
			'674741c5dba592a6f258e3382efdfa7bdee703ea28aa3d68c3f6f08c221fb50c  data/f3.txt' \
			'line 4' 'foo 5' g.txt t 'status 1')"
	run_case find-grep 'find . -path ./.git -prune -o -name "*.txt" -print | sort; grep -rn foo data | sort; grep -c line data/f1.txt;
		sed -i s/foo/bar/ data/f1.txt; cat data/f1.txt; find data -type f | xargs cat | wc -c' \
		"$(printf '%s\n' ./data/f1.txt ./data/sub/deep.txt data/f1.txt:2:foo\ 1 data/f5.txt:2:foo\ 5 1 \
			'line 1' 'bar 1' 70)"
	run_case git 'git status --short; echo change >>data/f1.txt; git diff --stat; git -c user.name=t -c user.email=t@t commit -qam two;
		git log --format="%s %an" ; git show --stat HEAD | tail -2; git rev-list --count HEAD' \
		"$(printf '%s\n' ' data/f1.txt | 1 +' 'two t' 'init t' 2)"
	run_case python3 '/usr/bin/python3 script.py' \
		"$(printf '%s\n' "['f1.txt', 'f2.txt', 'f3.txt', 'f4.txt', 'f5.txt', 'sub']" '{"k": [1, 2, 3]}' child 1 \
			'y.json False')"
	run_case gcc 'gcc -Wall -o hello2 src/hello.c && ./hello2; echo rc=$?' \
		"$(printf '%s\n' 'hello from C' rc=3 status=0)"
	run_case make 'make -s && ./hello; echo rc=$?; make -s clean; ls' \
		"$(printf '%s\n' 'hello from C' rc=3 Makefile data script.py src status=0)"
	run_case tar 'tar cf a.tar data && tar tf a.tar | sort && mkdir x && tar xf a.tar -C x && diff -r data x/data && echo same;
		tar czf b.tgz src && tar tzf b.tgz' \
		"$(printf '%s\n' data/ data/f1.txt data/sub/deep.txt same src/ src/hello.c status=0)"
	run_case pipes 'seq 1 2000 | sort -n | uniq | tail -n 2; yes | head -n 3; (echo a; echo b) | tac; cat <(echo procsub)' \
		"$(printf '%s\n' 1999 2000 y y y b a procsub status=0)"
	# A memfd's mode, times, owner and size (the agent's own, as a pipe is);
	# POSIX semaphores and shared memory, which live in /dev/shm.
	run_case memfd '/usr/bin/python3 -c "import os; fd = os.memfd_create(\"m\"); os.fchmod(fd, 0o600);
os.utime(fd, (1, 1)); os.fchown(fd, os.getuid(), -1); os.ftruncate(fd, 10); print(os.fstat(fd).st_size, oct(os.fstat(fd).st_mode & 0o777))"' \
		"$(printf '%s\n' '10 0o600' status=0)"
	run_case posix-shm '/usr/bin/python3 -c "import multiprocessing as mp, multiprocessing.shared_memory as sm
l = mp.Lock(); l.acquire(); l.release(); m = sm.SharedMemory(create=True, size=64); m.buf[0] = 7
n = sm.SharedMemory(m.name); print(n.buf[0]); n.close(); m.close(); m.unlink()"' \
		"$(printf '%s\n' 7 status=0)"
}

mkdir -p "$BASE/w" "$BASE/home" "$BASE/tmp" "$BASE/run"
MODE_SHOWN=0 # whether a run under ward has shown its preload mode
make_template "$BASE/template"
RWARD=$WARD
if [ -n "$AS" ]; then
	# ward as nobody runs from a copy nobody can reach, wherever the build is.
	stage "$BASE/stage" "$WARD"
	RWARD=$BASE/stage/ward
	stage_check "the unprivileged pass" "$BASE/stage"
	chown -R "$AS" "$BASE/home" "$BASE/tmp" "$BASE/run" "$BASE/w"
	ward_probe "$RWARD" as_nobody
else
	ward_probe "$RWARD"
fi
suite
summary
