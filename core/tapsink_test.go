package core_test

import (
	"errors"
	"io"
	"sync"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// TestTapSinkTakesEveryByteInOrder sets a sink on a tap that already
// queued output: the sink gets what was queued, then every later chunk, in
// order; Next then only reports the end of output.
func TestTapSinkTakesEveryByteInOrder(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec",
		Command: []string{"sh", "-c", "printf 'before '; read x; printf 'after'"}, WithTap: true, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	// Wait until "before " is queued, so that the sink must take it over.
	var got []byte
	for len(got) < len("before ") {
		c, err := s.Tap.Next(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c...)
	}
	var mu sync.Mutex
	var sunk []byte
	s.Tap.SetSink(func(p []byte) {
		mu.Lock()
		sunk = append(sunk, p...)
		mu.Unlock()
	})
	if _, err := svc.Write(ctxT(t), owner, s.ID, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	if c, err := s.Tap.Next(ctxT(t)); !errors.Is(err, io.EOF) {
		t.Fatalf("Next after SetSink: %q, %v (want io.EOF)", c, err)
	}
	mu.Lock()
	defer mu.Unlock()
	all := string(got) + string(sunk)
	if all != "before go\r\nafter" && all != "before after" {
		t.Fatalf("Next then the sink saw %q", all)
	}
}
