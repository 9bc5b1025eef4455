package testenv

import (
	"net"
	"testing"
	"time"
)

// A silent listener takes the connection and answers nothing.
func TestSilentListenerNeverAnswers(t *testing.T) {
	addr := SilentListener(t, "tcp", "127.0.0.1:0")
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := c.Write([]byte("hello\n")); err != nil {
		t.Fatal(err)
	}
	_ = c.SetReadDeadline(time.Now().Add(200 * time.Millisecond))
	var b [1]byte
	if n, err := c.Read(b[:]); n != 0 || !isTimeout(err) {
		t.Fatalf("read %d bytes, %v; want a timeout", n, err)
	}
}

func isTimeout(err error) bool {
	ne, ok := err.(net.Error)
	return ok && ne.Timeout()
}
