"""Asks the terminal the questions full-screen programs ask, and waits.

Puts the terminal in raw mode, moves the cursor to row 5, column 10, sends
primary and secondary device attributes (CSI c, CSI > c), a status report
(CSI 5 n) and a cursor position report (CSI 6 n), and waits for the four
answers. Prints "REPLIES da1=... da2=... dsr=... cpr=ROW;COL" on success,
"TIMEOUT got=..." if they do not all come within QUERY_TIMEOUT seconds
(default 10): a terminal that does not answer makes such programs hang.
"""
import os
import re
import select
import sys
import termios
import time
import tty

PATTERNS = {
    "da1": re.compile(rb"\x1b\[\?[0-9;]*c"),
    "da2": re.compile(rb"\x1b\[>[0-9;]*c"),
    "dsr": re.compile(rb"\x1b\[0n"),
    "cpr": re.compile(rb"\x1b\[([0-9]+);([0-9]+)R"),
}


def main():
    timeout = float(os.environ.get("QUERY_TIMEOUT", "10"))
    fd = sys.stdin.fileno()
    saved = termios.tcgetattr(fd)
    tty.setraw(fd)
    got = b""
    found = {}
    try:
        os.write(1, b"\x1b[2J\x1b[5;10H\x1b[c\x1b[>c\x1b[5n\x1b[6n")
        deadline = time.monotonic() + timeout
        while len(found) < len(PATTERNS):
            left = deadline - time.monotonic()
            if left <= 0:
                break
            ready, _, _ = select.select([fd], [], [], left)
            if ready:
                got += os.read(fd, 1024)
            for name, pat in PATTERNS.items():
                m = pat.search(got)
                if m and name not in found:
                    found[name] = m
    finally:
        termios.tcsetattr(fd, termios.TCSADRAIN, saved)
    os.write(1, b"\x1b[10;1H")
    if len(found) < len(PATTERNS):
        print("TIMEOUT got=%r" % got)
        return 1
    cpr = found["cpr"]
    print("REPLIES da1=%r da2=%r dsr=%r cpr=%s;%s" % (
        found["da1"].group(0), found["da2"].group(0), found["dsr"].group(0),
        cpr.group(1).decode(), cpr.group(2).decode()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
