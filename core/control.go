package core

import (
	"context"
	"errors"
	"fmt"
)

// Signal delivers req.Signal to the session's verified foreground process
// group and reports which group it reached. SIGKILL aimed at the session's
// own shell is refused (SIGNAL_REFUSED) unless req.AllowLeader is set. On
// a relay (SpawnRequest.Relay) SIGINT, SIGQUIT and SIGTSTP are written as
// the terminal's control characters, for the far end, and other signals
// are refused unless req.AllowLeader is set.
func (s *Service) Signal(ctx context.Context, owner *Owner, id SessionID, req SignalRequest) (SignalResult, error) {
	sess, err := s.lookup("signal", owner, id)
	if err != nil {
		return SignalResult{}, err
	}
	if !req.Signal.Valid() {
		return SignalResult{}, newError(CodeInvalidArgument, "signal", id, "unknown or disallowed signal "+quote(string(req.Signal)))
	}
	if err := sess.checkUsable("signal"); err != nil {
		return SignalResult{}, err
	}
	sess.mu.Lock()
	_, err = sess.humanGateLocked("signal", false)
	mark := sess.interruptMarkLocked() // before the shell can react
	sess.mu.Unlock()
	if err != nil {
		return SignalResult{}, err
	}
	res, err := sess.deliverSignal(ctx, req)
	if err != nil {
		return res, callError(ctx, "signal", id, err)
	}
	if req.Signal == SIGINT && res.Delivered {
		sess.mu.Lock()
		sess.noteInterruptLocked(mark, res.Leader && !sess.relay, res.TargetPGID != 0 && !sess.relay)
		sess.mu.Unlock()
	}
	if (req.Signal == SIGQUIT || req.Signal == SIGTSTP) && res.Delivered {
		// The command ends or stops and the shell prints a prompt for
		// it: that prompt answers no later send (^\ and ^Z read no line).
		sess.mu.Lock()
		sess.running = false
		sess.mu.Unlock()
	}
	s.log.Debug("ptyseam: signal", "session", id, "signal", req.Signal, "pgid", res.TargetPGID, "delivered", res.Delivered)
	return res, nil
}

// Resize changes the session's terminal size; the program sees SIGWINCH.
func (s *Service) Resize(ctx context.Context, owner *Owner, id SessionID, size Size) error {
	sess, err := s.lookup("resize", owner, id)
	if err != nil {
		return err
	}
	if err := validateSize(size); err != nil {
		return WithOp(err, "resize")
	}
	// The taps' positions are taken, and the taps told, before the
	// terminal changes size: the program may redraw for the new size as
	// soon as it changes, and a screen fed that redraw before it knew of
	// the resize would draw it at the old size.
	sess.mu.Lock()
	if err := sess.usableLocked("resize"); err != nil {
		sess.mu.Unlock()
		return err
	}
	var notes []func(Size)
	for _, t := range sess.taps {
		if n := t.resizeNoteLocked(); n != nil {
			notes = append(notes, n)
		}
	}
	// Observers learn of the resize before the program can redraw for
	// it, so a recording puts it before the redraw's output; a failed
	// resize is reported back to the old size, at the same offsets.
	old := sess.size
	sess.emitLocked(Event{Kind: EventResize, Size: size})
	sess.mu.Unlock()
	for _, n := range notes {
		n(size)
	}
	if err := sess.be.Resize(ctx, size); err != nil {
		sess.mu.Lock()
		sess.emitLocked(Event{Kind: EventResize, Size: old})
		sess.mu.Unlock()
		for _, n := range notes {
			n(old)
		}
		return callError(ctx, "resize", id, err)
	}
	sess.mu.Lock()
	sess.size = size
	sess.mu.Unlock()
	return nil
}

// Write writes data to the session's terminal as is, outside the send
// machinery: it does not settle and returns as soon as the bytes are
// written. Protocol clients (gdb/MI, job input) use it. It fails with
// ErrSendActive while a send is live, so writes never interleave with one.
func (s *Service) Write(ctx context.Context, owner *Owner, id SessionID, data []byte) (int, error) {
	sess, err := s.lookup("write", owner, id)
	if err != nil {
		return 0, err
	}
	if len(data) > s.opts.MaxSendBytes {
		return 0, newError(CodeInvalidArgument, "write", id, "data exceeds the send limit of "+itoa(s.opts.MaxSendBytes)+" bytes")
	}
	// Read even without observers: a line typed into a hidden read goes
	// to the running command, not to the shell (noteInputLocked).
	echo := sess.echoMode()
	sess.mu.Lock()
	if err := sess.usableLocked("write"); err != nil {
		sess.mu.Unlock()
		return 0, err
	}
	if sess.send != nil {
		sess.mu.Unlock()
		return 0, newError(CodeSendActive, "write", id, "a send is live on this session")
	}
	if _, err := sess.humanGateLocked("write", false); err != nil {
		sess.mu.Unlock()
		return 0, err
	}
	sess.noteInputLocked(data, echo != EchoHidden, false)
	sess.emitLocked(sess.inputEvent(data, echo, ""))
	sess.mu.Unlock()
	n, err := sess.be.Write(ctx, data)
	sess.wrote()
	if err != nil {
		if ctx.Err() != nil {
			return n, cancelled("write", id, ctx.Err())
		}
		return n, backendError("write", id, err)
	}
	return n, nil
}

// Wait blocks until the session's program has exited (and its output was
// drained) and returns its status, or until ctx ends.
func (s *Service) Wait(ctx context.Context, owner *Owner, id SessionID) (Status, error) {
	sess, err := s.lookup("wait", owner, id)
	if err != nil {
		return Status{}, err
	}
	select {
	case <-sess.exitedCh:
	case <-ctx.Done():
		return Status{}, cancelled("wait", id, ctx.Err())
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.status, nil
}

func (sess *session) checkUsable(op string) error {
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.usableLocked(op)
}

// callError is the error of a call op that the backend failed with err.
// When the caller's context has ended and err is the context's own error
// or has no code (a backend waiting on a round trip returns ctx.Err(),
// or the transport's words for the abandoned call), it is CANCELLED,
// matching the context's error; otherwise it is backendError's, so a
// backend's coded answer (SESSION_EXITED, SIGNAL_REFUSED) keeps its code.
func callError(ctx context.Context, op string, id SessionID, err error) error {
	cerr := ctx.Err()
	if cerr == nil || CodeOf(err) != "" {
		return backendError(op, id, err)
	}
	if !errors.Is(err, cerr) {
		err = fmt.Errorf("%w (the backend failed after the caller gave up: %w)", cerr, err)
	}
	return cancelled(op, id, err)
}

// backendError gives a backend failure a code if it has none.
func backendError(op string, id SessionID, err error) error {
	var e *Error
	if errors.As(err, &e) {
		if e.Op == "" || e.Session == "" {
			c := *e
			if c.Op == "" {
				c.Op = op
			}
			if c.Session == "" {
				c.Session = id
			}
			return &c
		}
		return err
	}
	return &Error{Code: CodeInternal, Op: op, Session: id, Msg: "the backend failed", Err: err}
}
