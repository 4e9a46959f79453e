#!/bin/bash
# ward run: the checks that need root (a loop device, a mount namespace, a
# run as nobody, 65536 supplementary groups).  The rest is run.sh.
#   run-root.sh BUILD_DIR      (exit 77 when not root)
. "$(dirname "$0")/lib.sh"
WARD=$(cd "${1:?usage: run-root.sh BUILD_DIR}" && pwd)/ward
[ "$(id -u)" = 0 ] || skip_all "needs root"
make_base run-root
hermetic "$BASE"
mkdir -p "$BASE/proj"
cd "$BASE/proj" || bail "cd"
ward_probe "$WARD"
L=$BASE/log.jsonl
# A hang fails, not waits.
run() { rm -f "$L"; timeout -k 3 20 "$WARD" run -q --log "$L" "$@"; RC=$?; }

# The umask ward keeps (a task alone in its fs_struct): a value read from
# /proc while a thread of the same fs_struct was about to run a umask(2),
# and kept once that thread was gone, was found by review.  The race is met
# when /proc/TID/status is slow: as root, ward and the agent run with 65536
# supplementary groups.
if [ "$(nproc)" -ge 2 ]; then
	U=$(dirname "$WARD")/tests/progs/umask
	rm -f "$L"
	got=$("$U" with-groups "$WARD" run -q --log "$L" -- "$U" race-exit 30)
	check "umask: a value read while another task of the fs_struct was in umask(2) is not kept" \
		"race-exit: no mismatch in 30 rounds" "$got"
else
	skip "umask race-exit" "needs two CPUs"
fi

# A block device holds other files' bytes whatever their names: never opened
# (root: a loop device over a file).
if [ -e /dev/loop-control ] && truncate -s 1M "$BASE/blk.img" &&
	dev=$(losetup -f --show "$BASE/blk.img" 2>/dev/null); then
	printf 'RAW-BYTES' | dd of="$dev" conv=notrunc status=none
	check "natively, root reads a block device" "RAW-BYTES" "$(head -c 9 "$dev")"
	run -- head -c 9 "$dev" >"$BASE/out" 2>/dev/null
	check "under ward it may not" "1 " "$RC $(cat "$BASE/out")"
	has "...and the log says why" "$L" \
		"\"path\":\"$dev\",\"decision\":\"deny\",\"errno\":\"EACCES\",\"by\":\"policy\",\"reason\":\"a block device"
	losetup -d "$dev"
	rm -f "$BASE/blk.img"
else
	skip "block devices" "needs loop devices"
fi


# A root agent without CAP_NET_ADMIN: it may not kill the host's connections
# (SOCK_DESTROY through sock_diag, as ss -K does).
if command -v ss >/dev/null; then
	# A connection of the host, checked until DONE exists, then once more.
	cat >"$BASE/conn.py" <<'PY'
import os, socket, sys, time
done = sys.argv[1]
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(1)
cli = socket.create_connection(srv.getsockname()); peer, _ = srv.accept()
print(srv.getsockname()[1], flush=True)
def alive():
    try:
        cli.send(b"x"); peer.recv(1)
        return True
    except OSError:
        return False
ok = True
end = time.time() + 60
while not os.path.exists(done) and time.time() < end:
    ok = alive() and ok
    time.sleep(0.05)
print("intact" if alive() and ok else "broken", flush=True)
PY
	conn_killed_by() { # COMMAND...: what becomes of a host connection that COMMAND tries to kill
		rm -f "$BASE/conn.done" "$BASE/conn.out"
		python3 "$BASE/conn.py" "$BASE/conn.done" >"$BASE/conn.out" &
		local cpid=$! port
		wait_for 20 test -s "$BASE/conn.out"
		port=$(head -1 "$BASE/conn.out")
		"$@" ss -K dst 127.0.0.1 dport = "$port" >/dev/null 2>&1
		touch "$BASE/conn.done"
		wait "$cpid"
		tail -1 "$BASE/conn.out"
	}
	native=$(conn_killed_by)
	if [ "$native" = broken ]; then
		pass "natively, root's ss -K kills a connection of the host"
		check "a root agent cannot kill a connection of the host (ss -K: no CAP_NET_ADMIN)" "intact" \
			"$(conn_killed_by run --)"
	else
		skip "a root agent cannot kill a connection of the host" \
			"natively ss -K left it $native: this kernel has no SOCK_DESTROY (CONFIG_INET_DIAG_DESTROY)"
	fi
	check "...the agent starts without CAP_NET_ADMIN" "0" \
		"$(eff=$(run -- sh -c 'grep CapEff /proc/self/status' | awk '{print $2}'); echo $((0x$eff & 4096)))"
