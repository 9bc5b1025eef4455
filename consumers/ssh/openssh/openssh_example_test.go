package openssh_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/ptyseam/ptyseam/consumers/ssh/openssh"
	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/core/localpty"
)

// Logging in with the OpenSSH client. This example needs a reachable ssh
// server, so it is compiled but not run; login_test.go runs the same steps
// against a private sshd.
func ExampleLogin() {
	svc := core.New(core.Options{})
	if err := localpty.Register(svc); err != nil {
		log.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	s, err := openssh.Login(ctx, svc, core.NewOwner("me"), openssh.Options{
		Host: "build.example.org", User: "alice",
		HostKey: func(ctx context.Context, q openssh.HostKeyQuestion) (bool, error) {
			return q.Fingerprint == "SHA256:pinned-fingerprint-checked-out-of-band", nil
		},
		Secrets: func(ctx context.Context, p openssh.Prompt) (string, error) {
			return lookUpSecret(p), nil
		},
	})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(s.Transcript)
}

func lookUpSecret(openssh.Prompt) string { return "" }
