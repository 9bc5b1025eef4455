package localpty

// OutputEnd answers core.Prober.OutputEnd: what Read returned so far plus
// the bytes waiting in the terminal (pendingOutput). The look is complete
// when the terminal held nothing: pendingOutput's poll then waited for the
// kernel's flip buffer to reach the master side, so everything written
// before it was read. Waiting bytes do not make that poll wait, and more
// may sit behind them in the flip buffer (the line discipline takes 4 KiB
// at a time), so with bytes waiting the end is a lower bound. The count
// and the terminal cannot be read at one instant: a read under way across
// the look, or a count that moved, makes it a lower bound too.
func (s *session) OutputEnd() (end uint64, complete bool, err error) {
	before := s.outputRead.Load()
	busy := s.readInFlight.Load()
	n := s.pendingOutput()
	if n < 0 {
		return 0, false, errClosed("drain")
	}
	busy = busy || s.readInFlight.Load()
	if after := s.outputRead.Load(); busy || after != before {
		return before, false, nil
	}
	return before + uint64(n), n == 0, nil
}
