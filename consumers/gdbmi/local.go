package gdbmi

import (
	"context"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// StartLocal is [Start] with a service of the client's own: it creates a
// ptyseam service with the local PTY backends (core/localpty), starts gdb
// on it and returns the client; [Client.Close] then also shuts the
// service down. Use [Start] to run gdb on a service you already have
// (shared with other sessions, with your own limits and owner).
func StartLocal(ctx context.Context, opts Options) (*Client, error) {
	svc := core.New(core.Options{})
	if err := localpty.Register(svc); err != nil {
		return nil, &StartError{Step: "service", Err: err}
	}
	c, err := Start(ctx, svc, opts)
	if err != nil {
		sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		_ = svc.Shutdown(sctx)
		cancel()
		return nil, err
	}
	c.ownService = svc
	return c, nil
}
