package record

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// spawnCat starts `cat` of a file of at least size bytes of 82-byte
// lines, written into dir, for owner "model", and returns the session,
// its owner and what the terminal prints of the file (its onlcr turns
// each "\n" into "\r\n").
func spawnCat(t *testing.T, ctx context.Context, svc *core.Service, dir string, size int) (core.SpawnResult, *core.Owner, []byte) {
	t.Helper()
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5), "\r\n"...)
	out := bytes.Repeat(line, size/len(line))
	file := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"cat", file}, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	return s, owner, bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
}

// recordedOutput reads the recording at path and returns its output
// events' data joined, and its last event.
func recordedOutput(t *testing.T, path string) (string, Event) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	var got strings.Builder
	var last Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			return got.String(), last
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Code == "o" {
			got.WriteString(ev.Data)
		}
		last = ev
	}
}
