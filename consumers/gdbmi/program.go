package gdbmi

import (
	"context"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"sync"

	"github.com/ptyseam/ptyseam/core"
)

// ProgramOutputBuffer bounds the program output [Client.WaitProgramOutput]
// keeps that no call consumed yet; past it the oldest bytes are dropped
// (and counted in [OutputMatch.Dropped]).
const ProgramOutputBuffer = 1 << 20

// ErrNoProcess is returned by [Client.ProgramPID] when gdb has no live
// process (the program was not started, or it exited).
var ErrNoProcess = errors.New("gdbmi: no live process")

// OutputMatch is what [Client.WaitProgramOutput] found.
type OutputMatch struct {
	// Text is the output consumed by the call: from where the previous
	// call stopped up to the end of the match.
	Text string
	// Groups holds the match and its submatches (Groups[0] is the match).
	Groups []string
	// Dropped counts output bytes dropped unread before Text because more
	// than [ProgramOutputBuffer] bytes were waiting.
	Dropped int64
}

// WaitProgramOutput waits until the program's terminal output that no
// earlier call consumed matches re, consumes it up to the end of the match
// and returns it. Output counts from the start of the client, across
// runs; it is the terminal's raw bytes (lines end in "\r\n", escape
// sequences included). It returns ctx's error when ctx ends first, and an
// error when the program's terminal is gone or the client is closed.
func (c *Client) WaitProgramOutput(ctx context.Context, re *regexp.Regexp) (*OutputMatch, error) {
	if re == nil {
		return nil, fmt.Errorf("gdbmi: WaitProgramOutput: nil pattern")
	}
	if c.progOut == nil {
		return nil, ErrClosed
	}
	return c.progOut.wait(ctx, re)
}

// outputWatcher collects the program terminal's output for
// WaitProgramOutput from a tap attached before gdb started.
type outputWatcher struct {
	tap    *core.Tap
	cancel context.CancelFunc
	done   chan struct{}

	mu      sync.Mutex
	buf     []byte // not consumed yet
	dropped int64
	end     error // why output ended, once it did
	wake    chan struct{}
}

func watchOutput(tap *core.Tap) *outputWatcher {
	ctx, cancel := context.WithCancel(context.Background())
	w := &outputWatcher{tap: tap, cancel: cancel, done: make(chan struct{}), wake: make(chan struct{})}
	go w.loop(ctx)
	return w
}

func (w *outputWatcher) loop(ctx context.Context) {
	defer close(w.done)
	for {
		chunk, err := w.tap.Next(ctx)
		w.mu.Lock()
		w.buf = append(w.buf, chunk...)
		if over := len(w.buf) - ProgramOutputBuffer; over > 0 {
			w.buf = append(w.buf[:0], w.buf[over:]...)
			w.dropped += int64(over)
		}
		if err != nil {
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				err = errors.New("gdbmi: the program's terminal is closed")
			}
			w.end = err
		}
		close(w.wake)
		w.wake = make(chan struct{})
		w.mu.Unlock()
		if err != nil {
			return
		}
	}
}

func (w *outputWatcher) wait(ctx context.Context, re *regexp.Regexp) (*OutputMatch, error) {
	for {
		w.mu.Lock()
		if loc := re.FindSubmatchIndex(w.buf); loc != nil {
			m := &OutputMatch{Text: string(w.buf[:loc[1]]), Dropped: w.dropped}
			for i := 0; i+1 < len(loc); i += 2 {
				if loc[i] < 0 {
					m.Groups = append(m.Groups, "")
					continue
				}
				m.Groups = append(m.Groups, string(w.buf[loc[i]:loc[i+1]]))
			}
			w.buf = append(w.buf[:0], w.buf[loc[1]:]...)
			w.dropped = 0
			w.mu.Unlock()
			return m, nil
		}
		if w.end != nil {
			err := w.end
			w.mu.Unlock()
			return nil, fmt.Errorf("gdbmi: waiting for %q in the program's output: %w", re, err)
		}
		wake := w.wake
		w.mu.Unlock()
		select {
		case <-wake:
		case <-ctx.Done():
			return nil, fmt.Errorf("gdbmi: waiting for %q in the program's output: %w", re, ctx.Err())
		}
	}
}

func (w *outputWatcher) stop() {
	w.cancel()
	w.tap.Close()
	<-w.done
}

// ProgramPID returns the process id of the program gdb debugs (started
// or attached), from -list-thread-groups; [ErrNoProcess] when there is
// none.
func (c *Client) ProgramPID(ctx context.Context) (int, error) {
	res, err := c.Exec(ctx, "-list-thread-groups")
	if err != nil {
		return 0, err
	}
	var out struct {
		Groups []struct {
			ID  string `mi:"id"`
			PID int    `mi:"pid"`
		} `mi:"groups"`
	}
	if err := res.Decode(&out); err != nil {
		return 0, err
	}
	for _, g := range out.Groups {
		if g.PID > 0 {
			return g.PID, nil
		}
	}
	return 0, ErrNoProcess
}

// Attach makes gdb debug the running process pid (-target-attach), which
// gdb did not start. The process stops; [Client.WaitStopped] returns that
// stop. [Client.Detach] lets it go, and so does [Client.Close]: gdb
// detaches from processes it attached to instead of killing them.
func (c *Client) Attach(ctx context.Context, pid int) error {
	if pid <= 0 {
		return fmt.Errorf("gdbmi: attach: invalid process id %d", pid)
	}
	_, err := c.Exec(ctx, "-target-attach", strconv.Itoa(pid))
	return err
}

// Detach ends debugging of the current process (-target-detach), stopped
// or running: an attached process runs on, untraced; a program gdb
// started runs on too, outside gdb.
func (c *Client) Detach(ctx context.Context) error {
	_, err := c.Exec(ctx, "-target-detach")
	return err
}
