package ssh

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/core"
	gossh "golang.org/x/crypto/ssh"
)

func TestCipherOrder(t *testing.T) {
	supported := gossh.SupportedAlgorithms().Ciphers
	if got := cipherOrder(supported, true); !slices.Equal(got, supported) {
		t.Fatalf("with AES-GCM instructions: %v, want x/crypto's order %v", got, supported)
	}
	got := cipherOrder(supported, false)
	if got[0] != gossh.CipherChaCha20Poly1305 {
		t.Fatalf("without AES-GCM instructions: %v, want %s first", got, gossh.CipherChaCha20Poly1305)
	}
	if !slices.Equal(slices.Sorted(slices.Values(got)), slices.Sorted(slices.Values(supported))) {
		t.Fatalf("reordering changed the set: %v from %v", got, supported)
	}
	for _, c := range gossh.InsecureAlgorithms().Ciphers {
		if slices.Contains(clientCiphers(), c) {
			t.Fatalf("insecure cipher %s offered", c)
		}
	}
	if cipherOrder(supported, false)[1] != supported[0] || !slices.Equal(supported, gossh.SupportedAlgorithms().Ciphers) {
		t.Fatal("the order after ChaCha20-Poly1305 is not x/crypto's, or the input was changed")
	}
}

// The server takes the first cipher of the client's list it implements:
// OpenSSH implements them all, so a connection runs on AES-GCM where the
// CPU has AES-GCM instructions and on ChaCha20-Poly1305 where it has not.
func TestSSHDNegotiatesPreferredCipher(t *testing.T) {
	srv := sshdtest.Start(t, sshdtest.Options{ExtraConfig: "LogLevel DEBUG\n"})
	defer func(f func() bool) { aesGCMHardware = f }(aesGCMHardware)
	for _, tc := range []struct {
		hardware bool
		want     string
	}{{false, gossh.CipherChaCha20Poly1305}, {true, gossh.CipherAES128GCM}} {
		aesGCMHardware = func() bool { return tc.hardware }
		before := len(srv.Logs())
		b := newBackend(nil)
		s := spawn(t, b, sshdTarget(t, srv, Auth{Password: srv.Password}), core.BackendRequest{Command: []string{"true"}})
		newTerm(s).waitEOF(t, 10*time.Second)
		closeSession(t, s)
		logs := srv.Logs()[before:]
		if want := "kex: server->client cipher: " + tc.want + " "; !strings.Contains(logs, want) {
			t.Fatalf("AES-GCM instructions %v: the sshd log has no %q:\n%s", tc.hardware, want, logs)
		}
	}
}
