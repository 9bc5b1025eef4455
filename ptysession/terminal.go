package ptysession

import (
	"context"
	"errors"

	"github.com/ptyseam/ptyseam/core"
)

// Terminal is an owner's terminal addressed by its name (OpenRequest.Name),
// for a toolkit whose agents name their terminals: its calls are the
// facade's calls made on the session the name stands for at the time of
// the call, as [Sessions.Find] resolves it (the running session of that
// name, else the newest exited one not yet closed), so the handle never
// goes stale when the name is opened again. A name authorizes nothing:
// it is looked up among the owner's own sessions and every call is still
// made, and checked, as the owner. An unknown name is NO_SESSION. Create
// it with [Sessions.Terminal] or [Agent.Terminal]; it holds no state and
// is safe for concurrent use.
type Terminal struct {
	s     *Sessions
	owner *core.Owner
	name  string
}

// Terminal returns owner's terminal called name. Nothing is looked up or
// opened until a call.
func (s *Sessions) Terminal(owner *core.Owner, name string) *Terminal {
	return &Terminal{s: s, owner: owner, name: name}
}

// Terminal returns the agent's terminal called name (see
// [Sessions.Terminal]).
func (a *Agent) Terminal(name string) *Terminal { return a.s.Terminal(a.owner, name) }

// Name returns the terminal's name.
func (t *Terminal) Name() string { return t.name }

// Open is [Sessions.OpenOrGet] with the terminal's name: the running
// session of that name, or a new one opened with req (opened reports
// which). req.Name must be empty or the terminal's name.
func (t *Terminal) Open(ctx context.Context, req OpenRequest) (res OpenResult, opened bool, err error) {
	if req.Name != "" && req.Name != t.name {
		return OpenResult{}, false, invalid("open", "", "name", "is %s, but the terminal is called %s: leave it empty",
			core.QuoteForMsg(req.Name), core.QuoteForMsg(t.name))
	}
	req.Name = t.name
	return t.s.OpenOrGet(ctx, t.owner, req)
}

// Info is [Sessions.Find]: the session the name stands for now.
func (t *Terminal) Info(ctx context.Context) (SessionInfo, error) {
	return t.s.Find(ctx, t.owner, t.name)
}

// id resolves the name for op.
func (t *Terminal) id(ctx context.Context, op string) (core.SessionID, error) {
	in, err := t.s.Find(ctx, t.owner, t.name)
	var e *core.Error
	if errors.As(err, &e) && e.Code == core.CodeNoSession {
		return "", &core.Error{Code: e.Code, Op: op, Msg: e.Msg + ": open it first (Terminal.Open)"}
	}
	if err != nil {
		return "", err
	}
	return in.ID, nil
}

// Send is [Sessions.Send] on the session the name stands for.
func (t *Terminal) Send(ctx context.Context, req SendRequest) (SendResult, error) {
	id, err := t.id(ctx, "send")
	if err != nil {
		return SendResult{}, err
	}
	return t.s.Send(ctx, t.owner, id, req)
}

// Tail is [Sessions.Tail] on the session the name stands for.
func (t *Terminal) Tail(ctx context.Context, lines int) (TailResult, error) {
	id, err := t.id(ctx, "tail")
	if err != nil {
		return TailResult{}, err
	}
	return t.s.Tail(ctx, t.owner, id, lines)
}

// Read is [Sessions.Read] on the session the name stands for.
func (t *Terminal) Read(ctx context.Context, req ReadRequest) (ReadResult, error) {
	id, err := t.id(ctx, "read")
	if err != nil {
		return ReadResult{}, err
	}
	return t.s.Read(ctx, t.owner, id, req)
}

// Signal is [Sessions.Signal] on the session the name stands for.
func (t *Terminal) Signal(ctx context.Context, sig Signal) (SignalResult, error) {
	id, err := t.id(ctx, "signal")
	if err != nil {
		return SignalResult{}, err
	}
	return t.s.Signal(ctx, t.owner, id, sig)
}

// Close is [Sessions.Close] on the session the name stands for: the
// running one, else the newest exited one. Once none is left, it is
// NO_SESSION.
func (t *Terminal) Close(ctx context.Context) (CloseResult, error) {
	id, err := t.id(ctx, "close")
	if err != nil {
		return CloseResult{}, err
	}
	return t.s.Close(ctx, t.owner, id)
}

// Resize is [Sessions.Resize] on the session the name stands for.
func (t *Terminal) Resize(ctx context.Context, rows, cols int) (ResizeResult, error) {
	id, err := t.id(ctx, "resize")
	if err != nil {
		return ResizeResult{}, err
	}
	return t.s.Resize(ctx, t.owner, id, rows, cols)
}

// Search is [Sessions.Search] of the retained output of the session the
// name stands for.
func (t *Terminal) Search(ctx context.Context, req SearchRequest) (SearchResult, error) {
	id, err := t.id(ctx, "search")
	if err != nil {
		return SearchResult{}, err
	}
	return t.s.Search(ctx, t.owner, string(id), req)
}

// Wait is [Sessions.Wait] as the terminal's owner, where a condition
// without a Target (other than a port) watches the session the name
// stands for when the wait begins; conditions may still name other
// sessions of the owner, or ids one of sources knows.
func (t *Terminal) Wait(ctx context.Context, req WaitRequest, sources ...WaitSource) (WaitResult, error) {
	id, err := t.id(ctx, "wait")
	if err != nil {
		return WaitResult{}, err
	}
	conds := make([]WaitCondition, len(req.Conditions))
	for i, c := range req.Conditions {
		if c.Target == "" && c.Kind != WaitPort {
			c.Target = string(id)
		}
		conds[i] = c
	}
	req.Conditions = conds
	return t.s.Wait(ctx, t.owner, req, sources...)
}
