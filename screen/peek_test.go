package screen

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// peekSource serves pty_wait's screen conditions from the manager.
type peekSource struct{ *Manager }

func (peekSource) Watch(*core.Owner, string) (ptysession.WaitWatcher, bool, error) {
	return nil, false, nil
}

// A wait for the screen fires when a full-screen program draws a row
// matching its pattern, and (without a pattern) when the screen changes;
// peeking does not disturb what the next snapshot reports as changed.
func TestWaitForTheScreen(t *testing.T) {
	e := newEnv(t, Options{})
	s := ptysession.New(e.svc, ptysession.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	r, err := s.Open(ctx, e.owner, ptysession.OpenRequest{Command: "bash", Size: core.Size{Rows: 24, Cols: 80}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close(context.Background(), e.owner, r.SessionID)
	id := string(r.SessionID)
	before, err := e.m.Snapshot(ctx, e.owner, r.SessionID, SnapshotOptions{})
	if err != nil {
		t.Fatal(err)
	}
	// Nothing changes on an idle shell: the wait times out.
	idle, err := s.Wait(ctx, e.owner, ptysession.WaitRequest{
		Conditions: []ptysession.WaitCondition{{Kind: ptysession.WaitScreen, Target: id}},
		Timeout:    300 * time.Millisecond,
	}, peekSource{e.m})
	if err != nil || idle.Fired {
		t.Fatalf("wait on an idle screen: %+v %v", idle, err)
	}
	// A full-screen program draws its status row after a while; the send
	// returns first. It is a list typed at the shell, interrupted below the
	// moment its status row shows: between two of its commands, where bash
	// holds an interrupt back (the seam follows it up).
	if _, err := s.Send(ctx, e.owner, r.SessionID, ptysession.SendRequest{Data: `printf '\033[?1049h\033[2J\033[H'; sleep 1; printf '\033[5;1Hstatus: READY'; sleep 60`,
		Timeout: 500 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	res, err := s.Wait(ctx, e.owner, ptysession.WaitRequest{
		Conditions: []ptysession.WaitCondition{
			{Kind: ptysession.WaitExit, Target: id},
			{Kind: ptysession.WaitScreen, Target: id, Pattern: `status: \w+`},
		},
		Timeout: 30 * time.Second,
	}, peekSource{e.m})
	if err != nil || !res.Fired || res.Condition != 1 || res.Kind != ptysession.WaitScreen || res.Row == nil || *res.Row != 4 || res.Line != "status: READY" {
		t.Fatalf("wait for the status row: %+v %v", res, err)
	}
	after, err := e.m.Snapshot(ctx, e.owner, r.SessionID, SnapshotOptions{})
	if err != nil || len(after.Changed) == 0 || before.Rows[4] == after.Rows[4] {
		t.Fatalf("the snapshot after the wait reports no change: %v %v", after.Changed, err)
	}
	// Any change: the program redraws a row with a new count five times a
	// second, so whenever the wait begins (however late under load), the
	// screen changes after it. (A single row drawn a second after the
	// send was drawn before a wait that began more than a second late,
	// which then saw no change.)
	if _, err := s.Signal(ctx, e.owner, r.SessionID, ptysession.SIGINT); err != nil {
		t.Fatal(err)
	}
	// The next line is typed once the shell is back at its prompt: a line
	// typed while the interrupted job was still ending was echoed and then
	// lost by the shell under load (the send settled inferred_idle and
	// nothing ran).
	if back, err := s.Wait(ctx, e.owner, ptysession.WaitRequest{
		Conditions: []ptysession.WaitCondition{{Kind: ptysession.WaitInput, Target: id}},
		Timeout:    30 * time.Second,
	}); err != nil || !back.Fired {
		t.Fatalf("wait for the shell after the interrupt: %+v %v", back, err)
	}
	if _, err := s.Send(ctx, e.owner, r.SessionID, ptysession.SendRequest{Data: `printf '\033[?1049h\033[2J\033[H'; i=0; while [ $i -lt 300 ]; do i=$((i+1)); printf '\033[9;1Htick %d' $i; sleep 0.2; done`,
		Timeout: 500 * time.Millisecond}); err != nil {
		t.Fatal(err)
	}
	changed, err := s.Wait(ctx, e.owner, ptysession.WaitRequest{
		Conditions: []ptysession.WaitCondition{{Kind: ptysession.WaitScreen, Target: id}},
		Timeout:    30 * time.Second,
	}, peekSource{e.m})
	if err != nil || !changed.Fired || changed.Row == nil {
		t.Fatalf("wait for a change: %+v %v", changed, err)
	}
	// Without a screen source the condition is refused plainly.
	if _, err := s.Wait(ctx, e.owner, ptysession.WaitRequest{
		Conditions: []ptysession.WaitCondition{{Kind: ptysession.WaitScreen, Target: id}},
	}); !errors.Is(err, ptysession.ErrInvalidArgument) {
		t.Fatalf("screen wait without screens: %v", err)
	}
}
