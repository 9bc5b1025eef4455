//go:build unix

package localpty

import (
	"errors"
	"io"
	"syscall"
)

// TryRead reads what the terminal holds now into p, without waiting
// (core.TryIO): one read(2) on the non-blocking master, counted like
// Read's. It returns 0 and no error when the terminal holds nothing, at
// the end of output, and once the top-level process has exited or the
// session was closed: Read then drains and ends the output by its rules. Like Read, it is for the
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
	case err == nil, errors.Is(err, syscall.EAGAIN), errors.Is(err, syscall.EIO), errors.Is(err, io.EOF):
		// Nothing now, or the end of output (every slave closed, possibly
		// before the waiter saw the exit): the next Read reports it.
		return 0, nil
	}
	return 0, err
}
