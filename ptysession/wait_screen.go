package ptysession

import (
	"context"

	"github.com/ptyseam/ptyseam/core"
)

// watchScreen completes a WaitScreen condition: its target must be one of
// owner's sessions, and a source must read screens.
func (s *Sessions) watchScreen(owner *core.Owner, w *Watch, field func(string) string, sources []WaitSource) (*Watch, error) {
	if w.cond.Target == "" {
		return nil, invalid("", "", field("target"), "is empty: name a session id")
	}
	if core.IsJobID(w.cond.Target) {
		return nil, invalid("", "", field("kind"), "%s is a background job: it has no screen; wait for its output instead", w.cond.Target)
	}
	for _, src := range sources {
		if p, ok := src.(ScreenPeeker); ok {
			w.peek = p
		}
	}
	if w.peek == nil {
		return nil, invalid("", "", field("kind"), "this server does not keep screens: wait for output instead")
	}
	sw := sessionWatcher{s: s, owner: owner, id: core.SessionID(w.cond.Target)}
	if _, err := sw.Status(); err != nil {
		return nil, err
	}
	w.w, w.owner = sw, owner
	rows, err := w.peek.PeekScreen(context.Background(), owner, core.SessionID(w.cond.Target))
	if err != nil {
		return nil, err
	}
	w.rows = rows
	return w, nil
}

// checkScreen tests a WaitScreen condition once: a row matching the
// pattern, or without one the first row that differs from the start.
func (w *Watch) checkScreen(ctx context.Context) (WaitResult, bool, error) {
	rows, err := w.peek.PeekScreen(ctx, w.owner, core.SessionID(w.cond.Target))
	if err != nil {
		return WaitResult{}, false, err
	}
	row := -1
	for i, r := range rows {
		if (w.re != nil && w.re.MatchString(r)) || (w.re == nil && (i >= len(w.rows) || r != w.rows[i])) {
			row = i
			break
		}
	}
	if row < 0 && w.re == nil && len(rows) < len(w.rows) { // resized smaller
		row = max(len(rows)-1, 0)
	}
	if row < 0 {
		return WaitResult{}, false, nil
	}
	res := WaitResult{Target: w.cond.Target, Row: &row}
	if row < len(rows) {
		res.Line = rows[row]
	}
	if st, err := w.w.Status(); err == nil {
		res.Status = &st
	}
	return res, true, nil
}
