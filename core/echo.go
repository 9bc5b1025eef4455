package core

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
