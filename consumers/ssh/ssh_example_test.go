package ssh_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"time"

	sshpkg "github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/shellrun"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	"github.com/ptyseam/ptyseam/core"
)

// A remote shell session through the service, against the in-process test
// server, with a command run in it by shellrun.
func ExampleBackend() {
	srv, err := sshtest.NewServer(sshtest.Config{User: "alice", Password: "secret", Banner: "Hello from sshtest\n"})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	dir, _ := os.MkdirTemp("", "example")
	defer os.RemoveAll(dir)
	knownHosts := filepath.Join(dir, "known_hosts")
	if err := srv.WriteKnownHosts(knownHosts); err != nil {
		log.Fatal(err)
	}

	svc := core.New(core.Options{})
	if _, err := svc.Register(sshpkg.NewBackend(sshpkg.BackendOptions{})); err != nil {
		log.Fatal(err)
	}
	owner := core.NewOwner("example")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	sp, err := svc.Spawn(ctx, owner, core.SpawnRequest{Type: sshpkg.Type, Options: &sshpkg.Target{
		Host: srv.Host(), Port: srv.Port(), User: "alice",
		Auth:     sshpkg.Auth{Password: "secret"},
		HostKeys: sshpkg.HostKeyPolicy{KnownHostsFiles: []string{knownHosts}},
	}})
	if err != nil {
		log.Fatal(err)
	}
	res, err := shellrun.Run(ctx, svc, owner, sp.ID, "echo $((6*7)); false", shellrun.Options{})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("output %q, exit code %d\n", res.Output, res.ExitCode)
	_ = svc.Shutdown(ctx)
	// Output: output "42\n", exit code 1
}

func ExampleShellJoin() {
	fmt.Println(sshpkg.ShellJoin([]string{"it's $HOME"}))
	fmt.Println(sshpkg.ShellJoin([]string{"printf", `%s\n`, "a b"}))
	// Output:
	// 'it'\''s $HOME'
	// 'printf' '%s\n' 'a b'
}
