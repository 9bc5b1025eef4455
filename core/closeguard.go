package core

import "sync"

// CloseGuard runs a backend session's Close as BackendSession.Close
// promises: calls are serialised, a Close after a successful one returns
// nil at once, and a failed one may be retried. Closing tells the
// session's other goroutines that Close has begun (an exit that follows
// is the session's own doing). Its zero value is ready; it must not be
// copied after first use.
type CloseGuard struct {
	mu      sync.Mutex // held while a Close runs
	ok      bool       // a Close succeeded
	chMu    sync.Mutex
	closing chan struct{} // made on first use; closed when Close begins
}

// Do closes Closing, then runs close unless an earlier close succeeded,
// one call at a time, and returns its error. close is one attempt at the
// session's Close: a nil error makes every later Do return nil without
// running it; an error leaves the next Do to try again.
func (g *CloseGuard) Do(close func() error) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.ok {
		return nil
	}
	g.begin()
	if err := close(); err != nil {
		return err
	}
	g.ok = true
	return nil
}

// Closing is closed when the first Close begins.
func (g *CloseGuard) Closing() <-chan struct{} {
	g.chMu.Lock()
	defer g.chMu.Unlock()
	return g.chanLocked()
}

// IsClosing reports whether Close has begun.
func (g *CloseGuard) IsClosing() bool {
	select {
	case <-g.Closing():
		return true
	default:
		return false
	}
}

// begin closes Closing, once.
func (g *CloseGuard) begin() {
	g.chMu.Lock()
	defer g.chMu.Unlock()
	ch := g.chanLocked()
	select {
	case <-ch:
	default:
		close(ch)
	}
}

func (g *CloseGuard) chanLocked() chan struct{} {
	if g.closing == nil {
		g.closing = make(chan struct{})
	}
	return g.closing
}
