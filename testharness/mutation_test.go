package testharness_test

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/testharness"
)

// The suites must catch broken implementations. Each mutation below runs
// one sub-test of a suite against a deliberately broken seam or backend in
// a child test process, which must fail exactly that sub-test.

const mutationEnv = "TESTHARNESS_MUTATION"

var seamMutations = map[string]string{
	"page-offset":       "Pages",           // pages one line off
	"close-always-true": "CloseIdempotent", // a repeated close claims it closed
	"foreign-allowed":   "ForeignOwner",    // any owner may use any session
	"sequential-ids":    "IDs",             // guessable ids
}

var backendMutations = map[string]string{
	"drop-tail":    "OutputAtExit", // the last chunk before EOF is lost
	"wrong-status": "ExitCode",     // the exit code is misreported
	"ignore-taken": "InputWatcher", // output the caller has not taken in does not count as in flight
	// waits told apart by the wake-up count alone, as before readers
	"ignore-readers": "InputWatcherNewReader",
}

func TestSuitesCatchMutations(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the suites in child processes")
	}
	run := func(helper, mutation, subtest string) {
		t.Run(mutation, func(t *testing.T) {
			cmd := exec.Command(os.Args[0], "-test.run=^"+helper+"$/^"+subtest+"$", "-test.count=1", "-test.v")
			cmd.Env = append(os.Environ(), mutationEnv+"="+mutation)
			out, err := cmd.CombinedOutput()
			if err == nil {
				t.Fatalf("the suite passed a seam with mutation %q:\n%s", mutation, out)
			}
			if want := "--- FAIL: " + helper + "/" + subtest; !strings.Contains(string(out), want) {
				t.Fatalf("want %q in the output:\n%s", want, out)
			}
		})
	}
	for m, sub := range seamMutations {
		run("TestMutatedSeam", m, sub)
	}
	for m, sub := range backendMutations {
		run("TestMutatedBackend", m, sub)
	}
}

// TestMutatedSeam runs TestTerminals on a broken Registry; it runs only in
// the child processes of TestSuitesCatchMutations.
func TestMutatedSeam(t *testing.T) {
	mode := os.Getenv(mutationEnv)
	if _, ok := seamMutations[mode]; !ok {
		t.Skip("a helper of TestSuitesCatchMutations")
	}
	testharness.TestTerminals(t, testharness.TerminalsHarness{
		New: func(t *testing.T) core.Terminals {
			r := testharness.NewRegistry(localpty.NewExec(localpty.ExecOptions{}))
			t.Cleanup(func() { _ = r.Shutdown(context.Background()) })
			return &mutatedSeam{Terminals: r, mode: mode, owners: map[core.SessionID]*core.Owner{}, ids: map[core.SessionID]core.SessionID{}}
		},
		LocalProcesses: true,
	})
}

// TestMutatedBackend runs TestBackend on a broken local PTY backend; it
// runs only in the child processes of TestSuitesCatchMutations.
func TestMutatedBackend(t *testing.T) {
	mode := os.Getenv(mutationEnv)
	if _, ok := backendMutations[mode]; !ok {
		t.Skip("a helper of TestSuitesCatchMutations")
	}
	testharness.TestBackend(t, testharness.BackendHarness{
		New: func(*testing.T) core.Backend {
			return mutatedBackend{Backend: localpty.NewExec(localpty.ExecOptions{}), mode: mode}
		},
		LocalProcesses: true,
	})
}

// mutatedSeam breaks one rule of the seam.
type mutatedSeam struct {
	core.Terminals
	mode   string
	mu     sync.Mutex
	owners map[core.SessionID]*core.Owner    // real id -> owner
	ids    map[core.SessionID]core.SessionID // sequential id -> real id
	seq    int
}

