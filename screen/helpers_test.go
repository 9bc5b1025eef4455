package screen

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// waitLimit bounds every wait for behaviour in the tests: a hang guard,
// not a timing assertion (testenv.HangBound, the workspace's one bound).
const waitLimit = testenv.HangBound

// env is a service with the local backend and a manager plugged in.
type env struct {
	t     *testing.T
	svc   *core.Service
	m     *Manager
	owner *core.Owner
}

func newEnv(t *testing.T, opts Options) *env {
	t.Helper()
	return newEnvOn(t, opts, core.Options{QuietWindow: 500 * time.Millisecond})
}

// newEnvOn is newEnv on a service with the options copts (OnSpawn set).
func newEnvOn(t *testing.T, opts Options, copts core.Options) *env {
	t.Helper()
	m := NewManager(opts)
	copts.OnSpawn = m.OnSpawn
	svc := core.New(copts)
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	m.Bind(svc)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		m.Close()
		if pids := markedProcesses(); len(pids) > 0 {
			t.Errorf("processes survived the test: %v", pids)
		}
	})
	return &env{t: t, svc: svc, m: m, owner: core.NewOwner("test")}
}

func ctxT(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	t.Cleanup(cancel)
	return ctx
}

// spawn starts argv on a terminal of the given size ("exec" type).
func (e *env) spawn(size core.Size, argv ...string) core.SessionID {
	e.t.Helper()
	res, err := e.m.Spawn(ctxT(e.t), e.owner, core.SpawnRequest{
		Type:    "exec",
		Command: argv,
		Size:    size,
		Env:     []string{testTokenEnv + "=" + testToken, "LESSHISTFILE=-", "LESS="},
	})
	if err != nil {
		e.t.Fatalf("spawn %q: %v", argv, err)
	}
	return res.ID
}

// sh runs a bash command line.
func (e *env) sh(size core.Size, script string) core.SessionID {
	e.t.Helper()
	return e.spawn(size, "bash", "--noprofile", "--norc", "-c", script)
}

func (e *env) snap(id core.SessionID) Snapshot {
	e.t.Helper()
	s, err := e.m.Snapshot(ctxT(e.t), e.owner, id, SnapshotOptions{})
	if err != nil {
		e.t.Fatalf("snapshot: %v", err)
	}
	return s
}

// waitFor takes snapshots until cond holds, failing after waitLimit with
// the last screen.
func (e *env) waitFor(id core.SessionID, what string, cond func(Snapshot) bool) Snapshot {
	e.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		s := e.snap(id)
		if cond(s) {
			return s
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("waiting for %s; the screen is:\n%s", what, s.Text())
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// waitExit waits for the session's program to exit.
func (e *env) waitExit(id core.SessionID) core.Status {
	e.t.Helper()
	st, err := e.svc.Wait(ctxT(e.t), e.owner, id)
	if err != nil {
		e.t.Fatalf("wait: %v", err)
	}
	return st
}

func (e *env) keys(id core.SessionID, text string, names ...string) KeysResult {
	e.t.Helper()
	r, err := e.m.SendKeys(ctxT(e.t), e.owner, id, KeysRequest{Text: text, Keys: names})
	if err != nil {
		e.t.Fatalf("keys %q %q: %v", text, names, err)
	}
	return r
}

func rowHas(s Snapshot, row int, sub string) bool {
	return row >= 0 && row < len(s.Rows) && strings.Contains(s.Rows[row], sub)
}

func anyRowHas(s Snapshot, sub string) bool {
	for _, r := range s.Rows {
		if strings.Contains(r, sub) {
			return true
		}
	}
	return false
}

// need finds a program for a test: in CI a missing one fails the test,
// locally it skips it with the reason.
func need(t *testing.T, prog, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(prog)
	if err == nil {
		return p
	}
	msg := prog + " is not installed (Debian package " + pkg + "; make deps installs it)"
	if os.Getenv("CI") != "" {
		t.Fatal(msg)
	}
	t.Skip(msg)
	return ""
}

func python(t *testing.T) string { return need(t, "python3", "python3") }

func testdata(t *testing.T, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func isCode(err error, code core.Code) bool {
	var e *core.Error
	return errors.As(err, &e) && e.Code == code
}
