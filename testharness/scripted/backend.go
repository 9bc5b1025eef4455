package scripted

import (
	"context"
	"slices"
	"sync"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/promptmark"
)

// Type is the default backend type of [Register].
const Type = "scripted"

// Backend is a core backend whose sessions follow one script. Create it
// with [New]; it is safe for concurrent use.
type Backend struct {
	typ    string
	script Script

	mu     sync.Mutex
	inputs []string
}

// New returns a backend of type typ ("" means [Type]) following script.
func New(typ string, script Script) *Backend {
	if typ == "" {
		typ = Type
	}
	return &Backend{typ: typ, script: script.withDefaults()}
}

// Register registers a backend of type typ following script with r.
func Register(r core.Registrar, typ string, script Script) (*Backend, error) {
	b := New(typ, script)
	if _, err := r.Register(b); err != nil {
		return nil, err
	}
	return b, nil
}

// Type returns the backend type.
func (b *Backend) Type() string { return b.typ }

// Inputs returns every input line the backend's sessions received, in
// order, for a test's assertions.
func (b *Backend) Inputs() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return slices.Clone(b.inputs)
}

func (b *Backend) record(line string) {
	b.mu.Lock()
	b.inputs = append(b.inputs, line)
	b.mu.Unlock()
}

// Spawn starts a scripted session: it prints the banner and the first
// prompt. req.Command, when not empty, is answered as a first input line
// (not echoed), as a shell would run it.
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s := newSession(b)
	s.mu.Lock()
	defer s.mu.Unlock()
	s.printLocked(b.script.Banner)
	if len(req.Command) > 0 {
		line := joinArgs(req.Command)
		b.record(line)
		s.answerLocked(line)
	} else {
		s.promptLocked(0)
	}
	return s, nil
}

func joinArgs(argv []string) string {
	out := ""
	for i, a := range argv {
		if i > 0 {
			out += " "
		}
		out += a
	}
	return out
}

// prompt returns the prompt with the markers a marked shell prints: the
// end of the previous command with its exit code, then the prompt between
// its start and end markers.
func (b *Backend) prompt(code int) string {
	return promptmark.CommandEnd(code) + promptmark.PromptStart + b.script.Prompt + promptmark.PromptEnd
}
