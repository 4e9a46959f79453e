#!/bin/bash
# attacks.sh BUILD_DIR - run every attack of tests/attacks/ under `ward run`
# and assert that it failed (DESIGN.md §1, §2).
#
# Each attack program runs, dynamic and static, in a fresh project:
#     secret/x   "WARD-SECRET-<random>", under `-r 'deny read $PROJECT/secret/**'`
#     public/x   "PUBLIC-CONTENT"
#     sub/deep/  empty directories
#     bin/mycat  a copy of /bin/cat
# with the default profile plus that rule (and a few more for some tests),
# ward in a session and process group of its own (setsid), and asserts:
#   - the secret's content never appears in the output, and no LEAK line
#     (the program reports what it got through with);
#   - the program ran to its end and said "RESULT: stopped", exit 0;
#   - ward survived: its exit status is the agent's (0) and its log ends
#     with a "session-end" event carrying that status;
#   - the secret is unchanged (same bytes, same place);
#   - nothing hung (each run has a timeout);
#   - for the network attacks, the service outside the session that they
#     try to reach logged no connection and no datagram.
# When run as root, the whole set runs a second time as nobody:nogroup
# (setpriv), from a temporary directory nobody owns holding copies of ward
# and the attacks (the build tree may not be readable by nobody).
#
# Output: "ok N - ..." / "not ok N - ... (why)" lines, "# " details under
# each failure, and last "N passed, M failed".  Exit 1 when a check failed,
# 2 when the test could not run.
#
# The tests follow the attack list of the brief (1-17: races on the path,
# symlink swaps, dirfd and .., /proc, new names, O_PATH, raw syscalls, the
# environment, the loader, memfd exec, attacks on ward itself, a second
# listener, io_uring/clone3, TIOCSTI, other ABIs, bad pointers, exec
# races), then what else DESIGN.md §1 rules out: O_RDWR opens, FIFOs that
# wedge ward, services outside the session, the audit log, unlinking
# during a decision, syscalls newer than ward's table, detached mounts and
# fanotify (the last two need root), openat2 flag races; then the network:
# UDP, IPv6 and mapped addresses, TCP fast open, unix datagrams, unix path
# tricks, socket kinds and IP options, what a bind makes the session's, and
# races on the sockaddr.  Each program's header says what it tries.  In
# ward options, @P@ stands for the project.
#
# Environment: ATTACK_SECONDS (length of each race, default 3 for dynamic
# and 1.5 for static builds, 1 in the unprivileged pass; 4 for the unlink
# race and the bind swap), ATTACKS_ONLY (an extended regex: run only the
# tests whose name matches).  The unprivileged pass runs alongside the first one.

set -u
umask 022

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
	echo "usage: $0 BUILD_DIR" >&2
	exit 2
fi
BUILD=$(cd "$1" && pwd -P)
WARD=$BUILD/ward
ATT=$BUILD/tests/attacks
SELF=$(cd "$(dirname "$0")" && pwd -P)/$(basename "$0")
if [ ! -x "$WARD" ] || [ ! -x "$ATT/attack_race_path" ]; then
	echo "$0: build ward and the attacks first (make -C $1 ward attacks)" >&2
	exit 2
fi
if [ ! -x /lib64/ld-linux-x86-64.so.2 ]; then
	echo "$0: the loader attacks need /lib64/ld-linux-x86-64.so.2 (x86-64 glibc)" >&2
	exit 2
fi
for tool in setsid timeout sha256sum; do
	command -v "$tool" >/dev/null || { echo "$0: $tool is needed" >&2; exit 2; }
done

PASS_NAME=${ATTACKS_PASS:-$(id -un)}
UNLINK_SECONDS=${ATTACK_SECONDS:-4}
ONLY=${ATTACKS_ONLY:-}

BASE=$(mktemp -d "${TMPDIR:-/tmp}/ward-attacks.XXXXXX") || exit 2
BASE=$(cd "$BASE" && pwd -P)
HELPERS=()
NOBODY_PID=""
cleanup() {
	for h in "${HELPERS[@]}"; do kill "$h" 2>/dev/null; done
	[ -n "$NOBODY_PID" ] && kill "$NOBODY_PID" 2>/dev/null && wait "$NOBODY_PID" 2>/dev/null
	cd / && rm -rf "$BASE"
	[ -n "${NOBODY_DIR:-}" ] && rm -rf "$NOBODY_DIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Hermetic: no configuration of the host's user applies.
export HOME=$BASE/home
export XDG_CONFIG_HOME=$HOME/.config XDG_STATE_HOME=$HOME/.local/state
export XDG_RUNTIME_DIR=$BASE/run TMPDIR=$BASE/tmp
unset LD_PRELOAD LD_LIBRARY_PATH
mkdir -p "$HOME" "$XDG_CONFIG_HOME" "$XDG_STATE_HOME" "$XDG_RUNTIME_DIR" "$TMPDIR" "$BASE/logs"
chmod 700 "$XDG_RUNTIME_DIR"
TOKEN=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
SECRET_TEXT="WARD-SECRET-$TOKEN"

# ---------------------------------------------------------------- helpers

n=0
npass=0
nfail=0

pass() {
	n=$((n + 1)); npass=$((npass + 1))
	echo "ok $n - $1"
}

# Weaknesses that are known and open, each with where its fix is planned.
# Their failures are printed as TAP "# TODO" and counted as skipped, never
# as passed; when one starts to pass, the entry must go.
declare -A KNOWN_OPEN=(
	["loader nosect"]="a loader is told by its soname; a doctored copy (or any loader the agent writes) runs as a static program: deny read to keep a program from running (README Limits)"
)
nskip=0
known_open() { # WHAT -> the reason, when WHAT is a known open weakness
	local k
	for k in "${!KNOWN_OPEN[@]}"; do
		case $1 in "$k ("* | "[nobody] $k ("*) echo "${KNOWN_OPEN[$k]}"; return 0 ;; esac
	done
	return 1
}

fail() { # WHAT WHY DETAILS
	n=$((n + 1))
	local todo
	if todo=$(known_open "$1"); then
		nskip=$((nskip + 1))
		echo "not ok $n - $1 ($2) # TODO $todo"
		return
	fi
	nfail=$((nfail + 1))
	echo "not ok $n - $1 ($2)"
	[ -n "${3:-}" ] && printf '%s\n' "$3" | head -n 25 | sed 's/^/#   /'
}

