package remote

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// Agent backend types: the local PTY backend's types, served by the agent.
const (
	AgentShell = "shell"
	AgentExec  = "exec"
)

// ConnectFunc returns the connection a spawn runs on (a fresh one, or one
// shared by several sessions).
type ConnectFunc func(ctx context.Context, req core.BackendRequest) (*Conn, error)

// Backend is a core.Backend whose sessions run on agents.
type Backend struct {
	typ       string
	agentType string
	connect   ConnectFunc
}

// NewBackend returns a backend of type typ whose sessions run on the
// agent's agentType backend (AgentShell: an interactive shell with the
// prompt marker; AgentExec: the request's argv) on the Conn connect
// returns.
func NewBackend(typ, agentType string, connect ConnectFunc) *Backend {
	return &Backend{typ: typ, agentType: agentType, connect: connect}
}

// Backend returns a backend of type typ whose sessions run on c with the
// agent's agentType backend.
func (c *Conn) Backend(typ, agentType string) *Backend {
	return NewBackend(typ, agentType, func(context.Context, core.BackendRequest) (*Conn, error) { return c, nil })
}

// Type returns the backend's type.
func (b *Backend) Type() string { return b.typ }

// Spawn connects and starts the session on the agent.
func (b *Backend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	c, err := b.connect(ctx, req)
	if err != nil {
		return nil, spawnFailed(err)
	}
	return c.Spawn(ctx, b.agentType, req)
}

var _ core.Backend = (*Backend)(nil)
