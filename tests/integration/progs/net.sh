# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The net family of ward's syscall table:
# connect, bind, listen, sendto, sendmsg, sendmmsg: decided on the address,
# performed by ward on the agent's socket.  (tests/integration/net.sh
# tries the network far more widely; these are the table's cases.)
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

chk_net_session() {
	logged '"event":"bind"' '"syscall":"bind"' "\"addr\":\"unix:$P/s.sock\"" '"decision":"allow"'
	logged '"event":"connect"' '"syscall":"connect"' "\"addr\":\"unix:$P/s.sock\"" '"decision":"allow"'
}
t -c chk_net_session "net: a unix stream server of the session and its client" net \
	socket AF_UNIX SOCK_STREAM 0 , bind 3 un:s.sock , listen 3 5 , \
	socket AF_UNIX SOCK_STREAM 0 , connect 4 un:s.sock , accept 3 , sendto 4 0 - ping , recvw 5 <<EOF
socket(AF_UNIX, SOCK_STREAM, 0) = 3
bind(3, un:s.sock) = 0
listen(3, 5) = 0
socket(AF_UNIX, SOCK_STREAM, 0) = 4
connect(4, un:s.sock) = 0
accept(3) = 5
sendto(4, "ping", 0, -) = 4
recv(5) = 4 "ping"
EOF

t "net: unix datagrams by path to a socket of the session: sendto, sendmsg, sendmmsg" net \
	socket AF_UNIX SOCK_DGRAM 0 , bind 3 un:d.sock , socket AF_UNIX SOCK_DGRAM 0 , \
	sendto 4 0 un:d.sock a , recvw 3 , sendmsg 4 0 un:d.sock b , recvw 3 , \
	sendmmsg 4 0 un:d.sock/un:d.sock c , recvw 3 , recvw 3 <<EOF
socket(AF_UNIX, SOCK_DGRAM, 0) = 3
bind(3, un:d.sock) = 0
socket(AF_UNIX, SOCK_DGRAM, 0) = 4
sendto(4, "a", 0, un:d.sock) = 1
recv(3) = 1 "a"
sendmsg(4, {un:d.sock, "b"}, 0) = 1
recv(3) = 1 "b"
sendmmsg(4, [un:d.sock/un:d.sock], 2, 0) = 2
  msg_len[0] = 1
  msg_len[1] = 1
recv(3) = 1 "c"
recv(3) = 1 "c"
EOF

# Loopback is the session's only where it listens (the default profile):
# a port of the host is refused with the policy's EACCES, a stream's
# connect and a datagram alike, where natively nothing listens there.
chk_net_policy() {
	logged '"event":"connect"' '"syscall":"connect"' '"addr":"127.0.0.1"' '"port":1' '"decision":"deny"' '"errno":"EACCES"'
	logged '"event":"connect"' '"syscall":"sendto"' '"addr":"127.0.0.1"' '"port":1' '"decision":"deny"' '"errno":"EACCES"'
}
t -w -c chk_net_policy "net: a loopback port not the session's is refused" net \
	socket AF_INET SOCK_STREAM 0 , connect 3 in:127.0.0.1:1 , \
	socket AF_INET SOCK_DGRAM 0 , sendto 4 0 in:127.0.0.1:1 x <<EOF
socket(AF_INET, SOCK_STREAM, 0) = 3
connect(3, in:127.0.0.1:1) = -1 EACCES
socket(AF_INET, SOCK_DGRAM, 0) = 4
sendto(4, "x", 0, in:127.0.0.1:1) = -1 EACCES
EOF
t -n "net: natively, the same calls reach the kernel" net \
	socket AF_INET SOCK_STREAM 0 , connect 3 in:127.0.0.1:1 , \
	socket AF_INET SOCK_DGRAM 0 , sendto 4 0 in:127.0.0.1:1 x <<EOF
socket(AF_INET, SOCK_STREAM, 0) = 3
connect(3, in:127.0.0.1:1) = -1 ECONNREFUSED
socket(AF_INET, SOCK_DGRAM, 0) = 4
sendto(4, "x", 0, in:127.0.0.1:1) = 1
EOF
