package jobtools

import (
	"github.com/ptyseam/ptyseam/consumers/jobs"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// WaitSource lets pty_wait (ptysession's Sessions.Wait) watch the
// caller's background jobs; bg_launch's readiness watches its job the
// same way.
func WaitSource(m *jobs.Manager) ptysession.WaitSource { return jobWaits{m} }

type jobWaits struct{ m *jobs.Manager }

// Watch implements ptysession.WaitSource: ok is false for an id that is
// not one of owner's jobs (the wait then looks among the sessions).
func (j jobWaits) Watch(owner *core.Owner, id string) (ptysession.WaitWatcher, bool, error) {
	if _, err := j.m.Get(owner, id); err != nil {
		return nil, false, nil
	}
	return jobWatcher{m: j.m, owner: owner, id: id}, true, nil
}

type jobWatcher struct {
	m     *jobs.Manager
	owner *core.Owner
	id    string
}

// Page reads the job's lines from start (the newest line when start is
// negative) as a scrollback page.
func (w jobWatcher) Page(start int64) (core.PageResult, error) {
	req := jobs.ReadRequest{Limit: jobs.MaxReadLimit}
	if start >= 0 {
		req.From = &start
	} else {
		req.Limit = 1
	}
	r, err := w.m.Read(w.owner, w.id, req)
	if err != nil {
		return core.PageResult{}, err
	}
	p := core.PageResult{PageSpan: core.PageSpan{Start: r.Next, End: r.Next, Total: r.Total, First: r.First}}
	if len(r.Lines) > 0 {
		p.Start = r.Lines[0].N
		p.End = r.Lines[len(r.Lines)-1].N + 1
		for _, l := range r.Lines {
			p.Lines = append(p.Lines, l.Text)
		}
		p.Partial = r.Lines[len(r.Lines)-1].Partial
	}
	return p, nil
}

// Status maps the job's state to a session status.
func (w jobWatcher) Status() (core.Status, error) {
	info, err := w.m.Get(w.owner, w.id)
	if err != nil {
		return core.Status{}, err
	}
	if !info.State.Final() {
		return core.Running, nil
	}
	st := core.Status{Kind: core.StatusExited, ExitCode: -1, Signal: info.Signal}
	if info.ExitCode != nil {
		st.ExitCode = *info.ExitCode
	}
	return st, nil
}

// WaitingForInput lets pty_wait's input condition watch a PTY job (a pipe
// job cannot tell, and the condition is refused for it).
func (w jobWatcher) WaitingForInput() (bool, bool, error) {
	return w.m.WaitingForInput(w.owner, w.id)
}
