package screen

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

var size24x80 = core.Size{Rows: 24, Cols: 80}

func TestSnapshotShowsPositionedText(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.sh(size24x80, `printf '\033[2J\033[5;10Hhello\033[8;1Hworld   \033]2;my title\007'; printf '\033[3;4H'; sleep 30`)
	s := e.waitFor(id, "hello and the title", func(s Snapshot) bool { return s.Title == "my title" })
	if s.Size != size24x80 || len(s.Rows) != 24 {
		t.Fatalf("size %v, %d rows", s.Size, len(s.Rows))
	}
	if s.Rows[4] != "         hello" || s.Rows[7] != "world" {
		t.Fatalf("rows 4 and 7: %q %q\n%s", s.Rows[4], s.Rows[7], s.Text())
	}
	if s.Cursor != (Cursor{Row: 2, Col: 3, Visible: true}) {
		t.Fatalf("cursor %+v", s.Cursor)
	}
	if s.AltScreen || s.Approximate {
		t.Fatalf("alt %v approximate %v", s.AltScreen, s.Approximate)
	}
	txt := s.Text()
	for _, want := range []string{"screen 24x80", "cursor row 2 col 3", `title "my title"`, " 4 |         hello", " 2>|", "(rows 8-23 blank)"} {
		if !strings.Contains(txt, want) {
			t.Errorf("text lacks %q:\n%s", want, txt)
		}
	}
}

func TestSnapshotAltScreenHiddenCursorAndChangedRows(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.spawn(size24x80, python(t), "-c", `
import sys, time
sys.stdout.write("\x1b[?1049h\x1b[?25l\x1b[H\x1b[2Jone\r\ntwo\r\nthree")
sys.stdout.flush()
sys.stdin.readline()
sys.stdout.write("\x1b[2;1HTWO")
sys.stdout.flush()
time.sleep(30)
`)
	s := e.waitFor(id, "three", func(s Snapshot) bool { return rowHas(s, 2, "three") })
	if !s.AltScreen || s.Cursor.Visible {
		t.Fatalf("alt %v, cursor visible %v", s.AltScreen, s.Cursor.Visible)
	}
	// Snapshots taken while it waited: nothing changed since the last one.
	s = e.snap(id)
	if len(s.Changed) != 0 {
		t.Fatalf("changed %v on an unchanged screen", s.Changed)
	}
	r, err := e.m.SendKeys(ctxT(t), e.owner, id, KeysRequest{Keys: []string{"Enter"}, ChangedOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	// The keys' own snapshot may have come before the redraw; collect the
	// changes of the following snapshots until row 1 reads TWO.
	s2 := r.Screen
	changed := map[int]string{}
	deadline := time.Now().Add(waitLimit)
	for {
		for i, row := range s2.Changed {
			changed[row] = s2.Rows[i]
		}
		if changed[1] == "TWO" || time.Now().After(deadline) {
			break
		}
		time.Sleep(20 * time.Millisecond)
		if s2, err = e.m.Snapshot(ctxT(t), e.owner, id, SnapshotOptions{ChangedOnly: true}); err != nil {
			t.Fatal(err)
		}
	}
	if len(changed) != 1 || changed[1] != "TWO" || !s2.ChangedOnly {
		t.Fatalf("changed rows %v", changed)
	}
	txt := (Snapshot{Rows: []string{"TWO"}, Changed: []int{1}, ChangedOnly: true, Size: size24x80}).Text()
	if !strings.Contains(txt, "changed rows only") || !strings.Contains(txt, " 1 |TWO") {
		t.Fatalf("text:\n%s", txt)
	}
}

// checkTextBody checks the rows of the Text of a snapshot of rows with the
// cursor on row cursor, the cursor's mark taken out.
func checkTextBody(t *testing.T, rows []string, cursor int, want string) {
	t.Helper()
	s := Snapshot{Rows: rows, Size: core.Size{Rows: uint16(len(rows)), Cols: 40}, Cursor: Cursor{Row: cursor}}
	_, body, _ := strings.Cut(s.Text(), "\n")
	if body = strings.ReplaceAll(body, ">", " "); body != want {
		t.Errorf("rows %q: text body %q, want %q", rows, body, want)
	}
}

// TestTextNotesRepeatedRuns: a run of rows with the same text other than
// the cursor's (vim's "~" past the end of a file) is one note naming the
// text once when the note is shorter than the rows.
func TestTextNotesRepeatedRuns(t *testing.T) {
	tildes := func(n int) []string { return slices.Repeat([]string{"~"}, n) }
	rule := strings.Repeat("─", 20)
	for _, c := range []struct {
		rows   []string
		cursor int
		want   string
	}{
		{slices.Concat([]string{"x"}, tildes(8), []string{"-- INSERT --"}), 0, "0 |x\n(rows 1-8 each \"~\")\n9 |-- INSERT --\n"},
		// Three rows of "~" are shorter than a note.
		{slices.Concat([]string{"x"}, tildes(3)), 0, "0 |x\n1 |~\n2 |~\n3 |~\n"},
		// Two long rows are longer than one.
		{[]string{"x", rule, rule}, 0, "0 |x\n(rows 1-2 each \"" + rule + "\")\n"},
		// The cursor's row is shown.
		{tildes(9), 4, "0 |~\n1 |~\n2 |~\n3 |~\n4 |~\n5 |~\n6 |~\n7 |~\n8 |~\n"},
		{tildes(13), 6, "(rows 0-5 each \"~\")\n 6 |~\n(rows 7-12 each \"~\")\n"},
		// The text is quoted.
		{slices.Concat([]string{""}, slices.Repeat([]string{`say "hi" now`}, 3)), 0, "0 |\n(rows 1-3 each \"say \\\"hi\\\" now\")\n"},
	} {
		checkTextBody(t, c.rows, c.cursor, c.want)
	}
}

// TestTextNotesBlankRuns: a run of blank rows other than the cursor's, at
// the top, between rows with text or at the bottom, is one note, "(rows
// 2-23 blank)"; a single one is its own line, shorter than a note.
func TestTextNotesBlankRuns(t *testing.T) {
	for _, c := range []struct {
		rows   []string
		cursor int
		want   string
	}{
		{[]string{"", "x", "", ""}, 1, "0 |\n1 |x\n(rows 2-3 blank)\n"},
		{[]string{"", "x", ""}, 1, "0 |\n1 |x\n2 |\n"},
		{[]string{"x"}, 0, "0 |x\n"},
		// A dialog in the middle of the screen (pinentry's).
		{[]string{"", "", "", "x", "", "", "y"}, 3, "(rows 0-2 blank)\n3 |x\n(rows 4-5 blank)\n6 |y\n"},
		// The cursor's row is shown, blank or not.
		{[]string{"", "", "", "x"}, 1, "0 |\n1 |\n2 |\n3 |x\n"},
		{[]string{"", "", "", "", "x"}, 2, "(rows 0-1 blank)\n2 |\n3 |\n4 |x\n"},
	} {
		checkTextBody(t, c.rows, c.cursor, c.want)
	}
}
