package main

import (
	"os"

	"golang.org/x/sys/unix"
)

// termState is a saved terminal mode of standard input.
type termState struct {
	fd  int
	old unix.Termios
}

// changeMode applies edit to standard input's terminal mode and returns the
// previous mode for restore.
func changeMode(edit func(t *unix.Termios)) (*termState, error) {
	fd := int(os.Stdin.Fd())
	t, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, err
	}
	st := &termState{fd: fd, old: *t}
	edit(t)
	if err := unix.IoctlSetTermios(fd, ioctlSetTermios, t); err != nil {
		return nil, err
	}
	return st, nil
}

// restore puts the saved mode back.
func (s *termState) restore() {
	_ = unix.IoctlSetTermios(s.fd, ioctlSetTermios, &s.old)
}

// echoOff turns input echo off and leaves line editing on (a password
// prompt).
func echoOff(t *unix.Termios) {
	t.Lflag &^= unix.ECHO | unix.ECHOE | unix.ECHOK
	t.Lflag |= unix.ECHONL
}

// rawInput turns line editing and echo off; reads return after at most a
// tenth of a second even without input. Signals and output processing stay.
func rawInput(t *unix.Termios) {
	t.Lflag &^= unix.ICANON | unix.ECHO | unix.ECHOE | unix.ECHOK | unix.ECHONL | unix.IEXTEN
	t.Iflag &^= unix.ICRNL | unix.INLCR | unix.IXON
	t.Cc[unix.VMIN] = 0
	t.Cc[unix.VTIME] = 1
}
