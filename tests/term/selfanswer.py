#!/usr/bin/python3
# selfanswer.py REAL_TTY CONTROL_SOCKET GO: an agent trying to answer its own
# question while it waits (once the file GO exists: the test makes it when
# the question is up).  Each attempt's outcome on one line:
#   SELF-ANSWER tty-write=... tiocsti=... devtty=... real-tty=... control=...
# "ok" where the call worked (it then reached only the agent's own pty),
# else the errno's name.
import errno, fcntl, os, socket, sys, termios

def attempt(f):
    try:
        f()
        return "ok"
    except OSError as e:
        return errno.errorcode.get(e.errno, str(e.errno))

def tty_write():
    os.write(1, b"y\n")

def tiocsti():
    fcntl.ioctl(0, termios.TIOCSTI, b"y")

def devtty():
    fd = os.open("/dev/tty", os.O_RDWR)
    os.write(fd, b"y\n")
    os.close(fd)

def real_tty():
    fd = os.open(sys.argv[1], os.O_RDWR)
    os.write(fd, b"y\n")
    os.close(fd)

def control():
    s = socket.socket(socket.AF_UNIX)
    s.connect(sys.argv[2])
    s.sendall(b'{"op":"answer","n":1,"answer":"once"}\n')

import time
while not os.path.exists(sys.argv[3]):
    time.sleep(0.05)
r = [("tty-write", tty_write), ("tiocsti", tiocsti), ("devtty", devtty),
     ("real-tty", real_tty), ("control", control)]
print("\nSELF-ANSWER " + " ".join("%s=%s" % (n, attempt(f)) for n, f in r), flush=True)
print("SELF-ANSWER done", flush=True)
