package ssh

import (
	"io"
	"net"
	"sync"
	"time"
)

// bufPipe returns two connected in-memory net.Conns whose writes never
// wait for the reader (net.Pipe's do, and an ssh handshake, where both
// sides write their version first, deadlocks on it). Their waits are on
// a sync.Cond, which a synctest bubble counts as durable, as it does not
// a socket's.
func bufPipe() (net.Conn, net.Conn) {
	ab, ba := newQueue(), newQueue()
	return &bufConn{r: ba, w: ab}, &bufConn{r: ab, w: ba}
}

// queue is one direction: bytes written and not yet read.
type queue struct {
	mu     sync.Mutex
	cond   *sync.Cond
	buf    []byte
	closed bool
}

func newQueue() *queue {
	q := &queue{}
	q.cond = sync.NewCond(&q.mu)
	return q
}

func (q *queue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}

type bufConn struct{ r, w *queue }

func (c *bufConn) Read(p []byte) (int, error) {
	q := c.r
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.buf) == 0 && !q.closed {
		q.cond.Wait()
	}
	if len(q.buf) == 0 {
		return 0, io.EOF
	}
	n := copy(p, q.buf)
	q.buf = q.buf[n:]
	return n, nil
}

func (c *bufConn) Write(p []byte) (int, error) {
	q := c.w
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed {
		return 0, io.ErrClosedPipe
	}
	q.buf = append(q.buf, p...)
	q.cond.Broadcast()
	return len(p), nil
}

// Close ends both directions, as a dropped connection does.
func (c *bufConn) Close() error {
	c.r.close()
	c.w.close()
	return nil
}

func (c *bufConn) LocalAddr() net.Addr              { return pipeAddr{} }
func (c *bufConn) RemoteAddr() net.Addr             { return pipeAddr{} }
func (c *bufConn) SetDeadline(time.Time) error      { return nil }
func (c *bufConn) SetReadDeadline(time.Time) error  { return nil }
func (c *bufConn) SetWriteDeadline(time.Time) error { return nil }

type pipeAddr struct{}

func (pipeAddr) Network() string { return "pipe" }
func (pipeAddr) String() string  { return "127.0.0.1:22" }
