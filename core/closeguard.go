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
	closing signalChan // fired when the first Close begins
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
	g.closing.fire()
	if err := close(); err != nil {
		return err
	}
	g.ok = true
	return nil
}

// Closing is closed when the first Close begins.
func (g *CloseGuard) Closing() <-chan struct{} { return g.closing.wait() }

// IsClosing reports whether Close has begun.
func (g *CloseGuard) IsClosing() bool { return g.closing.isFired() }
