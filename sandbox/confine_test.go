package sandbox_test

import (
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// start spawns argv in a sandboxed session of svc and returns its id and
// the program's process id; the session is closed when the test ends.
func start(t *testing.T, svc *core.Service, owner *core.Owner, argv ...string) core.SpawnResult {
	t.Helper()
	res, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: argv, NoInitialWait: true})
	if err != nil {
		t.Fatalf("spawn %q: %v", argv, err)
	}
	t.Cleanup(func() { _, _ = svc.Close(ctxT(t), owner, res.ID, "test") })
	return res
}

// output returns what session id printed so far, lines joined.
func output(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID) string {
	t.Helper()
	page, err := svc.Read(owner, id, core.PageRequest{Start: 0, Count: 5000})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(page.Lines, "\n")
}

// waitOutput polls session id's output until re matches it (a hang guard
// of waitLimit, not a timing assertion), and returns the output.
func waitOutput(t *testing.T, svc *core.Service, owner *core.Owner, id core.SessionID, re string) string {
	t.Helper()
	rx := regexp.MustCompile(re)
	deadline := time.Now().Add(waitLimit)
	for {
		out := output(t, svc, owner, id)
		if rx.MatchString(out) {
			return out
		}
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the output of %s:\n%s", re, id, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestNoHostUnixSockets: a host listener on a pathname UNIX socket outside
// the sandbox's paths, stream or datagram, gets no connection and no
// datagram from a session, whichever way the session tries (io_uring
// included).
func TestNoHostUnixSockets(t *testing.T) {
	dir := t.TempDir()
	stream := filepath.Join(dir, "agent.sock")
	ln, err := net.Listen("unix", stream)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan string, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			select {
			case got <- "a stream connection":
			default:
			}
			c.Close()
		}
	}()
	dgram := filepath.Join(dir, "log.sock")
	pc, err := net.ListenUnixgram("unixgram", &net.UnixAddr{Name: dgram, Net: "unixgram"})
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	go func() {
		buf := make([]byte, 100)
		for {
			n, _, err := pc.ReadFrom(buf)
			if err != nil {
				return
			}
			select {
			case got <- "a datagram: " + string(buf[:n]):
			default:
			}
		}
	}()
	for _, network := range []bool{false, true} {
		svc := service(t, localpty.Sandbox{Network: network})
		script := `import socket
def attempt(name, f):
    try:
        f(); print(name + "=reached")
    except OSError as e:
        print(name + "=refused", e.errno)
def stream():
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM); s.settimeout(5); s.connect(` + strconv.Quote(stream) + `); s.sendall(b"x")
def dgram():
    socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM).sendto(b"dgram", ` + strconv.Quote(dgram) + `)
def pair():
    a, b = socket.socketpair(socket.AF_UNIX, socket.SOCK_DGRAM); a.sendto(b"pair", ` + strconv.Quote(dgram) + `)
def raw():
    socket.socket(socket.AF_UNIX, socket.SOCK_RAW).sendto(b"raw", ` + strconv.Quote(dgram) + `)
def uring():
    import ctypes
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.syscall(425, 8, ctypes.create_string_buffer(120)) < 0:
        raise OSError(ctypes.get_errno(), "io_uring_setup")
attempt("stream", stream); attempt("dgram", dgram); attempt("pair", pair); attempt("raw", raw); attempt("uring", uring)
a, b = socket.socketpair(); a.sendall(b"ok"); print("streampair=" + b.recv(2).decode())`
		_, out := run(t, svc, "python3", "-c", script)
		t.Logf("network %v: %s", network, out)
		// io_uring makes and connects sockets without socket(2) and
		// connect(2) (its system call is 425 on every architecture).
		for _, name := range []string{"stream", "dgram", "pair", "raw", "uring"} {
			if !strings.Contains(out, name+"=refused") {
				t.Errorf("network %v: %s: %q, want refused", network, name, out)
			}
		}
		if !strings.Contains(out, "streampair=ok") {
			t.Errorf("network %v: a stream socket pair inside the session: %q, want it to work", network, out)
		}
	}
	select {
	case what := <-got:
		t.Fatalf("the host's listener got %s from a sandboxed session", what)
	default:
	}
}

// ttyScript lists /dev/pts and /dev as the session sees them, then tries
// to open every terminal there but its own (and the extra paths given as
// arguments), typing into each with TIOCSTI and reading from it.
const ttyScript = `import os, sys, fcntl, termios
own = os.path.realpath(os.ttyname(0))
print("own=" + own)
print("pts=" + ",".join(sorted(os.listdir("/dev/pts"))))
print("devttys=" + ",".join(sorted(n for n in os.listdir("/dev") if n.startswith(("tty", "console", "vd", "sd")) and n != "tty")))
paths = ["/dev/pts/" + n for n in os.listdir("/dev/pts") if n != "ptmx"] + sys.argv[1:]
for p in paths:
    if os.path.exists(p) and os.path.samefile(p, own):
        continue
    try:
        fd = os.open(p, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    except OSError as e:
        print("open " + p + " refused", e.errno); continue
    print("opened " + p)
    try:
        for c in b"INJECTED-BY-A\n":
            fcntl.ioctl(fd, termios.TIOCSTI, bytes([c]))
        print("injected " + p)
    except OSError as e:
        print("inject " + p + " refused", e.errno)
    try:
        print("read " + p + " " + repr(os.read(fd, 100)))
    except OSError as e:
        print("read " + p + " refused", e.errno)
print("done")`

