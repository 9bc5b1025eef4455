package ssh_test

import (
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/shellrun"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/promptmark"
	"github.com/ptyseam/ptyseam/internal/testenv"
)

// Which prompt settles a send on a remote bash behind a real OpenSSH sshd,
// once the prompt marker is installed as openssh.Login installs it.

// settleWait bounds a send's or a login's wait in these tests: a hang
// guard (testenv.HangBound), not a timing assertion.
const settleWait = testenv.HangBound

type remoteShell struct {
	svc   *core.Service
	owner *core.Owner
	id    core.SessionID
}

func startRemoteShell(t *testing.T) *remoteShell {
	t.Helper()
	sshdtest.Require(t)
	srv := sshdtest.Start(t, sshdtest.Options{})
	kh := filepath.Join(t.TempDir(), "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	svc := core.New(core.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if _, err := svc.Register(sshpkg.NewBackend(sshpkg.BackendOptions{})); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), settleWait)
		defer cancel()
		if err := svc.Shutdown(ctx); err != nil {
			t.Errorf("shutdown: %v", err)
		}
	})
	owner := core.NewOwner("remote-settle")
	ctx, cancel := context.WithTimeout(context.Background(), settleWait)
	defer cancel()
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: sshpkg.Type, Options: &sshpkg.Target{
		Host: srv.Host, Port: srv.Port, User: srv.User,
		Auth:     sshpkg.Auth{Password: srv.Password},
		HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: []string{kh}},
	}})
	if err != nil {
		t.Fatal(err)
	}
	return &remoteShell{svc: svc, owner: owner, id: sp.ID}
}

// install installs the prompt marker the way openssh.Login does.
func (r *remoteShell) install(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), settleWait)
	defer cancel()
	cmd := promptmark.Install()
	if _, err := shellrun.Run(ctx, r.svc, r.owner, r.id, cmd, shellrun.Options{}); err != nil {
		t.Fatalf("install: %v", err)
	}
}

// send sends data and waits for the result. Every caller wants the
// prompt, so silence is a failure and the quiet window is its bound.
func (r *remoteShell) send(t *testing.T, data string) core.SendResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*settleWait)
	defer cancel()
	op, err := r.svc.Send(ctx, r.owner, r.id, core.SendRequest{Data: data, QuietWindow: settleWait, Timeout: 2 * settleWait})
	if err != nil {
		t.Fatalf("send %q: %v", data, err)
	}
	res, err := op.Wait(ctx)
	if err != nil {
		t.Fatalf("wait %q: %v", data, err)
	}
	return res
}

func wantRemotePrompt(t *testing.T, what string, res core.SendResult, want ...string) {
	t.Helper()
	if res.WaitReason != core.WaitPrompt {
		t.Fatalf("%s: settled as %s after %v with %q, want prompt", what, res.WaitReason, res.Elapsed, res.Delta)
	}
	for _, w := range want {
		if !strings.Contains(res.Delta, w) {
			t.Fatalf("%s: settled on a prompt after %v without %q: %q", what, res.Elapsed, w, res.Delta)
		}
	}
}

// wantRanAfterInterrupt: a send right after Ctrl-C settles on the prompt
// after its command. Readline may take the interrupt after the line's
// first bytes (the shell then runs the rest, "cho ..."), whose prompt
// settles it. The interrupt counts once even when its prompt is in before
// the service accounted for it (before that, its line counted twice left
// every later send on this backend, which has no read probe to resync,
// settling on silence).
func wantRanAfterInterrupt(t *testing.T, what string, res core.SendResult, want string) {
	t.Helper()
	wantRemotePrompt(t, what, res)
	if !strings.Contains(res.Delta, want) && !strings.Contains(res.Delta, "command not found") {
		t.Fatalf("%s: settled as %s after %v before the command ran: %q", what, res.WaitReason, res.Elapsed, res.Delta)
	}
}

