#!/bin/bash
# net.sh BUILD_DIR [root|nobody] - the network policy of `ward run`
# (DESIGN.md §2, §3).
#
# tests/progs/net makes the network calls one by one with raw syscall(2)
# and prints each with its result.  This script runs it natively and under
# `ward run` (default profile), dynamic and static:
#   - a session's own servers and clients (TCP, UDP, unix stream, datagram
#     and abstract, IPv4, IPv6, IPv4-mapped, blocking and not) work exactly
#     as natively: the output under ward is compared with the kernel's;
#   - the host's own services (tests/integration/netserve.py, started
#     outside the session) receive nothing from any call ward refuses:
#     connect, UDP with and without connect, sendmsg, sendmmsg, fast open,
#     IPv4-mapped, unix path and abstract; a rule lets them through;
#   - bad lengths, bad pointers and bad families fail as natively;
#   - kinds of socket not judged by address are refused unless a rule says;
#   - every decision is in the log with its address, port and rule;
#   - blocking calls do not starve ward's workers.
# Parts (each its own ctest; "root" and "nobody" exit 77 unless root):
#   (none)   the cases above, as the user running the script
#   root     a ward run as root, the host's own non-loopback addresses (a
#            network namespace), a domain rule with the name in a hosts
#            file of a private mount namespace
#   nobody   the cases above and the domain rule, as nobody
# Output: TAP (lib.sh).

. "$(dirname "$0")/lib.sh"
exec </dev/null
umask 022
# The program prints fd numbers: start it with none open but 0, 1 and 2.
close_fds
if [ $# -lt 1 ] || [ ! -x "$1/ward" ] || [ ! -x "$1/tests/progs/net" ]; then
	bail "usage: $0 BUILD_DIR (built) [root|nobody]"
fi
BUILD=$(cd "$1" && pwd -P)
PART=${2:-}
case $PART in
"") ;;
root) [ "$(id -u)" = 0 ] || skip_all "needs root" ;;
nobody) nobody_ready || skip_all "$NB_WHY" ;;
*) bail "unknown part '$PART'" ;;
esac
SRC=$(cd "$(dirname "$0")" && pwd -P)
make_base net
SERVER_PID=
at_exit '[ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null'

# What the runs use, where nobody may run it too.
BIN=$BASE/bin
stage "$BIN" "$BUILD/ward" "$BUILD/tests/progs/net" "$BUILD/tests/progs/net-static"
WARD=$BIN/ward