func (m *mutatedSeam) Spawn(ctx context.Context, o *core.Owner, req core.SpawnRequest) (core.SpawnResult, error) {
	res, err := m.Terminals.Spawn(ctx, o, req)
	if err != nil {
		return res, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.owners[res.ID] = o
	if m.mode == "sequential-ids" {
		m.seq++
		fake := core.SessionID(fmt.Sprintf("session-%04d", m.seq))
		m.ids[fake] = res.ID
		res.ID = fake
	}
	return res, nil
}

// real maps an id and an owner to what the registry knows.
func (m *mutatedSeam) real(o *core.Owner, id core.SessionID) (*core.Owner, core.SessionID) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.ids[id]; ok {
		id = r
	}
	if m.mode == "foreign-allowed" && o != nil && m.owners[id] != nil {
		o = m.owners[id]
	}
	return o, id
}

func (m *mutatedSeam) Send(ctx context.Context, o *core.Owner, id core.SessionID, req core.SendRequest) (core.SendOperation, error) {
	o, id = m.real(o, id)
	return m.Terminals.Send(ctx, o, id, req)
}

func (m *mutatedSeam) Read(o *core.Owner, id core.SessionID, req core.PageRequest) (core.PageResult, error) {
	o, id = m.real(o, id)
	if m.mode == "page-offset" && !req.Newest {
		req.Start++
	}
	return m.Terminals.Read(o, id, req)
}

func (m *mutatedSeam) Signal(ctx context.Context, o *core.Owner, id core.SessionID, req core.SignalRequest) (core.SignalResult, error) {
	o, id = m.real(o, id)
	return m.Terminals.Signal(ctx, o, id, req)
}

func (m *mutatedSeam) Resize(ctx context.Context, o *core.Owner, id core.SessionID, size core.Size) error {
	o, id = m.real(o, id)
	return m.Terminals.Resize(ctx, o, id, size)
}

func (m *mutatedSeam) Info(o *core.Owner, id core.SessionID) (core.SessionInfo, error) {
	o, id = m.real(o, id)
	return m.Terminals.Info(o, id)
}

func (m *mutatedSeam) Close(ctx context.Context, o *core.Owner, id core.SessionID, reason string) (bool, error) {
	o, id = m.real(o, id)
	closed, err := m.Terminals.Close(ctx, o, id, reason)
	if m.mode == "close-always-true" && err == nil {
		closed = true
	}
	return closed, err
}

// mutatedBackend breaks one rule of a backend.
type mutatedBackend struct {
	core.Backend
	mode string
}

func (b mutatedBackend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	s, err := b.Backend.Spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	return &mutatedSession{BackendSession: s, mode: b.mode}, nil
}

// mutatedSession passes the settle question through (and no other
// question of the backend's core.Prober).
type mutatedSession struct {
	core.BackendSession
	core.UnimplementedProber
	mode string
	held []byte // drop-tail: the chunk not yet returned
}

func (s *mutatedSession) Read(p []byte) (int, error) {
	if s.mode != "drop-tail" {
		return s.BackendSession.Read(p)
	}
	for {
		n, err := s.BackendSession.Read(p)
		if err == io.EOF {
			return 0, io.EOF // the held chunk is lost
		}
		prev := s.held
		s.held = append([]byte(nil), p[:n]...)
		if len(prev) > 0 || err != nil {
			return copy(p, prev), err
		}
	}
}

func (s *mutatedSession) Facts() core.Facts { return core.Facts{WatchesInput: true} }

func (s *mutatedSession) Foreground() (core.InputBaseline, error) {
	return core.ProberOf(s.BackendSession).Foreground()
}

func (s *mutatedSession) InputWait(base core.InputBaseline, taken uint64) (core.InputWait, error) {
	if s.mode == "ignore-taken" {
		taken = ^uint64(0)
	}
	if s.mode == "ignore-readers" {
		base.Readers = 0
		w, err := core.ProberOf(s.BackendSession).InputWait(base, taken)
		w.Now.Readers = 0
		return w, err
	}
	return core.ProberOf(s.BackendSession).InputWait(base, taken)
}

func (s *mutatedSession) ExitStatus() core.Status {
	st := s.BackendSession.ExitStatus()
	if s.mode == "wrong-status" && st.Exited() && st.Signal == "" {
		st.ExitCode++
	}
	return st
}
