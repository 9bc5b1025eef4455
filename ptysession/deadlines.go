package ptysession

import (
	"time"

	"github.com/ptyseam/ptyseam/core"
)

// checkDeadlines validates a caller's deadline and quiet window: neither
// negative, neither above Options.MaxTimeout. A quiet window as long as
// the deadline is allowed: silence then never settles the call, only a
// prompt, a read of input, the exit or the deadline.
func (s *Sessions) checkDeadlines(op string, id core.SessionID, timeout, quiet time.Duration) error {
	max := s.opts.MaxTimeout
	switch {
	case timeout < 0:
		return invalid(op, id, "timeout", "must not be negative")
	case quiet < 0:
		return invalid(op, id, "quietWindow", "must not be negative")
	case timeout > max:
		return invalid(op, id, "timeout", "%s exceeds the maximum of %s", timeout, max)
	case quiet > max:
		return invalid(op, id, "quietWindow", "%s exceeds the maximum of %s", quiet, max)
	}
	return nil
}
