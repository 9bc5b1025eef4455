package jobs

import (
	"context"
	"errors"
	"slices"

	"github.com/ptyseam/ptyseam/core"
)

// DropRequest selects the ended jobs whose records to drop: one job by ID,
// or every ended job of Group, or (both empty) every ended job of the
// owner.
type DropRequest struct {
	ID    string
	Group string
}

// DropResult lists what a drop did.
type DropResult struct {
	// Dropped are the ids of the records dropped.
	Dropped []string
	// Skipped are the ids of selected jobs still running (or stopping),
	// which are kept.
	Skipped []string
}

// Drop removes the records of ended jobs: each one's session is closed
// (its output is gone, and so is any process it left behind) and a dropped
// event is published. Dropping a running job by id is a JOB_RUNNING error;
// by group, running jobs are skipped.
func (m *Manager) Drop(ctx context.Context, owner *core.Owner, req DropRequest) (DropResult, error) {
	var res DropResult
	if req.ID != "" && req.Group != "" {
		return res, invalid("drop", "give an id or a group, not both")
	}
	if req.ID != "" {
		j, err := m.lookup("drop", owner, req.ID)
		if err != nil {
			return res, err
		}
		if !j.isExited() {
			return res, jobError(CodeJobRunning, "drop", req.ID, "the job is still running; stop it first (or stop with drop)")
		}
		if err := m.dropJob(ctx, j); err != nil {
			return res, err
		}
		res.Dropped = append(res.Dropped, req.ID)
		return res, nil
	}
	if owner == nil {
		return res, invalid("drop", "owner is nil")
	}
	var errs []error
	for _, j := range m.ownedJobs(owner) {
		if req.Group != "" && j.group != req.Group {
			continue
		}
		if !j.isExited() {
			res.Skipped = append(res.Skipped, string(j.id))
			continue
		}
		if err := m.dropJob(ctx, j); err != nil {
			errs = append(errs, err)
			continue
		}
		res.Dropped = append(res.Dropped, string(j.id))
	}
	return res, errors.Join(errs...)
}

// dropJob closes j's session and removes its record.
func (m *Manager) dropJob(ctx context.Context, j *job) error {
	info := m.info(j)
	if _, err := m.svc.Close(ctx, j.sowner, j.sid, "jobs: dropped"); err != nil && !sessionGone(err) {
		return err
	}
	m.mu.Lock()
	_, present := m.jobs[j.id]
	delete(m.jobs, j.id)
	if i := slices.Index(m.order, j); i >= 0 {
		m.order = slices.Delete(m.order, i, i+1)
	}
	m.forgetOwnerLocked(j.owner)
	m.mu.Unlock()
	j.mu.Lock()
	j.dropped = true
	j.released = true
	j.mu.Unlock()
	if present {
		m.log.Info("jobs: dropped", "job", j.id)
		m.hub.publish(Event{Kind: EventDropped, ID: info.ID, Group: info.Group, Title: info.Title, Info: info})
	}
	return nil
}