// TestRemoteSendRightAfterMarkerInstall: the marker installed by
// shellrun.Run, then a send at once, then a raw Write and a send at once,
// then Ctrl-C and a send at once: each send settles on the prompt after
// its own command.
func TestRemoteSendRightAfterMarkerInstall(t *testing.T) {
	r := startRemoteShell(t)
	r.install(t)
	res := r.send(t, "echo installed-$((6*7))")
	wantRemotePrompt(t, "after install", res, "installed-42")

	for i := range 5 {
		ctx, cancel := context.WithTimeout(context.Background(), settleWait)
		_, err := r.svc.Write(ctx, r.owner, r.id, []byte("true\r"))
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		res := r.send(t, fmt.Sprintf("echo written-%d-$((6*7))", i))
		wantRemotePrompt(t, fmt.Sprintf("after a write, try %d", i), res, fmt.Sprintf("written-%d-42", i))
	}
	for i := range 5 {
		ctx, cancel := context.WithTimeout(context.Background(), settleWait)
		_, err := r.svc.Signal(ctx, r.owner, r.id, core.SignalRequest{Signal: core.SIGINT})
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		res := r.send(t, fmt.Sprintf("echo interrupted-%d-$((6*7))", i))
		wantRanAfterInterrupt(t, fmt.Sprintf("after ^C, try %d", i), res, fmt.Sprintf("interrupted-%d-42", i))
	}
	// After the Ctrl-Cs the line bound matches the shell's count.
	res = r.send(t, "echo after-interrupts-$((6*7))")
	wantRanAfterInterrupt(t, "a send after the interrupts", res, "after-interrupts-42")
}

// TestRemoteSendRightAfterFirstInstall: the first install, with no marked
// prompt seen yet, and a send at once.
func TestRemoteSendRightAfterFirstInstall(t *testing.T) {
	for i := range 3 {
		r := startRemoteShell(t)
		r.install(t)
		res := r.send(t, fmt.Sprintf("echo first-%d-$((6*7))", i))
		wantRemotePrompt(t, fmt.Sprintf("try %d", i), res, fmt.Sprintf("first-%d-42", i))
	}
}

// TestRemoteMultiLineSend: a heredoc and commands on further lines settle
// at the prompt after the last one, with its exit code.
func TestRemoteMultiLineSend(t *testing.T) {
	r := startRemoteShell(t)
	r.install(t)
	res := r.send(t, "cat > /tmp/ptyseam-settle-$$.txt <<'EOF'\nalpha\nbeta\nEOF\n"+
		"wc -l < /tmp/ptyseam-settle-$$.txt; rm -f /tmp/ptyseam-settle-$$.txt\n"+
		"sleep 0.3; echo after-sleep\nsh -c 'exit 5'")
	wantRemotePrompt(t, "multi-line", res, "after-sleep")
	if res.ExitCode == nil || *res.ExitCode != 5 {
		t.Fatalf("exit code %v, want 5: %q", res.ExitCode, res.Delta)
	}
}

// TestRemoteTabsReachTheFile: a tab typed to the remote bash's line editor
// stands for itself (the seam quotes it), not for completion.
func TestRemoteTabsReachTheFile(t *testing.T) {
	r := startRemoteShell(t)
	r.install(t)
	// The install may return before its prompt; the first prompt marker
	// says a marked bash reads.
	wantRemotePrompt(t, "true", r.send(t, "true"))
	wantRemotePrompt(t, "a directory", r.send(t, "cd \"$(mktemp -d)\" && touch x.txt"))
	// A short heredoc, and one longer than the terminal's input buffer
	// (in pieces, paced by the echo: this backend cannot see reads).
	for _, body := range []string{"\tx\ty\n", strings.Repeat("\tx\ty\tline of text\n", 300)} {
		res := r.send(t, "cat > t.txt <<'EOF'\n"+body+"EOF\nsha256sum < t.txt")
		wantRemotePrompt(t, fmt.Sprintf("a heredoc of %d bytes with tabs", len(body)), res, fmt.Sprintf("%x", sha256.Sum256([]byte(body))))
	}
	wantRemotePrompt(t, "clean up", r.send(t, "cd / && rm -rf \"$OLDPWD\""))
}
