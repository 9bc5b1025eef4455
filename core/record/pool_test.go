package record

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// Recordings one after another and side by side share the buffers of
// finished ones (the pool), and each file still holds exactly its own
// session's output: a buffer is never handed on while a tap or a
// recording still uses it.
func TestRecordingsReuseBuffersAndKeepTheirOwnOutput(t *testing.T) {
	dir := t.TempDir()
	r, err := New(Options{Dir: filepath.Join(dir, "rec"), All: true})
	if err != nil {
		t.Fatal(err)
	}
	svc := core.New(core.Options{OnSpawn: r.OnSpawn, OnEvent: r.OnEvent})
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	defer r.Close()
	defer func() {
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	}()
	owner := core.NewOwner("pool")

	record := func(round, k int) error {
		var text strings.Builder
		for n := range 20000 {
			fmt.Fprintf(&text, "round %d session %d line %d: é \x1b[1mbold\x1b[0m\n", round, k, n)
		}
		file := filepath.Join(dir, fmt.Sprintf("out-%d-%d.txt", round, k))
		if err := os.WriteFile(file, []byte(text.String()), 0o644); err != nil {
			return err
		}
		s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeExec, Command: []string{"cat", file}, NoInitialWait: true})
		if err != nil {
			return err
		}
		if _, err := svc.Wait(ctx, owner, s.ID); err != nil {
			return err
		}
		if _, err := svc.Close(ctx, owner, s.ID, "done"); err != nil {
			return err
		}
		if err := r.Wait(ctx, s.ID); err != nil {
			return err
		}
		f, err := os.Open(r.Path(s.ID))
		if err != nil {
			return err
		}
		defer f.Close()
		rd, err := NewReader(f)
		if err != nil {
			return err
		}
		var got strings.Builder
		for {
			ev, err := rd.Next()
			if err != nil {
				break
			}
			if ev.Code == "o" {
				got.WriteString(ev.Data)
			}
		}
		if want := strings.ReplaceAll(text.String(), "\n", "\r\n"); got.String() != want {
			return fmt.Errorf("round %d session %d: recorded output differs from the session's (%d bytes, want %d) from byte %d", round, k, got.Len(), len(want), firstDiff(got.String(), want))
		}
		return nil
	}
	for round, sessions := range []int{1, 2, 3, 3} {
		var wg sync.WaitGroup
		errs := make([]error, sessions)
		for k := range sessions {
			wg.Go(func() { errs[k] = record(round, k) })
		}
		wg.Wait()
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		r.pool.mu.Lock()
		kept, n := r.pool.bytes, len(r.pool.bufs)
		r.pool.mu.Unlock()
		if kept == 0 || kept > poolBytes {
			t.Fatalf("after round %d the pool keeps %d buffers, %d bytes: want some, at most %d", round, n, kept, poolBytes)
		}
	}
}
