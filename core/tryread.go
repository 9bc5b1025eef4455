package core

// TryReader is implemented by a backend session that can read output
// without waiting (the local PTY backend). A reader that forwards output
// in frames (the remote agent) gathers what the terminal already holds
// after a Read returned, so that a flood leaves in a few large frames
// instead of one per read system call, and a quiet terminal's output
// leaves at once.
type TryReader interface {
	// TryRead reads into p what the terminal holds now and returns how
	// much that was; it never blocks. It returns 0 and no error when
	// nothing is there, at the end of output, and once the program has
	// exited: Read drains what is left and reports the end by its own
	// rules. An error is unexpected (the caller leaves it to Read too).
	TryRead(p []byte) (int, error)
}
