#!/usr/bin/python3
# ask.py SOCKET "OP TARGET [ADDR]" [N]: ask term_harness, from N threads at
# once (default 1), as N calls of an agent would; print each reply, one a line.
import socket, sys, threading

def one(out, i):
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[1])
    s.sendall((sys.argv[2] + "\n").encode())
    reply = b""
    while True:
        b = s.recv(256)
        if not b:
            break
        reply += b
    out[i] = reply.decode().strip()

n = int(sys.argv[3]) if len(sys.argv) > 3 else 1
out = [None] * n
threads = [threading.Thread(target=one, args=(out, i)) for i in range(n)]
for t in threads:
    t.start()
for t in threads:
    t.join()
print("\n".join(out), flush=True)
