package sshdtest

import (
	"bytes"
	"net"
	"testing"
	"time"

	gossh "golang.org/x/crypto/ssh"

	"github.com/ptyseam/ptyseam/internal/testenv"
)

// hostKeyAt returns the host key of the server answering at addr.
func hostKeyAt(t *testing.T, addr string) gossh.PublicKey {
	t.Helper()
	var key gossh.PublicKey
	c, err := net.DialTimeout("tcp", addr, testenv.HangBound)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	_ = c.SetDeadline(time.Now().Add(testenv.HangBound))
	_, _, _, err = gossh.NewClientConn(c, addr, &gossh.ClientConfig{
		User: User,
		HostKeyCallback: func(_ string, _ net.Addr, k gossh.PublicKey) error {
			key = k
			return nil
		},
	})
	if key == nil {
		t.Fatalf("no host key from %s: %v", addr, err)
	}
	return key
}

// TestStartOnATakenPort: the port picked for a server is free when it is
// picked and may be another's by the time sshd binds it (every test
// process of the machine starts servers). The server that lost the port
// must not take the other's greeting for its own: it starts again on
// another port, and the server at its address has its host key.
func TestStartOnATakenPort(t *testing.T) {
	first := Start(t, Options{})
	picks := 0
	second, err := start(Options{}, func() (int, error) {
		picks++
		if picks == 1 {
			return first.Port, nil // taken since it was picked
		}
		return freePort()
	})
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	if second.Port == first.Port {
		t.Fatalf("the second server says it listens on the first's port %d", first.Port)
	}
	if got := hostKeyAt(t, second.Addr); !bytes.Equal(got.Marshal(), second.HostKey.Marshal()) {
		t.Fatalf("the server at %s is not the second one", second.Addr)
	}
}
