package pipebackend

import (
	"bytes"
	"context"
	"errors"
	"io"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

func spawn(t *testing.T, b *Backend, argv ...string) *session {
	t.Helper()
	bs, err := b.Spawn(context.Background(), core.BackendRequest{Command: argv, Marker: "test-" + strconv.FormatInt(time.Now().UnixNano(), 36)})
	if err != nil {
		t.Fatalf("spawn %q: %v", argv, err)
	}
	s := bs.(*session)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		defer cancel()
		if err := s.Close(ctx); err != nil {
			t.Errorf("close: %v", err)
		}
		assertGone(t, s.pid)
	})
	return s
}

// reader collects a session's output on its own goroutine, as the core
// service does.
type reader struct {
	mu   chan struct{} // 1-slot lock
	buf  bytes.Buffer
	err  error
	done chan struct{}
}

func startReader(s *session) *reader {
	r := &reader{mu: make(chan struct{}, 1), done: make(chan struct{})}
	go func() {
		defer close(r.done)
		p := make([]byte, 4096)
		for {
			n, err := s.Read(p)
			r.mu <- struct{}{}
			r.buf.Write(p[:n])
			if err != nil {
				r.err = err
			}
			<-r.mu
			if err != nil {
				return
			}
		}
	}()
	return r
}

func (r *reader) text() string {
	r.mu <- struct{}{}
	defer func() { <-r.mu }()
	return r.buf.String()
}

// waitFor polls until the output contains want.
func (r *reader) waitFor(t *testing.T, want string) string {
	t.Helper()
	deadline := time.Now().Add(testenv.HangBound)
	for time.Now().Before(deadline) {
		if s := r.text(); strings.Contains(s, want) {
			return s
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("output never contained %q; got %q", want, r.text())
	return ""
}

func (r *reader) waitEOF(t *testing.T) {
	t.Helper()
	select {
	case <-r.done:
		if !errors.Is(r.err, io.EOF) {
			t.Fatalf("reader ended with %v, want io.EOF", r.err)
		}
	case <-time.After(testenv.HangBound):
		t.Fatal("reader never saw EOF")
	}
}

// assertGone fails unless pid no longer runs (a zombie counts as gone).
func assertGone(t *testing.T, pid int) {
	t.Helper()
	if (proc{pid: pid}).zombieOrGone() {
		return
	}
	t.Errorf("process %d survived", pid)
}