// TestOnlyItsOwnTerminal: a session sees one terminal, its own, at
// /dev/pts/N of a terminal file system of its own: neither a terminal of
// the host (a pty this test holds, the consoles) nor another session's
// can be opened, typed into (TIOCSTI) or read.
func TestOnlyItsOwnTerminal(t *testing.T) {
	hostPTY, hostTTY, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	defer hostPTY.Close()
	defer hostTTY.Close()
	svc := service(t, localpty.Sandbox{})
	owner := core.NewOwner("test")
	// B waits for a line with echo off, as a password prompt does.
	b := start(t, svc, owner, "sh", "-c", `stty -echo; echo B-ready; read -r x; echo "B-got=$x"`)
	waitOutput(t, svc, owner, b.ID, "B-ready")
	a := start(t, svc, owner, "python3", "-c", ttyScript, hostTTY.Name(), "/dev/console", "/dev/tty1", "/dev/ttyS0")
	outA := waitOutput(t, svc, owner, a.ID, `(?m)^done$`)
	t.Logf("A:\n%s", outA)
	if _, err := svc.Write(ctxT(t), owner, b.ID, []byte("typed-by-B\n")); err != nil {
		t.Fatal(err)
	}
	outB := waitOutput(t, svc, owner, b.ID, `B-got=`)
	t.Logf("B:\n%s", outB)
	if strings.Contains(outB, "INJECTED") || !strings.Contains(outB, "B-got=typed-by-B") {
		t.Errorf("session B's terminal was typed into by session A: %q", outB)
	}
	if strings.Contains(outA, "opened ") {
		t.Errorf("session A opened a terminal not its own:\n%s", outA)
	}
	if !regexp.MustCompile(`(?m)^own=/dev/pts/\d+$`).MatchString(outA) || !regexp.MustCompile(`(?m)^pts=\d+,ptmx$`).MatchString(outA) {
		t.Errorf("session A's terminals: want its own alone in /dev/pts:\n%s", outA)
	}
	if !regexp.MustCompile(`(?m)^devttys=$`).MatchString(outA) {
		t.Errorf("session A sees the host's consoles or disks in /dev:\n%s", outA)
	}
	// Nothing reached the host's terminal either.
	fd := int(hostTTY.Fd())
	if err := syscall.SetNonblock(fd, true); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 100)
	if n, _ := syscall.Read(fd, buf); n > 0 {
		t.Errorf("the host's terminal %s got input from a sandboxed session: %q", hostTTY.Name(), buf[:n])
	}
}

// TestProcShowsOnlyItsOwn: a session cannot read the /proc entries of the
// server nor of another session's programs (not even see them), while its
// own are there.
func TestProcShowsOnlyItsOwn(t *testing.T) {
	svc := service(t, localpty.Sandbox{})
	owner := core.NewOwner("test")
	b := start(t, svc, owner, "sh", "-c", `echo B-ready; read -r x`)
	waitOutput(t, svc, owner, b.ID, "B-ready")
	script := `import os, sys
for pid in sys.argv[1:]:
    for f in ("environ", "maps", "cmdline", "status", "stat", "fd"):
        p = "/proc/%s/%s" % (pid, f)
        try:
            if f == "fd": os.listdir(p)
            else: open(p, "rb").read()
            print("read " + p)
        except OSError as e:
            print("refused " + p, e.errno)
print("self=" + str(os.path.exists("/proc/self/status")))
print("pids=" + str(sorted(int(n) for n in os.listdir("/proc") if n.isdigit())))
print("done")`
	_, out := run(t, svc, "python3", "-c", script, strconv.Itoa(os.Getpid()), strconv.Itoa(b.PID))
	t.Logf("%s", out)
	if strings.Contains(out, "read /proc/") {
		t.Errorf("a session read /proc entries of the server (%d) or another session (%d):\n%s", os.Getpid(), b.PID, out)
	}
	if !strings.Contains(out, "self=True") {
		t.Errorf("a session cannot read its own /proc entries:\n%s", out)
	}
	for _, pid := range []int{os.Getpid(), b.PID} {
		if regexp.MustCompile(`pids=\[.*\b` + strconv.Itoa(pid) + `\b`).MatchString(out) {
			t.Errorf("process %d is listed in a session's /proc:\n%s", pid, out)
		}
	}
}
