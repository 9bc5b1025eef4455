package localpty

import (
	"slices"

	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// InputRead counts what the terminal's foreground group read: the rchar
// of each of its processes (/proc/PID/io) and the input still unread in
// the terminal (see pendingRawInput and core.Prober.InputRead). A process
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
	r.Pending, r.Special = s.pendingRawInput()
	return r, nil
}

// pendingRawInput is pendingInput when the terminal is not in canonical
// mode, and -1 when it is: there a line not yet ended cannot be read and
// TIOCINQ does not count it, though it waits in the terminal. special
// holds the characters the terminal acts on instead of queuing them
// (core.InputRead.Special).
func (s *session) pendingRawInput() (pending int, special string) {
	fd, err := s.openSlave()
	if err != nil {
		return -1, ""
	}
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	unix.Close(fd)
	if err != nil {
		return -1, ""
	}
	var sp []byte
	if t.Lflag&unix.ISIG != 0 {
		sp = append(sp, t.Cc[unix.VINTR], t.Cc[unix.VQUIT], t.Cc[unix.VSUSP])
	}
	if t.Iflag&unix.IXON != 0 {
		sp = append(sp, t.Cc[unix.VSTOP], t.Cc[unix.VSTART])
	}
	if t.Lflag&unix.ICANON != 0 {
		return -1, string(sp)
	}
	return s.pendingInput(), string(sp)
}
