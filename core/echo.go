package core

// EchoMode is what a terminal does with the input written to it, as its
// backend reads the terminal's modes.
type EchoMode uint8

// Echo modes.
const (
	// EchoUnknown: the backend cannot tell (a remote shell relayed over
	// ssh, a backend without an [EchoReporter]). Whether input was shown
	// is told by the output that follows it (see core/record).
	EchoUnknown EchoMode = iota
	// EchoOn: the terminal echoes input itself (ECHO on): what is typed
	// is on the screen.
	EchoOn
	// EchoHidden: the terminal reads a hidden line (ECHO off in
	// canonical mode, as getpass, sudo, ssh and `read -s` set it): what
	// is typed is a secret.
	EchoHidden
	// EchoByProgram: ECHO and ICANON off: the program reads each key
	// and shows what it chooses. Line editors and full-screen programs
	// show what is typed; a masked prompt ('*' per key), an ssh client
	// (whose far side decides) may not. Whether input was shown is told by
	// the output that follows it (see core/record).
	EchoByProgram
)

// String names the mode.
func (m EchoMode) String() string {
	switch m {
	case EchoOn:
		return "on"
	case EchoHidden:
		return "hidden"
	case EchoByProgram:
		return "by_program"
	}
	return "unknown"
}

// EchoReporter is implemented by backend sessions that can read the
// terminal's echo mode. The service then reports input written while the
// terminal reads a hidden line to observers without its bytes
// ([Event].Secret), and every input event carries the mode ([Event].Echo).
type EchoReporter interface {
	// EchoMode reports the terminal's echo mode now; EchoUnknown when its
	// modes cannot be read.
	EchoMode() EchoMode
}

// EchoOff reports whether owner's session id reads a hidden line now (a
// password or passphrase prompt: echo off in canonical mode, EchoHidden).
// known is false when the backend cannot tell (see [EchoReporter]).
func (s *Service) EchoOff(owner *Owner, id SessionID) (off, known bool, err error) {
	sess, err := s.lookup("echo", owner, id)
	if err != nil {
		return false, false, err
	}
	m := sess.echoMode()
	return m == EchoHidden, m != EchoUnknown, nil
}

// echoMode reads the terminal's echo mode, when the backend can tell.
func (sess *session) echoMode() EchoMode {
	if r, ok := sess.be.(EchoReporter); ok {
		return r.EchoMode()
	}
	return EchoUnknown
}

// inputEcho reads the echo mode for an input event: only observers
// (Options.OnEvent) need it, and reading it may cost a round trip (a
// remote terminal).
func (sess *session) inputEcho() EchoMode {
	if sess.svc.opts.OnEvent == nil {
		return EchoUnknown
	}
	return sess.echoMode()
}
