package jobs

import "github.com/ptyseam/ptyseam/core"

// ListFilter selects jobs; zero fields select all.
type ListFilter struct {
	Group string
	State State
}

// List returns owner's jobs that match f, in launch order, with fresh
// output statistics and the service addresses found so far.
func (m *Manager) List(owner *core.Owner, f ListFilter) ([]Info, error) {
	if owner == nil {
		return nil, invalid("list", "owner is nil")
	}
	if f.State != "" && !f.State.Valid() {
		return nil, invalid("list", "unknown state "+string(f.State))
	}
	var out []Info
	for _, j := range m.ownedJobs(owner) {
		if f.Group != "" && j.group != f.Group {
			continue
		}
		info := m.info(j)
		if f.State != "" && info.State != f.State {
			continue
		}
		out = append(out, info)
	}
	return out, nil
}

// Get returns one of owner's jobs.
func (m *Manager) Get(owner *core.Owner, id string) (Info, error) {
	j, err := m.lookup("get", owner, id)
	if err != nil {
		return Info{}, err
	}
	return m.info(j), nil
}

// JobOf returns the job id (job_...) of the job whose core session is
// sid, for observers that see every session (the watch page) and name
// a job by the id its owner knows. ok is false for any other session.
func (m *Manager) JobOf(sid core.SessionID) (id string, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	for _, j := range m.order {
		if j.sid == sid {
			return string(j.id), true
		}
	}
	return "", false
}
