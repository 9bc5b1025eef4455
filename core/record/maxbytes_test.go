package record

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// A recording reaching Options.MaxBytes stops with a marker saying so:
// the file stays within the bound and holds a prefix of the output.
func TestRecordingStopsAtItsSizeLimitWithAMarker(t *testing.T) {
	const limit = 256 << 10
	dir := t.TempDir()
	rec, err := New(Options{Dir: filepath.Join(dir, "rec"), All: true, MaxBytes: limit})
	if err != nil {
		t.Fatal(err)
	}
	svc := core.New(core.Options{OnSpawn: rec.OnSpawn, OnEvent: rec.OnEvent})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	defer func() {
		_ = svc.Shutdown(ctx)
		rec.Close()
	}()
	s, owner, printed := spawnCat(t, ctx, svc, dir, 4<<20)
	if err := rec.Wait(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(rec.Path(s.ID))
	if err != nil {
		t.Fatal(err)
	}
	if fi.Size() > limit {
		t.Fatalf("the recording holds %d bytes, want at most %d", fi.Size(), limit)
	}
	got, last := recordedOutput(t, rec.Path(s.ID))
	if last.Code != "m" || !strings.Contains(last.Data, "size limit") {
		t.Fatalf("the recording ends with %+v, want the size limit's marker", last)
	}
	if len(got) == 0 || !bytes.HasPrefix(printed, []byte(got)) {
		t.Fatalf("recorded %d bytes: want a prefix of the output", len(got))
	}
	if _, err := svc.Wait(ctx, owner, s.ID); err != nil {
		t.Fatal(err)
	}
}
