package ptysession_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// TestTerminalByName: a terminal is addressed by its name alone (open,
// send, tail, read, signal, close), each call on the session the name
// stands for at the time; another owner's terminal of the same name is
// out of reach (names authorize nothing), and a name opened again after
// its program exited leads to the new session.
func TestTerminalByName(t *testing.T) {
	s, ctx := localSessions(t)
	alice, bob := s.NewAgent("alice"), s.NewAgent("bob")
	build := alice.Terminal("build")
	if build.Name() != "build" {
		t.Fatalf("name %q", build.Name())
	}
	send := func(term *ptysession.Terminal, line string) ptysession.SendResult {
		t.Helper()
		r, err := term.Send(ctx, ptysession.SendRequest{Data: line, OmitEcho: true, OmitPrompt: true})
		if err != nil {
			t.Fatalf("send %q: %v", line, err)
		}
		return r
	}

	if _, err := build.Send(ctx, ptysession.SendRequest{Data: "true"}); !errors.Is(err, ptysession.ErrNoSession) ||
		!strings.Contains(err.Error(), `"build"`) || !strings.Contains(err.Error(), "open it first") {
		t.Fatalf("send before open: %v", err)
	}
	if _, _, err := build.Open(ctx, ptysession.OpenRequest{Name: "other"}); !errors.Is(err, ptysession.ErrInvalidArgument) {
		t.Fatalf("open with another name: %v", err)
	}
	first, opened, err := build.Open(ctx, ptysession.OpenRequest{Command: "X=6"})
	if err != nil || !opened {
		t.Fatalf("open: %v %v", opened, err)
	}
	if again, opened, err := build.Open(ctx, ptysession.OpenRequest{Command: "X=0"}); err != nil || opened || again.SessionID != first.SessionID {
		t.Fatalf("open again: %+v %v %v", again, opened, err)
	}
	if r := send(build, "echo $((X*7))"); !strings.Contains(r.Delta, "42") {
		t.Fatalf("send: %+v", r)
	}
	if tail, err := build.Tail(ctx, 0); err != nil || tail.Text != "" {
		t.Fatalf("tail: %+v %v", tail, err)
	}
	if page, err := build.Read(ctx, ptysession.ReadRequest{Start: 0, Count: 100}); err != nil || !strings.Contains(page.Text, "42") {
		t.Fatalf("read: %+v %v", page, err)
	}
	// A signal interrupts what runs. (An idle bash at its prompt may take
	// a SIGINT only when the next key arrives, and eat that key.)
	if r, err := build.Send(ctx, ptysession.SendRequest{Data: "sleep 30", Timeout: 300 * time.Millisecond}); err != nil || r.WaitReason != core.WaitTimeout {
		t.Fatalf("sleep: %+v %v", r, err)
	}
	sig, err := build.Signal(ctx, ptysession.SIGINT)
	if err != nil || !sig.Delivered || sig.Leader {
		t.Fatalf("signal: %+v %v", sig, err)
	}
	if in, err := build.Info(ctx); err != nil || in.ID != first.SessionID {
		t.Fatalf("info: %+v %v", in, err)
	}

	// Bob's "build" is his own: alice's is not reachable by its name.
	if _, err := bob.Terminal("build").Tail(ctx, 0); !errors.Is(err, ptysession.ErrNoSession) {
		t.Fatalf("bob's tail of alice's name: %v", err)
	}

	// The program exits: the name still reads the exited session, and an
	// open by name starts a new one that the handle then addresses.
	ex := send(build, "exit")
	if in, err := build.Info(ctx); err != nil || !in.Status.Exited() || in.ID != first.SessionID {
		t.Fatalf("after exit (the signal: %+v; the send: %+v): %+v %v", sig, ex, in, err)
	}
	second, opened, err := build.Open(ctx, ptysession.OpenRequest{})
	if err != nil || !opened || second.SessionID == first.SessionID {
		t.Fatalf("reopen: %+v %v %v", second, opened, err)
	}
	if r := send(build, "echo ${X:-unset}"); !strings.Contains(r.Delta, "unset") {
		t.Fatalf("send to the new session: %+v", r)
	}

	// Close by name: the running session, then the exited one, then none.
	for _, want := range []ptysession.SessionID{second.SessionID, first.SessionID} {
		in, _ := build.Info(ctx)
		if r, err := build.Close(ctx); err != nil || !r.Closed || in.ID != want {
			t.Fatalf("close %s: %+v %v (was %s)", want, r, err, in.ID)
		}
	}
	if _, err := build.Close(ctx); !errors.Is(err, ptysession.ErrNoSession) {
		t.Fatalf("close with none left: %v", err)
	}
}

// TestTerminalWaitsSearchesAndResizes: a named terminal resizes, searches
// and waits on the session its name stands for (a condition without a
// target watches it), and another agent reaches none of it.
func TestTerminalWaitsSearchesAndResizes(t *testing.T) {
	s, ctx := localSessions(t)
	alice, bob := s.NewAgent("alice"), s.NewAgent("bob")
	srv := alice.Terminal("srv")
	if _, err := srv.Wait(ctx, ptysession.WaitRequest{Conditions: []ptysession.WaitCondition{{Kind: ptysession.WaitExit}}}); !errors.Is(err, ptysession.ErrNoSession) {
		t.Fatalf("wait before open: %v", err)
	}
	opened, _, err := srv.Open(ctx, ptysession.OpenRequest{Command: "bash"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := srv.Resize(ctx, 30, 100); err != nil {
		t.Fatal(err)
	}
	if r, err := srv.Send(ctx, ptysession.SendRequest{Data: "stty size; echo mark-$((1+1))"}); err != nil || !strings.Contains(r.Delta, "30 100") {
		t.Fatalf("size after resize: %+v %v", r, err)
	}
	found, err := srv.Search(ctx, ptysession.SearchRequest{Pattern: `^mark-2$`})
	if err != nil || len(found.Matches) != 1 {
		t.Fatalf("search: %+v %v", found, err)
	}
	if _, err := bob.Search(ctx, string(opened.SessionID), ptysession.SearchRequest{Pattern: "mark"}); !errors.Is(err, ptysession.ErrForeignSession) {
		t.Fatalf("bob's search of alice's session: %v", err)
	}
	if _, err := bob.Wait(ctx, ptysession.WaitRequest{Conditions: []ptysession.WaitCondition{{Kind: ptysession.WaitExit, Target: string(opened.SessionID)}}}); !errors.Is(err, ptysession.ErrForeignSession) {
		t.Fatalf("bob's wait on alice's session: %v", err)
	}
	if _, err := srv.Send(ctx, ptysession.SendRequest{Data: "sleep 0.5; exit", Timeout: 100 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	r, err := srv.Wait(ctx, ptysession.WaitRequest{
		Conditions: []ptysession.WaitCondition{{Kind: ptysession.WaitOutput, Pattern: "never-printed"}, {Kind: ptysession.WaitExit}},
		Timeout:    30 * time.Second,
	})
	if err != nil || !r.Fired || r.Condition != 1 || r.Target != string(opened.SessionID) {
		t.Fatalf("wait for the exit: %+v %v", r, err)
	}
}
