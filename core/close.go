package core

import (
	"context"
	"errors"
)

// Close closes one of owner's sessions: it settles a live send (as
// session_exit), terminates every process the session started and returns
// only when they are gone. It returns true when this call performed the
// teardown; false when it joined a teardown already under way or the
// session was already closed. Concurrent closes share one teardown. If the
// teardown fails, the error is a *CleanupError and a later Close retries.
// reason is logged.
func (s *Service) Close(ctx context.Context, owner *Owner, id SessionID, reason string) (bool, error) {
	sess, err := s.lookup("close", owner, id)
	if err != nil {
		if errors.Is(err, errSessionClosed) {
			return false, nil
		}
		return false, err
	}
	return s.closeSession(ctx, sess, reason)
}

func (s *Service) closeSession(ctx context.Context, sess *session, reason string) (bool, error) {
	sess.mu.Lock()
	if sess.closed {
		sess.mu.Unlock()
		return false, nil
	}
	if td := sess.closing; td != nil {
		sess.mu.Unlock()
		select {
		case <-td.done:
			return false, td.err
		case <-ctx.Done():
			return false, cancelled("close", sess.id, ctx.Err())
		}
	}
	td := &teardown{done: make(chan struct{})}
	sess.closing = td
	live := sess.send
	sess.notifyLocked() // a live send settles as session_exit
	sess.mu.Unlock()

	if _, ok := ctx.Deadline(); !ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, s.opts.CloseTimeout)
		defer cancel()
	}
	s.log.Debug("ptyseam: closing session", "session", sess.id, "owner", sess.owner.Name(), "reason", reason)
	err := sess.be.Close(ctx)
	if err == nil {
		select {
		case <-sess.readerDone:
		case <-ctx.Done():
			err = cancelled("close", sess.id, ctx.Err())
		}
	}
	if err != nil {
		var ce *CleanupError
		if !errors.As(err, &ce) {
			err = &CleanupError{Err: err, Survivors: survivorsOf(err)}
		}
		sess.mu.Lock()
		sess.closing = nil // a later Close retries
		td.err = err
		sess.mu.Unlock()
		close(td.done)
		s.log.Warn("ptyseam: close failed", "session", sess.id, "reason", reason, "error", err)
		return false, err
	}

	if live != nil {
		<-live.done // it settles at once: it saw the teardown start
	}
	s.unpublish(sess)
	sess.mu.Lock()
	sess.closed = true
	sess.closing = nil
	if c := sess.control; c != nil { // nobody is in control of a closed session
		sess.control = nil
		close(c.released)
	}
	sess.mu.Unlock()
	close(td.done)
	s.log.Debug("ptyseam: session closed", "session", sess.id, "reason", reason, "status", sess.info().Status.String())
	s.mu.Lock()
	hooks := s.closeHooks
	s.mu.Unlock()
	for _, f := range hooks {
		f(sess.owner, sess.id)
	}
	return true, nil
}

// OnClose has f called after each of the service's sessions is closed,
// whatever closed it (Close, DisposeOwner, Shutdown): the service owns
// every session's lifetime, and the layers that keep state per session
// beside it (the ptysession facade's tail cursors, a screen) drop that
// state here. f runs outside the service's locks and must not block.
func (s *Service) OnClose(f func(owner *Owner, id SessionID)) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closeHooks = append(s.closeHooks[:len(s.closeHooks):len(s.closeHooks)], f)
}

// CloseNotifier is what a [Terminals] implements when it can tell the
// layers above it that a session was closed ([*Service] does).
type CloseNotifier interface {
	OnClose(f func(owner *Owner, id SessionID))
}

// unpublish removes a closed session and remembers its id.
func (s *Service) unpublish(sess *session) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.sessions, sess.id)
	if st := s.owners[sess.owner]; st != nil {
		for i, x := range st.sessions {
			if x == sess {
				st.sessions = append(st.sessions[:i:i], st.sessions[i+1:]...)
				break
			}
		}
		if sess.name != "" && st.names[sess.name] == sess.id {
			delete(st.names, sess.name)
		}
		s.releaseOwnerLocked(sess.owner)
	}
	s.tombstones[sess.id] = sess.owner
	s.tombOrder = append(s.tombOrder, sess.id)
	if len(s.tombOrder) > maxTombstones {
		delete(s.tombstones, s.tombOrder[0])
		s.tombOrder = s.tombOrder[1:]
	}
}
