package screen

import (
	"context"
	"fmt"
	"math"

	"github.com/ptyseam/ptyseam/core"
)

// Resize changes the session's terminal size through the service (the
// program gets SIGWINCH and sees the new size) and resizes its screen from
// that point of the output on. A size out of 1..4096, or with more cells
// than Options.MaxCells, is INVALID_ARGUMENT; growth past
// Options.MaxTotalCells (every screen of the manager together) is
// RESOURCE_LIMIT; a backend that cannot resize reports UNSUPPORTED.
func (m *Manager) Resize(ctx context.Context, owner *core.Owner, id core.SessionID, size core.Size) error {
	svc, st, err := m.lookup("resize", owner, id)
	if err != nil {
		return err
	}
	if size.Rows == 0 || size.Cols == 0 || size.Rows > core.MaxDimension || size.Cols > core.MaxDimension {
		return &core.Error{Code: core.CodeInvalidArgument, Op: "resize", Session: id,
			Msg: fmt.Sprintf("terminal size %dx%d out of range (1..%d)", size.Rows, size.Cols, core.MaxDimension)}
	}
	st.resizeMu.Lock()
	defer st.resizeMu.Unlock()
	st.mu.Lock()
	prev := st.sizeAtLocked(math.MaxInt64)
	st.mu.Unlock()
	if err := m.reserveCells("resize", st, size, false); err != nil {
		return err
	}
	// The service tells the screen where in the output the size changed
	// (core.Tap.OnResize), as for a resize that does not come through here.
	if err := svc.Resize(ctx, owner, id, size); err != nil {
		_ = m.reserveCells("resize", st, prev, true)
		return err
	}
	if err := st.sync(ctx); err != nil {
		return err
	}
	st.mu.Lock()
	if st.term != nil {
		st.catchUpLocked() // the emulator reflows now, and reports the size if asked to
	}
	kick := len(st.replies) > 0
	st.mu.Unlock()
	if kick {
		st.kickReplier()
	}
	return nil
}
