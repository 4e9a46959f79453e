#!/usr/bin/python3
# asks.py MODE ...: an agent whose calls ward asks about, several at once
# (prompt_flow.sh runs it under ward run).  Each call appends to a file; its
# outcome is 0 or the errno.  What it prints are "NAME=NUMBER" markers.
#   same N PATH        N threads append to PATH at once (one question):
#                      SAME_OK=... SAME_DENIED=...
#   queue PATH1 PATH2 GO
#                      PATH1 at once, PATH2 once the file GO exists (the
#                      test makes it when PATH1's question is up):
#                      Q1=... Q2=...
#   one PATH           one call: ONE=... ONE_MS=... (how long it waited)
#   flood N DIR        N threads append to DIR/f_0 ... DIR/f_N-1 at once;
#                      FLOOD_DONE=k as the k-th call returns, then
#                      FLOOD_OK=... FLOOD_DENIED=...
import os, sys, threading, time

lock = threading.Lock()


def append(path):
    try:
        fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.close(fd)
        return 0
    except OSError as e:
        return e.errno


def together(paths, each=None):
    """One thread a path, released at once; their outcomes in order."""
    out = [None] * len(paths)
    start = threading.Barrier(len(paths))

    def one(i):
        start.wait()
        out[i] = append(paths[i])
        if each is not None:
            each()

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(paths))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def main():
    mode = sys.argv[1]
    if mode == "same":
        out = together([sys.argv[3]] * int(sys.argv[2]))
        print("SAME_OK=%d SAME_DENIED=%d" % (out.count(0), len(out) - out.count(0)), flush=True)
    elif mode == "queue":
        out = [None, None]

        def second():
            while not os.path.exists(sys.argv[4]):
                time.sleep(0.05)
            out[1] = append(sys.argv[3])

        t = threading.Thread(target=second)
        t.start()
        out[0] = append(sys.argv[2])
        t.join()
        print("Q1=%d Q2=%d" % tuple(out), flush=True)
    elif mode == "one":
        t = time.monotonic()
        rc = append(sys.argv[2])
        print("ONE=%d ONE_MS=%d" % (rc, (time.monotonic() - t) * 1000), flush=True)
    elif mode == "flood":
        done = [0]

        def each():
            with lock:
                done[0] += 1
                print("FLOOD_DONE=%d" % done[0], flush=True)

        n = int(sys.argv[2])
        out = together([os.path.join(sys.argv[3], "f_%d" % i) for i in range(n)], each)
        print("FLOOD_OK=%d FLOOD_DENIED=%d" % (out.count(0), n - out.count(0)), flush=True)
    else:
        sys.exit("asks.py: unknown mode " + mode)


main()
