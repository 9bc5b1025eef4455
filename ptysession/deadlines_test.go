package ptysession

import (
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// TestCallerDeadlines checks that a caller's timeout and quiet window reach
// the seam, and that the deployer's maximum bounds them.
func TestCallerDeadlines(t *testing.T) {
	forEachSeam(t, Options{MaxTimeout: 20 * time.Second}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("deadlines")
		ctx := testCtx(t)

		// Bounds, on both calls, with the field named.
		for _, c := range []struct {
			name, field    string
			timeout, quiet time.Duration
		}{
			{"timeout above the maximum", "timeout", 21 * time.Second, 0},
			{"quiet above the maximum", "quietWindow", 0, 21 * time.Second},
			{"negative timeout", "timeout", -time.Second, 0},
		} {
			_, err := s.Open(ctx, owner, OpenRequest{Command: "bash", Timeout: c.timeout, QuietWindow: c.quiet})
			wantCode(t, "open: "+c.name, err, core.CodeInvalidArgument)
			if err != nil && !strings.Contains(err.Error(), c.field+":") {
				t.Errorf("open: %s: %v does not name %s", c.name, err, c.field)
			}
		}
		sess := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		_, err := s.Send(ctx, owner, sess.SessionID, SendRequest{Data: "true", Timeout: 21 * time.Second})
		wantCode(t, "send: timeout above the maximum", err, core.CodeInvalidArgument)

		// A short deadline returns while the program still runs (silence
		// cannot settle it first: the quiet window is longer).
		start := time.Now()
		r, err := s.Send(ctx, owner, sess.SessionID, SendRequest{Data: "sleep 30", Timeout: 700 * time.Millisecond, QuietWindow: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if r.WaitReason != core.WaitTimeout {
			t.Fatalf("sleep 30 with a 700 ms deadline settled %s after %s", r.WaitReason, time.Since(start))
		}
		if _, err := s.Signal(ctx, owner, sess.SessionID, "SIGINT"); err != nil {
			t.Fatal(err)
		}

		// A long quiet window waits through a pause the default 3 s
		// window would have settled on. The window is the most the
		// options allow: under load the pause is sleep's 4 s plus however
		// long the shell takes to run sleep and reap it.
		// (A fresh session: the interrupted one's next prompt is not this
		// send's business.)
		fresh := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		r, err = s.Send(ctx, owner, fresh.SessionID, SendRequest{Data: "echo one; sleep 4; echo two-$((1+1))", QuietWindow: 20 * time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(r.Delta, "two-2") {
			t.Fatalf("settled %s before the second burst: %q", r.WaitReason, r.Delta)
		}

		// pty_open takes them too: a 500 ms deadline on a command that
		// keeps running.
		start = time.Now()
		o := mustOpen(t, s, owner, OpenRequest{Command: "sleep 30", Timeout: 500 * time.Millisecond, QuietWindow: 20 * time.Second})
		if o.WaitReason != core.WaitTimeout {
			t.Fatalf("open of sleep 30 with a 500 ms deadline settled %q after %s", o.WaitReason, time.Since(start))
		}
	})
}
