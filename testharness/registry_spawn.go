package testharness

import (
	"context"
	"errors"

	"github.com/ptyseam/ptyseam/core"
)

// Spawn reserves the name and a place in owner's books, has the service
// start the session, and publishes it in the books. The service validates
// the rest of the request, starts the program and waits for its initial
// output, as [core.Service.Spawn] does.
func (r *Registry) Spawn(ctx context.Context, owner *core.Owner, req core.SpawnRequest) (core.SpawnResult, error) {
	if owner == nil {
		return core.SpawnResult{}, refusal(core.CodeInvalidArgument, "spawn", "", "owner is nil")
	}
	if err := core.ValidateName(req.Name); err != nil {
		var e *core.Error
		errors.As(err, &e)
		return core.SpawnResult{}, refusal(e.Code, "spawn", "", e.Msg)
	}
	if r.setupErr != nil {
		return core.SpawnResult{}, r.setupErr
	}
	name := req.Name
	if err := r.reserve(owner, name); err != nil {
		return core.SpawnResult{}, err
	}
	published := false
	defer func() {
		if !published {
			r.unreserve(owner, name)
		}
	}()
	req.Name = "" // names are kept in the books: the service's one owner would see all owners' names as one set
	res, err := r.svc.Spawn(ctx, r.self, req)
	if err != nil {
		return core.SpawnResult{}, err
	}
	if err := r.publish(owner, name, res.ID); err != nil {
		// The owner was disposed, or the registry shut down, meanwhile.
		if _, cerr := r.svc.Close(context.Background(), r.self, res.ID, "spawn abandoned"); cerr != nil {
			ce := &core.CleanupError{Err: cerr}
			errors.As(cerr, &ce) // the service reports a failed close as one
			return core.SpawnResult{}, &core.CleanupError{Cause: err, Err: ce.Err, Survivors: ce.Survivors}
		}
		return core.SpawnResult{}, err
	}
	published = true
	res.Name = name
	return res, nil
}

// reserve counts a spawn in flight for owner and reserves its name.
func (r *Registry) reserve(owner *core.Owner, name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.goneLocked(owner); err != nil {
		return err
	}
	b := r.owners[owner]
	if b == nil {
		b = &ownerBooks{names: make(map[string]core.SessionID)}
		r.owners[owner] = b
	}
	if id, held := b.names[name]; name != "" && held && (id == "" || r.runningLocked(id)) {
		return refusal(core.CodeDuplicateName, "spawn", "", "the owner already has a running session named "+name)
	}
	if r.perOwner > 0 && len(b.live)+b.pending >= r.perOwner {
		return refusal(core.CodeTooManySessions, "spawn", "", "the owner reached its session limit")
	}
	if name != "" {
		b.names[name] = ""
	}
	b.pending++
	r.spawns.Add(1)
	return nil
}

// unreserve undoes reserve for a spawn that did not publish.
func (r *Registry) unreserve(owner *core.Owner, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	b := r.owners[owner]
	b.pending--
	if id, held := b.names[name]; name != "" && held && id == "" {
		delete(b.names, name)
	}
	r.releaseLocked(owner)
	r.spawns.Done()
}

// publish enters a started session in the books, unless the owner was
// disposed or the registry began shutting down meanwhile.
func (r *Registry) publish(owner *core.Owner, name string, id core.SessionID) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	if err := r.goneLocked(owner); err != nil {
		return err
	}
	b := r.owners[owner]
	b.pending--
	b.live = append(b.live, id)
	if name != "" {
		b.names[name] = id
	}
	r.sessions[id] = entry{owner: owner, name: name}
	r.spawns.Done()
	return nil
}

// goneLocked refuses a spawn once the registry is shutting down or the
// owner was disposed. r.mu is held.
func (r *Registry) goneLocked(owner *core.Owner) error {
	switch {
	case r.stopping:
		return refusal(core.CodeServiceDisposing, "spawn", "", "the registry is shutting down")
	case r.disposed[owner]:
		return refusal(core.CodeOwnerDisposed, "spawn", "", "the owner was disposed")
	}
	return nil
}
