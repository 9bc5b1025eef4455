package core

import (
	"slices"
	"sync"
)

// backendRegistry maps backend types to backends.
type backendRegistry struct {
	mu       sync.RWMutex
	backends map[string]Backend
}

// Register adds a backend under its Type. It returns a function that
// removes exactly this registration. An empty type is INVALID_ARGUMENT; a
// type already taken is DUPLICATE_BACKEND. Unregistering does not affect
// sessions the backend already started.
func (s *Service) Register(b Backend) (unregister func(), err error) {
	if b == nil {
		return nil, newError(CodeInvalidArgument, "register", "", "backend is nil")
	}
	typ := b.Type()
	if typ == "" {
		return nil, newError(CodeInvalidArgument, "register", "", "backend type is empty")
	}
	r := &s.registry
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.backends == nil {
		r.backends = make(map[string]Backend)
	}
	if _, taken := r.backends[typ]; taken {
		return nil, newError(CodeDuplicateBackend, "register", "", "a backend of type "+quote(typ)+" is registered already")
	}
	r.backends[typ] = b
	var once sync.Once
	return func() {
		once.Do(func() {
			r.mu.Lock()
			defer r.mu.Unlock()
			if r.backends[typ] == b {
				delete(r.backends, typ)
			}
		})
	}, nil
}

// Backends lists the registered backend types.
func (s *Service) Backends() []string {
	r := &s.registry
	r.mu.RLock()
	defer r.mu.RUnlock()
	types := make([]string, 0, len(r.backends))
	for t := range r.backends {
		types = append(types, t)
	}
	sortStrings(types)
	return types
}

func (s *Service) backend(typ string) (Backend, bool) {
	r := &s.registry
	r.mu.RLock()
	defer r.mu.RUnlock()
	b, ok := r.backends[typ]
	return b, ok
}

// Registrar is what backends are registered with: *Service, and the test
// registries that stand in for it.
type Registrar interface {
	Register(b Backend) (unregister func(), err error)
}

// RegisterAll registers bs with r in order. If one fails, those registered
// before it are unregistered again and its error is returned.
func RegisterAll(r Registrar, bs ...Backend) error {
	var undo []func()
	for _, b := range bs {
		un, err := r.Register(b)
		if err != nil {
			for _, u := range slices.Backward(undo) {
				u()
			}
			return err
		}
		if un != nil {
			undo = append(undo, un)
		}
	}
	return nil
}
