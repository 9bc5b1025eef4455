package main

import (
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
	"github.com/ptyseam/ptyseam/screen"
)

// sendFunc sends data to a session and returns what it settled on, with
// the quiet window quiet (0: the default).
type sendFunc func(data string, quiet time.Duration) core.SendResult

// senderTo returns a sendFunc to one of owner's sessions that fails the
// test on an error.
func senderTo(t *testing.T, ctx context.Context, svc *core.Service, owner *core.Owner, id core.SessionID) sendFunc {
	return func(data string, quiet time.Duration) core.SendResult {
		t.Helper()
		op, err := svc.Send(ctx, owner, id, core.SendRequest{Data: data, QuietWindow: quiet})
		if err != nil {
			t.Fatal(err)
		}
		r, err := op.Wait(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
}

// localShell starts a shell on a local terminal, with a screen manager
// watching it when screens is set, and returns its sender and its screen.
func localShell(t *testing.T, screens bool, env ...string) (sendFunc, func() screen.Snapshot) {
	t.Helper()
	var copts core.Options
	var m *screen.Manager
	if screens {
		m = screen.NewManager(screen.Options{})
		copts.OnSpawn = m.OnSpawn
	}
	svc := core.New(copts)
	if err := localpty.Register(svc); err != nil {
		t.Fatal(err)
	}
	if m != nil {
		m.Bind(svc)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(func() {
		if err := svc.Shutdown(ctx); err != nil {
			t.Error(err)
		}
		if m != nil {
			m.Close()
		}
		cancel()
	})
	owner := core.NewOwner("model")
	s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: localpty.TypeShell, Env: env})
	if err != nil {
		t.Fatal(err)
	}
	send := senderTo(t, ctx, svc, owner, s.ID)
	look := func() screen.Snapshot {
		t.Helper()
		snap, err := m.Snapshot(ctx, owner, s.ID, screen.SnapshotOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return snap
	}
	return send, look
}

// An ssh typed into a local terminal puts a shell without a prompt marker
// on it: its commands settle on the far side's prompt (remote_prompt), not
// after the quiet window, and a question asked there (a hidden password
// read, a [y/N]) never settles as a prompt.
func TestSSHTypedInATerminalSettlesOnTheRemotePrompt(t *testing.T) {
	srv, key, kh := loopbackKey(t)
	send, _ := localShell(t, false)
	login := send(fmt.Sprintf("ssh -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s -i %s -p %d %s@%s",
		kh, key, srv.Port, srv.User, srv.Host), 0)
	if login.WaitReason != core.WaitRemotePrompt || login.Foreground == nil || login.Foreground.Name != "ssh" {
		t.Fatalf("the login settled %s (foreground %+v): %q", login.WaitReason, login.Foreground, login.Delta)
	}
	var took []time.Duration
	for i := range 20 {
		start := time.Now()
		r := send("true", 0)
		took = append(took, time.Since(start))
		if r.WaitReason != core.WaitRemotePrompt {
			t.Fatalf("remote command %d settled %s: %q", i, r.WaitReason, r.Delta)
		}
	}
	slices.Sort(took)
	t.Logf("20 remote `true`: p50 %v, max %v (quiet window 3 s)", took[len(took)/2], took[len(took)-1])
	for _, question := range []string{`read -s -p "Password: " pw`, `read -p "Continue? [y/N] " yn`} {
		r := send(question, time.Second)
		if r.WaitReason == core.WaitRemotePrompt || !strings.Contains(r.Delta, strings.Split(question, `"`)[1]) {
			t.Fatalf("%s settled %s: %q", question, r.WaitReason, r.Delta)
		}
		if r := send("x", 0); r.WaitReason != core.WaitRemotePrompt {
			t.Fatalf("the answer to %s settled %s: %q", question, r.WaitReason, r.Delta)
		}
	}
	if r := send("exit", 0); r.WaitReason != core.WaitPrompt {
		t.Fatalf("back in the local shell: %s %q", r.WaitReason, r.Delta)
	}
}

// A tab typed to the shell at the far end of an ssh typed in the terminal
// stands for itself there, in a short heredoc and in one longer than the
// terminal's input buffer (sent in pieces, paced for a relay).
func TestTabsReachTheShellBehindATypedSSH(t *testing.T) {
	srv, key, kh := loopbackKey(t)
	send, _ := localShell(t, false)
	if r := send(fmt.Sprintf("ssh -o BatchMode=yes -o StrictHostKeyChecking=yes -o UserKnownHostsFile=%s -i %s -p %d %s@%s",
		kh, key, srv.Port, srv.User, srv.Host), 0); r.WaitReason != core.WaitRemotePrompt {
		t.Fatalf("the login settled %s: %q", r.WaitReason, r.Delta)
	}
	send(`cd "$(mktemp -d)" && touch x.txt`, 0)
	for _, body := range []string{"\tx\ty\n", strings.Repeat("\tx\ty\tline of text\n", 300)} {
		r := send("cat > t.txt <<'EOF'\n"+body+"EOF\nsha256sum < t.txt", 0)
		if want := fmt.Sprintf("%x", sha256.Sum256([]byte(body))); r.WaitReason != core.WaitRemotePrompt || !strings.Contains(r.Delta, want) {
			t.Fatalf("a heredoc of %d bytes settled %s without its sha256 %s:\n%s", len(body), r.WaitReason, want, r.Delta[max(0, len(r.Delta)-600):])
		}
	}
	send(`cd / && rm -rf "$OLDPWD"`, 0)
	if r := send("exit", 0); r.WaitReason != core.WaitPrompt {
		t.Fatalf("back in the local shell: %s %q", r.WaitReason, r.Delta)
	}
}

// A terminal multiplexer started in a session (tmux) puts its own shell
// on the alternate screen, and tmux passes no prompt marker through: a
// command typed there settles on the inner shell's prompt, read from the
// screen's cursor row (remote_prompt), not after the quiet window, and a
// question asked there never settles so.
func TestACommandInsideTmuxSettlesOnItsPrompt(t *testing.T) {
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("tmux is missing (make deps installs it): %v", err)
		}
		t.Skipf("tmux is missing (make deps installs it): %v", err)
	}
	send, look := localShell(t, true, "TMUX_TMPDIR="+t.TempDir())
	if r := send("tmux -f /dev/null new-session", 0); r.WaitReason != core.WaitRemotePrompt {
		t.Fatalf("tmux's first prompt settled %s (foreground %+v)", r.WaitReason, r.Foreground)
	}
	for i := range 3 {
		if r := send("echo inside-$((40+2))", 0); r.WaitReason != core.WaitRemotePrompt {
			t.Fatalf("command %d inside tmux settled %s (foreground %+v)", i, r.WaitReason, r.Foreground)
		}
		if snap := look(); !slices.Contains(snap.Rows, "inside-42") {
			t.Fatalf("command %d: the screen lacks its output:\n%s", i, snap.Text())
		}
	}
	if r := send(`read -p "Continue? [y/N] " yn`, time.Second); r.WaitReason == core.WaitRemotePrompt {
		t.Fatalf("a question inside tmux settled %s:\n%s", r.WaitReason, look().Text())
	}
	if r := send("n", 0); r.WaitReason != core.WaitRemotePrompt {
		t.Fatalf("the answer inside tmux settled %s", r.WaitReason)
	}
	if r := send("exit", 0); r.WaitReason != core.WaitPrompt {
		t.Fatalf("back in the session's shell: %s %q", r.WaitReason, r.Delta)
	}
}
