package ssh

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	gossh "golang.org/x/crypto/ssh"
)

// known_hosts holds the host's ed25519 key; the server now has only an
// ECDSA key. That is a changed key (OpenSSH: "REMOTE HOST IDENTIFICATION
// HAS CHANGED"), never a plain "no common algorithm" dial error, and the
// new key is never accepted.
func TestSSHDHostKeyChangedToAnotherType(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{HostKeyType: "ecdsa"})
	b := newBackend(nil)
	tg := sshdTarget(t, srv, Auth{Password: srv.Password})
	kh := tg.HostKeys.KnownHostsFiles[0]
	old := newSigner(t)
	writeKnownFor(t, kh, srv.Host, srv.Port, old.PublicKey())
	before, _ := os.ReadFile(kh)
	tg.HostKeys.AcceptNew = true
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	_, err := b.Spawn(ctx, core.BackendRequest{Options: tg})
	var hc *HostKeyChangedError
	if !errors.As(err, &hc) || !errors.Is(err, ErrHostKeyChanged) {
		t.Fatalf("err = %v", err)
	}
	if hc.KeyType != gossh.KeyAlgoECDSA256 || hc.Fingerprint != gossh.FingerprintSHA256(srv.HostKey) {
		t.Fatalf("offered key %s %s, want %s %s", hc.KeyType, hc.Fingerprint, gossh.KeyAlgoECDSA256, gossh.FingerprintSHA256(srv.HostKey))
	}
	if len(hc.Known) != 1 || hc.Known[0].KeyType != gossh.KeyAlgoED25519 || hc.Known[0].Fingerprint != gossh.FingerprintSHA256(old.PublicKey()) || hc.Known[0].File != kh {
		t.Fatalf("keys on record %+v", hc.Known)
	}
	if after, _ := os.ReadFile(kh); string(after) != string(before) {
		t.Fatalf("known_hosts changed: %q", after)
	}
	if len(b.Connections()) != 0 {
		t.Fatal("a connection was made")
	}
	// The known type is still preferred: with the right key on record the
	// same server is accepted.
	writeKnownFor(t, kh, srv.Host, srv.Port, srv.HostKey)
	s := spawn(t, b, tg, core.BackendRequest{Command: []string{"true"}})
	newTerm(s).waitEOF(t, 10*time.Second)
	closeSession(t, s)
}
