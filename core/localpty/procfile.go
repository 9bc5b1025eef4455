//go:build unix

package localpty

import (
	"errors"
	"os"
	"sync"
	"syscall"

	"golang.org/x/sys/unix"
)

// procFile is a /proc file that is read again and again: the status of
// the top-level process's main thread, whose wake-up count is read before
// every send. It is opened once and read from its start with pread, which
// makes the kernel generate it anew, where opening it each time costs a
// path walk and three more system calls (open, the read that finds the
// end, close) on the send's way to its write.
type procFile struct {
	path string
	// mu is held across each read, so that close never releases the
	// descriptor under one (its number could be reused meanwhile).
	mu     sync.Mutex
	fd     int
	open   bool
	closed bool
}

// errProcFileClosed is read's error once the file was closed: the
// process it describes has been reaped.
var errProcFileClosed = errors.New("the process was reaped")

// read returns the file's content, read into buf's array when it fits.
func (f *procFile) read(buf []byte) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.closed {
		return nil, errProcFileClosed
	}
	if !f.open {
		fd, err := unix.Open(f.path, unix.O_RDONLY|unix.O_CLOEXEC, 0)
		if err != nil {
			return nil, &os.PathError{Op: "open", Path: f.path, Err: err}
		}
		f.fd, f.open = fd, true
	}
	buf = buf[:cap(buf)]
	if len(buf) == 0 {
		buf = make([]byte, 512) // doubled below until the file fits
	}
	for {
		n, err := unix.Pread(f.fd, buf, 0)
		switch {
		case errors.Is(err, syscall.EINTR):
			continue
		case err != nil:
			return nil, &os.PathError{Op: "read", Path: f.path, Err: err}
		case n < len(buf):
			return buf[:n], nil
		}
		// It may not fit: a larger buffer, from the start again (a
		// read at an offset would make the kernel generate it twice).
		buf = make([]byte, 2*len(buf))
	}
}

// close releases the descriptor; read fails from then on.
func (f *procFile) close() {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.open {
		_ = unix.Close(f.fd)
	}
	f.open, f.closed = false, true
}
