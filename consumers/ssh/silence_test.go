package ssh

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession"
)

// TestHiddenPromptSaysItWasSilence: over plain ssh a hidden prompt
// settles a send only on silence, and the result says so in one line,
// with the way to settle on the read (the agent); a send that settled on
// the prompt carries no such note.
func TestHiddenPromptSaysItWasSilence(t *testing.T) {
	ctx, box := openMarkedBox(t)
	send := func(data string, quiet time.Duration) ptysession.SendResult {
		t.Helper()
		r, err := box.Send(ctx, ptysession.SendRequest{Data: data, QuietWindow: quiet})
		if err != nil {
			t.Fatalf("send %q: %v", data, err)
		}
		return r
	}
	if r := send("true", 0); r.WaitReason != core.WaitPrompt || r.SilenceNote != "" || strings.Contains(ptysession.RenderSend(r), "silence") {
		t.Fatalf("true settled %s with the note %q", r.WaitReason, r.SilenceNote)
	}
	r := send(`read -s -p 'Password: ' pw`, 300*time.Millisecond)
	if r.WaitReason != core.WaitInferredIdle || !strings.HasSuffix(r.Delta, "Password: ") {
		t.Fatalf("the hidden prompt: %s %q", r.WaitReason, r.Delta)
	}
	if r.SilenceNote != ptysession.SilenceNoteSSH || strings.Contains(r.SilenceNote, "\n") {
		t.Fatalf("note %q", r.SilenceNote)
	}
	if head := strings.SplitN(ptysession.RenderSend(r), "\n", 2)[0]; !strings.Contains(head, "settled on silence") || !strings.Contains(head, "ptyseam agent") {
		t.Fatalf("summary %q", head)
	}
	if r := send("hunter2", 0); r.WaitReason != core.WaitPrompt || r.SilenceNote != "" {
		t.Fatalf("the answer settled %s with the note %q", r.WaitReason, r.SilenceNote)
	}
	if _, err := box.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// TestConsolePromptOverPlainSSH: over plain ssh a console's prompt (a
// Python REPL's ">>> ", sqlite3's "sqlite> ") ends a send as the far
// side's prompt (remote_prompt), 150 ms after it was printed, not after
// the quiet window; a question ("name? ") still settles on silence, and
// the shell's own prompt on its marker.
func TestConsolePromptOverPlainSSH(t *testing.T) {
	ctx, box := openMarkedBox(t)
	for _, c := range []struct {
		data   string
		quiet  time.Duration
		reason core.WaitReason
		suffix string
	}{
		{"python3 -q", 0, core.WaitRemotePrompt, ">>> "},
		{"6*7", 0, core.WaitRemotePrompt, "42\r\n>>> "},
		{"def f(x):", 0, core.WaitRemotePrompt, "... "},
		{"  return x+1", 0, core.WaitRemotePrompt, "... "},
		{"", 0, core.WaitRemotePrompt, ">>> "},
		{"n = input('name? ')", 300 * time.Millisecond, core.WaitInferredIdle, "name? "},
		{"bob", 0, core.WaitRemotePrompt, ">>> "},
		{"exit()", 0, core.WaitPrompt, ""},
	} {
		r, err := box.Send(ctx, ptysession.SendRequest{Data: c.data, QuietWindow: c.quiet})
		if err != nil {
			t.Fatalf("send %q: %v", c.data, err)
		}
		if r.WaitReason != c.reason || !strings.HasSuffix(strings.ReplaceAll(r.Delta, "\r\n", "\n"), strings.ReplaceAll(c.suffix, "\r\n", "\n")) {
			t.Fatalf("send %q settled %s with %q, want %s ending %q", c.data, r.WaitReason, r.Delta, c.reason, c.suffix)
		}
	}
	if _, err := box.Close(ctx); err != nil {
		t.Fatal(err)
	}
}

// openMarkedBox opens a terminal on a plain ssh target whose shell the
// service marks, on a test server with a real local shell; the service
// shuts down when t ends.
func openMarkedBox(t *testing.T) (context.Context, *ptysession.Terminal) {
	t.Helper()
	srv := newServer(t, sshtest.Config{Password: "pw"})
	svc := core.New(core.Options{})
	if _, err := svc.Register(newBackend(nil)); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	t.Cleanup(func() {
		_ = svc.Shutdown(ctx)
		cancel()
	})
	s := ptysession.New(svc, ptysession.Options{OpenTimeout: time.Second, Targets: map[string]ptysession.Target{
		"box": {Backend: Type, PromptMarker: true, Options: targetFor(t, srv, "test", Auth{Password: "pw"})},
	}})
	box := s.NewAgent("t").Terminal("box")
	if _, _, err := box.Open(ctx, ptysession.OpenRequest{Target: "box"}); err != nil {
		t.Fatal(err)
	}
	return ctx, box
}
