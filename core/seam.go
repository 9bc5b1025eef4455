package core

import "context"

// Terminals is the seam surface: what the ptysession facade and the
// conformance suites need. [*Service] implements it, and so does the
// testharness's reference registry, so one set of tests holds both to one
// contract.
type Terminals interface {
	// Spawn starts a session for owner and publishes it once the backend
	// succeeded.
	Spawn(ctx context.Context, owner *Owner, req SpawnRequest) (SpawnResult, error)
	// Send writes to a session and returns the live operation; a second
	// send while one is live fails with ErrSendActive.
	Send(ctx context.Context, owner *Owner, id SessionID, req SendRequest) (SendOperation, error)
	// Read returns a bounded page of retained scrollback.
	Read(owner *Owner, id SessionID, req PageRequest) (PageResult, error)
	// Tail returns the output the owner has not been given yet and moves
	// the owner's tail position past it.
	Tail(owner *Owner, id SessionID, req TailRequest) (TailResult, error)
	// SkipTail moves the owner's tail position past all output so far.
	SkipTail(owner *Owner, id SessionID) error
	// Signal signals the session's foreground process group.
	Signal(ctx context.Context, owner *Owner, id SessionID, req SignalRequest) (SignalResult, error)
	// Resize changes the session's terminal size.
	Resize(ctx context.Context, owner *Owner, id SessionID, size Size) error
	// Info describes one session.
	Info(owner *Owner, id SessionID) (SessionInfo, error)
	// List describes the owner's live sessions in publication order.
	List(owner *Owner) ([]SessionInfo, error)
	// Close closes a session to quiescence. It returns true if this call
	// performed the teardown, false if it joined a teardown under way or
	// the session was already closed.
	Close(ctx context.Context, owner *Owner, id SessionID, reason string) (bool, error)
	// DisposeOwner closes all of owner's sessions and refuses the owner
	// from then on.
	DisposeOwner(ctx context.Context, owner *Owner) error
}

// SendOperation is a live send. It settles exactly once.
type SendOperation interface {
	// Done is closed when the send has settled.
	Done() <-chan struct{}
	// Wait blocks until the send settles or ctx is done. A ctx that ends
	// only stops the waiting; it does not cancel the send (use Cancel).
	Wait(ctx context.Context) (SendResult, error)
	// ReadOutput returns the output produced since the previous
	// ReadOutput (or since the write) and advances the operation's cursor.
	// It keeps working after the send settled.
	ReadOutput() OutputDelta
	// Cancel sends SIGINT to the foreground process group and settles the
	// send as cancelled. It returns false if the send had already settled.
	Cancel() bool
}
