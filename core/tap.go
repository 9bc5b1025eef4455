package core

import (
	"context"
	"io"
	"sync"
)

// DefaultTapLimit bounds the bytes a tap buffers for a slow reader.
const DefaultTapLimit = 16 << 20

// Tap delivers a session's raw terminal output, from the moment it was
// created, in order and without loss, to a protocol client (a gdb/MI
// framer, a job's data events, a screen emulator). Its buffer is bounded:
// a reader that falls more than the limit behind gets ErrTapOverflow. Raw
// bytes go only to the tap's owner, never to logs.
type Tap struct {
	sess *session

	mu       sync.Mutex
	taken    int64 // bytes fed so far (queued, read or lost)
	onResize func(size Size, at int64)
	// queued is the output not yet returned by Next, in one buffer: a
	// read of the terminal appends to it, without an allocation once it
	// has grown (or a recycled buffer is there, see Recycle).
	queued   []byte
	spare    []byte // a buffer given back by Recycle, for the next queue
	limit    int
	overflow int64
	eof      bool
	closed   bool
	notify   chan struct{}
	// The wake policy (see SetWakePolicy): wake the reader only once
	// wakeBytes are queued, or when urgent says a chunk needs it now.
	wakeBytes int
	urgent    func([]byte) bool
	ready     bool // the wake policy's condition held since the last Next
	// sink, when set, takes every chunk in the read loop (SetSink).
	sink func([]byte)
	// cursorLine, when set, reads the cursor's row (SetCursorLine).
	cursorLine func() string
}

// Tap returns a new tap on one of owner's sessions.
func (s *Service) Tap(owner *Owner, id SessionID) (*Tap, error) {
	sess, err := s.lookup("tap", owner, id)
	if err != nil {
		return nil, err
	}
	t := newTap(sess)
	sess.mu.Lock()
	defer sess.mu.Unlock()
	if sess.status.Exited() || sess.closed {
		t.eof = true
	}
	sess.taps = append(sess.taps, t)
	return t, nil
}

func newTap(sess *session) *Tap {
	return &Tap{sess: sess, limit: DefaultTapLimit, notify: make(chan struct{}, 1)}
}

// feedLocked queues a copy of p. sess.mu is held.
func (t *Tap) feedLocked(p []byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.taken += int64(len(p))
	if t.sink != nil {
		t.sink(p)
		return
	}
	if t.overflow > 0 || len(t.queued)+len(p) > t.limit {
		t.overflow += int64(len(p))
		t.wakeLocked()
		return
	}
	t.queued = append(t.queued, p...)
	if t.wakeBytes <= 0 || len(t.queued) >= t.wakeBytes || (t.urgent != nil && t.urgent(p)) {
		t.ready = true
		t.wakeLocked()
	}
}

// SetWakePolicy lets a reader that does not need every byte at once (a
// screen emulator that works only when asked) be woken less: a blocked Next
// returns only once minBytes are queued, when urgent (called with each new
// chunk, in order, under the session's lock: it must be quick and must not
// call the service) reports that the chunk needs attention now, at end of
// output, or on overflow. A Next with an ended ctx still returns whatever is
// queued. minBytes <= 0 restores waking on every chunk. Output already
// queued is judged by the new policy (urgent is called once with all of
// it), whatever the old one decided.
func (t *Tap) SetWakePolicy(minBytes int, urgent func(chunk []byte) bool) {
	t.sess.mu.Lock()
	defer t.sess.mu.Unlock()
	t.mu.Lock()
	defer t.mu.Unlock()
	t.wakeBytes, t.urgent = minBytes, urgent
	// The old policy's verdict does not carry over: output that woke
	// readers under it (every chunk, by default) may not under this one.
	t.ready = false
	if len(t.queued) == 0 {
		return
	}
	meets := minBytes <= 0 || len(t.queued) >= minBytes || (urgent != nil && urgent(t.queued))
	if meets {
		t.ready = true // what is queued now meets the new policy
		t.wakeLocked()
	}
}

// OnResize has f called for every resize of the session's terminal,
// whichever way it came (the service's Resize, a facade or a screen on top
// of it), with the new size and the count of output bytes this tap had
// taken in when the size changed: the bytes before it were printed at the
// old size. f is called before the terminal changes size, so it has heard
// of the size before any output the program prints for it; if the backend
// then refuses the resize, f is called again with the old size at the same
// count. f runs outside the session's lock and must not block. A screen
// emulator uses it to stay in step with the terminal.
func (t *Tap) OnResize(f func(size Size, at int64)) {
	t.mu.Lock()
	t.onResize = f
	t.mu.Unlock()
}

// resizeNoteLocked returns the tap's resize callback bound to its current
// position, or nil. sess.mu is held.
func (t *Tap) resizeNoteLocked() func(Size) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.onResize == nil || t.closed {
		return nil
	}
	f, at := t.onResize, t.taken
	return func(size Size) { f(size, at) }
}

// endLocked marks end of output. sess.mu is held.
func (t *Tap) endLocked() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.eof = true
	t.wakeLocked()
}

