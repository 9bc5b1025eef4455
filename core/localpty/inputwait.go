package localpty

import "github.com/ptyseam/ptyseam/core"

// foreground is a snapshot of the terminal's foreground process group,
// what probe finds in /proc.
type foreground struct {
	// PGID is the foreground process group id (TIOCGPGRP).
	PGID int
	// Leader reports that PGID is the top-level process's own group.
	Leader bool
	// ReadingInput reports that every live process of the group is
	// sleeping and at least one is blocked reading the terminal (read, or
	// select/poll/epoll on it).
	ReadingInput bool
	// Switches sums the voluntary context switches of the group's tasks
	// that are blocked on the terminal: it changes when such a task woke
	// (for input) and blocked again. Other threads (a runtime's
	// housekeeping threads wake all the time) do not count.
	Switches uint64
	// PendingOutput counts bytes the program wrote to the terminal that
	// have not been read from it yet (-1 when unknown); a reader between a
	// read and its count (readInFlight) counts at least one.
	PendingOutput int
	// PendingInput counts bytes written to the terminal that the program
	// could read but has not read yet (-1 when unknown).
	PendingInput int
	// Relay reports that a task blocked on the terminal also waits on a
	// TCP socket (it forwards the terminal to a peer).
	Relay bool
	// OutputRead counts the bytes Read has returned so far, measured after
	// PendingOutput.
	OutputRead uint64
}

// Foreground reports who holds the terminal with one TIOCGPGRP and, when
// the top-level process does, its main thread's wake-ups (one /proc read;
// see core.InputWatcher).
func (s *session) Foreground() (core.InputBaseline, error) {
	pgid, err := s.foregroundPGID("probe")
	if err != nil {
		return core.InputBaseline{}, err
	}
	b := core.InputBaseline{Group: pgid, Leader: pgid == s.pid}
	if b.Leader {
		b.Wakes, err = s.leaderSwitches()
	}
	return b, err
}

// InputWait answers core's question from a full probe: the foreground
// group reads the terminal with its input consumed, its output read from
// the terminal and taken in by the service (taken), newly since base.
func (s *session) InputWait(base core.InputBaseline, taken uint64) (core.InputWait, error) {
	st, err := s.probe()
	if err != nil {
		return core.InputWait{}, err
	}
	now := core.InputBaseline{Group: st.PGID, Leader: st.Leader, Wakes: st.Switches}
	return core.InputWait{
		Now:     now,
		Reading: st.ReadingInput,
		Waiting: st.ReadingInput && st.PendingOutput <= 0 && st.PendingInput <= 0 && st.OutputRead <= taken,
		New:     now.Differs(base),
		Relay:   st.Relay,
	}, nil
}
