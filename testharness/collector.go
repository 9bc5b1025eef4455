package testharness

import (
	"bytes"
	"context"
	"io"
	"sync"

	"github.com/ptyseam/ptyseam/core"
)

// collector reads a backend session's output on one goroutine, as the
// service does, and lets a test wait for what it expects.
type collector struct {
	mu      sync.Mutex
	buf     []byte
	err     error         // the error that ended reading (io.EOF normally)
	changed chan struct{} // closed and replaced on every change
	done    chan struct{} // closed when reading ended
}

func collect(s core.BackendSession) *collector {
	c := &collector{changed: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(c.done)
		p := make([]byte, 32<<10)
		for {
			n, err := s.Read(p)
			c.mu.Lock()
			c.buf = append(c.buf, p[:n]...)
			if err != nil {
				c.err = err
			}
			close(c.changed)
			c.changed = make(chan struct{})
			c.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return c
}

// snapshot returns a copy of the output so far.
func (c *collector) snapshot() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.buf)
}

// waitFor waits until pred accepts the output so far, reading ends, or ctx
// ends; it returns the output and whether pred accepted it.
func (c *collector) waitFor(ctx context.Context, pred func(out []byte) bool) ([]byte, bool) {
	for {
		c.mu.Lock()
		ok := pred(c.buf)
		out := bytes.Clone(c.buf)
		ch := c.changed
		c.mu.Unlock()
		if ok {
			return out, true
		}
		select {
		case <-ch:
		case <-c.done:
			c.mu.Lock()
			ok, out = pred(c.buf), bytes.Clone(c.buf)
			c.mu.Unlock()
			return out, ok
		case <-ctx.Done():
			return out, false
		}
	}
}

// waitContains waits for s to appear in the output.
func (c *collector) waitContains(ctx context.Context, s string) ([]byte, bool) {
	return c.waitFor(ctx, func(out []byte) bool { return bytes.Contains(out, []byte(s)) })
}

// waitEOF waits until reading ended and returns the whole output and the
// error that ended it; ok is false if ctx ended first.
func (c *collector) waitEOF(ctx context.Context) (out []byte, err error, ok bool) {
	select {
	case <-c.done:
	case <-ctx.Done():
		return c.snapshot(), nil, false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf, c.err, true
}

// endedWithEOF reports whether err is the io.EOF a backend must return.
func endedWithEOF(err error) bool { return err == io.EOF }
