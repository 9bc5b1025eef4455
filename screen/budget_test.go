package screen

import (
	"runtime"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestHugeScreenIsRefused: a resize to 4096x4096 followed by a snapshot
// once built a 16.7-million-cell emulator (3.7 GB). It is refused with a
// typed error, the screen keeps its size, and the heap stays small.
func TestHugeScreenIsRefused(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sh(size24x80, "echo ready; exec cat")
	var before runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := e.m.Resize(ctxT(t), e.owner, id, core.Size{Rows: 4096, Cols: 4096})
	if !isCode(err, core.CodeInvalidArgument) || !strings.Contains(err.Error(), "cells") {
		t.Fatalf("a 4096x4096 resize: %v, want INVALID_ARGUMENT naming the cell limit", err)
	}
	s := e.snap(id)
	if s.Size != size24x80 {
		t.Fatalf("the refused resize changed the screen to %v", s.Size)
	}
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	if grew := int64(after.HeapAlloc) - int64(before.HeapAlloc); grew > 64<<20 {
		t.Fatalf("the heap grew by %d MB", grew>>20)
	}
	// The largest screen allowed works.
	big := core.Size{Rows: 250, Cols: 400}
	if err := e.m.Resize(ctxT(t), e.owner, id, big); err != nil {
		t.Fatalf("a %v resize within the limit: %v", big, err)
	}
	if s := e.snap(id); s.Size != big {
		t.Fatalf("size %v after the resize, want %v", s.Size, big)
	}
}

// TestScreensShareACellBudget: growth past the budget every screen shares
// is RESOURCE_LIMIT until a session is closed.
func TestScreensShareACellBudget(t *testing.T) {
	e := newEnv(t, Options{MaxCells: 10_000, MaxTotalCells: 27_000})
	small := core.Size{Rows: 80, Cols: 100} // 8,000 cells
	a := e.sh(small, "exec cat")
	b := e.sh(small, "exec cat")
	if used, _ := e.m.Cells(); used != 16_000 {
		t.Fatalf("%d cells held, want 16000", used)
	}
	if err := e.m.Resize(ctxT(t), e.owner, a, core.Size{Rows: 100, Cols: 101}); !isCode(err, core.CodeInvalidArgument) {
		t.Fatalf("a resize past one screen's limit: %v, want INVALID_ARGUMENT", err)
	}
	if err := e.m.Resize(ctxT(t), e.owner, a, core.Size{Rows: 100, Cols: 100}); err != nil {
		t.Fatalf("a resize within the budget: %v", err)
	}
	_, err := e.m.Spawn(ctxT(t), e.owner, core.SpawnRequest{Type: "exec", Command: []string{"cat"}, Size: core.Size{Rows: 100, Cols: 100}})
	if !isCode(err, core.CodeResourceLimit) || !strings.Contains(err.Error(), "close sessions") {
		t.Fatalf("a spawn past the budget: %v, want RESOURCE_LIMIT saying what to do", err)
	}
	e.sh(small, "exec cat") // 26,000 cells held
	if err := e.m.Resize(ctxT(t), e.owner, b, core.Size{Rows: 100, Cols: 100}); !isCode(err, core.CodeResourceLimit) {
		t.Fatalf("a resize past the budget: %v, want RESOURCE_LIMIT", err)
	}
	if s := e.snap(b); s.Size != small {
		t.Fatalf("the refused resize changed the screen to %v", s.Size)
	}
	if _, err := e.svc.Close(ctxT(t), e.owner, a, "test"); err != nil {
		t.Fatal(err)
	}
	if err := e.m.Resize(ctxT(t), e.owner, b, core.Size{Rows: 100, Cols: 100}); err != nil {
		t.Fatalf("a resize after a close freed cells: %v", err)
	}
	if used, _ := e.m.Cells(); used != 18_000 {
		t.Fatalf("%d cells held, want 18000", used)
	}
}
