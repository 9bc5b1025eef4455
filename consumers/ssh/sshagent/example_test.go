package sshagent_test

import (
	"context"
	"fmt"
	"os"
	"runtime"

	"github.com/ptyseam/ptyseam/consumers/ssh"
	"github.com/ptyseam/ptyseam/consumers/ssh/sshagent"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/remote"
)

// Sessions on an ssh host through the agent: the first spawn uploads this
// ptyseam binary to the host's ~/.cache/ptyseam (when the host is of the
// same platform) and starts it; the sessions then settle and close as
// local ones do. (Not run: it needs a host.)
func Example() {
	exe, _ := os.Executable() // a ptyseam binary: it is the agent
	d := sshagent.New(ssh.NewBackend(ssh.BackendOptions{}), sshagent.Options{
		Binaries: map[string]string{runtime.GOOS + "/" + runtime.GOARCH: exe},
	})
	defer d.Close()
	svc := core.New(core.Options{})
	defer svc.Shutdown(context.Background())
	if _, err := svc.Register(d.Backend("remote-shell", remote.AgentShell)); err != nil {
		fmt.Println(err)
		return
	}
	target := &ssh.Target{Host: "build-1.example.com", User: "ci", Auth: ssh.Auth{KeyFiles: []string{"/etc/ptyseam/id_ed25519"}}}
	owner := core.NewOwner("example")
	s, err := svc.Spawn(context.Background(), owner, core.SpawnRequest{Type: "remote-shell", Options: target})
	if err != nil {
		fmt.Println(err) // matches remote.ErrAgentMissing, ErrAgentArch, ErrAgentVersion
		return
	}
	op, _ := svc.Send(context.Background(), owner, s.ID, core.SendRequest{Data: "python3 -q"})
	res, _ := op.Wait(context.Background())
	fmt.Println(res.WaitReason) // stdin_read: the far side's kernel says the REPL waits for input
}
