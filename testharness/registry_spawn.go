package testharness

import (
	"context"
	"crypto/rand"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/core"
)

// Spawn starts a session for owner on the backend req.Type names ("shell"
// when empty), waits for its initial output unless req.NoInitialWait, and
// publishes it. It validates the request, reserves the name and reports
// errors with the same codes as [core.Service.Spawn].
func (r *Registry) Spawn(ctx context.Context, owner *core.Owner, req core.SpawnRequest) (core.SpawnResult, error) {
	if owner == nil {
		return core.SpawnResult{}, seamError(core.CodeInvalidArgument, "spawn", "", "owner is nil")
	}
	if err := validateSpawnRequest(&req); err != nil {
		return core.SpawnResult{}, err
	}
	if err := r.reserve(owner, req.Name); err != nil {
		return core.SpawnResult{}, err
	}
	published := false
	defer func() {
		if !published {
			r.unreserve(owner, req.Name)
		}
	}()

	r.mu.Lock()
	b, ok := r.backends[req.Type]
	setupErr := r.setupErr
	r.mu.Unlock()
	switch {
	case setupErr != nil:
		return core.SpawnResult{}, setupErr
	case !ok:
		return core.SpawnResult{}, seamError(core.CodeNoBackend, "spawn", "", "no backend of type "+req.Type)
	case ctx.Err() != nil:
		return core.SpawnResult{}, &core.Error{Code: core.CodeCancelled, Op: "spawn", Err: ctx.Err()}
	}
	id := newFakeID()
	be, err := b.Spawn(ctx, core.BackendRequest{
		Command: req.Command, Dir: req.Dir, Env: req.Env, Size: req.Size,
		Options: req.Options, Marker: randomHex(12),
	})
	if err != nil {
		return core.SpawnResult{}, typeSpawnError(ctx, err)
	}
	s := newFakeSession(r, owner, id, req, be, limitsWithDefaults(req.Scrollback, r.opts.Scrollback))
	if !req.NoInitialWait {
		now := time.Now()
		s.settle(ctx, settleParams{start: now, quiet: r.opts.SpawnQuiet, deadline: now.Add(r.opts.SpawnSettle), initial: true}, nil)
	}
	if err := ctx.Err(); err != nil {
		return core.SpawnResult{}, r.abandon(s, &core.Error{Code: core.CodeCancelled, Op: "spawn", Err: err})
	}
	if err := r.publish(owner, s); err != nil {
		return core.SpawnResult{}, r.abandon(s, err)
	}
	published = true

	r.mu.Lock()
	defer r.mu.Unlock()
	var c core.Cursor
	d, _ := c.Next(s.pageLocked, core.MaxPageLinesLimit, r.opts.MaxResultBytes)
	return core.SpawnResult{SessionInfo: s.infoLocked(), InitialOutput: d.Text, Truncated: d.Truncated}, nil
}

// reserve counts a spawn in flight and reserves its name.
func (r *Registry) reserve(owner *core.Owner, name string) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.stopping:
		return seamError(core.CodeServiceDisposing, "spawn", "", "the registry is shutting down")
	case r.disposed[owner]:
		return seamError(core.CodeOwnerDisposed, "spawn", "", "the owner was disposed")
	}
	o := r.owners[owner]
	if o == nil {
		o = &fakeOwner{names: make(map[string]bool)}
		r.owners[owner] = o
	}
	if name != "" && (o.names[name] || o.runningNamedLocked(name)) {
		return seamError(core.CodeDuplicateName, "spawn", "", "the owner already has a running session named "+name)
	}
	if m := r.opts.MaxSessionsPerOwner; m > 0 && len(o.sessions)+o.pending >= m {
		return seamError(core.CodeTooManySessions, "spawn", "", "the owner reached its session limit")
	}
	if name != "" {
		o.names[name] = true
	}
	o.pending++
	r.spawns.Add(1)
	return nil
}

// unreserve undoes reserve for a spawn that did not publish.
func (r *Registry) unreserve(owner *core.Owner, name string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	o := r.owners[owner]
	o.pending--
	if name != "" {
		delete(o.names, name)
	}
	r.forgetOwnerLocked(owner)
	r.spawns.Done()
}

