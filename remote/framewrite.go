package remote

import (
	"encoding/binary"
	"io"
)

// yamux frames: a 12-byte header (version 0, type, flags, stream id,
// length); a data frame (type 0) with a non-zero length is followed by
// that many bytes of body.
const (
	frameHeaderSize = 12
	frameTypeData   = 0
)

// frameConn is the connection under a yamux session. yamux writes every
// data frame as two writes, its header and then its body. On the agent's
// standard output each is a system call, and sshd may wake for the header
// alone and send it as an ssh packet of its own, waking the host for 12
// bytes; on the host's ssh channel each write is an ssh packet. frameConn
// holds the header of a data frame that announces a body and writes it
// together with the next write, which is that body (yamux writes it at
// once, from the same goroutine): one write per frame. The bytes written
// are the same, in the same order; every other write passes straight
// through.
type frameConn struct {
	io.ReadWriteCloser
	hdr  [frameHeaderSize]byte
	held bool
	buf  []byte
}

func newFrameConn(rw io.ReadWriteCloser) *frameConn { return &frameConn{ReadWriteCloser: rw} }

// Write writes p, holding a data frame's header for the write that
// follows it. yamux writes from one goroutine; Write is not for
// concurrent use.
func (c *frameConn) Write(p []byte) (int, error) {
	if c.held {
		c.held = false
		c.buf = append(append(c.buf[:0], c.hdr[:]...), p...)
		n, err := c.ReadWriteCloser.Write(c.buf)
		n = max(n-frameHeaderSize, 0)
		if err == nil && n < len(p) {
			err = io.ErrShortWrite
		}
		return n, err
	}
	if len(p) == frameHeaderSize && p[0] == 0 && p[1] == frameTypeData && binary.BigEndian.Uint32(p[8:]) > 0 {
		copy(c.hdr[:], p)
		c.held = true
		return len(p), nil
	}
	return c.ReadWriteCloser.Write(p)
}
