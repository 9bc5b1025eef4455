package screen

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// Snapshot is what a terminal would show now.
type Snapshot struct {
	// Rows holds the screen's text, one string per row from the top, with
	// trailing spaces trimmed. With SnapshotOptions.ChangedOnly it holds
	// only the changed rows: Rows[i] is row Changed[i].
	Rows []string
	// Cursor is the cursor's position and visibility.
	Cursor Cursor
	// AltScreen reports that the program switched to the alternate screen
	// (as full-screen programs such as vim, less and top do).
	AltScreen bool
	// Title is the window title the program set (OSC 0 or 2), or "".
	Title string
	// Size is the terminal's size.
	Size core.Size
	// Changed lists, in increasing order, the rows whose text changed since
	// the previous snapshot of this session; every row for the first
	// snapshot and after a resize.
	Changed []int
	// ChangedOnly reports that Rows holds only the changed rows.
	ChangedOnly bool
	// Approximate reports that the emulator missed part of the output (the
	// raw buffer overflowed before the emulator caught up, or it attached
	// to a running session) and rebuilt the screen from what was left, and
	// has not seen the whole screen redrawn since. Full-screen programs
	// redraw often; a Ctrl-L usually makes the screen exact again.
	Approximate bool
}

// Cursor is a cursor position, counted from 0 at the top left.
type Cursor struct {
	Row     int
	Col     int
	Visible bool
}

// SnapshotOptions select what a snapshot returns.
type SnapshotOptions struct {
	// ChangedOnly returns only the rows that changed since the previous
	// snapshot (see Snapshot.Rows).
	ChangedOnly bool
	// peek takes the screen without making it the previous snapshot: a
	// screen nobody is shown (pty_keys in line mode) is not a look.
	peek bool
}

type cursorJSON struct {
	Row     int  `json:"row"`
	Col     int  `json:"col"`
	Visible bool `json:"visible"`
}

type sizeJSON struct {
	Rows int `json:"rows"`
	Cols int `json:"cols"`
}

type snapshotJSON struct {
	Rows        []string   `json:"rows"`
	Cursor      cursorJSON `json:"cursor"`
	AltScreen   bool       `json:"altScreen"`
	Title       string     `json:"title"`
	Size        sizeJSON   `json:"size"`
	Changed     []int      `json:"changed"`
	ChangedOnly bool       `json:"changedOnly"`
	Approximate bool       `json:"approximate"`
}

// MarshalJSON encodes the snapshot with lower-case field names:
// {"rows":[...],"cursor":{"row":0,"col":0,"visible":true},"altScreen":false,
// "title":"","size":{"rows":24,"cols":80},"changed":[...],"changedOnly":false,
// "approximate":false}.
func (s Snapshot) MarshalJSON() ([]byte, error) {
	j := snapshotJSON{
		Rows:        s.Rows,
		Cursor:      cursorJSON(s.Cursor),
		AltScreen:   s.AltScreen,
		Title:       s.Title,
		Size:        sizeJSON{Rows: int(s.Size.Rows), Cols: int(s.Size.Cols)},
		Changed:     s.Changed,
		ChangedOnly: s.ChangedOnly,
		Approximate: s.Approximate,
	}
	if j.Rows == nil {
		j.Rows = []string{}
	}
	if j.Changed == nil {
		j.Changed = []int{}
	}
	return json.Marshal(j)
}

// Text renders the snapshot for a model or a person: a header line with
// the size, cursor, screen and title, then the rows, each prefixed with its
// number (from 0) and a bar, the cursor's row marked with '>' before the
// bar. A run of two or more blank rows (the cursor's row aside) is one
// line, "(rows 0-15 blank)", and a run of rows with one text whose note is
// shorter than the rows is one line naming the text once, "(rows 8-38 each
// "~")". A ChangedOnly snapshot shows only its rows, under their numbers.
func (s Snapshot) Text() string {
	var b strings.Builder
	b.WriteString("screen ")
	b.WriteString(strconv.Itoa(int(s.Size.Rows)) + "x" + strconv.Itoa(int(s.Size.Cols)))
	b.WriteString(", cursor row " + strconv.Itoa(s.Cursor.Row) + " col " + strconv.Itoa(s.Cursor.Col))
	if !s.Cursor.Visible {
		b.WriteString(" (hidden)")
	}
	if s.AltScreen {
		b.WriteString(", alternate screen")
	}
	if s.Title != "" {
		b.WriteString(", title " + strconv.Quote(s.Title))
	}
	if s.Approximate {
		b.WriteString(", approximate")
	}
	width := len(strconv.Itoa(max(int(s.Size.Rows)-1, 0)))
	line := func(n int, text string) {
		num := strconv.Itoa(n)
		b.WriteString(strings.Repeat(" ", max(width-len(num), 0)) + num)
		if n == s.Cursor.Row {
			b.WriteByte('>')
		} else {
			b.WriteByte(' ')
		}
		b.WriteString("|" + text + "\n")
	}
	if s.ChangedOnly {
		b.WriteString(", changed rows only\n")
		for i, r := range s.Rows {
			if i < len(s.Changed) {
				line(s.Changed[i], r)
			}
		}
		return b.String()
	}
	b.WriteString("\n")
	for i := 0; i < len(s.Rows); {
		// A run of rows with one text, the cursor's row aside.
		end := i
		for end < len(s.Rows) && s.Rows[end] == s.Rows[i] && end != s.Cursor.Row {
			end++
		}
		if note := runNote(s.Rows[i], i, end, width); note != "" {
			b.WriteString(note)
			i = end
			continue
		}
		line(i, s.Rows[i])
		i++
	}
	return b.String()
}

// runNote is the line that stands for rows first to end-1, which all read
// text, or "" when they are shown one by one: two or more blank rows, or
// rows whose note is shorter than they are (numbered width wide).
func runNote(text string, first, end, width int) string {
	span := strconv.Itoa(first) + "-" + strconv.Itoa(end-1)
	switch {
	case end-first < 2:
		return ""
	case text == "":
		return "(rows " + span + " blank)\n"
	}
	note := "(rows " + span + " each " + strconv.Quote(text) + ")\n"
	if len(note) >= (end-first)*(width+3+len(text)) {
		return ""
	}
	return note
}

// changedRows compares rows with the previous snapshot's; every row counts
// as changed when there was none or the size differs.
func changedRows(prev, rows []string, samePlace bool) []int {
	changed := make([]int, 0, len(rows))
	for i, r := range rows {
		if !samePlace || i >= len(prev) || prev[i] != r {
			changed = append(changed, i)
		}
	}
	return changed
}
