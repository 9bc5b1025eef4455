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
