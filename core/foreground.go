package core

// ForegroundGrouper is implemented by backends that can tell who holds the
// terminal with one cheap look (the local backend: one TIOCGPGRP ioctl),
// without the wake-up count that [InputWatcher.Foreground] also reads. The
// prompt tier asks it when a prompt marker arrives: only whether the
// top-level process group (the shell) holds the terminal.
type ForegroundGrouper interface {
	// ForegroundGroup returns the terminal's foreground process group and
	// whether it is the top-level process's own.
	ForegroundGroup() (group int, leader bool, err error)
}

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
}

// ForegroundDescriber is implemented by backends that can say which
// program holds the terminal (the local backend: /proc). The service asks
// it once when a send settles as inferred_idle or timeout.
type ForegroundDescriber interface {
	// DescribeForeground describes the terminal's foreground program and
	// reports whether it is the top-level process's own group.
	DescribeForeground() (p ForegroundProgram, leader bool, err error)
}

// describeForeground is the program other than the top-level process
// that holds the terminal, or nil (the top-level process holds it, or the
// backend cannot tell).
func (sess *session) describeForeground() *ForegroundProgram {
	d, ok := sess.be.(ForegroundDescriber)
	if !ok {
		return nil
	}
	p, leader, err := d.DescribeForeground()
	if err != nil || leader || p.Group <= 0 {
		return nil
	}
	return &p
}
