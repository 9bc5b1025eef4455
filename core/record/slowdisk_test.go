package record

import (
	"bytes"
	"context"
	"io"
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
	s, owner, printed := spawnCat(t, ctx, svc, dir, core.DefaultTapLimit+8<<20)
	if _, err := svc.Wait(ctx, owner, s.ID); err != nil { // while the disk is stalled
		t.Fatalf("the session's output did not reach its end while the recording was stalled: %v", err)
	}
	close(open)
	if err := rec.Wait(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	got, last := recordedOutput(t, rec.Path(s.ID))
	if last.Code != "m" || !strings.Contains(last.Data, "fell too far behind") {
		t.Fatalf("the recording ends with %+v, want the marker of lost output", last)
	}
	n := len(got)
	if n == 0 || n >= len(printed) || !bytes.HasPrefix(printed, []byte(got)) {
		t.Fatalf("recorded %d bytes of %d: want a prefix of the output, not all of it", n, len(printed))
	}
}
