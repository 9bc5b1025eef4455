package scrollback

import (
	"slices"
	"testing"
)

// TestPasteModeFollowsTheProgram: the buffer follows bracketed paste as
// the program sets it (alone or among other modes) and resets it, and
// as a full reset ends it, and whether the program hid its cursor since
// (an editor that redraws its input); the modes print nothing.
func TestPasteModeFollowsTheProgram(t *testing.T) {
	steps := []struct {
		out  string
		want PasteMode
	}{
		{"$ \x1b[?25l", PasteMode{}},
		{"\x1b[?2004h>>> ", PasteMode{Bracketed: true}},
		{"\x1b[?25lprint(1)\x1b[?25h\n1\n", PasteMode{Bracketed: true, Redraws: true}},
		{"\x1b[?2004l\r", PasteMode{}},
		{"\x1b[?1;2004h", PasteMode{Bracketed: true}},
		{"\x1b[25l\x1b[2004l", PasteMode{Bracketed: true}}, // not private modes
		{"\x1b[?1;25l", PasteMode{Bracketed: true, Redraws: true}},
		{"\x1b[?2004h", PasteMode{Bracketed: true}}, // asked again: a new editor
		{"\x1bc", PasteMode{}},
		{"\x1b[?20", PasteMode{}}, // split across writes
		{"04h", PasteMode{Bracketed: true}},
	}
	b := New(Limits{})
	for _, s := range steps {
		b.Write([]byte(s.out))
		if got := b.PasteMode(); got != s.want {
			t.Fatalf("after %q: PasteMode() = %+v, want %+v", s.out, got, s.want)
		}
	}
	if got, want := everything(b).Lines, []string{"$ >>> print(1)", "1"}; !slices.Equal(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
}

// TestCursorHiddenFollowsTheProgram: the buffer follows the cursor's
// visibility as the program sets it (alone or among other modes), and a
// full reset shows it again.
func TestCursorHiddenFollowsTheProgram(t *testing.T) {
	steps := []struct {
		out  string
		want bool
	}{
		{"$ ", false},
		{"\x1b[?25l", true},
		{"\x1b[?25h", false},
		{"\x1b[?1049;25l", true},
		{"\x1b[25h", true}, // not a private mode
		{"\x1b[?2", true},  // split across writes
		{"5h", false},
		{"\x1b[?25l\x1bc", false},
	}
	b := New(Limits{})
	for _, s := range steps {
		b.Write([]byte(s.out))
		if got := b.CursorHidden(); got != s.want {
			t.Fatalf("after %q: CursorHidden() = %v, want %v", s.out, got, s.want)
		}
	}
}
