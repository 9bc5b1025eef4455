package record_test

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/record"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// A recording reaching Options.MaxBytes stops with a marker saying so:
// the file stays within the bound and holds a prefix of the output.
func TestRecordingStopsAtItsSizeLimitWithAMarker(t *testing.T) {
	const limit = 256 << 10
	dir := t.TempDir()
	rec, err := record.New(record.Options{Dir: filepath.Join(dir, "rec"), All: true, MaxBytes: limit})
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
	line := append(bytes.Repeat([]byte("0123456789abcdef"), 5), "\r\n"...)
	out := bytes.Repeat(line, (4<<20)/len(line))
	file := filepath.Join(dir, "out.txt")
	if err := os.WriteFile(file, out, 0o644); err != nil {
		t.Fatal(err)
	}
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"cat", file}, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
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
	_, evs := readAll(t, rec.Path(s.ID))
	var got strings.Builder
	for _, ev := range evs {
		if ev.Code == "o" {
			got.WriteString(ev.Data)
		}
	}
	last := evs[len(evs)-1]
	if last.Code != "m" || !strings.Contains(last.Data, "size limit") {
		t.Fatalf("the recording ends with %+v, want the size limit's marker", last)
	}
	printed := bytes.ReplaceAll(out, []byte("\n"), []byte("\r\n"))
	if got.Len() == 0 || !bytes.HasPrefix(printed, []byte(got.String())) {
		t.Fatalf("recorded %d bytes: want a prefix of the output", got.Len())
	}
	if _, err := svc.Wait(ctx, owner, s.ID); err != nil {
		t.Fatal(err)
	}
}
