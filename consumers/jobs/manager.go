package jobs

import (
	"context"
	"errors"
	"log/slog"
	"slices"
	"sync"

	"github.com/ptyseam/ptyseam/consumers/jobs/pipebackend"
	"github.com/ptyseam/ptyseam/core"
)

// Manager runs background jobs on a core service. Create it with [New]; it
// is safe for concurrent use. Every method that names a job takes the
// caller's owner and answers only the owner that launched it.
type Manager struct {
	svc Service
	cfg Config
	log *slog.Logger
	hub *hub

	ctx    context.Context // ends at Shutdown: stops the watchers
	cancel context.CancelFunc

	mu           sync.Mutex
	jobs         map[core.SessionID]*job
	order        []*job                      // launch order
	owners       map[*core.Owner]*core.Owner // agent owner -> private core owner of its jobs
	pending      map[*core.Owner]int         // launches in flight per agent owner
	disposed     map[*core.Owner]struct{}    // owners whose launches are refused
	closed       bool
	unregPipe    func() // set when this manager registered the pipe backend
	launches     sync.WaitGroup
	watchers     sync.WaitGroup
	shutdownDone chan struct{}
	shutdownErr  error
}

// New validates cfg and returns a Manager that runs jobs on svc. When jobs
// will run on pipes (Backend "pipe", or "auto" without a PTY backend) and
// svc has no "pipe" backend yet, New registers one (pipebackend) and
// Shutdown unregisters it. For "pty" the service must have cfg.PTYType
// registered (core/localpty.Register does that). Call Shutdown when done,
// before shutting svc down: it stops the jobs (reason shutdown) and ends the
// manager's goroutines.
func New(svc Service, cfg Config) (*Manager, error) {
	if svc == nil || isNilService(svc) {
		return nil, invalid("new", "the core service is nil")
	}
	cfg, err := cfg.Validate()
	if err != nil {
		return nil, err
	}
	m := &Manager{
		svc:      svc,
		cfg:      cfg,
		log:      cfg.Logger,
		hub:      newHub(cfg.Logger),
		jobs:     make(map[core.SessionID]*job),
		owners:   make(map[*core.Owner]*core.Owner),
		pending:  make(map[*core.Owner]int),
		disposed: make(map[*core.Owner]struct{}),
	}
	if cfg.Backend == BackendPTY && !m.hasBackend(cfg.PTYType) {
		return nil, &core.Error{Code: core.CodeNoBackend, Op: "new", Msg: "backend pty needs the core backend type " + cfg.PTYType + " registered"}
	}
	m.ctx, m.cancel = context.WithCancel(context.Background())
	if cfg.Notify != nil {
		m.hub.subscribe(m.notifyExit, []EventKind{EventExit})
	}
	m.log.Info("jobs: ready", "backend", cfg.Backend, "bufferCapacity", cfg.BufferCapacity, "stopGrace", cfg.StopGrace, "portScan", !cfg.DisablePortScan)
	return m, nil
}

// Config returns the effective configuration (defaults filled in).
func (m *Manager) Config() Config { return m.cfg }

func (m *Manager) hasBackend(typ string) bool {
	return slices.Contains(m.svc.Backends(), typ)
}

// resolveBackend returns the backend a launch uses and its core type,
// registering the pipe backend on first use when the service lacks one.
func (m *Manager) resolveBackend(want BackendChoice) (BackendChoice, string, error) {
	if want == "" {
		want = m.cfg.Backend
	}
	switch want {
	case BackendPTY:
		if !m.hasBackend(m.cfg.PTYType) {
			return "", "", &core.Error{Code: core.CodeNoBackend, Op: "launch", Msg: "no PTY backend (" + m.cfg.PTYType + ") is registered"}
		}
		return BackendPTY, m.cfg.PTYType, nil
	case BackendAuto:
		if m.hasBackend(m.cfg.PTYType) {
			return BackendPTY, m.cfg.PTYType, nil
		}
		if m.cfg.DisablePipe {
			return "", "", &core.Error{Code: core.CodeNoBackend, Op: "launch", Msg: "no PTY backend (" + m.cfg.PTYType + ") is registered, and pipes are disabled"}
		}
		fallthrough
	case BackendPipe:
		if m.cfg.DisablePipe {
			return "", "", &core.Error{Code: core.CodeUnsupported, Op: "launch", Msg: `pipe jobs are disabled here (every job runs confined on a terminal): launch with backend "pty" or "auto"`}
		}
		if err := m.ensurePipe(); err != nil {
			return "", "", err
		}
		return BackendPipe, pipebackend.Type, nil
	}
	return "", "", invalid("launch", `backend must be "pty", "pipe" or "auto"`)
}