// publish makes s visible unless the registry or the owner went away.
func (r *Registry) publish(owner *core.Owner, s *fakeSession) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.stopping:
		return seamError(core.CodeServiceDisposing, "spawn", "", "the registry is shutting down")
	case r.disposed[owner]:
		return seamError(core.CodeOwnerDisposed, "spawn", "", "the owner was disposed during the spawn")
	}
	o := r.owners[owner]
	o.pending--
	delete(o.names, s.name) // reserved no more: the session holds it while it runs
	o.sessions = append(o.sessions, s)
	r.sessions[s.id] = s
	r.spawns.Done()
	return nil
}

// abandon closes an unpublished session and returns cause, or a
// *core.CleanupError keeping cause.
func (r *Registry) abandon(s *fakeSession, cause error) error {
	ctx, cancel := context.WithTimeout(context.Background(), r.opts.CloseTimeout)
	defer cancel()
	if err := s.be.Close(ctx); err != nil {
		return &core.CleanupError{Cause: cause, Err: err, Survivors: survivors(err)}
	}
	select {
	case <-s.readerDone:
	case <-ctx.Done():
	}
	return cause
}

// forgetOwnerLocked drops an owner's state once it holds nothing.
func (r *Registry) forgetOwnerLocked(owner *core.Owner) {
	if o := r.owners[owner]; o != nil && o.pending == 0 && len(o.sessions) == 0 {
		delete(r.owners, owner)
	}
}

// validateSpawnRequest applies core.Service's rules and defaults.
func validateSpawnRequest(req *core.SpawnRequest) error {
	bad := func(msg string) error { return seamError(core.CodeInvalidArgument, "spawn", "", msg) }
	if req.Type == "" {
		req.Type = "shell"
	}
	if len(req.Name) > 256 || !utf8.ValidString(req.Name) || strings.ContainsAny(req.Name, "\x00\n\r") {
		return bad("name must be at most 256 bytes of UTF-8 text on one line")
	}
	for _, a := range req.Command {
		if strings.IndexByte(a, 0) >= 0 {
			return bad("the command contains a NUL byte")
		}
	}
	if strings.IndexByte(req.Dir, 0) >= 0 {
		return bad("dir contains a NUL byte")
	}
	if err := core.ValidateEnv(req.Env); err != nil {
		return withOp(err, "spawn")
	}
	if req.Size == (core.Size{}) {
		req.Size = core.DefaultSize
	}
	if err := validSize(req.Size); err != nil {
		return withOp(err, "spawn")
	}
	if l := req.Scrollback; l.MaxLines < 0 || l.MaxBytes < 0 || l.MaxLineBytes < 0 {
		return bad("scrollback limits must not be negative")
	}
	return nil
}

// validSize bounds rows and columns to 1..4096, as core.Service does.
func validSize(sz core.Size) error {
	if sz.Rows == 0 || sz.Cols == 0 || sz.Rows > 4096 || sz.Cols > 4096 {
		return core.Errorf(core.CodeInvalidArgument, "terminal size %dx%d out of range (1..4096)", sz.Rows, sz.Cols)
	}
	return nil
}

// typeSpawnError gives a backend's spawn failure the service's code.
func typeSpawnError(ctx context.Context, err error) error {
	var ce *core.CleanupError
	var e *core.Error
	switch {
	case errors.As(err, &ce):
		return err
	case ctx.Err() != nil:
		return &core.Error{Code: core.CodeCancelled, Op: "spawn", Err: errors.Join(ctx.Err(), err)}
	case errors.As(err, &e):
		return withOp(err, "spawn")
	}
	return &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Err: err}
}

// withOp sets Op on a bare *core.Error.
func withOp(err error, op string) error {
	var e *core.Error
	if errors.As(err, &e) && e.Op == "" {
		c := *e
		c.Op = op
		return &c
	}
	return err
}

func survivors(err error) []int {
	var ce *core.CleanupError
	if errors.As(err, &ce) {
		return ce.Survivors
	}
	return nil
}

var idEncoding = base32.StdEncoding.WithPadding(base32.NoPadding)

// newFakeID mints an id of 128 random bits from crypto/rand.
func newFakeID() core.SessionID {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails on supported platforms
	return core.SessionID("fake_" + strings.ToLower(idEncoding.EncodeToString(b[:])))
}

func randomHex(n int) string {
	b := make([]byte, n)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// runningNamedLocked reports whether one of o's published sessions whose
// program still runs is named name (an exited session frees its name).
// r.mu is held.
func (o *fakeOwner) runningNamedLocked(name string) bool {
	for _, s := range o.sessions {
		if s.name == name && !s.status.Exited() {
			return true
		}
	}
	return false
}
