"""Turns application-cursor mode on or off and echoes the input it reads.

With "on" it sends CSI ? 1 h (DECCKM set), with "off" CSI ? 1 l. Then, in
raw mode, it prints the repr of each read as "GOT b'...'" until it reads
"q".
"""
import os
import sys
import termios
import tty

fd = sys.stdin.fileno()
saved = termios.tcgetattr(fd)
tty.setraw(fd)
try:
    os.write(1, b"\x1b[?1h" if sys.argv[1] == "on" else b"\x1b[?1l")
    os.write(1, b"READY\r\n")
    while True:
        data = os.read(fd, 64)
        os.write(1, b"GOT " + repr(data).encode() + b"\r\n")
        if b"q" in data:
            break
finally:
    termios.tcsetattr(fd, termios.TCSADRAIN, saved)
