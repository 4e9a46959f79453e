#!/usr/bin/env python3
"""netserve.py DIR - services of the host, outside any ward session.

Listens on TCP 127.0.0.1 and [::1], UDP 127.0.0.1 and [::1], a unix stream
socket DIR/host.sock, a unix datagram socket DIR/host.dgram and the abstract
stream socket "ward-net-host-PID".  Writes "TCP4 TCP6 UDP4 UDP6 PID" to
DIR/ports when ready, and one line to DIR/events for everything that reaches
it (a connection, with the data it brought, or a datagram): a test that
expects ward to keep the agent away from the host checks that file stays
empty.  Every connection is answered "hello" and closed.

A connection to the unix socket DIR/sync.sock is answered "synced" once
everything that had reached the other sockets by then is in DIR/events: a
test waits for that, not for a time, before it looks.
"""
import os
import select
import socket
import sys

TCP_FASTOPEN = 23


def main():
    d = sys.argv[1]
    events = open(os.path.join(d, "events"), "a", buffering=1)
    socks = {}

    def listen(name, fam, typ, addr):
        s = socket.socket(fam, typ)
        if fam != socket.AF_UNIX:
            s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if fam == socket.AF_INET6:
            s.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
        s.bind(addr)
        if typ == socket.SOCK_STREAM:
            if fam != socket.AF_UNIX:
                s.setsockopt(socket.IPPROTO_TCP, TCP_FASTOPEN, 16)
            s.listen(64)
        socks[s.fileno()] = (name, s, typ)
        return s

    t4 = listen("tcp4", socket.AF_INET, socket.SOCK_STREAM, ("127.0.0.1", 0))
    t6 = listen("tcp6", socket.AF_INET6, socket.SOCK_STREAM, ("::1", 0))
    u4 = listen("udp4", socket.AF_INET, socket.SOCK_DGRAM, ("127.0.0.1", 0))
    u6 = listen("udp6", socket.AF_INET6, socket.SOCK_DGRAM, ("::1", 0))
    for p in ("host.sock", "host.dgram"):
        try:
            os.unlink(os.path.join(d, p))
        except FileNotFoundError:
            pass
    listen("unix", socket.AF_UNIX, socket.SOCK_STREAM, os.path.join(d, "host.sock"))
    listen("unixdgram", socket.AF_UNIX, socket.SOCK_DGRAM, os.path.join(d, "host.dgram"))
    listen("abstract", socket.AF_UNIX, socket.SOCK_STREAM, "\0ward-net-host-%d" % os.getpid())
    # Anyone may try: the test runs the agent as nobody too.
    os.chmod(os.path.join(d, "host.sock"), 0o777)
    os.chmod(os.path.join(d, "host.dgram"), 0o777)
    sync = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        os.unlink(os.path.join(d, "sync.sock"))
    except FileNotFoundError:
        pass
    sync.bind(os.path.join(d, "sync.sock"))
    sync.listen(16)
    ports = [s.getsockname()[1] for s in (t4, t6, u4, u6)]
    tmp = os.path.join(d, "ports.tmp")
    with open(tmp, "w") as f:
        f.write("%d %d %d %d %d\n" % (*ports, os.getpid()))
    os.rename(tmp, os.path.join(d, "ports"))

    def serve(fd):
        name, s, typ = socks[fd]
        if typ == socket.SOCK_DGRAM:
            data = s.recv(65536)
            events.write("%s datagram %r\n" % (name, data))
            return
        c, _ = s.accept()
        c.settimeout(0.5)
        try:
            data = c.recv(4096)
        except OSError:
            data = b""
        events.write("%s connection %r\n" % (name, data))
        try:
            c.sendall(b"hello")
        except OSError:
            pass
        c.close()

    while True:
        ready, _, _ = select.select(list(socks) + [sync.fileno()], [], [])
        for fd in ready:
            if fd != sync.fileno():
                serve(fd)
        if sync.fileno() not in ready:
            continue
        # Everything queued on the other sockets by now first.
        while True:
            pending, _, _ = select.select(list(socks), [], [], 0)
            if not pending:
                break
            for fd in pending:
                serve(fd)
        events.flush()
        c, _ = sync.accept()
        try:
            c.sendall(b"synced")
        except OSError:
            pass
        c.close()


if __name__ == "__main__":
    main()
