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
	s, err := svc.Spawn(ctxT(t), owner, core.SpawnRequest{Type: "exec", Command: []string{"sh", "-c", "printf 'quiet '; sleep 0.3; printf 'urgent!'; sleep 5"},
		WithTap: true, NoInitialWait: true})
	if err != nil {
		t.Fatal(err)
	}
	s.Tap.SetWakePolicy(1<<20, func(p []byte) bool { return bytes.Contains(p, []byte("!")) })
	// "quiet " is queued but does not wake a blocked reader...
	short, cancel := context.WithTimeout(context.Background(), 150*time.Millisecond)
	asked := time.Now()
	c, err := s.Tap.Next(short)
	cancel()
	if err == nil && time.Since(asked) < 140*time.Millisecond {
		t.Fatalf("a non-urgent chunk woke the reader: %q", c)
	}
	// ...an ended context drains what is queued, and the urgent chunk
	// wakes a reader at once.
	var got []byte
	got = append(got, c...)
	start := time.Now()
	for !bytes.Contains(got, []byte("urgent!")) {
		c, err := s.Tap.Next(ctxT(t))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, c...)
	}
	if !bytes.HasPrefix(got, []byte("quiet ")) {
		t.Fatalf("output out of order or lost: %q", got)
	}
	if waited := time.Since(start); waited > 3*time.Second {
		t.Fatalf("the urgent chunk waited %v", waited)
	}
}
