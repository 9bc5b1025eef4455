package core

import (
	"context"
	"runtime"
)

// DrainOutput waits until the output written to the terminal of owner's
// session id before the call is in the session: its scrollback pages and
// its taps have it. A program's output is in its terminal once the
// program wrote it, and the session's reader takes it in a moment later;
// a caller that learned by other means that a program wrote or exited (a
// debugger reporting the exit of a program on this terminal) calls
// DrainOutput before it reads, so that nothing is missing.
//
// It waits until, at some moment after the call, the session had taken
// in everything the terminal had received: quickly for a program that
// stopped or exited, but a program that prints without pause may keep it
// waiting until ctx ends. It returns at once once the session's output
// ended (everything is in), UNSUPPORTED when the backend cannot tell (its
// [Prober].OutputEnd answers ErrUnsupported), and CANCELLED when ctx ends
// first.
func (s *Service) DrainOutput(ctx context.Context, owner *Owner, id SessionID) error {
	sess, err := s.lookup("drain", owner, id)
	if err != nil {
		return err
	}
	end, complete, err := sess.probe.OutputEnd()
	if unsupportedProbe(err) {
		return &Error{Code: CodeUnsupported, Op: "drain", Session: id, Msg: "the backend cannot tell where its output ends"}
	}
	for first := true; ; first = false {
		if sess.outputEnded() {
			return nil
		}
		if ctx.Err() != nil {
			return cancelled("drain", id, ctx.Err())
		}
		if !first {
			end, complete, err = sess.probe.OutputEnd()
		}
		if err != nil {
			if sess.outputEnded() {
				return nil
			}
			return backendError("drain", id, err)
		}
		reached, err := sess.waitIngested(ctx, end)
		if err != nil {
			return cancelled("drain", id, err)
		}
		if complete {
			return nil
		}
		if reached {
			// Nothing to wait for yet: a read is between its system call
			// and its count, a matter of microseconds.
			runtime.Gosched()
		}
	}
}

// waitIngested waits until the session took in end bytes of output or its
// output ended; reached reports that it had already.
func (sess *session) waitIngested(ctx context.Context, end uint64) (reached bool, err error) {
	for first := true; ; first = false {
		sess.mu.Lock()
		in := sess.ingested
		changed := sess.changedLocked()
		sess.mu.Unlock()
		if in >= end {
			return first, nil
		}
		select {
		case <-changed:
		case <-sess.readerDone:
			return false, nil
		case <-ctx.Done():
			return false, ctx.Err()
		}
	}
}

// outputEnded reports whether the session's read loop has finished (every
// byte of output is in).
func (sess *session) outputEnded() bool {
	select {
	case <-sess.readerDone:
		return true
	default:
		return false
	}
}
