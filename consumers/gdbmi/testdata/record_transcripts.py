#!/usr/bin/env python3
"""Records raw GDB/MI transcripts from a real gdb on a pseudo-terminal.

Usage: record_transcripts.py BINDIR OUTDIR

BINDIR holds the test programs compiled from testdata/*.c with
`gcc -g -O0 -pthread`. Each transcript is the exact byte stream gdb wrote to
its terminal (CR-LF line ends, the PTY's echo where it was left on).
"""
import os, pty, re, select, sys, termios, time

def run(argv, script, echo, tty=None):
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    if not echo:
        attrs = termios.tcgetattr(fd)
        attrs[3] &= ~termios.ECHO
        termios.tcsetattr(fd, termios.TCSANOW, attrs)
    out = bytearray()

    def wait_for(pattern, start=0, timeout=10.0):
        deadline = time.time() + timeout
        rx = re.compile(pattern)
        while not rx.search(out, start):
            left = deadline - time.time()
            if left <= 0:
                raise SystemExit("timeout waiting for %r in %r" % (pattern, bytes(out[-400:])))
            r, _, _ = select.select([fd], [], [], left)
            if r:
                try:
                    data = os.read(fd, 65536)
                except OSError:
                    return
                if not data:
                    return
                out.extend(data)

    wait_for(rb"\(gdb\) \r?\n")
    for cmd, expect in script:
        if cmd is not None and tty is not None:
            cmd = cmd.replace("@TTY@", tty)
        start = len(out)
        if cmd is not None:
            os.write(fd, cmd.encode() + b"\n")
        wait_for(expect, start)
    os.write(fd, b"999-gdb-exit\n")
    wait_for(rb"999\^exit")
    try:
        while True:
            r, _, _ = select.select([fd], [], [], 2.0)
            if not r:
                break
            data = os.read(fd, 65536)
            if not data:
                break
            out.extend(data)
    except OSError:
        pass
    os.waitpid(pid, 0)
    return bytes(out)

def done(tok):
    return (rb"%d\^[a-z]+.*\r?\n\(gdb\) \r?\n" % tok)

def main():
    bindir, outdir = sys.argv[1], sys.argv[2]
    gdb = ["gdb", "-q", "-nx", "-i=mi3"]
    pt_master, pt_slave = os.openpty()
    tty = os.ttyname(pt_slave)
    stopped = rb"\*stopped.*\r?\n"
    sessions = {
        "simple": (gdb + [os.path.join(bindir, "simple")], [
            ("1-gdb-set mi-async on", done(1)),
            ("2-inferior-tty-set @TTY@", done(2)),
            ("3-break-insert add", done(3)),
            ("4-break-insert simple.c:25", done(4)),
            ("5-break-list", done(5)),
            ("6-exec-run", stopped),
            ("7-stack-list-frames", done(7)),
            ("8-stack-list-variables --all-values", done(8)),
            ("9-exec-next", stopped),
            ("10-exec-finish", stopped),
            ("11-data-evaluate-expression total*2+1", done(11)),
            ("12-data-evaluate-expression nosuchsymbol", done(12)),
            ("13-gdb-set charset UTF-8", done(13)),
            ("14-data-evaluate-expression greeting", done(14)),
            ("15-break-delete 1", done(15)),
            ("16-exec-step", stopped),
            ("17-thread-info", done(17)),
            ("18-interpreter-exec console \"info frame\"", done(18)),
            ("19-exec-continue", stopped),
            ("20-exec-continue", rb"reason=\"exited.*\r?\n"),
        ], False),
        "crash": (gdb + [os.path.join(bindir, "crash")], [
            ("1-gdb-set mi-async on", done(1)),
            ("2-inferior-tty-set @TTY@", done(2)),
            ("3-exec-run", rb"signal-received.*\r?\n"),
            ("4-stack-list-frames", done(4)),
            ("5-exec-continue", rb"exited-signalled.*\r?\n"),
        ], False),
        "threads": (gdb + [os.path.join(bindir, "threads")], [
            ("1-gdb-set mi-async on", done(1)),
            ("2-inferior-tty-set @TTY@", done(2)),
            ("3-break-insert work", done(3)),
            ("4-exec-run", stopped),
            ("5-thread-info", done(5)),
            ("6-stack-list-arguments --simple-values", done(6)),
            ("7-break-delete", done(7)),
            ("8-exec-continue", rb"reason=\"exited.*\r?\n"),
        ], False),
        "loop_echo": (gdb + [os.path.join(bindir, "loop")], [
            ("1-gdb-set mi-async on", done(1)),
            ("2-inferior-tty-set @TTY@", done(2)),
            ("3-exec-run", rb"\*running.*\r?\n"),
            ("4-exec-interrupt", stopped),
            ("5-data-evaluate-expression \"counter > 0\"", done(5)),
            ("6-list-features", done(6)),
            ("7-break-insert -f nosuchfunc", done(7)),
            ("8-break-list", done(8)),
            ("9-unknown-command", done(9)),
            ("10-interpreter-exec console \"kill\"", done(10)),
        ], True),
        "big": (gdb + [os.path.join(bindir, "big")], [
            ("1-gdb-set mi-async on", done(1)),
            ("2-inferior-tty-set @TTY@", done(2)),
            ("3-break-insert big.c:12", done(3)),
            ("4-exec-run", stopped),
            ("5-gdb-set print elements unlimited", done(5)),
            ("55-gdb-set max-value-size unlimited", done(55)),
            ("6-gdb-set print repeats unlimited", done(6)),
            ("7-data-evaluate-expression big", done(7)),
            ("8-data-read-memory-bytes big 300000", done(8)),
        ], False),
    }
    only = sys.argv[3:]
    for name, (argv, script, echo) in sessions.items():
        if only and name not in only:
            continue
        data = run(argv, script, echo, tty)
        with open(os.path.join(outdir, name + ".mi"), "wb") as f:
            f.write(data)
        print(name, len(data))
    # drain what the inferiors printed so the pty does not fill
    os.set_blocking(pt_master, False)
    try:
        progout = os.read(pt_master, 1 << 20)
    except OSError:
        progout = b""
    print("program output:", progout[:300])

if __name__ == "__main__":
    main()
