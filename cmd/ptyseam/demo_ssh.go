//go:build unix

package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/shellrun"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
)

func demoSSH(ctx context.Context, d *demo) error {
	srv, err := sshtest.NewServer(sshtest.Config{User: "alice", Password: "wonderland", Banner: "Welcome to the ptyseam demo host\n"})
	if err != nil {
		return err
	}
	defer srv.Close()
	fmt.Fprintf(d.out, "  an in-process SSH server (golang.org/x/crypto/ssh) listens on %s:%d\n", srv.Host(), srv.Port())
	if _, err := d.svc.Register(sshpkg.NewBackend(sshpkg.BackendOptions{Logger: d.svc.Options().Logger})); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "ptyseam-demo-ssh")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	knownHosts := filepath.Join(dir, "known_hosts")
	target := &sshpkg.Target{
		Host: srv.Host(), Port: srv.Port(), User: "alice",
		Auth:     sshpkg.Auth{Password: "wonderland"},
		HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: []string{knownHosts}},
	}

	// Host keys are strict: an unknown host is refused, with its fingerprint.
	if err := os.WriteFile(knownHosts, nil, 0o600); err != nil {
		return err
	}
	_, err = d.svc.Spawn(ctx, d.owner, core.SpawnRequest{Type: sshpkg.Type, Options: target})
	var unknown *sshpkg.UnknownHostError
	if !errors.As(err, &unknown) {
		return fmt.Errorf("an unknown host was not refused: %v", err)
	}
	fmt.Fprintf(d.out, "  first contact without trusting the key -> refused: unknown host %s, %s %s\n", unknown.Host, unknown.KeyType, unknown.Fingerprint)

	if err := srv.WriteKnownHosts(knownHosts); err != nil {
		return err
	}
	s, err := d.svc.Spawn(ctx, d.owner, core.SpawnRequest{Type: sshpkg.Type, Options: target})
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  with the key in known_hosts -> session %s on a remote PTY\n", s.ID)
	d.show("initial output (the banner comes first)", s.InitialOutput)
	for _, cmd := range []string{"cd /tmp && export DEMO=remote-state", `echo "$DEMO in $PWD"; (exit 3)`} {
		res, err := shellrun.Run(ctx, d.svc, d.owner, s.ID, cmd, shellrun.Options{})
		if err != nil {
			return err
		}
		fmt.Fprintf(d.out, "  run %q -> exit code %d, output %q\n", cmd, res.ExitCode, res.Output)
		if strings.Contains(cmd, "(exit 3)") {
			if err := expect(res.ExitCode == 3 && res.Output == "remote-state in /tmp\n", "remote shell state or exit code wrong"); err != nil {
				return err
			}
		}
	}
	closed, err := d.svc.Close(ctx, d.owner, s.ID, "demo done")
	if err != nil {
		return err
	}
	fmt.Fprintf(d.out, "  close -> closed %v\n", closed)
	return expect(strings.Contains(s.InitialOutput, "Welcome to the ptyseam demo host"), "the banner was not captured")
}
