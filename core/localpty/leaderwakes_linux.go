package localpty

import (
	"errors"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// errSchedstatOff is the schedstat read's error where the kernel keeps no
// scheduler statistics: every reading is then a status read.
var errSchedstatOff = errors.New("the kernel keeps no scheduler statistics")

// readLocked returns the kept count when the thread's schedstat is still
// the one read before it, and otherwise reads the status, keeping it with
// the schedstat just read. l.mu is held.
func (l *leaderWakes) readLocked() (uint64, error) {
	var buf [4096]byte
	at, atErr := l.schedstat(buf[:0])
	if atErr == nil && l.held && at == l.at {
		return l.wakes, nil
	}
	l.held = false
	b, err := l.status.read(buf[:0])
	if err != nil {
		return 0, err
	}
	l.statusReads.Add(1)
	ts, err := procfs.ParseStatus(b)
	if err != nil {
		return 0, err
	}
	l.state = ts.State
	if atErr == nil {
		l.at, l.wakes, l.held = at, ts.VoluntarySwitches, true
	}
	return ts.VoluntarySwitches, nil
}

// schedstat reads the thread's schedstat.
func (l *leaderWakes) schedstat(buf []byte) (procfs.Schedstat, error) {
	b, err := l.sched.read(buf)
	if err != nil {
		return procfs.Schedstat{}, err
	}
	st, err := procfs.ParseSchedstat(b)
	if err == nil && !st.Known() {
		err = errSchedstatOff
	}
	return st, err
}
