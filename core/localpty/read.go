//go:build unix

package localpty

import (
	"errors"
	"io"
	"os"
	"sync/atomic"
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
		n, err := s.pollRead(p)
		if n > 0 {
			if draining {
				s.postExitBytes += n
			}
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

// pollRead reads from the master, parking on the poller while the
// terminal has nothing (and until the read deadline). Unlike os.File.Read,
// it is only inside the read window (see countedRead) during the read
// system call itself, not while parked, so the probe can tell an idle
// reader from one holding uncounted bytes.
func (s *session) pollRead(p []byte) (int, error) {
	s.rd.p = p
	err := s.rc.Read(s.rd.fn)
	n, rerr := s.rd.results()
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return 0, err
	case err != nil:
		// The poller refuses only a closed (or closing) descriptor.
		return 0, os.ErrClosed
	}
	return n, rerr
}

// rawRead reads once from the master without the poller (and so without
// the deadline: RawConn.Read would refuse after an expired deadline).
func (s *session) rawRead(p []byte) (int, error) {
	var n int
	var rerr error
	err := s.rc.Control(func(fd uintptr) {
		n, rerr = s.countedRead(int(fd), p) // non-blocking: EAGAIN when empty
	})
	if err != nil {
		return 0, os.ErrClosed // Control refuses only a closed descriptor
	}
	return n, rerr
}

// testHookCountedRead, when set by a test, runs between a read system
// call that returned bytes and their counting: it stands for the reader
// goroutine being descheduled there.
var testHookCountedRead atomic.Pointer[func(s *session, p []byte)]

// countedRead makes one read system call on the master (retried on EINTR)
// and counts what it returned in outputRead, all inside the readInFlight
// window. It never returns a negative count.
func (s *session) countedRead(fd int, p []byte) (int, error) {
	s.readInFlight.Store(true)
	defer s.readInFlight.Store(false)
	for {
		n, err := unix.Read(fd, p)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if n <= 0 {
			if err == nil {
				err = io.EOF // end of file: no slave left
			}
			return 0, err
		}
		if hook := testHookCountedRead.Load(); hook != nil {
			(*hook)(s, p[:n])
		}
		s.outputRead.Add(uint64(n))
		return n, nil
	}
}
