package relay

import (
	"io"
	"sync"
)

// chunkSize is the size of one output chunk: an ssh channel's largest
// packet, so that one read takes all a transport has buffered up to that.
const chunkSize = 32 << 10

// chunkPool recycles the buffers the pumps read the stream's output into.
// Read returns a buffer once it handed all of it out, so a flood reuses a
// few buffers instead of allocating one per read (which cost a copy and a
// garbage collection every few megabytes).
var chunkPool = sync.Pool{New: func() any { return new([chunkSize]byte) }}

// chunk is output read by a pump: data is a prefix of buf.
type chunk struct {
	buf  *[chunkSize]byte
	data []byte
}

// getChunkBuf returns a buffer from the pool.
func getChunkBuf() *[chunkSize]byte { return chunkPool.Get().(*[chunkSize]byte) }

// putChunkBuf returns a buffer to the pool; nil is ignored.
func putChunkBuf(b *[chunkSize]byte) {
	if b != nil {
		chunkPool.Put(b)
	}
}

// Read returns the stream's output, what Prepend gave first. It blocks
// until there is output; io.EOF comes once every output side ended and
// the exit is known (Config.Exited), or at once when Config.Closed is
// closed. One goroutine reads.
func (s *Stream) Read(p []byte) (int, error) {
	if len(s.pending) > 0 {
		n := copy(p, s.pending)
		s.pending = s.pending[n:]
		s.recycle()
		return n, nil
	}
	select {
	case c, ok := <-s.out:
		if ok {
			n := copy(p, c.data)
			s.pending, s.pendingBuf = c.data[n:], c.buf
			s.recycle()
			return n, nil
		}
		select {
		case <-s.cfg.Exited:
		case <-s.cfg.Closed:
		}
		return 0, io.EOF
	case <-s.cfg.Closed:
		return 0, io.EOF
	}
}

// recycle returns the pending chunk's buffer to the pool once Read has
// handed all of it out.
func (s *Stream) recycle() {
	if len(s.pending) == 0 && s.pendingBuf != nil {
		putChunkBuf(s.pendingBuf)
		s.pending, s.pendingBuf = nil, nil
	}
}
