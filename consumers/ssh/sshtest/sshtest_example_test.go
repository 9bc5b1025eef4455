package sshtest_test

import (
	"fmt"
	"log"

	"github.com/ptyseam/ptyseam/consumers/ssh/sshtest"
	gossh "golang.org/x/crypto/ssh"
)

func ExampleNewServer() {
	srv, err := sshtest.NewServer(sshtest.Config{User: "bob", Password: "pw"})
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	c, err := gossh.Dial("tcp", srv.Addr, &gossh.ClientConfig{
		User: "bob", Auth: []gossh.AuthMethod{gossh.Password("pw")},
		HostKeyCallback: gossh.FixedHostKey(srv.HostKey()),
	})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	s, err := c.NewSession()
	if err != nil {
		log.Fatal(err)
	}
	out, _ := s.Output("echo hello from a real shell")
	fmt.Print(string(out))
	// Output: hello from a real shell
}
