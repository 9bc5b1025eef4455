package localpty

import (
	"bytes"
	"context"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/promptmark"
)

// A Ctrl-C at the prompt makes bash abandon the line, count it and print
// a new prompt. On a loaded machine the service can take that prompt in
// before the signal's delivery returns (the caller is descheduled between
// kill(2) and its accounting; a remote answer follows the output). The
// interrupt must still count once: the send after it settles on its own
// prompt, not late on the shell's read.

// reactedSignalBackend starts shells whose SIGINT (a signal, or on a
// relay the interrupt character) returns only once the service has taken
// in a prompt the shell printed after it: the order a loaded machine
// produces by chance, made certain.
type reactedSignalBackend struct {
	*Backend
	spawned chan *reactedSignalSession // each session, as it starts
}

// Spawn wraps the shell's session.
func (b reactedSignalBackend) Spawn(ctx context.Context, req core.BackendRequest) (core.BackendSession, error) {
	s, err := b.spawn(ctx, req)
	if err != nil {
		return nil, err
	}
	r := &reactedSignalSession{session: s}
	b.spawned <- r
	return r, nil
}

// reactedSignalSession counts the prompt ends Read returns and the Read
// calls: the service calls Read again only after it took the previous
// chunk in.
type reactedSignalSession struct {
	*session
	// hideReads: InputWait reports no read, so a send of a partial
	// line stays live until it is cancelled, and no read resets the
	// line bound.
	hideReads atomic.Bool
	mu        sync.Mutex
	tail      []byte // the end of the last chunk (a marker split across reads)
	reads     int    // Read calls begun
	prompts   int    // prompt ends returned
	last      int    // the Read call that returned the newest prompt end
	all       []byte
}

var promptEnd = []byte(promptmark.PromptEnd)

func (r *reactedSignalSession) Read(p []byte) (int, error) {
	r.mu.Lock()
	r.reads++
	call := r.reads
	r.mu.Unlock()
	n, err := r.session.Read(p)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.all = append(r.all, p[:n]...)
	seen := append(r.tail, p[:n]...)
	if c := bytes.Count(seen, promptEnd); c > 0 {
		r.prompts += c
		r.last = call
	}
	r.tail = append([]byte(nil), seen[max(0, len(seen)-len(promptEnd)+1):]...)
	return n, err
}

func (r *reactedSignalSession) Signal(ctx context.Context, req core.SignalRequest) (core.SignalResult, error) {
	before, out := r.promptsNow()
	res, err := r.session.Signal(ctx, req)
	if err == nil && req.Signal == core.SIGINT {
		err = r.awaitPromptTakenIn(ctx, before, out)
	}
	return res, err
}

func (r *reactedSignalSession) Write(ctx context.Context, p []byte) (int, error) {
	before, out := r.promptsNow()
	n, err := r.session.Write(ctx, p)
	if err == nil && bytes.Equal(p, []byte{0x03}) { // a relay's SIGINT
		err = r.awaitPromptTakenIn(ctx, before, out)
	}
	return n, err
}

func (r *reactedSignalSession) InputWait(base core.InputBaseline, taken uint64) (core.InputWait, error) {
	w, err := r.session.InputWait(base, taken)
	if r.hideReads.Load() {
		w.Reading, w.Waiting = false, false
	}
	return w, err
}

// promptsNow returns the prompt ends and the bytes Read returned so far.
func (r *reactedSignalSession) promptsNow() (int, int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.prompts, len(r.all)
}

// awaitPromptTakenIn waits until Read returned a prompt end after the
// first before ones and the service called Read again (it took that
// chunk in), or ctx ends. Bash at times only echoes the interrupt (^C)
// and carries on reading the line, printing the interrupt's prompt when
// the next input comes (seen in 3 of 25 runs beside a busy loop): then,
// once it reads again with nothing left to read, there is no prompt to
// wait for, and the one it prints later comes after the accounting.
func (r *reactedSignalSession) awaitPromptTakenIn(ctx context.Context, before, out int) error {
	for {
		r.mu.Lock()
		done := r.prompts > before && r.reads > r.last
		echoedOnly := r.prompts == before && bytes.Contains(r.all[out:], []byte("^C"))
		r.mu.Unlock()
		if done {
			return nil
		}
		if echoedOnly {
			if st, err := r.session.probe(); err == nil && st.ReadingInput && st.PendingOutput == 0 {
				return nil
			}
		}
		select {
		case <-ctx.Done():
			r.mu.Lock()
			defer r.mu.Unlock()
			return fmt.Errorf("no prompt after the interrupt (prompt ends %d, %d before it; output since %q): %w",
				r.prompts, before, r.all[out:], ctx.Err())
		case <-time.After(time.Millisecond): // the poll's pace (the probe has no event)
		}
	}
}

