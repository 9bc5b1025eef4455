package core_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

func TestTapSeesEveryByteFromTheStart(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"printf", "first-byte-on"}, WithTap: true, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	for {
		c, err := s.Tap.Next(ctxT(t))
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c...)
	}
	if string(got) != "first-byte-on" {
		t.Fatalf("tap saw %q", got)
	}
}

func TestTapWakePolicyBatchesUntilUrgent(t *testing.T) {
	svc := newService(t, core.Options{})
	owner := core.NewOwner("agent")
	// The urgent chunk comes only once the test types a line, never on a
	// schedule that a loaded machine could stretch past the first Next.
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"sh", "-c", "printf 'quiet '; read x; printf 'urgent!'; exec sleep 60"},
		WithTap: true, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Tap.SetWakePolicy(1<<20, func(p []byte) bool { return bytes.Contains(p, []byte("!")) })
	// "quiet " is queued (or on its way) but does not wake a blocked
	// reader: Next returns only because its context ended.
	short, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	c, err := s.Tap.Next(short)
	if short.Err() == nil {
		t.Fatalf("a non-urgent chunk woke the reader: %q, %v", c, err)
	}
	cancel()
	got := c // an ended context may have drained what was queued
	// The urgent chunk wakes a reader with no deadline of its own (the
	// program then sleeps: neither the size nor the end of output can).
	if _, err := svc.Write(ctxT(t), owner, s.ID, []byte("go\n")); err != nil {
		t.Fatal(err)
	}
	for !bytes.Contains(got, []byte("urgent!")) {
		c, err := s.Tap.Next(ctxT(t))
		if err != nil {
			t.Fatalf("after %q: %v", got, err)
		}
		got = append(got, c...)
	}
	if !bytes.HasPrefix(got, []byte("quiet ")) {
		t.Fatalf("output out of order or lost: %q", got)
	}
}

func TestTapSplitSeesTheSameOutput(t *testing.T) {
	var split *core.Tap
	got := make(chan *core.Tap, 1)
	svc := newService(t, core.Options{OnSpawn: func(_ core.SessionInfo, _ *core.Owner, tap *core.Tap) {
		split = tap.Split()
		got <- tap
	}})
	owner := core.NewOwner("o")
	s := spawnShell(t, svc, owner)
	first := <-got
	defer first.Close()
	defer split.Close()
	send(t, svc, owner, s.ID, "echo split-$((1+1))")
	for _, tap := range []*core.Tap{first, split} {
		waitOutput(t, tap, "split-2")
	}
}
