package core

import (
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core/scrollback"
)

func TestCommandLineFollowsKeys(t *testing.T) {
	atPrompt := scrollback.Marks{PromptEnds: 3}
	for _, tc := range []struct {
		name  string
		marks scrollback.Marks // as the keys are written
		keys  []string
		want  string
	}{
		{"plain text", atPrompt, []string{"q", "ls -l"}, "qls -l"},
		{"backspace and ctrl-u", atPrompt, []string{"héllo\x7f\x7f", "\x15ok"}, "ok"},
		{"backspace takes a whole character", atPrompt, []string{"é\x7f"}, ""},
		{"a cursor key", atPrompt, []string{"ab\x1b[D"}, ""},
		{"a tab completes", atPrompt, []string{"ec\t"}, ""},
		{"text after the prompt's end", scrollback.Marks{PromptEnds: 3, TextSincePromptEnd: 4}, []string{"q"}, ""},
		{"no prompt marker", scrollback.Marks{}, []string{"q"}, ""},
		{"longer than followed", atPrompt, []string{strings.Repeat("x", maxCommandLine), "y"}, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var c commandLine
			for _, k := range tc.keys {
				c.typed(tc.marks, []byte(k), true)
			}
			if got := c.at(tc.marks); got != tc.want {
				t.Fatalf("command line %q, want %q", got, tc.want)
			}
		})
	}
	// A submitted line, or the next prompt, leaves nothing named.
	var c commandLine
	c.typed(atPrompt, []byte("q"), true)
	c.typed(atPrompt, []byte("ls\r"), false)
	if got := c.at(atPrompt); got != "" {
		t.Fatalf("after a submitted line: %q", got)
	}
	c.typed(atPrompt, []byte("q"), true)
	if got := c.at(scrollback.Marks{PromptEnds: 4}); got != "" {
		t.Fatalf("at the next prompt: %q", got)
	}
}
