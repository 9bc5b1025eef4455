package core

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"time"
)

// Spawn starts a session for owner on the backend req.Type names ("shell"
// by default) and publishes it once the backend succeeded and the initial
// output settled. A failed or cancelled spawn leaves nothing behind; if its
// cleanup failed, the error is a *CleanupError that keeps the cause.
func (s *Service) Spawn(ctx context.Context, owner *Owner, req SpawnRequest) (SpawnResult, error) {
	if owner == nil {
		return SpawnResult{}, newError(CodeInvalidArgument, "spawn", "", "owner is nil")
	}
	if err := validateSpawn(&req); err != nil {
		return SpawnResult{}, WithOp(err, "spawn")
	}
	if err := s.reserve(owner, req.Name); err != nil {
		return SpawnResult{}, err
	}
	published := false
	defer func() {
		if !published {
			s.unreserve(owner, req.Name)
		}
	}()

	b, ok := s.backend(req.Type)
	if !ok {
		return SpawnResult{}, newError(CodeNoBackend, "spawn", "", "no backend of type "+quote(req.Type))
	}
	if err := ctx.Err(); err != nil {
		return SpawnResult{}, cancelled("spawn", "", err)
	}
	id := newSessionID()
	limits := scrollbackWithDefaults(req.Scrollback, s.opts.Scrollback)
	be, err := b.Spawn(ctx, BackendRequest{
		Command: req.Command,
		Dir:     req.Dir,
		Env:     req.Env,
		Size:    req.Size,
		Options: req.Options,
		Marker:  newMarker(),
	})
	if err != nil {
		return SpawnResult{}, spawnError(ctx, err)
	}
	sess := newSession(s, owner, id, req, be, limits)

	if !req.NoInitialWait {
		p := settleParams{
			start:    time.Now(),
			quiet:    s.opts.SpawnQuiet,
			deadline: time.Now().Add(s.opts.SpawnSettle),
			initial:  true,
			gate:     promptGate{any: true},
		}
		if sess.promptMarked {
			p.promptOnly = true
			p.deadline = time.Now().Add(max(s.opts.SpawnSettle, promptSpawnSettle))
		}
		if out := sess.settle(ctx, p, nil); out.reason == WaitPrompt {
			sess.mu.Lock()
			sess.atPrompt, sess.atPromptOutput = true, sess.lastOutput
			sess.noteSettledLocked(WaitPrompt, false)
			sess.mu.Unlock()
		}
	}
	if err := ctx.Err(); err != nil {
		return SpawnResult{}, s.abandon(sess, cancelled("spawn", "", err))
	}
	if err := s.publish(owner, sess); err != nil {
		return SpawnResult{}, s.abandon(sess, err)
	}
	published = true

	sess.mu.Lock()
	var c Cursor
	d := sess.buf.Since(&c, MaxPageLinesLimit, s.opts.MaxResultBytes)
	info := sess.infoLocked()
	sess.mu.Unlock()
	s.log.Debug("ptyseam: session spawned", "session", id, "owner", owner.Name(), "type", req.Type, "pid", info.PID)
	return SpawnResult{SessionInfo: info, SpawnOutput: SpawnOutput{InitialOutput: d.Text, Truncated: d.Truncated}, Cursor: c, Tap: sess.firstTap}, nil
}

// promptSpawnSettle bounds the wait for a marked shell's first prompt: a
// loaded machine can take seconds to start bash.
const promptSpawnSettle = 10 * time.Second

// reserve counts a spawn in flight for owner and reserves its name.
func (s *Service) reserve(owner *Owner, name string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.disposing {
		return newError(CodeServiceDisposing, "spawn", "", "the service is shutting down")
	}
	if _, d := s.disposed[owner]; d {
		return newError(CodeOwnerDisposed, "spawn", "", "the owner was disposed")
	}
	st := s.ownerStateLocked(owner)
	if name != "" {
		if id, taken := st.names[name]; taken && !s.exitedLocked(id) {
			return newError(CodeDuplicateName, "spawn", "", "the owner already has a running session named "+quote(name))
		}
	}
	if max := s.opts.MaxSessionsPerOwner; max > 0 && len(st.sessions)+st.pending >= max {
		return Errorf(CodeTooManySessions, "the owner has %d sessions, the limit", max)
	}
	if max := s.opts.MaxSessions; max > 0 && s.liveLocked() >= max {
		return Errorf(CodeTooManySessions, "the service has %d sessions of all owners together, its limit: close sessions you no longer need", max)
	}
	if name != "" {
		st.names[name] = ""
	}
	st.pending++
	s.spawns.Add(1)
	return nil
}

// unreserve undoes reserve for a spawn that did not publish.
func (s *Service) unreserve(owner *Owner, name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.owners[owner]
	st.pending--
	if name != "" && st.names[name] == "" {
		delete(st.names, name)
	}
	s.releaseOwnerLocked(owner)
	s.spawns.Done()
}

// publish makes sess visible, unless the owner or the service went away
// meanwhile.
func (s *Service) publish(owner *Owner, sess *session) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.disposing {
		return newError(CodeServiceDisposing, "spawn", "", "the service is shutting down")
	}
	if _, d := s.disposed[owner]; d {
		return newError(CodeOwnerDisposed, "spawn", "", "the owner was disposed during the spawn")
	}
	st := s.owners[owner]
	st.pending--
	st.sessions = append(st.sessions, sess)
	if sess.name != "" {
		st.names[sess.name] = sess.id
	}
	s.sessions[sess.id] = sess
	s.spawns.Done()
	return nil
}

// abandon tears down a session that was never published and returns cause,
// or a *CleanupError keeping cause if the teardown failed.
func (s *Service) abandon(sess *session, cause error) error {
	ctx, cancel := context.WithTimeout(context.Background(), s.opts.CloseTimeout)
	defer cancel()
	if err := sess.be.Close(ctx); err != nil {
		return &CleanupError{Cause: cause, Err: err, Survivors: survivorsOf(err)}
	}
	select {
	case <-sess.readerDone:
	case <-ctx.Done():
	}
	return cause
}

// spawnError types a backend's spawn failure.
func spawnError(ctx context.Context, err error) error {
	var ce *CleanupError
	var e *Error
	switch {
	case errors.As(err, &ce):
		return err
	case ctx.Err() != nil:
		return cancelled("spawn", "", errors.Join(ctx.Err(), err))
	case errors.As(err, &e):
		return WithOp(err, "spawn")
	}
	return &Error{Code: CodeSpawnFailed, Op: "spawn", Err: err}
}

func survivorsOf(err error) []int {
	var ce *CleanupError
	if errors.As(err, &ce) {
		return ce.Survivors
	}
	return nil
}

// newMarker returns a random token the backend can use to find the
// session's processes.
func newMarker() string {
	var b [12]byte
	_, _ = rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// exitedLocked reports whether id names a published session whose program
// has exited (its name is free again). s.mu is held.
func (s *Service) exitedLocked(id SessionID) bool {
	sess := s.sessions[id]
	if id == "" || sess == nil {
		return false
	}
	select {
	case <-sess.exitedCh:
		return true
	default:
		return false
	}
}

// liveLocked counts the sessions of every owner, live or being spawned.
// s.mu is held.
func (s *Service) liveLocked() int {
	n := 0
	for _, st := range s.owners {
		n += len(st.sessions) + st.pending
	}
	return n
}
