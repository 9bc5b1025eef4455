package sshdtest

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

func TestStartServesAndCloseLeavesNothing(t *testing.T) {
	s := Start(t, Options{Banner: "hello"})
	// sshd forks and re-executes itself for the connection before it
	// greets: on a loaded machine that can take longer than seconds.
	c, err := net.DialTimeout("tcp", s.Addr, testenv.HangBound)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetDeadline(time.Now().Add(testenv.HangBound))
	line, err := bufio.NewReader(c).ReadString('\n')
	_ = c.Close()
	if err != nil || !strings.HasPrefix(line, "SSH-2.0-OpenSSH") {
		t.Fatalf("greeting %q, %v", line, err)
	}
	if s.Password == "" || s.User != User {
		t.Fatalf("user %q password set %v", s.User, s.Password != "")
	}
	if !strings.Contains(s.KnownHostsLine(), "ssh-ed25519") {
		t.Fatalf("known hosts line %q", s.KnownHostsLine())
	}
	s.Close()
	if r := s.Remaining(); len(r) > 0 {
		t.Fatalf("processes left: %v", r)
	}
	if _, err := net.DialTimeout("tcp", s.Addr, time.Second); err == nil {
		t.Fatal("still listening after Close")
	}
}