# A port nobody listens on now (the kernel picks it).
free_port() {
	python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# ------------------------------------------------------------ the host

HOST=$BASE/host
mkdir "$HOST"
chmod 755 "$HOST"
python3 "$SRC/netserve.py" "$HOST" &
SERVER_PID=$!
wait_for 30 test -s "$HOST/ports" || bail "the host's listener did not start"
read -r H_TCP4 H_TCP6 H_UDP4 H_UDP6 H_PID <"$HOST/ports"
touch "$HOST/events"
chmod 644 "$HOST/events"

host_reset() { : >"$HOST/events"; }
# What reached the host: once the listener says it has logged all that
# reached it so far (a condition, not a time).
host_events() {
	local got
	got=$(timeout 30 python3 -c 'import socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); print(s.recv(16).decode())' "$HOST/sync.sock")
	[ "$got" = synced ] || echo "the host's listener did not answer: '$got'"
	cat "$HOST/events"
}

# ------------------------------------------------------------ per user

RUNAS=()
setup_user() { # WHO
	WHO=$1
	U=$BASE/$WHO
	P=$U/proj
	mkdir -p "$P" "$U/home" "$U/state" "$U/run" "$U/tmp" "$U/logs"
	chmod 700 "$U/run" "$U/tmp"
	ENVV=(HOME="$U/home" XDG_CONFIG_HOME="$U/home/.config" XDG_STATE_HOME="$U/state"
		XDG_RUNTIME_DIR="$U/run" TMPDIR="$U/tmp" PATH=/usr/bin:/bin LC_ALL=C "${MODE_ENV[@]}")
	if [ "$WHO" = nobody ]; then
		chown -R "$NB_UID:$NB_GID" "$U"
		RUNAS=(setpriv --reuid="$NB_UID" --regid="$NB_GID" --clear-groups --)
	else
		RUNAS=()
	fi
	TAG=""
	[ "$WHO" = nobody ] && TAG="[nobody] "
}

runs=0
# native PROG ARGS...: the program run natively in the project, as the user.
native() {
	(cd "$P" && "${RUNAS[@]}" env -i "${ENVV[@]}" "$BIN/$@" 2>&1)
}
# next_log: a fresh $LOG for the next ward_ (called outside the $(...)).
next_log() {
	runs=$((runs + 1))
	LOG=$U/logs/$runs.jsonl
}
# ward [-r RULE]... -- PROG ARGS...: the same under ward, logging to $LOG.
ward_() {
	local rules=()
	while [ "$1" != "--" ]; do rules+=("$1"); shift; done
	shift
	(cd "$P" && "${RUNAS[@]}" env -i "${ENVV[@]}" timeout 60 "$WARD" run -q --log "$LOG" \
		"${rules[@]}" -- "$BIN/$@" 2>&1)
}

# same WHAT [-r RULE]... -- NET-ARGS...: ward's output equals the kernel's,
# for both builds.
same() {
	local what=$1
	shift
	local pre=()
	while [ "$1" != "--" ]; do pre+=("$1"); shift; done
	shift
	local b want got
	for b in net net-static; do
		rm -rf "$P"/*
		want=$(native "$b" "$@")
		rm -rf "$P"/*
		next_log
		got=$(ward_ "${pre[@]}" -- "$b" "$@")
		check "$TAG$what ($b)" "$want" "$got"
	done
}

# refused WHAT EXPECTED [-r RULE]... -- NET-ARGS...: under ward the program
# prints EXPECTED, and nothing reaches the host.
refused() {
	local what=$1 expect=$2
	shift 2
	local pre=()
	while [ "$1" != "--" ]; do pre+=("$1"); shift; done
	shift
	local b got
	for b in net net-static; do
		host_reset
		rm -rf "$P"/*
		next_log
		got=$(ward_ "${pre[@]}" -- "$b" "$@")
		check "$TAG$what ($b)" "$expect" "$got"
		check "$TAG$what ($b): the host received nothing" "" "$(host_events)"
	done
}

# log_has WHAT JQ-LIKE-PYTHON-EXPR: some line of $LOG satisfies EXPR (e is the event).
log_has() {
	if python3 - "$LOG" "$2" <<'EOF'; then pass "$TAG$1"; else fail "$TAG$1" "$(cat "$LOG")"; fi
import json, sys
lines = [json.loads(l) for l in open(sys.argv[1])]
def holds(e):
    try:
        return eval(sys.argv[2], {}, {"e": e})
    except KeyError:
        return False
sys.exit(0 if any(holds(e) for e in lines) else 1)
EOF
}

# ------------------------------------------------------------ the cases

run_cases() {
	local PA PB PU PV
	PA=$(free_port)
	PB=$(free_port)
	PU=$(free_port)
	PV=$(free_port)
	local S="socket AF_INET SOCK_STREAM 0" S6="socket AF_INET6 SOCK_STREAM 0"
	local R="setsockopt 3 SOL_SOCKET SO_REUSEADDR 1" # servers: rebind though a run left TIME_WAIT
	local D="socket AF_INET SOCK_DGRAM 0" D6="socket AF_INET6 SOCK_DGRAM 0"
	local US="socket AF_UNIX SOCK_STREAM 0" UD="socket AF_UNIX SOCK_DGRAM 0"

	# --- the session's own servers and clients work as natively
	# shellcheck disable=SC2086 # the socket specs are meant to split
	same "TCP: a session server on 127.0.0.1 and its client" -- \
		$S , $R , bind 3 in:127.0.0.1:$PA , listen 3 5 , $S , connect 4 in:127.0.0.1:$PA , \
		accept 3 , sendto 4 0 - ping , recvw 5 , sendto 5 0 - pong , recvw 4
	log_has "the session's connect is logged with its address, port and rule" \
		"e['event']=='connect' and e['syscall']=='connect' and e.get('addr')=='127.0.0.1' and e.get('port')==$PA and e['decision']=='allow' and e.get('rule')=='builtin:default:61'"
	log_has "the bind is logged" \
		"e['event']=='bind' and e.get('addr')=='127.0.0.1' and e.get('port')==$PA and e['decision']=='allow'"
	# shellcheck disable=SC2086
	same "TCP: a server on [::] reached on 127.0.0.1, [::1] and [::ffff:127.0.0.1]" -- \
		$S6 , $R , bind 3 in6:[::]:$PB , listen 3 5 , $S , connect 4 in:127.0.0.1:$PB , \
		$S6 , connect 5 in6:[::1]:$PB , $S6 , connect 6 in6:[::ffff:127.0.0.1]:$PB , \
		accept 3 , accept 3 , accept 3
	# shellcheck disable=SC2086
	same "TCP: non-blocking connect (EINPROGRESS, then connected)" -- \
		$S , $R , bind 3 in:127.0.0.1:$PA , listen 3 5 , \
		socket AF_INET "SOCK_STREAM|SOCK_NONBLOCK" 0 , connect 4 in:127.0.0.1:$PA , wait 4
	# shellcheck disable=SC2086
	same "TCP: listen without bind picks a port, which is the session's" -- \
		$S , listen 3 5 , $S , close 4
	# shellcheck disable=SC2086
	same "UDP: sendto, connect+send, sendmsg and sendmmsg to a session socket" -- \
		$D , bind 3 in:127.0.0.1:$PU , $D , sendto 4 0 in:127.0.0.1:$PU one , recvw 3 , \
		connect 4 in:127.0.0.1:$PU , sendto 4 0 - two , recvw 3 , \
		$D , sendmsg 5 0 in:127.0.0.1:$PU three , recvw 3 , \
		sendmmsg 5 0 in:127.0.0.1:$PU/in:127.0.0.1:$PU four , recvw 3 , recvw 3 , \
		connect 4 unspec , sendto 4 0 - five
	# shellcheck disable=SC2086
	same "UDP over IPv6, and IPv4-mapped to a dual-stack socket" -- \
		$D6 , bind 3 in6:[::]:$PV , $D6 , sendto 4 0 in6:[::1]:$PV six , recvw 3 , \
		sendto 4 0 in6:[::ffff:127.0.0.1]:$PV seven , recvw 3
	# shellcheck disable=SC2086
	same "unix stream: bind, listen, connect by path, relative and absolute" -- \
		$US , bind 3 un:s.sock , name 3 , listen 3 5 , $US , connect 4 un:s.sock , accept 3 , \
		$US , connect 6 "un:$P/s.sock" , sendto 4 0 - hi , recvw 5
	# shellcheck disable=SC2086
	same "unix datagram: sendto and sendmsg (with SCM_RIGHTS) by path" -- \
		$UD , bind 3 un:d.sock , $UD , sendto 4 0 un:d.sock hi , recvw 3 , \
		sendmsg 4 0 un:d.sock fd 1 , recvw 3
	# A ward that may not claim the agent's pid sends its own (README Limits):
	# the receiver sees the uid and gid; a uid the agent may not claim is EPERM.
	# shellcheck disable=SC2086
	same "unix datagram: SCM_CREDENTIALS with the sender's ids, and with a uid not its own" -- \
		$UD , bind 3 un:c.sock , setsockopt 3 SOL_SOCKET SO_PASSCRED 1 , $UD , \
		sendcred 4 un:c.sock hi self self , recvc 3 , sendcred 4 un:c.sock no 4242 self
	# shellcheck disable=SC2086
	same "unix abstract: bind, listen, connect" -- \
		$US , bind 3 "abs:ward-net-$WHO-$$" , name 3 , listen 3 5 , $US , \
		connect 4 "abs:ward-net-$WHO-$$" , accept 3
	# shellcheck disable=SC2086
	same "unix: autobind, and a datagram disconnect" -- \
		$UD , bind 3 raw:2:0100 , $UD , connect 4 unspec
	# shellcheck disable=SC2086
	same "a blocking connect is interrupted by a signal (EINTR), as natively" -- \
		$US , bind 3 un:q.sock , listen 3 0 , $US , connect 4 un:q.sock , \
		$US , alarm 1 , connect 5 un:q.sock
	# shellcheck disable=SC2086
	same "netlink: routing queries are allowed" -- \
		socket AF_NETLINK SOCK_RAW NETLINK_ROUTE , bind 3 nl:0 , sendto 3 0 nl:0 x

	# --- errors are the kernel's
	# shellcheck disable=SC2086
	same "bad lengths, pointers, families and fds fail as natively" -- \
		$S , connect 3 len:3:in:127.0.0.1:$PA , connect 3 len:200:in:127.0.0.1:$PA , \
		connect 3 len:-1:in:127.0.0.1:$PA , connect 3 bad:16 , connect 3 in6:[::1]:$PA , \
		connect 3 raw:16:2a00 , bind 3 len:8:in:127.0.0.1:0 , connect 0 in:127.0.0.1:1 , \
		connect 9 in:127.0.0.1:1 , $UD , connect 4 raw:2:0100 , connect 4 raw:111:01002f , \
		connect 4 unterm:abc , connect 4 un:missing.sock , sendto 4 0 bad:110 x , \
		$D6 , sendto 5 0 len:20:in6:[::1]:$PU x , sendto 5 0 raw:16:ffff x , $S6 , connect 6 in:127.0.0.1:$PA , \
		sendmsg 5 0 len:-1:in:127.0.0.1:$PU x
	# shellcheck disable=SC2086
	same "a refused connection and an address in use" \
		-r "allow connect 127.0.0.1:$PB" -- \
		$S , connect 3 in:127.0.0.1:$PB , $UD , bind 4 un:x.sock , $UD , bind 5 un:x.sock

	# --- the host's services are out of reach
	local E="= -1 EACCES"
	# shellcheck disable=SC2086
	refused "TCP connect to the host's 127.0.0.1" "$(printf '%s\n' \
		'socket(AF_INET, SOCK_STREAM, 0) = 3' "connect(3, in:127.0.0.1:$H_TCP4) $E")" -- \
		$S , connect 3 in:127.0.0.1:$H_TCP4
	log_has "the refusal is logged with its address, port and rule" \
		"e['event']=='connect' and e.get('addr')=='127.0.0.1' and e.get('port')==$H_TCP4 and e['decision']=='deny' and e.get('errno')=='EACCES' and e.get('rule')=='builtin:default:60'"
	# shellcheck disable=SC2086
	refused "TCP non-blocking connect to the host" "$(printf '%s\n' \
		'socket(AF_INET, SOCK_STREAM|SOCK_NONBLOCK, 0) = 3' \
		"connect(3, in:127.0.0.1:$H_TCP4) $E")" -- \
		socket AF_INET "SOCK_STREAM|SOCK_NONBLOCK" 0 , connect 3 in:127.0.0.1:$H_TCP4
	# shellcheck disable=SC2086
	refused "TCP to the host's [::1] and as [::ffff:127.0.0.1]" "$(printf '%s\n' \
		'socket(AF_INET6, SOCK_STREAM, 0) = 3' "connect(3, in6:[::1]:$H_TCP6) $E" \
		"connect(3, in6:[::ffff:127.0.0.1]:$H_TCP4) $E")" -- \
		$S6 , connect 3 in6:[::1]:$H_TCP6 , connect 3 in6:[::ffff:127.0.0.1]:$H_TCP4
	# shellcheck disable=SC2086
	refused "TCP fast open (MSG_FASTOPEN, TCP_FASTOPEN_CONNECT) to the host" "$(printf '%s\n' \
		'socket(AF_INET, SOCK_STREAM, 0) = 3' \
		"sendto(3, \"x\", MSG_FASTOPEN, in:127.0.0.1:$H_TCP4) $E" \
		'socket(AF_INET, SOCK_STREAM, 0) = 4' \
		'setsockopt(4, IPPROTO_TCP, TCP_FASTOPEN_CONNECT, 1) = 0' \
		"connect(4, in:127.0.0.1:$H_TCP4) $E" "sendto(4, \"y\", MSG_NOSIGNAL, -) = -1 EPIPE")" -- \
		$S , sendto 3 MSG_FASTOPEN in:127.0.0.1:$H_TCP4 x , \
		$S , setsockopt 4 IPPROTO_TCP TCP_FASTOPEN_CONNECT 1 , \
		connect 4 in:127.0.0.1:$H_TCP4 , sendto 4 MSG_NOSIGNAL - y
	# shellcheck disable=SC2086
	refused "UDP to the host: sendto, connect, sendmsg, IPv6, AF_UNSPEC read as AF_INET" \
		"$(printf '%s\n' 'socket(AF_INET, SOCK_DGRAM, 0) = 3' \
			"sendto(3, \"a\", 0, in:127.0.0.1:$H_UDP4) $E" \
			"connect(3, in:127.0.0.1:$H_UDP4) $E" \
			"sendmsg(3, {in:127.0.0.1:$H_UDP4, \"b\"}, 0) $E" \
			"sendto(3, \"c\", 0, raw:16:0000$(printf '%04x' "$H_UDP4")7f000001) $E" \
			'socket(AF_INET6, SOCK_DGRAM, 0) = 4' \
			"sendto(4, \"d\", 0, in6:[::1]:$H_UDP6) $E" \
			"sendto(4, \"e\", 0, in6:[::ffff:127.0.0.1]:$H_UDP4) $E")" -- \
		$D , sendto 3 0 in:127.0.0.1:$H_UDP4 a , connect 3 in:127.0.0.1:$H_UDP4 , \
		sendmsg 3 0 in:127.0.0.1:$H_UDP4 b , \
		sendto 3 0 "raw:16:0000$(printf '%04x' "$H_UDP4")7f000001" c , \
		$D6 , sendto 4 0 in6:[::1]:$H_UDP6 d , sendto 4 0 in6:[::ffff:127.0.0.1]:$H_UDP4 e
	# shellcheck disable=SC2086
	refused "sendmmsg to the session, then the host: only the first is sent" "$(printf '%s\n' \
		'socket(AF_INET, SOCK_DGRAM, 0) = 3' "bind(3, in:127.0.0.1:$PU) = 0" \
		'socket(AF_INET, SOCK_DGRAM, 0) = 4' \
		"sendmmsg(4, [in:127.0.0.1:$PU/in:127.0.0.1:$H_UDP4/in:127.0.0.1:$PU], 3, 0) = 1" \
		'  msg_len[0] = 1' 'recv(3) = 1 "z"' 'recv(3) = -1 EAGAIN')" -- \
		$D , bind 3 in:127.0.0.1:$PU , $D , \
		sendmmsg 4 0 in:127.0.0.1:$PU/in:127.0.0.1:$H_UDP4/in:127.0.0.1:$PU z , \
		recvw 3 , recv 3
	log_has "sendmmsg logs the allowed message and the refused one" \
		"e['syscall']=='sendmmsg' and e.get('port')==$H_UDP4 and e['decision']=='deny'"
	log_has "(and the allowed one)" \
		"e['syscall']=='sendmmsg' and e.get('port')==$PU and e['decision']=='allow'"
	# shellcheck disable=SC2086
	refused "unix: the host's stream socket, datagram socket and abstract name" \
		"$(printf '%s\n' 'socket(AF_UNIX, SOCK_STREAM, 0) = 3' \
			"connect(3, un:$HOST/host.sock) $E" 'socket(AF_UNIX, SOCK_DGRAM, 0) = 4' \
			"sendto(4, \"u\", 0, un:$HOST/host.dgram) $E" \
			"sendmsg(4, {un:$HOST/host.dgram, \"v\"}, 0) $E" \
			"connect(3, abs:ward-net-host-$H_PID) $E")" -- \
		$US , connect 3 "un:$HOST/host.sock" , $UD , sendto 4 0 "un:$HOST/host.dgram" u , \
		sendmsg 4 0 "un:$HOST/host.dgram" v , connect 3 "abs:ward-net-host-$H_PID"
	log_has "a unix refusal names the socket's real path" \
		"e['event']=='connect' and e.get('addr')=='unix:$HOST/host.sock' and e['decision']=='deny'"

	# The checks above can fail: natively (and with a rule) the host hears it.
	local b
	for b in net net-static; do
		host_reset
		# shellcheck disable=SC2086
		native "$b" $S , connect 3 in:127.0.0.1:$H_TCP4 , $D , \
			sendto 4 0 in:127.0.0.1:$H_UDP4 n >/dev/null
		check "${TAG}control: natively the host hears the connection and the datagram ($b)" \
			"2" "$(host_events | wc -l)"
		host_reset
		next_log
		# shellcheck disable=SC2086
		ward_ -r "allow connect 127.0.0.1:$H_TCP4 127.0.0.1:$H_UDP4" -- "$b" \
			$S , connect 3 in:127.0.0.1:$H_TCP4 , $D , \
			sendto 4 0 in:127.0.0.1:$H_UDP4 w >/dev/null
		check "${TAG}a rule lets the host be reached ($b)" "2" "$(host_events | wc -l)"
	done

	# --- kinds of socket not judged by address
	# shellcheck disable=SC2086
	refused "packet, raw and ICMP sockets, and IP options" "$(printf '%s\n' \
		"socket(AF_PACKET, SOCK_RAW, 0) $E" "socket(AF_INET, SOCK_RAW, 255) $E" \
		"socket(AF_INET6, SOCK_RAW, IPPROTO_ICMPV6) $E" \
		"socket(AF_INET, SOCK_DGRAM, IPPROTO_ICMP) $E" \
		"socket(AF_INET, SOCK_STREAM, IPPROTO_SCTP) $E" \
		'socket(AF_INET, SOCK_DGRAM, 0) = 3' \
		'setsockopt(3, IPPROTO_IP, IP_OPTIONS, 0) = -1 EPERM')" -- \
		socket AF_PACKET SOCK_RAW 0 , socket AF_INET SOCK_RAW 255 , \
		socket AF_INET6 SOCK_RAW IPPROTO_ICMPV6 , socket AF_INET SOCK_DGRAM IPPROTO_ICMP , \
		socket AF_INET SOCK_STREAM IPPROTO_SCTP , $D , setsockopt 3 IPPROTO_IP IP_OPTIONS 0
	log_has "a refused kind of socket is logged" \
		"e['syscall']=='socket' and e.get('addr')=='socket:packet' and e['decision']=='deny' and e.get('rule')=='builtin:default:67'"
	same "a socket: rule lets a kind through (then the kernel decides)" \
		-r "allow connect socket:icmp socket:packet" -- \
		socket AF_INET SOCK_DGRAM IPPROTO_ICMP , socket AF_PACKET SOCK_RAW 0

	# --- a port the session let go of, taken by the host since, is not the session's
	local PS
	PS=$(free_port)
	for b in net net-static; do
		rm -f "$U/late.out"
		# The host's listener takes the port once the session's has come and gone.
		# shellcheck disable=SC2086
		(
			hex=$(printf '%04X' "$PS")
			for _ in $(seq 400); do
				grep -q ":$hex 00000000:0000 0A" /proc/net/tcp && break
				sleep 0.05
			done
			for _ in $(seq 400); do
				grep -q ":$hex 00000000:0000 0A" /proc/net/tcp || break
				sleep 0.05
			done
			"${RUNAS[@]}" "$BIN/net" $S , $R , bind 3 "in:127.0.0.1:$PS" , \
				listen 3 5 , accept 3 >"$U/late.out" 2>&1
		) &
		local late=$!
		next_log
		# shellcheck disable=SC2086
		out=$(ward_ -- "$b" $S , $R , bind 3 "in:127.0.0.1:$PS" , listen 3 5 , sleep 1 , close 3 , \
			sleep 3 , $S , connect 3 "in:127.0.0.1:$PS")
		wait "$late"
		check "${TAG}a session port closed and taken by the host is refused ($b)" \
			"$(printf '%s\n' 'socket(AF_INET, SOCK_STREAM, 0) = 3' \
				'setsockopt(3, SOL_SOCKET, SO_REUSEADDR, 1) = 0' \
				"bind(3, in:127.0.0.1:$PS) = 0" 'listen(3, 5) = 0' 'close(3) = 0' \
				'socket(AF_INET, SOCK_STREAM, 0) = 3' "connect(3, in:127.0.0.1:$PS) = -1 EACCES")" \
			"$out"
		check "${TAG}(and the host's listener heard nothing) ($b)" "accept(3) = -1 EAGAIN" \
			"$(grep accept "$U/late.out")"
	done

	# --- a unix bind makes a file: the path policy must allow creating it
	local b out
	for b in net net-static; do
		rm -rf "$P"/* "$P"/.git "$P"/.ward
		mkdir -p "$P/.git/hooks" "$P/.ward"
		next_log
		out=$(ward_ -- "$b" $UD , bind 3 un:.git/hooks/pre-commit , bind 3 un:.ward/s.sock)
		check "${TAG}a unix bind where creating is denied (.git/hooks, .ward) ($b)" \
			"$(printf '%s\n' 'socket(AF_UNIX, SOCK_DGRAM, 0) = 3' \
				'bind(3, un:.git/hooks/pre-commit) = -1 EACCES' \
				'bind(3, un:.ward/s.sock) = -1 EACCES')" "$out"
		check "${TAG}(and no file was made) ($b)" "" \
			"$(ls -A "$P/.git/hooks" "$P/.ward" | grep -v ':$' | grep -v '^$')"
		log_has "(the create is what was refused) ($b)" \
			"e['event']=='bind' and e.get('op')=='create' and e['decision']=='deny' and e.get('path','').endswith('.git/hooks/pre-commit')"
	done
	rm -rf "$P"/.git "$P"/.ward

	# --- netlink to a process, and other internet protocols
	# shellcheck disable=SC2086
	refused "netlink to another process's port, and L2TP/SMC sockets" "$(printf '%s\n' \
		'socket(AF_NETLINK, SOCK_RAW, 2) = 3' "sendto(3, \"x\", 0, nl:$H_PID) $E" \
		"connect(3, nl:$H_PID) $E" "socket(AF_INET, SOCK_DGRAM, 115) $E" \
		"socket(AF_INET, SOCK_STREAM, 256) $E")" -- \
		socket AF_NETLINK SOCK_RAW 2 , sendto 3 0 "nl:$H_PID" x , connect 3 "nl:$H_PID" , \
		socket AF_INET SOCK_DGRAM 115 , socket AF_INET SOCK_STREAM 256
	# shellcheck disable=SC2086
	same "TCP and UDP sockets named by protocol number work" -- \
		socket AF_INET SOCK_STREAM IPPROTO_TCP , socket AF_INET6 SOCK_DGRAM IPPROTO_UDP , \
		socket AF_INET SOCK_DGRAM 136

	# --- blocking calls do not starve the workers (the receiver outlives the
	# run's 30 s, so the senders stay blocked: the rest is served meanwhile or not at all)
	local senders="" i
	for i in 1 2 3 4 5 6 7 8; do
		senders+="$BIN/net $UD , $(for _ in $(seq 40); do printf 'sendto 3 0 un:full.sock x , '; done) close 3 &
"
	done
	local script="$BIN/net $UD , bind 3 un:full.sock , sleep 60 &
sleep 0.5
$senders
sleep 1
echo still-served >after.txt && cat after.txt
kill 0" out
	blocked_senders() { # WORKERS(or empty) WHAT
		rm -rf "$P"/*
		out=$(cd "$P" && "${RUNAS[@]}" env -i "${ENVV[@]}" ${1:+WARD_WORKERS=$1} timeout 30 \
			"$WARD" run -q --log "$U/logs/block$1.jsonl" -- sh -c "$script" 2>/dev/null)
		check "${TAG}$2" "still-served" "$(printf '%s\n' "$out" | grep -x still-served)"
	}
	blocked_senders "" "eight senders blocked on a full socket, and ward still serves the rest"
	# Twelve workers, four in RECV and eight parked: the senders take the
	# four, then each parked one as it is let in, and one is left to serve.
	blocked_senders 12 "...and with twelve workers, eight of them parked at first"

	# A server restarted again and again on one port (a dev server's
	# reloads) stays the session's: its newest socket is looked at first.
	local rp
	rp=$(free_port)
	out=$(cd "$P" && "${RUNAS[@]}" env -i "${ENVV[@]}" timeout 60 "$WARD" run -q \
		--log "$U/logs/restart.jsonl" -- python3 -c "
import socket
ok = 0
for i in range(12):
    l = socket.socket(); l.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    l.bind(('127.0.0.1', $rp)); l.listen()
    c = socket.socket()
    try:
        c.connect(('127.0.0.1', $rp)); ok += 1
    except OSError as e:
        print('start', i + 1, e)
    c.close(); l.close()
print(ok, 'of 12')" 2>&1)
	check "${TAG}a server restarted 12 times on one port: each start reached" "12 of 12" "$out"

	# SO_SNDTIMEO bounds a blocking connect and send as natively (ward's own
	# call, woken every 100 ms, waited for good).
	out=$(cd "$P" && "${RUNAS[@]}" env -i "${ENVV[@]}" timeout 20 "$WARD" run -q \
		--log "$U/logs/sndtimeo.jsonl" -- python3 -c "
import socket, struct, time, errno
tv = struct.pack('ll', 1, 0)
l = socket.socket(); l.bind(('127.0.0.1', 0)); l.listen(0)
fill = []
for i in range(3):
    c = socket.socket(); c.setblocking(False)
    try: c.connect(l.getsockname())
    except BlockingIOError: pass
    fill.append(c)
time.sleep(0.2)
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, tv)
try: s.connect(l.getsockname()); print('connected')
except OSError as e: print('connect', errno.errorcode[e.errno])
a, b = socket.socketpair(); a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDTIMEO, tv)
try:
    while True: a.sendmsg([b'x' * 65536])
except OSError as e: print('sendmsg', errno.errorcode[e.errno])" 2>&1 | tr '\n' ' ')
	check "${TAG}SO_SNDTIMEO: a blocking connect and sendmsg time out" "connect EINPROGRESS sendmsg EAGAIN " "$out"
}

# --- as root: a ward run as root, and the host's own non-loopback addresses
root_cases() {
	local b out
	for b in net net-static; do
		next_log
		out=$(cd "$P" && env -i "${ENVV[@]}" timeout 60 "$WARD" run -q --log "$LOG" -- \
			setpriv --reuid=nobody --regid=nogroup --clear-groups -- "$BIN/$b" \
			socket AF_INET SOCK_STREAM 0 2>&1)
		case $out in
		*"Operation not permitted"*) pass "under a root ward the agent cannot drop to another user ($b)" ;;
		*) fail "under a root ward the agent cannot drop to another user ($b)" "$out" ;;
		esac
	done
	if ! unshare -n true 2>/dev/null; then
		skip "the host's own addresses" "no network namespace (unshare -n)"
		return
	fi
	# A network namespace of the test's own, where 192.0.2.2 is an address of
	# the host: a service bound to it outside the session, and the agent
	# binding the same port on loopback, must not make it the session's.
	local port
	port=$(free_port)
	for b in net net-static; do
		out=$(cd "$P" && unshare -n sh -c '
			ip link set lo up && ip addr add 192.0.2.2/32 dev lo || exit 2
			"$1" socket AF_INET SOCK_STREAM 0 , bind 3 "in:192.0.2.2:$2" , listen 3 5 , \
				accept 3 >"$3/lan.out" &
			i=0 # until the LAN service listens
			until grep -q ":$(printf %04X "$2") 00000000:0000 0A" /proc/net/tcp || [ $i -ge 400 ]; do
				sleep 0.05; i=$((i + 1))
			done
			env -i $4 timeout 60 "$5" run -q -- "$6" socket AF_INET SOCK_STREAM 0 , \
				bind 3 "in:127.0.0.1:$2" , listen 3 5 , socket AF_INET SOCK_STREAM 0 , \
				connect 4 "in:192.0.2.2:$2" , socket AF_INET SOCK_STREAM 0 , \
				connect 5 "in:0.0.0.0:$2"
			wait' sh "$BIN/net" "$port" "$U" "${ENVV[*]}" "$WARD" "$BIN/$b" 2>&1)
		# (0.0.0.0 goes to the source address, whichever it is: never the session's)
		check "${TAG}the host's LAN address is not the session's for a loopback bind ($b)" \
			"$(printf '%s\n' 'socket(AF_INET, SOCK_STREAM, 0) = 3' \
				"bind(3, in:127.0.0.1:$port) = 0" 'listen(3, 5) = 0' \
				'socket(AF_INET, SOCK_STREAM, 0) = 4' "connect(4, in:192.0.2.2:$port) = -1 EACCES" \
				'socket(AF_INET, SOCK_STREAM, 0) = 5' "connect(5, in:0.0.0.0:$port) = -1 EACCES")" \
			"$out"
		check "${TAG}(the LAN service heard nothing) ($b)" "accept(3) = -1 EAGAIN" \
			"$(grep accept "$U/lan.out")"
	done
}

# --- a domain rule, with a hosts file of its own (root: a mount namespace)
domain_cases() {
	if ! unshare -m true 2>/dev/null; then
		skip "domain rules" "no private mount namespace (unshare -m)"
		return
	fi
	printf '127.0.0.1 ward-test.example\n127.0.0.2 other.example\n127.0.0.1 evil.example\n' \
		>"$BASE/hosts"
	chmod 644 "$BASE/hosts"
	local b got
	for b in net net-static; do
		host_reset
		LOG=$U/logs/domain-$b.jsonl
		got=$(cd "$P" && unshare -m sh -c 'mount --bind "$1" /etc/hosts && shift && exec "$@"' \
			sh "$BASE/hosts" "${RUNAS[@]}" env -i "${ENVV[@]}" timeout 60 "$WARD" run -q \
			--log "$LOG" -r "allow connect ward-test.example:$H_TCP4" -- "$BIN/$b" \
			socket AF_INET SOCK_STREAM 0 , connect 3 "in:127.0.0.1:$H_TCP4" 2>&1)
		check "${TAG}a domain rule allows the address ward resolved it to ($b)" \
			"$(printf '%s\n' 'socket(AF_INET, SOCK_STREAM, 0) = 3' \
				"connect(3, in:127.0.0.1:$H_TCP4) = 0")" "$got"
		log_has "the log names the verified host ($b)" \
			"e['event']=='connect' and e.get('host')=='ward-test.example' and e['decision']=='allow' and e.get('rule')=='--rule:1'"
		check "${TAG}(and the host heard it) ($b)" "1" "$(host_events | wc -l)"
		host_reset
		got=$(cd "$P" && unshare -m sh -c 'mount --bind "$1" /etc/hosts && shift && exec "$@"' \
			sh "$BASE/hosts" "${RUNAS[@]}" env -i "${ENVV[@]}" timeout 60 "$WARD" run -q \
			--log "$LOG" -r "allow connect other.example:$H_TCP4" -- "$BIN/$b" \
			socket AF_INET SOCK_STREAM 0 , connect 3 "in:127.0.0.1:$H_TCP4" 2>&1)
		check "${TAG}a name that resolves elsewhere does not allow the address ($b)" \
			"$(printf '%s\n' 'socket(AF_INET, SOCK_STREAM, 0) = 3' \
				"connect(3, in:127.0.0.1:$H_TCP4) = -1 EACCES")" "$got"
		log_has "(judged by address only; the log names it from /etc/hosts) ($b)" \
			"e['event']=='connect' and e.get('host')=='ward-test.example' and e['decision']=='deny' and e.get('rule')!='--rule:1'"
		got=$(cd "$P" && unshare -m sh -c 'mount --bind "$1" /etc/hosts && shift && exec "$@"' \
			sh "$BASE/hosts" "${RUNAS[@]}" env -i "${ENVV[@]}" timeout 60 "$WARD" run -q \
			--log "$LOG" -r "allow connect ward-test.example:$H_TCP4" \
			-r "deny connect evil.example" -- "$BIN/$b" \
			socket AF_INET SOCK_STREAM 0 , connect 3 "in:127.0.0.1:$H_TCP4" 2>&1)
		check "${TAG}a name the policy denies wins over another name at the same address ($b)" \
			"$(printf '%s\n' 'socket(AF_INET, SOCK_STREAM, 0) = 3' \
				"connect(3, in:127.0.0.1:$H_TCP4) = -1 EACCES")" "$got"
		log_has "(the log names the denied host) ($b)" \
			"e['event']=='connect' and e.get('host')=='evil.example' and e['decision']=='deny' and e.get('rule')=='--rule:2'"
	done
}

case $PART in
"")
	ward_probe "$WARD"
	setup_user self
	run_cases
	;;
root)
	ward_probe "$WARD"
	setup_user self
	root_cases
	domain_cases
	;;
nobody)
	stage_check "the unprivileged pass" "$BIN"
	ward_probe "$WARD" as_nobody
	setup_user nobody
	run_cases
	domain_cases
	;;
esac
summary