make_project() { # DIR
	mkdir -p "$1/secret" "$1/public" "$1/sub/deep" "$1/bin"
	printf '%s\n' "$SECRET_TEXT" >"$1/secret/x"
	printf 'PUBLIC-CONTENT\n' >"$1/public/x"
	cp /bin/cat "$1/bin/mycat"
	chmod 755 "$1/bin/mycat"
}

# The last line of a log, and the status of its session-end event.
log_end_ok() { # LOG RC -> 0 when the log ends with session-end carrying RC
	local last
	[ -s "$1" ] || return 1
	last=$(tail -n 1 "$1")
	case $last in
	*'"event":"session-end"'*) ;;
	*) return 1 ;;
	esac
	case $last in
	*"\"status\":$2,"* | *"\"status\":$2}"*) return 0 ;;
	esac
	return 1
}

# Per-test settings, reset after each test.
T_ENV=()      # extra VAR=VALUE for the agent's environment
T_LOG=""      # a --log path (default: $BASE/logs/N.jsonl)
T_TIMEOUT=25
T_PRE=""      # a function run with the project dir before ward starts
T_POST=""     # a function run after the test (helpers to stop)
T_CHECK=""    # a function run last; what it prints is why the test failed
T_WRAP=()     # a command ward is run under (@P@: the project)

# attack NAME MODE DESCRIPTION [ward options...]: run both builds.
attack() {
	local name=$1 mode=$2 desc=$3 kind bin
	shift 3
	for kind in dynamic static; do
		bin=attack_$name
		[ "$kind" = static ] && bin=$bin-static
		run_one "$name${mode:+ $mode} ($kind): $desc" "$bin" "$mode" "$kind" "$@"
	done
	T_ENV=() T_LOG="" T_TIMEOUT=25 T_PRE="" T_POST="" T_CHECK="" T_WRAP=()
}

run_one() { # TITLE BIN MODE KIND [ward options...]
	local title=$1 bin=$2 mode=$3 kind=$4
	shift 4
	if [ -n "$ONLY" ] && ! [[ $title =~ $ONLY ]]; then
		return
	fi
	local p=$BASE/p$((n + 1))
	local log=${T_LOG:-$BASE/logs/$((n + 1)).jsonl}
	log=${log//@P@/$p}
	make_project "$p"
	local before secs out rc why=""
	before=$(sha256sum <"$p/secret/x")
	secs=${ATTACK_SECONDS:-${ATTACKS_DEFAULT_SECONDS:-}}
	[ -z "$secs" ] && { [ "$kind" = static ] && secs=1.5 || secs=3; }
	[ -n "$T_PRE" ] && "$T_PRE" "$p"
	local envs=() e
	for e in "${T_ENV[@]}"; do envs+=("${e//@P@/$p}"); done
	local args=() a
	for a in "$@"; do args+=("${a//@P@/$p}"); done
	local wrap=()
	for a in "${T_WRAP[@]}"; do wrap+=("${a//@P@/$p}"); done
	out=$(cd "$p" && "${wrap[@]}" env ATTACK_SECONDS="$secs" "${envs[@]}" \
		timeout -k 5 "$T_TIMEOUT" setsid -w "$WARD" run -q --log "$log" \
		-r "deny read $p/secret/**" "${args[@]}" -- "$ATT/$bin" ${mode:+"$mode"} \
		</dev/null 2>&1)
	rc=$?
	[ -n "$T_POST" ] && "$T_POST" "$p"

	local leaks wrongs
	leaks=$(printf '%s\n' "$out" | grep -E '^LEAK' || true)
	wrongs=$(printf '%s\n' "$out" | grep -E '^WRONG' || true)
	if [ $rc -eq 124 ] || [ $rc -eq 137 ] && ! log_end_ok "$log" "$rc"; then
		why="hung or killed: timeout after ${T_TIMEOUT}s or SIGKILL (exit $rc)"
	fi
	if [[ $out == *"$TOKEN"* ]]; then
		why="${why:+$why; }the secret's content appeared in the output"
	fi
	[ -n "$leaks" ] && why="${why:+$why; }got through: $(printf '%s\n' "$leaks" | head -n 1)"
	[ -n "$wrongs" ] && why="${why:+$why; }ward misbehaved: $(printf '%s\n' "$wrongs" | head -n 1)"
	if [ ! -e "$log" ]; then
		why="${why:+$why; }ward's log $log is gone"
	elif ! log_end_ok "$log" "$rc"; then
		why="${why:+$why; }ward did not survive: its log does not end with session-end (status $rc); last: $(tail -c 200 "$log" 2>/dev/null | tail -n 1)"
	elif [[ $(head -n 1 "$log") != *'"event":"session-start"'* ]]; then
		why="${why:+$why; }ward's log lost its beginning (no session-start first)"
	fi
	if [ $rc -ne 0 ] && [ -z "$why" ]; then
		why="exit status $rc, expected 0"
	fi
	if [[ $out != *"RESULT: stopped"* ]] && [ -z "$why" ]; then
		why="the attack did not run to its end"
	fi
	local checked
	if [ -n "$T_CHECK" ] && checked=$("$T_CHECK" "$p") && [ -n "$checked" ]; then
		why="${why:+$why; }$checked"
	fi
	if [ ! -f "$p/secret/x" ]; then
		why="${why:+$why; }the secret was moved or removed"
	elif [ "$(sha256sum <"$p/secret/x")" != "$before" ]; then
		why="${why:+$why; }the secret was modified"
	fi
	if [ -z "$why" ]; then
		pass "$title"
	else
		# Failures first, then the rest of the output for context.
		local details
		details=$(printf '%s\n%s\n' "$leaks$wrongs" "$(printf '%s\n' "$out" | grep -vE '^(LEAK|WRONG)')" |
			sed '/^$/d' | sed "s/$TOKEN/<TOKEN>/g")
		fail "$title" "${why//$TOKEN/<TOKEN>}" "$details"
	fi
	rm -rf "$p"
}

# A process outside the session holding the secret (attack_proc victim).
start_victim() { # PROJECT
	rm -f "$BASE/victim.pid"
	"$ATT/attack_proc" victim-serve "$1/secret/x" "$BASE/victim.pid" &
	HELPERS+=($!)
	for _ in $(seq 50); do [ -s "$BASE/victim.pid" ] && break; sleep 0.05; done
	T_ENV=("VICTIM_PID=$(cat "$BASE/victim.pid" 2>/dev/null)")
}
# T_PRE runs in the same shell: the environment for ward must be set here.
pre_victim() { start_victim "$1"; }
post_helpers() {
	for h in "${HELPERS[@]}"; do kill "$h" 2>/dev/null; wait "$h" 2>/dev/null; done
	HELPERS=()
}

pre_race_files() { # PROJECT: secret/race/0..1499, the secret each
	mkdir -p "$1/secret/race"
	local i
	for ((i = 0; i < 1500; i++)); do printf '%s\n' "$SECRET_TEXT" >"$1/secret/race/$i"; done
}

SRV=$BASE/srv # where the outside service lives
pre_server() { # PROJECT: a service outside the session that hands out the secret
	rm -rf "$SRV"
	mkdir -p "$SRV"
	"$ATT/attack_connect" serve "$SRV" "$1/secret/x" &
	HELPERS+=($!)
	for _ in $(seq 50); do [ -s "$SRV/info" ] && break; sleep 0.05; done
}
# The service logs a line per connection and datagram: there must be none.
check_server() { # PROJECT
	if [ ! -e "$SRV/hits" ]; then
		echo "the outside service did not start"
	elif [ -s "$SRV/hits" ]; then
		echo "the outside service was reached $(wc -l <"$SRV/hits") time(s):" \
			"$(sort "$SRV/hits" | uniq -c | sed 's/^ *//' | paste -sd, - | sed 's/,/, /g')"
	fi
}
# attack_net*: the same service for each run, checked afterwards (T_ENV
# set before is kept).
net_attack() { # attack's arguments
	SRV=$BASE/srv
	T_PRE=pre_server T_POST=post_helpers T_CHECK=check_server
	T_ENV=("ATTACK_DIR=$SRV" "${T_ENV[@]}")
	attack "$@"
}
# The same with the service's directory in $TMPDIR, where the agent may
# write (an ssh-agent's socket lives there), and a second listener there
# bound by a name with a symlink and a double slash in it
# ($TMPDIR//srvlink/svc/s.sock, srvlink -> srvreal).
pre_server_tmp() { # PROJECT
	pre_server "$1"
	rm -rf "$TMPDIR/srvreal" "$TMPDIR/srvlink"
	mkdir -p "$TMPDIR/srvreal/svc"
	ln -s "$TMPDIR/srvreal" "$TMPDIR/srvlink"
	python3 -c 'import socket, sys, time
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1]); s.listen(5); time.sleep(60)' \
		"${TMPDIR%/}//srvlink/svc/s.sock" &
	HELPERS+=($!)
	for _ in $(seq 50); do [ -S "$TMPDIR/srvreal/svc/s.sock" ] && break; sleep 0.05; done
}
net_attack_tmp() { # attack's arguments
	SRV=$TMPDIR/srv
	T_PRE=pre_server_tmp T_POST=post_helpers T_CHECK=check_server
	T_ENV=("ATTACK_DIR=$SRV" "LINKED_DIR=$TMPDIR" "${T_ENV[@]}")
	attack "$@"
	SRV=$BASE/srv
}

