package jobs

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// Kind returns "job": what a Manager holds, for listings that show an
// agent's jobs beside its terminals (see ptysession.Companion).
func (m *Manager) Kind() string { return "job" }

// Started describes owner's jobs (running or ended, not dropped) in
// launch order, in the shape of session descriptions: ID is the job id,
// Name its title, Type its backend ("pty" or "pipe"), Status running or
// how it ended, TotalLines the lines it printed. It lets one listing show
// everything an agent started (see ptysession.Companion).
func (m *Manager) Started(ctx context.Context, owner *core.Owner) ([]core.SessionInfo, error) {
	if owner == nil {
		return nil, invalid("list", "owner is nil")
	}
	if err := ctx.Err(); err != nil {
		return nil, &core.Error{Code: core.CodeCancelled, Op: "list", Err: err}
	}
	jobs := m.ownedJobs(owner)
	out := make([]core.SessionInfo, 0, len(jobs))
	for _, j := range jobs {
		in := m.info(j)
		st := core.Running
		switch {
		case in.State == StateRunning || in.State == StateStopping:
		case in.Signal != "":
			st = core.ExitedWithSignal(in.Signal)
		case in.ExitCode != nil:
			st = core.ExitedWithCode(*in.ExitCode)
		default:
			st = core.Status{Kind: core.StatusExited, ExitCode: -1, Reason: string(in.State)}
		}
		out = append(out, core.SessionInfo{
			ID: core.SessionID(in.ID), Name: in.Title, Type: string(in.Backend), PID: in.PID,
			Status: st, Created: in.StartedAt, TotalLines: in.Output.Lines,
		})
	}
	return out, nil
}
