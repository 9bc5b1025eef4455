package ptysession

import (
	"github.com/ptyseam/ptyseam/core"
)

// consume returns the output of a session that owner has not been given
// yet (by Open, Send or Tail), at most maxLines lines and
// Options.MaxResultBytes bytes (the newest part), and moves owner's tail
// position past it. Concurrent consumers of one session are serialised and
// never get the same output.
func (s *Sessions) consume(owner *core.Owner, id core.SessionID, maxLines int) (core.OutputDelta, error) {
	d, _, err := s.consumeCut(owner, id, maxLines)
	return d, err
}

// consumeCut is consume that also returns the line ranges a cut left out
// (with Options.Cut CutKeepErrors; nil otherwise).
func (s *Sessions) consumeCut(owner *core.Owner, id core.SessionID, maxLines int) (core.OutputDelta, []LineRange, error) {
	cs := s.cursor(owner, id)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	var d core.OutputDelta
	var cut []LineRange
	var err error
	if s.opts.Cut == CutKeepErrors {
		d, cut, err = nextKeepingErrors(&cs.cur, s.reader(owner, id), maxLines, s.opts.MaxResultBytes)
	} else {
		d, err = cs.cur.Next(s.reader(owner, id), maxLines, s.opts.MaxResultBytes)
	}
	if err != nil {
		switch core.CodeOf(err) {
		case core.CodeNoSession, core.CodeForeignSession, core.CodeOwnerDisposed:
			s.forget(owner, id)
		}
	}
	return d, cut, err
}

// Skip moves owner's tail of session id past everything the session has
// printed so far, without returning it: for a caller that showed the
// output another way (a screen of a full-screen program), so that the
// next Send, Tail or Wait does not return it again as a stream. Output
// stays readable by line number with [Sessions.Read].
func (s *Sessions) Skip(owner *core.Owner, id core.SessionID) error {
	cs := s.cursor(owner, id)
	cs.mu.Lock()
	defer cs.mu.Unlock()
	_, err := cs.cur.Next(s.reader(owner, id), 1, s.opts.MaxResultBytes)
	switch core.CodeOf(err) {
	case core.CodeNoSession, core.CodeForeignSession, core.CodeOwnerDisposed:
		s.forget(owner, id)
	}
	return err
}
