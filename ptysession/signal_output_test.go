package ptysession

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// onService runs f against a facade over the real service (the seam
// whose sessions stream their output, see tapper).
func onService(t *testing.T, f func(t *testing.T, s *Sessions)) {
	t.Helper()
	for _, sm := range seams {
		if sm.name == "service" {
			f(t, New(sm.new(t), Options{}))
			return
		}
	}
	t.Fatal("no service seam")
}

// TestSignalReturnsTheOutputThatFollowed interrupts a program whose
// handler prints: the signal's result holds what it printed and the
// shell's next prompt, as a send's delta would.
func TestSignalReturnsTheOutputThatFollowed(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		ctx := testCtx(t)
		res, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: `bash -c 'trap "echo caught-int; exit 3" INT; echo waiting; cat'`})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Delta, "waiting") {
			waitTailSuffix(t, s, owner, r.SessionID, "waiting\n")
		}
		sr, err := s.Signal(ctx, owner, r.SessionID, "SIGINT")
		if err != nil || !sr.Delivered {
			t.Fatalf("signal: %+v %v", sr, err)
		}
		if !strings.Contains(sr.Output, "caught-int") {
			t.Fatalf("signal output %q, want the handler's line", sr.Output)
		}
		if strings.Contains(sr.Output, "waiting") {
			t.Fatalf("signal output %q repeats output from before the signal", sr.Output)
		}
	})
}

// TestOpenSetsTheTerminalSize opens a shell on an 80x24 terminal; a half
// given size takes the default's other dimension.
func TestOpenSetsTheTerminalSize(t *testing.T) {
	onService(t, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash", Size: core.Size{Rows: 24, Cols: 80}})
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "stty size"})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(res.Delta, "24 80") {
			t.Fatalf("stty size printed %q, want 24 80", res.Delta)
		}
		half := mustOpen(t, s, owner, OpenRequest{Command: "bash", Size: core.Size{Cols: 100}})
		info, err := s.t.Info(owner, half.SessionID)
		if err != nil {
			t.Fatal(err)
		}
		if want := (core.Size{Rows: core.DefaultSize.Rows, Cols: 100}); info.Size != want {
			t.Fatalf("size %+v, want %+v", info.Size, want)
		}
	})
}
