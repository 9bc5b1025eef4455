package core

// SetSink has the tap hand every chunk of output to f as the session's
// read loop takes it in, instead of queueing a copy for Next: a reader
// that keeps its own bounded buffer (a screen's ring of raw output) saves
// the copy, the queue and the wake-up of a goroutine per batch. f is
// called in order, under the session's lock, with a slice it must not
// keep (copy what it needs): it must be quick and must never block or
// call the service, since the session's read loop (and everything that
// waits on the session) waits for it. Output already queued is handed to
// f at once, in order. After SetSink, Next returns only at end of output
// (io.EOF), when the tap is closed, or when its ctx ends; resize notes
// (OnResize) count the bytes handed to f.
func (t *Tap) SetSink(f func(p []byte)) {
	sess := t.sess
	sess.mu.Lock()
	defer sess.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.queued) > 0 {
		f(t.queued)
	}
	t.queued, t.ready = t.queued[:0], false
	t.sink = f
}
