package main

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshdtest"
	"github.com/ptyseam/ptyseam/internal/testenv"
	gossh "golang.org/x/crypto/ssh"
)

// pty_open on a configured remote host (a real OpenSSH sshd on loopback,
// a key in the hosts file), driven by the real TypeScript MCP client.
func TestRealMCPClientRemoteTarget(t *testing.T) {
	node, dir := requireNode(t)
	_, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	signer, err := gossh.NewSignerFromKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	srv := sshdtest.Start(t, sshdtest.Options{NoPassword: true, AuthorizedKeys: []gossh.PublicKey{signer.PublicKey()}})
	tmp := t.TempDir()
	blk, err := gossh.MarshalPrivateKey(priv, "")
	if err != nil {
		t.Fatal(err)
	}
	key := filepath.Join(tmp, "id_ed25519")
	kh := filepath.Join(tmp, "known_hosts")
	if err := os.WriteFile(key, pem.EncodeToMemory(blk), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := srv.WriteKnownHosts(kh); err != nil {
		t.Fatal(err)
	}
	// The host the client opens is an ssh config alias; another is given
	// field by field.
	sshConfig := filepath.Join(tmp, "ssh_config")
	conf := fmt.Sprintf("Host box-alias\n  HostName %s\n  Port %d\n  User %s\n  IdentityFile %s\n  UserKnownHostsFile %s\n",
		srv.Host, srv.Port, srv.User, key, kh)
	if err := os.WriteFile(sshConfig, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	hosts, _ := json.Marshal(map[string]any{"hosts": map[string]any{
		"box": map[string]any{
			"description": "the test host", "host": srv.Host, "port": srv.Port, "user": srv.User,
			"identityFiles": []string{key}, "knownHostsFiles": []string{kh},
		},
		"box-via-ssh-config": map[string]any{"sshConfigAlias": "box-alias", "sshConfigFile": sshConfig},
	}})
	hostsFile := filepath.Join(tmp, "hosts.json")
	if err := os.WriteFile(hostsFile, hosts, 0o600); err != nil {
		t.Fatal(err)
	}
	bin := serverBinary(t)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	last := runNode(t, ctx, node, dir, "remote-client.mjs", bin, hostsFile, "box-via-ssh-config", srv.User)
	var summary struct {
		OK     bool `json:"ok"`
		TrueMs int  `json:"trueMs"`
	}
	if err := json.Unmarshal([]byte(last), &summary); err != nil || !summary.OK {
		t.Fatalf("client summary %q: %v", last, err)
	}
	t.Logf("pty_send \"true\" on the remote shell settled in %d ms", summary.TrueMs)
	// The client closed the session: nothing of it is left on the server.
	for deadline := time.Now().Add(testenv.HangBound); len(srv.Remaining()) > 1; {
		if time.Now().After(deadline) {
			t.Fatalf("remote processes left: %v", srv.Remaining())
		}
		time.Sleep(50 * time.Millisecond)
	}
}
