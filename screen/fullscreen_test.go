package screen

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// TestKeysAfterEscapeShowTheProgramsReaction types text in vi's insert
// mode and presses Escape: vi waits its escape timeout (1 s without a
// vimrc) before it leaves insert mode and redraws, and the screen returned
// must be the one after that, not insert mode with a pending ^[.
func TestKeysAfterEscapeShowTheProgramsReaction(t *testing.T) {
	e := newEnv(t, Options{})
	id := e.vim(size24x80, filepath.Join(t.TempDir(), "notes.txt"))
	r := e.keys(id, "ihello world", "Escape")
	if r.Screen.Rows[0] != "hello world" {
		t.Fatalf("row 0 %q, want the typed text", r.Screen.Rows[0])
	}
	for i, row := range r.Screen.Rows {
		if strings.Contains(row, "-- INSERT --") || strings.Contains(row, "^[") {
			t.Fatalf("row %d %q: the screen is from before vi reacted to Escape:\n%s", i, row, r.Screen.Text())
		}
	}
}

// TestKeysLeavingFullScreenReturnNewRows quits vi started from a shell
// whose screen was full: the result holds the rows new on the normal
// screen (the next prompt), not the screen the model had read before,
// whether the keys asked for the changed rows only or not.
func TestKeysLeavingFullScreenReturnNewRows(t *testing.T) {
	for _, changedOnly := range []bool{false, true} {
		t.Run(map[bool]string{false: "whole", true: "changedOnly"}[changedOnly], func(t *testing.T) {
			e := newEnv(t, Options{})
			id := e.spawn(size24x80, "bash", "--noprofile", "--norc", "-i")
			e.waitFor(id, "a prompt", func(s Snapshot) bool {
				return strings.Contains(s.Rows[s.Cursor.Row], "$") || strings.Contains(s.Rows[s.Cursor.Row], "#")
			})
			e.keys(id, "seq 1 30", "Enter")
			e.waitFor(id, "seq's output", func(s Snapshot) bool { return anyRowHas(s, "30") && s.Cursor.Row == 23 })
			file := filepath.Join(t.TempDir(), "x.txt")
			e.keys(id, "vi -u NONE -i NONE -N -n "+file, "Enter")
			e.waitFor(id, "vi", func(s Snapshot) bool { return s.AltScreen && rowHas(s, 21, "~") })
			r, err := e.m.SendKeys(ctxT(t), e.owner, id, KeysRequest{Text: ":q", Keys: []string{"Enter"}, ChangedOnly: changedOnly})
			if err != nil {
				t.Fatal(err)
			}
			if !r.LeftFullScreen || r.Screen.AltScreen {
				t.Fatalf("left %v, alt %v: want the normal screen after :q", r.LeftFullScreen, r.Screen.AltScreen)
			}
			if !r.Screen.ChangedOnly || len(r.Screen.Rows) > 2 {
				t.Fatalf("got %d rows, want only the new ones:\n%s", len(r.Screen.Rows), r.Screen.Text())
			}
			last := r.Screen.Rows[len(r.Screen.Rows)-1]
			if !strings.Contains(last, "$") && !strings.Contains(last, "#") {
				t.Fatalf("last new row %q, want the next prompt:\n%s", last, r.Screen.Text())
			}
			// A later look is a whole screen again.
			if s := e.snap(id); s.ChangedOnly || len(s.Rows) != 24 {
				t.Fatalf("snapshot after leaving: %d rows, changedOnly %v", len(s.Rows), s.ChangedOnly)
			}
		})
	}
}

func TestQueryScannerFollowsTheAlternateScreen(t *testing.T) {
	for _, tc := range []struct {
		name   string
		chunks []string
		want   bool
	}{
		{"1049 on", []string{"x\x1b[?1049h\x1b[H"}, true},
		{"split across chunks", []string{"\x1b[?10", "49", "h"}, true},
		{"on then off", []string{"\x1b[?1049h~~~", "\x1b[?1049l$ "}, false},
		{"1047", []string{"\x1b[?1047h"}, true},
		{"47, which the emulator ignores too", []string{"\x1b[?47h"}, false},
		{"1047 off", []string{"\x1b[?1047h", "\x1b[?1047l"}, false},
		{"with other modes", []string{"\x1b[?1;1049h"}, true},
		{"reset", []string{"\x1b[?1049h", "\x1bc"}, false},
		{"not private", []string{"\x1b[1049h"}, false},
		{"other mode", []string{"\x1b[?25l\x1b[?1h"}, false},
	} {
		var s queryScanner
		for _, c := range tc.chunks {
			s.scan([]byte(c))
		}
		if s.alt != tc.want {
			t.Errorf("%s: alt %v, want %v", tc.name, s.alt, tc.want)
		}
	}
}

func TestNewOnNormal(t *testing.T) {
	old := []string{"$ seq 1 3", "1", "2", "3", "$ vi x", "", ""}
	snap := func(rows []string, cursor int) Snapshot {
		return Snapshot{Rows: rows, Cursor: Cursor{Row: cursor}, Changed: []int{0, 1, 2, 3, 4, 5, 6}}
	}
	for _, tc := range []struct {
		name     string
		now      Snapshot
		wantRows []string
		wantAt   []int
	}{
		{"no scroll", snap([]string{"$ seq 1 3", "1", "2", "3", "$ vi x", "$ ", ""}, 5), []string{"$ "}, []int{5}},
		{"a message and the prompt", snap([]string{"$ seq 1 3", "1", "2", "3", "$ vi x", "saved", "$ "}, 6), []string{"saved", "$ "}, []int{5, 6}},
		{"scrolled by two", snap([]string{"2", "3", "$ vi x", "a", "b", "c", "$ "}, 6), []string{"a", "b", "c", "$ "}, []int{3, 4, 5, 6}},
	} {
		got := newOnNormal(tc.now, old, 5)
		if !got.ChangedOnly || !reflect.DeepEqual(got.Rows, tc.wantRows) || !reflect.DeepEqual(got.Changed, tc.wantAt) {
			t.Errorf("%s: rows %q at %v (changedOnly %v), want %q at %v", tc.name, got.Rows, got.Changed, got.ChangedOnly, tc.wantRows, tc.wantAt)
		}
	}
	// Nothing of the old screen is left (cleared, or scrolled off): the
	// rows from the top down to the cursor are new.
	cleared := snap([]string{"x", "$ ", "", "", "", "", ""}, 1)
	if got := newOnNormal(cleared, []string{"a", "b", "c", "d", "e", "f", "g"}, 6); !reflect.DeepEqual(got.Rows, []string{"x", "$ "}) {
		t.Errorf("cleared: rows %q, want the rows down to the cursor", got.Rows)
	}
	// A size that does not match the old screen's: the whole screen.
	if got := newOnNormal(cleared, []string{"a"}, 0); got.ChangedOnly || len(got.Rows) != 7 {
		t.Errorf("resized: %d rows, changedOnly %v; want the whole screen", len(got.Rows), got.ChangedOnly)
	}
}

func TestShorterKeepsTheWholeScreenWhenAllChanged(t *testing.T) {
	row := strings.Repeat("x", 60)
	s := Snapshot{Rows: []string{row, row, "c"}, Changed: []int{0, 1, 2}}
	if got := shorter(s); got.ChangedOnly {
		t.Fatal("every row changed: the whole screen is as short")
	}
	s.Changed = []int{2}
	if got := shorter(s); !got.ChangedOnly || !reflect.DeepEqual(got.Rows, []string{"c"}) {
		t.Fatalf("one row changed: got %+v", got)
	}
}
