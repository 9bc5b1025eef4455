package core

// TryWriter is implemented by a backend session that can write input
// without waiting (the local PTY backend). A send first offers its data to
// TryWrite on the caller's goroutine: a terminal with room takes it at
// once, and the send pays no hand-off to a writing goroutine. Whatever is
// left (a full terminal, another write in progress) goes through the
// cancellable BackendSession.Write as before, so a write into a terminal
// that does not read still ends with the send's context.
type TryWriter interface {
	// TryWrite writes as much of p as the terminal takes now and returns
	// how much that was; it never blocks. It returns 0 and no error when
	// nothing could be written without waiting; an error only when the
	// terminal is gone (the caller then leaves the rest to Write, which
	// reports it).
	TryWrite(p []byte) (int, error)
}
