package ssh_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession"
)

// A remote shell is a target of the facade: open, send (settling on the
// prompt marker the facade installed), tail, resize, signal and close,
// like a local one.
func TestSSHDFacadeRemoteTarget(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	s, ctx := markedBox(t, srv, ptysession.Options{})
	owner := core.NewOwner("test")
	if _, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "bash", Target: "nope"}); err == nil || !strings.Contains(err.Error(), "box") {
		t.Fatalf("unknown target: %v", err)
	}
	op, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "cd /tmp", Target: "box", Env: map[string]string{"GREETING": "it's me"}})
	if err != nil {
		t.Fatal(err)
	}
	if op.WaitReason != core.WaitPrompt || op.Status.Exited() {
		t.Fatalf("open %+v", op)
	}
	id := op.SessionID
	// Settling on the prompt (not on silence) is the wait reason's
	// business; how fast it comes is load.
	r, err := s.Send(ctx, owner, id, ptysession.SendRequest{Data: "true"})
	if err != nil || r.WaitReason != core.WaitPrompt {
		t.Fatalf("send true: %+v %v", r, err)
	}
	r, err = s.Send(ctx, owner, id, ptysession.SendRequest{Data: `echo "$GREETING in $(pwd) as $(whoami)"; (exit 7)`})
	if err != nil || r.WaitReason != core.WaitPrompt || !strings.Contains(r.Delta, "it's me in /tmp as "+srv.User) || r.ExitCode == nil || *r.ExitCode != 7 {
		t.Fatalf("send: %+v %v", r, err)
	}
	if _, err := s.Resize(ctx, owner, id, 33, 101); err != nil {
		t.Fatal(err)
	}
	if r, err = s.Send(ctx, owner, id, ptysession.SendRequest{Data: "stty size"}); err != nil || !strings.Contains(r.Delta, "33 101") {
		t.Fatalf("stty size: %+v %v", r, err)
	}
	if r, err = s.Send(ctx, owner, id, ptysession.SendRequest{Data: "sleep 100", Timeout: 500 * time.Millisecond}); err != nil || r.WaitReason == core.WaitPrompt {
		t.Fatalf("sleep: %+v %v", r, err)
	}
	// The send ended on its deadline, which says nothing about sleep: a
	// SIGINT that reaches the remote shell before it started sleep leaves
	// sleep running and no rc=130. Signal once sleep runs.
	for deadline := time.Now().Add(testenv.HangBound); !remoteRuns(srv, "sleep\x00100\x00"); {
		if time.Now().After(deadline) {
			t.Fatal("sleep 100 never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
	sr, err := s.Signal(ctx, owner, id, "SIGINT")
	if err != nil || !sr.Delivered {
		t.Fatalf("signal: %+v %v", sr, err)
	}
	// The signal's output and then the tail (output is returned once) show
	// the interrupted job's end and the next prompt (waited for, so that
	// the next send cannot settle on that prompt's marker).
	tailed := sr.Output
	for deadline := time.Now().Add(testenv.HangBound); !strings.HasSuffix(tailed, "$ "); {
		tr, err := s.Tail(ctx, owner, id, 1000)
		if err != nil || time.Now().After(deadline) {
			t.Fatalf("tail after SIGINT: %q %v", tailed, err)
		}
		tailed += tr.Text
		time.Sleep(20 * time.Millisecond)
	}
	if r, err = s.Send(ctx, owner, id, ptysession.SendRequest{Data: "echo rc=$?"}); err != nil || !strings.Contains(r.Delta, "rc=130") {
		t.Fatalf("after SIGINT: %+v %v", r, err)
	}
	if list, err := s.List(ctx, owner); err != nil || len(list.Sessions) != 1 || list.Sessions[0].Type != sshpkg.Type {
		t.Fatalf("list: %+v %v", list, err)
	}
	// A background job of the remote shell usually ends with it (bash hangs
	// up its jobs when it is hung up), but Close cannot see it and does not
	// promise it (docs/ssh.md): under load one survived in 1 of 3 runs. So
	// the test requires the session's own processes gone, and reports a
	// surviving background job (the fixture kills it).
	if _, err := s.Send(ctx, owner, id, ptysession.SendRequest{Data: "sleep 200 &"}); err != nil {
		t.Fatal(err)
	}
	for deadline := time.Now().Add(testenv.HangBound); !remoteRuns(srv, "sleep\x00200\x00"); {
		if time.Now().After(deadline) {
			t.Fatal("the background job never ran")
		}
		time.Sleep(20 * time.Millisecond)
	}
	if cr, err := s.Close(ctx, owner, id); err != nil || !cr.Closed {
		t.Fatalf("close: %+v %v", cr, err)
	}
	left := func() (procs []string, job bool) {
		for _, pid := range srv.Remaining() {
			b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			switch {
			case string(b) == "sleep\x00200\x00":
				job = true
			case strings.Contains(string(b), "[listener]"):
			default:
				procs = append(procs, fmt.Sprintf("%d:%q", pid, b))
			}
		}
		return procs, job
	}
	// The session's processes end on the server's own time (load): the
	// bound only ends a hang. The job is only reported, never waited for.
	for deadline := time.Now().Add(testenv.HangBound); ; {
		procs, job := left()
		if len(procs) == 0 {
			if job {
				t.Logf("the background job outlived the session's processes (not promised: docs/ssh.md)")
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the session's remote processes are left after close: %v", procs)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// remoteRuns reports whether one of the server's processes has cmdline.
func remoteRuns(srv *sshdtest.Server, cmdline string) bool {
	for _, pid := range srv.Remaining() {
		if b, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); string(b) == cmdline {
			return true
		}
	}
	return false
}

// A target with the prompt marker opens as soon as the remote shell
// answered the marker's set-up line: the open settles on that prompt, not
// on the open's deadline.
func TestSSHDFacadeMarkedTargetOpensOnItsPrompt(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	const openTimeout = 60 * time.Second
	s, ctx := markedBox(t, srv, ptysession.Options{OpenTimeout: openTimeout})
	owner := core.NewOwner("test")
	start := time.Now()
	op, err := s.Open(ctx, owner, ptysession.OpenRequest{Target: "box"})
	took := time.Since(start)
	if err != nil {
		t.Fatal(err)
	}
	if op.WaitReason != core.WaitPrompt {
		t.Fatalf("the set-up settled %q after %v, want prompt", op.WaitReason, took)
	}
	if took > openTimeout/2 {
		t.Fatalf("open took %v of its %v deadline", took, openTimeout)
	}
	t.Logf("open with the prompt marker: %v", took)
	if r, err := s.Send(ctx, owner, op.SessionID, ptysession.SendRequest{Data: "echo marked"}); err != nil || r.WaitReason != core.WaitPrompt || !strings.Contains(r.Delta, "marked") {
		t.Fatalf("send after open: %+v %v", r, err)
	}
}

// A target's set-up line is the server's business, not the caller's: the
// open's output holds what the shell printed before it (a banner) and the
// prompt after it, never the line's echo, wrapped or whole (at 80
// columns the 299-byte line came back as a wrapped fragment of itself);
// a command typed at the open follows with its echo and output.
func TestSSHDFacadeMarkedTargetHidesItsSetUp(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{Banner: "Authorized use only\n"})
	s, ctx := markedBox(t, srv, ptysession.Options{})
	owner := core.NewOwner("test")
	for i, req := range []ptysession.OpenRequest{
		{Target: "box", Size: core.Size{Rows: 24, Cols: 80}},
		{Target: "box"},
		{Target: "box", Size: core.Size{Rows: 24, Cols: 80}, Command: "echo typed-$((6*7))"},
	} {
		op, err := s.Open(ctx, owner, req)
		if err != nil {
			t.Fatal(err)
		}
		out := op.InitialOutput
		for _, leak := range []string{"PROMPT_COMMAND", "__ptyseam", "PAGER", "133;"} {
			if strings.Contains(out, leak) {
				t.Errorf("open %+v: output shows the set-up (%q):\n%s", req, leak, out)
			}
		}
		if i == 0 && !strings.Contains(out, "Authorized use only") { // later opens share the connection
			t.Errorf("open %+v: output lost the banner:\n%s", req, out)
		}
		if req.Command != "" && (!strings.Contains(out, "echo typed-$((6*7))") || !strings.Contains(out, "typed-42")) {
			t.Errorf("open %+v: output lacks the typed command and its output:\n%s", req, out)
		}
		prompts := 1 // the marked prompt, and one more after a typed command
		if req.Command != "" {
			prompts = 2
		}
		if !strings.HasSuffix(out, "$ ") || strings.Count(out, "$ ") != prompts {
			t.Errorf("open %+v: output does not show the shell's %d prompts, the last at its end:\n%q", req, prompts, out)
		}
	}
}

// markedBox returns a facade over an ssh backend whose target "box" is
// srv with the prompt marker, and a context bounded by HangBound; the
// service shuts down when the test ends.
func markedBox(t *testing.T, srv *sshdtest.Server, opts ptysession.Options) (*ptysession.Sessions, context.Context) {
	t.Helper()
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	svc := core.New(core.Options{})
	if _, err := svc.Register(sshpkg.NewBackend(sshpkg.BackendOptions{})); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	t.Cleanup(func() { _ = svc.Shutdown(ctx); cancel() })
	opts.Targets = map[string]ptysession.Target{
		"box": {Backend: sshpkg.Type, Description: "test host", PromptMarker: true, Options: &sshpkg.Target{
			Host: srv.Host, Port: srv.Port, User: srv.User, Auth: sshpkg.Auth{Password: srv.Password},
			HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: []string{kh}}}},
	}
	return ptysession.New(svc, opts), ctx
}

// TestSSHDFacadeDeadlineWaitsThroughSilence: over plain ssh, which cannot
// see the far side read, a send with a deadline and no quiet window waits
// through a silent command for the marked prompt; silence after an open
// line (a question such as "Password: ") still settles it, with its note.
func TestSSHDFacadeDeadlineWaitsThroughSilence(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	s, ctx := markedBox(t, srv, ptysession.Options{})
	owner := core.NewOwner("test")
	op, err := s.Open(ctx, owner, ptysession.OpenRequest{Target: "box"})
	if err != nil {
		t.Fatal(err)
	}
	res, err := s.Send(ctx, owner, op.SessionID, ptysession.SendRequest{Data: `sleep 3.5; echo "do""ne"`, Timeout: testenv.HangBound / 2})
	if err != nil || res.WaitReason != core.WaitPrompt || !strings.Contains(res.Delta, "done") {
		t.Fatalf("a silent command: %s %q %v, want the prompt after done", res.WaitReason, res.Delta, err)
	}
	res, err = s.Send(ctx, owner, op.SessionID, ptysession.SendRequest{Data: `read -s -p "Password: " pw`, Timeout: testenv.HangBound / 2})
	if err != nil || res.WaitReason != core.WaitInferredIdle || res.SilenceNote == "" {
		t.Fatalf("a question: %s %q %v, want inferred_idle with the silence note", res.WaitReason, res.Delta, err)
	}
}
