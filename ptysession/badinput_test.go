package ptysession

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/core"
)

// wantCode checks err's code and that errors.Is matches the sentinel.
func wantCode(t *testing.T, what string, err error, code core.Code) {
	t.Helper()
	if core.CodeOf(err) != code {
		t.Errorf("%s: err = %v, want %s", what, err, code)
		return
	}
	sentinel := &core.Error{Code: code}
	if !errors.Is(err, sentinel) {
		t.Errorf("%s: errors.Is(err, %s sentinel) = false", what, code)
	}
}

func TestBadInput(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner, other := core.NewOwner("owner"), core.NewOwner("other")
		ctx := testCtx(t)
		healthy := mustOpen(t, s, owner, OpenRequest{Command: "bash"})
		foreign := mustOpen(t, s, other, OpenRequest{Command: "bash"})
		gone, err := s.Open(ctx, owner, OpenRequest{Command: "bash"})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := s.Close(ctx, owner, gone.SessionID); err != nil {
			t.Fatal(err)
		}
		done, cancel := context.WithCancel(context.Background())
		cancel()
		const unknown = core.SessionID("pty_nosuchsessionxxxxxxxxxxxxxx")
		fid, gid, hid := foreign.SessionID, gone.SessionID, healthy.SessionID

		t.Run("open", func(t *testing.T) {
			cases := []struct {
				name  string
				owner *core.Owner
				ctx   context.Context
				req   OpenRequest
				code  core.Code
			}{
				{"nil owner", nil, ctx, OpenRequest{Command: "bash"}, core.CodeInvalidArgument},
				{"cancelled", owner, done, OpenRequest{Command: "bash"}, core.CodeCancelled},
				{"env name", owner, ctx, OpenRequest{Command: "bash", Env: map[string]string{"1BAD": "x"}}, core.CodeInvalidArgument},
				{"env name dash", owner, ctx, OpenRequest{Command: "bash", Env: map[string]string{"A-B": "x"}}, core.CodeInvalidArgument},
				{"env empty name", owner, ctx, OpenRequest{Command: "bash", Env: map[string]string{"": "x"}}, core.CodeInvalidArgument},
				{"env NUL", owner, ctx, OpenRequest{Command: "bash", Env: map[string]string{"A": "x\x00y"}}, core.CodeInvalidArgument},
				{"command NUL", owner, ctx, OpenRequest{Command: "echo \x00"}, core.CodeInvalidArgument},
				{"cwd NUL", owner, ctx, OpenRequest{Command: "bash", Cwd: "/tmp\x00"}, core.CodeInvalidArgument},
				{"huge command", owner, ctx, OpenRequest{Command: strings.Repeat("x", core.DefaultMaxSendBytes+1)}, core.CodeInvalidArgument},
			}
			for _, c := range cases {
				_, err := s.Open(c.ctx, c.owner, c.req)
				wantCode(t, c.name, err, c.code)
			}
			_, err := s.Open(ctx, owner, OpenRequest{Command: "bash", Env: map[string]string{"BAD NAME": "x"}})
			if err == nil || !strings.Contains(err.Error(), `"BAD NAME"`) {
				t.Errorf("env error %v does not name the variable", err)
			}
		})
		t.Run("send", func(t *testing.T) {
			cases := []struct {
				name  string
				owner *core.Owner
				ctx   context.Context
				id    core.SessionID
				req   SendRequest
				code  core.Code
			}{
				{"nil owner", nil, ctx, hid, SendRequest{Data: "x"}, core.CodeInvalidArgument},
				{"empty id", owner, ctx, "", SendRequest{Data: "x"}, core.CodeInvalidArgument},
				{"unknown id", owner, ctx, unknown, SendRequest{Data: "x"}, core.CodeNoSession},
				{"foreign", owner, ctx, fid, SendRequest{Data: "x"}, core.CodeForeignSession},
				{"closed", owner, ctx, gid, SendRequest{Data: "x"}, core.CodeNoSession},
				{"foreign closed", other, ctx, gid, SendRequest{Data: "x"}, core.CodeForeignSession},
				{"nothing", owner, ctx, hid, SendRequest{Data: "", NoSubmit: true}, core.CodeInvalidArgument},
				{"huge", owner, ctx, hid, SendRequest{Data: strings.Repeat("x", core.DefaultMaxSendBytes)}, core.CodeInvalidArgument},
				{"negative timeout", owner, ctx, hid, SendRequest{Data: "x", Timeout: -1}, core.CodeInvalidArgument},
				{"negative quiet", owner, ctx, hid, SendRequest{Data: "x", QuietWindow: -1}, core.CodeInvalidArgument},
				{"cancelled", owner, done, hid, SendRequest{Data: "x"}, core.CodeCancelled},
			}
			for _, c := range cases {
				_, err := s.Send(c.ctx, c.owner, c.id, c.req)
				wantCode(t, c.name, err, c.code)
			}
		})
		t.Run("tail", func(t *testing.T) {
			cases := []struct {
				name  string
				owner *core.Owner
				id    core.SessionID
				lines int
				code  core.Code
			}{
				{"nil owner", nil, hid, 0, core.CodeInvalidArgument},
				{"empty id", owner, "", 0, core.CodeInvalidArgument},
				{"negative lines", owner, hid, -1, core.CodeInvalidArgument},
				{"too many lines", owner, hid, MaxLines + 1, core.CodeInvalidArgument},
				{"unknown id", owner, unknown, 0, core.CodeNoSession},
				{"foreign", owner, fid, 0, core.CodeForeignSession},
				{"closed", owner, gid, 0, core.CodeNoSession},
			}
			for _, c := range cases {
				_, err := s.Tail(ctx, c.owner, c.id, c.lines)
				wantCode(t, c.name, err, c.code)
			}
			_, err := s.Tail(done, owner, hid, 0)
			wantCode(t, "cancelled", err, core.CodeCancelled)
		})
		t.Run("read", func(t *testing.T) {
			cases := []struct {
				name  string
				owner *core.Owner
				id    core.SessionID
				req   ReadRequest
				code  core.Code
			}{
				{"nil owner", nil, hid, ReadRequest{}, core.CodeInvalidArgument},
				{"negative lines", owner, hid, ReadRequest{Count: -1}, core.CodeInvalidArgument},
				{"too many lines", owner, hid, ReadRequest{Count: MaxLines + 1}, core.CodeInvalidArgument},
				{"negative start", owner, hid, ReadRequest{Start: -1}, core.CodeInvalidArgument},
				{"unknown id", owner, unknown, ReadRequest{}, core.CodeNoSession},
				{"foreign", owner, fid, ReadRequest{}, core.CodeForeignSession},
				{"closed", owner, gid, ReadRequest{}, core.CodeNoSession},
			}
			for _, c := range cases {
				_, err := s.Read(ctx, c.owner, c.id, c.req)
				wantCode(t, c.name, err, c.code)
			}
			// A start beyond the end is an empty page, not an error.
			pg, err := s.Read(ctx, owner, hid, ReadRequest{Start: 1 << 40})
			if err != nil || pg.Lines != 0 || pg.Text != "" {
				t.Errorf("read past the end: %+v %v", pg, err)
			}
		})
		t.Run("signal", func(t *testing.T) {
			for _, c := range []struct {
				name string
				id   core.SessionID
				sig  string
				code core.Code
			}{
				{"unknown signal", hid, "SIGUSR1", core.CodeInvalidArgument},
				{"empty signal", hid, "", core.CodeInvalidArgument},
				{"numeric signal", hid, "9", core.CodeInvalidArgument},
				{"unknown id", unknown, "SIGINT", core.CodeNoSession},
				{"foreign", fid, "SIGINT", core.CodeForeignSession},
				{"closed", gid, "SIGINT", core.CodeNoSession},
			} {
				_, err := s.Signal(ctx, owner, c.id, Signal(c.sig))
				wantCode(t, c.name, err, c.code)
			}
			_, err := s.Signal(ctx, nil, hid, "SIGINT")
			wantCode(t, "nil owner", err, core.CodeInvalidArgument)
		})
		t.Run("close", func(t *testing.T) {
			_, err := s.Close(ctx, owner, unknown)
			wantCode(t, "unknown id", err, core.CodeNoSession)
			_, err = s.Close(ctx, owner, fid)
			wantCode(t, "foreign", err, core.CodeForeignSession)
			_, err = s.Close(ctx, other, gid)
			wantCode(t, "foreign closed", err, core.CodeForeignSession)
			_, err = s.Close(ctx, nil, hid)
			wantCode(t, "nil owner", err, core.CodeInvalidArgument)
			_, err = s.Close(ctx, owner, "")
			wantCode(t, "empty id", err, core.CodeInvalidArgument)
			if c, err := s.Close(ctx, owner, gid); err != nil || c.Closed {
				t.Errorf("close of a closed session: %+v %v, want closed false", c, err)
			}
		})
		t.Run("list", func(t *testing.T) {
			_, err := s.List(testCtx(t), nil)
			wantCode(t, "nil owner", err, core.CodeInvalidArgument)
			wantCode(t, "dispose nil owner", s.Dispose(ctx, nil), core.CodeInvalidArgument)
		})
		// After all of that, both sessions still serve.
		assertHealthy(t, s, owner, hid)
		assertHealthy(t, s, other, fid)
	})
}

