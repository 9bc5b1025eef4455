package ptysession

import (
	"errors"
	"testing"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/testharness/scripted"
)

var namesScript = scripted.Script{Banner: "hi\n", Replies: map[string]scripted.Reply{
	"quit": {Output: "bye\n", Settle: core.WaitSessionExit},
}}

// Find and OpenOrGet address sessions by name; an exited session frees its
// name for a new one and stays readable by id until closed.
func TestSessionsByName(t *testing.T) {
	s, _ := scriptedFacade(t, Options{}, namesScript)
	owner := core.NewOwner("agent")
	ctx := testCtx(t)
	if _, err := s.Find(ctx, owner, "build"); !errors.Is(err, core.ErrNoSession) {
		t.Fatalf("find before open: %v", err)
	}
	first, opened, err := s.OpenOrGet(ctx, owner, OpenRequest{Name: "build"})
	if err != nil || !opened || first.InitialOutput != "hi\n$ " {
		t.Fatalf("open: %+v %v %v", first, opened, err)
	}
	again, opened, err := s.OpenOrGet(ctx, owner, OpenRequest{Name: "build"})
	if err != nil || opened || again.SessionID != first.SessionID || again.InitialOutput != "" {
		t.Fatalf("get: %+v %v %v (want the same session, no output twice)", again, opened, err)
	}
	if in, err := s.Find(ctx, owner, "build"); err != nil || in.ID != first.SessionID {
		t.Fatalf("find: %+v %v", in, err)
	}
	if _, err := s.Open(ctx, owner, OpenRequest{Name: "build"}); !errors.Is(err, core.ErrDuplicateName) {
		t.Fatalf("open of a running name: %v", err)
	}

	// The program exits: the name is free, the old session still readable.
	if res, err := s.Send(ctx, owner, first.SessionID, SendRequest{Data: "quit"}); err != nil || res.WaitReason != core.WaitSessionExit {
		t.Fatalf("quit: %+v %v", res, err)
	}
	if in, err := s.Find(ctx, owner, "build"); err != nil || in.ID != first.SessionID || !in.Status.Exited() {
		t.Fatalf("find of the exited session: %+v %v", in, err)
	}
	fresh, opened, err := s.OpenOrGet(ctx, owner, OpenRequest{Name: "build"})
	if err != nil || !opened || fresh.SessionID == first.SessionID {
		t.Fatalf("reopen after exit: %+v %v %v", fresh, opened, err)
	}
	if in, err := s.Find(ctx, owner, "build"); err != nil || in.ID != fresh.SessionID {
		t.Fatalf("find prefers the running session: %+v %v", in, err)
	}
	if pg, err := s.Read(ctx, owner, first.SessionID, ReadRequest{}); err != nil || pg.Text != "hi\n$ quit\nbye\n" {
		t.Fatalf("the exited session's scrollback: %+v %v", pg, err)
	}
	if _, _, err := s.OpenOrGet(ctx, owner, OpenRequest{}); !errors.Is(err, core.ErrInvalidArgument) {
		t.Fatalf("OpenOrGet without a name: %v", err)
	}
}
