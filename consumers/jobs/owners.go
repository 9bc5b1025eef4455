package jobs

import (
	"fmt"

	"github.com/ptyseam/ptyseam/core"
)

// DefaultMaxJobsPerOwner is the default of Config.MaxJobsPerOwner.
const DefaultMaxJobsPerOwner = 8

// MaxMaxJobsPerOwner is the largest Config.MaxJobsPerOwner.
const MaxMaxJobsPerOwner = 10_000

// Jobs and terminals are kept apart: a job's session is spawned for a
// private core owner the manager makes per agent owner, so that the
// agent's terminal listings, its terminal limit and its pty calls never
// see it, and the agent's job limit counts jobs only. Job ids are minted
// here (core.JobIDPrefix); the core session id stays internal.

// jobOwnerLocked returns the private core owner of owner's jobs, making it
// on first use. m.mu is held.
func (m *Manager) jobOwnerLocked(owner *core.Owner) *core.Owner {
	o := m.owners[owner]
	if o == nil {
		o = core.NewOwner(owner.Name() + "/jobs")
		m.owners[owner] = o
	}
	return o
}

// reserveLocked counts a launch in flight for owner, refusing it with
// TOO_MANY_SESSIONS once owner's jobs (running or ended but not dropped)
// and launches reach Config.MaxJobsPerOwner. m.mu is held.
func (m *Manager) reserveLocked(owner *core.Owner) error {
	running, ended := m.countJobsLocked(owner)
	if n := running + ended + m.pending[owner]; n >= m.cfg.MaxJobsPerOwner {
		return tooManyJobs(m.cfg.MaxJobsPerOwner, running, ended)
	}
	m.pending[owner]++
	return nil
}

// unreserveLocked undoes reserveLocked once the launch is recorded or
// failed. m.mu is held.
func (m *Manager) unreserveLocked(owner *core.Owner) {
	if m.pending[owner]--; m.pending[owner] <= 0 {
		delete(m.pending, owner)
	}
}

// forgetOwnerLocked drops owner's private core owner once it has no jobs
// left. m.mu is held.
func (m *Manager) forgetOwnerLocked(owner *core.Owner) {
	if m.pending[owner] > 0 {
		return
	}
	for _, j := range m.order {
		if j.owner == owner {
			return
		}
	}
	delete(m.owners, owner)
}

// countJobs counts owner's running and ended (undropped) jobs.
func (m *Manager) countJobs(owner *core.Owner) (running, ended int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.countJobsLocked(owner)
}

func (m *Manager) countJobsLocked(owner *core.Owner) (running, ended int) {
	for _, j := range m.order {
		switch {
		case j.owner != owner:
		case j.isExited():
			ended++
		default:
			running++
		}
	}
	return running, ended
}

// tooManyJobs is the job limit's error: it says what to drop or stop.
func ownerDisposed() error {
	return &core.Error{Code: core.CodeOwnerDisposed, Op: "launch", Msg: "the owner was disposed"}
}

func tooManyJobs(limit, running, ended int) error {
	return &core.Error{Code: core.CodeTooManySessions, Op: "launch", Msg: fmt.Sprintf(
		"the job limit is %d and the owner has %d running and %d ended jobs: drop ended jobs, or stop and drop running ones "+
			"(terminal sessions have their own limit and do not count)", limit, running, ended)}
}
