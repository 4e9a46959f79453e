#!/bin/bash
# reproducers.sh BUILD_DIR [nobody] - each difference from native behaviour
# that CPython's test suites found under ward (issue 20; cpython.sh runs the
# suites themselves), reproduced by a program of ward's own in tests/progs,
# without Python.
#
# Each case runs its program natively and under `ward run` (default
# profile, --undecided deny), dynamic and static, in a fresh directory;
# what the program prints and its exit status must be the same both ways.
# (The programs print only what natively never varies.)  With "nobody"
# (root only: exit 77 otherwise) the cases run as the unprivileged user
# nobody, with ward and the programs staged where nobody may run them.
#
# While working on ward: REPRO_FILTER=REGEX runs only the cases whose name
# matches.
. "$(dirname "$0")/lib.sh"
exec </dev/null
umask 022
BUILD=$(cd "${1:?usage: reproducers.sh BUILD_DIR [nobody]}" && pwd -P)
PART=${2:-}
RUNAS=()
if [ "$PART" = nobody ]; then
	nobody_ready || skip_all "$NB_WHY"
	RUNAS=(as_nobody)
elif [ -n "$PART" ]; then
	bail "unknown part '$PART'"
fi
make_base repro
close_fds

PROGS="timer_calls unix_bind free_port kernel_first udp_reply"
BIN=$BASE/bin
files=("$BUILD/ward")
for p in $PROGS; do
	files+=("$BUILD/tests/progs/$p" "$BUILD/tests/progs/$p-static")
done
stage "$BIN" "${files[@]}"
U=$BASE/u
mkdir -p "$U/work"
hermetic "$U"
[ -n "$PART" ] && chown -R "$NB_UID:$NB_GID" "$U"
if [ -n "$PART" ]; then
	stage_check "the unprivileged pass" "$BIN"
	ward_probe "$BIN/ward" as_nobody
else
	ward_probe "$BIN/ward"
fi

EXTRA_ENV=()
# as_user CMD...: CMD as the user of this run, in a clean environment.
as_user() {
	"${RUNAS[@]}" env -i "${ENVV[@]}" "${EXTRA_ENV[@]}" "$@"
}

# fresh DIR: an empty directory DIR of the run's user.
fresh() {
	rm -rf "$1"
	mkdir -p "$1"
	[ -n "$PART" ] && chown "$NB_UID:$NB_GID" "$1"
}

# same NAME PROG ARGS...: PROG (both builds) prints the same and exits the
# same natively and under ward, run in a fresh directory (its cwd, which
# "DIR" in ARGS names).  EXTRA_ENV is added to the environment of both.
same() {
	local name=$1 prog=$2 kind
	shift 2
	if [ -n "${REPRO_FILTER:-}" ] && ! [[ $name =~ $REPRO_FILTER ]]; then
		return
	fi
	for kind in "" -static; do
		local d=$U/work/$prog$kind args=() a
		for a in "$@"; do args+=("${a//DIR/$d}"); done
		local what="$name ($prog$kind${PART:+, as nobody})"
		fresh "$d"
		(cd "$d" && as_user "$BIN/$prog$kind" "${args[@]}" >"$BASE/native" 2>&1
			echo "exit $?" >>"$BASE/native")
		fresh "$d"
		(cd "$d" && as_user "$BIN/ward" run -q --undecided deny --log "$U/log.jsonl" -- \
			"$BIN/$prog$kind" "${args[@]}" >"$BASE/ward" 2>&1
			echo "exit $?" >>"$BASE/ward")
		if diff "$BASE/native" "$BASE/ward" >"$BASE/diff"; then
			pass "$what"
		else
			fail "$what: differs from native (< native, > ward)" "$(cat "$BASE/diff")"
		fi
	done
}

# Signals before ward has received a call (issue 25): a timer at 100 Hz,
# and one every 50 us while four threads keep ward's one worker busy, so
# that each call waits its turn far longer than the timer's interval.
# Without SA_RESTART no call may fail with EINTR; with it no call may be
# restarted for ever.
same "signals: a 100 Hz timer, handlers without SA_RESTART" timer_calls DIR intr 10000 2
same "signals: a 100 Hz timer, handlers with SA_RESTART" timer_calls DIR restart 10000 2
EXTRA_ENV=(WARD_WORKERS=1)
same "signals: a 50 us timer, a busy ward, without SA_RESTART" timer_calls DIR intr 50 2 4
same "signals: a 50 us timer, a busy ward, with SA_RESTART" timer_calls DIR restart 50 2 4
EXTRA_ENV=()
# A unix socket keeps the name it was bound to (test_socket's unix classes,
# asyncio's unix servers): absolute, relative, with a directory.
same "unix sockets keep the names they were bound to" unix_bind DIR
# A TCP connect to a loopback port nothing listens on is refused by the
# kernel (test_socket's NetworkConnectionNoServer), a UDP datagram sent
# there is dropped and the send succeeds (BasicUDPTest.testRecvFromNegative);
# a host service there stays denied (attacks.sh: connect, net udp).  A
# second connect of a connected or listening TCP socket, to that port or to
# a host no policy allows: the kernel's EISCONN, which never reads the name
# (attacks.sh: net_race disconnect).
same "a loopback port nothing uses: connect refused, datagram dropped; a busy socket EISCONN" free_port
# A UDP server of the session answers its clients whose ports the kernel
# chose (test_asyncio's test_create_datagram_endpoint); from a thread of its
# own it answers before the client's send has returned (test_asyncio's
# test_recvfrom, test_recvfrom_into, test_sendto_blocking hung so under
# load): the client's port is the session's before its datagram leaves.
same "a UDP server answers the session's clients bound by connect or send, at once from a thread" udp_reply
# The kernel's own errors before ward's refusals (test_os test_tcsetpgrpt).
same "the kernel's own errors first: tcsetpgrp EBADF and ENOTTY, unlink ENOENT" kernel_first
# ...and on a read-only mount outside the project (a bind mount: root only),
# where the policy refuses the changes: EROFS first (found on a VM's root).
if [ "$(id -u)" = 0 ] && mkdir -p "$BASE/ro" && mount --bind "$BASE/ro" "$BASE/ro" 2>/dev/null; then
	at_exit 'umount "$BASE/ro" 2>/dev/null'
	if mount -o remount,bind,ro "$BASE/ro"; then
		same "a read-only mount: unlink, rmdir and mkdir EROFS, mkdir of what is there EEXIST" \
			kernel_first "$BASE/ro"
	else
		skip "a read-only mount: EROFS first" "cannot remount a bind mount read-only here"
	fi
else
	skip "a read-only mount: EROFS first" "needs root (a bind mount)"
fi

summary
