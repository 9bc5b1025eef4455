package jobs

import "github.com/ptyseam/ptyseam/core"

// inputProber is the service's optional foreground probe (*core.Service).
type inputProber interface {
	WaitingForInput(owner *core.Owner, id core.SessionID) (waiting, ok bool, err error)
}

// WaitingForInput reports whether owner's job id waits to read its
// terminal: a PTY job asking a question. ok is false when that cannot be
// told (a pipe job, or a service without a foreground probe); a job that
// has ended does not wait (ok true).
func (m *Manager) WaitingForInput(owner *core.Owner, id string) (waiting, ok bool, err error) {
	j, err := m.lookup("probe", owner, id)
	if err != nil {
		return false, false, err
	}
	p, isProber := m.svc.(inputProber)
	if !isProber {
		return false, false, nil
	}
	if info := j.snapshot(); info.State.Final() {
		return false, info.Backend == BackendPTY, nil
	}
	return p.WaitingForInput(j.sowner, j.sid)
}
