package ptysession

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// TestWait waits, through the facade, for a dev server's ready line, its
// port and a shell's exit, and checks the bounds.
func TestWait(t *testing.T) {
	forEachSeam(t, Options{MaxTimeout: time.Minute}, func(t *testing.T, s *Sessions) {
		owner, other := core.NewOwner("waiter"), core.NewOwner("other")
		ctx := testCtx(t)
		port := testenv.ReservePort(t) // no one else can take it before python binds it
		srv := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		// The send returns at once (its deadline is short, silence cannot
		// end it first); the server prints its ready line a second later.
		// A wait for new output only would miss the line when a loaded
		// machine starts the wait more than that second later: the wait
		// searches from the first line, for a line that starts with the
		// text (the echoed command has the prompt before it).
		cmd := fmt.Sprintf("sleep 1; echo 'ready - listening on %d'; exec python3 -m http.server %d --bind 127.0.0.1", port, port)
		if _, err := s.Send(ctx, owner, srv.SessionID, SendRequest{Data: cmd, Timeout: 300 * time.Millisecond, QuietWindow: 30 * time.Second}); err != nil {
			t.Fatal(err)
		}
		r, err := s.Wait(ctx, owner, WaitRequest{
			Conditions: []WaitCondition{{Kind: WaitOutput, Target: string(srv.SessionID), Pattern: `^ready - listening on \d+`, FromLine: new(int64)}},
			Timeout:    30 * time.Second,
		})
		if err != nil {
			t.Fatal(err)
		}
		if !r.Fired || r.Kind != WaitOutput || r.LineNumber == nil || !strings.Contains(r.Line, fmt.Sprint(port)) {
			t.Fatalf("ready line: %+v", r)
		}
		page, err := s.Read(ctx, owner, srv.SessionID, ReadRequest{Start: *r.LineNumber, Count: 1})
		if err != nil || strings.TrimRight(page.Text, "\n") != r.Line {
			t.Fatalf("line %d is %q (%v), the wait said %q", *r.LineNumber, page.Text, err, r.Line)
		}
		r, err = s.Wait(ctx, owner, WaitRequest{Conditions: []WaitCondition{
			{Kind: WaitOutput, Target: string(srv.SessionID), Pattern: "never printed"},
			{Kind: WaitPort, Port: port},
		}, Timeout: 30 * time.Second})
		if err != nil || !r.Fired || r.Condition != 1 || r.Port != port {
			t.Fatalf("port: %+v, %v", r, err)
		}

		// A shell that exits 3 a second after the wait began.
		sh := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		if _, err := s.Send(ctx, owner, sh.SessionID, SendRequest{Data: "sleep 1; exit 3", Timeout: 300 * time.Millisecond, QuietWindow: 30 * time.Second}); err != nil {
			t.Fatal(err)
		}
		r, err = s.Wait(ctx, owner, WaitRequest{Conditions: []WaitCondition{{Kind: WaitExit, Target: string(sh.SessionID)}}, Timeout: 30 * time.Second})
		if err != nil || !r.Fired || r.Status == nil || r.Status.Kind != core.StatusExited || r.Status.ExitCode != 3 {
			t.Fatalf("exit: %+v, %v", r, err)
		}

		// A question, a second after the wait began.
		q := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		if _, err := s.Send(ctx, owner, q.SessionID, SendRequest{Data: `sleep 1; read -p "Continue? [y/N] " ans; echo got-$ans`, Timeout: 300 * time.Millisecond, QuietWindow: 30 * time.Second}); err != nil {
			t.Fatal(err)
		}
		r, err = s.Wait(ctx, owner, WaitRequest{Conditions: []WaitCondition{{Kind: WaitInput, Target: string(q.SessionID)}}, Timeout: 30 * time.Second})
		if _, probes := s.t.(inputProber); !probes {
			// The reference registry probes no foreground: it says so.
			wantCode(t, "input on a seam that cannot tell", err, core.CodeInvalidArgument)
		} else if err != nil || !r.Fired || r.Kind != WaitInput || !strings.HasPrefix(r.Line, "Continue? [y/N]") || r.InputHidden {
			t.Fatalf("input: %+v, %v", r, err)
		}
		// A password prompt, a second after the wait began: the wait says
		// it hides input, as a send that settled there does.
		pw := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		if _, err := s.Send(ctx, owner, pw.SessionID, SendRequest{Data: `sleep 1; python3 -c 'import getpass; getpass.getpass("Password: ")'`, Timeout: 300 * time.Millisecond, QuietWindow: 30 * time.Second}); err != nil {
			t.Fatal(err)
		}
		r, err = s.Wait(ctx, owner, WaitRequest{Conditions: []WaitCondition{{Kind: WaitInput, Target: string(pw.SessionID)}}, Timeout: 30 * time.Second})
		if _, probes := s.t.(inputProber); probes && (err != nil || !r.Fired || !r.InputHidden || !strings.Contains(RenderWait(r, nil), "the prompt hides input")) {
			t.Fatalf("a password prompt: %+v, %v", r, err)
		}

		// Nothing holds: Fired false, no error.
		r, err = s.Wait(ctx, owner, WaitRequest{Conditions: []WaitCondition{{Kind: WaitOutput, Target: string(srv.SessionID), Pattern: "never printed"}}, Timeout: 300 * time.Millisecond})
		if err != nil || r.Fired || r.Condition != -1 {
			t.Fatalf("timeout: %+v, %v", r, err)
		}

		// Bounds.
		bad := []struct {
			name string
			who  *core.Owner
			req  WaitRequest
			code core.Code
			says string
		}{
			{"no conditions", owner, WaitRequest{}, core.CodeInvalidArgument, "conditions"},
			{"bad regex", owner, WaitRequest{Conditions: []WaitCondition{{Kind: WaitOutput, Target: string(srv.SessionID), Pattern: "("}}}, core.CodeInvalidArgument, "conditions[0].pattern"},
			{"bad port", owner, WaitRequest{Conditions: []WaitCondition{{Kind: WaitPort, Port: 70000}}}, core.CodeInvalidArgument, "conditions[0].port"},
			{"unknown kind", owner, WaitRequest{Conditions: []WaitCondition{{Kind: "screen", Target: string(srv.SessionID)}}}, core.CodeInvalidArgument, "conditions[0].kind"},
			{"over the maximum", owner, WaitRequest{Conditions: []WaitCondition{{Kind: WaitPort, Port: port}}, Timeout: 2 * time.Minute}, core.CodeInvalidArgument, "timeout"},
			{"unknown session", owner, WaitRequest{Conditions: []WaitCondition{{Kind: WaitExit, Target: "pty_nosuchsessionxxxxxxxxxxxxxx"}}}, core.CodeNoSession, ""},
			{"another owner's", other, WaitRequest{Conditions: []WaitCondition{{Kind: WaitExit, Target: string(srv.SessionID)}}}, core.CodeForeignSession, ""},
		}
		for _, c := range bad {
			_, err := s.Wait(ctx, c.who, c.req)
			wantCode(t, c.name, err, c.code)
			if err != nil && !strings.Contains(err.Error(), c.says) {
				t.Errorf("%s: %v does not name %s", c.name, err, c.says)
			}
		}
	})
}

