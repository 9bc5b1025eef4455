package testharness

import (
	"context"
	"errors"
	"sync"

	"github.com/ptyseam/ptyseam/core"
)

// Close closes one of owner's sessions to quiescence: a live send settles
// as session_exit, the backend terminates every process the session
// started, and Close returns once they are gone and the output was read.
// It returns true when this call performed the teardown, false when it
// joined one under way or the session was already closed. A foreign
// session is FOREIGN_SESSION, an unknown id NO_SESSION. A failed teardown
// returns a *core.CleanupError and a later Close retries.
func (r *Registry) Close(ctx context.Context, owner *core.Owner, id core.SessionID, reason string) (bool, error) {
	s, err := r.lookup("close", owner, id)
	if err != nil {
		if errors.As(err, new(errClosedOwn)) {
			return false, nil
		}
		return false, err
	}
	return r.closeSession(ctx, s)
}

func (r *Registry) closeSession(ctx context.Context, s *fakeSession) (bool, error) {
	r.mu.Lock()
	if s.closed {
		r.mu.Unlock()
		return false, nil
	}
	if td := s.closing; td != nil {
		r.mu.Unlock()
		select {
		case <-td.done:
			return false, td.err
		case <-ctx.Done():
			return false, &core.Error{Code: core.CodeCancelled, Op: "close", Session: s.id, Err: ctx.Err()}
		}
	}
	td := &fakeTeardown{done: make(chan struct{})}
	s.closing = td
	live := s.send
	s.notifyLocked() // a live send settles as session_exit
	r.mu.Unlock()

	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, r.opts.CloseTimeout)
		defer cancel()
	}
	err := s.be.Close(ctx)
	if err == nil {
		select {
		case <-s.readerDone:
		case <-ctx.Done():
			err = &core.Error{Code: core.CodeCancelled, Op: "close", Session: s.id, Err: ctx.Err()}
		}
	}
	if err != nil {
		var ce *core.CleanupError
		if !errors.As(err, &ce) {
			err = &core.CleanupError{Err: err, Survivors: survivors(err)}
		}
		r.mu.Lock()
		s.closing = nil
		td.err = err
		r.mu.Unlock()
		close(td.done)
		return false, err
	}
	if live != nil {
		<-live.done
	}
	r.mu.Lock()
	s.closed = true
	s.closing = nil
	delete(r.sessions, s.id)
	r.tombs[s.id] = s.owner
	if o := r.owners[s.owner]; o != nil {
		for i, x := range o.sessions {
			if x == s {
				o.sessions = append(o.sessions[:i:i], o.sessions[i+1:]...)
				break
			}
		}
		r.forgetOwnerLocked(s.owner)
	}
	r.mu.Unlock()
	close(td.done)
	return true, nil
}

// DisposeOwner closes every session of owner and refuses the owner from
// then on (OWNER_DISPOSED). It returns the joined close errors; disposing
// twice is not an error.
func (r *Registry) DisposeOwner(ctx context.Context, owner *core.Owner) error {
	if owner == nil {
		return seamError(core.CodeInvalidArgument, "dispose", "", "owner is nil")
	}
	r.mu.Lock()
	r.disposed[owner] = true
	var sessions []*fakeSession
	if o := r.owners[owner]; o != nil {
		sessions = append(sessions, o.sessions...)
	}
	r.mu.Unlock()
	return r.closeAll(ctx, sessions)
}

// Shutdown refuses new spawns (SERVICE_DISPOSING), waits for spawns in
// flight, and closes every session. It returns the joined close errors.
func (r *Registry) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.stopping = true
	r.mu.Unlock()
	waited := make(chan struct{})
	go func() { r.spawns.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-ctx.Done():
		return &core.Error{Code: core.CodeCancelled, Op: "shutdown", Err: ctx.Err()}
	}
	r.mu.Lock()
	var sessions []*fakeSession
	for _, o := range r.owners {
		sessions = append(sessions, o.sessions...)
	}
	r.mu.Unlock()
	return r.closeAll(ctx, sessions)
}

func (r *Registry) closeAll(ctx context.Context, sessions []*fakeSession) error {
	errs := make([]error, len(sessions))
	var wg sync.WaitGroup
	for i, s := range sessions {
		wg.Go(func() { _, errs[i] = r.closeSession(ctx, s) })
	}
	wg.Wait()
	return errors.Join(errs...)
}
