package ptysession

import (
	"github.com/ptyseam/ptyseam/core"
)

// consume returns the output of a session that owner has not been given
// yet (by Open, Send or Tail), at most maxLines lines and
// Options.MaxResultBytes bytes (the newest part), and moves owner's tail
// position past it. The position is the seam's ([core.Service.Tail]):
// concurrent consumers of one session never get the same output.
func (s *Sessions) consume(owner *core.Owner, id core.SessionID, maxLines int) (core.OutputDelta, error) {
	d, _, err := s.consumeCut(owner, id, maxLines)
	return d, err
}

// consumeCut is consume that also returns the line ranges a cut left out
// (with Options.Cut CutKeepErrors; nil otherwise).
func (s *Sessions) consumeCut(owner *core.Owner, id core.SessionID, maxLines int) (core.OutputDelta, []LineRange, error) {
	r, err := s.t.Tail(owner, id, s.tailRequest(maxLines))
	return r.OutputDelta, r.Cut, err
}

// tailRequest is the facade's bound on a result's output: maxLines lines,
// Options.MaxResultBytes bytes, cut as Options.Cut says.
func (s *Sessions) tailRequest(maxLines int) core.TailRequest {
	return core.TailRequest{Lines: maxLines, Bytes: s.opts.MaxResultBytes, KeepErrors: s.opts.Cut == CutKeepErrors}
}

// TailBounds is the tail request the facade's own sends and tails cut
// their output with (its line and byte bounds, and its cut): for a tool
// that sends through the service on the facade's behalf (the screen's
// keys in a line-mode program) and returns the output as a send would.
func (s *Sessions) TailBounds() core.TailRequest { return s.tailRequest(MaxLines) }

// Skip moves owner's tail of session id past everything the session has
// printed so far, without returning it: for a caller that showed the
// output another way (a screen of a full-screen program), so that the
// next Send, Tail or Wait does not return it again as a stream. Output
// stays readable by line number with [Sessions.Read].
func (s *Sessions) Skip(owner *core.Owner, id core.SessionID) error {
	return s.t.SkipTail(owner, id)
}
