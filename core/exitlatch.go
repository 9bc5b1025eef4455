package core

import "sync"

// ExitLatch records a backend session's exit once, for the
// BackendSession methods Exited and ExitStatus: the first Set wins, and
// Exited is closed after the status is recorded, so that whoever sees
// Exited closed reads the final status. Its zero value is ready; it must
// not be copied after first use. A backend embeds it or answers with it.
type ExitLatch struct {
	mu     sync.Mutex
	status Status
	cause  error
	done   bool
	exited signalChan
}

// Set records st as the exit status and closes Exited, the first time it
// is called (Set or SetCause); later calls change nothing. It reports
// whether this call recorded the exit.
func (l *ExitLatch) Set(st Status) bool { return l.SetCause(st, nil) }

// SetCause is Set for a backend that learns why its session ended
// together with the status (its Prober.ExitCause answer, such as a lost
// connection): cause is recorded with st by the same first call, and
// Cause returns it.
func (l *ExitLatch) SetCause(st Status, cause error) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.done {
		return false
	}
	l.status, l.cause, l.done = st, cause, true
	l.exited.fire()
	return true
}

// Cause returns the cause SetCause recorded with the exit: nil before the
// exit, and when Set recorded it.
func (l *ExitLatch) Cause() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.cause
}

// Exited is closed once the exit is recorded (Set).
func (l *ExitLatch) Exited() <-chan struct{} { return l.exited.wait() }

// ExitStatus returns the recorded exit status, Running before Set.
func (l *ExitLatch) ExitStatus() Status {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.done {
		return Running
	}
	return l.status
}

// Done reports whether the exit is recorded: Exited is closed.
func (l *ExitLatch) Done() bool { return l.exited.isFired() }
