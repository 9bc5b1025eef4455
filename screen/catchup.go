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
	start, end := st.ringBounds()
	st.trimMarksLocked(start)
	if st.term != nil && st.fed == end && st.term.size == st.sizeAtLocked(end) {
		return
	}
	var p *pump
	defer func() {
		if p != nil {
			st.queueRepliesLocked(p.stop())
		}
	}()
	for {
		// The read loop keeps writing while the emulator works: bytes
		// it overwrote before the emulator saw them are lost.
		if st.term == nil || st.fed < start {
			if st.term != nil || start > 0 {
				st.approx = true
				st.m.log.Debug("ptyseam/screen: rebuilding the screen from the newest output", "session", st.id, "lost", start-st.fed)
			}
			if p != nil {
				st.queueRepliesLocked(p.stop())
			}
			st.term = newTerm(st.sizeAtLocked(start))
			st.fed = start
			p = startPump(st.term)
		}
		if p == nil {
			p = startPump(st.term)
		}
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
		lost, err := st.feedLocked(p, st.fed, limit)
		if lost {
			start, _ = st.ringBounds()
			continue
		}
		if err != nil {
			st.fed = limit // skip what the emulator choked on
			st.answered = max(st.answered, limit)
			p = st.replaceTermLocked(p, err)
			continue
		}
		st.fed = limit
		st.answered = max(st.answered, limit)
	}
}

// ringBounds returns the stream offsets of the oldest byte the ring keeps
// and of the end of what it took in.
func (st *state) ringBounds() (start, end int64) {
	st.ringMu.Lock()
	defer st.ringMu.Unlock()
	return st.ring.start, st.ring.end
}

// The emulator is fed what the ring holds in one piece when it can: the
// elision of long runs of text (queryScanner.filter) works within one
// write, and a flood cut into pieces would make the emulator draw the
// last screenful of every piece. The copy out holds the read loop for a
// memmove of at most the ring's size; the copy is dropped after a large
// catch-up (keepScratch) so that a quiet session holds little.
const keepScratch = 64 << 10

// copyOut copies the ring's bytes from offset from up to to into
// st.scratch. It reports false if the ring no longer holds the byte at
// from (the read loop overwrote it).
func (st *state) copyOut(from, to int64) ([]byte, bool) {
	st.ringMu.Lock()
	defer st.ringMu.Unlock()
	a, b := st.ring.slices(from)
	n := int(min(to-from, int64(len(a)+len(b))))
	if from < st.ring.start || n <= 0 {
		return nil, false
	}
	if cap(st.scratch) < n {
		st.scratch = make([]byte, 0, n)
	}
	out := st.scratch[:0]
	out = append(out, a[:min(n, len(a))]...)
	if len(out) < n {
		out = append(out, b[:n-len(out)]...)
	}
	return out, true
}

// feedLocked feeds the ring's bytes [from, to) to the emulator, answering
// only those at or after st.answered. It reports lost (and feeds nothing
// more) when the read loop overwrote bytes the emulator had not seen yet;
// st.fed then stands after the bytes fed.
func (st *state) feedLocked(p *pump, from, to int64) (lost bool, err error) {
	// The replies of the bytes already answered are dropped at one sync
	// after the last of them, the others' queued at one sync at the end:
	// a sync is a round trip with the pump's goroutine.
	mutedTo := min(max(st.answered, from), to)
	muting := from < mutedTo
	pending := false // bytes fed since the last sync
	for from < to {
		end := to
		if from < mutedTo {
			end = mutedTo
		}
		seg, ok := st.copyOut(from, end)
		if !ok {
			if r := p.sync(); pending && !muting {
				st.queueRepliesLocked(r)
			}
			return true, nil
		}
		if err := st.writeLocked(seg); err != nil {
			return false, err
		}
		from += int64(len(seg))
		st.fed = from
		pending = true
		if muting && from == mutedTo {
			p.sync() // answered before: drop
			pending, muting = false, false
		}
		st.answered = max(st.answered, from)
	}
	if pending {
		st.queueRepliesLocked(p.sync())
	}
	if cap(st.scratch) > keepScratch {
		st.scratch = nil
	}
	return false, nil
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