# ------------------------------------------------------------------ tests

echo "# pass: $PASS_NAME (uid $(id -u)), ward $WARD, kernel $(uname -r)"

# When root: the same again as nobody, from copies nobody owns, running
# alongside this pass (its lines are printed, renumbered, after ours).
if [ "$(id -u)" -eq 0 ] && [ -z "${ATTACKS_PASS:-}" ]; then
	group=nogroup
	getent group nogroup >/dev/null || group=nobody
	if getent passwd nobody >/dev/null && command -v setpriv >/dev/null; then
		NOBODY_DIR=$(mktemp -d /tmp/ward-attacks-nobody.XXXXXX)
		mkdir -p "$NOBODY_DIR/build/tests/attacks" "$NOBODY_DIR/tmp"
		cp "$WARD" "$BUILD/libward-preload.so" "$NOBODY_DIR/build/"
		cp "$ATT"/attack_* "$NOBODY_DIR/build/tests/attacks/"
		cp "$SELF" "$NOBODY_DIR/attacks.sh"
		chown -R "nobody:$group" "$NOBODY_DIR"
		chmod -R go-rwx "$NOBODY_DIR"
		(cd "$NOBODY_DIR" && exec setpriv --reuid=nobody --regid="$group" --clear-groups -- \
			env -i PATH="$PATH" TMPDIR="$NOBODY_DIR/tmp" ATTACKS_PASS=nobody \
			ATTACKS_ONLY="$ONLY" ${ATTACK_SECONDS:+ATTACK_SECONDS="$ATTACK_SECONDS"} \
			ATTACKS_DEFAULT_SECONDS=1 \
			bash "$NOBODY_DIR/attacks.sh" "$NOBODY_DIR/build") >"$BASE/nobody.out" 2>&1 &
		NOBODY_PID=$!
	else
		echo "# skipped the unprivileged pass: no nobody user or no setpriv"
	fi
fi

