package core

import (
	"context"
	"errors"
	"fmt"
)

// EndWait is how a remote backend session turns a call that its transport
// refused because the session's program has ended into the session's own
// SESSION_EXITED error. The transport learns the end first (an ssh
// channel refuses a window change as soon as the server's close arrives,
// an engine refuses a resize of a stopped container, an agent finds no
// foreground group on a terminal whose program exited), the session a
// moment later (the exit report queued behind, the exit's inspection, the
// agent's answer to the wait). So the call waits, bounded by its context,
// until the session has learnt its end, and then says so with Gone's
// error, which says what to do next and carries the cause of a loss, and
// never with the transport's words, which the service would report as
// INTERNAL. A backend builds one per call, or keeps one.
type EndWait struct {
	// Ended is closed once the session knows its end (its Exited, or the
	// end of its stream).
	Ended <-chan struct{}
	// Closed, when not nil, is closed by the session's Close, which ends
	// the wait as well.
	Closed <-chan struct{}
	// Gone returns the session's SESSION_EXITED error.
	Gone func() error
}

// Err returns the error of a call named op (the transport's name for it,
// such as "ssh window change") that the transport failed with err because
// the session has ended: Gone's error once Ended or Closed is closed (at
// once when one is already). When ctx ends first, or err is ctx's own
// error (the call was cancelled, whatever the session's state), it is a
// CANCELLED error (with no Op, so that the service names its own call)
// that names op and matches both err and ctx's error.
func (w EndWait) Err(ctx context.Context, op string, err error) error {
	if cerr := ctx.Err(); cerr != nil && errors.Is(err, cerr) {
		return &Error{Code: CodeCancelled, Err: fmt.Errorf("%s: %w", op, err)}
	}
	select { // an end already known wins over a context that ended too
	case <-w.Ended:
		return w.Gone()
	case <-w.Closed:
		return w.Gone()
	default:
	}
	select {
	case <-w.Ended:
	case <-w.Closed:
	case <-ctx.Done():
		return &Error{Code: CodeCancelled,
			Err: fmt.Errorf("%s: %w (the session had not learnt its end when the caller gave up: %w)", op, err, ctx.Err())}
	}
	return w.Gone()
}
