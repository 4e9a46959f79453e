# shellcheck shell=bash disable=SC2016,SC2088  # sourced by progs.sh; policy text is literal
# The socket family of ward's syscall table:
# socket, notified only for the kinds not judged by address (packet, raw,
# ICMP, ...): those are refused unless a rule says.
#
# Cases for tests/integration/progs.sh (see there for t and its checks).

t "socket: the kinds judged by address are the kernel's" net \
	socket AF_INET SOCK_STREAM 0 , socket AF_UNIX SOCK_DGRAM 0 , socket AF_INET6 SOCK_DGRAM 0 <<EOF
socket(AF_INET, SOCK_STREAM, 0) = 3
socket(AF_UNIX, SOCK_DGRAM, 0) = 4
socket(AF_INET6, SOCK_DGRAM, 0) = 5
EOF

chk_socket_policy() {
	logged '"syscall":"socket"' '"addr":"socket:packet"' '"decision":"deny"' '"errno":"EACCES"'
}
t -w -c chk_socket_policy "socket: packet and raw sockets are refused" net \
	socket AF_PACKET SOCK_RAW 0 , socket AF_INET SOCK_RAW 255 , socket AF_INET SOCK_STREAM 0 <<EOF
socket(AF_PACKET, SOCK_RAW, 0) = -1 EACCES
socket(AF_INET, SOCK_RAW, 255) = -1 EACCES
socket(AF_INET, SOCK_STREAM, 0) = 3
EOF
