package localpty

import (
	"slices"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// InputRead counts what the terminal's foreground group read: the rchar
// of each of its processes (/proc/PID/io) and the input still unread in
// the terminal (see pendingRawInput and core.InputReadCounter). A process
// whose io file cannot be read fails the count: it might be the reader.
func (s *session) InputRead() (core.InputRead, error) {
	pgid, err := s.foregroundPGID("input_read")
	if err != nil {
		return core.InputRead{}, err
	}
	r := core.InputRead{Group: pgid}
	var buf [512]byte
	for _, m := range s.groupMembers(pgid, buf[:0]) {
		b, err := procfs.ReadFile(procfs.Path(m.pid, "io"), buf[:0])
		if err != nil {
			return core.InputRead{}, err
		}
		n, err := procfs.ParseIORchar(b)
		if err != nil {
			return core.InputRead{}, err
		}
		r.PIDs = append(r.PIDs, m.pid)
		r.Read += n
	}
	slices.Sort(r.PIDs)
	r.Pending = s.pendingRawInput()
	return r, nil
}

// pendingRawInput is pendingInput when the terminal is not in canonical
// mode, and -1 when it is: there a line not yet ended cannot be read and
// TIOCINQ does not count it, though it waits in the terminal.
func (s *session) pendingRawInput() int {
	fd, err := s.openSlave()
	if err != nil {
		return -1
	}
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	unix.Close(fd)
	if err != nil || t.Lflag&unix.ICANON != 0 {
		return -1
	}
	return s.pendingInput()
}

var _ core.InputReadCounter = (*session)(nil)
