#!/usr/bin/env python3
"""nameserve.py DIR DNS_ADDR ADDR... - the services preload_run.sh connects to by name.

TCP listeners on each ADDR, all on one port the kernel picks, and, when
DNS_ADDR is not "-", a name server on DNS_ADDR port 53 (UDP) that knows one
zone: NAME.dns.ward-test.example is 127.0.0.4 (TTL 30, no IPv6 address);
every other name does not exist.  Writes the port to DIR/port when ready,
and one line to DIR/events for everything that reaches it: "tcp ADDR" for
a connection (answered "hello" and closed), "dns NAME TYPE" for a query.
A test that expects nothing to reach an address, or no query for a name,
checks that file.
"""
import os
import select
import socket
import struct
import sys

ZONE = ".dns.ward-test.example"
ZONE_ADDR = bytes([127, 0, 0, 4])


def qname(msg, at):
    labels = []
    while at < len(msg) and msg[at] != 0:
        n = msg[at]
        labels.append(msg[at + 1:at + 1 + n].decode("ascii", "replace"))
        at += 1 + n
    return ".".join(labels), at + 1


def answer(msg):
    if len(msg) < 12:
        return None, None
    ident, _, qd = struct.unpack(">HHH", msg[:6])
    if qd != 1:
        return None, None
    name, end = qname(msg, 12)
    if end + 4 > len(msg):
        return None, None
    qtype, _ = struct.unpack(">HH", msg[end:end + 4])
    question = msg[12:end + 4]
    known = name.lower().endswith(ZONE)
    rcode = 0 if known else 3
    answers = b""
    if known and qtype == 1:
        answers = struct.pack(">HHHIH", 0xC00C, 1, 1, 30, 4) + ZONE_ADDR
    head = struct.pack(">HHHHHH", ident, 0x8180 | rcode, 1, 1 if answers else 0, 0, 0)
    return head + question + answers, "dns %s %d" % (name.lower(), qtype)


def main():
    d, dns_addr, addrs = sys.argv[1], sys.argv[2], sys.argv[3:]
    events = open(os.path.join(d, "events"), "a", buffering=1)
    socks = {}
    port = 0
    for a in addrs:
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind((a, port))
        port = s.getsockname()[1]
        s.listen(64)
        socks[s.fileno()] = ("tcp", s, a)
    if dns_addr != "-":
        u = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        u.bind((dns_addr, 53))
        socks[u.fileno()] = ("dns", u, dns_addr)
    with open(os.path.join(d, "port.tmp"), "w") as f:
        f.write("%d\n" % port)
    os.rename(os.path.join(d, "port.tmp"), os.path.join(d, "port"))
    while True:
        ready, _, _ = select.select(list(socks), [], [])
        for fd in ready:
            kind, s, a = socks[fd]
            if kind == "tcp":
                c, _ = s.accept()
                events.write("tcp %s\n" % a)
                try:
                    c.sendall(b"hello\n")
                except OSError:
                    pass
                c.close()
            else:
                msg, peer = s.recvfrom(4096)
                reply, what = answer(msg)
                if reply is not None:
                    events.write(what + "\n")
                    s.sendto(reply, peer)


if __name__ == "__main__":
    main()
