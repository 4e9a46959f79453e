#!/usr/bin/python3
# counter.py: a line "COUNT n" every fifth of a second, for ever.
import sys, time
n = 0
while True:
    print("COUNT %d" % n, flush=True)
    n += 1
    time.sleep(0.2)
