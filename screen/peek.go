package screen

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// PeekScreen returns the rows the session's terminal shows now, as
// Snapshot does, without counting as a snapshot: the next Snapshot's
// Changed is still relative to the previous Snapshot. A wait that watches
// the screen for a change reads it so.
func (m *Manager) PeekScreen(ctx context.Context, owner *core.Owner, id core.SessionID) ([]string, error) {
	_, st, err := m.lookup("screen", owner, id)
	if err != nil {
		return nil, err
	}
	if err := st.sync(ctx); err != nil {
		return nil, err
	}
	st.mu.Lock()
	st.catchUpLocked()
	rows := st.term.rows()
	kick := len(st.replies) > 0
	st.mu.Unlock()
	if kick {
		st.kickReplier()
	}
	return rows, nil
}
