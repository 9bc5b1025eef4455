package sandbox_test

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	llsys "github.com/landlock-lsm/go-landlock/landlock/syscall"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/sandbox"
)

// waitLimit bounds every wait in the tests: testenv.HangBound, a hang
// guard, not a timing assertion.
const waitLimit = testenv.HangBound

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	return ctx
}

// service returns a service whose "exec" backend confines every session
// with sb (the test binary is the launcher).
func service(t *testing.T, sb localpty.Sandbox) *core.Service {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	sb.Launcher = []string{self, sandbox.Command}
	svc := core.New(core.Options{})
	if _, err := svc.Register(localpty.NewExec(localpty.ExecOptions{Options: localpty.Options{Sandbox: &sb}})); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	return svc
}

// run starts argv in a sandboxed session, waits until it exits and
// returns its status and output.
func run(t *testing.T, svc *core.Service, argv ...string) (core.Status, string) {
	t.Helper()
	owner := core.NewOwner("test")
	res, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: argv})
	if err != nil {
		t.Fatalf("spawn %q: %v", argv, err)
	}
	st, err := svc.Wait(ctxT(t), owner, res.ID)
	if err != nil {
		t.Fatalf("wait: %v", err)
	}
	page, err := svc.Read(owner, res.ID, core.PageRequest{Start: 0, Count: 1000})
	if err != nil {
		t.Fatal(err)
	}
	out := page.Lines
	if _, err := svc.Close(ctxT(t), owner, res.ID, "test"); err != nil {
		t.Fatalf("close: %v", err)
	}
	return st, strings.Join(out, "\n")
}

func TestWriteOutsideAllowedPathsFails(t *testing.T) {
	allowed, outside := t.TempDir(), t.TempDir()
	svc := service(t, localpty.Sandbox{Writable: []string{allowed}, Network: true})
	script := `echo no > ` + outside + `/f; echo "outside=$?"; echo yes > ` + allowed + `/f; echo "inside=$?"; cat /etc/hostname >/dev/null; echo "read=$?"; kill -0 ` + strconv.Itoa(os.Getpid()) + ` 2>/dev/null; echo "signal=$?"`
	st, out := run(t, svc, "sh", "-c", script)
	t.Logf("%s: %s", st, out)
	if !strings.Contains(out, "outside=") || strings.Contains(out, "outside=0") || !strings.Contains(out, "inside=0") || !strings.Contains(out, "read=0") {
		t.Fatalf("output %q: want the write outside refused, the one inside and reading allowed", out)
	}
	if abi, _ := llsys.LandlockGetABIVersion(); abi >= 6 && strings.Contains(out, "signal=0") {
		t.Fatalf("output %q: a sandboxed process could signal the server (Landlock ABI %d scopes signals)", out, abi)
	}
	if _, err := os.Stat(filepath.Join(outside, "f")); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("a file was created outside the allowed paths: %v", err)
	}
	if b, err := os.ReadFile(filepath.Join(allowed, "f")); err != nil || string(b) != "yes\n" {
		t.Fatalf("the allowed write: %q %v", b, err)
	}
}

func TestNoNetworkInside(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	accepted := make(chan struct{}, 1)
	go func() {
		if c, err := ln.Accept(); err == nil {
			accepted <- struct{}{}
			c.Close()
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	svc := service(t, localpty.Sandbox{})
	script := `import socket
try:
    socket.create_connection(("127.0.0.1", ` + strconv.Itoa(port) + `), timeout=5); print("connected")
except OSError as e:
    print("refused:", e.errno)`
	_, out := run(t, svc, "python3", "-c", script)
	t.Logf("%s", out)
	if !strings.Contains(out, "refused:") {
		t.Fatalf("output %q: the connection was not refused", out)
	}
	select {
	case <-accepted:
		t.Fatal("the host's listener accepted a connection from inside the sandbox")
	default:
	}
}

// TestLoopbackWithinTheSession: without the host's network a session
// still has a loopback of its own, up: a server it starts answers a client
// it starts (a test suite against a local server), on 127.0.0.1 and ::1.
func TestLoopbackWithinTheSession(t *testing.T) {
	svc := service(t, localpty.Sandbox{})
	script := `import socket
for family, host in ((socket.AF_INET, "127.0.0.1"), (socket.AF_INET6, "::1")):
    srv = socket.socket(family); srv.bind((host, 0)); srv.listen(1)
    c = socket.create_connection(srv.getsockname()[:2], timeout=5)
    peer, _ = srv.accept(); peer.sendall(b"pong")
    print(host, c.recv(4).decode())`
	_, out := run(t, svc, "python3", "-c", script)
	if !strings.Contains(out, "127.0.0.1 pong") || !strings.Contains(out, "::1 pong") {
		t.Fatalf("a server and a client of the same session over loopback: %q", out)
	}
}
