//go:build unix

package localpty

import (
	"context"
	"errors"
	"os"
	"syscall"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// Write writes input to the terminal. It returns when ctx is done even if
// the program does not read (the terminal's input buffer is full): the
// write then reports how much went through and ctx's error. Writes are
// serialized; a Write waiting for another one also gives up when its ctx
// is done.
func (s *session) Write(ctx context.Context, p []byte) (int, error) {
	select {
	case s.writeSem <- struct{}{}:
	case <-ctx.Done():
		return 0, ctx.Err()
	}
	defer func() { <-s.writeSem }()
	s.writes.Add(1)
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	closed := s.masterClosed
	s.mu.Unlock()
	if closed {
		return 0, errClosed("write")
	}
	dl, _ := ctx.Deadline() // zero: no deadline
	_ = s.master.SetWriteDeadline(dl)
	fired := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(fired)
		_ = s.master.SetWriteDeadline(time.Unix(1, 0))
	})
	n, err := s.master.Write(p)
	if !stop() {
		<-fired // never let a late deadline leak into the next Write
	}
	if err == nil {
		return n, nil
	}
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		if cerr := ctx.Err(); cerr != nil {
			return n, cerr
		}
		return n, context.DeadlineExceeded
	case errors.Is(err, os.ErrClosed):
		return n, errClosed("write")
	case errors.Is(err, syscall.EIO):
		return n, wrapErr(core.CodeSessionExited, err, "the terminal is gone")
	}
	return n, err
}
