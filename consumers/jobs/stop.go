package jobs

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// StopOptions modify a stop.
type StopOptions struct {
	// Drop removes the job's record (and closes its session) once it
	// stopped.
	Drop bool
	// Force skips the grace period: the job is killed at once (reason
	// forced).
	Force bool
}

// killRepeat is how often a forced stop repeats SIGKILL while it waits,
// so that a process group that became the terminal's foreground group
// after the first one died is killed too.
const killRepeat = 100 * time.Millisecond

// Stop stops owner's job id: SIGTERM to its foreground process group,
// SIGKILL when it has not ended after the grace period (then the reason is
// forced), and as a last resort, when it still has not ended
// ForcedStopWait later, its session is closed, which ends every process it
// started but releases its output. Stop returns once the job ended, with
// its final Info. Stopping a job that already ended returns its Info;
// concurrent stops share one. With opts.Drop the record is dropped too.
func (m *Manager) Stop(ctx context.Context, owner *core.Owner, id string, opts StopOptions) (Info, error) {
	j, err := m.lookup("stop", owner, id)
	if err != nil {
		return Info{}, err
	}
	info, err := m.stopJob(ctx, j, ReasonUser, opts.Force)
	if err != nil || !opts.Drop {
		return info, err
	}
	if err := m.dropJob(ctx, j); err != nil {
		return info, err
	}
	return info, nil
}

// StopGroup stops every running job of owner's group, concurrently, and
// returns the final Info of each job it stopped, in launch order. The error
// joins the failures.
func (m *Manager) StopGroup(ctx context.Context, owner *core.Owner, group string, opts StopOptions) ([]Info, error) {
	if owner == nil {
		return nil, invalid("stop_group", "owner is nil")
	}
	if group == "" {
		return nil, invalid("stop_group", "group is empty")
	}
	var targets []*job
	for _, j := range m.ownedJobs(owner) {
		if j.group == group && !j.isExited() {
			targets = append(targets, j)
		}
	}
	infos := make([]Info, len(targets))
	errs := make([]error, len(targets))
	var wg sync.WaitGroup
	for i, j := range targets {
		wg.Add(1)
		go func() {
			defer wg.Done()
			infos[i], errs[i] = m.stopJob(ctx, j, ReasonUser, opts.Force)
			if errs[i] == nil && opts.Drop {
				errs[i] = m.dropJob(ctx, j)
			}
		}()
	}
	wg.Wait()
	return infos, errors.Join(errs...)
}

// stopJob stops j for cause, or joins a stop under way.
func (m *Manager) stopJob(ctx context.Context, j *job, cause StopReason, force bool) (Info, error) {
	j.mu.Lock()
	if j.isExited() {
		j.mu.Unlock()
		return m.info(j), nil
	}
	if done := j.stopDone; done != nil {
		j.mu.Unlock()
		select {
		case <-done:
		case <-ctx.Done():
			return m.info(j), &core.Error{Code: core.CodeCancelled, Op: "stop", Session: j.id, Err: ctx.Err()}
		}
		j.mu.Lock()
		err := j.stopErr
		j.mu.Unlock()
		return m.info(j), err
	}
	j.state = StateStopping
	j.cause = cause
	done := make(chan struct{})
	j.stopDone = done
	j.mu.Unlock()

	err := m.terminate(ctx, j, force)

	j.mu.Lock()
	j.stopErr = err
	if err != nil {
		j.stopDone = nil // a later stop tries again
	}
	close(done)
	j.mu.Unlock()
	return m.info(j), err
}

// terminate ends j's program: see Stop.
func (m *Manager) terminate(ctx context.Context, j *job, force bool) error {
	if !force {
		m.signal(ctx, j, core.SIGTERM)
		grace := time.NewTimer(m.cfg.StopGrace)
		defer grace.Stop()
		select {
		case <-j.exited:
			return nil
		case <-grace.C:
		case <-ctx.Done():
			return &core.Error{Code: core.CodeCancelled, Op: "stop", Session: j.id, Err: ctx.Err()}
		}
	}
	j.mu.Lock()
	if j.isExited() {
		// It ended on the SIGTERM just as the grace ran out: its end is
		// recorded (and published) as it was, not as forced.
		j.mu.Unlock()
		return nil
	}
	j.reason = ReasonForced
	j.mu.Unlock()
	m.log.Info("jobs: killing", "job", j.id, "forced", force)
	giveUp := time.NewTimer(ForcedStopWait)
	defer giveUp.Stop()
	tick := time.NewTicker(killRepeat)
	defer tick.Stop()
	for killed := false; !killed; {
		m.signal(ctx, j, core.SIGKILL)
		select {
		case <-j.exited:
			return nil
		case <-tick.C:
		case <-giveUp.C:
			killed = true
		case <-ctx.Done():
			return &core.Error{Code: core.CodeCancelled, Op: "stop", Session: j.id, Err: ctx.Err()}
		}
	}
	// The program outlived SIGKILL to its foreground group: close the
	// session, which ends every process it started.
	m.log.Warn("jobs: job survived SIGKILL; closing its session", "job", j.id)
	_ = m.info(j) // keep the last statistics
	if _, err := m.svc.Close(ctx, j.sowner, j.sid, "jobs: forced stop"); err != nil && !sessionGone(err) {
		return err
	}
	j.mu.Lock()
	j.released = true
	j.mu.Unlock()
	select {
	case <-j.exited:
		return nil
	case <-ctx.Done():
		return &core.Error{Code: core.CodeCancelled, Op: "stop", Session: j.id, Err: ctx.Err()}
	}
}

// signal delivers sig to j's foreground process group, ignoring a job that
// already ended.
func (m *Manager) signal(ctx context.Context, j *job, sig core.Signal) {
	_, err := m.svc.Signal(ctx, j.sowner, j.sid, core.SignalRequest{Signal: sig, AllowLeader: true})
	if err != nil && !errors.Is(err, core.ErrSessionExited) {
		m.log.Debug("jobs: signal failed", "job", j.id, "signal", sig, "error", err)
	}
}

// Signal delivers sig to owner's job id (its terminal's foreground process
// group, or its process group on pipes). Unlike Stop it does not change the
// job's state: the job ends (failed, with the signal) only if the program
// dies of it.
func (m *Manager) Signal(ctx context.Context, owner *core.Owner, id string, sig core.Signal) (core.SignalResult, error) {
	j, err := m.lookup("signal", owner, id)
	if err != nil {
		return core.SignalResult{}, err
	}
	return m.svc.Signal(ctx, j.sowner, j.sid, core.SignalRequest{Signal: sig, AllowLeader: true})
}
