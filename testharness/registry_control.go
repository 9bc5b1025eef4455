package testharness

import (
	"context"
	"errors"

	"github.com/ptyseam/ptyseam/core"
)

// Read returns a bounded page of the session's scrollback by absolute line
// numbers. Count 0 takes the default page size; a negative Count, one above
// core.MaxPageLinesLimit, or a negative Start without Newest is
// INVALID_ARGUMENT. Exited sessions can be read until they are closed.
func (r *Registry) Read(owner *core.Owner, id core.SessionID, req core.PageRequest) (core.PageResult, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.lookupLocked("read", owner, id)
	if err != nil {
		return core.PageResult{}, err
	}
	switch {
	case req.Count < 0 || req.Count > core.MaxPageLinesLimit:
		return core.PageResult{}, seamError(core.CodeInvalidArgument, "read", id, "count must be between 0 and 10000")
	case req.Start < 0 && !req.Newest:
		return core.PageResult{}, seamError(core.CodeInvalidArgument, "read", id, "start must not be negative")
	}
	if req.Count == 0 {
		req.Count = r.opts.MaxPageLines
	}
	return s.buf.Page(req, r.opts.MaxResultBytes), nil
}

// Signal delivers req.Signal to the session's foreground process group
// through the backend.
func (r *Registry) Signal(ctx context.Context, owner *core.Owner, id core.SessionID, req core.SignalRequest) (core.SignalResult, error) {
	s, err := r.usable("signal", owner, id, func() error {
		if !req.Signal.Valid() {
			return seamError(core.CodeInvalidArgument, "signal", id, "unknown or disallowed signal "+string(req.Signal))
		}
		return nil
	})
	if err != nil {
		return core.SignalResult{}, err
	}
	res, err := s.be.Signal(ctx, req)
	if err != nil {
		return res, backendFailure("signal", id, err)
	}
	return res, nil
}

// Resize changes the session's terminal size.
func (r *Registry) Resize(ctx context.Context, owner *core.Owner, id core.SessionID, size core.Size) error {
	s, err := r.usable("resize", owner, id, func() error { return withOp(validSize(size), "resize") })
	if err != nil {
		return err
	}
	if err := s.be.Resize(ctx, size); err != nil {
		return backendFailure("resize", id, err)
	}
	return nil
}

// usable looks the session up, runs check, and refuses a closing or exited
// session, in the order core.Service does.
func (r *Registry) usable(op string, owner *core.Owner, id core.SessionID, check func() error) (*fakeSession, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.lookupLocked(op, owner, id)
	if err != nil {
		return nil, err
	}
	if err := check(); err != nil {
		return nil, err
	}
	if err := s.usableLocked(op); err != nil {
		return nil, err
	}
	return s, nil
}

// Info describes one of owner's sessions.
func (r *Registry) Info(owner *core.Owner, id core.SessionID) (core.SessionInfo, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	s, err := r.lookupLocked("info", owner, id)
	if err != nil {
		return core.SessionInfo{}, err
	}
	return s.infoLocked(), nil
}

// List describes owner's live sessions in publication order.
func (r *Registry) List(owner *core.Owner) ([]core.SessionInfo, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case owner == nil:
		return nil, seamError(core.CodeInvalidArgument, "list", "", "owner is nil")
	case r.disposed[owner]:
		return nil, seamError(core.CodeOwnerDisposed, "list", "", "the owner was disposed")
	}
	infos := []core.SessionInfo{}
	if o := r.owners[owner]; o != nil {
		for _, s := range o.sessions {
			infos = append(infos, s.infoLocked())
		}
	}
	return infos, nil
}

// backendFailure gives a backend error the session and operation, or the
// INTERNAL code if it has none.
func backendFailure(op string, id core.SessionID, err error) error {
	var e *core.Error
	if errors.As(err, &e) {
		c := *e
		if c.Op == "" {
			c.Op = op
		}
		if c.Session == "" {
			c.Session = id
		}
		return &c
	}
	return &core.Error{Code: core.CodeInternal, Op: op, Session: id, Msg: "the backend failed", Err: err}
}
