package ptysession

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// ResizeResult is the size a session's terminal now has.
type ResizeResult struct {
	Rows int `json:"rows"`
	Cols int `json:"cols"`
}

// Resize changes the session's terminal size; the program sees SIGWINCH
// and the new size (stty size). Rows and columns must be 1 to 4096. A
// screen emulator watching the session (package screen) follows it, as it
// follows every resize the service makes.
func (s *Sessions) Resize(ctx context.Context, owner *core.Owner, id core.SessionID, rows, cols int) (ResizeResult, error) {
	const op = "resize"
	if err := checkCall(ctx, op, owner, id); err != nil {
		return ResizeResult{}, err
	}
	if rows < 1 || rows > core.MaxDimension {
		return ResizeResult{}, invalid(op, id, "rows", "must be 1 to %d, not %d", core.MaxDimension, rows)
	}
	if cols < 1 || cols > core.MaxDimension {
		return ResizeResult{}, invalid(op, id, "cols", "must be 1 to %d, not %d", core.MaxDimension, cols)
	}
	if err := s.t.Resize(ctx, owner, id, core.Size{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
		return ResizeResult{}, err
	}
	return ResizeResult{Rows: rows, Cols: cols}, nil
}
