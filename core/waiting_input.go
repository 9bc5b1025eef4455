package core

// WaitingForInput reports whether whatever holds the terminal of owner's
// session id waits to read it: every process of the foreground group
// sleeps, one of them reads the terminal, and no output or input is in
// flight (see [Prober].InputWait). That is a program asking a question, or a
// shell back at its prompt. ok is false when the backend cannot tell (it
// does not watch input) or its answer failed (the program is exiting).
func (s *Service) WaitingForInput(owner *Owner, id SessionID) (waiting, ok bool, err error) {
	sess, err := s.lookup("probe", owner, id)
	if err != nil {
		return false, false, err
	}
	w, ok := sess.inputWait(InputBaseline{})
	return w.Waiting, ok, nil
}
