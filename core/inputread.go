package core

import (
	"slices"
	"strings"
)

// InputRead is a count of what the terminal's foreground group read.
type InputRead struct {
	Group int   // the foreground process group
	PIDs  []int // its processes, ascending
	// Read is the bytes the read system calls of those processes
	// returned, from any file (rchar): at least what they read from the
	// terminal.
	Read uint64
	// Pending is the input typed into the terminal and not read yet, -1
	// when unknown.
	Pending int
	// Special holds the bytes the terminal takes itself instead of
	// queuing them for a read: its interrupt, quit and suspend
	// characters while ISIG is on, stop and start while IXON is on.
	Special string
}

// Discarded returns how many of the written bytes, written between base
// and c, left the terminal's input without being read: written plus what
// was pending at base, less what was read and what is still pending. It
// returns 0 when the counts do not compare: another foreground group, a
// process of base that is gone (what it read is no longer counted), an
// unknown pending count, or a written byte the terminal takes itself
// (Special: a Ctrl-C that became SIGINT was never queued). Reads of other
// files make the result smaller, never larger.
func (c InputRead) Discarded(base InputRead, written []byte) int {
	if c.Group == 0 || c.Group != base.Group || c.Pending < 0 || base.Pending < 0 || c.Read < base.Read {
		return 0
	}
	if special := base.Special + c.Special; special != "" && strings.ContainsAny(string(written), special) {
		return 0
	}
	for _, p := range base.PIDs {
		if _, ok := slices.BinarySearch(c.PIDs, p); !ok {
			return 0
		}
	}
	n := uint64(len(written)) + uint64(base.Pending)
	if used := c.Read - base.Read + uint64(c.Pending); used < n {
		return int(n - used)
	}
	return 0
}

// InputRead counts what the foreground group of owner's session id has
// read of the terminal (see [Prober].InputRead). It fails with
// CodeUnsupported when the backend cannot tell.
func (s *Service) InputRead(owner *Owner, id SessionID) (InputRead, error) {
	sess, err := s.lookup("input_read", owner, id)
	if err != nil {
		return InputRead{}, err
	}
	r, err := sess.probe.InputRead()
	if unsupportedProbe(err) {
		return InputRead{}, newError(CodeUnsupported, "input_read", id, "this terminal cannot count what its program reads")
	}
	if err != nil {
		return InputRead{}, backendError("input_read", id, err)
	}
	return r, nil
}