// reactedShellService is shellService on reactedSignalBackend.
func reactedShellService(t *testing.T, req core.SpawnRequest) (*core.Service, *core.Owner, core.SpawnResult, *reactedSignalSession) {
	t.Helper()
	b := reactedSignalBackend{NewShell(ShellOptions{Options: shortOpts(false)}), make(chan *reactedSignalSession, 1)}
	svc, owner, info := shellServiceOn(t, b, req)
	return svc, owner, info, <-b.spawned
}

// TestInterruptPromptTakenInFirstCountsOnce: each SIGINT's prompt is in
// before the signal returns; every send after one settles on the prompt
// after its own command (before the fix the bound ran a line ahead of the
// shell and the send settled on the shell's read, or on a relay, where
// that read does not count, on silence).
func TestInterruptPromptTakenInFirstCountsOnce(t *testing.T) {
	for _, relay := range []bool{false, true} {
		t.Run(fmt.Sprintf("relay=%v", relay), func(t *testing.T) {
			svc, owner, info, r := reactedShellService(t, core.SpawnRequest{Relay: relay})
			// No read probe: neither a settle on the shell's read
			// nor a send finding the shell waiting resets the bound,
			// so only the interrupt's own accounting is tested.
			r.hideReads.Store(true)
			for i := range 3 {
				ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
				_, err := svc.Signal(ctx, owner, info.ID, core.SignalRequest{Signal: core.SIGINT})
				cancel()
				mustf(t, err, "signal %d", i)
				res := sendWait(t, svc, owner, info.ID, fmt.Sprintf("echo reacted-%d-$((6*7))", i))
				// When bash only echoed the interrupt, the send's
				// first byte ends the line readline carried on with
				// (the shell then runs the rest, "cho ...").
				wantPrompt(t, fmt.Sprintf("send %d after the interrupt", i), res)
				if want := fmt.Sprintf("reacted-%d-42", i); !strings.Contains(res.Delta, want) && !strings.Contains(res.Delta, "cho: command not found") {
					t.Fatalf("send %d: settled before the command ran: %q", i, res.Delta)
				}
			}
		})
	}
}

// TestCancelledSendAtThePromptCountsItsInterruptOnce: a send of a partial
// line, cancelled while the shell still holds the line: the cancel's
// SIGINT finds the shell at its prompt, whose new prompt is in before the
// interrupt is accounted for. The next send settles on its own prompt
// (before the fix: on the shell's read, the bound a line ahead).
func TestCancelledSendAtThePromptCountsItsInterruptOnce(t *testing.T) {
	svc, owner, info, r := reactedShellService(t, core.SpawnRequest{})
	r.hideReads.Store(true) // as in TestInterruptPromptTakenInFirstCountsOnce
	for i := range 2 {
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		op, err := svc.Send(ctx, owner, info.ID, core.SendRequest{Data: "echo never", NoSubmit: true, QuietWindow: waitLimit, Timeout: waitLimit})
		mustf(t, err, "send the partial line %d", i)
		if !op.Cancel() {
			res, _ := op.Wait(ctx)
			cancel()
			t.Fatalf("cancel %d: the send had settled as %s with %q", i, res.WaitReason, res.Delta)
		}
		cancel()
		res := sendWait(t, svc, owner, info.ID, fmt.Sprintf("echo after-cancel-%d-$((6*7))", i))
		wantPrompt(t, fmt.Sprintf("send %d after the cancel", i), res, fmt.Sprintf("after-cancel-%d-42", i))
	}
}
