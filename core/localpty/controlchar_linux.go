package localpty

import (
	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// ControlChar returns the terminal's control character for sig (VINTR,
// VQUIT, VSUSP), read from the pty's termios; a program in raw mode (an
// ssh client relaying the terminal) keeps them, and ssh sent them to the
// far end's terminal when it started. False when the character is
// disabled or the termios cannot be read (see core.ControlCharReader).
func (s *session) ControlChar(sig core.Signal) (byte, bool) {
	var idx int
	switch sig {
	case core.SIGINT:
		idx = unix.VINTR
	case core.SIGQUIT:
		idx = unix.VQUIT
	case core.SIGTSTP:
		idx = unix.VSUSP
	default:
		return 0, false
	}
	var c byte
	err := s.withMaster("signal", func(fd int) error {
		t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return err
		}
		c = t.Cc[idx]
		return nil
	})
	if err != nil || c == 0 { // 0 is _POSIX_VDISABLE on Linux
		return 0, false
	}
	return c, true
}

var _ core.ControlCharReader = (*session)(nil)
