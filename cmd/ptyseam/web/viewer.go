package web

import (
	"sync"
)

// viewer is one WebSocket watching one session. Output is queued for it
// under the session's lock and written by its own goroutine; a viewer
// that falls more than its bound behind is ended, never waited for.
type viewer struct {
	max int

	mu     sync.Mutex
	q      [][]byte
	qBytes int
	wake   chan struct{}
	done   chan struct{}
	reason string
}

func newViewer(max int) *viewer {
	return &viewer{max: max, wake: make(chan struct{}, 1), done: make(chan struct{})}
}

// queue adds output for the viewer; b is shared and never changed.
func (v *viewer) queue(b []byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.reason != "" {
		return
	}
	if v.qBytes+len(b) > v.max {
		v.endLocked("this page fell too far behind the terminal's output; reopen the session")
		return
	}
	v.q = append(v.q, b)
	v.qBytes += len(b)
	select {
	case v.wake <- struct{}{}:
	default:
	}
}

// take returns the queued output.
func (v *viewer) take() [][]byte {
	v.mu.Lock()
	defer v.mu.Unlock()
	q := v.q
	v.q, v.qBytes = nil, 0
	return q
}

// end stops the viewer with a reason shown on the page.
func (v *viewer) end(reason string) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.endLocked(reason)
}

func (v *viewer) endLocked(reason string) {
	if v.reason != "" {
		return
	}
	v.reason = reason
	v.q = nil
	close(v.done)
}

func (v *viewer) endReason() string {
	v.mu.Lock()
	defer v.mu.Unlock()
	return v.reason
}
