package screen

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// TestApproximateAfterRingOverflow floods more output than the ring keeps
// before anyone looks: the screen is rebuilt from what is left and marked
// approximate until the program clears the screen.
func TestApproximateAfterRingOverflow(t *testing.T) {
	e := newEnv(t, Options{RingBytes: 4096})
	id := e.spawn(size24x80, python(t), "-c", `
import sys
for i in range(2000):
    sys.stdout.write("flood line %d\n" % i)
sys.stdout.write("\x1b[?25l")
sys.stdout.flush()
sys.stdin.readline()
sys.stdout.write("\x1b[2J\x1b[3;5Hclean")
sys.stdout.flush()
sys.stdin.readline()
`)
	s := e.waitFor(id, "the flood's end", func(s Snapshot) bool { return anyRowHas(s, "flood line 1999") })
	if !s.Approximate {
		t.Fatalf("not approximate after losing output:\n%s", s.Text())
	}
	if s.Cursor.Visible {
		t.Errorf("the cursor was hidden after the flood; snapshot says visible")
	}
	e.keys(id, "", "Enter")
	s = e.waitFor(id, "clean", func(s Snapshot) bool { return rowHas(s, 2, "    clean") })
	if s.Approximate {
		t.Fatalf("still approximate after the screen was cleared:\n%s", s.Text())
	}
	e.keys(id, "", "Enter")
	e.waitExit(id)
}

// TestExactWithoutOverflow is the control: the same amount of output with
// a ring large enough is exact.
func TestExactWithoutOverflow(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sh(size24x80, `for i in $(seq 0 1999); do echo "flood line $i"; done; sleep 30`)
	s := e.waitFor(id, "the flood's end", func(s Snapshot) bool { return rowHas(s, 22, "flood line 1999") })
	if s.Approximate || !rowHas(s, 0, "flood line 1977") {
		t.Fatalf("approximate %v:\n%s", s.Approximate, s.Text())
	}
}

// TestAuthorization checks that another owner's id is refused everywhere
// and that unknown sessions and bad keys are reported with their codes.
func TestAuthorization(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sh(size24x80, `echo hi; sleep 30`)
	other := core.NewOwner("intruder")
	ctx := ctxT(t)
	if _, err := e.m.Snapshot(ctx, other, id, SnapshotOptions{}); !errors.Is(err, core.ErrForeignSession) {
		t.Errorf("snapshot: %v", err)
	}
	if err := e.m.Resize(ctx, other, id, size24x80); !errors.Is(err, core.ErrForeignSession) {
		t.Errorf("resize: %v", err)
	}
	if _, err := e.m.SendKeys(ctx, other, id, KeysRequest{Keys: []string{"Enter"}}); !errors.Is(err, core.ErrForeignSession) {
		t.Errorf("keys: %v", err)
	}
	if _, err := e.m.Snapshot(ctx, e.owner, "pty_nosuchsession", SnapshotOptions{}); !errors.Is(err, core.ErrNoSession) {
		t.Errorf("unknown id: %v", err)
	}
	_, err := e.m.SendKeys(ctx, e.owner, id, KeysRequest{Keys: []string{"Enter", "Frobnicate"}})
	if !errors.Is(err, core.ErrInvalidArgument) || !containsAll(err.Error(), "Frobnicate", string(id)) {
		t.Errorf("bad key: %v", err)
	}
	if _, err := e.m.SendKeys(ctx, e.owner, id, KeysRequest{}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Errorf("empty keys: %v", err)
	}
}

// TestSnapshotAfterExitAndForget reads the last screen of a program that
// exited, and checks that the state is dropped once the session is closed.
func TestSnapshotAfterExitAndForget(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sh(size24x80, `printf 'last words'`)
	e.waitExit(id)
	if s := e.snap(id); !rowHas(s, 0, "last words") {
		t.Fatalf("last screen:\n%s", s.Text())
	}
	if _, err := e.svc.Close(ctxT(t), e.owner, id, "test"); err != nil {
		t.Fatal(err)
	}
	if _, err := e.m.Snapshot(ctxT(t), e.owner, id, SnapshotOptions{}); !errors.Is(err, core.ErrNoSession) {
		t.Fatalf("snapshot of a closed session: %v", err)
	}
	// The next session's drain sweeps the closed one away.
	id2 := e.sh(size24x80, `sleep 30`)
	deadline := time.Now().Add(waitLimit)
	for e.m.watched() != 1 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := e.m.watched(); n != 1 {
		t.Fatalf("the manager holds %d sessions, want 1 (%s)", n, id2)
	}
}

// TestLateAttach serves a session of a service whose OnSpawn hook was not
// the manager: it attaches on first use and marks the screen approximate.
func TestLateAttach(t *testing.T) {
	svc := core.New(core.Options{})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	m := NewManager(Options{})
	m.Bind(svc)
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		_ = svc.Shutdown(ctx)
		m.Close()
	}()
	owner := core.NewOwner("late")
	res, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Size: size24x80,
		Command: []string{"bash", "--noprofile", "--norc", "-c", `read x; printf '\033[2J\033[HAFTER'; sleep 30`},
		Env:     []string{testTokenEnv + "=" + testToken}})
	if err != nil {
		t.Fatal(err)
	}
	s, err := m.Snapshot(ctxT(t), owner, res.ID, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !s.Approximate {
		t.Fatal("a late-attached screen is not approximate")
	}
	if _, err := m.SendKeys(ctxT(t), owner, res.ID, KeysRequest{Keys: []string{"Enter"}}); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(waitLimit)
	for !rowHas(s, 0, "AFTER") && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		if s, err = m.Snapshot(ctxT(t), owner, res.ID, SnapshotOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	if !rowHas(s, 0, "AFTER") || s.Approximate {
		t.Fatalf("approximate %v:\n%s", s.Approximate, s.Text())
	}
}

// TestManagerUnboundAndClosed checks the errors of a manager without a
// service and after Close.
func TestManagerUnboundAndClosed(t *testing.T) {
	m := NewManager(Options{})
	owner := core.NewOwner("x")
	if _, err := m.Snapshot(context.Background(), owner, "pty_x", SnapshotOptions{}); !errors.Is(err, core.ErrInternal) {
		t.Errorf("unbound: %v", err)
	}
	m.Close()
	m.Close()
	if _, err := m.Snapshot(context.Background(), owner, "pty_x", SnapshotOptions{}); !errors.Is(err, core.ErrServiceDisposing) {
		t.Errorf("closed: %v", err)
	}
}

func containsAll(s string, subs ...string) bool {
	for _, sub := range subs {
		if !strings.Contains(s, sub) {
			return false
		}
	}
	return true
}
