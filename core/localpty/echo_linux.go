package localpty

import (
	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// EchoOff reports whether the terminal reads a hidden line: ECHO off in
// canonical mode (ICANON), as getpass, sudo, ssh and `read -s` set it, read
// from the pty's termios (see core.EchoReporter). Line editors (readline)
// and full-screen programs turn ECHO off too, but in raw mode, and echo
// what they read themselves: their input is not hidden.
func (s *session) EchoOff() (off, known bool) {
	var lflag uint32
	err := s.withMaster("echo", func(fd int) error {
		t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return err
		}
		lflag = t.Lflag
		return nil
	})
	if err != nil {
		return false, false
	}
	return lflag&unix.ECHO == 0 && lflag&unix.ICANON != 0, true
}

var _ core.EchoReporter = (*session)(nil)
