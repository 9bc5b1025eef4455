package core

// TailRequest bounds a read of the output a session's owner has not been
// given yet (see [Service.Tail]).
type TailRequest struct {
	// Lines is the most lines returned (0: MaxPageLinesLimit); when more
	// are pending, the newest are returned.
	Lines int
	// Bytes is about the most bytes returned (0: DefaultMaxOutputBytes);
	// when more are pending, the newest part is returned.
	Bytes int
	// KeepErrors fits pending output that exceeds the bounds with
	// [CutLines] (its first lines, its newest lines and the lines between
	// that look like errors, with a marker line per run left out) instead
	// of keeping only the newest part.
	KeepErrors bool
}

// TailResult is what a tail returned: the output and, for a request with
// KeepErrors, the runs of lines a cut left out (each still readable by
// line number with [Service.Read], unless the scrollback dropped it).
type TailResult struct {
	OutputDelta
	Cut []LineRange `json:"cut,omitempty"`
}

// Tail returns the output of owner's session id that owner has not been
// given yet and moves owner's tail position past it. A session has one
// tail position, its owner's: [Service.Tail], a send with
// [SendRequest.Tail] and [Service.SkipTail] move it; the output stays in
// the scrollback for [Service.Read]. A new session's position is its
// first line.
func (s *Service) Tail(owner *Owner, id SessionID, req TailRequest) (TailResult, error) {
	sess, err := s.lookup("tail", owner, id)
	if err != nil {
		return TailResult{}, err
	}
	if err := checkTail("tail", id, req); err != nil {
		return TailResult{}, err
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.tailLocked(req), nil
}

// SkipTail moves owner's tail position of session id past everything the
// session printed so far, without returning it: for a caller that showed
// the output another way (a screen of a full-screen program), or takes
// over a session driven past it. An unterminated last line (a prompt)
// counts as given: the next tail continues it.
func (s *Service) SkipTail(owner *Owner, id SessionID) error {
	sess, err := s.lookup("tail", owner, id)
	if err != nil {
		return err
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	sess.tail = sess.buf.End()
	return nil
}

// checkTail validates a tail's bounds.
func checkTail(op string, id SessionID, req TailRequest) error {
	switch {
	case req.Lines < 0 || req.Lines > MaxPageLinesLimit:
		return invalidField(op, id, "lines", "must be between 0 and "+itoa(MaxPageLinesLimit)+", got "+itoa(req.Lines))
	case req.Bytes < 0:
		return invalidField(op, id, "bytes", "must not be negative")
	}
	return nil
}

// tailLocked reads the owner's unseen output and moves the tail past it.
// sess.mu is held.
func (sess *session) tailLocked(req TailRequest) TailResult {
	if req.Lines == 0 {
		req.Lines = MaxPageLinesLimit
	}
	if req.Bytes == 0 {
		req.Bytes = DefaultMaxOutputBytes
	}
	// Only the lines past the tail are read, each page within the page
	// bound (pageLocked's).
	read := sess.buf.ReadFor(sess.tail, sess.svc.opts.MaxResultBytes)
	if req.KeepErrors {
		d, cut, _ := nextKeepingErrors(&sess.tail, read, req.Lines, req.Bytes) // read never fails
		return TailResult{OutputDelta: d, Cut: cut}
	}
	d, _ := sess.tail.Next(read, req.Lines, req.Bytes)
	return TailResult{OutputDelta: d}
}
