package openssh_test

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/openssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/shellrun"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	"github.com/ptyseam/ptyseam/ptysession"
	gossh "golang.org/x/crypto/ssh"
)

// TestAdoptALoggedInSession: a session logged in with Login and set up
// with shellrun, handed to the facade with Adopt (by the name Login gave
// it), starts its tail where it stands: the first send's delta holds that
// send's output, not the host key question, the password prompt, the
// banner or shellrun's frames.
func TestAdoptALoggedInSession(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{Banner: "=== adopt banner ===\n"})
	svc, _ := newService(t)
	owner := core.NewOwner("automation")
	ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
	defer cancel()
	s, err := openssh.Login(ctx, svc, owner, openssh.Options{
		Host: srv.Host, Port: srv.Port, User: srv.User, Name: "box",
		KnownHostsFile: filepath.Join(t.TempDir(), "known_hosts"),
		HostKey: func(ctx context.Context, q openssh.HostKeyQuestion) (bool, error) {
			return q.Fingerprint == gossh.FingerprintSHA256(srv.HostKey), nil
		},
		Secrets: func(ctx context.Context, p openssh.Prompt) (string, error) { return srv.Password, nil },
	})
	if err != nil {
		t.Fatalf("login: %v", err)
	}
	if r, err := shellrun.Run(ctx, svc, owner, s.ID, "cd /tmp && export STAGE=adopted", shellrun.Options{}); err != nil || r.ExitCode != 0 {
		t.Fatalf("shellrun: %+v %v", r, err)
	}

	facade := ptysession.New(svc, ptysession.Options{})
	box := facade.AgentOf(owner).Terminal("box")
	info, err := box.Adopt(ctx)
	if err != nil || info.ID != s.ID {
		t.Fatalf("adopt: %+v %v", info, err)
	}
	r, err := box.Send(ctx, ptysession.SendRequest{Data: `echo "$STAGE in $(pwd)"`, OmitEcho: true, OmitPrompt: true})
	if err != nil {
		t.Fatal(err)
	}
	if strings.TrimSpace(r.Delta) != "adopted in /tmp" {
		t.Fatalf("first send after adopt: delta %q (%s)", r.Delta, r.WaitReason)
	}
	if tail, err := box.Tail(ctx, 0); err != nil || tail.Text != "" {
		t.Fatalf("tail: %+v %v", tail, err)
	}
	// What was passed over is still there to page.
	page, err := box.Read(ctx, ptysession.ReadRequest{Start: 0, Count: 1000})
	if err != nil || !strings.Contains(page.Text, "=== adopt banner ===") || !strings.Contains(page.Text, "password:") {
		t.Fatalf("read: %v %q", err, page.Text)
	}

	// Another owner cannot adopt it, by id or by name.
	other := core.NewOwner("other")
	if _, err := facade.Adopt(ctx, other, s.ID); core.CodeOf(err) != core.CodeForeignSession {
		t.Fatalf("foreign adopt: %v", err)
	}
	if _, err := facade.Terminal(other, "box").Adopt(ctx); core.CodeOf(err) != core.CodeNoSession {
		t.Fatalf("foreign adopt by name: %v", err)
	}
	if _, err := box.Close(ctx); err != nil {
		t.Fatal(err)
	}
}