// A wait that fires on a session's output returns what the session printed
// that the caller had not seen, the matching line in it, and moves the
// tail past it: the next tail does not repeat it. A wait on a job or a
// port leaves the output where it is.
func TestWaitReturnsTheUnseenOutputOnce(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("waiter")
		ctx := testCtx(t)
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		// The loop prints after the send returned (its deadline is short
		// and its quiet window long, so nothing but the deadline ends it).
		if _, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: "sleep 0.5; for i in 1 2 3; do echo step-$i; done; echo all-done",
			Timeout: 200 * time.Millisecond, QuietWindow: 30 * time.Second}); err != nil {
			t.Fatal(err)
		}
		w, err := s.Wait(ctx, owner, WaitRequest{
			Conditions: []WaitCondition{{Kind: WaitOutput, Target: string(r.SessionID), Pattern: `^all-done$`}},
			Timeout:    30 * time.Second,
		})
		if err != nil || !w.Fired {
			t.Fatalf("wait: %+v %v", w, err)
		}
		if !strings.Contains(w.Output, "step-1\nstep-2\nstep-3\nall-done\n") {
			t.Fatalf("the wait's output %q lacks the lines up to the match", w.Output)
		}
		text := RenderWait(w, []WaitCondition{{Kind: WaitOutput, Target: string(r.SessionID), Pattern: `^all-done$`}})
		if strings.Count(text, "all-done") != 1 { // the line, once
			t.Fatalf("the text shows the matching line other than once in the output:\n%s", text)
		}
		waitPrompt(t, s, owner, r.SessionID)
		tail, err := s.Tail(ctx, owner, r.SessionID, 0)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(tail.Text, "step-") || strings.Contains(tail.Text, "all-done") {
			t.Fatalf("the tail after the wait repeats its output: %q", tail.Text)
		}
	})
}

