package core

// Read returns a bounded page of the session's retained scrollback by
// absolute line numbers, independent of any cursor. It works on exited
// sessions too, until they are closed.
func (s *Service) Read(owner *Owner, id SessionID, req PageRequest) (PageResult, error) {
	sess, err := s.lookup("read", owner, id)
	if err != nil {
		return PageResult{}, err
	}
	switch {
	case req.Count < 0 || req.Count > MaxPageLinesLimit:
		return PageResult{}, newError(CodeInvalidArgument, "read", id, "count must be between 0 and "+itoa(MaxPageLinesLimit))
	case req.Start < 0 && !req.Newest:
		return PageResult{}, newError(CodeInvalidArgument, "read", id, "start must not be negative")
	}
	if req.Count == 0 {
		req.Count = s.opts.MaxPageLines
	}
	sess.mu.Lock()
	defer sess.mu.Unlock()
	return sess.pageLocked(req), nil
}
