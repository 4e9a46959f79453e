#!/bin/bash
# libward-preload.so in programs: it goes on into every program started by
# exec or spawn (even with the variables taken away), it leaves the
# program's own backtrace() alone, and it changes no result (return values
# and errno the same with and without it).  Then a few of the same under
# `ward run`, with the library loaded by the command's environment (ward
# does not load it itself yet): it works inside ward's filter.  Run as
# root, then again as the unprivileged user nobody.
#
#   preload.sh BUILD_DIR
set -u
BUILD=$(cd "${1:?usage: preload.sh BUILD_DIR}" && pwd)
LIB=$BUILD/libward-preload.so
PROG=$BUILD/tests/preload/exec_forms
PASS=0 FAIL=0 N=0
BASE=$(mktemp -d /tmp/ward-preload.XXXXXX)
chmod 755 "$BASE"
trap 'rm -rf "$BASE"' EXIT
HINT=1:3a5e00000000:0

ok() { N=$((N + 1)); PASS=$((PASS + 1)); echo "ok $N - $1"; }
not_ok() { N=$((N + 1)); FAIL=$((FAIL + 1)); echo "not ok $N - $1"; }

# A copy of the build's programs that nobody can reach, whatever the
# mode of the checkout's directories.
cp "$LIB" "$PROG" "$BUILD/ward" "$BASE/"
chmod 755 "$BASE/libward-preload.so" "$BASE/exec_forms" "$BASE/ward"
LIB=$BASE/libward-preload.so PROG=$BASE/exec_forms WARD=$BASE/ward

# as USER CMD...: CMD as USER (empty: as we are), in a clean environment.
as() {
	local user=$1
	shift
	local pre=()
	[ -n "$user" ] && pre=(setpriv --reuid="$user" --regid="$(id -g "$user")" --clear-groups --)
	(cd "$BASE" && "${pre[@]}" env -i PATH=/usr/bin:/bin LC_ALL=C "$@")
}

# expect NAME WANT CMD...: CMD's stdout (and exit status) must be WANT.
expect() {
	local name=$1 want=$2
	shift 2
	local got
	got=$("$@" 2>"$BASE/err"; echo "status=$?")
	if [ "$got" = "$want" ]; then
		ok "$name"
	else
		not_ok "$name"
		printf '  want: %s\n  got:  %s\n' "$want" "$got" | sed 's/^/#/'
		sed 's/^/#  stderr: /' "$BASE/err"
	fi
}