func (m *Manager) ensurePipe() error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.hasBackend(pipebackend.Type) {
		return nil
	}
	unreg, err := pipebackend.Register(m.svc)
	if errors.Is(err, core.ErrDuplicateBackend) {
		return nil // registered meanwhile by someone else
	}
	if err != nil {
		return err
	}
	m.unregPipe = unreg
	return nil
}

// lookup returns owner's job id.
func (m *Manager) lookup(op string, owner *core.Owner, id string) (*job, error) {
	if owner == nil {
		return nil, invalid(op, "owner is nil")
	}
	if !core.IsJobID(id) && core.IsSessionID(id) {
		return nil, jobError(core.CodeWrongKind, op, id, "the id names a terminal session, not a job: use the terminal calls for it")
	}
	m.mu.Lock()
	j := m.jobs[core.SessionID(id)]
	m.mu.Unlock()
	switch {
	case j == nil:
		return nil, jobError(core.CodeNoSession, op, id, "no such job")
	case j.owner != owner:
		return nil, jobError(core.CodeForeignSession, op, id, "the job belongs to another owner")
	}
	return j, nil
}

// ownedJobs returns owner's jobs in launch order.
func (m *Manager) ownedJobs(owner *core.Owner) []*job {
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*job
	for _, j := range m.order {
		if j.owner == owner {
			out = append(out, j)
		}
	}
	return out
}

// Shutdown stops every running job (reason shutdown: SIGTERM, then SIGKILL
// after the grace period), closes every job's session so that no process
// any job started survives, ends event delivery after the queued events,
// and unregisters the pipe backend if New registered it. Launches fail
// from the moment it begins. Concurrent and repeated calls share one
// shutdown; the error joins every cleanup failure.
func (m *Manager) Shutdown(ctx context.Context) error {
	m.mu.Lock()
	if m.closed {
		done := m.shutdownDone
		m.mu.Unlock()
		select {
		case <-done:
			return m.shutdownErr
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	m.closed = true
	m.shutdownDone = make(chan struct{})
	m.mu.Unlock()

	m.launches.Wait() // in-flight launches see closed and undo themselves
	m.mu.Lock()
	all := slices.Clone(m.order)
	m.mu.Unlock()

	var wg sync.WaitGroup
	errs := make([]error, len(all))
	for i, j := range all {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := m.stopJob(ctx, j, ReasonShutdown, false); err != nil {
				errs[i] = err
			}
			if _, err := m.svc.Close(ctx, j.sowner, j.sid, "jobs: shutdown"); err != nil && !sessionGone(err) {
				errs[i] = errors.Join(errs[i], err)
			}
		}()
	}
	wg.Wait()
	m.cancel()
	m.watchers.Wait()
	m.hub.close()
	m.mu.Lock()
	if m.unregPipe != nil {
		m.unregPipe()
		m.unregPipe = nil
	}
	m.shutdownErr = errors.Join(errs...)
	close(m.shutdownDone)
	m.mu.Unlock()
	m.log.Info("jobs: shut down", "jobs", len(all), "error", m.shutdownErr)
	return m.shutdownErr
}

// sessionGone reports whether a close failed only because the job's session
// is already gone: closed, or closed with its owner (DisposeOwner closes
// every session of the owner before it answers).
func sessionGone(err error) bool {
	return errors.Is(err, core.ErrNoSession) || errors.Is(err, core.ErrOwnerDisposed)
}
