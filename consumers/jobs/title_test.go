//go:build unix

package jobs

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestDefaultTitleFitsAnyCommand: the title defaults to the command, and
// a command too long (or too odd) to be a title still launches, with the
// title cut to MaxNameLen and its control characters replaced: the
// launch was refused as an invalid "title", a field the caller never set.
func TestDefaultTitleFitsAnyCommand(t *testing.T) {
	f := newFixture(t, Config{})
	long := "/usr/bin/" + strings.Repeat("./", MaxNameLen) + "true"
	info := f.launch(t, LaunchRequest{Command: long})
	if len(info.Title) > MaxNameLen || !utf8.ValidString(info.Title) || !strings.HasPrefix(long, info.Title) {
		t.Errorf("title %q (%d bytes) for a %d-byte command", info.Title, len(info.Title), len(long))
	}
	if got := defaultTitle("a\tb\x7fc"); got != "a?b?c" {
		t.Errorf("defaultTitle with control characters = %q", got)
	}
	if got := defaultTitle(strings.Repeat("é", MaxNameLen)); len(got) > MaxNameLen || !utf8.ValidString(got) || len(got) < MaxNameLen-1 {
		t.Errorf("defaultTitle of two-byte characters = %d bytes, valid %v", len(got), utf8.ValidString(got))
	}
}
