package screen

import (
	"github.com/ptyseam/ptyseam/core"
)

// Replayer runs the screen emulator sessions use over output that is not
// a live session's: a recording played back (core/record), so that its
// final screen can be compared with the live one. It answers no queries.
// It is not safe for concurrent use; Close it when done.
type Replayer struct {
	t *term
	p *pump
}

// NewReplayer returns an emulator of the given size (core.DefaultSize
// when zero).
func NewReplayer(size core.Size) *Replayer {
	if size.Rows == 0 || size.Cols == 0 {
		size = core.DefaultSize
	}
	t := newTerm(size)
	return &Replayer{t: t, p: startPump(t)}
}

// Write feeds terminal output.
func (r *Replayer) Write(p []byte) error {
	err := r.t.write(p)
	r.p.sync() // nobody answers a replay's queries
	return err
}

// Resize changes the emulator's size, as the terminal's did.
func (r *Replayer) Resize(size core.Size) error { return r.t.resize(size) }

// Screen returns the emulator's screen now.
func (r *Replayer) Screen() Snapshot {
	rows := r.t.rows()
	pos := r.t.emu.CursorPosition()
	return Snapshot{
		Rows:      rows,
		Cursor:    Cursor{Row: pos.Y, Col: pos.X, Visible: !r.t.emu.CursorHidden()},
		AltScreen: r.t.emu.IsAltScreen(),
		Title:     r.t.title,
		Size:      r.t.size,
	}
}

// Close ends the emulator's reply reader.
func (r *Replayer) Close() { r.p.stop() }
