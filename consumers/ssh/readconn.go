package ssh

import (
	"bufio"
	"net"
)

// connReadBuffer is the size of the read buffer in front of a
// connection's socket.
const connReadBuffer = 64 << 10

// readBufferedConn is a net.Conn whose reads go through a large buffer.
// x/crypto/ssh reads the socket through a 4 KiB bufio.Reader, which costs
// a read system call for every 4 KiB of a flood (or two for each larger
// packet); this buffer takes all the socket holds, up to 64 KiB, in one.
// A Read returns as soon as the socket has any bytes, as before: it adds
// a copy, never a wait.
type readBufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func newReadBufferedConn(c net.Conn) *readBufferedConn {
	return &readBufferedConn{Conn: c, r: bufio.NewReaderSize(c, connReadBuffer)}
}

// Read reads from the buffer, filling it from the socket when empty.
func (c *readBufferedConn) Read(p []byte) (int, error) { return c.r.Read(p) }
