//go:build unix

package localpty

import "github.com/ptyseam/ptyseam/core"

// foreground is what probe finds in /proc about the terminal's foreground
// process group (core.InputWait is what it answers from it).
type foreground struct {
	PGID          int    // the foreground process group (TIOCGPGRP)
	Leader        bool   // PGID is the top-level process's own group
	ReadingInput  bool   // every live task sleeps, one blocked reading the terminal
	Switches      uint64 // voluntary switches of the tasks blocked on the terminal
	Readers       uint64 // which tasks those are (readersID)
	PendingOutput int    // output not read from the terminal (-1 unknown; >= 1 while a read is uncounted)
	PendingInput  int    // typed input the program has not read (-1 unknown)
	Relay         bool   // a task blocked on the terminal also waits on a socket to a peer or on a PTY master
	EventLoop     bool   // a task blocked on the terminal waits in epoll
	SideThread    bool   // a task blocked on the terminal is not its process's main thread
	OutputRead    uint64 // bytes Read returned, measured after PendingOutput
	ReaderPIDs    []int  // the processes of the tasks blocked on the terminal
}

// Foreground reports who holds the terminal with one TIOCGPGRP and, when
// the top-level process does, its main thread's wake-ups (one /proc read)
// with that thread as the reader (see core.Prober.Foreground).
func (s *session) Foreground() (core.InputBaseline, error) {
	pgid, err := s.foregroundPGID("probe")
	if err != nil {
		return core.InputBaseline{}, err
	}
	b := core.InputBaseline{Group: pgid, Leader: pgid == s.pid}
	if b.Leader {
		b.Wakes, err = s.leaderSwitches()
		b.Readers = readersID([]int{s.pid})
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
	now := core.InputBaseline{Group: st.PGID, Leader: st.Leader, Wakes: st.Switches, Readers: st.Readers}
	iw := core.InputWait{
		Now:        now,
		Reading:    st.ReadingInput,
		Waiting:    st.ReadingInput && st.PendingOutput <= 0 && st.PendingInput <= 0 && st.OutputRead <= taken,
		New:        now.Differs(base),
		Relay:      st.Relay,
		EventLoop:  st.EventLoop,
		SideThread: st.SideThread,
	}
	if iw.Waiting {
		// One TCGETS, only for a wait that may settle a send; and for a
		// program that reads keys, who reads them (a password dialog).
		m, err := s.EchoMode()
		iw.Hidden = err == nil && m == core.EchoHidden
		if err == nil && m == core.EchoByProgram {
			iw.Dialog = readersOf(st).PasswordDialog()
		}
	}
	return iw, nil
}

// WarmBaseline takes the top-level process's wake-up reading now, once a
// send settled on the shell's prompt (core.Prober.WarmBaseline): the next
// Foreground answers from it with one schedstat read while it holds.
func (s *session) WarmBaseline() { s.leader.warm() }
