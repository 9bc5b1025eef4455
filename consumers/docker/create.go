package docker

import (
	"context"
	"fmt"
	"time"

	"github.com/moby/moby/client"
	"github.com/ptyseam/ptyseam/core"
)

// createWait bounds how long a spawn whose caller gave up still waits for
// the engine's answer to the create it sent (a failure bound: an engine
// answers at once unless it is hung).
const createWait = 2 * time.Minute

// createContainer asks the engine for a new container labelled with the
// session's marker and returns its id.
//
// The engine does not abandon a create whose client went away: under
// load it finishes the container after a caller gave up, and a spawn that
// stopped listening would never learn the id of the container it leaves
// behind. So the call does not end with ctx: once ctx ends it waits up to
// createWait more for the engine's answer. When ctx has ended, the error
// is SPAWN_FAILED matching ctx's error, and id, when not empty, names the
// container the engine created, which the caller must remove. When the
// engine did not answer within createWait, the error is a
// *core.CleanupError: a container with the marker may appear later.
func (b *Backend) createContainer(ctx context.Context, opts client.ContainerCreateOptions, marker string) (id string, err error) {
	return b.createWaiting(ctx, createWait, opts, marker)
}

// createWaiting is createContainer, waiting up to wait for the engine's
// answer once ctx has ended.
func (b *Backend) createWaiting(ctx context.Context, wait time.Duration, opts client.ContainerCreateOptions, marker string) (id string, err error) {
	cctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	defer cancel()
	stop := context.AfterFunc(ctx, func() {
		t := time.NewTimer(wait)
		defer t.Stop()
		select {
		case <-t.C:
			cancel()
		case <-cctx.Done():
		}
	})
	defer stop()
	created, err := b.cli.ContainerCreate(cctx, opts)
	what := "creating a container from " + opts.Config.Image
	switch {
	case ctx.Err() == nil && err != nil:
		return "", spawnErr(what, err)
	case ctx.Err() == nil:
		return created.ID, nil
	case err == nil:
		return created.ID, &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: what, Err: ctx.Err()}
	case cctx.Err() != nil:
		cause := &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: what, Err: ctx.Err()}
		return "", &core.CleanupError{Cause: cause, Err: fmt.Errorf("docker: the engine did not answer the create within %v after the spawn was given up: "+
			"a container labelled %s=%s may appear; find it with docker ps -a --filter label=%s=%s and remove it: %w",
			wait, LabelSession, marker, LabelSession, marker, err)}
	default:
		// The engine refused the create: nothing was created.
		return "", &core.Error{Code: core.CodeSpawnFailed, Op: "spawn", Msg: what, Err: fmt.Errorf("%w (the engine: %w)", ctx.Err(), err)}
	}
}