else
	skip "CAP_NET_ADMIN" "needs ss (iproute2)"
fi

# What a ward without CAP_SYS_PTRACE cannot serve: a process whose memory
# it may not read (root runs this part as nobody).
if nobody_ready; then
	U=$BASE/nobody
	mkdir -p "$U/home/tmp"
	cp "$WARD" "$U/ward"
	cp /bin/echo "$U/echo"
	chown -R "$NB_UID:$NB_GID" "$U"
	chown root:root "$U/echo"
	chmod 711 "$U/echo" # runs, but nobody may not read it
	asn() { (cd "$U" && setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups env HOME="$U/home" \
		XDG_STATE_HOME="$U/home/.state" XDG_CONFIG_HOME="$U/home/.config" \
		XDG_RUNTIME_DIR="$U/home/run" TMPDIR="$U/home/tmp" "$@"); }
	undump='import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
r = libc.prctl(4, 0, 0, 0, 0)  # PR_SET_DUMPABLE, SUID_DUMP_DISABLE
print(r, os.strerror(ctypes.get_errno()) if r else "-", open("/etc/hostname").read() != "")'
	check "natively, a process may make itself non-dumpable" "0 - True" "$(asn python3 -c "$undump")"
	check "under an unprivileged ward it may not (EPERM), and its calls are still served" \
		"-1 Operation not permitted True" "$(asn "$U/ward" run -q -- python3 -c "$undump" 2>&1)"
	check "natively, nobody runs a program it may not read" "hi" "$(asn "$U/echo" hi 2>&1)"
	asn "$U/ward" run -q --log "$U/home/l.jsonl" -- "$U/echo" hi >/dev/null 2>&1
	check "an unprivileged ward does not run it (126)" 126 "$?"
	has "...and logs why" "$U/home/l.jsonl" \
		'"op":"exec","path":"[^"]*/nobody/echo","decision":"deny","errno":"EACCES","by":"policy","reason":"ward could not read the memory'
	check "a root ward runs it" "hi" "$("$WARD" run -q -- "$U/echo" hi 2>&1)"
	# /dev/tty is the caller's own controlling terminal: inside a pty the
	# agent made (script), that pty, not ward's terminal.
	cat >"$U/ctty.py" <<'PY'
import fcntl, os, struct
fd = os.open("/dev/tty", os.O_RDWR)
sid = lambda f: struct.unpack("i", fcntl.ioctl(f, 0x5429, b"\0\0\0\0"))[0]  # TIOCGSID
print("same" if sid(fd) == sid(0) else "different")
PY
	chmod 644 "$U/ctty.py"
	out=$(asn script -qec "$U/ward run -q -- script -qec 'python3 $U/ctty.py' /dev/null" /dev/null </dev/null 2>&1 |
		tr -d '\r' | grep -oE '(same|different)$')
	check "/dev/tty inside a pty the agent made is that pty, not ward's terminal" "same" "$out"
	# A ward that may trace but not read it (CAP_SYS_PTRACE alone; a root
	# ward on NFS with root_squash is the same): what it would run is
	# unknown, so it is refused at the exec, not killed after it.
	capn() { (cd "$U" && setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups \
		--inh-caps +sys_ptrace --ambient-caps +sys_ptrace env HOME="$U/home" \
		XDG_STATE_HOME="$U/home/.state" XDG_CONFIG_HOME="$U/home/.config" \
		XDG_RUNTIME_DIR="$U/home/run" TMPDIR="$U/home/tmp" "$@"); }
	rm -f "$U/home/l.jsonl"
	capn "$U/ward" run -q --log "$U/home/l.jsonl" -- sh -c "\"$U/echo\" hi; echo \$?" >"$U/home/out" 2>&1
	check "a ward that cannot read a program refuses its exec (EACCES: 126)" 126 "$(tail -1 "$U/home/out")"
	has "...and logs why" "$U/home/l.jsonl" \
		'"op":"exec","path":"[^"]*/nobody/echo","decision":"deny","errno":"EACCES","by":"policy","reason":"ward cannot read this file'
	rm -f "$U/home/l.jsonl"
	capn "$U/ward" run -q --log "$U/home/l.jsonl" -r "deny exec $U/echo" -- "$U/echo" hi >/dev/null 2>&1
	has "...after the policy's own answer, which comes first" "$U/home/l.jsonl" \
		'"op":"exec","path":"[^"]*/nobody/echo","decision":"deny","errno":"EACCES","rule":"--rule:1"'
