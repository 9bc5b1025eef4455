//go:build unix

package localpty

import (
	"errors"
	"syscall"
)

// TryWrite writes as much of p as the terminal's input buffer takes now,
// without waiting (core.TryIO): one write(2) on the non-blocking
// master. It writes nothing and returns no error while another write is in
// progress or the buffer is full (the program does not read); the caller
// then writes the rest with Write, which its context can end.
func (s *session) TryWrite(p []byte) (int, error) {
	select {
	case s.writeSem <- struct{}{}:
	default:
		return 0, nil // a write is in progress: keep the order, wait in Write
	}
	defer func() { <-s.writeSem }()
	s.writes.Add(1)
	s.mu.Lock()
	closed := s.masterClosed
	s.mu.Unlock()
	if closed {
		return 0, errClosed("write")
	}
	s.tw.p = p
	err := s.rc.Write(s.tw.fn)
	n, werr := s.tw.results()
	if err != nil {
		return 0, errClosed("write")
	}
	switch {
	case werr == nil:
		return n, nil
	case errors.Is(werr, syscall.EAGAIN), errors.Is(werr, syscall.EINTR):
		return 0, nil
	}
	return max(n, 0), werr
}
