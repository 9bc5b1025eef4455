package localpty

import "golang.org/x/sys/unix"

// discardTypedAhead discards the input typed into the terminal that no
// program has read, as the terminal itself does when its interrupt, quit
// or suspend character arrives (ISIG on, NOFLSH off): a SIGINT sent for a
// Ctrl-C must not leave a line typed ahead for the shell to run once the
// interrupted program is gone (the remote backends send the character
// itself, which flushes). The terminal's slave side is opened for the
// moment (see openSlave).
func (s *session) discardTypedAhead() {
	fd, err := s.openSlave()
	if err != nil {
		return
	}
	defer unix.Close(fd)
	t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
	if err != nil || t.Lflag&unix.ISIG == 0 || t.Lflag&unix.NOFLSH != 0 {
		return
	}
	_ = unix.IoctlSetInt(fd, unix.TCFLSH, unix.TCIFLUSH)
}
