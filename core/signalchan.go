package core

import "sync"

// signalChan is a channel that is made on first use and closed at most
// once: a one-time signal whose zero value is ready (the exit of an
// ExitLatch, the start of a CloseGuard's Close).
type signalChan struct {
	mu    sync.Mutex
	ch    chan struct{}
	fired bool
}

// wait returns the channel, closed once fire was called.
func (c *signalChan) wait() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.chLocked()
}

// fire closes the channel; later calls do nothing.
func (c *signalChan) fire() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.fired {
		close(c.chLocked())
		c.fired = true
	}
}

// isFired reports whether fire was called.
func (c *signalChan) isFired() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.fired
}

func (c *signalChan) chLocked() chan struct{} {
	if c.ch == nil {
		c.ch = make(chan struct{})
	}
	return c.ch
}
