package screen

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// screenMode is where a session's output left its terminal.
type screenMode struct {
	known bool // the manager watches the session
	alt   bool // on the alternate screen (a full-screen program)
	drawn bool // a program draws on the normal screen (top)
}

// full reports that a full-screen program holds the terminal, on either
// screen.
func (md screenMode) full() bool { return md.alt || md.drawn }

// mode reports whether everything the session printed so far left the
// terminal on the alternate screen, or drawing on the normal one as a
// full-screen program does (queryScanner.drawn). It needs no emulator:
// the query scanner follows the screen switches and the drawing.
func (m *Manager) mode(ctx context.Context, owner *core.Owner, id core.SessionID) screenMode {
	_, st, err := m.lookup("screen", owner, id)
	if err != nil {
		return screenMode{}
	}
	// The read loop's own scan already saw every chunk printed so far (a
	// send that settled saw its output pass it): no need to wait for the
	// drain to catch up.
	if a := st.readAlt.Load(); a != altUnknown {
		return screenMode{known: true, alt: a&altOn != 0, drawn: a&altDrawn != 0}
	}
	return st.mode(ctx)
}

func (st *state) mode(ctx context.Context) screenMode {
	if err := st.sync(ctx); err != nil {
		return screenMode{}
	}
	st.ringMu.Lock()
	defer st.ringMu.Unlock()
	return screenMode{known: true, alt: st.scan.alt, drawn: st.scan.drawn}
}

// shorter returns snap with only its changed rows when that renders
// shorter than the whole screen.
func shorter(snap Snapshot) Snapshot {
	if snap.ChangedOnly {
		return snap
	}
	only := snap
	only.Rows = make([]string, len(snap.Changed))
	for i, r := range snap.Changed {
		if r < len(snap.Rows) {
			only.Rows[i] = snap.Rows[r]
		}
	}
	only.ChangedOnly = true
	if len(only.Text()) < len(snap.Text()) {
		return only
	}
	return snap
}

// newOnNormal returns snap (a snapshot of the normal screen, taken after
// a full-screen program left it) holding only the rows that are new since
// the program took the screen over: the rows from where the program
// started down to the cursor and the last row with text. The normal
// screen may have scrolled since (the program's last words, the shell's
// prompt): the old rows are matched at the smallest shift that fits; when
// none of them is left (the screen was cleared or scrolled past them) the
// rows from the top are new. A snapshot of another size than the old
// screen is returned whole.
func newOnNormal(snap Snapshot, oldRows []string, oldCursor int) Snapshot {
	if snap.ChangedOnly || len(oldRows) != len(snap.Rows) || oldCursor < 0 || oldCursor >= len(oldRows) {
		return snap
	}
	first := -1
	for k := 0; k <= oldCursor && first < 0; k++ {
		fits := true
		for i := 0; i < oldCursor-k; i++ {
			if snap.Rows[i] != oldRows[i+k] {
				fits = false
				break
			}
		}
		if fits {
			first = oldCursor - k
		}
	}
	if first < 0 {
		return snap
	}
	last := snap.Cursor.Row
	for i := len(snap.Rows) - 1; i > last; i-- {
		if snap.Rows[i] != "" {
			last = i
			break
		}
	}
	if last < first {
		last = first
	}
	out := snap
	out.Rows = append([]string(nil), snap.Rows[first:last+1]...)
	out.Changed = make([]int, 0, last-first+1)
	for r := first; r <= last; r++ {
		out.Changed = append(out.Changed, r)
	}
	out.ChangedOnly = true
	return out
}

// newBelow returns snap (full rows in rows) holding only the rows below
// those of the previous look, prev, the screen having scrolled by the
// fewest rows that keep at least half of prev in place: the rows a program
// that quit left (top's last frame) are not returned again. It reports
// false when no scroll fits, or nothing is new.
func newBelow(snap Snapshot, rows, prev []string) (Snapshot, bool) {
	n := len(rows)
	if len(prev) != n || n == 0 {
		return snap, false
	}
	for k := 1; k <= n/2; k++ {
		fits := true
		for i := 0; i+k < n; i++ {
			if rows[i] != prev[i+k] {
				fits = false
				break
			}
		}
		if !fits {
			continue
		}
		first, last := n-k, n-1
		for last > first && rows[last] == "" && last > snap.Cursor.Row {
			last--
		}
		out := snap
		out.Rows = append([]string(nil), rows[first:last+1]...)
		out.Changed = make([]int, 0, last-first+1)
		for r := first; r <= last; r++ {
			out.Changed = append(out.Changed, r)
		}
		out.ChangedOnly = true
		return out, true
	}
	return snap, false
}

// lastLook returns the rows of the last snapshot taken (nil if none).
func (st *state) lastLook() []string {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.haveLast {
		return nil
	}
	return st.last
}

// normalScreen returns the rows and cursor row of the normal screen as the
// last full-screen program found it (nil if none left it yet).
func (st *state) normalScreen() ([]string, int) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.term == nil {
		return nil, 0
	}
	return st.term.normalRows, st.term.normalCursor
}
