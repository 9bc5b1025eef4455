package localpty

import (
	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/internal/procfs"
)

// groupIgnores reports whether every live process of group pgid ignores
// sig (SIG_IGN in /proc/PID/status), so that sending it changes nothing.
// SIGKILL and SIGCONT act whatever a process's disposition, and a group
// none of whose processes can be read is not known to ignore anything.
func (s *session) groupIgnores(pgid int, sig unix.Signal) bool {
	if sig == unix.SIGKILL || sig == unix.SIGCONT {
		return false
	}
	bit := uint64(1) << (sig - 1)
	var buf [4096]byte
	members := s.groupMembers(pgid, buf[:0])
	for _, m := range members {
		b, err := procfs.ReadFile(procfs.Path(m.pid, "status"), buf[:0])
		if err != nil {
			return false
		}
		ts, err := procfs.ParseStatus(b)
		if err != nil || ts.SigIgn&bit == 0 {
			return false
		}
	}
	return len(members) > 0
}
