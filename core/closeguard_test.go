package core

import (
	"errors"
	"sync"
	"sync/atomic"
	"testing"
)

// Closing is closed when the first Close begins; a failed close is run
// again by the next Do; after one succeeded, Do returns nil without
// running it; concurrent calls run one at a time.
func TestCloseGuard(t *testing.T) {
	var g CloseGuard
	closing := g.Closing()
	if g.IsClosing() {
		t.Fatal("closing before any Close")
	}
	failed := errors.New("cleanup not proven")
	var runs atomic.Int32
	if err := g.Do(func() error {
		runs.Add(1)
		if !g.IsClosing() {
			t.Error("Closing not closed while the first close runs")
		}
		return failed
	}); err != failed {
		t.Fatalf("first Do: %v, want its close's error", err)
	}
	var inside atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			err := g.Do(func() error {
				if inside.Add(1) != 1 {
					t.Error("two closes ran at once")
				}
				defer inside.Add(-1)
				runs.Add(1)
				return nil
			})
			if err != nil {
				t.Errorf("Do: %v", err)
			}
		})
	}
	wg.Wait()
	if n := runs.Load(); n != 2 {
		t.Fatalf("close ran %d times, want 2 (the failed one, then one success)", n)
	}
	if g.Closing() != closing {
		t.Fatal("Closing is not the same channel before and after Close")
	}
}
