package ssh_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/ptysession"
)

// exampleServer starts the in-process test server and a known_hosts file
// trusting it.
func exampleServer() (*sshtest.Server, string, func()) {
	srv, err := sshtest.NewServer(sshtest.Config{User: "alice", Password: "secret", Banner: "Hello from sshtest\n"})
	if err != nil {
		log.Fatal(err)
	}
	dir, _ := os.MkdirTemp("", "example")
	knownHosts := filepath.Join(dir, "known_hosts")
	if err := srv.WriteKnownHosts(knownHosts); err != nil {
		log.Fatal(err)
	}
	return srv, knownHosts, func() { _ = srv.Close(); _ = os.RemoveAll(dir) }
}

// One command, given as one string, with its output, exit code and the
// server's banner apart.
func ExampleBackend_Run() {
	srv, knownHosts, done := exampleServer()
	defer done()
	b := sshpkg.NewBackend(sshpkg.BackendOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := b.Run(ctx, &sshpkg.Target{
		Host: srv.Host(), Port: srv.Port(), User: "alice",
		Auth:     sshpkg.Auth{Password: "secret"},
		HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: []string{knownHosts}},
	}, `echo "$((6*7))" | tr 2 X; exit 3`, sshpkg.RunOptions{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("output %q, exit code %d, banner %q\n", res.Output, res.ExitCode, res.Banner)
	// Output: output "4X\n", exit code 3, banner "Hello from sshtest\n"
}

// A remote shell as a target of the facade: the caller names it, the
// credentials are the deployer's.
func ExampleBackend_facadeTarget() {
	srv, knownHosts, done := exampleServer()
	defer done()
	svc := core.New(core.Options{})
	if _, err := svc.Register(sshpkg.NewBackend(sshpkg.BackendOptions{})); err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	defer func() { _ = svc.Shutdown(ctx) }()
	s := ptysession.New(svc, ptysession.Options{Targets: map[string]ptysession.Target{
		"box": {Backend: sshpkg.Type, Description: "the example host", PromptMarker: true, Options: &sshpkg.Target{
			Host: srv.Host(), Port: srv.Port(), User: "alice",
			Auth:     sshpkg.Auth{Password: "secret"},
			HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: []string{knownHosts}},
		}},
	}})
	owner := core.NewOwner("example")
	opened, err := s.Open(ctx, owner, ptysession.OpenRequest{Command: "bash", Target: "box"})
	if err != nil {
		log.Fatal(err)
	}
	r, err := s.Send(ctx, owner, opened.SessionID, ptysession.SendRequest{Data: "false"})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(r.WaitReason, *r.ExitCode)
	// Output: prompt 1
}
