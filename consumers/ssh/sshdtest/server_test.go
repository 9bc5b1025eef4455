package sshdtest

import (
	"bufio"
	"net"
	"strings"
	"testing"
	"time"
)

func TestStartServesAndCloseLeavesNothing(t *testing.T) {
	s := Start(t, Options{Banner: "hello"})
	c, err := net.DialTimeout("tcp", s.Addr, 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	_ = c.SetDeadline(time.Now().Add(5 * time.Second))
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