func TestOpenArgvErrors(t *testing.T) {
	forEachSeam(t, Options{Backend: "exec"}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("owner")
		ctx := testCtx(t)
		for _, cmd := range []string{"", "   ", `echo 'open`, `echo "open`, `echo \`} {
			_, err := s.Open(ctx, owner, OpenRequest{Command: cmd})
			wantCode(t, "command "+cmd, err, core.CodeInvalidArgument)
		}
		_, err := s.Open(ctx, owner, OpenRequest{Command: "/nonexistent/program"})
		wantCode(t, "missing program", err, core.CodeSpawnFailed)
		if l, err := s.List(testCtx(t), owner); err != nil || len(l.Sessions) != 0 {
			t.Fatalf("failed opens left sessions: %+v %v", l, err)
		}
	})
}

func TestOpenUnknownBackend(t *testing.T) {
	forEachSeam(t, Options{Backend: "teleport"}, func(t *testing.T, s *Sessions) {
		_, err := s.Open(testCtx(t), core.NewOwner("o"), OpenRequest{Command: "bash"})
		wantCode(t, "unknown backend", err, core.CodeNoBackend)
	})
}

func TestOpenCancelledWhileTypingLeavesNothing(t *testing.T) {
	forEachSeam(t, Options{}, func(t *testing.T, s *Sessions) {
		owner := core.NewOwner("owner")
		ctx, cancel := context.WithCancel(testCtx(t))
		type out struct {
			r   OpenResult
			err error
		}
		done := make(chan out, 1)
		go func() {
			r, err := s.Open(ctx, owner, OpenRequest{Command: "while :; do echo busy; sleep 0.02; done"})
			done <- out{r, err}
		}()
		// Wait until the session is listed (the command is being typed or
		// runs), then cancel the open.
		waitListed(t, s, owner)
		cancel()
		o := <-done
		wantCode(t, "cancelled open", o.err, core.CodeCancelled)
		if l, err := s.List(testCtx(t), owner); err != nil || len(l.Sessions) != 0 {
			t.Fatalf("a cancelled open left sessions: %+v %v", l, err)
		}
	})
}

func waitListed(t *testing.T, s *Sessions, owner *core.Owner) {
	t.Helper()
	for range 1000 {
		if l, err := s.List(testCtx(t), owner); err == nil && len(l.Sessions) > 0 {
			return
		}
		sleepBriefly()
	}
	t.Fatal("the session never appeared")
}
