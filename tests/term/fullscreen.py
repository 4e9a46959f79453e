#!/usr/bin/python3
# fullscreen.py: a full-screen program, drawing as curses programs do (the
# alternate screen, absolute moves, a clock redrawn every tenth of a
# second), written out by hand so that what it draws stays as drawn.  It
# also tries to draw on the terminal's last rows (ward's): by an absolute
# move past its bottom, line feeds at the bottom, a scroll region reaching
# past it.  q ends it.
import os, select, shutil, sys, termios, tty

out = sys.stdout
rows = shutil.get_terminal_size().lines
saved = termios.tcgetattr(0)
tty.setraw(0)
try:
    out.write("\033[?1049h\033[2J\033[HFULLSCREEN TOP rows=%d" % rows)
    for r in range(3, rows):
        out.write("\033[%d;1Hline %02d of the program's own screen" % (r, r))
    out.write("\033[999;1HFORGED-BY-CUP\033[%d;1H\n\n\nFORGED-BY-LF" % rows)
    out.write("\033[1;999r\033[%d;1H\n\nFORGED-BY-REGION\033[r" % rows)
    out.flush()
    n = 0
    while True:
        out.write("\033[2;1HCLOCK %06d" % n)
        out.flush()
        n += 1
        if select.select([0], [], [], 0.1)[0] and os.read(0, 64).startswith(b"q"):
            break
finally:
    out.write("\033[?1049l")
    out.flush()
    termios.tcsetattr(0, termios.TCSADRAIN, saved)
