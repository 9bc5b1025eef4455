package screen

import (
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestResizeThroughServiceReachesScreen resizes through the service (the
// path the ptysession facade takes), not through the manager: the emulator
// must follow all the same, from the point of the output where the size
// changed.
func TestResizeThroughServiceReachesScreen(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sh(size24x80, `trap 'stty size' WINCH; stty size; while :; do sleep 0.05; done`)
	e.waitFor(id, "24 80", func(s Snapshot) bool { return rowHas(s, 0, "24 80") })
	small := core.Size{Rows: 10, Cols: 40}
	if err := e.svc.Resize(ctxT(t), e.owner, id, small); err != nil {
		t.Fatal(err)
	}
	s := e.waitFor(id, "10 40", func(s Snapshot) bool { return anyRowHas(s, "10 40") })
	if s.Size != small || len(s.Rows) != 10 {
		t.Fatalf("size %v, %d rows: the emulator did not follow a resize made through the service", s.Size, len(s.Rows))
	}
	if used, _ := e.m.Cells(); used != 400 {
		t.Fatalf("the screen holds %d cells of the budget, want 400 (10x40)", used)
	}
}
