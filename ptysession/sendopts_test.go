package ptysession

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness/scripted"
)

// OmitEcho and OmitPrompt leave the typed line and the prompt out of a
// send's result, on a real shell.
func TestSendOmitsEchoAndPrompt(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "echo omitted-$((2*3))", OmitEcho: true, OmitPrompt: true})
		if err != nil || res.WaitReason != core.WaitPrompt {
			t.Fatalf("send %+v %v", res, err)
		}
		if res.Delta != "omitted-6\n" {
			t.Fatalf("delta %q, want the output alone", res.Delta)
		}
		// Two lines in one send: the echoes go (where the send settles, at
		// the first or the last prompt, is the seam's business).
		res, err = s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "echo one\necho two", OmitEcho: true, OmitPrompt: true})
		if err != nil || !strings.HasPrefix(res.Delta, "one\n") || strings.Contains(res.Delta, "echo") {
			t.Fatalf("multi-line send %+v %v", res, err)
		}
	})
}

func TestOmitEchoUnit(t *testing.T) {
	for _, c := range []struct{ out, data, want string }{
		{"ls\na b\n$ ", "ls", "a b\n$ "},
		{"user@h:~$ ls\na b\n", "ls", "a b\n"},
		{"echo a\na\n", "echo a", "a\n"},
		{"x\n", "", "x\n"},
		{"no echo here\n", "secret", "no echo here\n"},
		{"cat <<E\n> 1\n> E\n1\n", "cat <<E\n1\nE", "1\n"},
		// readline shows a tab as the spaces to the next tab stop.
		{"cat <<E\n>       one\n>               two     3\n> E\none\n", "cat <<E\n\tone\n\t\ttwo\t3\nE", "one\n"},
		{"$ printf a\tb\na\n", "printf a\tb", "a\n"},
	} {
		if got := omitEcho(c.out, c.data); got != c.want {
			t.Errorf("omitEcho(%q, %q) = %q, want %q", c.out, c.data, got, c.want)
		}
	}
	if got := omitPrompt("a\n$ "); got != "a\n" {
		t.Errorf("omitPrompt = %q", got)
	}
}

var slowScript = scripted.Script{Replies: map[string]scripted.Reply{
	"slow": {Output: "working\n", Settle: core.WaitInferredIdle},
	"fast": {Output: "done\n"},
}}

// A queued send waits for the one in flight instead of failing; without
// Queue it is SEND_ACTIVE; the queue is bounded and a queued send's ctx
// cancels it before anything is written.
func TestSendQueue(t *testing.T) {
	s, b := scriptedFacadeOn(t, core.Options{MaxQueuedSends: 1}, Options{}, slowScript)
	owner := core.NewOwner("agent")
	ctx := testCtx(t)
	r, err := s.Open(ctx, owner, OpenRequest{})
	if err != nil {
		t.Fatal(err)
	}
	id := r.SessionID
	slowDone := make(chan SendResult, 1)
	go func() {
		res, _ := s.Send(ctx, owner, id, SendRequest{Data: "slow", QuietWindow: 400 * time.Millisecond})
		slowDone <- res
	}()
	waitInputs(t, b, 1)
	if _, err := s.Send(ctx, owner, id, SendRequest{Data: "fast"}); !errors.Is(err, core.ErrSendActive) {
		t.Fatalf("unqueued send during a send: %v, want SEND_ACTIVE", err)
	}
	var wg sync.WaitGroup
	var queued SendResult
	var queuedErr error
	wg.Go(func() {
		queued, queuedErr = s.Send(ctx, owner, id, SendRequest{Data: "fast", Queue: true})
	})
	waitQueued(t, s, owner, id, 1)
	_, err = s.Send(ctx, owner, id, SendRequest{Data: "fast", Queue: true})
	if !errors.Is(err, core.ErrSendActive) || !strings.Contains(err.Error(), "already wait") {
		t.Fatalf("send beyond the queue bound: %v, want SEND_ACTIVE", err)
	}
	wg.Wait()
	if queuedErr != nil || queued.Delta != "fast\ndone\n$ " || queued.WaitReason != core.WaitPrompt {
		t.Fatalf("queued send %+v %v", queued, queuedErr)
	}
	if slow := <-slowDone; slow.WaitReason != core.WaitInferredIdle {
		t.Fatalf("slow send %+v", slow)
	}

	// A queued send whose ctx ends is CANCELLED and writes nothing.
	go func() {
		_, _ = s.Send(ctx, owner, id, SendRequest{Data: "slow", QuietWindow: 300 * time.Millisecond})
	}()
	waitInputs(t, b, 3)
	cctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := s.Send(cctx, owner, id, SendRequest{Data: "fast", Queue: true}); !errors.Is(err, core.ErrCancelled) {
		t.Fatalf("cancelled queued send: %v", err)
	}
	if _, err := s.Send(ctx, owner, id, SendRequest{Data: "fast", Queue: true}); err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(b.Inputs(), ","); got != "slow,fast,slow,fast" {
		t.Fatalf("inputs %q: the cancelled send wrote", got)
	}
}

