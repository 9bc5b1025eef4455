package localpty

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// TestReaderNamesTheProgramThatReads: the description of who reads the
// terminal names the shell itself for its own read, and a program the
// shell started, by executable and arguments, once it reads.
func TestReaderNamesTheProgramThatReads(t *testing.T) {
	svc, owner, info := shellService(t, core.SpawnRequest{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*waitLimit)
	defer cancel()
	reader := func(want func(core.TerminalReader) bool) core.TerminalReader {
		t.Helper()
		for {
			r, err := svc.Reader(owner, info.ID)
			mustf(t, err, "reader")
			if want(r) {
				return r
			}
			if ctx.Err() != nil {
				t.Fatalf("the reader never showed: %+v", r)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	reading := func(r core.TerminalReader) []core.ReaderProgram {
		var out []core.ReaderProgram
		for _, p := range r.Programs {
			if p.Reading {
				out = append(out, p)
			}
		}
		return out
	}

	sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: `read -rs -p "Password: " pw`})
	r := reader(func(r core.TerminalReader) bool { return len(reading(r)) == 1 })
	if p := reading(r)[0]; !r.Leader || r.Group != info.PID || p.PID != info.PID || filepath.Base(p.Exe) != "bash" {
		t.Fatalf("the shell's own read: %+v", r)
	}
	sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: "x"})

	sendRequest(ctx, t, svc, owner, info.ID, core.SendRequest{Data: "(exec -a innocent cat -u -)"})
	r = reader(func(r core.TerminalReader) bool { return !r.Leader && len(reading(r)) == 1 })
	p := reading(r)[0]
	if p.PID != r.Group || filepath.Base(p.Exe) != "cat" || !slices.Equal(p.Argv, []string{"innocent", "-u", "-"}) {
		t.Fatalf("cat: %+v", r)
	}
}
