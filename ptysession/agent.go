package ptysession

import (
	"context"
	"errors"

	"github.com/ptyseam/ptyseam/core"
)

// Agent is one agent's handle on a [Sessions]: every call is made as the
// agent's owner, and Started and Dispose cover everything the agent
// started, its terminals and the things of the attached companions (its
// background jobs). Create it with [Sessions.NewAgent]; it is safe for
// concurrent use.
type Agent struct {
	s     *Sessions
	owner *core.Owner
}

// NewAgent returns a handle for a new owner named name (display only).
func (s *Sessions) NewAgent(name string) *Agent {
	return &Agent{s: s, owner: core.NewOwner(name)}
}

// AgentOf returns a handle for an existing owner.
func (s *Sessions) AgentOf(owner *core.Owner) *Agent { return &Agent{s: s, owner: owner} }

// Owner returns the agent's owner, for companions' own calls (launching a
// job).
func (a *Agent) Owner() *core.Owner { return a.owner }

// Open is [Sessions.Open] as the agent.
func (a *Agent) Open(ctx context.Context, req OpenRequest) (OpenResult, error) {
	return a.s.Open(ctx, a.owner, req)
}

// OpenOrGet is [Sessions.OpenOrGet] as the agent.
func (a *Agent) OpenOrGet(ctx context.Context, req OpenRequest) (OpenResult, bool, error) {
	return a.s.OpenOrGet(ctx, a.owner, req)
}

// Find is [Sessions.Find] as the agent.
func (a *Agent) Find(ctx context.Context, name string) (SessionInfo, error) {
	return a.s.Find(ctx, a.owner, name)
}

// Send is [Sessions.Send] as the agent.
func (a *Agent) Send(ctx context.Context, id SessionID, req SendRequest) (SendResult, error) {
	return a.s.Send(ctx, a.owner, id, req)
}

// Tail is [Sessions.Tail] as the agent.
func (a *Agent) Tail(ctx context.Context, id SessionID, lines int) (TailResult, error) {
	return a.s.Tail(ctx, a.owner, id, lines)
}

// Read is [Sessions.Read] as the agent.
func (a *Agent) Read(ctx context.Context, id SessionID, req ReadRequest) (ReadResult, error) {
	return a.s.Read(ctx, a.owner, id, req)
}

// Signal is [Sessions.Signal] as the agent.
func (a *Agent) Signal(ctx context.Context, id SessionID, sig Signal) (SignalResult, error) {
	return a.s.Signal(ctx, a.owner, id, sig)
}

// Close is [Sessions.Close] as the agent.
func (a *Agent) Close(ctx context.Context, id SessionID) (CloseResult, error) {
	return a.s.Close(ctx, a.owner, id)
}

// Resize is [Sessions.Resize] as the agent.
func (a *Agent) Resize(ctx context.Context, id SessionID, rows, cols int) (ResizeResult, error) {
	return a.s.Resize(ctx, a.owner, id, rows, cols)
}

// Search is [Sessions.Search] as the agent.
func (a *Agent) Search(ctx context.Context, target string, req SearchRequest, sources ...WaitSource) (SearchResult, error) {
	return a.s.Search(ctx, a.owner, target, req, sources...)
}

// Wait is [Sessions.Wait] as the agent.
func (a *Agent) Wait(ctx context.Context, req WaitRequest, sources ...WaitSource) (WaitResult, error) {
	return a.s.Wait(ctx, a.owner, req, sources...)
}

// List is [Sessions.List] as the agent: its terminals only.
func (a *Agent) List(ctx context.Context) (ListResult, error) {
	return a.s.List(ctx, a.owner)
}

// Started is one thing an agent started: a terminal session (Kind
// "terminal") or a companion's (Kind "job": ID is the job id, Name its
// title, Type its backend).
type Started struct {
	// Kind is "terminal" or the companion's Kind.
	Kind string `json:"kind"`
	SessionInfo
}

// KindTerminal is the Kind of a terminal session in [Agent.Started].
const KindTerminal = "terminal"

// Started lists everything the agent started and has not closed or
// dropped: its terminals, oldest first, then each attached companion's
// things in the order they were attached.
func (a *Agent) Started(ctx context.Context) ([]Started, error) {
	l, err := a.s.List(ctx, a.owner)
	if err != nil {
		return nil, err
	}
	out := make([]Started, 0, len(l.Sessions))
	for _, in := range l.Sessions {
		out = append(out, Started{Kind: KindTerminal, SessionInfo: in})
	}
	for _, c := range a.s.attached() {
		infos, err := c.Started(ctx, a.owner)
		if err != nil {
			return out, err
		}
		for _, in := range infos {
			out = append(out, Started{Kind: c.Kind(), SessionInfo: in})
		}
	}
	return out, nil
}

// Dispose ends everything the agent started, in order: the attached
// companions' things first (a job is stopped gracefully and recorded as
// stopped by shutdown), then its terminals; the owner is refused from then
// on. It returns the joined cleanup errors. It is [Sessions.Dispose].
func (a *Agent) Dispose(ctx context.Context) error {
	return a.s.Dispose(ctx, a.owner)
}

// errJoin joins errors, keeping nil for none.
func errJoin(errs ...error) error { return errors.Join(errs...) }
