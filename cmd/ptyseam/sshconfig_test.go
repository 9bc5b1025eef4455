package main

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestParseSSHG(t *testing.T) {
	out := "user deploy\nhostname 10.0.0.5\nport 2222\nidentityfile ~/.ssh/id_ed25519\nidentityfile /etc/k\n" +
		"userknownhostsfile ~/.ssh/known_hosts /etc/kh2\nstricthostkeychecking ask\n"
	r, err := parseSSHG([]byte(out), "/home/u")
	if err != nil {
		t.Fatal(err)
	}
	if r.Host != "10.0.0.5" || r.User != "deploy" || r.Port != 2222 ||
		!slices.Equal(r.IdentityFiles, []string{"/home/u/.ssh/id_ed25519", "/etc/k"}) ||
		!slices.Equal(r.KnownHostsFiles, []string{"/home/u/.ssh/known_hosts", "/etc/kh2"}) {
		t.Fatalf("%+v", r)
	}
	for _, bad := range []string{"user u\n", "hostname h\n", "user u\nhostname h\nport 0\n", "user u\nhostname h\nport x\n"} {
		if _, err := parseSSHG([]byte(bad), ""); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

// The alias means what it means to the OpenSSH client.
func TestResolveSSHAlias(t *testing.T) {
	if _, err := exec.LookPath("ssh"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the ssh client is missing (make deps installs it): %v", err)
		}
		t.Skip("no ssh client")
	}
	dir := t.TempDir()
	key := filepath.Join(dir, "id_test")
	if err := os.WriteFile(key, []byte("not read here"), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config")
	conf := "Host web-*\n  User deploy\n  IdentityFile " + key + "\n  IdentityFile " + filepath.Join(dir, "missing") +
		"\n  UserKnownHostsFile " + filepath.Join(dir, "kh") + "\nHost web-1\n  HostName 10.9.8.7\n  Port 2201\n"
	if err := os.WriteFile(cfg, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	r, err := resolveSSHAlias(context.Background(), "web-1", cfg)
	if err != nil {
		t.Fatal(err)
	}
	if r.Host != "10.9.8.7" || r.User != "deploy" || r.Port != 2201 || !slices.Equal(r.IdentityFiles, []string{key}) ||
		!slices.Equal(r.KnownHostsFiles, []string{filepath.Join(dir, "kh")}) {
		t.Fatalf("%+v", r)
	}
	if _, err := resolveSSHAlias(context.Background(), "web-1", filepath.Join(dir, "nope")); err == nil || !strings.Contains(err.Error(), "ssh -G") {
		t.Fatalf("missing config: %v", err)
	}
}

func FuzzParseSSHG(f *testing.F) {
	f.Add([]byte("user u\nhostname h\nport 22\nidentityfile ~/.ssh/id\nuserknownhostsfile ~/a /b\n"))
	f.Add([]byte("User u\nHostName h\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := parseSSHG(data, "/home/u")
		if err != nil {
			return
		}
		if r.Host == "" || r.User == "" || r.Port < 0 || r.Port > 65535 {
			t.Fatalf("accepted %+v", r)
		}
	})
}
