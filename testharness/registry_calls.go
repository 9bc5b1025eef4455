package testharness

import (
	"context"
	"slices"

	"github.com/ptyseam/ptyseam/core"
)

// Each call below checks the books, then is the service's call on the
// registry's one owner.

// Send writes to one of owner's sessions and returns the live operation,
// as [core.Service.Send] does.
func (r *Registry) Send(ctx context.Context, owner *core.Owner, id core.SessionID, req core.SendRequest) (core.SendOperation, error) {
	if _, err := r.check("send", owner, id); err != nil {
		return nil, err
	}
	return r.svc.Send(ctx, r.self, id, req)
}

// Read returns a bounded page of the session's scrollback, as
// [core.Service.Read] does.
func (r *Registry) Read(owner *core.Owner, id core.SessionID, req core.PageRequest) (core.PageResult, error) {
	if _, err := r.check("read", owner, id); err != nil {
		return core.PageResult{}, err
	}
	return r.svc.Read(r.self, id, req)
}

// Signal signals the session's foreground process group, as
// [core.Service.Signal] does.
func (r *Registry) Signal(ctx context.Context, owner *core.Owner, id core.SessionID, req core.SignalRequest) (core.SignalResult, error) {
	if _, err := r.check("signal", owner, id); err != nil {
		return core.SignalResult{}, err
	}
	return r.svc.Signal(ctx, r.self, id, req)
}

// Resize changes the session's terminal size, as [core.Service.Resize]
// does.
func (r *Registry) Resize(ctx context.Context, owner *core.Owner, id core.SessionID, size core.Size) error {
	if _, err := r.check("resize", owner, id); err != nil {
		return err
	}
	return r.svc.Resize(ctx, r.self, id, size)
}

// Info describes one of owner's sessions: the service's description with
// the name from the books.
func (r *Registry) Info(owner *core.Owner, id core.SessionID) (core.SessionInfo, error) {
	e, err := r.check("info", owner, id)
	if err != nil {
		return core.SessionInfo{}, err
	}
	info, err := r.svc.Info(r.self, id)
	info.Name = e.name
	return info, err
}

// List describes owner's live sessions in publication order.
func (r *Registry) List(owner *core.Owner) ([]core.SessionInfo, error) {
	r.mu.Lock()
	switch {
	case owner == nil:
		r.mu.Unlock()
		return nil, refusal(core.CodeInvalidArgument, "list", "", "owner is nil")
	case r.disposed[owner]:
		r.mu.Unlock()
		return nil, refusal(core.CodeOwnerDisposed, "list", "", "the owner was disposed")
	}
	var ids []core.SessionID
	if b := r.owners[owner]; b != nil {
		ids = slices.Clone(b.live)
	}
	r.mu.Unlock()
	infos := []core.SessionInfo{}
	for _, id := range ids {
		if info, err := r.Info(owner, id); err == nil { // an error: closed meanwhile
			infos = append(infos, info)
		}
	}
	return infos, nil
}

// Close closes one of owner's sessions to quiescence, as
// [core.Service.Close] does (true when this call performed the teardown),
// and takes it off the owner's books once it is closed.
func (r *Registry) Close(ctx context.Context, owner *core.Owner, id core.SessionID, reason string) (bool, error) {
	if _, err := r.check("close", owner, id); err != nil {
		return false, err
	}
	return r.closeID(ctx, id, reason)
}

func (r *Registry) closeID(ctx context.Context, id core.SessionID, reason string) (bool, error) {
	closed, err := r.svc.Close(ctx, r.self, id, reason)
	if err == nil {
		r.forget(id)
	}
	return closed, err
}

// DisposeOwner refuses owner from then on (OWNER_DISPOSED) and closes
// every session of its. It returns the joined close errors; disposing
// twice is not an error.
func (r *Registry) DisposeOwner(ctx context.Context, owner *core.Owner) error {
	if owner == nil {
		return refusal(core.CodeInvalidArgument, "dispose", "", "owner is nil")
	}
	r.mu.Lock()
	r.disposed[owner] = true
	var ids []core.SessionID
	if b := r.owners[owner]; b != nil {
		ids = slices.Clone(b.live)
	}
	r.mu.Unlock()
	return r.closeAll(ctx, ids, "owner disposed")
}

// Tail returns the output the owner has not been given yet, as
// [core.Service.Tail] does.
func (r *Registry) Tail(owner *core.Owner, id core.SessionID, req core.TailRequest) (core.TailResult, error) {
	if _, err := r.check("tail", owner, id); err != nil {
		return core.TailResult{}, err
	}
	return r.svc.Tail(r.self, id, req)
}

// SkipTail moves the owner's tail position past all output so far, as
// [core.Service.SkipTail] does.
func (r *Registry) SkipTail(owner *core.Owner, id core.SessionID) error {
	if _, err := r.check("tail", owner, id); err != nil {
		return err
	}
	return r.svc.SkipTail(r.self, id)
}
