#!/usr/bin/python3
# modes.py [wait]: set the modes an agent like Claude Code sets (bracketed
# paste, focus events, mouse reports, the kitty keyboard protocol,
# application cursor keys, a hidden cursor, the alternate screen), then
# leave without undoing them; with "wait", wait to be killed instead.
import sys, time
sys.stdout.write("\033[?2004h\033[?1004h\033[?1000h\033[?1002h\033[?1006h\033[>1u\033[?1h\033="
                 "\033[?25l\033[?1049hMODES SET\r\n")
sys.stdout.flush()
if len(sys.argv) > 1:
    while True:
        time.sleep(1)
