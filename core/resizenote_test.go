package core_test

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// resizeNote is one call of a tap's OnResize callback.
type resizeNote struct {
	size core.Size
	at   int64
}

// noteLog collects a tap's resize notes.
type noteLog struct {
	mu    sync.Mutex
	notes []resizeNote
}

func (l *noteLog) add(size core.Size, at int64) {
	l.mu.Lock()
	l.notes = append(l.notes, resizeNote{size, at})
	l.mu.Unlock()
}

func (l *noteLog) get() []resizeNote {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]resizeNote(nil), l.notes...)
}

// resizeSpyBackend runs real programs with the local exec backend; its
// sessions' Resize records what a tap had been told when the terminal was
// about to change size, and fails when told to.
type resizeSpyBackend struct {
	inner  core.Backend
	notes  *noteLog
	seen   chan []resizeNote // the notes as the backend's Resize found them
	refuse error
}

func (b resizeSpyBackend) Type() string { return "resizespy" }

func (b resizeSpyBackend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	s, err := b.inner.Spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	return resizeSpySession{s, b}, nil
}

type resizeSpySession struct {
	core.BackendSession
	b resizeSpyBackend
}

func (s resizeSpySession) Resize(ctx context.Context, size core.Size) error {
	s.b.seen <- s.b.notes.get()
	if s.b.refuse != nil {
		return s.b.refuse
	}
	return s.BackendSession.Resize(ctx, size)
}

// A tap learns of a resize before the terminal changes size: the program
// can redraw at the new size as soon as it changes, and a screen fed that
// redraw before it knew of the resize drew it at the old size (vi's
// 30-row redraw folded into 24 rows under load). A resize the backend
// refuses is taken back at the same offset.
func TestResizeNoteReachesTapsBeforeTheTerminalChanges(t *testing.T) {
	for name, refuse := range map[string]error{"done": nil, "refused": errors.New("no resize here")} {
		t.Run(name, func(t *testing.T) {
			svc := newService(t, core.Options{})
			notes := &noteLog{}
			seen := make(chan []resizeNote, 1)
			if _, err := svc.Register(resizeSpyBackend{localpty.NewExec(localpty.ExecOptions{}), notes, seen, refuse}); err != nil {
				t.Fatal(err)
			}
			owner := core.NewOwner("agent")
			old := core.Size{Rows: 24, Cols: 80}
			res, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "resizespy", Command: []string{"cat"}, Size: old})
			if err != nil {
				t.Fatal(err)
			}
			tap, err := svc.Tap(owner, res.ID)
			if err != nil {
				t.Fatal(err)
			}
			defer tap.Close()
			tap.OnResize(notes.add)

			size := core.Size{Rows: 30, Cols: 100}
			err = svc.Resize(ctxT(t), owner, res.ID, size)
			before := <-seen
			if len(before) != 1 || before[0].size != size {
				t.Fatalf("the backend resized the terminal after the tap heard %v, want the new size %v first", before, size)
			}
			after := notes.get()
			if refuse == nil {
				if err != nil {
					t.Fatal(err)
				}
				if len(after) != 1 {
					t.Fatalf("notes %v, want one", after)
				}
				return
			}
			if err == nil {
				t.Fatal("the refused resize succeeded")
			}
			if len(after) != 2 || after[1].size != old || after[1].at != after[0].at {
				t.Fatalf("notes %v, want the new size then the old one at the same offset", after)
			}
		})
	}
}
