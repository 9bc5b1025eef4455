package core

import (
	"context"
	"errors"
	"log/slog"
	"sync"
)

// Service is the owner-scoped terminal seam. Create it with [New]; it is
// safe for concurrent use. See the package documentation for the contract.
type Service struct {
	opts     Options
	log      *slog.Logger
	registry backendRegistry

	mu         sync.Mutex
	sessions   map[SessionID]*session
	tombstones map[SessionID]*Owner // closed sessions, to answer a repeated close
	tombOrder  []SessionID
	owners     map[*Owner]*ownerState
	disposed   map[*Owner]struct{}
	disposing  bool
	spawns     sync.WaitGroup
	closeHooks []func(*Owner, SessionID) // see OnClose
}

type ownerState struct {
	sessions []*session           // published, in publication order
	names    map[string]SessionID // live or reserved ("" id while a spawn is in flight)
	pending  int                  // spawns in flight
}

// maxTombstones bounds how many closed ids the service remembers; an id
// older than that is answered with NO_SESSION rather than closed:false.
const maxTombstones = 1 << 16

// New returns a Service with no backends registered.
func New(opts Options) *Service {
	opts = opts.withDefaults()
	return &Service{
		opts:       opts,
		log:        opts.Logger,
		sessions:   make(map[SessionID]*session),
		tombstones: make(map[SessionID]*Owner),
		owners:     make(map[*Owner]*ownerState),
		disposed:   make(map[*Owner]struct{}),
	}
}

// Options returns the service's effective options (defaults filled in).
func (s *Service) Options() Options { return s.opts }

// ownerStateLocked returns (creating) the owner's state. s.mu is held.
func (s *Service) ownerStateLocked(o *Owner) *ownerState {
	st := s.owners[o]
	if st == nil {
		st = &ownerState{names: make(map[string]SessionID)}
		s.owners[o] = st
	}
	return st
}

// releaseOwnerLocked forgets an owner's state once it holds nothing.
func (s *Service) releaseOwnerLocked(o *Owner) {
	if st := s.owners[o]; st != nil && st.pending == 0 && len(st.sessions) == 0 {
		delete(s.owners, o)
	}
}

// lookup authorizes owner for id. It returns errSessionClosed (wrapped in
// NO_SESSION) for a session of owner's that was closed.
func (s *Service) lookup(op string, owner *Owner, id SessionID) (*session, error) {
	if owner == nil {
		return nil, newError(CodeInvalidArgument, op, id, "owner is nil")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, d := s.disposed[owner]; d {
		return nil, newError(CodeOwnerDisposed, op, id, "the owner was disposed")
	}
	sess, ok := s.sessions[id]
	if !ok {
		if o, closed := s.tombstones[id]; closed {
			if o != owner {
				return nil, newError(CodeForeignSession, op, id, "the session belongs to another owner")
			}
			return nil, &Error{Code: CodeNoSession, Op: op, Session: id, Msg: "the session was closed", Err: errSessionClosed}
		}
		return nil, newError(CodeNoSession, op, id, "no such session")
	}
	if sess.owner != owner {
		return nil, newError(CodeForeignSession, op, id, "the session belongs to another owner")
	}
	return sess, nil
}

// errSessionClosed marks a NO_SESSION error about a session that existed
// and was closed.
var errSessionClosed = errors.New("closed")

// List returns the owner's live sessions in publication order.
func (s *Service) List(owner *Owner) ([]SessionInfo, error) {
	if owner == nil {
		return nil, newError(CodeInvalidArgument, "list", "", "owner is nil")
	}
	s.mu.Lock()
	if _, d := s.disposed[owner]; d {
		s.mu.Unlock()
		return nil, newError(CodeOwnerDisposed, "list", "", "the owner was disposed")
	}
	var sessions []*session
	if st := s.owners[owner]; st != nil {
		sessions = append(sessions, st.sessions...)
	}
	s.mu.Unlock()
	infos := make([]SessionInfo, 0, len(sessions))
	for _, sess := range sessions {
		infos = append(infos, sess.info())
	}
	return infos, nil
}

// Info describes one of owner's sessions.
func (s *Service) Info(owner *Owner, id SessionID) (SessionInfo, error) {
	sess, err := s.lookup("info", owner, id)
	if err != nil {
		return SessionInfo{}, err
	}
	return sess.info(), nil
}

// HasOwnerActivity reports whether owner has a spawn in flight or a session
// not yet fully closed: true from the start of a spawn to the end of the
// close, with no gap at publication.
func (s *Service) HasOwnerActivity(owner *Owner) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := s.owners[owner]
	return st != nil && (st.pending > 0 || len(st.sessions) > 0)
}

// DisposeOwner closes every session of owner and refuses the owner from
// then on (OWNER_DISPOSED). Spawns in flight for the owner fail. It returns
// the joined close errors, if any; disposing twice is not an error.
func (s *Service) DisposeOwner(ctx context.Context, owner *Owner) error {
	if owner == nil {
		return newError(CodeInvalidArgument, "dispose", "", "owner is nil")
	}
	s.mu.Lock()
	s.disposed[owner] = struct{}{}
	var sessions []*session
	if st := s.owners[owner]; st != nil {
		sessions = append(sessions, st.sessions...)
	}
	s.mu.Unlock()
	s.log.Debug("ptyseam: disposing owner", "owner", owner.Name(), "sessions", len(sessions))
	return s.closeAll(ctx, sessions, "owner disposed")
}

// Shutdown refuses new spawns (SERVICE_DISPOSING), waits for spawns in
// flight, and closes every session. It returns the joined close errors.
func (s *Service) Shutdown(ctx context.Context) error {
	s.mu.Lock()
	s.disposing = true
	s.mu.Unlock()
	waited := make(chan struct{})
	go func() { s.spawns.Wait(); close(waited) }()
	select {
	case <-waited:
	case <-ctx.Done():
		return cancelled("shutdown", "", ctx.Err())
	}
	s.mu.Lock()
	sessions := make([]*session, 0, len(s.sessions))
	for _, st := range s.owners {
		sessions = append(sessions, st.sessions...)
	}
	s.mu.Unlock()
	s.log.Debug("ptyseam: shutting down", "sessions", len(sessions))
	return s.closeAll(ctx, sessions, "service shutdown")
}

// closeAll closes sessions concurrently and joins their errors.
func (s *Service) closeAll(ctx context.Context, sessions []*session, reason string) error {
	errs := make([]error, len(sessions))
	var wg sync.WaitGroup
	for i, sess := range sessions {
		wg.Add(1)
		go func() {
			defer wg.Done()
			_, errs[i] = s.closeSession(ctx, sess, reason)
		}()
	}
	wg.Wait()
	return errors.Join(errs...)
}
