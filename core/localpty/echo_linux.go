package localpty

import (
	"golang.org/x/sys/unix"

	"github.com/ptyseam/ptyseam/core"
)

// EchoMode reads the terminal's echo mode from the pty's termios (see
// core.Prober): ECHO on is core.EchoOn; ECHO off in canonical mode
// (ICANON), as getpass, sudo, ssh and `read -s` set it, is a hidden line,
// core.EchoHidden; ECHO and ICANON off is core.EchoByProgram (line
// editors, full-screen programs, masked prompts, an ssh client: the
// program shows what it chooses).
func (s *session) EchoMode() (core.EchoMode, error) {
	var lflag uint32
	err := s.withMaster("echo", func(fd int) error {
		t, err := unix.IoctlGetTermios(fd, unix.TCGETS)
		if err != nil {
			return err
		}
		lflag = t.Lflag
		return nil
	})
	switch {
	case err != nil:
		return core.EchoUnknown, err
	case lflag&unix.ECHO != 0:
		return core.EchoOn, nil
	case lflag&unix.ICANON != 0:
		return core.EchoHidden, nil
	}
	return core.EchoByProgram, nil
}
