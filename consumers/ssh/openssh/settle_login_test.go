package openssh_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/openssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/testenv"
	gossh "golang.org/x/crypto/ssh"
)

// TestSendRightAfterLoginSettlesOnItsOwnPrompt: Login installs the prompt
// marker through shellrun.Run; a send straight after it must settle on
// the prompt after its own command, not on one the remote shell printed
// before it read the command.
func TestSendRightAfterLoginSettlesOnItsOwnPrompt(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{})
	svc, _ := newService(t)
	owner := core.NewOwner("test")
	kh := filepath.Join(t.TempDir(), "known_hosts")
	for i := range 4 {
		ctx, cancel := context.WithTimeout(context.Background(), testenv.HangBound)
		s, err := openssh.Login(ctx, svc, owner, openssh.Options{
			Host: srv.Host, Port: srv.Port, User: srv.User, KnownHostsFile: kh,
			HostKey: func(ctx context.Context, q openssh.HostKeyQuestion) (bool, error) {
				return q.Fingerprint == gossh.FingerprintSHA256(srv.HostKey), nil
			},
			Secrets: func(ctx context.Context, p openssh.Prompt) (string, error) { return srv.Password, nil },
		})
		if err != nil {
			cancel()
			t.Fatalf("login: %v", err)
		}
		op, err := svc.Send(ctx, owner, s.ID, core.SendRequest{Data: fmt.Sprintf("echo login-%d-$((6*7))", i)})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		res, err := op.Wait(ctx)
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		if res.WaitReason != core.WaitPrompt || !strings.Contains(res.Delta, fmt.Sprintf("login-%d-42", i)) {
			cancel()
			t.Fatalf("try %d: settled as %s after %v with %q, want the prompt after the command", i, res.WaitReason, res.Elapsed, res.Delta)
		}
		if _, err := svc.Close(ctx, owner, s.ID, "done"); err != nil {
			t.Fatal(err)
		}
		cancel()
	}
}
