package localpty

import (
	"errors"
	"syscall"
)

// TryRead reads what the terminal holds now into p, without waiting
// (core.TryReader): one read(2) on the non-blocking master, counted like
// Read's. It returns 0 and no error when the terminal holds nothing, and
// once the top-level process has exited or the session was closed: Read
// then drains and ends the output by its rules. Like Read, it is for the
// one goroutine that reads.
func (s *session) TryRead(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	s.mu.Lock()
	done := s.exitSeen || s.masterClosed
	s.mu.Unlock()
	if done {
		return 0, nil
	}
	n, err := s.rawRead(p)
	switch {
	case n > 0:
		return n, nil
	case err == nil, errors.Is(err, syscall.EAGAIN):
		return 0, nil
	}
	return 0, err
}