// A wait for a session's output counts what the owner has not been shown:
// a send that returned at its deadline, then a wait for the line that came
// while the caller was away, fires at once. Output the caller was shown
// does not count again.
func TestWaitCountsOutputNotYetShown(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("waiter")
		ctx := testCtx(t)
		r := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		if _, err := s.Send(ctx, owner, r.SessionID, SendRequest{Data: "sleep 0.3; echo late-$((6*7))",
			Timeout: 100 * time.Millisecond, QuietWindow: 30 * time.Second}); err != nil {
			t.Fatal(err)
		}
		// The line comes while nobody waits or tails.
		for deadline := time.Now().Add(testenv.HangBound); ; time.Sleep(20 * time.Millisecond) {
			p, err := s.Read(ctx, owner, r.SessionID, ReadRequest{Newest: true, Count: 5})
			if err != nil {
				t.Fatal(err)
			}
			if strings.Contains(p.Text, "late-42") {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("the line never came: %q", p.Text)
			}
		}
		cond := []WaitCondition{{Kind: WaitOutput, Target: string(r.SessionID), Pattern: `^late-\d+$`}}
		w, err := s.Wait(ctx, owner, WaitRequest{Conditions: cond, Timeout: 30 * time.Second})
		if err != nil || !w.Fired || w.Line != "late-42" || !strings.Contains(w.Output, "late-42") {
			t.Fatalf("wait for a line printed before it began, not yet shown: %+v %v", w, err)
		}
		w, err = s.Wait(ctx, owner, WaitRequest{Conditions: cond, Timeout: 300 * time.Millisecond})
		if err != nil || w.Fired {
			t.Fatalf("a second wait fired on the line the first showed: %+v %v", w, err)
		}
	})
}

// A wait that names only a target waits for its program to want input or
// to exit: the wait a caller means by "until it is done with this".
func TestWaitForATargetAlone(t *testing.T) {
	forEachSeam(t, Options{MaxTimeout: time.Minute}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("waiter")
		ctx := testCtx(t)
		_, probes := s.t.(inputProber)
		if probes {
			q := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
			if _, err := s.Send(ctx, owner, q.SessionID, SendRequest{Data: `sleep 1; read -p "Name? " n; echo hi-$n`, Timeout: 300 * time.Millisecond, QuietWindow: 30 * time.Second}); err != nil {
				t.Fatal(err)
			}
			r, err := s.Wait(ctx, owner, WaitRequest{Target: string(q.SessionID), Timeout: 30 * time.Second})
			if err != nil || !r.Fired || r.Kind != WaitInput || r.Target != string(q.SessionID) || !strings.HasPrefix(r.Line, "Name? ") {
				t.Fatalf("a question: %+v, %v", r, err)
			}
			if text := RenderWait(r, nil); !strings.HasPrefix(text, "["+string(q.SessionID)+" waits for input after ") {
				t.Errorf("a question renders as %q", text)
			}
		}
		sh := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		if _, err := s.Send(ctx, owner, sh.SessionID, SendRequest{Data: "sleep 1; exit 4", Timeout: 300 * time.Millisecond, QuietWindow: 30 * time.Second}); err != nil {
			t.Fatal(err)
		}
		r, err := s.Wait(ctx, owner, WaitRequest{Target: string(sh.SessionID), Timeout: 30 * time.Second})
		if err != nil || !r.Fired || r.Kind != WaitExit || r.Status == nil || r.Status.ExitCode != 4 {
			t.Fatalf("an exit: %+v, %v", r, err)
		}
		if text := RenderWait(r, nil); !strings.HasPrefix(text, "["+string(sh.SessionID)+" exited 4 after ") {
			t.Errorf("an exit renders as %q", text)
		}

		// Conditions and a target: the conditions are what is waited for.
		r, err = s.Wait(ctx, owner, WaitRequest{Target: string(sh.SessionID), Conditions: []WaitCondition{{Kind: WaitOutput, Target: string(sh.SessionID), Pattern: "never printed"}}, Timeout: 300 * time.Millisecond})
		if err != nil || r.Fired {
			t.Fatalf("conditions beside a target: %+v, %v", r, err)
		}
		_, err = s.Wait(ctx, owner, WaitRequest{Target: "pty_nosuchsessionxxxxxxxxxxxxxx"})
		wantCode(t, "an unknown target", err, core.CodeNoSession)
		_, err = s.Wait(ctx, core.NewOwner("other"), WaitRequest{Target: string(sh.SessionID)})
		wantCode(t, "another owner's target", err, core.CodeForeignSession)
		if _, err := s.Close(ctx, owner, sh.SessionID); err != nil {
			t.Fatal(err)
		}
		_, err = s.Wait(ctx, owner, WaitRequest{Target: string(sh.SessionID)})
		wantCode(t, "a closed target", err, core.CodeNoSession)
		_, err = s.Wait(ctx, owner, WaitRequest{Target: "pty_\x00\xff" + strings.Repeat("x", 1<<20)})
		wantCode(t, "a huge, binary target", err, core.CodeNoSession)
		if err != nil && len(err.Error()) > 1024 {
			t.Errorf("the error for a 1 MiB target is %d bytes: it repeats the target", len(err.Error()))
		}
	})
}
