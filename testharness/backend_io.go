package testharness

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// testRoundTrip: a prompt without a newline arrives, a line written
// reaches the program and its answer comes back, and "exit" ends it with
// code 0 and io.EOF.
func (bs *backendSuite) testRoundTrip(t *testing.T) {
	s, c := bs.start(t, suiteSize, "echo-repl")
	out := mustSee(t, c, "> ")
	if !bytes.Equal(out, []byte("> ")) {
		t.Errorf("first output = %q, want the bare prompt %q", out, "> ")
	}
	if st := s.ExitStatus(); st.Exited() {
		t.Errorf("ExitStatus of a running program = %v", st)
	}
	if bs.h.LocalProcesses && !ProcessAlive(s.PID()) {
		t.Errorf("PID() = %d, which is not a live process", s.PID())
	}
	write(t, s, "hello backend\r")
	// The terminal echoes the line, then the program answers it.
	mustSee(t, c, "hello backend\r\nhello backend\r\n> ")
	write(t, s, "exit\r")
	out = mustEOF(t, c)
	if !bytes.HasSuffix(out, []byte("bye\r\n")) {
		t.Errorf("output ends %q, want the REPL's goodbye", tail(out, 80))
	}
	if st := mustExit(t, s); st != core.ExitedWithCode(0) {
		t.Errorf("status = %#v, want exited 0", st)
	}
}

// testRawInput: bytes written reach a raw-mode program unchanged (here the
// replies to its terminal queries).
func (bs *backendSuite) testRawInput(t *testing.T) {
	s, c := bs.start(t, suiteSize, "term-queries", "30")
	mustSee(t, c, "\x1b[c\x1b[6n")
	write(t, s, "\x1b[?62;22c\x1b[12;5R")
	out := mustEOF(t, c)
	if !bytes.Contains(out, []byte("DA1 ?62;22\r\nCPR 12 5\r\n")) {
		t.Errorf("output %q does not show both replies", out)
	}
	if st := mustExit(t, s); st != core.ExitedWithCode(0) {
		t.Errorf("status = %v, want exited 0", st)
	}
}

// testOutputAtExit: everything a program prints right before it exits is
// read before io.EOF, byte for byte.
func (bs *backendSuite) testOutputAtExit(t *testing.T) {
	for _, n := range []int{1, 4095, 5 << 20} {
		t.Run(strconv.Itoa(n), func(t *testing.T) {
			s, c := bs.start(t, suiteSize, "burst-exit", strconv.Itoa(n), "7")
			out := mustEOF(t, c)
			got, err := VerifyBurst(out)
			if err != nil {
				t.Fatalf("%d bytes of output: %v", len(out), err)
			}
			if got != n {
				t.Errorf("burst of %d bytes, want %d", got, n)
			}
			if st := mustExit(t, s); st != core.ExitedWithCode(7) {
				t.Errorf("status = %v, want exited 7", st)
			}
		})
	}
}

// testInvalidUTF8: Read passes bytes through; it does not decode them.
func (bs *backendSuite) testInvalidUTF8(t *testing.T) {
	want := []byte("ok \xff\xfe \xc3\x28 \xe2\x82 \xf0\x28\x8c\x28 \x00 \xed\xa0\x80 end")
	s, c := bs.start(t, suiteSize, "write-hex", fmt.Sprintf("%x", want))
	out := mustEOF(t, c)
	if !bytes.Equal(out, want) {
		t.Errorf("output = %q, want %q", out, want)
	}
	mustExit(t, s)
}

// testLargeOutput: 10 MB of lines arrive complete and in order.
func (bs *backendSuite) testLargeOutput(t *testing.T) {
	const lines = 180_000 // about 10.6 MB on the terminal
	s, c := bs.start(t, suiteSize, "flood", strconv.Itoa(lines))
	out := mustEOF(t, c)
	text := strings.TrimSuffix(string(bytes.ReplaceAll(out, []byte("\r\n"), []byte("\n"))), "\n")
	got := strings.Split(text, "\n")
	if len(got) != lines {
		t.Errorf("got %d lines (%d bytes), want %d", len(got), len(out), lines)
	}
	for i := range min(len(got), lines) {
		if got[i] != FloodLine(i) {
			t.Fatalf("line %d = %q, want %q", i, got[i], FloodLine(i))
		}
	}
	if st := mustExit(t, s); st != core.ExitedWithCode(0) {
		t.Errorf("status = %v, want exited 0", st)
	}
}

// testWriteContext: a Write to a program that never reads returns once its
// context ends, with the context's error, and Close still works.
func (bs *backendSuite) testWriteContext(t *testing.T) {
	s, c := bs.start(t, suiteSize, "stall-input")
	mustSee(t, c, "stalled")
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	data := bytes.Repeat([]byte("x"), 8<<20)
	go func() {
		n, err := s.Write(ctx, data)
		done <- result{n, err}
	}()
	select {
	case r := <-done:
		if r.err == nil || r.n >= len(data) {
			t.Fatalf("Write of %d bytes to a program that does not read = %d, %v; want a short write and an error", len(data), r.n, r.err)
		}
		if !errors.Is(r.err, context.DeadlineExceeded) && !errors.Is(r.err, core.ErrCancelled) {
			t.Errorf("Write error = %v, want one matching context.DeadlineExceeded or core.ErrCancelled", r.err)
		}
	case <-time.After(suiteTimeout):
		t.Fatalf("Write did not return after its context ended")
	}
}
