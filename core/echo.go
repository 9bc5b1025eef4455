package core

// EchoReporter is implemented by backend sessions that can tell whether
// the terminal reads input it does not show (a password: echo off in
// canonical mode), so that [Service.EchoOff] can tell a password prompt.
type EchoReporter interface {
	// EchoOff reports whether echo is off; known is false when the
	// terminal's mode cannot be read.
	EchoOff() (off, known bool)
}

// EchoOff reports whether owner's session id reads a hidden line now (a
// password or passphrase prompt: echo off in canonical mode). known is
// false when the backend cannot tell (see [EchoReporter]).
func (s *Service) EchoOff(owner *Owner, id SessionID) (off, known bool, err error) {
	sess, err := s.lookup("echo", owner, id)
	if err != nil {
		return false, false, err
	}
	r, ok := sess.be.(EchoReporter)
	if !ok {
		return false, false, nil
	}
	off, known = r.EchoOff()
	return off, known, nil
}
