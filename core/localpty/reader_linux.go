package localpty

import (
	"bytes"
	"os"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// maxArgvBytes bounds the command line read for one program.
const maxArgvBytes = 4096

// DescribeReader lists the terminal's foreground group from /proc: each
// process's executable, command line, and whether it is blocked reading
// the terminal (see core.Prober.DescribeReader).
func (s *session) DescribeReader() (core.TerminalReader, error) {
	pgid, err := s.foregroundPGID("reader")
	if err != nil {
		return core.TerminalReader{}, err
	}
	r := core.TerminalReader{Group: pgid, Leader: pgid == s.pid}
	var buf [2048]byte
	for _, m := range s.groupMembers(pgid, buf[:0]) {
		if len(r.Programs) == core.MaxReaderPrograms {
			break
		}
		p := core.ReaderProgram{PID: m.pid}
		p.Exe, _ = os.Readlink(procfs.Path(m.pid, "exe"))
		if b, err := procfs.ReadFile(procfs.Path(m.pid, "cmdline"), nil); err == nil {
			p.Argv = splitArgv(b)
		}
		for _, tid := range m.tids {
			if s.taskWaitsOnTTY(m.pid, tid, buf[:0], nil).onTTY {
				p.Reading = true
				break
			}
		}
		r.Programs = append(r.Programs, p)
	}
	return r, nil
}

// splitArgv splits a /proc cmdline (arguments ended by NUL) within
// maxArgvBytes.
func splitArgv(b []byte) []string {
	if len(b) > maxArgvBytes {
		b = b[:maxArgvBytes]
	}
	b = bytes.TrimSuffix(b, []byte{0})
	if len(b) == 0 {
		return nil
	}
	var out []string
	for a := range bytes.SplitSeq(b, []byte{0}) {
		out = append(out, string(a))
	}
	return out
}
