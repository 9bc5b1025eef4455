//go:build unix

package jobs

import (
	"context"
	"errors"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/ptyseam/ptyseam/core"
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

// TestRefusedLaunchesQuoteWhatTheyRefuseBriefly: a program name longer
// than any path, and a group too long or holding an escape sequence, are
// refused as invalid arguments whose messages quote at most a short,
// escaped piece of what was given (a 300 KB name came back whole, twice,
// in the error a model read).
func TestRefusedLaunchesQuoteWhatTheyRefuseBriefly(t *testing.T) {
	f := newFixture(t, Config{})
	for name, req := range map[string]LaunchRequest{
		"long command": {Command: "echo " + strings.Repeat("y", 300_000)},
		"long group":   {Command: "true", Group: strings.Repeat("g", 500)},
		"escape group": {Command: "true", Group: "g\x1b]0;x\x07"},
	} {
		_, err := f.m.Launch(context.Background(), f.owner, req)
		if !errors.Is(err, core.ErrInvalidArgument) {
			t.Errorf("%s: %v, want INVALID_ARGUMENT", name, err)
			continue
		}
		if msg := err.Error(); len(msg) > 400 || strings.ContainsRune(msg, 0x1b) {
			t.Errorf("%s: a %d-byte message %q", name, len(msg), msg[:min(len(msg), 200)])
		}
	}
}
