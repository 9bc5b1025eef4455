//go:build unix

package remote

import (
	"fmt"
	"io"
	"os"
	"syscall"
)

// stdioStream is stdin and stdout as one stream. Both are switched to
// non-blocking mode so that closing them wakes a read in progress (the
// agent closes the stream when ctx ends, then waits for its reader).
func stdioStream() (io.ReadWriteCloser, error) {
	for _, fd := range []int{0, 1} {
		if err := syscall.SetNonblock(fd, true); err != nil {
			return nil, fmt.Errorf("stdio: %w", err)
		}
	}
	return &stdio{in: os.NewFile(0, "stdin"), out: os.NewFile(1, "stdout")}, nil
}
