package ptysession

import (
	"errors"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

func TestResizeIsSeenByTheProgram(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		res, err := s.Resize(t.Context(), owner, r.SessionID, 10, 40)
		if err != nil || res != (ResizeResult{Rows: 10, Cols: 40}) {
			t.Fatalf("resize = %+v, %v", res, err)
		}
		out := shellSend(t, s, owner, r.SessionID, "stty size")
		if !strings.Contains(out.Delta, "\n10 40\n") {
			t.Fatalf("stty size after the resize: %q", out.Delta)
		}
		for _, bad := range [][2]int{{0, 40}, {10, 0}, {5000, 80}, {-1, -1}} {
			if _, err := s.Resize(t.Context(), owner, r.SessionID, bad[0], bad[1]); !errors.Is(err, core.ErrInvalidArgument) {
				t.Errorf("resize %v: %v, want INVALID_ARGUMENT", bad, err)
			}
		}
		if _, err := s.Resize(t.Context(), core.NewOwner("agent"), r.SessionID, 10, 40); !errors.Is(err, core.ErrForeignSession) {
			t.Errorf("resize by a stranger: %v, want FOREIGN_SESSION", err)
		}
	})
}
