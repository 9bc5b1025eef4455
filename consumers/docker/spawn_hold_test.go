package docker

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
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
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			type result struct {
				s   core.BackendSession
				err error
			}
			done := make(chan result, 1)
			go func() {
				s, err := b.Spawn(ctx, core.BackendRequest{Size: core.DefaultSize, Marker: "held-" + mode.name, Options: tg})
				done <- result{s, err}
			}()
			bound := time.NewTimer(2 * time.Minute) // a failure bound
			defer bound.Stop()
			select {
			case <-asked:
			case r := <-done:
				t.Fatalf("Spawn returned before the held request: %v, %v", r.s, r.err)
			case <-bound.C:
				t.Fatalf("the backend never asked for %s", mode.held)
			}
			cancel()
			var r result
			select {
			case r = <-done:
			case <-bound.C:
				t.Fatal("Spawn did not return once its context ended while the engine held its answer")
			}
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
