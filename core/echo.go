package core

// EchoMode is what a terminal does with the input written to it, as its
// backend reads the terminal's modes.
type EchoMode uint8

// Echo modes.
const (
	// EchoUnknown: the backend cannot tell (a remote shell relayed over
	// ssh, a backend whose [Prober] does not read echo modes). Whether
	// input was shown is told by the output that follows it (see
	// core/record).
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

// EchoOff reports whether owner's session id reads a hidden line now (a
// password or passphrase prompt: echo off in canonical mode, EchoHidden).
// known is false when the backend cannot tell (see [Prober].EchoMode).
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
	m, err := sess.probe.EchoMode()
	if err != nil {
		return EchoUnknown
	}
	return m
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
