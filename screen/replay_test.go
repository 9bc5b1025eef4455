package screen

import (
	"context"
	"errors"
	"io"
	"os"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/core/record"
)

// TestRecordingReplaysToTheLiveScreen records a session that draws with
// cursor moves, is resized in the middle and reads input, then feeds the
// recording into the same emulator: the final screens must be equal.
func TestRecordingReplaysToTheLiveScreen(t *testing.T) {
	rec, err := record.New(record.Options{Dir: t.TempDir(), All: true})
	if err != nil {
		t.Fatal(err)
	}
	m := NewManager(Options{})
	svc := core.New(core.Options{
		OnSpawn: func(info core.SessionInfo, o *core.Owner, tap *core.Tap) {
			rec.OnSpawn(info, o, tap.Split())
			m.OnSpawn(info, o, tap)
		},
		OnEvent:     rec.OnEvent,
		QuietWindow: 500 * time.Millisecond,
	})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	m.Bind(svc)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
		m.Close()
		rec.Close()
	})
	e := &env{t: t, svc: svc, m: m, owner: core.NewOwner("test")}
	id := e.sh(size24x80, `printf 'first\n'; read a; printf '\e[2J\e[Htop %s\n' "$(stty size)"; for i in $(seq 1 40); do echo "row $i"; done; printf '\e[3;5Hmarked \e[1;31mred\e[0m'; read b; printf '\e[10;1Hdone %s' "$b"`)
	e.waitFor(id, "first", func(s Snapshot) bool { return anyRowHas(s, "first") })
	if err := m.Resize(ctxT(t), e.owner, id, core.Size{Rows: 30, Cols: 100}); err != nil {
		t.Fatal(err)
	}
	e.keys(id, "go", "Enter")
	e.waitFor(id, "marked", func(s Snapshot) bool { return anyRowHas(s, "marked") })
	e.keys(id, "end", "Enter")
	e.waitExit(id)
	live := e.snap(id)
	if !anyRowHas(live, "done end") || !anyRowHas(live, "row 40") {
		t.Fatalf("live screen:\n%s", live.Text())
	}
	path := rec.Path(id)
	if _, err := svc.Close(ctxT(t), e.owner, id, "test"); err != nil {
		t.Fatal(err)
	}
	rec.Close()

	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	r, err := record.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	rp := NewReplayer(core.Size{Rows: uint16(r.Header.Height), Cols: uint16(r.Header.Width)})
	defer rp.Close()
	for {
		ev, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		switch ev.Code {
		case "o":
			if err := rp.Write([]byte(ev.Data)); err != nil {
				t.Fatal(err)
			}
		case "r":
			cols, rows, err := record.ParseSize(ev.Data)
			if err != nil {
				t.Fatal(err)
			}
			if err := rp.Resize(core.Size{Rows: uint16(rows), Cols: uint16(cols)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	replayed := rp.Screen()
	if diff := cmp.Diff(live.Rows, replayed.Rows); diff != "" {
		t.Fatalf("the replayed screen differs from the live one (-live +replayed):\n%s", diff)
	}
	if live.Cursor != replayed.Cursor || live.Size != replayed.Size {
		t.Fatalf("cursor/size: live %+v %v, replayed %+v %v", live.Cursor, live.Size, replayed.Cursor, replayed.Size)
	}
}
