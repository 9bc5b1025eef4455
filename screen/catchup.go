package screen

import "bytes"

// catchUpLocked brings the emulator up to the end of the ring, creating it
// if needed, applying resizes at the offsets they happened, and queueing
// the answers to queries it had not answered before. st.mu is held.
//
// If the ring dropped bytes the emulator had not seen, the emulator is
// rebuilt from what is left and the screen is marked approximate. Bytes
// already answered (before st.answered) are replayed without answering
// again.
func (st *state) catchUpLocked() {
	end := st.ring.end
	if st.term != nil && st.fed == end && st.term.size == st.sizeAtLocked(end) {
		return
	}
	if st.term == nil || st.fed < st.ring.start {
		if st.term != nil || st.ring.start > 0 {
			st.approx = true
			st.m.log.Debug("ptyseam/screen: rebuilding the screen from the newest output", "session", st.id, "lost", st.ring.start-st.fed)
		}
		st.term = newTerm(st.sizeAtLocked(st.ring.start))
		st.fed = st.ring.start
	}
	p := startPump(st.term)
	defer func() { st.queueRepliesLocked(p.stop()) }()
	for {
		if err := st.term.resize(st.sizeAtLocked(st.fed)); err != nil {
			p = st.replaceTermLocked(p, err)
			continue
		}
		st.queueRepliesLocked(p.sync()) // in-band resize reports
		if st.fed >= end {
			return
		}
		limit := end
		if next := st.nextMarkLocked(st.fed); next >= 0 && next < limit {
			limit = next
		}
		if err := st.feedLocked(p, st.fed, limit); err != nil {
			st.fed = limit // skip what the emulator choked on
			st.answered = max(st.answered, limit)
			p = st.replaceTermLocked(p, err)
			continue
		}
		st.fed = limit
		st.answered = max(st.answered, limit)
	}
}

// feedLocked feeds the ring's bytes [from, to) to the emulator, answering
// only those at or after st.answered.
func (st *state) feedLocked(p *pump, from, to int64) error {
	a, b := st.ring.slices(from)
	n := int(to - from)
	if len(a) > n {
		a, b = a[:n], nil
	} else if len(a)+len(b) > n {
		b = b[:n-len(a)]
	}
	mute := int(max(min(st.answered, to)-from, 0)) // leading bytes already answered
	for _, seg := range [][]byte{a, b} {
		if len(seg) == 0 {
			continue
		}
		k := min(mute, len(seg))
		if k > 0 {
			if err := st.writeLocked(seg[:k]); err != nil {
				return err
			}
			p.sync() // answered before: drop
			seg, mute = seg[k:], mute-k
		}
		if len(seg) > 0 {
			if err := st.writeLocked(seg); err != nil {
				return err
			}
			st.queueRepliesLocked(p.sync())
		}
	}
	return nil
}

// writeLocked feeds bytes to the emulator and notices full redraws, which
// make an approximate screen exact again.
func (st *state) writeLocked(seg []byte) error {
	if err := st.term.write(seg); err != nil {
		return err
	}
	if st.approx && (st.term.redrawn || bytes.Contains(seg, clearScreen) || bytes.Contains(seg, fullReset)) {
		st.approx = false
	}
	st.term.redrawn = false
	return nil
}

var (
	clearScreen = []byte("\x1b[2J") // erase the whole display
	fullReset   = []byte("\x1bc")   // RIS
)

// replaceTermLocked discards an emulator that failed (it panicked on some
// output) and starts a fresh one at the current offset; the screen is
// approximate until the program redraws.
func (st *state) replaceTermLocked(p *pump, err error) *pump {
	st.m.log.Warn("ptyseam/screen: the terminal emulator failed; starting a fresh one", "session", st.id, "err", err)
	p.stop()
	st.term = newTerm(st.sizeAtLocked(st.fed))
	st.approx = true
	return startPump(st.term)
}