else
	skip "non-dumpable processes under an unprivileged ward" "$NB_WHY"
fi

# The log's disk fills up: a line cut short is cut out of the file (the
# next one would be glued to it and the file would no longer parse), the
# calls whose lines were not written are refused, and the loss is counted.
if unshare -m true 2>/dev/null; then
	cat >"$BASE/logfull.py" <<'PY'
import os, sys
d = sys.argv[1]
f = open(os.path.join(d, "fill"), "wb", buffering=0)
for size in (4096, 1):
    try:
        while True:
            f.write(b"\0" * size)
    except OSError:
        pass
refused = 0
for i in range(40):
    try:
        open("/etc/hostname").close()
    except OSError:
        refused += 1
f.truncate(0)  # frees the space through an fd ward does not watch
open(os.path.join(d, "after"), "w").close()
print("refused" if refused else "none refused")
PY
	LF=$BASE/logfull
	mkdir -p "$LF"
	out=$(unshare -m sh -c 'mount -t tmpfs -o size=256k tmpfs "$1" && cd "$1" &&
		"$2" run -q --log "$1/log.jsonl" -- /usr/bin/python3 "$3" "$1" 2>"$4.err";
		cp "$1/log.jsonl" "$4.jsonl"' sh "$LF" "$WARD" "$BASE/logfull.py" "$BASE/logfull")
	check "with the log's disk full, calls are refused" "refused" "$out"
	check "every line of the log is whole JSON" "0" "$(python3 -c 'import json, sys
bad = 0
for l in open(sys.argv[1]):
    try: json.loads(l)
    except ValueError: bad += 1
print(bad)' "$BASE/logfull.jsonl")"
	has "session-end counts the lines lost" "$BASE/logfull.jsonl" '"event":"session-end",.*"lost":[1-9]'
	has "...and ward says so on stderr, -q or not" "$BASE/logfull.err" \
		'events could not be written to the log'
else
	skip "a full log disk" "needs a mount namespace (unshare -m)"
fi

# Programs on overlayfs (root: a mount namespace of its own).  The exec
# check finds the file that runs first in /proc/PID/maps, which names an
# overlay file's layer, not the overlay, before Linux 6.8.
if unshare -m true 2>/dev/null; then
	O=$BASE/ovl
	mkdir -p "$O/l" "$O/u" "$O/w" "$O/m"
	cp /bin/echo "$O/l/echo"
	cp "$(dirname "$WARD")/tests/progs/access-static" "$O/l/st"
	unshare -m sh -c 'mount -t overlay overlay -o "lowerdir=$1/l,upperdir=$1/u,workdir=$1/w" "$1/m" &&
		"$0" run -q -- "$1/m/echo" dynamic && "$0" run -q -- "$1/m/st" /etc/hostname R_OK' \
		"$WARD" "$O" >"$BASE/out" 2>&1
	check "a dynamic and a static program on overlayfs run" \
		"0 dynamic access(\"/etc/hostname\", R_OK) = 0" "$? $(tr '\n' ' ' <"$BASE/out" | sed 's/ $//')"
else
	skip "programs on overlayfs" "needs a mount namespace (unshare -m)"
fi

# Programs on btrfs, at its top and in a subvolume (root: a loop mount in a
# mount namespace).  /proc/PID/maps shows the filesystem's device, where
# stat shows a subvolume's own: the exec check must still find the file.
if command -v mkfs.btrfs >/dev/null && [ -e /dev/loop-control ] &&
	unshare -m true 2>/dev/null; then
	B=$BASE/btrfs
	mkdir -p "$B/m"
	truncate -s 128M "$B/img"
	mkfs.btrfs -q "$B/img" >/dev/null 2>&1
	unshare -m sh -c 'mount -o loop "$1/img" "$1/m" && btrfs subvolume create "$1/m/sv" >/dev/null &&
		cp "$2" "$1/m/st" && cp "$2" "$1/m/sv/st" && cp /lib64/ld-linux-x86-64.so.2 "$1/m/sv/ld.so" &&
		"$0" run -q -- "$1/m/st" /etc/hostname R_OK && "$0" run -q -- "$1/m/sv/st" /etc/hostname R_OK &&
		"$0" run -q -- "$1/m/sv/ld.so" /usr/bin/echo loader' \
		"$WARD" "$B" "$(dirname "$WARD")/tests/progs/access-static" >"$BASE/out" 2>&1
	check "a static program and the loader on btrfs and a subvolume run" \
		"0 access(\"/etc/hostname\", R_OK) = 0 access(\"/etc/hostname\", R_OK) = 0 loader" \
		"$? $(tr '\n' ' ' <"$BASE/out" | sed 's/ $//')"
	# Two subvolumes whose first files share inode 257: a copy of ld.so in s1,
	# and in s2 a program naming it as its interpreter; and in s3 an
	# interpreter whose first page has bss, which the kernel zeroes past the
	# file data (padzero), named by a program at the top.
	printf '#include <stdio.h>\nint main(void) { puts("hello ran"); return 0; }\n' >"$B/hello.c"
	python3 -c 'import struct, sys
def elf(base, interp, msg, bss):
    ilen = len(interp) + 1 if interp else 0
    nph = 2 if interp else 1
    code_at = 64 + 56 * nph + ilen
    code = bytes([0xb8, 1, 0, 0, 0, 0xbf, 1, 0, 0, 0, 0x48, 0x8d, 0x35, 16, 0, 0, 0, 0xba, len(msg), 0, 0, 0,
                  0x0f, 0x05, 0xb8, 60, 0, 0, 0, 0x31, 0xff, 0x0f, 0x05]) + msg
    size = code_at + len(code)
    eh = b"\x7fELF" + bytes([2, 1, 1, 0]) + bytes(8) + struct.pack("<HHIQQQIHHHHHH", 2, 62, 1, base + code_at, 64, 0, 0, 64, 56, nph, 0, 0, 0)
    ph = struct.pack("<IIQQQQQQ", 3, 4, 64 + 56 * nph, 0, 0, ilen, ilen, 1) if interp else b""
    ph += struct.pack("<IIQQQQQQ", 1, 7, 0, base, base, size, size + bss, 0x1000)
    return eh + ph + (interp.encode() + b"\0" if interp else b"") + code
open(sys.argv[1], "wb").write(elf(0x20000000, None, b"bss interp ran\n", 0x2000) + b"\xaa" * 200)
open(sys.argv[2], "wb").write(elf(0x10000000, sys.argv[3], b"main ran\n", 0))' \
		"$B/tint" "$B/tmain" "$B/m/s3/tint"
	chmod 755 "$B/tint" "$B/tmain"
	if gcc -o "$B/hello" "$B/hello.c" -Wl,--dynamic-linker="$B/m/s1/int"; then
		unshare -m sh -c 'mount -o loop "$1/img" "$1/m" &&
			btrfs subvolume create "$1/m/s1" >/dev/null && btrfs subvolume create "$1/m/s2" >/dev/null &&
			btrfs subvolume create "$1/m/s3" >/dev/null &&
			cp /lib64/ld-linux-x86-64.so.2 "$1/m/s1/int" && cp "$1/hello" "$1/m/s2/prog" &&
			cp "$1/tint" "$1/m/s3/tint" && cp "$1/tmain" "$1/m/tmain" &&
			[ "$(stat -c %i "$1/m/s1/int")" = "$(stat -c %i "$1/m/s2/prog")" ] &&
			"$0" run -q -- "$1/m/s2/prog" && "$0" run -q -- "$1/m/tmain"' \
			"$WARD" "$B" >"$BASE/out" 2>&1
		check "on btrfs, a program with its interpreter's inode number, and an interpreter with bss, run" \
			"0 hello ran bss interp ran" "$? $(tr '\n' ' ' <"$BASE/out" | sed 's/ $//')"
	else
		check "gcc links a program with another interpreter" 0 1
	fi
	rm -f "$B/img"
else
	skip "programs on btrfs" "needs mkfs.btrfs, loop devices and a mount namespace"
fi

summary
