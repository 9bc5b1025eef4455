//go:build unix && !linux

package localpty

// discardTypedAhead is Linux-only; elsewhere input typed ahead stays
// queued through a signal.
func (s *session) discardTypedAhead() {}
