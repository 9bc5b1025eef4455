package ssh

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
)

// TestUnknownHostErrorSaysHowToTrustIt: the unknown-host error names the
// known_hosts line to add and AcceptNew, and the line it names, added as
// it says, is what trusts the host.
func TestUnknownHostErrorSaysHowToTrustIt(t *testing.T) {
	srv := newServer(t, sshtest.Config{Password: "pw"})
	b := newBackend(nil)
	kh := filepath.Join(t.TempDir(), "known_hosts")
	tg := &Target{Host: srv.Host(), Port: srv.Port(), User: "test", Auth: Auth{Password: "pw"},
		HostKeys: HostKeyPolicy{KnownHostsFiles: []string{kh}}}
	_, err := b.Spawn(context.Background(), core.BackendRequest{Options: tg})
	var uh *UnknownHostError
	if !errors.As(err, &uh) || uh.Line == "" {
		t.Fatalf("err = %v, want an UnknownHostError with its line", err)
	}
	msg := err.Error()
	for _, want := range []string{uh.Fingerprint, "add this line to a known_hosts file", uh.Line, "AcceptNew"} {
		if !strings.Contains(msg, want) {
			t.Fatalf("%q does not say %q", msg, want)
		}
	}
	if err := os.WriteFile(kh, []byte(uh.Line+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	s := spawn(t, b, tg, core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, waitLimit)
	closeSession(t, s)

	// The OpenSSH client's refusal carries no line: the error says where
	// the key comes from instead.
	msg = (&UnknownHostError{Host: "[127.0.0.1]:2222", KeyType: "ED25519", Fingerprint: "SHA256:x"}).Error()
	if !strings.Contains(msg, "ssh-keyscan") || !strings.Contains(msg, "openssh.Options.HostKey") {
		t.Fatalf("without a line: %q", msg)
	}
}
