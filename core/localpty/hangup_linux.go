package localpty

import (
	"context"
	"time"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// An interactive bash that gets SIGHUP while it is not reading the
// terminal (it has just run a command and is printing its prompt, or
// running PROMPT_COMMAND) notes the signal in its handler and acts on it
// at its next check; the read of the terminal it goes on to make does not
// check first, and the shell sits at its prompt, hung up but running,
// until input arrives. A hangup that lands while it reads ends the read
// and the shell, and a terminal's real hangup ends the read anyway (the
// terminal is gone); a signal alone does not.
//
// So after a SIGHUP to the shell's own group at a moment it was not seen
// reading, Signal watches, for a bounded time, for the shell to read the
// terminal again while still alive, and hangs it up again there
// (docs/localpty.md, "A hangup the shell holds back").

const (
	// hangupFollowLimit bounds how long Signal watches after a hangup
	// the shell may hold back (a failure bound: the shell is back in its
	// read within milliseconds unless the machine is loaded).
	hangupFollowLimit = 3 * time.Second
	// maxHangups bounds the hangups one Signal delivers: the caller's and
	// two more (a shell that traps SIGHUP and goes on runs its trap for
	// each).
	maxHangups = 3
)

const sighupBit = 1 << (unix.SIGHUP - 1)

// hangupMayBeHeld reports, before a hangup to group pgid, whether the
// shell may hold it back: pgid is the group of the session's top-level
// process, a shell with job control that does not ignore SIGHUP, and the
// shell is not seen reading the terminal.
func (s *session) hangupMayBeHeld(pgid int) bool {
	if pgid != s.pid || !jobControlShell(s.pid) || ignoresHangup(s.pid) {
		return false
	}
	st, err := s.probe()
	return err == nil && !(st.Leader && st.ReadingInput)
}

// ignoresHangup reports whether pid ignores SIGHUP (trap "" HUP).
func ignoresHangup(pid int) bool {
	var buf [4096]byte
	b, err := procfs.ReadFile(procfs.Path(pid, "status"), buf[:0])
	if err != nil {
		return false
	}
	ts, err := procfs.ParseStatus(b)
	return err == nil && ts.SigIgn&sighupBit != 0
}

// followHangup runs after a hangup to the shell's group pgid that the
// shell may hold back: until the shell exits, within hangupFollowLimit,
// each time it is seen reading the terminal it is hung up again (at most
// maxHangups in all).
func (s *session) followHangup(ctx context.Context, pgid int) {
	ctx, cancel := context.WithTimeout(ctx, hangupFollowLimit)
	defer cancel()
	tick := time.NewTicker(interruptFollowPoll)
	defer tick.Stop()
	for sent := 1; sent < maxHangups; {
		select {
		case <-s.exit.Exited():
			return
		case <-ctx.Done():
			return
		case <-tick.C:
		}
		st, err := s.probe()
		if err != nil {
			return
		}
		if !st.Leader || !st.ReadingInput {
			continue // still on its way to its prompt, or exiting
		}
		if err := s.plat.verifyGroup(s.pid, pgid); err != nil {
			return
		}
		if err := unix.Kill(-pgid, unix.SIGHUP); err != nil {
			return
		}
		sent++
		s.log.Debug("localpty: hangup followed up", "pid", s.pid, "pgid", pgid)
	}
}