func (t *Tap) wakeLocked() {
	select {
	case t.notify <- struct{}{}:
	default:
	}
}

// Next returns the raw output queued since the previous call (all of it,
// in order, as one slice, which the caller owns: it may give it back with
// Recycle once done with it). It returns io.EOF after the last byte once the
// session's output ended, ErrTapOverflow (with the count of lost bytes in
// the message) once the reader fell too far behind — and from then on: open
// a new tap to resume — and a CANCELLED error when ctx ends first.
func (t *Tap) Next(ctx context.Context) ([]byte, error) {
	for {
		t.mu.Lock()
		// Under a wake policy, queued output waits for its condition
		// unless the caller asks for it now (an ended ctx).
		held := t.wakeBytes > 0 && !t.ready && !t.eof && ctx.Err() == nil
		if len(t.queued) > 0 && !held {
			t.ready = false
		}
		switch {
		case t.closed:
			t.mu.Unlock()
			return nil, io.EOF
		case held && t.overflow == 0:
			// Wait below.
		case len(t.queued) > 0:
			// Everything queued at once: one wake-up and one call per
			// batch, not per read of the terminal.
			// The next output goes to a recycled buffer, if any.
			c := t.queued
			t.queued, t.spare = t.spare, nil
			t.mu.Unlock()
			return c, nil
		case t.overflow > 0:
			n := t.overflow
			t.mu.Unlock()
			return nil, &Error{Code: CodeTapOverflow, Op: "tap", Session: t.sess.id, Msg: "the reader fell behind; " + itoa(int(n)) + " bytes were dropped"}
		case t.eof:
			t.mu.Unlock()
			return nil, io.EOF
		}
		t.mu.Unlock()
		select {
		case <-t.notify:
		case <-ctx.Done():
			return nil, cancelled("tap", t.sess.id, ctx.Err())
		}
	}
}

// Close detaches the tap; later calls to Next return io.EOF.
func (t *Tap) Close() {
	sess := t.sess
	sess.mu.Lock()
	for i, x := range sess.taps {
		if x == t {
			sess.taps = append(sess.taps[:i:i], sess.taps[i+1:]...)
			break
		}
	}
	sess.mu.Unlock()
	t.mu.Lock()
	t.closed = true
	t.queued, t.spare = nil, nil
	t.wakeLocked()
	t.mu.Unlock()
}

// Recycle gives back a slice Next returned (or any other buffer), which
// the caller no longer uses (nor any slice of it), for the tap to queue
// the next output in: a
// reader that recycles what it read costs the session's read loop no
// allocation per read. The tap keeps one such buffer (no larger than its
// limit); Recycle(nil) drops it (a reader going idle frees its memory).
// Recycling is optional.
func (t *Tap) Recycle(b []byte) {
	t.mu.Lock()
	switch {
	case b == nil:
		t.spare = nil
		if len(t.queued) == 0 {
			t.queued = nil
		}
	case t.closed || cap(b) > t.limit || cap(b) <= cap(t.spare):
	case t.queued == nil:
		t.queued = b[:0]
	default:
		t.spare = b[:0]
	}
	t.mu.Unlock()
}

// Reply writes data to the session's terminal at once, outside the send
// machinery and regardless of a live send: it is for answers to the
// terminal's own queries (device attributes, cursor position reports),
// which a program waits for and which must never queue behind a send.
// It pays what [Tap.ExpectReply] announced.
func (t *Tap) Reply(ctx context.Context, data []byte) error {
	sess := t.sess
	if err := sess.checkUsable("reply"); err != nil {
		return err
	}
	sess.mu.Lock()
	sess.noteInputLocked(data, false, false)
	sess.mu.Unlock()
	_, err := sess.be.Write(ctx, data)
	sess.wrote()
	if sess.replyOwed.Swap(0) != 0 {
		sess.mu.Lock()
		sess.notifyLocked() // a send waiting for the answer looks again
		sess.mu.Unlock()
	}
	if err != nil {
		if ctx.Err() != nil {
			return cancelled("reply", sess.id, ctx.Err())
		}
		return backendError("reply", sess.id, err)
	}
	return nil
}

// Session returns the id of the tapped session.
func (t *Tap) Session() SessionID { return t.sess.id }

// Split returns a second tap on the same session that sees what t has not
// yet returned and everything after: an OnSpawn hook that feeds several
// observers (a screen emulator, a watch page, a recorder) splits the tap
// it was given. It must not be called with the session's lock held (an
// OnSpawn hook may call it).
func (t *Tap) Split() *Tap {
	sess := t.sess
	n := newTap(sess)
	sess.mu.Lock()
	defer sess.mu.Unlock()
	t.mu.Lock()
	if len(t.queued) > 0 {
		n.queued = append([]byte(nil), t.queued...) // t keeps appending to its own
	}
	n.overflow, n.eof = t.overflow, t.eof
	n.taken = int64(len(n.queued)) + t.overflow // its stream starts at t's unread output
	t.mu.Unlock()
	sess.taps = append(sess.taps, n)
	return n
}
