package record

import (
	"bytes"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// stalledDisk blocks every write until open is closed.
type stalledDisk struct {
	w    io.Writer
	open chan struct{}
}

func (d stalledDisk) Write(p []byte) (int, error) {
	<-d.open
	return d.w.Write(p)
}

// A disk too slow for the session's output never holds up the session:
// its output is taken in to the end while the recording cannot write, and
// the recording, once the disk moves again, holds what it had queued (a
// prefix of the output) and ends with a marker saying the rest was lost.
func TestSlowDiskNeverBlocksTheSessionAndStopsTheRecordingWithAMarker(t *testing.T) {
	dir := t.TempDir()
	open := make(chan struct{})
	rec, err := New(Options{Dir: dir, All: true})
	if err != nil {
		t.Fatal(err)
	}
	rec.disk = func(w io.Writer) io.Writer { return stalledDisk{w, open} }
	svc := core.New(core.Options{OnSpawn: rec.OnSpawn, OnEvent: rec.OnEvent})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer func() {
		_ = svc.Shutdown(ctx)
		rec.Close()
	}()

	// More output than a tap holds for a reader that does not read.
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5), "\r\n"...)
	out := bytes.Repeat(line, (core.DefaultTapLimit+8<<20)/len(line))
	file := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"cat", file}, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := svc.Wait(ctx, owner, s.ID); err != nil { // while the disk is stalled
		t.Fatalf("the session's output did not reach its end while the recording was stalled: %v", err)
	}
	close(open)
	if err := rec.Wait(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(rec.Path(s.ID))
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
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if ev.Code == "o" {
			got.WriteString(ev.Data)
		}
		last = ev
	}
	if last.Code != "m" || !strings.Contains(last.Data, "fell too far behind") {
		t.Fatalf("the recording ends with %+v, want the marker of lost output", last)
	}
	printed := bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n")) // the terminal's onlcr
	n := got.Len()
	if n == 0 || n >= len(printed) || !bytes.HasPrefix(printed, []byte(got.String())) {
		t.Fatalf("recorded %d bytes of %d: want a prefix of the output, not all of it", n, len(printed))
	}
}
