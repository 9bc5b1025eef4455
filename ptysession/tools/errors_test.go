package tools

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// A message may quote what a caller sent (a path, a pattern): its text
// for a model shows control characters escaped, never as bytes a terminal
// would act on, and keeps at most maxMessageBytes of it.
func TestErrorTextEscapesAndBoundsTheMessage(t *testing.T) {
	e := AsToolError(&core.Error{Code: core.CodeInvalidArgument, Msg: "stat \x1b[31mred\x07 \u009b2J\nnext line\ttab " + strings.Repeat("z", 100_000)}, "")
	text := e.Text()
	for _, r := range text {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r < 0xa0) {
			t.Fatalf("text holds control character %U: %q", r, text[:200])
		}
	}
	for _, want := range []string{`\x1b[31mred\x07`, `\u009b2J`, "\nnext line\ttab", "\nNext: "} {
		if !strings.Contains(text, want) {
			t.Errorf("text %q lacks %q", text[:200], want)
		}
	}
	if len(text) > maxMessageBytes+len("\nNext: ")+len(e.Hint)+64 {
		t.Errorf("text of %d bytes, want the message cut to about %d", len(text), maxMessageBytes)
	}
	plain := AsToolError(&core.Error{Code: core.CodeNoSession, Msg: "no such session"}, "")
	if got := plain.Text(); !strings.HasPrefix(got, "NO_SESSION: no such session\nNext: ") {
		t.Errorf("a plain message became %q", got)
	}
}
