package relay_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"strings"

	"github.com/ptyseam/ptyseam/internal/relay"
)

// A session relays one end of a connection: what the far side writes is
// the session's output, what the session writes reaches the far side.
func Example() {
	near, far := net.Pipe()
	exited, closed := make(chan struct{}), make(chan struct{})
	s := relay.New(relay.Config{Name: "pipe", Exited: exited, Closed: closed})
	s.Start(near, near)

	go func() { // the far side: echo one line in upper case, then end
		buf := make([]byte, 64)
		n, _ := far.Read(buf)
		_, _ = far.Write([]byte(strings.ToUpper(string(buf[:n]))))
		_ = far.Close()
	}()
	if _, err := s.Write(context.Background(), []byte("hello\n")); err != nil {
		fmt.Println(err)
	}
	close(exited) // the session learns the exit its own way
	out, err := io.ReadAll(s)
	fmt.Printf("%q %v\n", out, err)

	close(closed) // Close: stop the relay, close the stream, wait
	_ = near.Close()
	s.Wait()
	// Output: "HELLO\n" <nil>
}
