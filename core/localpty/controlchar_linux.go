package localpty

import (
	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// ControlChar returns the terminal's key for sig (VINTR, VQUIT, VSUSP),
// read from the pty's termios, and whether the program holding it reads
// the key raw: ISIG off (an editor, Node's REPL, an ssh client, which
// keeps the characters it sent to the far end's terminal when it
// started) or the key disabled (jshell's line editor disables VINTR and
// reads ^C itself). An error when sig has no key or the termios cannot be
// read (see core.Prober).
func (s *session) ControlChar(sig core.Signal) (core.ControlKey, error) {
	var idx int
	switch sig {
	case core.SIGINT:
		idx = unix.VINTR
	case core.SIGQUIT:
		idx = unix.VQUIT
	case core.SIGTSTP:
		idx = unix.VSUSP
	default:
		return core.ControlKey{}, core.Errorf(core.CodeUnsupported, "the terminal has no control character for %s", sig)
	}
	var k core.ControlKey
	err := s.withMaster("signal", func(fd int) error {
		t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return err
		}
		c := t.Cc[idx] // 0 is _POSIX_VDISABLE on Linux
		k = core.ControlKey{Char: c, Raw: t.Lflag&unix.ISIG == 0 || c == 0}
		return nil
	})
	if err != nil {
		return core.ControlKey{}, err
	}
	return k, nil
}
