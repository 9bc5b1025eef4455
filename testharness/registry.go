package testharness

import (
	"context"
	"errors"
	"log/slog"
	"sync"

	"github.com/ptyseam/ptyseam/core"
)

// Registry is the fake terminals registry: a reference implementation of
// [core.Terminals] that keeps its own books of who owns what and leaves all
// session work to a [core.Service] underneath.
//
// The books are the registry's own, written apart from the service's:
// which owner each session id belongs to, live or closed (FOREIGN_SESSION,
// NO_SESSION); each owner's live sessions in publication order (List), their
// names (DUPLICATE_NAME; a name is free again once its program exited), its
// spawns in flight and its session limit; disposed owners
// (OWNER_DISPOSED); shutdown (SERVICE_DISPOSING).
//
// Everything a session does (starting the program through a registered
// backend, scrollback, pages, sends and how they settle, signals, resizes,
// teardown to quiescence) is the service's, run under one owner private to
// the registry. So once the books allow a call, its result is the service's
// result, with core's types and error values; running the conformance
// suite against both holds the two books of ownership to one contract.
//
// Lock order: r.mu, then the service's locks; the service never calls back
// into the registry.
type Registry struct {
	svc      *core.Service
	self     *core.Owner // the one owner of every session in svc
	perOwner int         // MaxSessionsPerOwner, counted here
	setupErr error       // a bad backend or option given to the constructor

	mu       sync.Mutex
	sessions map[core.SessionID]entry    // every published session, live or closed
	owners   map[*core.Owner]*ownerBooks // owners with live sessions or spawns in flight
	disposed map[*core.Owner]bool        // disposed owners
	stopping bool                        // Shutdown was called
	spawns   sync.WaitGroup              // spawns in flight
}

// entry is what the books know of one session.
type entry struct {
	owner *core.Owner
	name  string
}

// ownerBooks is one owner's share of the books.
type ownerBooks struct {
	live    []core.SessionID          // publication order, not yet closed
	names   map[string]core.SessionID // held names; "" while a spawn reserves one
	pending int                       // spawns in flight
}

var _ core.Terminals = (*Registry)(nil)

// NewRegistry returns a Registry with default options that runs sessions on
// the given backends, selected by their Type. A nil backend, an empty type
// or a type given twice makes every Spawn fail with the error
// [Registry.Register] would have returned (INVALID_ARGUMENT or
// DUPLICATE_BACKEND), so that a misconfigured test fails loudly.
func NewRegistry(backends ...core.Backend) *Registry {
	return NewRegistryWithOptions(core.Options{}, backends...)
}

// NewRegistryWithOptions is [NewRegistry] with the options of the service
// underneath (defaults as in [core.Options]; no logging unless Logger is
// set). MaxSessionsPerOwner is counted by the registry's books. OnSpawn is
// refused (every Spawn fails with INVALID_ARGUMENT): the service sees one
// owner for all sessions, so the hook could not learn the real one.
func NewRegistryWithOptions(opts core.Options, backends ...core.Backend) *Registry {
	r := &Registry{
		self:     core.NewOwner("testharness.Registry"),
		perOwner: opts.MaxSessionsPerOwner,
		sessions: make(map[core.SessionID]entry),
		owners:   make(map[*core.Owner]*ownerBooks),
		disposed: make(map[*core.Owner]bool),
	}
	if opts.OnSpawn != nil {
		r.setupErr = &core.Error{Code: core.CodeInvalidArgument, Op: "spawn", Msg: "a Registry does not run OnSpawn hooks: use a core.Service"}
		opts.OnSpawn = nil
	}
	opts.MaxSessionsPerOwner = 0 // the service's one owner holds every owner's sessions
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	r.svc = core.New(opts)
	for _, b := range backends {
		if _, err := r.Register(b); err != nil && r.setupErr == nil {
			r.setupErr = err
		}
	}
	return r
}

// Register adds a backend under its Type, as [core.Service.Register] does
// (it is that call), so that localpty.Register works on a Registry too. It
// returns a function that removes exactly this registration.
func (r *Registry) Register(b core.Backend) (unregister func(), err error) {
	return r.svc.Register(b)
}

// Shutdown refuses new spawns (SERVICE_DISPOSING), waits for spawns in
// flight, and closes every session. It returns the joined close errors.
func (r *Registry) Shutdown(ctx context.Context) error {
	r.mu.Lock()
	r.stopping = true
	r.mu.Unlock()
	waited := make(chan struct{})
	go func() { r.spawns.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-ctx.Done():
		return &core.Error{Code: core.CodeCancelled, Op: "shutdown", Err: ctx.Err()}
	}
	return r.svc.Shutdown(ctx)
}

// check authorizes owner for id by the books: a nil owner, a disposed
// owner, an id never published and another owner's session (also a closed
// one) are refused here. A closed session of owner's own passes: the
// service answers for it (NO_SESSION, or false from Close).
func (r *Registry) check(op string, owner *core.Owner, id core.SessionID) (entry, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e, ok := r.sessions[id]
	switch {
	case owner == nil:
		return e, refusal(core.CodeInvalidArgument, op, id, "owner is nil")
	case r.disposed[owner]:
		return e, refusal(core.CodeOwnerDisposed, op, id, "the owner was disposed")
	case !ok:
		return e, refusal(core.CodeNoSession, op, id, "no such session")
	case e.owner != owner:
		return e, refusal(core.CodeForeignSession, op, id, "the session belongs to another owner")
	}
	return e, nil
}

func refusal(code core.Code, op string, id core.SessionID, msg string) *core.Error {
	return &core.Error{Code: code, Op: op, Session: id, Msg: msg}
}

// runningLocked reports whether id names a session whose program still
// runs (a closed or exited session frees its name). r.mu is held.
func (r *Registry) runningLocked(id core.SessionID) bool {
	info, err := r.svc.Info(r.self, id)
	return err == nil && !info.Status.Exited()
}

// forget takes a closed session off its owner's books. It is idempotent.
func (r *Registry) forget(id core.SessionID) {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.sessions[id]
	b := r.owners[e.owner]
	if b == nil {
		return
	}
	for i, x := range b.live {
		if x == id {
			b.live = append(b.live[:i:i], b.live[i+1:]...)
			break
		}
	}
	if e.name != "" && b.names[e.name] == id {
		delete(b.names, e.name)
	}
	r.releaseLocked(e.owner)
}

// releaseLocked drops an owner's books once they hold nothing. r.mu is
// held.
func (r *Registry) releaseLocked(owner *core.Owner) {
	if b := r.owners[owner]; b != nil && b.pending == 0 && len(b.live) == 0 {
		delete(r.owners, owner)
	}
}

// closeAll closes sessions concurrently and joins their errors.
func (r *Registry) closeAll(ctx context.Context, ids []core.SessionID, reason string) error {
	errs := make([]error, len(ids))
	var wg sync.WaitGroup
	for i, id := range ids {
		wg.Go(func() { _, errs[i] = r.closeID(ctx, id, reason) })
	}
	wg.Wait()
	return errors.Join(errs...)
}
