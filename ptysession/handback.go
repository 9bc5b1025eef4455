package ptysession

import (
	"github.com/ptyseam/ptyseam/core"
)

// supervisor is what a service offers for a person to take control of a
// session ([core.Service] does; the testharness's registry does not).
type supervisor interface {
	TakeOver(owner *core.Owner, id core.SessionID, person string) (*core.Control, error)
}

// TakeOver gives a person control of one of owner's sessions (see
// [core.Service.TakeOver]): until [core.Control.HandBack], the owner's
// sends are refused with HUMAN_IN_CONTROL or held (the service's
// HumanControl policy), and the first send after it carries a
// [core.HandBackNote]. It is UNSUPPORTED on a seam that cannot hand control
// to a person.
func (s *Sessions) TakeOver(owner *core.Owner, id core.SessionID, person string) (*core.Control, error) {
	sv, ok := s.t.(supervisor)
	if !ok {
		return nil, &core.Error{Code: core.CodeUnsupported, Op: "take_over", Session: id, Msg: "this seam cannot hand control to a person"}
	}
	return sv.TakeOver(owner, id, person)
}

// boundHandBack bounds a hand-back note's output to a quarter of the
// result bound (the send's delta has the same output too, when the owner
// had not read it).
func (s *Sessions) boundHandBack(n *core.HandBackNote) *core.HandBackNote {
	if n == nil {
		return nil
	}
	b := *n
	text, truncated, skipped := boundNewest(n.Output, max(s.opts.MaxResultBytes/4, 256))
	b.Output, b.Truncated, b.SkippedLines = text, truncated || n.Truncated, n.SkippedLines+skipped
	return &b
}
