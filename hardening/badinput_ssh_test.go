package hardening

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/shellrun"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
)

// sshBadInputs returns the ssh layer's malformed inputs, against the
// in-process test server.
func sshBadInputs(t *testing.T, ctx context.Context, svc *core.Service, owner *core.Owner) []badCase {
	srv, err := sshtest.NewServer(sshtest.Config{User: "alice", Password: "right"})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	if _, err := svc.Register(sshpkg.NewBackend(sshpkg.BackendOptions{Logger: quietLogger()})); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	trusted, empty, wrongKey := filepath.Join(dir, "trusted"), filepath.Join(dir, "empty"), filepath.Join(dir, "wrong")
	if err := srv.WriteKnownHosts(trusted); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	other, err := sshtest.NewServer(sshtest.Config{User: "alice", Password: "right"})
	if err != nil {
		t.Fatal(err)
	}
	line := other.KnownHostsLine()
	other.Close()
	// The other server's key, written under this server's address.
	fields := splitFirst(line)
	if err := os.WriteFile(wrongKey, []byte(knownHostsName(srv)+" "+fields+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	target := func(password, knownHosts string) *sshpkg.Target {
		return &sshpkg.Target{Host: srv.Host(), Port: srv.Port(), User: "alice", Auth: sshpkg.Auth{Password: password},
			HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: []string{knownHosts}}}
	}
	spawn := func(opts any) func() error {
		return func() error {
			s, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: sshpkg.Type, Options: opts})
			if err == nil {
				_, _ = svc.Close(ctx, owner, s.ID, "unexpected")
			}
			return err
		}
	}
	healthy, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: sshpkg.Type, Options: target("right", trusted)})
	if err != nil {
		t.Fatal(err)
	}
	return []badCase{
		{layer: "ssh", name: "no target", want: core.ErrInvalidArgument, call: spawn(nil)},
		{layer: "ssh", name: "a target of the wrong type", want: core.ErrInvalidArgument, call: spawn("host:22")},
		{layer: "ssh", name: "a target without a host", want: core.ErrInvalidArgument, call: spawn(&sshpkg.Target{User: "alice"})},
		{layer: "ssh", name: "an unknown host", check: isType[*sshpkg.UnknownHostError], call: spawn(target("right", empty))},
		{layer: "ssh", name: "a changed host key", check: isType[*sshpkg.HostKeyChangedError], call: spawn(target("right", wrongKey))},
		{layer: "ssh", name: "a wrong password", check: isType[*sshpkg.AuthError], call: spawn(target("wrong", trusted))},
		{layer: "ssh", name: "a port nobody listens on", check: func(err error) bool {
			var de *sshpkg.DialError
			return errors.As(err, &de) || errors.Is(err, core.ErrSpawnFailed)
		}, call: spawn(&sshpkg.Target{Host: "127.0.0.1", Port: 1, User: "alice", Auth: sshpkg.Auth{Password: "x"},
			HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: []string{trusted}}})},
		{layer: "ssh", name: "shellrun of a command with a NUL", want: core.ErrInvalidArgument, call: func() error {
			_, err := shellrun.Run(ctx, svc, owner, healthy.ID, "echo a\x00b", shellrun.Options{})
			return err
		}},
	}
}

// splitFirst drops the host field of a known_hosts line.
func splitFirst(line string) string {
	for i := 0; i < len(line); i++ {
		if line[i] == ' ' {
			return line[i+1:]
		}
	}
	return line
}

func knownHostsName(srv *sshtest.Server) string {
	return "[" + srv.Host() + "]:" + strconv.Itoa(srv.Port())
}