func waitInputs(t *testing.T, b *scripted.Backend, n int) {
	t.Helper()
	// waitLimit bounds the wait (1000 polls of a millisecond were a
	// bound of about a second, which a loaded machine can take).
	for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if len(b.Inputs()) >= n {
			return
		}
	}
	t.Fatalf("inputs %q: want %d", b.Inputs(), n)
}

func waitQueued(t *testing.T, s *Sessions, owner *core.Owner, id core.SessionID, n int) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if in, err := s.Terminals().Info(owner, id); err == nil && in.QueuedSends >= n {
			return
		}
	}
	t.Fatalf("no send queued")
}

// A send arriving right after the caller cancelled the send in flight (an
// MCP client's abort, then its next call) waits for the cancelled send to
// finish interrupting instead of failing with SEND_ACTIVE: the cancelled
// send no longer counts, at the facade as at the seam.
func TestSendAfterCancelWaitsForTheInterrupt(t *testing.T) {
	sendAfterCancel(t, 0)
}

// The cancel may reach the server after the next call (an MCP client's
// cancellation notice and its next request travel together): a send that
// finds the slot held waits a moment for the holder to turn out cancelled
// instead of failing with SEND_ACTIVE.
func TestSendRacingItsCancelWaitsForTheInterrupt(t *testing.T) {
	sendAfterCancel(t, 50*time.Millisecond)
}

// sendAfterCancel cancels a running send and, lateBy after the cancel was
// due, sends again: the second send must run.
func sendAfterCancel(t *testing.T, lateBy time.Duration) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("agent")
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		waitPrompt(t, s, owner, r.SessionID)
		lctx, cancel := context.WithCancel(testCtx(t))
		longDone := make(chan error, 1)
		go func() {
			_, err := s.Send(lctx, owner, r.SessionID, SendRequest{Data: "echo tick-$((1+1)); sleep 60"})
			longDone <- err
		}()
		// Cancel once the command runs, then send at once.
		deadline := time.Now().Add(waitLimit)
		for seen := ""; !strings.Contains(seen, "tick-2"); {
			if time.Now().After(deadline) {
				t.Fatalf("the command never ran: %q", seen)
			}
			tail, err := s.Tail(testCtx(t), owner, r.SessionID, 0)
			if err != nil {
				t.Fatal(err)
			}
			seen += tail.Text
			time.Sleep(20 * time.Millisecond)
		}
		if lateBy == 0 {
			cancel()
		} else {
			time.AfterFunc(lateBy, cancel)
		}
		before := newestLine(t, s, owner, r.SessionID)
		res, err := s.Send(testCtx(t), owner, r.SessionID, SendRequest{Data: "echo back-at-$((6*7))"})
		if err != nil {
			t.Fatalf("send right after a cancel: %v", err)
		}
		// The command ran (it was not typed into the command being
		// interrupted). A loaded machine can settle a send on a shell
		// mid-line: then the output follows the early settle.
		got := res.Delta
		if res.WaitReason != core.WaitPrompt {
			t.Logf("early settle: %s (delta %q)", res.WaitReason, res.Delta)
			waitPromptAfter(t, s, owner, r.SessionID, before)
			pg, err := s.Read(testCtx(t), owner, r.SessionID, ReadRequest{Start: before, Count: 50})
			if err != nil {
				t.Fatal(err)
			}
			got = pg.Text
		}
		if !strings.Contains(got, "back-at-42") {
			t.Fatalf("the send right after a cancel did not run: %+v (output %q)", res, got)
		}
		<-longDone
	})
}
