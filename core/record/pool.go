package record

import "sync"

// bufPool keeps a few buffers of finished recordings (their taps' queues,
// their lines bound for the file) for the next ones: a new recording
// starts with buffers already grown instead of growing fresh ones, which
// the Go runtime would zero, fault in and later hand back to the system,
// a few MiB for every busy session. It holds at most poolBytes.
type bufPool struct {
	mu    sync.Mutex
	bufs  [][]byte
	bytes int // the capacity of bufs
}

// poolBytes bounds the memory a Recorder keeps for its next recordings.
const poolBytes = 4 << 20

// get returns the largest buffer kept, empty, or nil.
func (p *bufPool) get() []byte {
	p.mu.Lock()
	defer p.mu.Unlock()
	best := -1
	for i, b := range p.bufs {
		if best < 0 || cap(b) > cap(p.bufs[best]) {
			best = i
		}
	}
	if best < 0 {
		return nil
	}
	b := p.bufs[best]
	last := len(p.bufs) - 1
	p.bufs[best], p.bufs[last] = p.bufs[last], nil
	p.bufs = p.bufs[:last]
	p.bytes -= cap(b)
	return b[:0]
}

// put keeps b, which nothing uses any more, if it fits in poolBytes.
func (p *bufPool) put(b []byte) {
	if cap(b) == 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.bytes+cap(b) <= poolBytes {
		p.bufs = append(p.bufs, b[:0])
		p.bytes += cap(b)
	}
}
