package record

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// heldDisk passes writes to w, the first one only once open is closed
// (after telling first that it is there).
type heldDisk struct {
	w     io.Writer
	first chan struct{}
	open  chan struct{}
	n     int
}

func (d *heldDisk) Write(p []byte) (int, error) {
	if d.n++; d.n == 1 {
		close(d.first)
		<-d.open
	}
	return d.w.Write(p)
}

// Output that arrives while the recorder gathers a busy session's output
// (held by the tap's wake policy until the interval ends) belongs to that
// busy stretch: it is stamped with the interval it arrived in, not taken
// for a quiet interval's and stamped when the recorder got to it. Here the
// recorder is held in its first write while a second line arrives and the
// terminal is then resized: the line came before the resize, so its event
// must be stamped before the resize's.
func TestOutputHeldInABusyIntervalKeepsItsTime(t *testing.T) {
	dir := t.TempDir()
	rec, err := New(Options{Dir: dir, All: true})
	if err != nil {
		t.Fatal(err)
	}
	disk := &heldDisk{first: make(chan struct{}), open: make(chan struct{})}
	rec.disk = func(w io.Writer) io.Writer { disk.w = w; return disk }
	svc := core.New(core.Options{OnSpawn: rec.OnSpawn, OnEvent: rec.OnEvent})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opened := false
	defer func() {
		if !opened {
			close(disk.open)
		}
		_ = svc.Shutdown(ctx)
		rec.Close()
	}()

	fifo := filepath.Join(dir, "in")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	// Read-write: the open does not wait for cat, and cat's input ends
	// when it is closed.
	in, err := os.OpenFile(fifo, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"cat", fifo}, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	watch, err := svc.Tap(owner, s.ID) // sees the output when the recorder's tap has it
	if err != nil {
		t.Fatal(err)
	}
	defer watch.Close()
	seen := ""
	await := func(text string) {
		t.Helper()
		for !strings.Contains(seen, text) {
			b, err := watch.Next(ctx)
			if err != nil {
				t.Fatalf("waiting for %q in the output (got %q): %v", text, seen, err)
			}
			seen += string(b)
		}
	}

	if _, err := in.WriteString("first\n"); err != nil {
		t.Fatal(err)
	}
	select { // the recorder is busy with the first line, writing it
	case <-disk.first:
	case <-ctx.Done():
		t.Fatal("the recording was never written")
	}
	if _, err := in.WriteString("second\n"); err != nil {
		t.Fatal(err)
	}
	await("second")
	if err := svc.Resize(ctx, owner, s.ID, core.Size{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	close(disk.open)
	opened = true
	_ = in.Close()
	if _, err := svc.Wait(ctx, owner, s.ID); err != nil {
		t.Fatal(err)
	}
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
	var second, resize Event
	var all []Event
	for {
		ev, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, ev)
		switch {
		case ev.Code == "o" && strings.Contains(ev.Data, "second"):
			second = ev
		case ev.Code == "r":
			resize = ev
		}
	}
	if second.Code == "" || resize.Code == "" {
		t.Fatalf("the recording lacks the second line or the resize: %+v", all)
	}
	if second.Time >= resize.Time {
		t.Fatalf("the second line is stamped %.6f, the resize that came after it %.6f: the line was stamped when the recorder took it, not when it arrived (%+v)", second.Time, resize.Time, all)
	}
}