for user in "" nobody; do
	who=${user:-$(id -un)}
	if [ -n "$user" ] && ! id "$user" >/dev/null 2>&1; then
		not_ok "user $user exists"
		continue
	fi
	under=(as "$user" LD_PRELOAD="$LIB" WARD_HINT="$HINT")
	mapped=$'mapped\nhint='"$HINT"$'\nstatus=0'

	# Every exec and spawn form puts the library and the channel back.
	for form in execve execv execvp execvpe execl execlp execle fexecve execveat \
		posix_spawn posix_spawnp posix_spawn-environ system popen vfork fork-threads; do
		expect "$who: $form keeps the library" "$mapped" "${under[@]}" "$PROG" "$form"
	done
	# With stacks, fork in a threaded program: the child takes none (a
	# parent's thread may have held libunwind's locks), so it never hangs.
	hung=0
	for i in 1 2 3 4 5 6 7 8 9 10; do
		out=$(as "$user" LD_PRELOAD="$LIB" WARD_HINT=1:3a5e00000000:1 timeout 20 "$PROG" fork-threads 2>&1) ||
			hung=$((hung + 1))
	done
	if [ "$hung" -eq 0 ] && [ "$out" = $'mapped\nhint=1:3a5e00000000:1' ]; then
		ok "$who: fork-threads with stacks, ten times"
	else
		not_ok "$who: fork-threads with stacks, ten times ($hung hung or failed; last: $out)"
	fi
	# env -i, a shell, and a shell's child: the library in each.
	expect "$who: env -i sh -c keeps the library" "$mapped" "${under[@]}" \
		env -i sh -c 'if grep -q libward-preload /proc/$$/maps; then echo mapped; else echo not-mapped; fi; echo "hint=$WARD_HINT"'
	expect "$who: a program's own LD_PRELOAD is kept after the library" \
		"LD_PRELOAD=$LIB:/nonexistent-lib.so"$'\nstatus=0' \
		"${under[@]}" env -i LD_PRELOAD=/nonexistent-lib.so sh -c 'env | grep ^LD_PRELOAD=' 
	# Without ward's channel the library changes no environment.
	expect "$who: without WARD_HINT the library puts nothing back" \
		$'not-mapped\nhint=\nstatus=0' as "$user" LD_PRELOAD="$LIB" "$PROG" execve
	# Threads beyond a slot window, exiting and starting, with signal handlers.
	expect "$who: threads and signal handlers get their results" $'threads: 0 wrong results\nstatus=0' \
		"${under[@]}" "$PROG" threads
	expect "$who: ...and with stacks" $'threads: 0 wrong results\nstatus=0' \
		as "$user" LD_PRELOAD="$LIB" WARD_HINT=1:3a5e00000000:1 "$PROG" threads
	# The program's backtrace() is glibc's, with stacks asked for or not.
	expect "$who: backtrace() stays glibc's" $'backtrace from libc, frames\nstatus=0' \
		as "$user" LD_PRELOAD="$LIB" WARD_HINT=1:3a5e00000000:1 "$PROG" backtrace
	# The same results and errno with the library as without.
	as "$user" "$PROG" errors >"$BASE/errors.native" 2>&1
	as "$user" LD_PRELOAD="$LIB" WARD_HINT="$HINT" "$PROG" errors >"$BASE/errors.preload" 2>&1
	as "$user" LD_PRELOAD="$LIB" WARD_HINT=1:3a5e00000000:1 "$PROG" errors >"$BASE/errors.bt" 2>&1
	if [ -s "$BASE/errors.native" ] && cmp -s "$BASE/errors.native" "$BASE/errors.preload" &&
		cmp -s "$BASE/errors.native" "$BASE/errors.bt"; then
		ok "$who: results and errno unchanged by the library"
	else
		not_ok "$who: results and errno unchanged by the library"
		diff "$BASE/errors.native" "$BASE/errors.preload" | sed 's/^/#/'
		diff "$BASE/errors.native" "$BASE/errors.bt" | sed 's/^/#/'
	fi
	# Real programs: the same output with the library as without.
	for cmd in 'ls -la /usr/bin/env /nonexistent; echo $?' \
		'python3 -c "import os, socket; print(os.listdir(\"/usr/lib/python3\")[:0], socket.getaddrinfo(\"localhost\", 80)[0][0])"' \
		'sh -c "cd /tmp && mkdir -p wpl.$$ && rmdir wpl.$$ && echo done"'; do
		a=$(as "$user" sh -c "$cmd" 2>&1)
		b=$(as "$user" LD_PRELOAD="$LIB" WARD_HINT="$HINT" sh -c "$cmd" 2>&1)
		if [ "$a" = "$b" ] && [ -n "$a" ]; then
			ok "$who: same output: $cmd"
		else
			not_ok "$who: same output: $cmd"
			printf '#  without: %s\n#  with:    %s\n' "$a" "$b"
		fi
	done
done

# Under ward: each user writes its log in a directory of its own.
for user in "" nobody; do
	who=${user:-$(id -un)}
	[ -n "$user" ] && ! id "$user" >/dev/null 2>&1 && continue
	logs=$BASE/logs-$who
	mkdir -p "$logs"
	[ -n "$user" ] && chown "$user" "$logs"
	bare=(as "$user" "$WARD" run -q --log "$logs/ward.jsonl" -- env)
	run=("${bare[@]}" LD_PRELOAD="$LIB")
	for form in execve posix_spawn vfork system fork-threads; do
		expect "$who: under ward, $form keeps the library" $'mapped\nhint=1:3a5e00000000:1\nstatus=0' \
			"${run[@]}" WARD_HINT=1:3a5e00000000:1 "$PROG" "$form"
	done
	expect "$who: under ward, threads and signal handlers get their results" \
		$'threads: 0 wrong results\nstatus=0' "${run[@]}" WARD_HINT=1:3a5e00000000:1 "$PROG" threads
	"${run[@]}" WARD_HINT=1:3a5e00000000:1 "$PROG" errors >"$BASE/errors.ward" 2>&1
	"${bare[@]}" "$PROG" errors >"$BASE/errors.ward-native" 2>&1
	if [ -s "$BASE/errors.ward" ] && cmp -s "$BASE/errors.ward" "$BASE/errors.ward-native"; then
		ok "$who: under ward, results and errno unchanged by the library"
	else
		not_ok "$who: under ward, results and errno unchanged by the library"
		diff "$BASE/errors.ward-native" "$BASE/errors.ward" | sed 's/^/#/'
	fi
done

echo "$PASS passed, $FAIL failed"
[ "$FAIL" -eq 0 ]
