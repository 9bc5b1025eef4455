package localpty

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// TestTryWriteNeverWaits: on a program that never reads, TryWrite takes
// what the terminal's input buffer holds and then returns 0 without
// waiting, and a Write of the rest still ends with its context.
func TestTryWriteNeverWaits(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"sleep", "60"}})
	line := []byte(strings.Repeat("y", 63) + "\n")
	done := make(chan int, 1)
	go func() {
		total := 0
		for i := 0; i < 1<<14; i++ { // 1 MiB: far more than a terminal buffers
			n, err := tm.s.TryWrite(line)
			if err != nil {
				t.Errorf("TryWrite: %v", err)
				break
			}
			if n == 0 {
				break
			}
			total += n
		}
		done <- total
	}()
	var total int
	select {
	case total = <-done:
	case <-time.After(waitLimit):
		t.Fatal("TryWrite waited for a terminal that never reads")
	}
	if total == 0 || total >= 1<<20 {
		t.Fatalf("TryWrite took %d bytes before the buffer filled; want some, and less than 1 MiB", total)
	}
	// No second TryWrite is asked to return 0 here: the terminal moves its
	// queued input to the line discipline asynchronously (a kernel worker),
	// so room can open between two calls (CI saw one take 64 bytes right
	// after a 0). A terminal that stays full is shown by the Write below.
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	if _, err := tm.s.Write(ctx, bytes.Repeat(line, 64)); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Write after TryWrite filled the terminal: %v, want DeadlineExceeded", err)
	}
}

// TestTryWriteReachesProgram: what TryWrite takes reaches the program
// (cat echoes it), and TryWrite after Close fails like Write.
func TestTryWriteReachesProgram(t *testing.T) {
	tm := startTerm(t, NewExec(ExecOptions{Options: shortOpts(false)}), core.BackendRequest{Command: []string{"cat"}})
	data := []byte("tried-write\n")
	if n, err := tm.s.TryWrite(data); n != len(data) || err != nil {
		t.Fatalf("TryWrite = %d, %v; want %d, nil", n, err, len(data))
	}
	tm.waitForN("tried-write", 2) // the terminal's echo and cat's copy
	mustf(t, tm.s.Close(context.Background()), "close")
	if _, err := tm.s.TryWrite(data); !errors.Is(err, core.ErrSessionClosing) || !errors.Is(err, os.ErrClosed) {
		t.Fatalf("TryWrite after Close: %v", err)
	}
}
