package ssh

import "sync"

// chunkSize is the size of one output chunk: the channel's largest
// packet, so that one read takes all the channel has buffered up to that.
const chunkSize = 32 << 10

// chunkPool recycles the buffers the session's pumps read the channel's
// output into. Read returns a buffer once it handed all of it out, so a
// flood reuses a few buffers instead of allocating one per read (which
// cost a copy and a garbage collection every few megabytes).
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
