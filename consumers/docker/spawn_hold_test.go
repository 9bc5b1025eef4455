package docker

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// An engine that never answers the request a relayed session makes to
// follow its program's end (a new container's events stream, an exec's
// wait call on its container) holds no Spawn past its context: Spawn
// returns SPAWN_FAILED matching the context's error once it ends, and
// the container it created is removed (the failed spawn's Close does not
// wait for an exit report that the held stream would carry).
func TestSpawnEngineHoldsFollowRequest(t *testing.T) {
	for _, mode := range []struct {
		name string
		exec bool
		held string // the request the proxy never answers
	}{{"container", false, "/events?"}, {"exec", true, "/wait?"}} {
		t.Run(mode.name, func(t *testing.T) {
			b, p, d := proxiedBackend(t)
			tg, cid := bashTarget(t, d, mode.exec)
			before := sessionContainers(t, d.Client)
			p.holdAnswers(mode.held)
			asked := p.askedFor(mode.held)
			// The spawn's context ends once the request is held: a
			// deadline shorter than the engine's other answers could end
			// it before that request, and test nothing.
			r := spawnGivenUpAt(t, b, core.BackendRequest{Size: core.DefaultSize, Marker: "held-" + mode.name, Options: tg}, asked, mode.held)
			if r.err == nil {
				_ = r.s.Close(context.Background())
				t.Fatal("Spawn succeeded with its context ended")
			}
			if core.CodeOf(r.err) != core.CodeSpawnFailed || !errors.Is(r.err, context.Canceled) {
				t.Fatalf("Spawn: %v (code %s); want SPAWN_FAILED matching context.Canceled", r.err, core.CodeOf(r.err))
			}
			if after := sessionContainers(t, d.Client); !sameSet(before, after) {
				t.Fatalf("session containers after the failed spawn: %v, before it: %v", after, before)
			}
			if mode.exec {
				if left := sessionProcesses(t, d, cid); len(left) > 0 {
					t.Fatalf("processes left in the container after the failed spawn: %v", left)
				}
			}
		})
	}
}

// spawnResult is what a Spawn returned.
type spawnResult struct {
	s   core.BackendSession
	err error
}

// spawnGivenUpAt runs b.Spawn(req) with a context it cancels once step is
// closed (the engine proxy holds the request named what), and returns
// what Spawn returned. The test fails if Spawn returns before step, or
// either takes longer than a failure bound.
func spawnGivenUpAt(t *testing.T, b *Backend, req core.BackendRequest, step <-chan struct{}, what string) spawnResult {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan spawnResult, 1)
	go func() {
		s, err := b.Spawn(ctx, req)
		done <- spawnResult{s, err}
	}()
	bound := time.NewTimer(testenv.HangBound)
	defer bound.Stop()
	select {
	case <-step:
	case r := <-done:
		t.Fatalf("Spawn returned before the held request (%s): %v, %v", what, r.s, r.err)
	case <-bound.C:
		t.Fatalf("the backend never asked for %s", what)
	}
	cancel()
	select {
	case r := <-done:
		return r
	case <-bound.C:
		t.Fatalf("Spawn did not return once its context ended while the engine held %s", what)
	}
	return spawnResult{}
}