# 1. TOCTOU on the path buffer.
attack race_path thread "a thread flips the path between public/x and secret/x"
attack race_path clonevm "a CLONE_VM sibling flips the path between public/x and secret/x"
# 2. Symlink swaps.
attack symlink_swap "" "symlinks swapped between public and secret while opening"
# 3. dirfd, .., //, /./
attack dotdot "" "dirfd and .. escapes, // and /./ in absolute paths, chdir/fchdir"
# 4. /proc.
attack proc self "/proc/self/fd/N, /dev/fd/N, /proc/self/{root,cwd}/..., thread-self"
attack proc ward "/proc/PPID/... of ward: environ, mem, fd, cwd, root; also after chdir"
attack proc init "/proc/1/...: environ, mem, fd, root, cwd; also after chdir"
attack proc links "symlinks to /proc/self/..., /proc/self/../WARD, /dev/fd/N: the agent's own, never ward's"
if [ "$(id -u)" = 0 ] && unshare -m true 2>/dev/null; then
	pre_proc2() {
		mkdir "$1/proc2" "$1/pb" "$1/pt" "$1/pfd" && : >"$1/penv"
		start_victim "$1"
		echo "${T_ENV[0]#VICTIM_PID=}" >"$1/victim.pid"
	}
	T_PRE=pre_proc2 T_POST=post_helpers
	T_WRAP=(unshare -m sh -c 'v=$(cat "$0/victim.pid") && mount -t proc proc "$0/proc2" &&
		mount --bind "/proc/$v" "$0/pb" && mount --bind "/proc/$v/task" "$0/pt" &&
		mount --bind "/proc/$v/fd" "$0/pfd" && mount --bind "/proc/$v/environ" "$0/penv" &&
		mount --bind "/proc/$v/environ" /proc/sys/kernel/domainname &&
		mount --bind "/proc/$v/fd" /proc/driver && exec "$@"' @P@)
	attack proc mount "a second procfs, and an outsider's /proc/PID bound elsewhere: by path, dirfd and chdir"
else
	echo "ok - proc mount # skip needs root for a private mount namespace"
fi
if [ "$(id -u)" = 0 ] && [ -w /proc/sys/kernel/ns_last_pid ]; then
	# A segment with the secret whose creator has exited (at once: within
	# the same second too).
	pre_shm_orphan() {
		"$ATT/attack_proc" shm-orphan "$BASE/shm.orphan" "$1/secret/x" || return
		read -r SHM_ID_ SHM_PID_ <"$BASE/shm.orphan"
		T_ENV=("SHM_ID=$SHM_ID_" "SHM_PID=$SHM_PID_")
	}
	post_shm_orphan() { ipcrm -m "$SHM_ID_" 2>/dev/null; true; }
	T_PRE=pre_shm_orphan T_POST=post_shm_orphan
	attack proc shmreuse "shmat() of a segment whose creator (not of the session) exited and whose id a session process took" \
		-r "allow write /proc/sys/kernel/ns_last_pid"
else
	echo "ok - proc shmreuse # skip needs root (ns_last_pid)"
fi
if [ "$(id -u)" = 0 ] && [ -w /proc/sys/kernel/msg_next_id ]; then
	# The recycler, outside the session, removes the session's queue and
	# makes one of its own with the same id (msg_next_id), after ward's sweep.
	pre_recycler() {
		"$ATT/attack_proc" ipc-recycler "$1" "$1/secret/x" &
		HELPERS+=($!)
	}
	T_PRE=pre_recycler T_POST=post_helpers
	attack proc ipcreuse "a message queue of the session removed from outside, its id then another process's"
else
	echo "ok - proc ipcreuse # skip needs root (msg_next_id)"
fi
T_PRE=pre_victim T_POST=post_helpers
attack proc victim "the memfd, deleted file and pipe of a process outside the session"
T_PRE=pre_victim T_POST=post_helpers
attack proc hoprace "the same memfd through an O_PATH fd swapped with a file of another filesystem with the same inode number"
T_PRE=pre_victim T_POST=post_helpers
attack proc ipc "System V shared memory, a message queue and a semaphore set of a process outside the session"
# Found by a review of the supervisor.
attack review untraced "clone(CLONE_UNTRACED), then exec an exec-denied program" \
	-r "deny exec @P@/bin/mycat"
T_PRE=pre_victim T_POST=post_helpers
attack review cached "openat2(RESOLVE_CACHED) of another process's /proc/PID/fd/N"
T_PRE=pre_victim T_POST=post_helpers
attack review cwdhop "chdir(/proc/PID), then /proc/self/cwd/fd/N (a magic-link hop)"
pre_githooks() { mkdir -p "$1/.git/hooks"; } # the default profile keeps the agent from making them
T_PRE=pre_githooks
attack review hooks "rename .git/hooks away and back to plant a hook"
attack review exchange "renameat2(public/x, secret/x, RENAME_EXCHANGE), then read public/x"
attack review pgrpsig "pidfd_send_signal(self, PIDFD_SIGNAL_PROCESS_GROUP)"
attack review clonens "clone() with each CLONE_NEW* flag: a process in namespaces of its own"
attack review uffd "/dev/userfaultfd and USERFAULTFD_IOC_NEW (the userfaultfd call is refused)"
attack review inotify "inotify_add_watch on the read-denied secret/ (what happens there, and when)"
attack review fsioctl "the ioctls that shut down, grow or rename a whole filesystem (on a pipe: no effect)"
# Attacks on a filesystem of a kind of their own, loop-mounted in a mount
# namespace by the driver (root): can FS run here?
loop_fs_ok() { # FS
	[ "$(id -u)" = 0 ] && command -v "mkfs.$1" >/dev/null && [ -e /dev/loop-control ] &&
		unshare -m true 2>/dev/null
}
mkfs_img() { # FS SIZE IMAGE: a fresh filesystem in IMAGE under $BASE
	rm -f "$BASE/$3" && truncate -s "$2" "$BASE/$3" && "mkfs.$1" -q "$BASE/$3" >/dev/null 2>&1
}
if loop_fs_ok btrfs; then
	pre_btrfs_vol() { mkfs_img btrfs 128M btv.img && mkdir "$1/bt"; }
	T_PRE=pre_btrfs_vol
	T_WRAP=(unshare -m sh -c 'mount -o loop "$1" "$0/bt" && btrfs subvolume create "$0/bt/vol" >/dev/null &&
		mkdir "$0/bt/vol/secret" && cp "$0/secret/x" "$0/bt/vol/secret/x" && sync &&
		shift && exec "$@"' @P@ "$BASE/btv.img")
	attack review btrfs "a btrfs snapshot gives a denied file a new name; TREE_SEARCH reads it raw" \
		-r "deny read @P@/bt/vol/secret/**"
else
	echo "ok - review btrfs # skip needs root, mkfs.btrfs and loop devices"
fi
if loop_fs_ok xfs; then
	pre_xfs() { mkfs_img xfs 320M xfs.img && mkdir "$1/xfs"; }
	T_PRE=pre_xfs
	T_WRAP=(unshare -m sh -c 'mount -o loop "$1" "$0/xfs" && mkdir "$0/xfs/secret" &&
		cp "$0/secret/x" "$0/xfs/secret/x" && shift && exec "$@"' @P@ "$BASE/xfs.img")
	attack review xfs "XFS_IOC_PATH_TO_HANDLE, then XFS_IOC_OPEN_BY_HANDLE of a denied file" \
		-r "deny read @P@/xfs/secret/**"
else
	echo "ok - review xfs # skip needs root, mkfs.xfs and loop devices"
fi
if loop_fs_ok ext4; then
	pre_ext4() { mkfs_img ext4 32M ext4.img && mkdir "$1/ext4"; }
	T_PRE=pre_ext4
	T_WRAP=(unshare -m sh -c 'mount -o loop "$1" "$0/ext4" && shift && exec "$@"' @P@ "$BASE/ext4.img")
	attack review freeze "FIFREEZE on a filesystem (root): its writers outside the session would wait"
else
	echo "ok - review freeze # skip needs root, mkfs.ext4 and loop devices"
fi
# 5. New names for the secret.
attack links hardlink "hard links of the secret into the project"
attack links symlink "symlinks to the secret, then read through them"
attack links rename "rename(secret/x, stolen), then read stolen"
attack links renamedir "rename(secret, notsecret), then read notsecret/x"
attack links exchange "renameat2(secret/x, public/x, RENAME_EXCHANGE), then read public/x"
# 5b. New names for what a rule protects from change.
pre_guarded() { mkdir -p "$1/guarded" && printf 'GUARDED-ORIGINAL\n' >"$1/guarded/x"; }
check_guarded() { grep -q INJECTED "$1/guarded/x" 2>/dev/null && echo "guarded/x was written"; true; }
pre_hidden() { mkdir -p "$1/hidden" && printf '%s\n' "$SECRET_TEXT" >"$1/hidden/x"; }
pre_gitdir() { mkdir -p "$1/.git"; }
T_PRE=pre_guarded T_CHECK=check_guarded
attack protect hardlink "link a write-protected file, then write through the new name" \
	-r "deny write,delete @P@/guarded/x"
T_PRE=pre_guarded
attack protect chattr "inode flags and attributes of a write-protected file set through a read-only fd" \
	-r "deny write @P@/guarded/x"
T_PRE=pre_guarded
attack protect core "raise the core dump limit and crash where create is denied: the kernel writes the dump" \
	-r "deny write,create,delete @P@/guarded/**"
T_PRE=pre_guarded T_CHECK=check_guarded
attack protect rename "rename a write-protected file (delete allowed), write, rename back" \
	-r "deny write @P@/guarded/x"
attack protect renamerace "rename(D, hooks) while a thread swaps D between a file and a directory with pre-commit" \
	-r "deny write,create,delete @P@/hooks/*"
T_PRE=pre_hidden
attack protect globdir "rename a directory a rule reaches by a glob in its name (hid*), then read below" \
	-r "deny read @P@/hid*/*"
attack protect whiteout "renameat2(RENAME_WHITEOUT) leaves a device node: EPERM, as mknod of one"
pre_out() { mkdir -p "$1.out/d" "$1/tmp" && printf 'OUT-ORIGINAL\n' >"$1.out/d/f" && chmod -R a+rwX "$1.out"; }
check_out() { grep -q INJECTED "$1.out/d/f" 2>/dev/null && echo "OUT/d/f was written"; true; }
T_PRE=pre_out T_CHECK=check_out T_ENV=("TMPDIR=@P@/tmp")
attack protect roundtrip "move (or exchange) a directory to where its contents may be written, write, move it back" \
	-r "allow write,create,delete @P@.out/*"
T_PRE=pre_gitdir
attack protect hooks "the default profile: .git/hooks and .claude made as symlinks or directories"
attack protect gitdir "the default profile: .git made as a symlink to the agent's own directory"
pre_policyfile() {
	mkdir -p "$1/conf" && printf 'include inc.policy\n' >"$1/conf/team.policy" &&
		printf 'deny read /nonexistent-ward-attacks/**\n' >"$1/conf/inc.policy" &&
		ln -s conf/team.policy "$1/link.policy" && ln -s conf "$1/cfgl" &&
		ln -s conf/team.policy "$1/mid.policy" && ln -s mid.policy "$1/chain.policy" &&
		ln -s conf "$1/cfgm" && ln -s cfgm "$1/cfgc" &&
		(cd "$1" && sha256sum conf/* >"$BASE/policyfile.sum")
}
check_policyfile() {
	(cd "$1" && sha256sum -c --quiet "$BASE/policyfile.sum" >/dev/null 2>&1) ||
		echo "a policy file was changed"
	[ "$(readlink "$1/link.policy")" = conf/team.policy ] && [ "$(readlink "$1/cfgl")" = conf ] &&
		[ "$(readlink "$1/mid.policy")" = conf/team.policy ] && [ "$(readlink "$1/cfgm")" = conf ] ||
		echo "a symlink to a policy file was changed"
}
T_PRE=pre_policyfile T_CHECK=check_policyfile
attack protect policyfile "the --policy files, their includes and the symlinks to them: written, replaced, renamed" \
	-p @P@/link.policy -p @P@/cfgl/team.policy -p @P@/chain.policy -p @P@/cfgc/inc.policy
# Another program's object in /dev/shm: made before the session, as a
# database's shared memory is; it must come out of the session as it went in.
SHM_VICTIM=/dev/shm/ward-victim-$$
pre_shm() { printf 'VICTIM-DATA' >"$SHM_VICTIM" && chmod 600 "$SHM_VICTIM" &&
	stat -c '%i %a %s %Y' "$SHM_VICTIM" >"$BASE/shm.stat"; }
check_shm() {
	[ "$(cat "$SHM_VICTIM" 2>/dev/null)" = VICTIM-DATA ] || echo "the victim's content changed or it is gone"
	[ "$(stat -c '%i %a %s %Y' "$SHM_VICTIM" 2>/dev/null)" = "$(cat "$BASE/shm.stat")" ] ||
		echo "the victim's inode, mode, size or time changed"
	ls /dev/shm | grep -q "ward-moved-" && echo "a name for the victim was made"
	rm -f "$SHM_VICTIM"
}
post_shm() { rm -f /dev/shm/ward-moved-* /dev/shm/ward-own*-* /dev/shm/ward-sl-* /dev/shm/ward-tmp-*; rmdir /dev/shm/ward-dir-* 2>/dev/null; true; }
T_PRE=pre_shm T_CHECK=check_shm T_POST=post_shm T_ENV=("WARD_SHM_VICTIM=$SHM_VICTIM")
attack protect shm "another program's object in /dev/shm written, truncated, replaced, moved, linked, removed; the session's own changed freely"
T_PRE=pre_shm T_CHECK=check_shm T_POST=post_shm T_ENV=("WARD_SHM_VICTIM=$SHM_VICTIM")
attack protect shm "...with a rule of the user's allowing reads there (an exchange was judged by its read)" -r "allow read /**"
check_pivot() { [ -L "$1/top" ] && echo "top was left a symlink to $(readlink "$1/top")"; true; }
T_CHECK=check_pivot
attack protect pivot "a name not there yet with a rule below it (top*/guard/**) made a symlink: directly, through a link retargeted later, nx/.., a hard link of a symlink, rename" \
	-r "deny write,create,delete @P@/top*/guard/**"
# A dotfiles repository as the project, home's files symlinks into it (stow).
pre_stow() {
	local d=$1/dot
	mkdir -p "$d/git" "$d/shell" "$d/kube" "$d/vimpack" "$d/ipy/startup" \
		"$HOME/.config/git" "$HOME/.kube" "$HOME/.vim" "$HOME/.ipython" "$HOME/.config/autostart" &&
		printf 'GIT-ORIGINAL\n' >"$d/git/config" && printf 'RC-ORIGINAL\n' >"$d/shell/bashrc" &&
		printf '%s\n' "$SECRET_TEXT" >"$d/kube/config" &&
		ln -s shell/bashrc "$d/bashrc" && ln -sfn "$d/bashrc" "$HOME/.bashrc" &&
		ln -sfn "$d/git/config" "$HOME/.config/git/config" &&
		ln -sfn "$d/kube/config" "$HOME/.kube/config" && ln -sfn "$d/vimpack" "$HOME/.vim/pack" &&
		ln -sfn "$d/ipy" "$HOME/.ipython/profile_default" &&
		ln -sfn "$d/x.desktop" "$HOME/.config/autostart/x.desktop" &&
		(cd "$d" && sha256sum git/config shell/bashrc kube/config >"$BASE/stow.sum")
}
check_stow() {
	local d=$1/dot
	(cd "$d" && sha256sum -c --quiet "$BASE/stow.sum" >/dev/null 2>&1) || echo "a file home links to was changed"
	[ "$(readlink "$d/bashrc")" = shell/bashrc ] || echo "the middle link dot/bashrc was changed"
	[ -e "$d/x.desktop" ] && echo "dot/x.desktop was made through the dangling link"
	[ -e "$d/vimpack/start" ] || [ -e "$d/vimpack/evil.vim" ] && echo "vim's packages were planted"
	[ -e "$d/ipy/startup/evil.py" ] && echo "ipython's startup was planted"
	[ -e "$d/ipy/notes" ] || echo "dot/ipy/notes, which no rule reaches, could not be made"
	true
}
post_stow() {
	rm -rf "$HOME/.config/git" "$HOME/.kube" "$HOME/.vim" "$HOME/.ipython" "$HOME/.config/autostart" \
		"$HOME/.bashrc"
}
T_PRE=pre_stow T_CHECK=check_stow T_POST=post_stow T_ENV=("HOME_DIR=$HOME")
attack protect stow "the project a dotfiles repository home's files link into: the files written, replaced, removed through the project, the secret read"
pre_rewrite() { mkdir -p "$1/guarded" "$1/cache/d1/d2"; }
T_PRE=pre_rewrite
attack rewrite mkdir "a symlink planted where ward makes a rewrite's missing parent directory" \
	-r 'rewrite write,create @P@/cache/** -> $SESSION/cache/**' -r "deny write,create,delete @P@/guarded/**"
T_PRE=pre_rewrite T_TIMEOUT=15
attack rewrite fifo "64 threads open FIFOs planted at a rewrite's replacement" \
	-r 'rewrite write,create @P@/cache/** -> $SESSION/cache/**' -r "deny write,create,delete @P@/guarded/**"
# Terminals outside the session: a pty held by a helper (another window's shell).
pre_tty() {
	python3 -c 'import os, sys, time
m, s = os.openpty()
print(os.ttyname(s), flush=True)
time.sleep(90)' >"$BASE/tty.name" &
	HELPERS+=($!)
	# Up to 30 s: with the ASan pass and the unprivileged one side by side on
	# two CPUs, the helper once took longer than 10 s to print its pty.
	for _ in $(seq 600); do [ -s "$BASE/tty.name" ] && break; sleep 0.05; done
	T_ENV=("VICTIM_TTY=$(cat "$BASE/tty.name")")
}
T_PRE=pre_tty T_POST=post_helpers
attack tty other "open another window's pty for reading (its keystrokes) and writing"
pre_ttyreuse() {
	python3 -c 'import os, sys, time
want = os.path.join(sys.argv[1], "reuse.want")
for _ in range(500):
    if os.path.exists(want): break
    time.sleep(0.02)
name = open(want).read()
held = []
for _ in range(64):
    m, s = os.openpty()
    held.append((m, s))
    if os.ttyname(s) == name:
        open(os.path.join(sys.argv[1], "reuse.ready"), "w").close()
        break
time.sleep(30)' "$1" &
	HELPERS+=($!)
	T_ENV=("REUSE_DIR=$1")
}
T_PRE=pre_ttyreuse T_POST=post_helpers
attack tty reuse "a pty the session opened and closed, whose number another window's pty then takes"
pre_ttyspin() {
	python3 -c 'import os, time
end = time.time() + 30
while time.time() < end:
    m, s = os.openpty()
    time.sleep(0.3)
    os.close(s)
    os.close(m)
    time.sleep(0.05)' &
	HELPERS+=($!)
}
T_PRE=pre_ttyspin T_POST=post_helpers
attack tty spin "spin on /dev/ptmx until another window's pty takes the same number, then open it"
attack tty hangup "vhangup(), ioctl TIOCVHANGUP, TIOCCONS, TIOCSETD, TIOCSCTTY(1)"
if [ "$(id -u)" = 0 ]; then
	pre_devnode() { mkdir -p "$1/dev" && mknod "$1/dev/console" c 5 1; }
	T_PRE=pre_devnode
	attack tty othername "the console by a device node outside /dev (a chroot's dev/)"
else
	echo "ok - tty othername # skip needs root to make a device node"
fi
T_PRE=pre_gitdir
attack protect gitcommon "the default profile: commondir, config.worktree, a worktree's or submodule's config and hooks"
# 6. O_PATH.
attack opath "" "O_PATH fd of the secret, reopened via /proc/self/fd, openat(fd, \"\"), ..."
attack opath stat-restricted "the same when the policy restricts stat somewhere (O_PATH notified)" \
	-r "deny stat /nonexistent-ward-attacks/**"
attack openat2_race "" "a thread flips open_how.flags between O_PATH and O_RDONLY during openat2"
# 7. Raw syscall instruction.
attack raw_syscall "" "open/openat/openat2 of the secret with the syscall instruction"
# 8. Environment.
attack env "" "env -i / LD_PRELOAD unset before exec, then read the secret"
# 9. The loader trick.
attack loader basic "ld.so bin/mycat (exec of bin/mycat denied), options, copies" \
	-r "deny exec @P@/bin/mycat"
attack loader shebang "a script '#!ld.so /abs/bin/mycat' (exec of bin/mycat denied)" \
	-r "deny exec @P@/bin/mycat"
attack loader longpath "ld.so with a 256-byte path to bin/mycat whose first 255 bytes name /bin/true" \
	-r "deny exec @P@/bin/mycat"
attack loader far "a copy of ld.so with its program headers past 4 KiB, bin/mycat" \
	-r "deny exec @P@/bin/mycat"
attack loader cwdrace "ld.so ./prog while a CLONE_FS sibling flips the cwd between an allowed and a denied prog" \
	-r "deny exec @P@/d/**"
attack loader nosect "a copy of ld.so without section headers, bin/mycat" \
	-r "deny exec @P@/bin/mycat"
attack loader interp "a program whose ELF interpreter (PT_INTERP) is bin/mycat, made static" \
	-r "deny exec @P@/bin/mycat"
attack loader interpentry "a program whose interpreter is ld.so and whose entry is ld.so's: ld.so bin/mycat, or a memfd" \
	-r "deny exec @P@/bin/mycat"
# 10. memfd exec.
attack memfd basic "memfd, deleted and O_TMPFILE files: execveat/fexecve/execve /proc/self/fd/N"
attack memfd loader "ld.so /proc/self/fd/N of a memfd"
attack memfd shebang "a script whose interpreter is #!/proc/self/fd/N (a memfd)"
attack memfd interp "a program whose ELF interpreter (PT_INTERP) is /proc/self/fd/N of a memfd or a deleted file"
# 11. The supervisor itself.
attack kill signals "kill/tkill/tgkill/sigqueue/pidfd_send_signal of ward, kill(-1, 0)"
attack kill pgrp "setpgid(0, ward's pgrp), then kill(0, SIGKILL)"
attack kill ptrace "ptrace ATTACH/SEIZE, process_vm_readv/writev, /proc/PPID/mem"
attack kill sigio "fcntl(F_SETOWN, ward) + O_ASYNC: SIGIO (and F_SETSIG SIGKILL) to ward"
attack kill tty "O_ASYNC and FIOASYNC on a terminal (SIGIO to its foreground group), tcsetpgrp to ward's group"
attack kill prlimit "prlimit(ward, RLIMIT_FSIZE/NOFILE/CPU)"
# 12. A listener of our own.
attack seccomp "" "seccomp(SET_MODE_FILTER, NEW_LISTENER) -> EPERM, also with high bits"
# 13. io_uring and clone3.
attack uring "" "io_uring_setup/enter/register and clone3 -> ENOSYS"
# 14. TIOCSTI.
attack tiocsti "" "ioctl TIOCSTI, 0x100005412, TIOCLINUX -> EPERM, on a pipe and an own pty" \
	-r "allow read,write /dev/ptmx /dev/pts/**"
# 15. Other ABIs.
attack abi "" "i386 int 0x80 and x32 syscalls kill the process"
# 16. Bad pointers, edge-length paths.
attack badptr bad "bad pointers, unterminated paths at an unmapped page, overlong paths"
attack badptr len4095 "a 4095-byte path (PATH_MAX with its NUL) opens"
# 17. Exec verification.
attack exec_race path "a thread flips the execve path between bin/okcat (true) and bin/mycat" \
	-r "deny exec @P@/bin/mycat"
attack exec_race argv "a thread flips argv[1] of 'ld.so PROG' between allowed and denied" \
	-r "deny exec @P@/bin/mycat"
attack exec_race loaderlink "a symlink swapped between /bin/true and mycat under 'ld.so bin/lnk'" \
	-r "deny exec @P@/bin/mycat"
attack exec_race rewrite "bin/prog rewritten in place between true and ld.so under 'bin/prog bin/mycat'" \
	-r "deny exec @P@/bin/mycat"
attack exec_race interplink "the ELF interpreter a program names, a symlink swapped between an allowed and a denied one" \
	-r "deny exec @P@/bin/badint"
attack exec_race dirswap "ld.so /abs/d/prog while d is renamed away and replaced by a symlink to e (exec of e/ denied)" \
	-r "deny exec @P@/e/**"
# A program holding the secret, read and exec denied.
pre_secret_prog() { "$ATT/attack_exec_race" mkprog "$1/secret/prog" "$SECRET_TEXT"; }
T_PRE=pre_secret_prog
attack exec_race memrace "a child execs a symlink flipped to secret/prog; /proc/CHILD/mem read before ward's kill" \
	-r "deny exec @P@/secret/**"
if loop_fs_ok btrfs; then
	# The same interpreter swap where maps cannot tell the two apart: two
	# btrfs subvolumes, each with its first file (inode 257 in both), and
	# /proc/PID/maps shows both under the filesystem's one device.
	pre_btrfs() {
		mkfs_img btrfs 128M bt.img && mkdir "$1/bt" &&
			ln -s ../bt/s1/int "$1/bin/okint" && ln -s ../bt/s2/int "$1/bin/badint"
	}
	T_PRE=pre_btrfs
	T_WRAP=(unshare -m sh -c 'mount -o loop "$1" "$0/bt" && btrfs subvolume create "$0/bt/s1" >/dev/null &&
		btrfs subvolume create "$0/bt/s2" >/dev/null && : >"$0/bt/s1/int" && : >"$0/bt/s2/int" &&
		chmod 755 "$0/bt/s1/int" "$0/bt/s2/int" &&
		shift && exec "$@"' @P@ "$BASE/bt.img")
	attack exec_race interplink "the same on btrfs, between two subvolumes' files of one inode number" \
		-r "deny exec @P@/bt/s2/**"
else
	echo "ok - exec_race interplink on btrfs # skip needs root, mkfs.btrfs and loop devices"
fi
# Beyond the list: what else the threat model rules out.
attack rdwr "" "open(secret/x, O_RDWR): read access through a write-allowed open"
attack fifo open "FIFOs opened for reading must not wedge ward's workers"
attack fifo many "200 FIFO opens waiting at once: ward lets only so many wait (EAGAIN)"
T_TIMEOUT=15
attack fifo exec "execve of FIFOs must not wedge ward's workers"
net_attack connect "" "connect to unix/abstract/loopback services outside the session"
T_LOG="@P@/audit.jsonl" T_ENV=("ATTACK_LOG=@P@/audit.jsonl")
attack logtamper "" "truncate, forge, replace or delete an audit log kept in the project"
attack newcalls "" "fchmodat2, setxattrat, removexattrat, file_setattr on a write-protected file" \
	-r "deny write,create,delete @P@/secret/**"
attack opentree "" "open_tree_attr(secret, OPEN_TREE_CLONE): the secret as /x in a detached mount"
attack fanotify "" "fanotify on the secret, then exec it so that ward opens it to look inside"
T_PRE=pre_race_files T_ENV=("ATTACK_SECONDS=$UNLINK_SECONDS")
attack unlink_race "" "unlink secret/race/N while ward decides an open of it (no-link exemption)"
# The network: the outside service of attack_connect, reached some other way.
net_attack net udp "UDP to 127.0.0.1: sendto, connect+send, sendmsg, sendmmsg after an own destination, AF_UNSPEC names"
net_attack net v6 "[::1], [::ffff:127.0.0.1], sockaddr_in on AF_INET6 sockets, [::] and 0.0.0.0 (TCP and UDP)"
net_attack net fastopen "sendto/sendmsg/sendmmsg with MSG_FASTOPEN, TCP_FASTOPEN_CONNECT + connect + write"
net_attack net unixdgram "unix datagrams to an outside path and abstract name: sendto, sendmsg, connect, sendmmsg, symlink"
net_attack net unixpath "symlinks, a hard link, chdir, /proc/self/fd/N of an O_PATH fd, a 108-byte path without NUL"
net_attack net kinds "raw and packet (root), vsock and ICMP sockets, MPTCP; IP options and routing headers -> EPERM"
net_attack net sessbind "bind the outside port number on another address, family or protocol, then reach it"
net_attack net v6only "bind [::]:PORT with IPV6_V6ONLY beside the outside 127.0.0.1:PORT, then reach 127.0.0.1:PORT"
net_attack net reuseport "join the SO_REUSEPORT group of an outside TCP and UDP service, then connect / send to it"
net_attack_tmp net takeover "remove, move or replace the unix socket an outside service listens on in \$TMPDIR, or move its directory"
net_attack net anyaddr "0.0.0.0, [::] and [::ffff:0.0.0.0] (which the kernel sends to loopback) when only loopback is denied" \
	-r "allow connect *" -r "deny connect @loopback unix:/** unix-abstract:*" -r "allow connect,bind @session"
net_attack net_race tcp-thread "a thread flips a sockaddr_in between the session's own server and the outside one during connect"
net_attack net_race tcp-clonevm "a CLONE_VM sibling flips the sockaddr_in during connect"
net_attack net_race udp-thread "a thread flips the sockaddr_in of a sendto between the session's own UDP socket and the outside one"
net_attack net_race udp-clonevm "a CLONE_VM sibling flips the sockaddr_in of a sendto"
net_attack net_race unix-thread "a thread flips a unix path between the session's own socket and the outside one during connect"
net_attack net_race unix-clonevm "a CLONE_VM sibling flips the unix path during connect"
T_ENV=("ATTACK_SECONDS=$UNLINK_SECONDS")
net_attack net_race bindswap "a thread renames a hard link of the outside socket over the name being bound, then connect to it"

# ------------------------------------------------- the unprivileged pass

if [ -n "$NOBODY_PID" ]; then
	wait "$NOBODY_PID"
	sub=$(cat "$BASE/nobody.out")
	summary=$(printf '%s\n' "$sub" | tail -n 1)
	# Renumber its lines after ours.
	while IFS= read -r line; do
		if [[ $line =~ ^(not\ )?ok\ [0-9]+\ -\ (.*)$ ]]; then
			n=$((n + 1))
			echo "${BASH_REMATCH[1]}ok $n - [nobody] ${BASH_REMATCH[2]}"
		else
			printf '%s\n' "$line"
		fi
	done < <(printf '%s\n' "$sub" | sed '$d')
	if [[ $summary =~ ^([0-9]+)\ passed,\ ([0-9]+)\ failed,\ ([0-9]+)\ skipped$ ]]; then
		npass=$((npass + BASH_REMATCH[1]))
		nfail=$((nfail + BASH_REMATCH[2]))
		nskip=$((nskip + BASH_REMATCH[3]))
	else
		fail "the unprivileged pass ran to its end" "its last line: $summary"
	fi
fi

echo "$npass passed, $nfail failed, $nskip skipped"
[ $nfail -eq 0 ]
