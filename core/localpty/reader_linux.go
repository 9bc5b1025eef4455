package localpty

import (
	"bytes"
	"os"
	"slices"

	"github.com/ptyseam/ptyseam/core"
	"github.com/ptyseam/ptyseam/internal/procfs"
)

// maxArgvBytes bounds the command line read for one program.
const maxArgvBytes = 4096

// DescribeReader lists the terminal's foreground group from /proc: each
// process's executable, command line, and whether it is blocked reading
// the terminal (see core.Prober.DescribeReader). When no process of the
// group reads it, the processes that read it for the group
// (delegateReaders: gpg-agent's pinentry for gpg) follow the group's.
func (s *session) DescribeReader() (core.TerminalReader, error) {
	pgid, err := s.foregroundPGID("reader")
	if err != nil {
		return core.TerminalReader{}, err
	}
	r := core.TerminalReader{Group: pgid, Leader: pgid == s.pid}
	var buf [2048]byte
	group := s.groupMembers(pgid, buf[:0])
	reading := false
	var onSockets []socketWait
	for _, m := range group {
		if len(r.Programs) == core.MaxReaderPrograms {
			break
		}
		p := readerProgram(m.pid)
		for _, tid := range m.tids {
			w := s.taskWaitsOnTTY(m.pid, tid, buf[:0], nil)
			if w.onTTY {
				p.Reading, reading = true, true
				break
			}
			if len(w.sockets) > 0 {
				onSockets = append(onSockets, socketWait{m.pid, w.sockets})
			}
		}
		r.Programs = append(r.Programs, p)
	}
	if !reading {
		for _, d := range s.delegateReaders(group, onSockets, buf[:0]) {
			if !slices.ContainsFunc(r.Programs, func(p core.ReaderProgram) bool { return p.PID == d.pid }) {
				p := readerProgram(d.pid)
				p.Reading = true
				r.Programs = append(r.Programs, p)
			}
		}
	}
	if len(r.Programs) > core.MaxReaderPrograms {
		r.Programs = r.Programs[:core.MaxReaderPrograms]
	}
	return r, nil
}

// readersOf describes the processes a probe found reading the terminal.
func readersOf(st foreground) core.TerminalReader {
	r := core.TerminalReader{Group: st.PGID, Leader: st.Leader}
	for _, pid := range st.ReaderPIDs {
		p := readerProgram(pid)
		p.Reading = true
		r.Programs = append(r.Programs, p)
	}
	return r
}

// readerProgram describes process pid from /proc.
func readerProgram(pid int) core.ReaderProgram {
	p := core.ReaderProgram{PID: pid}
	p.Exe, _ = os.Readlink(procfs.Path(pid, "exe"))
	if b, err := procfs.ReadFile(procfs.Path(pid, "cmdline"), nil); err == nil {
		p.Argv = splitArgv(b)
	}
	return p
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
