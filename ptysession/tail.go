package ptysession

import (
	"context"
	"strings"

	"github.com/ptyseam/ptyseam/core"
)

// TailResult is the output since the previous tail: the output delta
// (see [core.OutputDelta]) past the owner's tail position, bounded by the
// line budget (or Options.MaxResultBytes; the newest lines are kept). Its
// Text holds completed lines ending with "\n" and an unterminated last
// line (a prompt such as ">>> ") as is, continued by the next tail; if a
// line already partly returned was rewritten since (a carriage return),
// Text repeats it whole after a "\r", and if its rest was skipped, Text
// starts with "\n" closing it.
type TailResult struct {
	core.OutputDelta
	// Lines counts the lines Text touches (a continued or unterminated
	// line counts as one).
	Lines int `json:"lines"`
	// Cut lists the line ranges left out of Text, by global line number,
	// when Options.Cut is CutKeepErrors (Text then holds a marker line in
	// place of each, and keeps the first lines and the error-looking
	// ones as well as the newest). Lines the session no longer retained
	// count in Skipped only: no read pages them.
	Cut []LineRange `json:"cut,omitempty"`
}

// Tail returns the output the session printed that owner has not been
// given yet (by Open, Send or an earlier Tail), at most lines lines (0:
// Options.TailLines). Output is returned once: open, send and tail each
// move your tail position past the output they return, so a later tail
// starts after it; to read output again, page it by line number with
// [Sessions.Read]. Concatenating every open's InitialOutput, send's Delta
// and tail's Text gives the session's cleaned output exactly, except where
// a result says Truncated, and then Skipped says exactly how many lines it
// left out (the newest lines are kept). lines below 0 or above 10,000 is
// INVALID_ARGUMENT. Tail works on an exited session until it is closed.
func (s *Sessions) Tail(ctx context.Context, owner *core.Owner, id core.SessionID, lines int) (TailResult, error) {
	const op = "tail"
	if err := checkCall(ctx, op, owner, id); err != nil {
		return TailResult{}, err
	}
	if lines < 0 || lines > MaxLines {
		return TailResult{}, invalid(op, id, "lines", "must be between 0 and %d, got %d", MaxLines, lines)
	}
	if lines == 0 {
		lines = s.opts.TailLines
	}
	d, cut, err := s.consumeCut(owner, id, lines)
	if err != nil {
		return TailResult{}, err
	}
	return TailResult{OutputDelta: d, Lines: countLines(d.Text), Cut: cut}, nil
}

// countLines counts the lines text touches: its newlines, plus one for an
// unterminated last line. A leading "\n" that only closes a line returned
// earlier does not count.
func countLines(text string) int {
	text = strings.TrimPrefix(text, "\n")
	if text == "" {
		return 0
	}
	n := strings.Count(text, "\n")
	if !strings.HasSuffix(text, "\n") {
		n++
	}
	return n
}
