package localpty

import (
	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// ControlChar returns the terminal's control character for sig (VINTR,
// VQUIT, VSUSP), read from the pty's termios; a program in raw mode (an
// ssh client relaying the terminal) keeps them, and ssh sent them to the
// far end's terminal when it started. An error when the character is
// disabled or the termios cannot be read (see core.Prober).
func (s *session) ControlChar(sig core.Signal) (byte, error) {
	var idx int
	switch sig {
	case core.SIGINT:
		idx = unix.VINTR
	case core.SIGQUIT:
		idx = unix.VQUIT
	case core.SIGTSTP:
		idx = unix.VSUSP
	default:
		return 0, core.Errorf(core.CodeUnsupported, "the terminal has no control character for %s", sig)
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
	if err != nil {
		return 0, err
	}
	if c == 0 { // _POSIX_VDISABLE on Linux
		return 0, core.Errorf(core.CodeUnsupported, "the terminal's character for %s is disabled", sig)
	}
	return c, nil
}
