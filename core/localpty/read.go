package localpty

import (
	"errors"
	"io"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// maxPostExitBytes bounds what Read returns after the top-level process
// exited while another process keeps the terminal open and busy. What the
// program wrote before exiting is at most what the terminal buffers (about
// 70 KiB on Linux), so the bound never cuts it short.
const maxPostExitBytes = 1 << 20

// Read reads raw terminal output. It returns io.EOF when the terminal
// reports end of output (EIO: every slave descriptor is closed), when the
// session was closed, or when the top-level process has exited and output
// has then been silent for the drain window (another process still holds
// the terminal), or 1 MiB more was read since the exit (a background
// process that never stops printing). Everything the program wrote before
// exiting is returned before io.EOF: the drain window only starts once
// nothing is buffered.
func (s *session) Read(p []byte) (int, error) {
	if len(p) == 0 {
		return 0, nil
	}
	for {
		draining := s.prepareRead()
		if draining && s.postExitBytes >= maxPostExitBytes {
			return 0, io.EOF
		}
		n, err := s.master.Read(p)
		if n > 0 {
			if draining {
				s.postExitBytes += n
			}
			s.outputRead.Add(uint64(n))
			return n, nil
		}
		switch {
		case err == nil:
			continue
		case errors.Is(err, os.ErrDeadlineExceeded):
			if !draining {
				// The waiter interrupted us: the top-level process
				// exited. Loop to read on with a drain deadline.
				continue
			}
			// Silent for the drain window. A last direct read makes
			// sure nothing arrived as the deadline fired.
			n, rerr := s.rawRead(p)
			if n > 0 {
				s.outputRead.Add(uint64(n))
				return n, nil
			}
			if rerr == nil || errors.Is(rerr, syscall.EAGAIN) || errors.Is(rerr, syscall.EIO) || errors.Is(rerr, os.ErrClosed) {
				return 0, io.EOF
			}
			return 0, rerr
		case errors.Is(err, syscall.EIO), errors.Is(err, io.EOF), errors.Is(err, os.ErrClosed):
			return 0, io.EOF
		default:
			return 0, err
		}
	}
}

// prepareRead sets the drain deadline once the top-level process exited
// and reports whether it did. It runs under mu so that it cannot interleave
// with the waiter's wake-up deadline.
func (s *session) prepareRead() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.exitSeen || s.masterClosed {
		return false
	}
	_ = s.master.SetReadDeadline(time.Now().Add(s.opts.DrainWindow))
	return true
}

// rawRead reads once from the master without the poller (and so without
// the deadline: RawConn.Read would refuse after an expired deadline).
func (s *session) rawRead(p []byte) (int, error) {
	rc, err := s.master.SyscallConn()
	if err != nil {
		return 0, err
	}
	var n int
	var rerr error
	err = rc.Control(func(fd uintptr) {
		n, rerr = unix.Read(int(fd), p) // non-blocking: EAGAIN when empty
	})
	if err != nil {
		return 0, err
	}
	if n < 0 {
		n = 0
	}
	return n, rerr
}
