package ssh

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// requestFailed is the error of a channel request (a window change, a
// signal) that failed with err, named op. The channel refuses requests
// (io.EOF) as soon as the server's close arrives, before the request loop
// has taken the exit report queued ahead of it, so a failed request waits,
// bounded by ctx, until the session has learnt its end (the channel
// closed on both sides, or Close), and then is the typed SESSION_EXITED
// error that says what to do next, never the transport's (core.EndWait).
// A loss the session already knows needs no wait. When ctx ends first (or
// err is ctx's), the error is CANCELLED, names op and matches both err
// and ctx's error.
func (s *session) requestFailed(ctx context.Context, op string, err error) error {
	if ctx.Err() == nil && s.ExitCause() != nil {
		return s.errChannelGone()
	}
	return core.EndWait{Ended: s.reqsDone, Closed: s.closed, Gone: s.errChannelGone}.Err(ctx, op, err)
}

// takeQueued has the request loop take every request the server sent
// before the last answer this session received, bounded by ctx. The
// client queues the server's channel requests in the order they came,
// ahead of any answer that came after them, but the request loop may not
// have taken them yet: a server that refuses a signal because its program
// has just exited (OpenSSH: "no pid for session") sent the exit report
// first, and after takeQueued the session knows it. It fails only with
// ctx's error.
func (s *session) takeQueued(ctx context.Context) error {
	done := make(chan struct{})
	select {
	case s.syncReqs <- done:
	case <-s.reqsDone:
		return nil // the loop took everything: the channel is closed
	case <-ctx.Done():
		return ctx.Err()
	}
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// handleQueued, in the request loop, takes every request already queued.
// It reports whether the channel is still open.
func (s *session) handleQueued() bool {
	for {
		select {
		case r, ok := <-s.reqs:
			if !ok {
				return false
			}
			s.handleRequest(r)
		default:
			return true
		}
	}
}
