package core

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ForegroundProgram describes the program holding a session's terminal
// when a send settled without a prompt or a read of the terminal
// (inferred_idle or timeout) and that program is not the session's
// top-level process: a command the shell started that is still busy, or
// waits on something other than the terminal. What the send typed and it
// has not read stays in the terminal's input queue: the next read of the
// terminal takes it (the program's, or the shell's once the program
// ended), and an interrupt discards it (a Ctrl-C typed into the terminal,
// or SIGINT through [Service.Signal], which discards it as the terminal
// does).
type ForegroundProgram struct {
	// Group is the terminal's foreground process group, the pid of its
	// leader.
	Group int `json:"pgid"`
	// Name is the group leader's command name, "" when unknown.
	Name string `json:"name,omitempty"`
	// Reading reports that the program is blocked reading the terminal.
	Reading bool `json:"reading,omitempty"`
	// UnreadInput counts the bytes typed into the terminal (whole lines,
	// for a program reading lines) that the program has not read; -1 when
	// the backend cannot tell.
	UnreadInput int `json:"unreadInput"`
	// IgnoresInterrupt reports that every process of the group ignores
	// SIGINT, so neither a Ctrl-C typed into the terminal nor SIGINT
	// through [Service.Signal] ends it; false when the backend cannot
	// tell.
	IgnoresInterrupt bool `json:"ignoresInterrupt,omitempty"`
}

// describeForeground is the program other than the top-level process
// that holds the terminal, or nil (the top-level process holds it, or the
// backend cannot tell).
func (sess *session) describeForeground() *ForegroundProgram {
	p, leader, err := sess.probe.DescribeForeground()
	if err != nil || leader || p.Group <= 0 {
		return nil
	}
	p.Name = programName(p.Name)
	return &p
}

// maxProgramName bounds [ForegroundProgram.Name] (a Linux command name
// has at most 15 bytes).
const maxProgramName = 64

// programName makes a program's name fit for a line of a result: a
// program chooses its own (it may write any 15 bytes to its
// /proc/PID/comm), so control characters and invalid UTF-8 become '?',
// and the name is cut at maxProgramName bytes.
func programName(s string) string {
	if len(s) > maxProgramName {
		s = s[:maxProgramName]
	}
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || unicode.IsControl(r) {
			return '?'
		}
		return r
	}, s)
}

// Foreground describes the program other than the top-level process that
// holds the terminal of owner's session id now ([Prober].DescribeForeground),
// or nil when the top-level process holds it or the backend cannot tell.
func (s *Service) Foreground(owner *Owner, id SessionID) (*ForegroundProgram, error) {
	sess, err := s.lookup("foreground", owner, id)
	if err != nil {
		return nil, err
	}
	return sess.describeForeground(), nil
}

// TerminalReader describes who reads a session's terminal: its
// foreground process group and every program in it. It is what a person
// is shown before typing a secret into the terminal, so that they see
// which program asks.
type TerminalReader struct {
	// Group is the terminal's foreground process group.
	Group int
	// Leader reports that Group is the session's top-level process's own
	// (the session's shell, when it runs one).
	Leader bool
	// Programs are the group's processes, then, when none of them reads
	// the terminal, the processes outside the group that read it for the
	// group (a daemon's helper: gpg-agent's pinentry for gpg); at most
	// [MaxReaderPrograms].
	Programs []ReaderProgram
}

// MaxReaderPrograms bounds [TerminalReader.Programs].
const MaxReaderPrograms = 16

// ReaderProgram is one process of a terminal's foreground group, or one
// that reads the terminal for it.
type ReaderProgram struct {
	PID int
	// Exe is the program's executable as the kernel knows it (a path),
	// "" when unknown. Unlike Argv[0] a program cannot choose it, though
	// it can copy or link an executable under another name.
	Exe string
	// Argv is the program's command line as it reports it.
	Argv []string
	// Reading reports that the process is blocked reading the terminal.
	Reading bool
}

// Reader describes who reads the terminal of owner's session id now
// ([Prober].DescribeReader). It fails with CodeUnsupported when the
// backend cannot tell.
func (s *Service) Reader(owner *Owner, id SessionID) (TerminalReader, error) {
	sess, err := s.lookup("reader", owner, id)
	if err != nil {
		return TerminalReader{}, err
	}
	r, err := sess.probe.DescribeReader()
	if unsupportedProbe(err) {
		return TerminalReader{}, newError(CodeUnsupported, "reader", id, "this terminal cannot tell which program reads it")
	}
	if err != nil {
		return TerminalReader{}, backendError("reader", id, err)
	}
	return r, nil
}
