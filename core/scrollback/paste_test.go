package scrollback

import (
	"slices"
	"testing"
)

// TestBracketedPasteFollowsTheProgram: the buffer follows bracketed
// paste as the program sets it (alone or among other modes) and resets
// it, and as a full reset ends it; the mode's sequences print nothing.
func TestBracketedPasteFollowsTheProgram(t *testing.T) {
	steps := []struct {
		out  string
		want bool
	}{
		{"$ ", false},
		{"\x1b[?2004h>>> ", true},
		{"print(1)\n1\n", true},
		{"\x1b[?2004l\r", false},
		{"\x1b[?1;2004h", true},
		{"\x1b[2004l", true}, // not a private mode
		{"\x1bc", false},
		{"\x1b[?20", false}, // split across writes
		{"04h", true},
	}
	b := New(Limits{})
	for _, s := range steps {
		b.Write([]byte(s.out))
		if got := b.BracketedPaste(); got != s.want {
			t.Fatalf("after %q: BracketedPaste() = %v, want %v", s.out, got, s.want)
		}
	}
	if got, want := everything(b).Lines, []string{"$ >>> print(1)", "1"}; !slices.Equal(got, want) {
		t.Fatalf("lines %q, want %q", got, want)
	}
}
