package sshagent

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/pem"
	"os"
	"path/filepath"
	"testing"

	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	gossh "golang.org/x/crypto/ssh"
)

// KeyTarget starts a test sshd (with opts) that authorizes a new ed25519
// key, and returns it with the target that logs in with that key from a
// file and checks the server's host key against a known_hosts file: what
// the OpenSSH client is given too (`ssh -i KEY -o UserKnownHostsFile=...`)
// when the benchmarks compare with it. The key file is returned for that
// client. It is exported for the package's external tests.
func KeyTarget(tb testing.TB, opts sshdtest.Options) (srv *sshdtest.Server, tg *ssh.Target, keyFile string) {
	tb.Helper()
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		tb.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		tb.Fatal(err)
	}
	opts.AuthorizedKeys = append(opts.AuthorizedKeys, signer.PublicKey())
	srv = sshdtest.Start(tb, opts)
	dir := tb.TempDir()
	kh := filepath.Join(dir, "known_hosts")
	if err := srv.WriteKnownHosts(kh); err != nil {
		tb.Fatal(err)
	}
	blk, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		tb.Fatal(err)
	}
	keyFile = filepath.Join(dir, "id_ed25519")
	if err := os.WriteFile(keyFile, pem.EncodeToMemory(blk), 0o600); err != nil {
		tb.Fatal(err)
	}
	tg = &ssh.Target{Host: srv.Host, Port: srv.Port, User: srv.User, Auth: ssh.Auth{KeyFiles: []string{keyFile}},
		HostKeys: ssh.HostKeyPolicy{KnownHostsFiles: []string{kh}}}
	return srv, tg, keyFile
}
