package testharness

import (
	"context"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/scrollback"
)

// fakeSession is one session of a Registry. Every field after be is
// guarded by the registry's mutex.
type fakeSession struct {
	r       *Registry
	id      core.SessionID
	owner   *core.Owner
	name    string
	typ     string
	created time.Time
	be      core.BackendSession
	enter   []byte

	readerDone chan struct{} // closed when readLoop returned

	buf        *scrollback.Buffer
	changed    chan struct{} // closed and replaced on every change
	lastOutput time.Time
	status     core.Status
	send       *fakeSend     // the live send
	closing    *fakeTeardown // the close under way
	closed     bool          // a close succeeded
}

// fakeTeardown is one close attempt that concurrent closes share.
type fakeTeardown struct {
	done chan struct{}
	err  error
}

func newFakeSession(r *Registry, owner *core.Owner, id core.SessionID, req core.SpawnRequest, be core.BackendSession, limits core.ScrollbackLimits) *fakeSession {
	s := &fakeSession{
		r: r, id: id, owner: owner, name: req.Name, typ: req.Type,
		created:    time.Now(),
		be:         be,
		enter:      []byte("\r"),
		readerDone: make(chan struct{}),
		buf:        scrollback.New(limits),
		changed:    make(chan struct{}),
		status:     core.Running,
	}
	s.lastOutput = s.created
	if e, ok := be.(core.EnterProvider); ok {
		s.enter = append([]byte(nil), e.Enter()...)
	}
	go s.readLoop()
	return s
}

// notifyLocked wakes every waiter. r.mu is held.
func (s *fakeSession) notifyLocked() {
	close(s.changed)
	s.changed = make(chan struct{})
}

// readLoop moves output into the scrollback until end of output, then
// records the exit status.
func (s *fakeSession) readLoop() {
	defer close(s.readerDone)
	p := make([]byte, 32<<10)
	for {
		n, err := s.be.Read(p)
		if n > 0 {
			s.r.mu.Lock()
			_, _ = s.buf.Write(p[:n])
			s.lastOutput = time.Now()
			s.notifyLocked()
			s.r.mu.Unlock()
		}
		if err != nil {
			break
		}
	}
	<-s.be.Exited()
	st := s.be.ExitStatus()
	if !st.Exited() {
		st = core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: "exit status unknown"}
	}
	s.r.mu.Lock()
	s.status = st
	s.notifyLocked()
	s.r.mu.Unlock()
}

// infoLocked describes the session. r.mu is held.
func (s *fakeSession) infoLocked() core.SessionInfo {
	return core.SessionInfo{
		ID: s.id, Name: s.name, Type: s.typ, PID: s.be.PID(),
		Status: s.status, Created: s.created, TotalLines: s.buf.Total(),
	}
}

// usableLocked says why the session cannot take input or a signal, with
// the codes core.Service uses. r.mu is held.
func (s *fakeSession) usableLocked(op string) error {
	switch {
	case s.closing != nil || s.closed:
		return seamError(core.CodeSessionClosing, op, s.id, "the session is closing")
	case s.status.Exited():
		return seamError(core.CodeSessionExited, op, s.id, "the session's program has exited ("+s.status.String()+")")
	}
	return nil
}

// pageLocked serves cursors: no byte bound, the cursor applies its own.
func (s *fakeSession) pageLocked(req core.PageRequest) (core.PageResult, error) {
	return s.buf.Page(req, 0), nil
}

// settleParams describe one wait for the session to settle.
type settleParams struct {
	start     time.Time
	quiet     time.Duration
	deadline  time.Time
	marks0    scrollback.Marks
	total0    int64           // scrollback lines at the write
	writeDone <-chan struct{} // nil: nothing is being written
	initial   bool            // Spawn's wait for the initial output
}

// settle waits for, in order of precedence: exit or close, a new prompt
// marker on a new line with nothing after it, p.quiet of silence after the write, the
// deadline. cancel closing or ctx ending returns WaitCancelled.
func (s *fakeSession) settle(ctx context.Context, p settleParams, cancel <-chan struct{}) (core.WaitReason, *int) {
	writeDone := p.writeDone
	var wroteAt time.Time
	if writeDone == nil {
		wroteAt = p.start
	}
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	for {
		s.r.mu.Lock()
		ended := s.status.Exited() || s.closing != nil || s.closed
		marks := s.buf.Marks()
		total := s.buf.Total()
		last := s.lastOutput
		changed := s.changed
		s.r.mu.Unlock()

		if ended {
			return core.WaitSessionExit, nil
		}
		now := time.Now()
		wait := p.deadline.Sub(now)
		if !wroteAt.IsZero() {
			// A prompt on a new line: one redrawn in place (readline on
			// SIGWINCH) is not a command finishing.
			if marks.PromptEnds > p.marks0.PromptEnds && marks.TextSincePromptEnd == 0 && total > p.total0 {
				var code *int
				if !p.initial && marks.CommandEnds > p.marks0.CommandEnds && marks.LastExitValid {
					c := marks.LastExitCode
					code = &c
				}
				return core.WaitPrompt, code
			}
			quietSince := later(later(last, wroteAt), p.start)
			if now.Sub(quietSince) >= p.quiet {
				return core.WaitInferredIdle, nil
			}
			wait = min(wait, quietSince.Add(p.quiet).Sub(now))
		}
		if !now.Before(p.deadline) {
			return core.WaitTimeout, nil
		}
		timer.Reset(max(wait, 100*time.Microsecond))
		select {
		case <-changed:
		case <-timer.C:
		case <-writeDone:
			writeDone, wroteAt = nil, time.Now()
		case <-cancel:
			return core.WaitCancelled, nil
		case <-ctx.Done():
			return core.WaitCancelled, nil
		}
		timer.Stop()
	}
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
