package screen

import (
	"context"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// Snapshot returns what the session's terminal shows now. It first waits
// until the output the service has received is in the manager's buffer,
// then brings the emulator up to date. Changed is relative to the previous
// snapshot of the session. It works after the program exited (the last
// screen) until the session is closed.
func (m *Manager) Snapshot(ctx context.Context, owner *core.Owner, id core.SessionID, opts SnapshotOptions) (Snapshot, error) {
	_, st, err := m.lookup("screen", owner, id)
	if err != nil {
		return Snapshot{}, err
	}
	return st.snapshot(ctx, opts)
}

func (st *state) snapshot(ctx context.Context, opts SnapshotOptions) (Snapshot, error) {
	if err := st.sync(ctx); err != nil {
		return Snapshot{}, err
	}
	st.mu.Lock()
	st.catchUpLocked()
	snap := st.snapshotLocked(opts)
	kick := len(st.replies) > 0
	st.mu.Unlock()
	if kick {
		st.kickReplier()
	}
	return snap, nil
}

// snapshotLocked reads the caught-up emulator. st.mu is held.
func (st *state) snapshotLocked(opts SnapshotOptions) Snapshot {
	t := st.term
	rows := t.rows()
	pos := t.emu.CursorPosition()
	snap := Snapshot{
		Rows:        rows,
		Cursor:      Cursor{Row: pos.Y, Col: pos.X, Visible: !t.emu.CursorHidden()},
		AltScreen:   t.emu.IsAltScreen(),
		Title:       t.title,
		Size:        t.size,
		Changed:     changedRows(st.last, rows, st.haveLast && st.lastSize == t.size),
		Approximate: st.approx,
	}
	if !opts.peek {
		st.last, st.lastSize, st.haveLast = rows, t.size, true
	}
	if opts.ChangedOnly {
		only := make([]string, len(snap.Changed))
		for i, r := range snap.Changed {
			only[i] = rows[r]
		}
		snap.Rows, snap.ChangedOnly = only, true
	}
	return snap
}

// rows returns the screen's text, trailing spaces trimmed. A wide
// character fills its cells; empty cells read as spaces.
func (t *term) rows() []string {
	rows := make([]string, t.emu.Height())
	var b strings.Builder
	for y := range rows {
		rows[y] = t.row(&b, y)
	}
	return rows
}

// row returns row y's text as rows does, built in b.
func (t *term) row(b *strings.Builder, y int) string {
	b.Reset()
	for x, w := 0, t.emu.Width(); x < w; {
		c := t.emu.CellAt(x, y)
		step := 1
		switch {
		case c == nil || c.Content == "":
			b.WriteByte(' ')
		default:
			b.WriteString(c.Content)
			step = max(c.Width, 1)
		}
		x += step
	}
	return strings.TrimRight(b.String(), " ")
}

// AppCursor reports whether the session's program turned on
// application-cursor mode (DECCKM), which changes what the arrow keys
// send.
func (m *Manager) AppCursor(ctx context.Context, owner *core.Owner, id core.SessionID) (bool, error) {
	_, st, err := m.lookup("screen", owner, id)
	if err != nil {
		return false, err
	}
	return st.appCursor(ctx)
}

func (st *state) appCursor(ctx context.Context) (bool, error) {
	if err := st.sync(ctx); err != nil {
		return false, err
	}
	st.mu.Lock()
	st.catchUpLocked()
	app := st.term.appCursor
	kick := len(st.replies) > 0
	st.mu.Unlock()
	if kick {
		st.kickReplier()
	}
	return app, nil
}
